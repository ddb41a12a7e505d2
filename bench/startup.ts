/**
 * Start-up (issue 24): what one command costs as a whole process, Ferry as shipped (`bin/ferry.js`,
 * run `npm run build` first) beside bare Node and `newman run` of the same one-request collection.
 *
 *   ferry --help
 *   ferry run of one GET request (no scripts / one pm.test) against a local 127.0.0.1 server
 *   newman run of the same request as a v2.1 collection (no scripts / the same pm.test)
 *   node -e 0
 *
 * Rounds alternate between the commands (one warm-up round first); medians are printed, with the
 * ratios to bare Node and to newman, and the load average before and after (the figures are only
 * as quiet as the machine). Where GNU time is installed (/usr/bin/time), each process's CPU time
 * (user + system) is measured too: on a shared machine it moves far less than the wall clock.
 *
 *   npx tsx bench/startup.ts            # 11 rounds
 *   ROUNDS=21 npx tsx bench/startup.ts
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.ROUNDS ?? 11);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FERRY = path.join(repo, 'bin', 'ferry.js');
const NEWMAN = path.join(repo, 'node_modules', 'newman', 'bin', 'newman.js');
const GNU_TIME = '/usr/bin/time';
const withCpu = existsSync(GNU_TIME);
const TEST = "pm.test('status is 200', function () { pm.response.to.have.status(200); });";

interface Case {
  name: string;
  args: string[];
  /** Exit code the command must end with (a failed run is not a measurement). */
  expect: number;
}

function run(args: string[], env: NodeJS.ProcessEnv, cpuFile: string): Promise<{ ms: number; code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = withCpu
      ? spawn(GNU_TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
      : spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ms: performance.now() - start, code, output });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function writeInputs(work: string, url: string): Promise<{ plain: string; tested: string; plainCollection: string; testedCollection: string }> {
  const workspace = async (name: string, scripts: boolean) => {
    const dir = path.join(work, name);
    await fs.mkdir(path.join(dir, 'requests'), { recursive: true });
    await fs.writeFile(path.join(dir, 'ferry.yaml'), `version: 1\nid: bench-startup-${name}\nname: Bench\n`);
    const script = scripts ? `scripts:\n  postResponse: ${JSON.stringify(TEST)}\n` : '';
    await fs.writeFile(path.join(dir, 'requests', 'One.yaml'), `name: One\nurl: ${url}\n${script}`);
    return dir;
  };
  const collection = async (name: string, scripts: boolean) => {
    const file = path.join(work, `${name}.postman_collection.json`);
    const item = { name: 'One', request: { method: 'GET', url }, ...(scripts ? { event: [{ listen: 'test', script: { type: 'text/javascript', exec: [TEST] } }] } : {}) };
    await fs.writeFile(file, JSON.stringify({ info: { name: 'Bench', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [item] }));
    return file;
  };
  return {
    plain: await workspace('plain', false),
    tested: await workspace('tested', true),
    plainCollection: await collection('plain', false),
    testedCollection: await collection('tested', true),
  };
}

async function main(): Promise<void> {
  const server = http.createServer((_req, res) => {
    const body = '{"ok":true}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/one`;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-startup-'));
  try {
    const inputs = await writeInputs(work, url);
    const env = { ...process.env, FERRY_DATA_DIR: path.join(work, 'data'), NO_COLOR: '1' };
    const cases: Case[] = [
      { name: 'node -e 0', args: ['-e', '0'], expect: 0 },
      { name: 'ferry --help', args: [FERRY, '--help'], expect: 0 },
      { name: 'ferry run, 1 request, no scripts', args: [FERRY, '-w', inputs.plain, 'run'], expect: 0 },
      { name: 'newman run, 1 request, no scripts', args: [NEWMAN, 'run', inputs.plainCollection, '--reporters', 'cli'], expect: 0 },
      { name: 'ferry run, 1 request, 1 pm.test', args: [FERRY, '-w', inputs.tested, 'run'], expect: 0 },
      { name: 'newman run, 1 request, 1 pm.test', args: [NEWMAN, 'run', inputs.testedCollection, '--reporters', 'cli'], expect: 0 },
    ];
    const before = os.loadavg();
    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const cpuTimes = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const cpuFile = path.join(work, 'cpu.txt');
    for (let round = 0; round <= ROUNDS; round++) {
      for (const c of cases) {
        const result = await run(c.args, env, cpuFile);
        if (result.code !== c.expect) throw new Error(`${c.name} exited ${result.code}:\n${result.output}`);
        if (round === 0) continue; // round 0 warms the file cache
        times.get(c.name)!.push(result.ms);
        if (withCpu) {
          const [user, system] = (await fs.readFile(cpuFile, 'utf8')).trim().split('\n').at(-1)!.split(' ').map(Number);
          cpuTimes.get(c.name)!.push((user! + system!) * 1000);
        }
      }
    }
    const after = os.loadavg();
    const m = (name: string) => median(times.get(name)!);
    const bare = m('node -e 0');
    console.log(`startup: ${ROUNDS} alternating rounds, medians; ${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
    console.log(`load average before ${before.map((l) => l.toFixed(2)).join(' ')}, after ${after.map((l) => l.toFixed(2)).join(' ')}\n`);
    const cpu = (name: string) => median(cpuTimes.get(name)!);
    console.log(`| figure | median | × bare node | vs newman |${withCpu ? ' CPU (user + system) | CPU × bare node | CPU vs newman |' : ''}`);
    console.log(`|---|---|---|---|${withCpu ? '---|---|---|' : ''}`);
    for (const c of cases) {
      const peer = c.name.startsWith('ferry run') ? c.name.replace('ferry', 'newman') : undefined;
      const vs = peer ? `${(m(c.name) / m(peer)).toFixed(2)}×` : '';
      const cpuColumns = withCpu ? ` ${cpu(c.name).toFixed(0)} ms | ${(cpu(c.name) / cpu('node -e 0')).toFixed(2)} | ${peer ? `${(cpu(c.name) / cpu(peer)).toFixed(2)}×` : ''} |` : '';
      console.log(`| \`${c.name}\` | ${m(c.name).toFixed(0)} ms | ${(m(c.name) / bare).toFixed(2)} | ${vs} |${cpuColumns}`);
    }
    const overhead = m('ferry run, 1 request, 1 pm.test') - m('ferry run, 1 request, no scripts');
    console.log(`\nferry: one pm.test adds ${overhead.toFixed(0)} ms to a run (the sandbox's start-up); newman: ${(m('newman run, 1 request, 1 pm.test') - m('newman run, 1 request, no scripts')).toFixed(0)} ms`);
    if (withCpu) console.log(`in CPU time: ferry ${(cpu('ferry run, 1 request, 1 pm.test') - cpu('ferry run, 1 request, no scripts')).toFixed(0)} ms, newman ${(cpu('newman run, 1 request, 1 pm.test') - cpu('newman run, 1 request, no scripts')).toFixed(0)} ms`);
  } finally {
    server.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

await main();
