/**
 * Overhead of scripts per request: 1,000 requests to a local server, once without scripts and
 * once with a small pre-request script and a post-response script of three pm.test/pm.expect
 * calls. Rounds alternate; the figure is the median over rounds. Target: <= 1 ms per request.
 * Run: npx tsx bench/scripts.ts [requests=1000] [rounds=5]
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { Agent, request } from 'undici';
import { ScriptEngine, type ScriptSource } from '../src/scripts/index.js';

const requests = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);

const pre: ScriptSource[] = [{ label: 'bench: preRequest', code: `pm.variables.set('ts', Date.now()); pm.request.headers.upsert({ key: 'X-Req', value: pm.info.requestName });` }];
const post: ScriptSource[] = [{
  label: 'bench: postResponse',
  code: `pm.test('status is 200', () => pm.response.to.have.status(200));
pm.test('body has id', () => pm.expect(pm.response.json()).to.have.property('id'));
pm.test('fast enough', () => pm.expect(pm.response.responseTime).to.be.below(5000));`,
}];

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"id":1,"name":"bench"}');
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/item`;
const dispatcher = new Agent({ connections: 1 });
const engine = await ScriptEngine.create();

async function run(withScripts: boolean): Promise<{ ms: number; failed: number }> {
  let failed = 0;
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const info = { requestName: `r${i}`, iteration: 0 };
    const variables = { environment: {}, collection: {}, globals: {} };
    const req = { method: 'GET', url, headers: [{ key: 'Accept', value: 'application/json' }] };
    const prepared = await engine.runPreRequest({ scripts: withScripts ? pre : [], request: req, variables, info });
    const t0 = performance.now();
    const res = await request(prepared.request.url, { dispatcher, headers: Object.fromEntries(prepared.request.headers.map((h) => [h.key, h.value])) });
    const body = await res.body.text();
    const result = await engine.runPostResponse({
      scripts: withScripts ? post : [], request: prepared.request, variables: prepared.variables, info,
      response: { code: res.statusCode, headers: [['content-type', 'application/json']], body, responseTime: performance.now() - t0, responseSize: body.length },
    });
    failed += result.tests.filter((t) => !t.passed).length + result.errors.length;
  }
  return { ms: performance.now() - started, failed };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
// Warm-up: loads chai once, as the first scripted request of any run does.
await run(true);
await run(false);
const plain: number[] = [];
const scripted: number[] = [];
for (let r = 0; r < rounds; r++) {
  const a = await run(false);
  const b = await run(true);
  if (b.failed) throw new Error(`${b.failed} tests or scripts failed in the scripted run`);
  plain.push(a.ms);
  scripted.push(b.ms);
  console.log(`round ${r + 1}: without scripts ${a.ms.toFixed(0)} ms, with scripts ${b.ms.toFixed(0)} ms`);
}
const overhead = (median(scripted) - median(plain)) / requests;
const perRound = scripted.map((s, i) => (s - plain[i]!) / requests);
console.log(`\nmachine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`);
console.log(`${requests} requests x ${rounds} rounds (median):`);
console.log(`  without scripts: ${median(plain).toFixed(0)} ms (${(median(plain) / requests).toFixed(3)} ms/request)`);
console.log(`  with scripts:    ${median(scripted).toFixed(0)} ms (${(median(scripted) / requests).toFixed(3)} ms/request)`);
console.log(`  overhead:        ${overhead.toFixed(3)} ms/request (median of rounds ${median(perRound).toFixed(3)}; target <= 1 ms) ${overhead <= 1 ? 'OK' : 'OVER TARGET'}`);
engine.dispose();
await dispatcher.close();
server.close();
