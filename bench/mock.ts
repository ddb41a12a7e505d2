/**
 * bench/mock: one mock route with a templated JSON body (`{{request.params.id}}`, `{{$uuid}}`),
 * served by Ferry (`ferry serve`, traffic log printed as users see it), by Mockoon's CLI with the
 * equivalent route, and by a bare Node `http` server answering the same bytes. The same load
 * generator (autocannon, 50 keep-alive connections) runs against each, one after the other, in
 * this process; each server runs in a process of its own so its CPU use can be read.
 *
 *   npx tsx bench/mock.ts [--duration 10] [--rounds 5] [--only ferry,bare,mockoon] [--base DIR]
 *
 * All servers start first and stay up; the measurements then alternate, every other round in
 * reverse order (bare, Ferry, Ferry, bare, bare…), so that other load on the machine falls on both alike. Each figure is the median of the rounds
 * (Mockoon, two orders of magnitude slower, is measured once).
 *
 * Targets (issue 10): Ferry ≥ 85% of the bare server's req/s, Ferry's p99 ≤ 1.5× the bare server's.
 * Issue 24: Ferry's CPU per request ≤ 1.05× the bare server's, req/s ≥ 90%.
 *
 * `--in-process [--rounds N] [--base DIR]`: the handlers alone, without sockets (see `inProcess`).
 *
 * `--pin-servers CPU` starts every server on that one CPU (`taskset`); run the bench itself on the
 * other (`taskset -c 0 npx tsx bench/mock.ts --pin-servers 1`). The bench machine's two CPUs were
 * not equally fast (session 10: the same process cost 1.6× more on one than on the other), so which
 * CPU a server happened to get decided as much as its code.
 *
 * `--concurrent` loads all servers at the same time instead of one after another (25 connections
 * each when two run), every server on one CPU (`--pin-servers`, default 1; run the bench itself on
 * another: `taskset -c 0 npx tsx bench/mock.ts --concurrent`). Alternating rounds still differ by
 * ±10% when the VM's speed drifts within a minute; servers measured in the same seconds on the same
 * CPU see the same drift, so their ratio holds within about ±2% round to round (session 12). Each
 * server's req/s is then its share of that CPU; compare the CPU per request. Mockoon is left out.
 *
 * `--terminal` runs `ferry serve` with its standard output on a pseudo-terminal (util-linux `script`),
 * as in a terminal window: past a few hundred requests a second Ferry then prints one summary line a
 * second instead of a line per request. Without it the output goes to a file, every line written.
 *
 * `--only bare,ferry,path,mock` adds two parts of Ferry's request path, each in a process that loads
 * only what it needs (`MOCK_PART_SERVER`): `path`, the Host check, the handler and the traffic line
 * as `ferry serve` wires them; `mock`, the handler alone. Measured together (`--concurrent`), they
 * split Ferry's extra cost between the rest of the program, the line and Host check, and the mock.
 *
 * `--base DIR` also measures the Ferry of another checkout (e.g. main, extracted with `git archive`
 * and a node_modules link, built with `npm run build`) in the same alternation: before/after on a
 * busy machine. Ferry runs as shipped, `bin/ferry.js` of each checkout (build first).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, promises as fs, openSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BARE_SERVER, MOCK_PART_SERVER, mockServerModel, writeMockWorkspace } from './mock-peers.js';
import { freePort, option, waitUntilAnswering } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DURATION_S = Number(option('duration') ?? 10);
const WARMUP_S = 3;
const CONNECTIONS = 50;
const CONCURRENT = process.argv.includes('--concurrent');
const TERMINAL = process.argv.includes('--terminal');
// Mockoon, two orders of magnitude slower, is measured once, alone: never together with the others.
const ONLY = [...(option('only') ?? 'bare,ferry,mockoon').split(','), ...(option('base') !== undefined ? ['base'] : [])].filter((key) => !(CONCURRENT && key === 'mockoon'));
const ROUNDS = Number(option('rounds') ?? 5);
const BASE = option('base');
const CLOCK_TICKS = 100; // USER_HZ on Linux
// Together, the servers share one CPU (each gets its share of the same moments of the machine).
const PIN = option('pin-servers') ?? (CONCURRENT && os.cpus().length > 1 ? '1' : undefined);

/** A server process, on the CPU `--pin-servers` names (taskset runs node in its own process: same pid). */
function spawnServer(args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  return PIN === undefined ? spawn(process.execPath, args, options) : spawn('taskset', ['-c', PIN, process.execPath, ...args], options);
}

