/**
 * Running one request of a 30,000-request workspace against the same in a 10-request workspace
 * (issue 21: was 2.8 s because the whole tree was read; target under 0.5 s for the workspace
 * reading, and the two runs within noise of each other). Each `ferry run` is a real process
 * (bin/ferry.js, run `npm run build` first) sending to a local HTTP server on 127.0.0.1; the
 * in-process figure is the workspace opening alone (openWorkspace with the request's path).
 * Run: npx tsx bench/one-request.ts [--runs 5]
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timeProcess(root: string, target: string): Promise<number> {
  const start = performance.now();
  const { stdout } = await run(process.execPath, [FERRY, '-w', root, 'run', target, '-r', 'json'], { timeout: 60_000 });
  const took = performance.now() - start;
  const report = JSON.parse(stdout) as { summary: { requests: number; failedTests: number } };
  if (report.summary.requests !== 1 || report.summary.failedTests !== 0) throw new Error(`unexpected run: ${stdout.slice(0, 300)}`);
  return took;
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
  const figures = { big: [] as number[], small: [] as number[], exportBig: [] as number[], openPart: [] as number[], openSmall: [] as number[], openFull: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    figures.big.push(await timeProcess(big, TARGET));
    figures.small.push(await timeProcess(small, SMALL_TARGET));
    figures.exportBig.push(await timeExport(big, TARGET));
    figures.openPart.push(await timeOpen(big, TARGET, true));
    figures.openSmall.push(await timeOpen(small, SMALL_TARGET, true));
  }
  figures.openFull.push(await timeOpen(big, TARGET, false));
  const [bigMs, smallMs] = [median(figures.big), median(figures.small)];
  console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model ?? 'unknown CPU'}, node ${process.version}; load average ${load} -> ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`ferry run of one request, median of ${RUNS} processes:`);
  console.log(`  30,000-request workspace: ${bigMs.toFixed(0)} ms`);
  console.log(`  10-request workspace:     ${smallMs.toFixed(0)} ms`);
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
