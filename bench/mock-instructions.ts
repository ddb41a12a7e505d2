/**
 * bench/mock-instructions: the mock's work per request next to a bare Node server's, counted in
 * machine instructions by Valgrind's cachegrind instead of timed. CPU time on this VM moves ±10 %
 * with the hour and with what else runs (bench/mock.ts answers that with concurrent rounds); an
 * instruction count does not, so it can tell a change of 1 % apart and say where the instructions
 * go, by function — V8's builtins and C++ by name, code V8 compiled from JavaScript as one row
 * (Valgrind cannot name it). Both servers serve the same bytes (bench/mock-peers.ts); Ferry runs
 * as shipped (`bin/ferry.js serve`, after `npm run build`), its traffic lines going to a file.
 *
 *   npx tsx bench/mock-instructions.ts [--requests 100000] [--warmup 20000] [--top 30] [--only bare,ferry]
 *
 * `--only` also takes bench/mock.ts's parts of Ferry's request path (`path`: the Host check, the
 * mock and its traffic line; `mock`: the mock and its record alone), each in a process that loads
 * only them (`MOCK_PART_SERVER`): how much of the difference is the request path's own work.
 *
 * Each server runs twice under cachegrind (about 60× slower than natively): once for the warm-up
 * alone (two runs of connections: the first run's closing deoptimises Node's close path, which the
 * second optimises again), once for the warm-up and `--requests` more (autocannon, 25 keep-alive
 * connections); the difference over `--requests` is its instructions per request in the steady
 * state, start-up and the optimising compiler's early work left out (all threads: Valgrind runs them
 * one at a time, as a single CPU would). Two caveats: the garbage collector's share moves by
 * ±1,000 instructions a request from run to run with the young generation's sizing (shown apart),
 * and Valgrind's slowness makes what Ferry keeps per millisecond (a traffic line's time) be made
 * for nearly every request. Needs `valgrind` (Debian: apt-get install valgrind). An analysis tool,
 * not a target: the figure of issue 24 is bench/mock.ts's CPU time.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { BARE_SERVER, MOCK_PART_SERVER, writeMockWorkspace } from './mock-peers.js';
import { freePort, option, waitUntilAnswering } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const REQUESTS = Number(option('requests') ?? 100_000);
const WARMUP = Number(option('warmup') ?? 20_000);
/** Warm-up runs: the first run's connections closing deoptimises Node's close path, which the second optimises again. */
const WARMUP_RUNS = 2;
const TOP = Number(option('top') ?? 30);
const CONNECTIONS = 25;
const SERVERS = ['bare', 'ferry', 'path', 'mock'] as const;
type ServerName = (typeof SERVERS)[number];
const ONLY = (option('only') ?? 'bare,ferry').split(',') as ServerName[];
const LABELS: Record<ServerName, string> = { bare: 'bare Node http', ferry: 'Ferry (ferry serve)', path: "Ferry's request path alone", mock: "Ferry's mock and record alone" };

interface Count {
  total: number;
  byFunction: Map<string, number>;
}

function requireTools(): void {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    console.error('bench/mock-instructions needs Valgrind on the PATH (Debian: apt-get install valgrind).');
    process.exit(2);
  }
  if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
    console.error('bench/mock-instructions runs Ferry as shipped: build it first (npm run build).');
    process.exit(2);
  }
}

/** Instructions by function in a cachegrind output file (`fn=` lines, then `line count` rows). */
function readCachegrind(file: string): Count {
  const byFunction = new Map<string, number>();
  let fn = '';
  let total = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('fn=')) fn = line.slice(3);
    else if (line.startsWith('summary:')) total = Number(line.slice(8).trim());
    else if (/^\d/.test(line)) {
      const count = Number(line.slice(line.indexOf(' ') + 1));
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + count);
    }
  }
  return { total, byFunction };
}

async function load(url: string, amount: number): Promise<void> {
  if (amount === 0) return;
  // Valgrind runs the server ~60× slower, and the optimising compiler's pauses longer: a generous timeout.
  const result = await autocannon({ url, connections: CONNECTIONS, amount, timeout: 120 });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} answers not 2xx`);
}

/** Runs one server under cachegrind for the warm-up and `extra` requests; its instruction counts. */
async function measure(dir: string, server: ServerName, extra: number): Promise<Count> {
  const port = await freePort();
  const out = path.join(dir, `${server}-${extra}.cachegrind`);
  const valgrind = ['--tool=cachegrind', '--cache-sim=no', `--cachegrind-out-file=${out}`];
  let child: ChildProcess;
  if (server === 'bare') {
    child = spawn('valgrind', [...valgrind, process.execPath, '-e', BARE_SERVER, String(port)], { stdio: ['ignore', 'ignore', 'ignore'] });
  } else if (server !== 'ferry') {
    const args = [...valgrind, process.execPath, '--input-type=module', '-e', MOCK_PART_SERVER, ROOT, String(port), server];
    child = spawn('valgrind', args, { stdio: ['ignore', openSync(path.join(dir, `${server}-${extra}.out`), 'w'), 'ignore'] });
  } else {
    const ws = path.join(dir, `ws-${extra}`);
    await writeMockWorkspace(ws, port);
    child = spawn('valgrind', [...valgrind, process.execPath, path.join(ROOT, 'bin', 'ferry.js'), 'serve', '-w', ws], {
      stdio: ['ignore', openSync(path.join(dir, `ferry-${extra}.out`), 'w'), 'ignore'],
      env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, `data-${extra}`) },
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const url = `http://127.0.0.1:${port}/users/42`;
    await waitUntilAnswering(url, 120);
    for (let run = 0; run < WARMUP_RUNS; run++) await load(url, Math.round(WARMUP / WARMUP_RUNS));
    await load(url, extra);
  } finally {
    child.kill('SIGINT');
    await exited;
  }
  return readCachegrind(out);
}