const MOCKOON_BODY = `{"id":"{{urlParam 'id'}}","requestId":"{{faker 'string.uuid'}}","name":"Ada Lovelace","roles":["admin","editor"]}`;

/**
 * `--in-process`: what a request costs the server's JavaScript, without sockets. Each handler gets
 * Node's own request and response objects (`IncomingMessage` with the raw headers autocannon sends,
 * `ServerResponse`, whose output stays in memory), 50 requests per event-loop turn spread over 50
 * pretend connections. Ferry's mock comes from `dist/` of this checkout (and of `--base`; `npm run
 * build` first) behind the listener's Host check, its traffic printed as `ferry serve > file` prints
 * it (to a temporary file). The bare handler is BARE_SERVER's. They alternate; the figure is CPU
 * nanoseconds per request, median and minimum of the rounds.
 */
if (process.argv.includes('--in-process')) {
  await inProcess();
  process.exit(0);
}

async function inProcess(): Promise<void> {
  const http = await import('node:http');
  const server = mockServerModel(3000);
  type Handle = (req: InstanceType<typeof http.IncomingMessage>, res: InstanceType<typeof http.ServerResponse>) => void;
  const bare: Handle = (req, res) => {
    const m = /^\/users\/([^/?]+)\/?(?:\?|$)/.exec(req.url!);
    if (!m || (req.method !== 'GET' && req.method !== 'HEAD')) return void (res.writeHead(404), res.end());
    const body = '{"id":"' + decodeURIComponent(m[1]!) + '","requestId":"' + randomUUID() + '","name":"Ada Lovelace","roles":["admin","editor"]}';
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
    res.end(body);
  };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-mock-'));
  const subjects: { name: string; handle: Handle; samples: number[] }[] = [{ name: 'bare handler', handle: bare, samples: [] }];
  for (const root of [ROOT, ...(BASE !== undefined ? [path.resolve(BASE)] : [])]) {
    const dist = path.join(root, 'dist');
    const { httpMockKind } = await import(path.join(dist, 'servers/kinds/http-mock/http-mock.js'));
    const { TrafficLog } = await import(path.join(dist, 'servers/traffic.js'));
    const { buildVariableScope } = await import(path.join(dist, 'template/index.js'));
    const { loopbackNamesOnly } = await import(path.join(dist, 'servers/listener.js'));
    const { TrafficPrinter } = await import(path.join(dist, 'cli/traffic-printer.js'));
    const { fdPrinter } = await import(path.join(dist, 'cli/line-printer.js'));
    const { paint } = await import(path.join(dist, 'cli/output.js'));
    const traffic = new TrafficLog(1000, 0); // as src/cli/serve.ts makes it: none kept (main's ignores the 0)
    const printer = new TrafficPrinter(fdPrinter(openSync(path.join(dir, `${subjects.length}.out`), 'w')), paint(false), { json: false });
    traffic.subscribe(printer.print);
    const mock = httpMockKind.create({ id: 'users', file: 'servers/users.yaml', traffic });
    mock.configure({ server, variables: buildVariableScope({}) });
    const handle: Handle = (req, res) => mock.handle(req, res);
    const checked: Handle | undefined = loopbackNamesOnly?.(handle);
    const name = `Ferry's mock of ${path.basename(root)}${checked ? '' : ' (no Host check exported)'}`;
    subjects.push({ name, handle: checked ?? handle, samples: [] });
  }
  // What Node's parser sets on a request; the headers object is built from these when first read.
  const probe = new http.IncomingMessage(null as never);
  const headersCount = Object.getOwnPropertySymbols(probe).find((s) => String(s) === 'Symbol(kHeadersCount)');
  if (headersCount === undefined) throw new Error(`this Node (${process.version}) keeps its request headers differently`);
  const connections = Array.from({ length: CONNECTIONS }, () => ({}));
  let sent = 0;
  const perTurn = CONNECTIONS;
  const perRound = 20_000;
  const runRound = async (handle: Handle): Promise<number> => {
    const before = process.cpuUsage();
    for (let i = 0; i < perRound; ) {
      for (let c = 0; c < perTurn; c++, i++) {
        const req = new http.IncomingMessage(connections[c] as never);
        req.method = 'GET';
        req.url = `/users/${i & 1023}`;
        req.httpVersionMajor = 1;
        req.httpVersionMinor = 1;
        req.httpVersion = '1.1';
        req.rawHeaders = ['Host', '127.0.0.1:3000']; // as autocannon sends it
        (req as unknown as Record<symbol, number>)[headersCount] = 2;
        const res = new http.ServerResponse(req);
        handle(req, res);
        if (res.writableEnded) sent++;
      }
      await new Promise((resolve) => setImmediate(resolve)); // the traffic log hands its batch over
    }
    const used = process.cpuUsage(before);
    return ((used.user + used.system) * 1000) / perRound;
  };
  try {
    console.log(`bench/mock --in-process: load average at the start ${os.loadavg()[0]!.toFixed(2)}; ${ROUNDS} rounds of ${perRound} requests, ${perTurn} per event-loop turn`);
    for (let i = 0; i < 3; i++) for (const s of subjects) await runRound(s.handle); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      for (const s of round % 2 === 0 ? subjects : [...subjects].reverse()) s.samples.push(await runRound(s.handle));
    }
    for (const s of subjects) console.log(`${s.name.padEnd(40)} median ${median(s.samples).toFixed(0)} ns/request, min ${Math.min(...s.samples).toFixed(0)}`);
    const expected = (3 + ROUNDS) * perRound * subjects.length;
    console.log(`load average at the end ${os.loadavg()[0]!.toFixed(2)}${sent === expected ? '' : ` (only ${sent} of ${expected} requests were answered!)`}`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

interface Peer {
  name: string;
  /** `pid`: the server's own process when `child` is a program that runs it (`script`). */
  start(dir: string): Promise<{ child: ChildProcess; url: string; pid?: number }>;
}

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  serverCpu: number;
  /** Server CPU time per answered request, in microseconds: steadier than req/s on a shared machine. */
  cpuUsPerRequest: number;
  generatorCpu: number;
  outputLines: number;
}

const peers: Record<string, Peer> = {
  bare: {
    name: 'bare Node http',
    async start() {
      const port = await freePort();
      const child = spawnServer(['-e', BARE_SERVER, String(port)], { stdio: ['ignore', 'ignore', 'inherit'] });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/users/1`, 30);
      return { child, url };
    },
  },
  ferry: ferryPeer('ferry', 'Ferry (ferry serve)', ROOT),
  path: partPeer('path', "Ferry's request path alone"),
  mock: partPeer('mock', "Ferry's mock handler alone"),
  ...(BASE !== undefined ? { base: ferryPeer('base', `Ferry of ${path.basename(path.resolve(BASE))}`, path.resolve(BASE)) } : {}),
  mockoon: {
    name: 'Mockoon CLI 9.9.0',
    async start(dir) {
      const require = createRequire(import.meta.url);
      const commons = require('@mockoon/commons') as typeof import('@mockoon/commons');
      const port = await freePort();
      const env = commons.BuildEnvironment({ hasDefaultRoute: false, hasContentTypeHeader: false, hasCorsHeaders: false, port });
      const route = commons.BuildHTTPRoute(true, { endpoint: 'users/:id', body: MOCKOON_BODY });
      route.uuid = randomUUID();
      route.responses[0]!.uuid = randomUUID();
      route.responses[0]!.headers = [{ key: 'Content-Type', value: 'application/json; charset=utf-8' }];
      env.routes.push(route);
      env.rootChildren.push({ type: 'route', uuid: route.uuid });
      env.name = 'bench';
      const file = path.join(dir, 'mockoon.json');
      await fs.writeFile(file, JSON.stringify(env));
      const bin = path.join(path.dirname(require.resolve('@mockoon/cli/package.json')), 'bin', 'run.js');
      const child = spawnServer([bin, 'start', '--data', file, '--port', String(port), '--hostname', '127.0.0.1'], {
        stdio: ['ignore', outputFile(dir, 'mockoon'), 'inherit'],
      });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/users/1`, 30);
      return { child, url };
    },
  },
};

