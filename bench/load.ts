/**
 * Ferry's load generator against autocannon (npm) and wrk (Debian) on the same targets: a bare
 * Node `http` server and nginx (Debian nginx-light, started here on a loopback port with
 * `access_log off`). 50 connections, 10 s, closed model, rounds alternating tool and server.
 * Prints each tool's req/s, p99 and its own CPU time, Ferry's start and end RSS, and the ratios.
 *
 *   npx tsx bench/load.ts                 # 2 rounds
 *   ROUNDS=3 SECONDS=10 npx tsx bench/load.ts
 *   LONG=60 npx tsx bench/load.ts         # also: Ferry alone for 60 s, RSS at start and end
 *   WARMUP=0 npx tsx bench/load.ts        # no warm-up of the servers before round 1 (default 5 s each)
 *   BASELINE=/tmp/old npx tsx bench/load.ts   # also an older checkout's generator ("before"), same run
 *   TOOLS=ferry,before,autocannon ...     # only these tools (ferry1: Ferry with --workers 1)
 *   PIN=1 npx tsx bench/load.ts            # servers on CPU 1, every tool on CPU 0 (taskset)
 *
 * All traffic stays on 127.0.0.1; every run is bounded in time.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { freePort } from './support.js';

const CONNECTIONS = 50;
const SECONDS = Number(process.env.SECONDS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const LONG = Number(process.env.LONG ?? 0);
/** Seconds of traffic each server gets before round 1 (not counted): 3 s were not always enough at load 9–10. */
const WARMUP = Number(process.env.WARMUP ?? 5);
/** Another checkout of Ferry (e.g. `git archive <commit>` unpacked, with node_modules): its generator runs as "before". */
const BASELINE = process.env.BASELINE;
/**
 * `PIN=1`: the servers run on CPU 1 and every tool on CPU 0 (`taskset`). The cores of the VM
 * these figures come from differ in speed (the same work took 1.35 µs on one and 2.16 on the
 * other, bench/README.md, mock, session 10), and where the scheduler put the server decided
 * a round; pinned, every tool meets the same server on the same core.
 */
const PIN = process.env.PIN === '1';
const onToolCore = (command: string, args: string[]): string[] => (PIN ? ['taskset', '-c', '0', command, ...args] : [command, ...args]);
const onServerCore = (command: string, args: string[]): [string, string[]] => (PIN ? ['taskset', ['-c', '1', command, ...args]] : [command, args]);
const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

// --- the child that runs Ferry's engine (same code as `ferry load`, without a workspace) ---
if (process.argv[2] === '--ferry-child') {
  const [url, seconds] = [process.argv[3]!, Number(process.argv[4])];
  const { runEngine } = await import('../src/load/engine.js');
  const { combine } = await import('../src/load/result.js');
  const rssStart = process.memoryUsage().rss;
  let cpuAtStart = process.cpuUsage();
  let rssPeak = rssStart;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 500);
  const outcome = await runEngine({
    workers: process.env.WORKERS ? Number(process.env.WORKERS) : undefined,
    // CPU from the moment every worker is up: the per-request cost without tsx and bundling.
    onStart: () => (cpuAtStart = process.cpuUsage()),
    config: {
      targets: [{ request: 'bench', weight: 1, method: 'GET', url, headers: [], captures: [] }],
      model: 'virtualUsers',
      stages: [{ durationSecs: 0, target: CONNECTIONS }, { durationSecs: seconds, target: CONNECTIONS }],
      thinkTimeMs: 0,
      maxInFlight: 1000,
      keepAlive: true,
      timeoutMs: 30_000,
      http2: false,
      verifyTls: true,
      rows: [],
      segment: { index: 0, count: 1 },
      marker: 'ferrybench',
      names: [],
    },
  });
  clearInterval(sampler);
  const rssEnd = process.memoryUsage().rss;
  const { overall } = combine(outcome.targets, [], (outcome.endedAt - outcome.startedAt) / 1000);
  const cpu = process.cpuUsage();
  const run = process.cpuUsage(cpuAtStart);
  const usPerRequest = (run.user + run.system) / Math.max(1, overall.count);
  console.log(JSON.stringify({ workers: outcome.workers, rps: overall.rps, usPerRequest, p99: overall.latencyMs?.p99 ?? null, errors: overall.errors.total, cpu: (cpu.user + cpu.system) / 1e6, rssStart, rssEnd, rssPeak }));
  process.exit(0);
}

interface Measure {
  rps: number;
  p99: number | null;
  cpu: number;
  errors?: number;
  rssStart?: number;
  rssEnd?: number;
  rssPeak?: number;
  /** Ferry only: generator threads that sent requests. */
  workers?: number;
  /** Ferry only: CPU per request once its workers are up (no tsx start, no bundling). */
  usPerRequest?: number;
  /** The server's CPU (s, all its processes) over the tool's run, and the machine's idle cores over it. */
  serverCpu?: number;
  idleCores?: number;
}

