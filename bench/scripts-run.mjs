/**
 * The measurement of bench/scripts.ts (which documents it and starts this file), in plain
 * JavaScript over the built code (dist/, what bin/ferry.js runs), so the process that is measured
 * has no TypeScript loader in it: tsx's module hooks cost ~130 µs CPU per dynamic `import()`, and
 * a run's HTTP sends do one per request, which added ~0.3-0.5 ms CPU per request to both runs.
 * Run: npm run build && node bench/scripts-run.mjs [requests=1000] [rounds=5]
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { stringify } from 'yaml';
import { DEFAULT_SETTINGS } from '../dist/appdata/index.js';
import { runRequests } from '../dist/runner/index.js';
import { openWorkspace } from '../dist/workspace/index.js';

const requests = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 5);
const FOLDERS = 10;

const scripts = {
  preRequest: "pm.variables.set('ts', Date.now());\npm.request.headers.upsert({ key: 'X-Req', value: pm.info.requestName });",
  postResponse: [
    "pm.test('status is 200', () => pm.response.to.have.status(200));",
    "pm.test('body has id', () => pm.expect(pm.response.json()).to.have.property('id'));",
    "pm.test('fast enough', () => pm.expect(pm.response.responseTime).to.be.below(5000));",
  ].join('\n'),
};

async function writeWorkspace(root, url, withScripts) {
  await fs.mkdir(path.join(root, 'requests'), { recursive: true });
  await fs.writeFile(path.join(root, 'ferry.yaml'), stringify({ version: 1, id: `bench-scripts-${withScripts}`, name: 'bench' }));
  for (let f = 0; f < FOLDERS; f++) await fs.mkdir(path.join(root, 'requests', `F${f}`));
  for (let i = 0; i < requests; i++) {
    const request = { name: `r${i}`, seq: i, url: `${url}/item/${i}`, headers: [{ key: 'Accept', value: 'application/json' }], ...(withScripts ? { scripts } : {}) };
    await fs.writeFile(path.join(root, 'requests', `F${i % FOLDERS}`, `r${i}.yaml`), stringify(request));
  }
  return openWorkspace(root);
}

async function timedRun(workspace) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { summary } = await runRequests({ workspace, dataFolder: false, settings: DEFAULT_SETTINGS });
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, failed: summary.failedRequests + summary.failedTests, tests: summary.tests };
}

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end('{"id":1,"name":"bench"}');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${server.address().port}`;
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-scripts-'));
try {
  const plainWs = await writeWorkspace(path.join(work, 'plain'), url, false);
  const scriptedWs = await writeWorkspace(path.join(work, 'scripted'), url, true);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  // Warm-up: the first scripted run also loads QuickJS and chai, as every run that has scripts does.
  const warm = await timedRun(scriptedWs);
  if (warm.failed || warm.tests !== requests * 3) throw new Error(`the scripted warm-up run failed (${warm.failed} failures, ${warm.tests} tests)`);
  await timedRun(plainWs);
  const plain = [];
  const scripted = [];
  const plainCpu = [];
  const scriptedCpu = [];
  const loadBefore = os.loadavg()[0];
  for (let r = 0; r < rounds; r++) {
    const a = await timedRun(plainWs);
    const b = await timedRun(scriptedWs);
    if (a.failed || b.failed) throw new Error(`failures in round ${r + 1}: ${a.failed} without scripts, ${b.failed} with`);
    plain.push(a.ms);
    scripted.push(b.ms);
    plainCpu.push(a.cpuMs);
    scriptedCpu.push(b.cpuMs);
    console.log(`round ${r + 1}: without scripts ${a.ms.toFixed(0)} ms (CPU ${a.cpuMs.toFixed(0)} ms), with scripts ${b.ms.toFixed(0)} ms (CPU ${b.cpuMs.toFixed(0)} ms)`);
  }
  const overhead = (median(scripted) - median(plain)) / requests;
  const perRound = scripted.map((s, i) => (s - plain[i]) / requests);
  const cpuOverhead = (median(scriptedCpu) - median(plainCpu)) / requests;
  console.log(`\nmachine: ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}; load average ${loadBefore.toFixed(1)} -> ${os.loadavg()[0].toFixed(1)}`);
  console.log(`${requests} requests in ${FOLDERS} folders through runRequests, ${rounds} rounds (medians):`);
  console.log(`  without scripts: ${median(plain).toFixed(0)} ms (${(median(plain) / requests).toFixed(3)} ms/request)`);
  console.log(`  with scripts:    ${median(scripted).toFixed(0)} ms (${(median(scripted) / requests).toFixed(3)} ms/request)`);
  console.log(`  overhead:        ${overhead.toFixed(3)} ms/request (median of per-round differences ${median(perRound).toFixed(3)}; target <= 1 ms) ${overhead <= 1 ? 'OK' : 'OVER TARGET'}`);
  console.log(`  CPU overhead:    ${cpuOverhead.toFixed(3)} ms/request (CPU ${median(plainCpu).toFixed(0)} ms without, ${median(scriptedCpu).toFixed(0)} ms with; issue 24 target <= 0.3 ms) ${cpuOverhead <= 0.3 ? 'OK' : 'OVER TARGET'}`);
} finally {
  server.close();
  await fs.rm(work, { recursive: true, force: true });
}
