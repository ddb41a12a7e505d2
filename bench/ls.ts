/**
 * `ferry ls` of a generated 30,000-request workspace (issue 21: target under one second). Prints
 * the whole listing's time in a process (bin/ferry.js; run `npm run build` first), in process
 * (main(), start-up excluded), and `ferry ls FOLDER` (which reads that folder only).
 * Run: npx tsx bench/ls.ts [--runs 3]
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { main } from '../src/cli/main.js';
import { generateWorkspace } from './generate-workspace.js';
import { option } from './support.js';

const RUNS = Number(option('runs') ?? 3);
const FERRY = path.resolve(import.meta.dirname, '..', 'bin', 'ferry.js');
const run = promisify(execFile);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function inProcess(args: string[]): Promise<number> {
  let lines = 0;
  const start = performance.now();
  const code = await main(args, { output: { out: (t) => void (lines += t.split('\n').length), err: () => {}, color: false } });
  if (code !== 0 || lines < 2) throw new Error(`ferry ${args.join(' ')} failed (${code})`);
  return performance.now() - start;
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-ls-'));
try {
  const root = path.join(dir, 'ws');
  await generateWorkspace(root, 30_000, 'http://127.0.0.1:9');
  const load = os.loadavg()[0]!.toFixed(2);
  const whole: number[] = [];
  const process_: number[] = [];
  const folder: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    whole.push(await inProcess(['-w', root, 'ls']));
    folder.push(await inProcess(['-w', root, 'ls', 'Area 3']));
    const start = performance.now();
    await run(process.execPath, [FERRY, '-w', root, 'ls'], { maxBuffer: 64 * 1024 * 1024, timeout: 120_000 });
    process_.push(performance.now() - start);
  }
  console.log(`machine: ${os.cpus().length} cores, node ${process.version}; load average ${load} -> ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`ferry ls, 30,000 requests, median of ${RUNS}: in process ${median(whole).toFixed(0)} ms; as a process ${median(process_).toFixed(0)} ms (target < 1000 ms: ${median(process_) < 1000 ? 'MET' : 'NOT MET'})`);
  console.log(`ferry ls "Area 3" (1,000 requests, read alone), in process: ${median(folder).toFixed(0)} ms`);
} finally {
  await fs.rm(dir, { recursive: true, force: true });
}
