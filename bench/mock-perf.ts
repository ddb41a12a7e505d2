/**
 * bench/mock-perf: where the mock's CPU per request goes, next to a bare Node server's. Both serve
 * the same bytes (bench/mock-peers.ts), on one CPU, loaded at the same time (autocannon, 25
 * connections each) while Linux `perf` samples both processes; JavaScript frames are named through
 * Node's `--perf-basic-prof`. Ferry runs as shipped (`bin/ferry.js serve`, after `npm run build`),
 * its traffic lines going to a file as with `ferry serve > traffic.log`.
 *
 *   npx tsx bench/mock-perf.ts [--duration 8] [--top 15] [--apart]
 *
 * `--apart`: as bench/mock.ts's target command measures, each server loaded alone (50 connections,
 * bare first, then Ferry, `--duration` seconds each) on any CPU, the load generator on the others.
 *
 * Prints the CPU per request of each server in the kernel, in Node's and V8's C++, in
 * V8's builtins (inline caches, allocation, string and array helpers), in Node's own JavaScript and
 * in Ferry's, with the ratio of each; then the symbols that differ most and Ferry's own functions.
 * Needs `perf` (Debian: `linux-perf`) and permission to sample other processes (root, or
 * `kernel.perf_event_paranoid` ≤ 1). An analysis tool, not a target: the figure of issue 24 is
 * bench/mock.ts's.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, openSync, promises as fs, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BARE_SERVER, writeMockWorkspace } from './mock-peers.js';
import { freePort, option, waitUntilAnswering } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(option('duration') ?? 8);
const TOP = Number(option('top') ?? 15);
const APART = process.argv.includes('--apart');
const CONNECTIONS = APART ? 50 : 25;
const SAMPLES_PER_S = 1999;
/** Together, both servers on one CPU (the load generator on another: run the bench with `taskset -c 0`); apart, on any. */
const CPUS = APART ? `0-${os.cpus().length - 1}` : os.cpus().length > 1 ? '1' : '0';

const CATEGORIES = ['kernel', 'native (Node, V8, libc)', 'V8 builtins', "Node's JavaScript", "Ferry's JavaScript"] as const;
type Category = (typeof CATEGORIES)[number];

interface Server {
  name: string;
  child: ChildProcess;
  url: string;
  requests: number;
  /** Thread ids of the process (perf reports threads). */
  threads: Set<number>;
  bySymbol: Map<string, number>;
}

function category(symbol: string, kernel: boolean): Category {
  if (kernel) return 'kernel';
  if (symbol.startsWith('JS:')) return symbol.includes(ROOT) ? "Ferry's JavaScript" : "Node's JavaScript";
  if (symbol.startsWith('Builtins_')) return 'V8 builtins';
  return 'native (Node, V8, libc)';
}

function requirePerf(): void {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('bench/mock-perf needs Linux perf on the PATH (Debian: apt-get install linux-perf).');
    process.exit(2);
  }
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
    console.error('bench/mock-perf runs Ferry as shipped: build it first (npm run build).');
    process.exit(2);
  }
}

async function start(dir: string): Promise<Server[]> {
  const barePort = await freePort();
  const bare = spawn('taskset', ['-c', CPUS, process.execPath, '--perf-basic-prof', '-e', BARE_SERVER, String(barePort)], { stdio: ['ignore', 'ignore', 'inherit'] });
  const ws = path.join(dir, 'ws');
  const ferryPort = await freePort();
  await writeMockWorkspace(ws, ferryPort);
  const ferry = spawn('taskset', ['-c', CPUS, process.execPath, '--perf-basic-prof', path.join(ROOT, 'bin', 'ferry.js'), 'serve', '-w', ws], {
    stdio: ['ignore', openSync(path.join(dir, 'ferry.out'), 'w'), 'inherit'],
    env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, 'data') },
  });
  const servers = [
    { name: 'bare', child: bare, url: `http://127.0.0.1:${barePort}` },
    { name: 'ferry', child: ferry, url: `http://127.0.0.1:${ferryPort}` },
  ];
  for (const s of servers) await waitUntilAnswering(`${s.url}/users/1`, 30);
  return servers.map((s) => ({ ...s, requests: 0, threads: new Set<number>(), bySymbol: new Map<string, number>() }));
}

async function loadAll(servers: Server[], seconds: number): Promise<number[]> {
  const load = (s: Server) => autocannon({ url: `${s.url}/users/42`, connections: CONNECTIONS, duration: seconds });
  if (!APART) return (await Promise.all(servers.map(load))).map((r) => r.requests.total);
  const totals: number[] = [];
  for (const s of servers) totals.push((await load(s)).requests.total);
  return totals;
}

