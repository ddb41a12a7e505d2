/**
 * The curlconverter corpus (test/fixtures/corpus/curl): for every pair its README marks in scope,
 * the imported request must send what the expectation says. Differences are printed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { curlToRequest } from '../../src/importers/curl/index.js';
import { parseFormText } from '../../src/importers/curl/body.js';
import { CORPUS } from '../support/corpus.js';

const CURL = path.join(CORPUS, 'curl');

interface Entry {
  name: string;
  source: 'upstream' | 'supplement';
  command: string;
  importer: { expect: 'match' | 'match-core' | 'skip'; ignoreHeaders: string[]; specRules?: string[] };
}

type Pair = [string, string];
interface Expected {
  method: string;
  url: string;
  headers: Pair[];
  auth?: { type: string; user?: string; password?: string; bearerToken?: string };
  body: null | { kind: string; text?: string; readsFile?: string | null; parts?: Record<string, string>[]; fromRawBody?: boolean; rawText?: string; file?: string };
  options: Record<string, unknown>;
}

const index = JSON.parse(readFileSync(path.join(CURL, 'index.json'), 'utf8')) as { upstream: Entry[]; supplement: Entry[] };

function expectedFor(entry: Entry): Expected {
  const dir = entry.source === 'upstream' ? 'expected/request' : 'supplement/expected/request';
  return (JSON.parse(readFileSync(path.join(CURL, dir, `${entry.name}.json`), 'utf8')) as Expected[])[0]!;
}

function commandText(entry: Entry): string {
  const file = entry.source === 'upstream' ? entry.command : entry.command.startsWith('supplement/') ? entry.command : path.join('supplement', entry.command);
  return readFileSync(path.join(CURL, file), 'utf8');
}

/** Compares one pair; returns the differences as text (empty when it matches). */
function compare(entry: Entry): string[] {
  const exp = expectedFor(entry);
  const rules = (entry.importer.specRules ?? []).join(' ');
  const jsonRule = rules.includes('json-looking');
  const segments = (expectedFor(entry).body as { segments?: { file?: string }[] } | null)?.segments;
  // A single file argument (`-d @file`, also `--json @file`) is a binary file body (spec 4.6).
  const binaryRule = rules.includes('-d @file') || (segments?.length === 1 && segments[0]!.file !== undefined);
  const diffs: string[] = [];
  let req: ReturnType<typeof curlToRequest>['request'];
  try {
    req = curlToRequest(commandText(entry)).request;
  } catch (error) {
    return [`threw: ${(error as Error).message}`];
  }
  const body = req.body;
  const auth = req.auth as Record<string, string> | undefined;
  if (req.method !== exp.method) diffs.push(`method ${req.method} != ${exp.method}`);
  if (req.url !== exp.url) diffs.push(`url ${req.url} != ${exp.url}`);

  // Headers: Content-Type compared on its own (the body type implies it); Authorization from auth left out.
  const ignore = new Set(entry.importer.ignoreHeaders.map((h) => h.toLowerCase()));
  let expHeaders = exp.headers.filter(([k]) => !ignore.has(k.toLowerCase()));
  if (auth?.type === 'bearer') expHeaders = expHeaders.filter(([k, v]) => !(k.toLowerCase() === 'authorization' && v === `Bearer ${auth.token}`));
  const ours: Pair[] = (req.headers ?? []).map((h) => [String(h.key), String(h.value ?? '')]);
  const notCt = (list: Pair[]) => list.filter(([k]) => k.toLowerCase() !== 'content-type').map(([k, v]) => `${k.toLowerCase()}: ${v}`);
  if (JSON.stringify(notCt(ours)) !== JSON.stringify(notCt(expHeaders))) diffs.push(`headers ${JSON.stringify(notCt(ours))} != ${JSON.stringify(notCt(expHeaders))}`);
  const explicitCt = ours.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  const impliedCt: Record<string, string | undefined> = {
    json: 'application/json', graphql: 'application/json', xml: 'application/xml',
    formUrlencoded: 'application/x-www-form-urlencoded', text: body?.contentType as string | undefined,
  };
  const ourCt = explicitCt ?? (body?.type ? impliedCt[body.type] : undefined);
  const expCt = expHeaders.find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (jsonRule) { if (ourCt !== 'application/json') diffs.push(`content-type ${ourCt} != application/json (spec rule)`); }
  else if (!binaryRule && ourCt !== expCt) diffs.push(`content-type ${ourCt} != ${expCt}`);

  // Auth.
  const expAuth = exp.auth;
  if (!expAuth) { if (auth) diffs.push(`auth ${JSON.stringify(auth)} not expected`); }
  else if (expAuth.type === 'bearer') { if (auth?.type !== 'bearer' || auth.token !== expAuth.bearerToken) diffs.push(`auth ${JSON.stringify(auth)} != ${JSON.stringify(expAuth)}`); }
  else if (auth?.type !== expAuth.type || auth.username !== expAuth.user || auth.password !== expAuth.password) diffs.push(`auth ${JSON.stringify(auth)} != ${JSON.stringify(expAuth)}`);

  // Body.
  const eb = exp.body;
  if (!eb) { if (body && body.type !== 'none') diffs.push(`body ${JSON.stringify(body)} not expected`); }
  else if (eb.kind === 'data') {
    if (binaryRule) { if (body?.type !== 'binary' || body.file !== eb.readsFile) diffs.push(`body ${JSON.stringify(body)} != binary ${eb.readsFile}`); }
    else if (body?.type === 'formUrlencoded') {
      const ourRows = (body.form ?? []).map((r) => [r.key, r.value]);
      const expRows = (parseFormText(eb.text!) ?? []).map((r) => [r.key, r.value]);
      if (JSON.stringify(ourRows) !== JSON.stringify(expRows)) diffs.push(`form ${JSON.stringify(ourRows)} != ${JSON.stringify(expRows)}`);
    } else if (body?.type === 'graphql') {
      const g = body.graphql!;
      const sent = { query: g.query, ...(g.variables ? { variables: JSON.parse(String(g.variables)) } : {}), ...(g.operationName ? { operationName: g.operationName } : {}) };
      expect.soft(sent).toEqual(JSON.parse(eb.text!));
    } else if (body?.text !== eb.text) diffs.push(`body ${JSON.stringify(body)} != ${JSON.stringify(eb.text)}`);
  } else if (eb.kind === 'multipart') {
    if (eb.fromRawBody) { if (body?.text !== eb.rawText) diffs.push(`raw multipart ${JSON.stringify(body)} differs`); }
    else {
      const ourParts = (body?.multipart ?? []).map((p) => ({ name: p.key, [p.file ? 'file' : 'value']: p.value, ...(p.contentType ? { contentType: p.contentType } : {}) }));
      const expParts = eb.parts!.map(({ filename: _f, ...p }) => p);
      if (JSON.stringify(ourParts) !== JSON.stringify(expParts)) diffs.push(`multipart ${JSON.stringify(ourParts)} != ${JSON.stringify(expParts)}`);
    }
  } else if (eb.kind === 'upload-file') {
    if (body?.type !== 'binary' || body.file !== eb.file) diffs.push(`body ${JSON.stringify(body)} != upload ${eb.file}`);
  }

  // Options, for full matches.
  if (entry.importer.expect === 'match') {
    const s = (req.settings ?? {}) as Record<string, unknown>;
    const o = exp.options;
    const versions: Record<string, string> = { '1.0': 'http1', '1.1': 'http1', '2': 'http2', '3': 'http3' };
    const want: Record<string, unknown> = {
      verifyTls: o.insecure ? false : undefined,
      followRedirects: o.followRedirects ? true : undefined,
      maxRedirects: o.maxRedirects,
      timeoutMs: o.timeoutSeconds === undefined ? undefined : Math.round(Number(o.timeoutSeconds) * 1000),
      httpVersion: o.httpVersion === undefined ? undefined : versions[String(o.httpVersion)],
    };
    for (const [k, v] of Object.entries(want)) if (s[k] !== v) diffs.push(`setting ${k} ${String(s[k])} != ${String(v)}`);
  }
  return diffs;
}