/**
 * `ferry serve` of the checkout at `root` as shipped (`bin/ferry.js`, which loads the bundle `npm
 * run build` made) with the bench's one route, its output going to a file.
 */
function ferryPeer(key: string, name: string, root: string): Peer {
  return {
    name,
    async start(dir) {
      const bin = path.join(root, 'bin', 'ferry.js');
      if (!existsSync(path.join(root, 'dist', 'cli', 'main.js'))) throw new Error(`${root} is not built: run npm run build there first (the bench runs Ferry as shipped, bin/ferry.js).`);
      const ws = path.join(dir, `${key}-ws`);
      const port = await freePort();
      await writeMockWorkspace(ws, port);
      const env = { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, `${key}-data`) };
      const args = [bin, 'serve', '-w', ws];
      const child = TERMINAL ? spawnOnTerminal(args, { cwd: root, stdio: ['ignore', outputFile(dir, key), 'inherit'], env }) : spawnServer(args, { cwd: root, stdio: ['ignore', outputFile(dir, key), 'inherit'], env });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/users/1`, 30);
      return { child, url, pid: TERMINAL ? onlyChild(child.pid!) : child.pid! };
    },
  };
}

/** Part of `ferry serve`'s request path in a process of its own (`MOCK_PART_SERVER`), its output going to a file. */
function partPeer(part: 'path' | 'mock', name: string): Peer {
  return {
    name,
    async start(dir) {
      if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error(`${ROOT} is not built: run npm run build first.`);
      const port = await freePort();
      const child = spawnServer(['--input-type=module', '-e', MOCK_PART_SERVER, ROOT, String(port), part], { stdio: ['ignore', outputFile(dir, part), 'inherit'] });
      const url = `http://127.0.0.1:${port}`;
      await waitUntilAnswering(`${url}/users/1`, 30);
      return { child, url };
    },
  };
}

