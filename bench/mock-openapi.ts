/**
 * bench/mock-openapi (issue 22): the Petstore 3.0 document served as a mock by Ferry (generated
 * with `ferry import --as-server`, request validation on) and by Prism 5.14 (`prism mock`, which
 * validates requests too), in the same run, under the same load: autocannon, 50 keep-alive
 * connections, a mix of GET /pets?limit=10 (a checked query parameter), GET /pets/42 and
 * POST /pets with a JSON body checked against the Pet schema.
 *
 *   npx tsx bench/mock-openapi.ts [--duration 5] [--rounds 3]
 *
 * Prism is found at node_modules/.bin/prism; without it the bench says so and measures Ferry
 * alone. Target: Ferry ≥ 10× Prism's req/s. It also times generating the server file of a large
 * document (Stripe's 3.7 MB OpenAPI, what `--as-server` adds), in process: target under 2 s.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { convertInput } from '../src/importers/index.js';
import { freePort, option, waitUntilAnswering } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DOCUMENT = path.join(ROOT, 'test/fixtures/corpus/openapi/oas30-petstore.yaml');
const PRISM = path.join(ROOT, 'node_modules/.bin/prism');
const DURATION_S = Number(option('duration') ?? 5);
const ROUNDS = Number(option('rounds') ?? 3);
const CONNECTIONS = 50;
const CLOCK_TICKS = 100;

const REQUESTS: autocannon.Request[] = [
  { method: 'GET', path: '/pets?limit=10' },
  { method: 'GET', path: '/pets/42' },
  { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: '{"id": 7, "name": "Rex", "tag": "dog"}' },
];

interface Started {
  name: string;
  child: ChildProcess;
  url: string;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  cpuUsPerRequest: number;
}

/** Ferry compiled as users run it (see bench/mock.ts), into node_modules/.cache. */
async function buildFerry(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(ROOT, 'node_modules', '.cache', 'ferry-bench-openapi.mjs');
  await build({ entryPoints: [path.join(ROOT, 'src/cli/main.ts')], bundle: true, platform: 'node', format: 'esm', packages: 'external', target: 'node20', outfile, logLevel: 'warning' });
  return outfile;
}

