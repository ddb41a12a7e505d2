/**
 * A long `ferry run` (issue 21): 200,000 iterations of one request with one test against a local
 * node:http server on 127.0.0.1, with the terminal, JSON and JUnit reports, beside a 1,000-iteration
 * run of the same. Prints each run's peak memory (maxRSS), that both report files were written
 * whole (parsed back: every send in the JSON, every testcase in the JUnit), and the ratio of the
 * peak memories: memory must not grow with the run's length.
 *
 *   npm run build && npx tsx bench/long-run.ts          # 200,000 and 1,000 iterations
 *   ITERATIONS=20000 npx tsx bench/long-run.ts
 */
import { spawn } from 'node:child_process';
import { createReadStream, promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { jsonEchoServer } from './support.js';

const ITERATIONS = Number(process.env.ITERATIONS ?? 200_000);
const SHORT = 1_000;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TEST = "pm.test('status is 200', function () { pm.response.to.have.status(200); });";

interface Sample {
  iterations: number;
  ms: number;
  rssKb: number;
  code: number | null;
  jsonResults: number;
  junitCases: number;
  jsonBytes: number;
}

async function main(): Promise<void> {
  const { server, base } = await jsonEchoServer();
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-long-'));
  try {
    const workspace = path.join(work, 'ws');
    await fs.mkdir(path.join(workspace, 'requests'), { recursive: true });
    await fs.writeFile(path.join(workspace, 'ferry.yaml'), stringify({ version: 1, id: 'bench-long', name: 'Long run', variables: [{ key: 'base', value: base }] }));
    await fs.writeFile(path.join(workspace, 'requests', 'Ping.yaml'), stringify({ name: 'Ping', url: '{{base}}/ping', scripts: { postResponse: TEST } }));
    const probe = path.join(work, 'maxrss.cjs');
    // Reports the process's peak resident memory when it exits.
    await fs.writeFile(probe, "process.on('exit', () => { require('fs').writeSync(2, '\\nMAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'); });\n");
    const env = { ...process.env, FERRY_DATA_DIR: path.join(work, 'data'), NO_COLOR: '1' };

    const short = await measure(SHORT, workspace, work, probe, env);
    const long = await measure(ITERATIONS, workspace, work, probe, env);
    console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim()}, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const s of [short, long]) {
      const whole = s.jsonResults === s.iterations && s.junitCases === s.iterations;
      console.log(
        `${s.iterations.toLocaleString('en')} iterations: ${(s.ms / 1000).toFixed(1)} s, peak RSS ${(s.rssKb / 1024).toFixed(1)} MB, exit ${s.code}; ` +
          `JSON report ${(s.jsonBytes / 1024 / 1024).toFixed(1)} MB with ${s.jsonResults} results, JUnit ${s.junitCases} testcases: ${whole ? 'written whole' : 'INCOMPLETE'}`,
      );
    }
    console.log(`ratio of peak RSS (${ITERATIONS.toLocaleString('en')} / ${SHORT.toLocaleString('en')} iterations): ${(long.rssKb / short.rssKb).toFixed(2)}× for ${ITERATIONS / SHORT}× the sends`);
  } finally {
    server.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

async function measure(iterations: number, workspace: string, work: string, probe: string, env: NodeJS.ProcessEnv): Promise<Sample> {
  const json = path.join(work, `report-${iterations}.json`);
  const junit = path.join(work, `report-${iterations}.xml`);
  const args = ['--require', probe, path.join(repo, 'bin', 'ferry.js'), '-w', workspace, 'run', '-n', String(iterations), '--out-json', json, '--out-junit', junit];
  const started = performance.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    // The terminal report is read and dropped, as a CI log would take it.
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => (err = (err + d).slice(-20_000)));
    child.on('error', reject);
    child.on('close', (exit) => resolve({ code: exit, stderr: err }));
  });
  const ms = performance.now() - started;
  const rss = /MAXRSS_KB (\d+)/.exec(stderr);
  if (!rss) throw new Error(`no memory figure from ferry run -n ${iterations}:\n${stderr.slice(-2000)}`);
  const report = JSON.parse(await fs.readFile(json, 'utf8')) as { results: unknown[]; summary: { requests: number } };
  return { iterations, ms, rssKb: Number(rss[1]), code, jsonResults: report.results.length, junitCases: await countCases(junit), jsonBytes: (await fs.stat(json)).size };
}

/** Testcase elements in a JUnit file, read as a stream (the file may be large). */
async function countCases(file: string): Promise<number> {
  let count = 0;
  let carry = '';
  for await (const chunk of createReadStream(file, { encoding: 'utf8' })) {
    const text = carry + (chunk as string);
    count += text.split('<testcase ').length - 1;
    carry = text.slice(-10);
    count -= carry.split('<testcase ').length - 1; // counted again with the next chunk
  }
  return count + (carry.split('<testcase ').length - 1);
}

await main();