/** CPU per request over the whole process (start included): comparable across tools. */
const usPer = (m: Measure, seconds = SECONDS) => (m.cpu * 1e6) / Math.max(1, m.rps * seconds);

function run(command: string, args: string[], limitMs: number, cwd = repo, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });
}

/** `/usr/bin/time` reports the tool's own CPU (user + system, all threads). */
const TIME = ['-f', '__cpu %U %S'];
function cpuOf(stderr: string): number {
  const m = /__cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  return m ? Number(m[1]) + Number(m[2]) : NaN;
}

async function ferry(url: string, seconds = SECONDS, dir = repo, env: Record<string, string> = {}): Promise<Measure> {
  const out = await run('/usr/bin/time', [...TIME, ...onToolCore(process.execPath, ['--import', 'tsx', path.join(dir, 'bench/load.ts'), '--ferry-child', url, String(seconds)])], (seconds + 60) * 1000, dir, env);
  const line = out.stdout.trim().split('\n').at(-1) ?? '{}';
  return { ...(JSON.parse(line) as Measure), cpu: cpuOf(out.stderr) };
}

async function autocannon(url: string, seconds = SECONDS): Promise<Measure> {
  const out = await run('/usr/bin/time', [...TIME, ...onToolCore(process.execPath, ['node_modules/autocannon/autocannon.js', '-c', String(CONNECTIONS), '-d', String(seconds), '-j', url])], (seconds + 60) * 1000);
  const json = JSON.parse(out.stdout) as { requests: { average: number }; latency: { p99: number }; errors: number; non2xx: number };
  return { rps: json.requests.average, p99: json.latency.p99, errors: json.errors + json.non2xx, cpu: cpuOf(out.stderr) };
}

async function wrk(url: string): Promise<Measure> {
  const threads = String(Math.min(2, os.availableParallelism()));
  const out = await run('/usr/bin/time', [...TIME, ...onToolCore('wrk', ['-t', threads, '-c', String(CONNECTIONS), '-d', `${SECONDS}s`, '--latency', url])], (SECONDS + 60) * 1000);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1]);
  const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)/m.exec(out.stdout);
  const scale = { us: 0.001, ms: 1, s: 1000 } as const;
  return { rps, p99: p99 ? Number(p99[1]) * scale[p99[2] as keyof typeof scale] : null, cpu: cpuOf(out.stderr) };
}

async function startNode(): Promise<{ url: string; pid?: number; stop(): void }> {
  const port = await freePort();
  const child = spawn(...onServerCore(process.execPath, ['-e', `require('http').createServer((q,s)=>s.end('ok')).listen(${port},'127.0.0.1',()=>console.log('up'))`]), { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((r) => child.stdout.once('data', r));
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid, stop: () => child.kill() };
}

async function startNginx(): Promise<{ url: string; pid?: number; stop(): void }> {
  const port = await freePort();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-nginx-'));
  const conf = `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  server { listen 127.0.0.1:${port}; location / { return 200 'ok'; } }
}
`;
  await fs.writeFile(path.join(dir, 'nginx.conf'), conf);
  const child = spawn(...onServerCore('nginx', ['-p', dir, '-c', path.join(dir, 'nginx.conf')]), { stdio: 'inherit' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((r) => net.connect(port, '127.0.0.1').once('connect', function (this: net.Socket) { this.destroy(); r(true); }).once('error', () => r(false)));
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid, stop: () => { child.kill(); void fs.rm(dir, { recursive: true, force: true }); } };
}

/** CPU seconds (user + system) of a process and its children, from /proc (Linux; NaN elsewhere). */
function treeCpu(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
    let ticks = Number(fields[11]) + Number(fields[12]);
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) ticks += treeCpu(Number(child)) * 100;
    return ticks / 100;
  } catch {
    return NaN;
  }
}
const machineIdle = () => os.cpus().reduce((sum, c) => sum + c.times.idle, 0);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mb = (n: number | undefined) => (n === undefined ? '-' : `${(n / 2 ** 20).toFixed(0)} MB`);