/**
 * `node ARGS` with its standard output on a pseudo-terminal: `script` makes one, runs the command
 * in it (`exec`: node replaces the shell, so it is script's one child) and copies what it prints to
 * its own standard output.
 */
function spawnOnTerminal(args: string[], options: Parameters<typeof spawn>[2]): ChildProcess {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const command = `exec ${[process.execPath, ...args].map(quote).join(' ')}`;
  const script = ['-q', '-f', '-e', '-c', command, '/dev/null'];
  return PIN === undefined ? spawn('script', script, options) : spawn('taskset', ['-c', PIN, 'script', ...script], options);
}

/** The one child process of `pid` (Linux). */
function onlyChild(pid: number): number {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  if (children.length !== 1) throw new Error(`expected one child of ${pid}, found ${children.length}`);
  return Number(children[0]);
}

/**
 * Where a server's standard output goes: a file, as with `ferry serve > traffic.log`. Both Ferry
 * and Mockoon print one line per request; the file is read afterwards to count them. (Draining a
 * pipe in this process would put the servers' logging on the load generator's thread.)
 */
const outputFiles = new Map<string, string>();
function outputFile(dir: string, name: string): number {
  const file = path.join(dir, `${name}.out`);
  outputFiles.set(name, file);
  return openSync(file, 'w');
}

function linesPrinted(name: string): number {
  const file = outputFiles.get(name);
  if (!file) return 0;
  const text = readFileSync(file);
  let count = 0;
  for (let i = text.indexOf(10); i >= 0; i = text.indexOf(10, i + 1)) count++;
  return count;
}

/** The answer must be the same JSON shape from every server before it is measured. */
async function check(name: string, url: string): Promise<void> {
  const res = await fetch(`${url}/users/42`);
  const text = await res.text();
  const body = JSON.parse(text) as { id: string; requestId: string; name: string };
  const ok = res.status === 200 && body.id === '42' && /^[0-9a-f-]{36}$/.test(body.requestId) && body.name === 'Ada Lovelace' && /application\/json/.test(res.headers.get('content-type') ?? '');
  if (!ok) throw new Error(`${name} answered ${res.status} ${text}`);
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // utime + stime
}

async function load(url: string, seconds: number, connections = CONNECTIONS): Promise<autocannon.Result> {
  return autocannon({ url: `${url}/users/42`, connections, duration: seconds, pipelining: 1 });
}

interface Started {
  key: string;
  name: string;
  child: ChildProcess;
  /** The process whose CPU time is read and which is stopped. */
  pid: number;
  url: string;
}