async function startFerry(dir: string): Promise<Started> {
  const ws = path.join(dir, 'ferry-ws');
  await fs.mkdir(path.join(ws, 'requests'), { recursive: true });
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: bench-openapi\nname: Bench\n');
  const entry = await buildFerry();
  const env = { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(dir, 'ferry-data') };
  const script = `import { main } from ${JSON.stringify(entry)}; process.exitCode = await main(process.argv.slice(1));`;
  const imported = spawnSync(process.execPath, ['--input-type=module', '-e', script, 'import', DOCUMENT, '--as-server', '--name', 'petstore', '-w', ws], { env, encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`ferry import --as-server failed: ${imported.stderr}`);
  const port = await freePort();
  const file = path.join(ws, 'servers/petstore.yaml');
  await fs.writeFile(file, `port: ${port}\n${await fs.readFile(file, 'utf8')}`);
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, 'serve', '-w', ws], { stdio: ['ignore', 'ignore', 'inherit'], env });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}/pets/1`, 60);
  return { name: 'Ferry (validation on)', child, url };
}

async function startPrism(): Promise<Started | undefined> {
  if (!existsSync(PRISM)) {
    console.log(`Prism is missing (${PRISM}); install @stoplight/prism-cli 5.14 to compare. Measuring Ferry alone.\n`);
    return undefined;
  }
  const port = await freePort();
  const child = spawn(PRISM, ['mock', '-h', '127.0.0.1', '-p', String(port), '--errors', 'false', DOCUMENT], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(`${url}/pets/1`, 60);
  return { name: 'Prism 5.14 (prism mock)', child, url };
}

/** Both must accept the valid mix and refuse an invalid request with 422 before being measured. */
async function check(server: Started): Promise<void> {
  for (const request of REQUESTS) {
    const res = await fetch(`${server.url}${request.path}`, { method: request.method, headers: request.headers as Record<string, string>, body: request.body as string | undefined });
    await res.arrayBuffer();
    if (res.status >= 300) throw new Error(`${server.name} answered ${res.status} to ${request.method} ${request.path}`);
  }
  const invalid = await fetch(`${server.url}/pets?limit=ten`);
  await invalid.arrayBuffer();
  if (invalid.status !== 422) throw new Error(`${server.name} answered ${invalid.status} to an invalid request, not 422`);
}

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** CPU of a process and its children (Prism's bin is a wrapper that runs node). */
function treeCpu(pid: number): number {
  let total = cpuSeconds(pid);
  try {
    for (const child of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) total += treeCpu(Number(child));
  } catch {
    // gone
  }
  return total;
}

async function measure(server: Started, seconds: number): Promise<Figures> {
  const before = treeCpu(server.child.pid!);
  const result = await autocannon({ url: server.url, connections: CONNECTIONS, duration: seconds, requests: REQUESTS });
  const cpu = treeCpu(server.child.pid!) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest: (cpu * 1e6) / Math.max(result.requests.total, 1),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const line = (name: string, f: Figures) =>
  `${name.padEnd(30)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${f.p50} ms   p99 ${f.p99} ms   server CPU ${f.cpuUsPerRequest.toFixed(0)} µs/req   errors ${f.errors}   non-2xx ${f.non2xx}`;

console.log(`bench/mock-openapi — ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}; autocannon ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s\n`);
const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-openapi-'));
const started: Started[] = [];
const rounds = new Map<Started, Figures[]>();
try {
  started.push(await startFerry(dir));
  const prism = await startPrism();
  if (prism) started.push(prism);
  for (const server of started) {
    await check(server);
    await measure(server, 2); // warm-up
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of started) {
      const figures = await measure(server, DURATION_S);
      rounds.set(server, [...(rounds.get(server) ?? []), figures]);
      console.log(line(`${server.name} #${round + 1}`, figures));
    }
  }
} finally {
  for (const server of started) server.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 500));
  for (const server of started) if (server.child.exitCode === null) server.child.kill('SIGKILL');
  await fs.rm(dir, { recursive: true, force: true });
}
console.log('');
const medians = started.map((server) => {
  const all = rounds.get(server) ?? [];
  return { server, rps: median(all.map((f) => f.rps)), cpu: median(all.map((f) => f.cpuUsPerRequest)) };
});
for (const m of medians) console.log(`${m.server.name.padEnd(30)} median ${m.rps.toFixed(0)} req/s, ${m.cpu.toFixed(0)} µs CPU per request`);
if (medians.length === 2) {
  const ratio = medians[0]!.rps / medians[1]!.rps;
  console.log(`\nFerry / Prism req/s: ${ratio.toFixed(1)}×  (target ≥ 10×: ${ratio >= 10 ? 'met' : 'NOT met'}); CPU per request: Prism ${(medians[1]!.cpu / medians[0]!.cpu).toFixed(1)}× Ferry's`);
}

// Generating a large document's server file: the first run in this process (cold), then warm.
const LARGE = path.join(ROOT, 'test/fixtures/corpus/openapi/oas30-stripe-spec3.json');
const generation: number[] = [];
for (let i = 0; i < 3; i++) {
  const began = performance.now();
  const converted = await convertInput(LARGE, { asServer: true, name: 'stripe' });
  generation.push(performance.now() - began);
  if (!converted.servers?.[0]?.server.http?.routes?.length) throw new Error('no routes generated for Stripe');
}
console.log(`Stripe's server file generated in ${generation.map((ms) => ms.toFixed(0)).join(', ')} ms (first cold)  (target < 2000 ms: ${generation[0]! < 2000 ? 'met' : 'NOT met'})`);
console.log(`load average at the end: ${os.loadavg()[0]!.toFixed(2)}`);
