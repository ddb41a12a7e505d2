/**
 * Template engine throughput (issue 3): Ferry against Mustache (the classic `{{ }}` engine) and,
 * when installed, Postman's own variable substitution (`postman-collection`'s VariableScope),
 * measured in the same run on the same inputs.
 *
 *   npx tsx bench/template.ts
 *
 * 1. 10 MB of text without placeholders, rendered once per call (target ≥ 200 MB/s).
 * 2. A 1 MB body holding 10,000 placeholders (variables and request values), as a mock route renders
 *    it on every request: compiled once, rendered again and again (target ≤ 20 ms).
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import Mustache from 'mustache';
import { buildVariableScope, compile, render, requestValuesFromHttp } from '../src/template/index.js';

const MB = 1024 * 1024;

/** Median milliseconds of `fn` over `runs` runs after `warmup` unmeasured ones. */
function timeMs(fn: () => unknown, runs: number, warmup = 10): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  let sink = 0;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    const out = fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
    sink += typeof out === 'string' ? out.length : 0;
  }
  if (sink < 0) console.log(sink);
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

// Mustache HTML-escapes by default; a mock answer must not be escaped.
Mustache.escape = (text: string) => text;

type Postman = { VariableScope: new (init: { values: { key: string; value: string }[] }) => { replaceIn(text: string): string } };
function loadPostman(): Postman | undefined {
  try {
    return createRequire(import.meta.url)('postman-collection') as Postman;
  } catch {
    return undefined;
  }
}
const postman = loadPostman();

// ---- 1. placeholder-free text ------------------------------------------------------------------
const line = 'The quick brown fox jumps over the lazy dog; { "json": [1, 2, 3] } and more text.\n';
const plain = line.repeat(Math.ceil((10 * MB) / line.length)).slice(0, 10 * MB);
const scope = buildVariableScope({
  workspace: {
    variables: Array.from({ length: 50 }, (_, i) => ({ key: `var${i}`, value: `value-${i}`, enabled: true, secret: false })),
  },
});
const view: Record<string, unknown> = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`var${i}`, `value-${i}`]));

const plainFerry = timeMs(() => render(plain, 'mock.body', { variables: scope }), 20);
const plainMustache = timeMs(() => {
  Mustache.clearCache();
  return Mustache.render(plain, view);
}, 1, 0); // Mustache makes a token per character of text: seconds per run here
const postmanScope = postman
  ? new postman.VariableScope({ values: Array.from({ length: 50 }, (_, i) => ({ key: `var${i}`, value: `value-${i}` })) })
  : undefined;
const plainPostman = postmanScope ? timeMs(() => postmanScope.replaceIn(plain), 10) : undefined;

// ---- 2. 1 MB body with 10,000 placeholders -------------------------------------------------------
const COUNT = 10_000;
const filler = 'x'.repeat(Math.floor(MB / COUNT) - 16);
const ferryParts: string[] = [];
const mustacheParts: string[] = [];
for (let i = 0; i < COUNT; i++) {
  if (i % 4 === 3) {
    ferryParts.push(`${filler}{{request.query.q}}`);
    mustacheParts.push(`${filler}{{request.query.q}}`);
  } else {
    ferryParts.push(`${filler}{{ var${i % 50} }}`);
    mustacheParts.push(`${filler}{{ var${i % 50} }}`);
  }
}
const body = ferryParts.join('');
const mustacheBody = mustacheParts.join('');
const request = requestValuesFromHttp({ method: 'GET', url: '/orders?q=shoes', rawHeaders: ['Accept', '*/*'] });
const requestView = { ...view, request: { query: { q: 'shoes' } } };

