/**
 * bench/servers: WebSocket echo messages per second through Ferry's WebSocket server (`ferry
 * serve`, traffic lines written to a file as users see them) against a bare `ws` echo server, in
 * one run. Each server runs in a process of its own; the load generator (this process) keeps
 * CONNECTIONS clients each with WINDOW messages in flight, sending the next as each echo arrives.
 *
 *   npx tsx bench/servers.ts [--duration 5] [--rounds 3]
 *
 * Measurements alternate (bare, Ferry, bare, Ferry…) so other load on the machine falls on both
 * alike; each figure is the median of the rounds. Target (issue 18): Ferry ≥ 85% of the bare server.
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
const MESSAGE = JSON.stringify({ type: 'tick', id: 1234567, payload: 'x'.repeat(40) });

const BARE_SERVER = `
const { WebSocketServer } = require('ws');
const wss = new WebSocketServer({ host: '127.0.0.1', port: Number(process.argv[1]) });
wss.on('connection', (ws) => ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary })));
`;

/** Ferry as users run it (bundled plain JavaScript, not through tsx); the file is removed at the end. */
async function buildFerry(): Promise<string> {
  const { build } = await import('esbuild');
  // Two folders deep in the worktree, so `../../package.json` and node_modules resolve as from dist/cli.
  const outfile = path.join(ROOT, '.bench-build', 'cli', 'ferry-servers.mjs');
  await build({ entryPoints: [path.join(ROOT, 'src/cli/main.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile, logLevel: 'warning' });
  return outfile;
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

/** Echo messages per second over DURATION_S. */
async function measure(url: string): Promise<number> {
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
  await new Promise((r) => setTimeout(r, DURATION_S * 1000));
  const rate = ((received - from) / (performance.now() - started)) * 1000;
  running = false;
  await Promise.all(sockets.map((ws) => new Promise((r) => (ws.once('close', r), ws.close()))));
  return rate;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-servers-'));
const children: ChildProcess[] = [];
const bundle = await buildFerry();
try {
  const barePort = await freePort();
  children.push(spawn(process.execPath, ['-e', BARE_SERVER, String(barePort)], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] }));
  const ferryPort = await freePort();
  const ws = path.join(dir, 'ws');
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: bench-servers\nname: Bench\n');
  await fs.writeFile(path.join(ws, 'servers', 'echo.yaml'), `name: Echo\nkind: websocket\nport: ${ferryPort}\nwebsocket:\n  mode: echo\n`);
  const script = `import { main } from ${JSON.stringify(bundle)}; process.exitCode = await main(process.argv.slice(1));`;
  children.push(spawn(process.execPath, ['--input-type=module', '-e', script, 'serve', '-w', ws], {
    cwd: ROOT,
    stdio: ['ignore', openSync(path.join(dir, 'ferry.out'), 'w'), 'inherit'],
    env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, 'data') },
  }));
  const bare = `ws://127.0.0.1:${barePort}`;
  const ferry = `ws://127.0.0.1:${ferryPort}`;
  await waitUntilOpen(bare);
  await waitUntilOpen(ferry);
  const rates: { bare: number[]; ferry: number[] } = { bare: [], ferry: [] };
  for (let round = 0; round < ROUNDS; round++) {
    rates.bare.push(await measure(bare));
    rates.ferry.push(await measure(ferry));
    console.log(`round ${round + 1}: bare ${Math.round(rates.bare.at(-1)!)} msg/s, Ferry ${Math.round(rates.ferry.at(-1)!)} msg/s`);
  }
  const lines = (await fs.readFile(path.join(dir, 'ferry.out'), 'utf8')).split('\n').length;
  const b = median(rates.bare);
  const f = median(rates.ferry);
  console.log(`\nWebSocket echo, ${CONNECTIONS} connections × ${WINDOW} in flight, ${MESSAGE.length}-byte text, median of ${ROUNDS} × ${DURATION_S} s (load average ${os.loadavg()[0]!.toFixed(1)})`);
  console.log(`bare ws server: ${Math.round(b)} msg/s`);
  console.log(`Ferry (ferry serve, ${lines} traffic lines written): ${Math.round(f)} msg/s`);
  console.log(`ratio: ${((f / b) * 100).toFixed(1)}% (target ≥ 85%: ${f / b >= 0.85 ? 'met' : 'not met'})`);
} finally {
  for (const child of children) child.kill('SIGINT');
  await fs.rm(path.join(ROOT, '.bench-build'), { recursive: true, force: true });
  await fs.rm(dir, { recursive: true, force: true });
}
