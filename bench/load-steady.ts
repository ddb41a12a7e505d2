/**
 * Where the CPU goes once requests flow, against a bare Node `http` server on the same machine:
 * each tool's CPU per request (all its threads, user part apart) and the server's, from /proc,
 * over a window that starts 1 s after the server's first request (no start-up, no warm-up of
 * connections), with the request count from the server itself. Also the share of the machine
 * the pair (tool + server) got, and the machine's idle cores: on a shared machine the req/s of a
 * round follows that share. Tools alternate round by round. Linux only (reads /proc).
 *
 *   npx tsx bench/load-steady.ts                       # 4 rounds, 4 s windows: ferry, autocannon
 *   ROUNDS=6 WINDOW=5 TOOLS=ferry,ferry1,autocannon,wrk npx tsx bench/load-steady.ts
 *   BASELINE=/tmp/old TOOLS=ferry,before npx tsx bench/load-steady.ts   # an older checkout's generator
 *
 * 50 connections, closed model, as bench/load.ts; every run is bounded in time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.ROUNDS ?? 4);
const WINDOW_S = Number(process.env.WINDOW ?? 4);
const BASELINE = process.env.BASELINE;
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** User and system CPU seconds of a process (all its threads). */
function cpuOf(pid: number): { user: number; total: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  const hz = 100;
  return { user: Number(fields[11]) / hz, total: (Number(fields[11]) + Number(fields[12])) / hz };
}
/** Voluntary context switches (sleeps) of all a process's threads. */
function sleepsOf(pid: number): number {
  let n = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      n += Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/task/${task}/status`, 'utf8'))![1]);
    } catch {
      // the thread ended
    }
  }
  return n;
}
const machineIdleMs = () => os.cpus().reduce((sum, c) => sum + c.times.idle, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// A bare Node server that counts what it answers and says so over IPC (nothing on the hot path).
const server = spawn(process.execPath, ['-e', `let n=0;require('http').createServer((q,s)=>{n++;s.end('ok')}).listen(0,'127.0.0.1',function(){process.send({port:this.address().port})});process.on('message',()=>process.send({n}))`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const { port } = await new Promise<{ port: number }>((r) => server.once('message', r as (m: unknown) => void));
const served = () => new Promise<number>((r) => { server.once('message', (m: { n: number }) => r(m.n)); server.send('n'); });
const url = `http://127.0.0.1:${port}/`;

/** Each tool runs for up to 60 s and is stopped once its window is measured. */
const child = (dir: string) => [process.execPath, ['--import', 'tsx', path.join(dir, 'bench/load.ts'), '--ferry-child', url, '60']] as const;
const tools: Record<string, { command: readonly [string, readonly string[]]; env?: Record<string, string>; cwd?: string }> = {
  ferry: { command: child(repo) },
  ferry1: { command: child(repo), env: { WORKERS: '1' } },
  ...(BASELINE ? { before: { command: child(BASELINE), cwd: BASELINE } } : {}),
  autocannon: { command: [process.execPath, ['node_modules/autocannon/autocannon.js', '-c', '50', '-d', '60', url]] },
  wrk: { command: ['wrk', ['-t2', '-c50', '-d60s', url]] },
};
const chosen = (process.env.TOOLS?.split(',') ?? ['ferry', 'autocannon']).filter((t) => t in tools);

interface Row { rps: number; toolUs: number; toolUserUs: number; serverUs: number; pairCores: number; idleCores: number }
const rows: Record<string, Row[]> = Object.fromEntries(chosen.map((t) => [t, []]));
console.log(`machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
try {
  for (let round = 1; round <= ROUNDS; round++) {
    for (const name of round % 2 === 1 ? chosen : [...chosen].reverse()) {
      const tool = tools[name]!;
      const proc: ChildProcess = spawn(tool.command[0], tool.command[1], { cwd: tool.cwd ?? repo, env: { ...process.env, ...tool.env }, stdio: 'ignore' });
      try {
        const first = await served();
        for (let waited = 0; (await served()) === first; waited += 50) {
          if (waited > 30_000) throw new Error(`${name} sent nothing within 30 s`);
          await sleep(50);
        }
        await sleep(1000);
        const [tool0, server0, count0, idle0, at0, ts0, ss0] = [cpuOf(proc.pid!), cpuOf(server.pid!), await served(), machineIdleMs(), performance.now(), sleepsOf(proc.pid!), sleepsOf(server.pid!)];
        await sleep(WINDOW_S * 1000);
        const [tool1, server1, count1, idle1, at1, ts1, ss1] = [cpuOf(proc.pid!), cpuOf(server.pid!), await served(), machineIdleMs(), performance.now(), sleepsOf(proc.pid!), sleepsOf(server.pid!)];
        const n = Math.max(1, count1 - count0);
        const seconds = (at1 - at0) / 1000;
        const row: Row = {
          rps: n / seconds,
          toolUs: ((tool1.total - tool0.total) * 1e6) / n,
          toolUserUs: ((tool1.user - tool0.user) * 1e6) / n,
          serverUs: ((server1.total - server0.total) * 1e6) / n,
          pairCores: (tool1.total - tool0.total + server1.total - server0.total) / seconds,
          idleCores: (idle1 - idle0) / (at1 - at0),
        };
        rows[name]!.push(row);
        console.log(`round ${round} ${name.padEnd(10)} ${row.rps.toFixed(0).padStart(6)} req/s  tool ${row.toolUs.toFixed(1)} µs/req (user ${row.toolUserUs.toFixed(1)})  server ${row.serverUs.toFixed(1)} µs/req (user ${(((server1.user - server0.user) * 1e6) / n).toFixed(1)})  sleeps/1k req tool ${(((ts1 - ts0) * 1000) / n).toFixed(0)} server ${(((ss1 - ss0) * 1000) / n).toFixed(0)}  pair ${row.pairCores.toFixed(2)} cores  idle ${row.idleCores.toFixed(2)}  load ${os.loadavg()[0]!.toFixed(1)}`);
      } finally {
        proc.kill('SIGKILL');
        if (proc.exitCode === null && proc.signalCode === null) await new Promise((r) => proc.once('exit', r));
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log('\nmedians:');
  for (const [name, rs] of Object.entries(rows)) {
    console.log(`${name.padEnd(10)} ${median(rs.map((r) => r.rps)).toFixed(0).padStart(6)} req/s  tool ${median(rs.map((r) => r.toolUs)).toFixed(1)} µs/req (user ${median(rs.map((r) => r.toolUserUs)).toFixed(1)})  server ${median(rs.map((r) => r.serverUs)).toFixed(1)} µs/req  pair ${median(rs.map((r) => r.pairCores)).toFixed(2)} cores`);
  }
  if (rows.ferry && rows.autocannon) console.log(`ferry / autocannon by round: ${rows.ferry.map((r, i) => (r.rps / rows.autocannon![i]!.rps).toFixed(2)).join(', ')}`);
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  server.kill();
}
