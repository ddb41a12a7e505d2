/**
 * bench/servers: WebSocket echo messages per second through Ferry's WebSocket server (`ferry
 * serve`, traffic lines written to a file as users see them) against a bare `ws` echo server, in
 * one run. Each server runs in a process of its own; the load generator (this process) keeps
 * CONNECTIONS clients each with WINDOW messages in flight, sending the next as each echo arrives.
 *
 *   npx tsx bench/servers.ts [--duration 5] [--rounds 3] [--profile DIR] [--base DIR]
 *
 * Measurements alternate (bare, Ferry, bare, Ferry…) so other load on the machine falls on both
 * alike; each figure is the median of the rounds. Target (issue 18): Ferry ≥ 85% of the bare server.
 * Each server's CPU time per echoed message (user + system, from /proc; and the system part) is printed too: on a
 * machine shared with other work it moves far less than messages per second. `--profile DIR`
 * runs both servers with `--cpu-prof` and leaves their profiles in DIR. `--base DIR` also measures
 * the Ferry of another checkout (e.g. main, extracted with `git archive` and a node_modules link)
 * in the same alternation: before/after on a busy machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { promises as fs, openSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { freePort, option } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(option('duration') ?? 5);
const ROUNDS = Number(option('rounds') ?? 3);
const CONNECTIONS = 8;
const WINDOW = 32;
const PROFILE_DIR = option('profile');
const BASE = option('base') !== undefined ? path.resolve(option('base')!) : undefined;
const MESSAGE = JSON.stringify({ type: 'tick', id: 1234567, payload: 'x'.repeat(40) });

const BARE_SERVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[1]) });
wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
process.on('SIGINT', () => process.exit(0)); // exits normally, so a --cpu-prof profile is written
`;

/** Ferry as users run it (bundled plain JavaScript, not through tsx); the file is removed at the end. */
async function buildFerry(root: string): Promise<string> {
  const { build } = await import('esbuild');
  // Two folders deep in the checkout, so `../../package.json` and node_modules resolve as from dist/cli.
  const outfile = path.join(root, '.bench-build', 'cli', 'ferry-servers.mjs');
  await build({ entryPoints: [path.join(root, 'src/cli/main.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile, logLevel: 'warning' });
  return outfile;
}

/** `ferry serve` of the checkout at `root` with one WebSocket echo server on `port`, its output going to a file. */
async function startFerry(root: string, name: string, port: number, profile: string[]): Promise<ChildProcess> {
  const ws = path.join(dir, `${name}-ws`);
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: bench-servers\nname: Bench\n');
  await fs.writeFile(path.join(ws, 'servers', 'echo.yaml'), `name: Echo\nkind: websocket\nport: ${port}\nwebsocket:\n  mode: echo\n`);
  const script = `import { main } from ${JSON.stringify(await buildFerry(root))}; process.exitCode = await main(process.argv.slice(1));`;
  return spawn(process.execPath, [...profile, '--input-type=module', '-e', script, 'serve', '-w', ws], {
    cwd: root,
    stdio: ['ignore', openSync(path.join(dir, `${name}.out`), 'w'), 'inherit'],
    env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, `${name}-data`) },
  });
}

async function waitUntilOpen(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const ws = new WebSocket(url);
      ws.once('open', () => (ws.close(), resolve(true)));
      ws.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not open within 20 s`);
}

/** CPU milliseconds (user, system) the process has used so far, from /proc (Linux). */
async function cpuMs(pid: number): Promise<{ user: number; system: number }> {
  const fields = (await fs.readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
  return { user: Number(fields[11]) * 10, system: Number(fields[12]) * 10 };
}

/** Echo messages per second over DURATION_S, and the server's CPU microseconds per message (all, and its system part). */
async function measure(url: string, pid: number): Promise<{ rate: number; cpuUs: number; systemUs: number }> {
  const sockets = await Promise.all(Array.from({ length: CONNECTIONS }, () => new Promise<WebSocket>((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('open', () => resolve(ws));
    ws.once('error', reject);
  })));
  let received = 0;
  let running = true;
  for (const ws of sockets) {
    ws.on('message', () => {
      received++;
      if (running) ws.send(MESSAGE);
    });
  }
  // Warm-up second, then count.
  for (const ws of sockets) for (let i = 0; i < WINDOW; i++) ws.send(MESSAGE);
  await new Promise((r) => setTimeout(r, 1000));
  const from = received;
  const started = performance.now();
  const cpuFrom = await cpuMs(pid);
  await new Promise((r) => setTimeout(r, DURATION_S * 1000));
  const rate = ((received - from) / (performance.now() - started)) * 1000;
  const cpuTo = await cpuMs(pid);
  const messages = received - from;
  const systemUs = ((cpuTo.system - cpuFrom.system) * 1000) / messages;
  const cpuUs = ((cpuTo.user - cpuFrom.user) * 1000) / messages + systemUs;
  running = false;
  await Promise.all(sockets.map((ws) => new Promise((r) => (ws.once('close', r), ws.close()))));
  return { rate, cpuUs, systemUs };
}

const cpuText = (m: { cpuUs: number; systemUs: number }) => `${m.cpuUs.toFixed(1)} µs CPU/msg, ${m.systemUs.toFixed(1)} system`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-servers-'));
const children: ChildProcess[] = [];
try {
  const barePort = await freePort();
  const profile = PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : [];
  children.push(spawn(process.execPath, [...profile, '-e', BARE_SERVER, String(barePort)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }));
  const ferryPort = await freePort();
  children.push(await startFerry(ROOT, 'ferry', ferryPort, profile));
  const basePort = await freePort();
  if (BASE !== undefined) children.push(await startFerry(BASE, 'base', basePort, profile));
  const bare = `ws://127.0.0.1:${barePort}`;
  const ferry = `ws://127.0.0.1:${ferryPort}`;
  const base = `ws://127.0.0.1:${basePort}`;
  await waitUntilOpen(bare);
  await waitUntilOpen(ferry);
  if (BASE !== undefined) await waitUntilOpen(base);
  const loadAtStart = os.loadavg()[0]!;
  const rates: { bare: number[]; ferry: number[] } = { bare: [], ferry: [] };
  const cpu: { bare: number[]; ferry: number[]; base: number[] } = { bare: [], ferry: [], base: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const b = await measure(bare, children[0]!.pid!);
    const f = await measure(ferry, children[1]!.pid!);
    rates.bare.push(b.rate);
    rates.ferry.push(f.rate);
    cpu.bare.push(b.cpuUs);
    cpu.ferry.push(f.cpuUs);
    let againstBase = '';
    if (BASE !== undefined) {
      const o = await measure(base, children[2]!.pid!);
      cpu.base.push(o.cpuUs);
      againstBase = `, base ${Math.round(o.rate)} msg/s (${cpuText(o)})`;
    }
    console.log(`round ${round + 1}: bare ${Math.round(b.rate)} msg/s (${cpuText(b)}), Ferry ${Math.round(f.rate)} msg/s (${cpuText(f)})${againstBase}`);
  }
  const lines = (await fs.readFile(path.join(dir, 'ferry.out'), 'utf8')).split('\n').length;
  const b = median(rates.bare);
  const f = median(rates.ferry);
  console.log(`\nWebSocket echo, ${CONNECTIONS} connections × ${WINDOW} in flight, ${MESSAGE.length}-byte text, median of ${ROUNDS} × ${DURATION_S} s (load average ${loadAtStart.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end)`);
  console.log(`bare ws server: ${Math.round(b)} msg/s`);
  console.log(`Ferry (ferry serve, ${lines} traffic lines written): ${Math.round(f)} msg/s`);
  console.log(`ratio: ${((f / b) * 100).toFixed(1)}% (target ≥ 85%: ${f / b >= 0.85 ? 'met' : 'not met'})`);
  const cb = median(cpu.bare);
  const cf = median(cpu.ferry);
  const pairedCpu = cpu.ferry.map((x, i) => x / cpu.bare[i]!);
  console.log(`server CPU per echoed message: bare ${cb.toFixed(1)} µs, Ferry ${cf.toFixed(1)} µs (bare/Ferry ${((cb / cf) * 100).toFixed(1)}%; Ferry/bare ${(cf / cb).toFixed(2)}×, round by round median ${median(pairedCpu).toFixed(2)}×, aim ≤ 1.1×)`);
  if (BASE !== undefined) {
    const co = median(cpu.base);
    console.log(`against ${path.basename(BASE)}: Ferry ${cf.toFixed(1)} µs vs ${co.toFixed(1)} µs CPU per message (${(cf / co).toFixed(3)}×; round by round median ${median(cpu.ferry.map((x, i) => x / cpu.base[i]!)).toFixed(3)}×)`);
  }
} finally {
  // Waited for: a profiled server writes its profile as it exits.
  await Promise.all(children.map((child) => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve(null);
    child.once('exit', resolve);
    child.kill('SIGINT');
  })));
  await fs.rm(path.join(ROOT, '.bench-build'), { recursive: true, force: true });
  if (BASE !== undefined) await fs.rm(path.join(BASE, '.bench-build'), { recursive: true, force: true });
  await fs.rm(dir, { recursive: true, force: true });
}
