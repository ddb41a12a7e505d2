/**
 * CPU time per scripted request straight through `ScriptEngine` (no runner, no network): the
 * pre-request and post-response scripts of bench/scripts.ts, run as one pair per request after a
 * warm-up. Steadier than the runner's figure on a loaded machine, so it is the one to compare
 * builds with (alternate processes). `EMPTY=1` runs empty scripts instead (`;`): the fixed cost of
 * two phases. Run: npx tsx bench/scripts-engine.ts [pairs=2000] [warm-up=500]
 */
import os from 'node:os';
import { ScriptEngine } from '../src/scripts/index.js';

const pairs = Number(process.argv[2] ?? 2000);
const warmUp = Number(process.argv[3] ?? 500);
const empty = process.env.EMPTY === '1';
// The scripts of bench/scripts.ts.
const pre = empty ? ';' : "pm.variables.set('ts', Date.now());\npm.request.headers.upsert({ key: 'X-Req', value: pm.info.requestName });";
const post = empty ? ';' : [
  "pm.test('status is 200', () => pm.response.to.have.status(200));",
  "pm.test('body has id', () => pm.expect(pm.response.json()).to.have.property('id'));",
  "pm.test('fast enough', () => pm.expect(pm.response.responseTime).to.be.below(5000));",
].join('\n');

const engine = await ScriptEngine.create();
const environment = { base: 'http://127.0.0.1:1', token: 'abc' };

async function pair(i: number): Promise<void> {
  const info = { requestName: `r${i}`, requestPath: `F${i % 10}/r${i}.yaml`, iteration: 0, iterationCount: 1, inCollectionRun: true };
  const request = { name: `r${i}`, method: 'GET', url: `http://127.0.0.1:1/item/${i}`, headers: [{ key: 'Accept', value: 'application/json' }] };
  const before = await engine.runPreRequest({ scripts: [{ code: pre, label: 'pre' }], request, variables: { environment, collection: {}, globals: {} }, info });
  const after = await engine.runPostResponse({
    scripts: [{ code: post, label: 'post' }],
    request: before.request,
    variables: { environment, collection: {}, globals: {}, local: before.variables.local },
    info,
    response: { code: 200, status: 'OK', headers: [['content-type', 'application/json'], ['content-length', '23']], body: '{"id":1,"name":"bench"}', responseTime: 3, responseSize: 23 },
  });
  const failed = before.errors.length + after.errors.length + after.tests.filter((t) => !t.passed).length;
  if (failed > 0 || after.tests.length !== (empty ? 0 : 3)) throw new Error(`the bench's scripts failed: ${JSON.stringify({ before, after })}`);
}

try {
  for (let i = 0; i < warmUp; i++) await pair(i);
  const loadBefore = os.loadavg()[0]!;
  const cpu = process.cpuUsage();
  for (let i = 0; i < pairs; i++) await pair(i);
  const used = process.cpuUsage(cpu);
  const perPair = (used.user + used.system) / 1000 / pairs;
  console.log(`${pairs} ${empty ? 'empty ' : ''}pre-request + post-response pairs through ScriptEngine (after ${warmUp} warm-up): ${perPair.toFixed(3)} ms CPU per pair`);
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; load average ${loadBefore.toFixed(1)} -> ${os.loadavg()[0]!.toFixed(1)}`);
} finally {
  engine.dispose();
}