function score(entries: Entry[]): { passed: number; total: number; failures: string[] } {
  const inScope = entries.filter((e) => e.importer.expect !== 'skip');
  const failures: string[] = [];
  for (const entry of inScope) {
    const diffs = compare(entry);
    if (diffs.length > 0) failures.push(`${entry.name}:\n    ${diffs.join('\n    ')}`);
  }
  return { passed: inScope.length - failures.length, total: inScope.length, failures };
}

describe('curl corpus', () => {
  it('matches at least 95% of the upstream pairs in scope', () => {
    const { passed, total, failures } = score(index.upstream);
    console.log(`curl corpus (upstream): ${passed}/${total} match (${((passed / total) * 100).toFixed(1)}%)`);
    if (failures.length > 0) console.log(`Differences:\n  ${failures.join('\n  ')}`);
    expect(total).toBe(97);
    expect(passed / total).toBeGreaterThanOrEqual(0.95);
  });

  it('reports the supplement pairs separately', () => {
    const { passed, total, failures } = score(index.supplement);
    console.log(`curl corpus (supplement): ${passed}/${total} match`);
    if (failures.length > 0) console.log(`Differences:\n  ${failures.join('\n  ')}`);
    expect(passed / total).toBeGreaterThanOrEqual(0.8);
  });

  it('refuses or notes the commands that need a shell', () => {
    const needShell = index.upstream.filter((e) => e.importer.expect === 'skip');
    expect(needShell.length, 'corpus commands marked skip').toBeGreaterThan(0);
    for (const entry of needShell) {
      let outcome: string;
      try {
        const { notes } = curlToRequest(commandText(entry));
        outcome = notes.join(' ');
      } catch (error) {
        outcome = (error as Error).message;
      }
      expect(outcome, entry.name).toMatch(/standard input|shell variables|not a curl command|more than one command/);
    }
  });
});