async function startPeer(key: string, dir: string): Promise<Started> {
  const peer = peers[key]!;
  const { child, url, pid } = await peer.start(dir);
  await check(peer.name, url);
  await load(url, WARMUP_S);
  return { key, name: peer.name, child, pid: pid ?? child.pid!, url };
}

/**
 * Loads `servers` at the same time (one server unless `--concurrent`) and reads each one's figures.
 * Together, each gets `CONNECTIONS / servers.length` connections, so the machine's load is the same.
 */
async function measure(servers: Started[]): Promise<Figures[]> {
  const connections = Math.max(1, Math.round(CONNECTIONS / servers.length));
  const before = servers.map((server) => ({ lines: linesPrinted(server.key), cpu: cpuSeconds(server.pid) }));
  const generatorBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const results = await Promise.all(servers.map((server) => load(server.url, DURATION_S, connections)));
  const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
  const generator = process.cpuUsage(generatorBefore);
  // Let the servers print what they still hold before reading their CPU time.
  await new Promise((r) => setTimeout(r, 300));
  return servers.map((server, i) => {
    const result = results[i]!;
    const serverSeconds = cpuSeconds(server.pid) - before[i]!.cpu;
    return {
      name: server.name,
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
      serverCpu: serverSeconds / elapsed,
      cpuUsPerRequest: (serverSeconds * 1e6) / Math.max(result.requests.total, 1),
      generatorCpu: (generator.user + generator.system) / 1e6 / elapsed / servers.length,
      outputLines: linesPrinted(server.key) - before[i]!.lines,
    };
  });
}