const before = (url: string) => ferry(url, SECONDS, BASELINE);
/** Ferry with one generator thread (`--workers 1`) instead of one per core. */
const ferry1 = (url: string) => ferry(url, SECONDS, repo, { WORKERS: '1' });
const all = { ferry, ferry1, before, autocannon, wrk } as const;
type Tool = keyof typeof all;
const chosen = (process.env.TOOLS?.split(',') ?? ['ferry', 'ferry1', 'before', 'autocannon', 'wrk']).filter((t): t is Tool => t in all && (t !== 'before' || !!BASELINE));
const tools = Object.fromEntries(chosen.map((t) => [t, all[t]])) as Partial<typeof all>;
const results: Record<string, Record<string, Measure[]>> = { node: Object.fromEntries(chosen.map((t) => [t, []])), nginx: Object.fromEntries(chosen.map((t) => [t, []])) };
console.log(`machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model}), Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}${PIN ? '; servers on CPU 1, tools on CPU 0' : ''}`);
const servers = { node: await startNode(), nginx: await startNginx() };
try {
  // A fresh server is slower for its first seconds (its JIT and heap warm up): warm both up
  // before round 1, so the first tool measured does not pay for it. Not counted.
  for (const server of ['node', 'nginx'] as const) {
    if (WARMUP <= 0) break;
    const [cpu0, at] = [treeCpu(servers[server].pid), performance.now()];
    const m = await autocannon(servers[server].url, WARMUP);
    console.log(`warm-up ${server.padEnd(5)} (autocannon ${WARMUP} s, not counted) ${m.rps.toFixed(0)} req/s  server ${usPer({ ...m, cpu: treeCpu(servers[server].pid) - cpu0 }, WARMUP).toFixed(1)} µs/req over ${((performance.now() - at) / 1000).toFixed(1)} s`);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? chosen : [...chosen].reverse();
    for (const server of ['node', 'nginx'] as const) {
      for (const tool of order) {
        const [serverBefore, idleBefore, at] = [treeCpu(servers[server].pid), machineIdle(), performance.now()];
        const m = await tools[tool]!(servers[server].url);
        m.serverCpu = treeCpu(servers[server].pid) - serverBefore;
        m.idleCores = (machineIdle() - idleBefore) / (performance.now() - at);
        results[server]![tool]!.push(m);
        console.log(`round ${round} ${server.padEnd(5)} ${tool.padEnd(10)}${m.workers ? ` (${m.workers}w)` : ''} ${m.rps.toFixed(0).padStart(7)} req/s  p99 ${m.p99?.toFixed(2) ?? '-'} ms  cpu ${m.cpu.toFixed(1)} s (${usPer(m).toFixed(0)} µs/req${m.usPerRequest ? `, ${m.usPerRequest.toFixed(1)} once up` : ''})  server ${usPer({ ...m, cpu: m.serverCpu ?? NaN }).toFixed(1)} µs/req  idle ${m.idleCores?.toFixed(2)} core  load ${os.loadavg()[0]!.toFixed(1)}${m.rssStart ? `  rss ${mb(m.rssStart)} → ${mb(m.rssEnd)} (peak ${mb(m.rssPeak)})` : ''}`);
      }
    }
  }
  console.log('\nmedians:');
  for (const server of ['node', 'nginx'] as const) {
    const r = (tool: string) => median(results[server]![tool]!.map((m) => m.rps));
    for (const tool of Object.keys(tools)) {
      const ms = results[server]![tool]!;
      const upUs = ms.every((m) => m.usPerRequest !== undefined) ? `, ${median(ms.map((m) => m.usPerRequest!)).toFixed(1)} once up` : '';
      console.log(`${server.padEnd(5)} ${tool.padEnd(10)} ${r(tool).toFixed(0).padStart(7)} req/s  p99 ${median(ms.map((m) => m.p99 ?? NaN)).toFixed(2)} ms  cpu ${median(ms.map((m) => m.cpu)).toFixed(1)} s  ${median(ms.map((m) => usPer(m))).toFixed(0)} µs/req${upUs}`);
    }
    const ratio = (a: Tool, b: Tool) => (a in tools && b in tools ? `${a} / ${b} ${(r(a) / r(b)).toFixed(2)}×   ` : '');
    console.log(`${server.padEnd(5)} ${ratio('ferry', 'autocannon')}${ratio('ferry', 'wrk')}${ratio('ferry1', 'autocannon')}${ratio('ferry1', 'wrk')}${ratio('before', 'autocannon')}${ratio('ferry', 'before')}`);
    // Round by round (same round, same conditions): the steadier ratio on a shared machine.
    for (const tool of ['ferry', 'ferry1'] as const) {
      if (tool in tools && 'autocannon' in tools) console.log(`${server.padEnd(5)} ${tool} / autocannon by round: ${results[server]![tool]!.map((m, i) => (m.rps / results[server]!.autocannon![i]!.rps).toFixed(2)).join(', ')}`);
    }
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  if (LONG > 0) {
    const m = await ferry(servers.nginx.url, LONG);
    console.log(`\nferry alone, ${LONG} s against nginx: ${m.rps.toFixed(0)} req/s, rss ${mb(m.rssStart)} at start, ${mb(m.rssEnd)} at the end (peak ${mb(m.rssPeak)})`);
  }
} finally {
  servers.node.stop();
  servers.nginx.stop();
}
