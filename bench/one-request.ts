/**
 * Running one request of a 30,000-request workspace against the same in a 10-request workspace
 * (issue 21: was 2.8 s because the whole tree was read; target under 0.5 s for the workspace
 * reading, and the two runs within noise of each other). Each `ferry run` is a real process
 * (bin/ferry.js, run `npm run build` first) sending to a local HTTP server on 127.0.0.1; the
 * in-process figure is the workspace opening alone (openWorkspace with the request's path).
 * Where GNU time is installed (/usr/bin/time), each `ferry run` process's CPU time (user + system)
 * is printed too: on a shared machine it moves far less than the wall clock.
 * Run: npx tsx bench/one-request.ts [--runs 5]
 */
import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { openWorkspace, selectRequests } from '../src/workspace/index.js';
import { generateWorkspace } from './generate-workspace.js';
import { option } from './support.js';

const RUNS = Number(option('runs') ?? 5);
const FERRY = path.resolve(import.meta.dirname, '..', 'bin', 'ferry.js');
const TARGET = 'Area 3/Folder 170/Request 5';
const SMALL_TARGET = 'Area 0/Folder 0/Request 5';
const run = promisify(execFile);
const GNU_TIME = '/usr/bin/time';
const withCpu = existsSync(GNU_TIME);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Wall-clock ms of one `ferry run` process, and its CPU ms (user + system) where GNU time is there. */
async function timeProcess(root: string, target: string, cpuFile: string): Promise<{ wall: number; cpu: number }> {
  const args = [FERRY, '-w', root, 'run', target, '-r', 'json'];
  const start = performance.now();
  const { stdout } = withCpu
    ? await run(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], { timeout: 60_000 })
    : await run(process.execPath, args, { timeout: 60_000 });
  const took = performance.now() - start;
  const report = JSON.parse(stdout) as { summary: { requests: number; failedTests: number } };
  if (report.summary.requests !== 1 || report.summary.failedTests !== 0) throw new Error(`unexpected run: ${stdout.slice(0, 300)}`);
  let cpu = Number.NaN;
  if (withCpu) {
    const [user, system] = (await fs.readFile(cpuFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
    cpu = (user! + system!) * 1000;
  }
  return { wall: took, cpu };
}

/** `ferry export` of the same request (cURL, the default): the workspace read without a send or a script. */
async function timeExport(root: string, target: string): Promise<number> {
  const start = performance.now();
  const { stdout } = await run(process.execPath, [FERRY, '-w', root, 'export', target], { timeout: 60_000 });
  const took = performance.now() - start;
  if (!stdout.startsWith('curl ')) throw new Error(`unexpected export: ${stdout.slice(0, 300)}`);
  return took;
}

async function timeOpen(root: string, target: string, part: boolean): Promise<number> {
  const start = performance.now();
  const ws = await openWorkspace(root, part ? { requests: [target] } : {});
  if (selectRequests(ws.tree, [target]).length !== 1) throw new Error('the request was not found');
  return performance.now() - start;
}

const server = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-one-'));
try {
  const big = path.join(dir, 'big');
  const small = path.join(dir, 'small');
  await generateWorkspace(big, 30_000, baseUrl);
  await generateWorkspace(small, 10, baseUrl);
  const load = os.loadavg()[0]!.toFixed(2);
  const cpuFile = path.join(dir, 'cpu.txt');
  const figures = { big: [] as number[], small: [] as number[], bigCpu: [] as number[], smallCpu: [] as number[], exportBig: [] as number[], openPart: [] as number[], openSmall: [] as number[], openFull: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    const bigRun = await timeProcess(big, TARGET, cpuFile);
    const smallRun = await timeProcess(small, SMALL_TARGET, cpuFile);
    figures.big.push(bigRun.wall);
    figures.bigCpu.push(bigRun.cpu);
    figures.small.push(smallRun.wall);
    figures.smallCpu.push(smallRun.cpu);
    figures.exportBig.push(await timeExport(big, TARGET));
    figures.openPart.push(await timeOpen(big, TARGET, true));
    figures.openSmall.push(await timeOpen(small, SMALL_TARGET, true));
  }
  figures.openFull.push(await timeOpen(big, TARGET, false));
  const [bigMs, smallMs] = [median(figures.big), median(figures.small)];
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; load average ${load} -> ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`ferry run of one request, median of ${RUNS} processes:`);
  const cpu = (values: number[]) => (withCpu ? `, CPU ${median(values).toFixed(0)} ms` : '');
  console.log(`  30,000-request workspace: ${bigMs.toFixed(0)} ms${cpu(figures.bigCpu)} (target < 500 ms: ${bigMs < 500 ? 'MET' : 'NOT MET'})`);
  console.log(`  10-request workspace:     ${smallMs.toFixed(0)} ms${cpu(figures.smallCpu)}`);
  console.log(`  ratio 30,000 / 10: ${(bigMs / smallMs).toFixed(2)}x`);
  console.log(`  (the request has a pm.test and its folder a pre-request script: the script sandbox starts)`);
  console.log(`ferry export of that request, 30,000-request workspace, median of ${RUNS} processes: ${median(figures.exportBig).toFixed(0)} ms`);
  console.log(`opening the workspace for that request, in process, median of ${RUNS}:`);
  console.log(`  30,000 requests, the request's part: ${median(figures.openPart).toFixed(1)} ms (target < 500 ms: ${median(figures.openPart) < 500 ? 'MET' : 'NOT MET'})`);
  console.log(`  10 requests:                         ${median(figures.openSmall).toFixed(1)} ms`);
  console.log(`  30,000 requests, whole tree (before): ${figures.openFull[0]!.toFixed(0)} ms`);
} finally {
  server.close();
  await fs.rm(dir, { recursive: true, force: true });
}