const template = compile(body, 'mock.body');
const bodyFerry = timeMs(() => template.render({ variables: scope, request }), 50);
// What a server really does: render, then encode to the bytes it writes (this flattens the result).
const bodyFerrySent = timeMs(() => Buffer.from(template.render({ variables: scope, request }), 'utf8'), 50);
const bodyMustacheSent = timeMs(() => Buffer.from(Mustache.render(mustacheBody, requestView), 'utf8'), 50);
const bodyFerryOnce = timeMs(() => render(body, 'mock.body', { variables: scope, request }), 20);
Mustache.parse(mustacheBody); // Mustache caches the parsed template: the compiled-once case
const bodyMustache = timeMs(() => Mustache.render(mustacheBody, requestView), 50);
const bodyMustacheOnce = timeMs(() => {
  Mustache.clearCache();
  return Mustache.render(mustacheBody, requestView);
}, 20);
// Postman has no request values: every placeholder is a variable there.
const postmanBody = body.replaceAll('{{request.query.q}}', '{{var0}}');
const bodyPostman = postmanScope ? timeMs(() => postmanScope.replaceIn(postmanBody), 20) : undefined;

// Ferry-only: the same body where a quarter are dynamic values ({{$uuid}}), new at each occurrence.
const dynamicBody = body.replaceAll('{{request.query.q}}', '{{$uuid}}');
const dynamicTemplate = compile(dynamicBody, 'mock.body');
const bodyDynamic = timeMs(() => dynamicTemplate.render({ variables: scope, request }), 50);

// ---- report ------------------------------------------------------------------------------------
const mbps = (ms: number) => (10 / (ms / 1000)).toFixed(0);
const ratio = (peer: number | undefined, ferry: number) => (peer === undefined ? 'n/a' : `${(peer / ferry).toFixed(1)}×`);
const fmt = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${ms.toFixed(2)} ms`);

console.log(`machine: ${os.cpus()[0]?.model ?? '?'}, ${os.availableParallelism()} cores, node ${process.version}`);
console.log('');
console.log('| case | Ferry | Mustache 4.2 | Ferry faster by | Postman VariableScope | Ferry faster by | target |');
console.log('|---|---|---|---|---|---|---|');
console.log(
  `| 10 MB, no placeholders | ${mbps(plainFerry)} MB/s (${fmt(plainFerry)}) | ${mbps(plainMustache)} MB/s (${fmt(plainMustache)}) | ${ratio(plainMustache, plainFerry)} | ${plainPostman === undefined ? 'n/a' : `${mbps(plainPostman)} MB/s (${fmt(plainPostman)})`} | ${ratio(plainPostman, plainFerry)} | ≥ 200 MB/s: ${10 / (plainFerry / 1000) >= 200 ? 'met' : 'MISSED'} |`,
);
console.log(
  `| 1 MB, 10,000 placeholders, compiled once | ${fmt(bodyFerry)} | ${fmt(bodyMustache)} | ${ratio(bodyMustache, bodyFerry)} | — | — | ≤ 20 ms: ${bodyFerry <= 20 ? 'met' : 'MISSED'} |`,
);
console.log(
  `| 1 MB, 10,000 placeholders, compiled once, rendered and encoded to bytes | ${fmt(bodyFerrySent)} | ${fmt(bodyMustacheSent)} | ${ratio(bodyMustacheSent, bodyFerrySent)} | — | — | ≤ 20 ms: ${bodyFerrySent <= 20 ? 'met' : 'MISSED'} |`,
);
console.log(
  `| 1 MB, 10,000 placeholders, read + render each time | ${fmt(bodyFerryOnce)} | ${fmt(bodyMustacheOnce)} | ${ratio(bodyMustacheOnce, bodyFerryOnce)} | ${fmt(bodyPostman)} | ${ratio(bodyPostman, bodyFerryOnce)} | ≤ 20 ms: ${bodyFerryOnce <= 20 ? 'met' : 'MISSED'} |`,
);
console.log(`| 1 MB, 10,000 placeholders, 2,500 of them {{$uuid}}, compiled once | ${fmt(bodyDynamic)} | — | — | — | — | ≤ 20 ms: ${bodyDynamic <= 20 ? 'met' : 'MISSED'} |`);