/** `perf report -n` lines: `  1.23%  123  4711:node  [k] symbol` (share, samples, thread, where, symbol). */
function readReport(file: string, servers: Server[]): void {
  const text = execFileSync('perf', ['report', '-i', file, '--sort', 'pid,sym', '-n', '--stdio', '--no-children', '-g', 'none'], { maxBuffer: 256 * 1024 * 1024, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  for (const line of text.split('\n')) {
    const m = /^\s*[\d.]+%\s+(\d+)\s+(\d+):\S+\s+\[(.)\]\s+(.*)$/.exec(line);
    if (m === null) continue;
    const server = servers.find((s) => s.threads.has(Number(m[2])));
    if (server === undefined) continue;
    // JIT code moves: addresses in names differ from run to run, the function does not.
    const symbol = `${m[3] === 'k' ? '[k] ' : ''}${m[4]!.trim().replace(/0x[0-9a-f]+/g, '')}`;
    server.bySymbol.set(symbol, (server.bySymbol.get(symbol) ?? 0) + Number(m[1]));
  }
}

/** CPU time per request, in µs, of `samples` (each 1/SAMPLES_PER_S s of CPU). */
function microsPerRequest(server: Server, samples: number): number {
  return ((samples / SAMPLES_PER_S) * 1e6) / server.requests;
}

async function main(): Promise<void> {
  requirePerf();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-mock-perf-'));
  const servers = await start(dir);
  try {
    await loadAll(servers, 3); // warm up: optimised code and grown heaps before sampling
    for (const s of servers) for (const tid of readdirSync(`/proc/${s.child.pid}/task`)) s.threads.add(Number(tid));
    const data = path.join(dir, 'perf.data');
    const perf = spawn('perf', ['record', '-F', String(SAMPLES_PER_S), '-o', data, '-p', servers.map((s) => s.child.pid).join(','), '--', 'sleep', String(APART ? DURATION_S * servers.length + 1 : DURATION_S)], { stdio: 'ignore' });
    const recorded = new Promise((resolve) => perf.on('exit', resolve));
    const totals = await loadAll(servers, DURATION_S);
    servers.forEach((s, i) => (s.requests = totals[i]!));
    await recorded;
    readReport(data, servers);
  } finally {
    for (const s of servers) s.child.kill();
  }
  print(servers);
  await fs.rm(dir, { recursive: true, force: true });
}

function print(servers: Server[]): void {
  const [bare, ferry] = servers as [Server, Server];
  console.log(`bench/mock-perf: ${APART ? `each server alone for ${DURATION_S} s, on CPUs ${CPUS}` : `${DURATION_S} s, both servers together on CPU ${CPUS}`}, ${CONNECTIONS} connections each; requests: bare ${bare.requests}, ferry ${ferry.requests}; Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(1)}`);
  console.log(`CPU per request, µs (perf samples at ${SAMPLES_PER_S} per second of CPU):`);
  const sums = (s: Server) => {
    const out = new Map<Category, number>(CATEGORIES.map((c) => [c, 0]));
    for (const [symbol, samples] of s.bySymbol) {
      const c = category(symbol.replace(/^\[k\] /, ''), symbol.startsWith('[k] '));
      out.set(c, out.get(c)! + microsPerRequest(s, samples));
    }
    return out;
  };
  const b = sums(bare);
  const f = sums(ferry);
  const total = (m: Map<Category, number>) => [...m.values()].reduce((a, x) => a + x, 0);
  const row = (name: string, x: number, y: number, of: number) =>
    console.log(`  ${name.padEnd(26)} bare ${x.toFixed(3).padStart(6)}  ferry ${y.toFixed(3).padStart(6)}  difference ${(y - x).toFixed(3).padStart(6)} (${(((y - x) / of) * 100).toFixed(1).padStart(5)}% of bare's total)`);
  for (const c of CATEGORIES) row(c, b.get(c)!, f.get(c)!, total(b));
  row('all', total(b), total(f), total(b));
  console.log(`  ratio: ${(total(f) / total(b)).toFixed(3)}× (the servers' other threads, garbage collection helpers among them, are in the figures)`);

  const symbols = new Set([...bare.bySymbol.keys(), ...ferry.bySymbol.keys()]);
  const diffs = [...symbols].map((s) => ({ s, b: microsPerRequest(bare, bare.bySymbol.get(s) ?? 0), f: microsPerRequest(ferry, ferry.bySymbol.get(s) ?? 0) }));
  console.log(`\nlargest differences (ferry − bare, µs per request):`);
  for (const d of diffs.sort((x, y) => y.f - y.b - (x.f - x.b)).slice(0, TOP)) console.log(`  ${(d.f - d.b).toFixed(4).padStart(7)}  ${d.s.slice(0, 120)}`);
  console.log(`\nFerry's own functions (µs per request):`);
  for (const d of diffs.filter((d) => d.s.includes(ROOT)).sort((x, y) => y.f - x.f).slice(0, TOP)) console.log(`  ${d.f.toFixed(4).padStart(7)}  ${d.s.replace(`file://${ROOT}/`, '').slice(0, 120)}`);
}

await main();
