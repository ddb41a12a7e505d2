/**
 * bench/scripts-ab: the script sandbox of two builds in one process, interleaved, for before/after
 * comparisons on a busy machine (where separate processes differ by more than the change). Each
 * build's `SandboxHost` (its dist/, its prelude) runs bench/scripts.ts's pre-request and
 * post-response scripts as a pair, each with its phase, in blocks of 200 pairs that alternate
 * between the builds; the figure is CPU µs per pair, median of the blocks, and the ratio.
 *
 *   npm run build && node bench/scripts-ab.mjs --base DIR [--blocks 30]
 *
 * DIR is another checkout, built (`git worktree add /tmp/base <commit>`, a node_modules link,
 * `npm run build` there). PRE / POST (environment) replace the scripts, e.g. `PRE=';' POST=';'` for
 * the fixed cost of two phases. Plain `node`, not tsx.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const option = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? undefined : process.argv[i + 1];
};
const base = option('base');
if (!base) {
  console.error('usage: node bench/scripts-ab.mjs --base DIR [--blocks 30]   (DIR: another built checkout)');
  process.exit(2);
}
const roots = { base: path.resolve(base), this: path.resolve(here, '..') };
const BLOCKS = Number(option('blocks') ?? 30);
const BLOCK = 200;

const request = { name: 'r0', method: 'GET', url: 'http://127.0.0.1:1/item/0', headers: [{ key: 'Accept', value: 'application/json', enabled: true, description: '' }], body: { type: 'none', contentType: 'text/plain', form: [], multipart: [] }, auth: { type: 'inherit' } };
const scopes = { environment: { values: {} }, collection: { values: {} }, globals: { values: {} }, local: { values: {} } };
const info = { requestName: 'r0', requestPath: 'F0/r0.yaml', iteration: 0, iterationCount: 1, inCollectionRun: true };
const response = { code: 200, status: 'OK', headers: [['Content-Type', 'application/json'], ['Date', 'Fri, 27 Nov 2026 04:35:16 GMT'], ['Connection', 'keep-alive'], ['Keep-Alive', 'timeout=5'], ['Transfer-Encoding', 'chunked']], responseTime: 2, responseSize: 23 };
const pre = process.env.PRE ?? "pm.variables.set('ts', Date.now());\npm.request.headers.upsert({ key: 'X-Req', value: pm.info.requestName });";
const post = process.env.POST ?? ["pm.test('status is 200', () => pm.response.to.have.status(200));", "pm.test('body has id', () => pm.expect(pm.response.json()).to.have.property('id'));", "pm.test('fast enough', () => pm.expect(pm.response.responseTime).to.be.below(5000));"].join('\n');

const subjects = [];
for (const [name, root] of Object.entries(roots)) {
  const runtimeFile = path.join(root, 'dist', 'scripts', 'host', 'runtime.js');
  if (!existsSync(runtimeFile)) throw new Error(`${runtimeFile} is missing: build that checkout first (npm run build)`);
  const { SandboxHost, loadQuickJS } = await import(runtimeFile);
  const sandbox = new SandboxHost(await loadQuickJS(), 5000, 64 * 1024 * 1024);
  // Builds before session 11 send the request inside the phase's state; later ones apart.
  const apart = readFileSync(path.join(root, 'src', 'scripts', 'host', 'runtime.ts'), 'utf8').includes('request: string;');
  const phase = (event, extra, body) => {
    const state = { scopes, nextRequestSet: false, skipRequest: false, ...(apart ? {} : { request }) };
    return { json: JSON.stringify({ state, event, info, iterationData: {}, ...extra }), ...(apart ? { request: JSON.stringify(request) } : {}), body };
  };
  const prePhase = phase('prerequest', {}, '');
  const postPhase = phase('test', { response }, '{"id":1,"name":"bench"}');
  const pair = () => {
    for (const [code, p] of [[pre, prePhase], [post, postPhase]]) {
      const out = sandbox.run(code, p);
      if (!out.ok || JSON.parse(out.json).error) throw new Error(`${name}: the script failed: ${JSON.stringify(out)}`);
    }
  };
  subjects.push({ name: `${name} (${root})`, pair, blocks: [] });
}
for (let i = 0; i < 1000; i++) for (const s of subjects) s.pair();
const loadBefore = os.loadavg()[0];
for (let b = 0; b < BLOCKS; b++) {
  for (const s of b % 2 ? subjects : [...subjects].reverse()) {
    const cpu = process.cpuUsage();
    for (let i = 0; i < BLOCK; i++) s.pair();
    const used = process.cpuUsage(cpu);
    s.blocks.push((used.user + used.system) / BLOCK);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [a, b] = subjects;
const ratios = a.blocks.map((x, i) => b.blocks[i] / x);
console.log(`bench/scripts-ab: ${BLOCKS} blocks of ${BLOCK} pre+post pairs each, interleaved; load average ${loadBefore.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)}`);
for (const s of subjects) console.log(`  ${s.name}: ${median(s.blocks).toFixed(1)} µs CPU per pair (median of blocks)`);
console.log(`  this / base: ${median(ratios).toFixed(3)} (blocks ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)})`);