async function stopPeer(server: Started): Promise<void> {
  const { child } = server;
  process.kill(server.pid, 'SIGINT'); // on a terminal, script ends with the server
  await new Promise((r) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      r(undefined);
    }, 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      r(undefined);
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summarize(rounds: Figures[]): Figures {
  const pick = (f: (x: Figures) => number) => median(rounds.map(f));
  return {
    name: rounds[0]!.name,
    rps: pick((x) => x.rps),
    p50: pick((x) => x.p50),
    p99: pick((x) => x.p99),
    errors: rounds.reduce((n, x) => n + x.errors, 0),
    non2xx: rounds.reduce((n, x) => n + x.non2xx, 0),
    serverCpu: pick((x) => x.serverCpu),
    cpuUsPerRequest: pick((x) => x.cpuUsPerRequest),
    generatorCpu: pick((x) => x.generatorCpu),
    outputLines: pick((x) => x.outputLines),
  };
}

function line(f: Figures, label = f.name): string {
  return `${label.padEnd(24)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${f.p50} ms   p99 ${f.p99} ms   server CPU ${(f.serverCpu * 100).toFixed(0)}% (${f.cpuUsPerRequest.toFixed(1)} µs/req)   generator CPU ${(f.generatorCpu * 100).toFixed(0)}%   errors ${f.errors}   non-2xx ${f.non2xx}   lines printed ${f.outputLines}`;
}

const cpuModel = /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
console.log(`bench/mock — ${os.cpus().length} cores (${cpuModel}), Node ${process.version}; autocannon ${CONNECTIONS} keep-alive connections, ${WARMUP_S} s warm-up, then ${ROUNDS} ${CONCURRENT ? 'rounds of all servers at once' : 'alternating rounds'} of ${DURATION_S} s; generator and servers share the cores\n`);

const loadAtStart = os.loadavg()[0]!;
console.log(`load average at the start: ${loadAtStart.toFixed(2)}${PIN !== undefined ? `; servers on CPU ${PIN}` : ''}\n`);

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-mock-'));
const results: Record<string, Figures> = {};
const rounds: Record<string, Figures[]> = {};
const started: Started[] = [];
try {
  for (const key of ONLY) {
    if (!peers[key]) throw new Error(`unknown peer ${key}; use bare, ferry, path, mock, mockoon`);
    try {
      started.push(await startPeer(key, dir));
    } catch (error) {
      console.log(`${peers[key]!.name}: could not be started: ${(error as Error).message}`);
    }
  }
  for (let round = 0; round < ROUNDS; round++) {
    // Every other round in reverse order (bare, Ferry; Ferry, bare; …): a contender measured right
    // after another did measurably worse on the busy 2-core machine (session 9: the bare server
    // cost 28–40 µs a request in one order and 39–44 µs in the other, in the same minutes).
    const measured = (round % 2 === 0 ? started : [...started].reverse()).filter((server) => server.key !== 'mockoon' || round === 0);
    const groups = CONCURRENT ? [measured] : measured.map((server) => [server]);
    for (const group of groups) {
      const figures = await measure(group);
      group.forEach((server, i) => {
        (rounds[server.key] ??= []).push(figures[i]!);
        console.log(line(figures[i]!, `${server.name} #${round + 1}`));
      });
    }
  }
  console.log('');
  for (const server of started) {
    results[server.key] = summarize(rounds[server.key]!);
    console.log(line(results[server.key]!, `${server.name} (median)`));
  }
} finally {
  await Promise.all(started.map(stopPeer));
  await fs.rm(dir, { recursive: true, force: true });
}

const { ferry, bare, mockoon, base } = results;
const loadAtEnd = os.loadavg()[0]!;
console.log(`\nload average at the end: ${loadAtEnd.toFixed(2)} (the bench itself included)`);
// Other work on the machine decides which process the scheduler favours, not the servers' speed.
const busy = Math.max(loadAtStart, loadAtEnd - 2) > os.cpus().length;
if (busy) console.log('The machine was busy with other work: req/s and latency ratios are unreliable; compare the CPU per request.');
if (ferry && bare) {
  const rpsRatio = ferry.rps / bare.rps;
  const p99Ratio = ferry.p99 / Math.max(bare.p99, 1);
  // Each Ferry round against the bare round of the same round: the machine's speed drifts between
  // rounds, so paired ratios show how much of the spread is the machine.
  const paired = (rounds.ferry ?? []).map((f, i) => f.rps / (rounds.bare?.[i]?.rps ?? Number.NaN)).filter(Number.isFinite);
  console.log('');
  console.log(`Ferry / bare Node req/s: ${(rpsRatio * 100).toFixed(1)}%  (target ≥ 85%: ${rpsRatio >= 0.85 ? 'met' : 'NOT met'})`);
  if (paired.length > 1) {
    console.log(`  round by round: ${paired.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')}; median ${(median(paired) * 100).toFixed(1)}%`);
  }
  console.log(`Server CPU per request: Ferry ${ferry.cpuUsPerRequest.toFixed(1)} µs, bare Node ${bare.cpuUsPerRequest.toFixed(1)} µs (${(ferry.cpuUsPerRequest / bare.cpuUsPerRequest).toFixed(2)}×)`);
  const pairedCpuBare = (rounds.ferry ?? []).map((f, i) => f.cpuUsPerRequest / (rounds.bare?.[i]?.cpuUsPerRequest ?? Number.NaN)).filter(Number.isFinite);
  if (pairedCpuBare.length > 1) console.log(`  round by round: ${pairedCpuBare.map((r) => `${r.toFixed(2)}×`).join(', ')}; median ${median(pairedCpuBare).toFixed(2)}×`);
  console.log(`Ferry p99 / bare Node p99: ${p99Ratio.toFixed(2)}×  (target ≤ 1.5×: ${p99Ratio <= 1.5 ? 'met' : 'NOT met'}; p99 floors at 1 ms)`);
  console.log(`  (target of issue 24: ≤ 1.05× and req/s ≥ 90%: ${ferry.cpuUsPerRequest / bare.cpuUsPerRequest <= 1.05 && rpsRatio >= 0.9 ? 'met' : 'NOT met'})`);
  if (mockoon) console.log(`Ferry / Mockoon req/s: ${(ferry.rps / mockoon.rps).toFixed(1)}×`);
  if (base) {
    const pairedCpu = (rounds.ferry ?? []).map((f, i) => f.cpuUsPerRequest / (rounds.base?.[i]?.cpuUsPerRequest ?? Number.NaN)).filter(Number.isFinite);
    console.log(`Server CPU per request against ${base.name}: ${ferry.cpuUsPerRequest.toFixed(1)} µs vs ${base.cpuUsPerRequest.toFixed(1)} µs (${(ferry.cpuUsPerRequest / base.cpuUsPerRequest).toFixed(3)}×; round by round median ${median(pairedCpu).toFixed(3)}×)`);
  }
}
