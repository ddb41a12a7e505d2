/**
 * Whole-process OpenAPI import (issue 24): `ferry import FILE` (bin/ferry.js as shipped, into a fresh
 * workspace, every file written) against the `openapi2postmanv2 -s FILE -o OUT` command line of
 * `openapi-to-postmanv2`, for Stripe (JSON, 3.9 MB), Kubernetes (Swagger 2.0 JSON, 4.1 MB) and GitHub
 * (YAML, 2.7 MB). Rounds alternate; medians; the load average before and after. Besides the wall time,
 * each process's CPU time (user + system, its own and its threads', read at exit by a preloaded
 * one-line hook) is shown: on a machine shared with other work it moves far less than the wall time.
 * Run `npm run build` first.
 *
 *   npx tsx bench/openapi-import-process.ts          # 3 rounds
 *   ROUNDS=5 npx tsx bench/openapi-import-process.ts
 *   DOCS=GitHub,Stripe npx tsx bench/openapi-import-process.ts
 *   FERRY=/tmp/old-build/bin/ferry.js npx tsx bench/openapi-import-process.ts   # another build of Ferry
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS = path.join(repo, 'test', 'fixtures', 'corpus', 'openapi');
const FERRY = process.env.FERRY ? path.resolve(process.env.FERRY) : path.join(repo, 'bin', 'ferry.js');
const PEER = path.join(repo, 'node_modules', 'openapi-to-postmanv2', 'bin', 'openapi2postmanv2.js');
const ALL_DOCUMENTS = [
  { name: 'Stripe', file: 'oas30-stripe-spec3.json' },
  { name: 'Kubernetes', file: 'swagger20-kubernetes.json' },
  { name: 'GitHub', file: 'oas30-github.yaml' },
];
const wanted = process.env.DOCS?.split(',').map((d) => d.trim().toLowerCase());
const DOCUMENTS = ALL_DOCUMENTS.filter((d) => !wanted || wanted.includes(d.name.toLowerCase()));

/** Preloaded into both processes: prints their CPU time to standard error as they exit. */
const CPU_HOOK = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\nBENCH_CPU_MS='+((u.user+u.system)/1000)+'\\n')})`;

interface Measured {
  wallMs: number;
  cpuMs: number;
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--import', CPU_HOOK, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(0, 2000)}`));
      else resolve({ wallMs: performance.now() - start, cpuMs: Number(/BENCH_CPU_MS=([\d.]+)/.exec(stderr)?.[1] ?? NaN) });
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-import-'));
try {
  const env = { ...process.env, FERRY_DATA_DIR: path.join(work, 'data'), NO_COLOR: '1' };
  const before = os.loadavg();
  const rows: string[] = [];
  for (const doc of DOCUMENTS) {
    const file = path.join(CORPUS, doc.file);
    await fs.access(file);
    const ferry: Measured[] = [];
    const peer: Measured[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const ws = path.join(work, `ws-${doc.name}-${round}`);
      await run([FERRY, 'init', ws], env);
      ferry.push(await run([FERRY, '-w', ws, 'import', file, '--base-url', 'https://api.example.test'], env));
      // Each round's workspace stays until the end: on ext4 without a journal (this VM's disk),
      // creating a file within ~35 s of many deletions scans the inodes just freed, and deleting
      // the last round's 1,200 files made the next import 3x slower (session 12: 0.46 -> 1.3-1.6 s).
      const out = path.join(work, `${doc.name}-${round}.json`);
      peer.push(await run([PEER, '-s', file, '-o', out], env));
      await fs.rm(out, { force: true });
    }
    const wall = [median(ferry.map((m) => m.wallMs)), median(peer.map((m) => m.wallMs))] as const;
    const cpu = [median(ferry.map((m) => m.cpuMs)), median(peer.map((m) => m.cpuMs))] as const;
    rows.push(`| ${doc.name} | ${wall[0].toFixed(0)} ms | ${wall[1].toFixed(0)} ms | **${(wall[1] / wall[0]).toFixed(1)}×** | ${cpu[0].toFixed(0)} ms | ${cpu[1].toFixed(0)} ms | ${(cpu[1] / cpu[0]).toFixed(1)}× |`);
  }
  const after = os.loadavg();
  console.log(`openapi-import-process: ${ROUNDS} alternating rounds, medians; ${os.cpus().length} CPUs, Node ${process.version}; ${FERRY}`);
  console.log(`load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| document | `ferry import` wall | `openapi2postmanv2` wall | Ferry faster by | `ferry import` CPU | `openapi2postmanv2` CPU | by CPU |');
  console.log('|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
} finally {
  await fs.rm(work, { recursive: true, force: true });
}