function perRequest(server: string, warm: Count, loaded: Count): Map<string, number> {
  const rows = new Map<string, number>();
  for (const [fn, count] of loaded.byFunction) rows.set(fn, (count - (warm.byFunction.get(fn) ?? 0)) / REQUESTS);
  for (const [fn, count] of warm.byFunction) if (!loaded.byFunction.has(fn)) rows.set(fn, -count / REQUESTS);
  console.log(`${server.padEnd(30)} ${((loaded.total - warm.total) / REQUESTS).toFixed(0).padStart(7)} instructions per request`);
  return rows;
}

const GARBAGE_COLLECTION = /Scaveng|IterateObjectCache|BodyDescriptor|Evacuat|Marking|Sweep|Heap::|Pretenur|RememberedSet|LiveObjectRange|MarkCompact|Collector|SlotSet|NewSpace|SemiSpace|PagedSpace/;

function group(fn: string): string {
  if (fn === '???') return 'code compiled from JavaScript';
  if (fn.startsWith('Builtins_')) return "V8's builtins";
  if (GARBAGE_COLLECTION.test(fn)) return 'garbage collection (by name)';
  if (fn.startsWith('v8::internal::compiler::') || fn.startsWith('v8::internal::maglev::')) return "V8's optimising compilers";
  return 'other native code (Node, V8, libc)';
}

/** Instructions per request by kind of code, and the functions that differ most, of `other` against `bare`. */
function compare(bare: Map<string, number>, other: Map<string, number>): void {
  const names = new Set([...bare.keys(), ...other.keys()]);
  const groups = new Map<string, [number, number]>();
  for (const fn of names) {
    const g = groups.get(group(fn)) ?? [0, 0];
    g[0] += bare.get(fn) ?? 0;
    g[1] += other.get(fn) ?? 0;
    groups.set(group(fn), g);
  }
  const signed = (n: number) => (n >= 0 ? '+' : '') + n.toFixed(0);
  console.log('by kind of code: bare, this, difference (instructions per request)');
  for (const [name, [b, f]] of [...groups].sort((x, y) => y[1][1] - y[1][0] - (x[1][1] - x[1][0]))) {
    console.log(`  ${b.toFixed(0).padStart(7)} ${f.toFixed(0).padStart(7)} ${signed(f - b).padStart(7)}  ${name}`);
  }
  const diff = [...names].map((fn) => [fn, (other.get(fn) ?? 0) - (bare.get(fn) ?? 0)] as const).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  console.log(`the ${TOP} functions that differ most: bare, this, difference`);
  for (const [fn, d] of diff.slice(0, TOP)) {
    console.log(`  ${(bare.get(fn) ?? 0).toFixed(0).padStart(7)} ${(other.get(fn) ?? 0).toFixed(0).padStart(7)} ${signed(d).padStart(7)}  ${fn.slice(0, 110)}`);
  }
}

async function main(): Promise<void> {
  requireTools();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ferry-mock-instructions-'));
  try {
    console.log(`bench/mock-instructions — Node ${process.version}, Valgrind's cachegrind; ${WARMUP} warm-up requests, then ${REQUESTS} counted (autocannon, ${CONNECTIONS} connections)\n`);
    if (!ONLY.includes('bare') || ONLY.some((name) => !SERVERS.includes(name))) {
      console.error(`--only takes bare and any of ${SERVERS.slice(1).join(', ')}, comma-separated.`);
      process.exit(2);
    }
    const counted = new Map<ServerName, Map<string, number>>();
    for (const name of ONLY) counted.set(name, perRequest(LABELS[name], await measure(dir, name, 0), await measure(dir, name, REQUESTS)));
    const bare = counted.get('bare')!;
    const sum = (rows: Map<string, number>) => [...rows.values()].reduce((a, b) => a + b, 0);
    for (const [name, rows] of counted) {
      if (name === 'bare') continue;
      const withoutGc = (all: Map<string, number>) => sum(all) - [...all].filter(([fn]) => GARBAGE_COLLECTION.test(fn)).reduce((a, [, n]) => a + n, 0);
      console.log(`\n${LABELS[name]} / bare: ${(sum(rows) / sum(bare)).toFixed(3)}× (+${(sum(rows) - sum(bare)).toFixed(0)} instructions per request); without garbage collection ${(withoutGc(rows) / withoutGc(bare)).toFixed(3)}×`);
      compare(bare, rows);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
