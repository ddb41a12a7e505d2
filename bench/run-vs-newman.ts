/**
 * `ferry run` against `newman run`: the same 500 GET requests, each with one status test, against
 * one local server, in one script. Ferry runs a workspace, newman the same requests as a
 * collection (v2.1). Both run as separate node processes with their default cli reporter
 * (output discarded); wall-clock and peak memory (maxRSS) per run, medians over ROUNDS runs.
 *
 *   npx tsx bench/run-vs-newman.ts            # 500 requests, 3 rounds
 *   REQUESTS=200 ROUNDS=5 npx tsx bench/run-vs-newman.ts
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { stringify } from 'yaml';
import { jsonEchoServer } from './support.js';

const REQUESTS = Number(process.env.REQUESTS ?? 500);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const FOLDERS = 10;
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const TEST = "pm.test('status is 200', function () { pm.response.to.have.status(200); });";

async function main(): Promise<void> {
  const { server, base } = await jsonEchoServer();

  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-run-'));
  try {
    const { workspace, collection } = await writeInputs(work, base);
    const ferryCli = await bundleFerry();
    const probe = path.join(work, 'maxrss.cjs');
    // Reports the process's peak resident memory when it exits.
    await fs.writeFile(probe, "process.on('exit', () => { require('fs').writeSync(2, '\\nMAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'); });\n");

    const ferryArgs = ['--require', probe, ferryCli, '-w', workspace, 'run'];
    const newmanArgs = ['--require', probe, path.join(repo, 'node_modules', 'newman', 'bin', 'newman.js'), 'run', collection, '--reporters', 'cli'];
    const env = { ...process.env, FERRY_DATA_DIR: path.join(work, 'data'), NO_COLOR: '1' };

    // Warm the file cache once for each, then alternate.
    await measure(ferryArgs, env);
    await measure(newmanArgs, env);
    const ferry: Sample[] = [];
    const newman: Sample[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ferry.push(await measure(ferryArgs, env));
      newman.push(await measure(newmanArgs, env));
    }
    const f = summarize(ferry);
    const n = summarize(newman);
    console.log(`machine: ${os.cpus().length} cores, ${os.cpus()[0]?.model.trim()}, Node ${process.version}`);
    console.log(`${REQUESTS} requests (one status test each), ${ROUNDS} rounds, medians`);
    console.log(`ferry run : ${f.ms.toFixed(0)} ms wall-clock, ${(f.rssKb / 1024).toFixed(1)} MB peak RSS (exit ${ferry[0]!.code})`);
    console.log(`newman run: ${n.ms.toFixed(0)} ms wall-clock, ${(n.rssKb / 1024).toFixed(1)} MB peak RSS (exit ${newman[0]!.code})`);
    console.log(`ratio (ferry / newman): wall-clock ${(f.ms / n.ms).toFixed(2)}×, peak memory ${(f.rssKb / n.rssKb).toFixed(2)}×  (target: ≤ 0.5× and < 1×)`);
    if (ferry.some((s) => s.code !== 0) || newman.some((s) => s.code !== 0)) {
      console.log('warning: a run did not exit 0; the figures may not compare like with like');
    }
  } finally {
    server.close();
    await fs.rm(work, { recursive: true, force: true });
  }
}

interface Sample {
  ms: number;
  rssKb: number;
  code: number | null;
}

function measure(args: string[], env: NodeJS.ProcessEnv): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const rss = /MAXRSS_KB (\d+)/.exec(stderr);
      if (!rss) return reject(new Error(`no memory figure from ${args.join(' ')}:\n${stderr.slice(-2000)}`));
      resolve({ ms, rssKb: Number(rss[1]), code });
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function summarize(samples: Sample[]): { ms: number; rssKb: number } {
  return { ms: median(samples.map((s) => s.ms)), rssKb: median(samples.map((s) => s.rssKb)) };
}

/** The same requests twice: a Ferry workspace and a collection (v2.1) for newman. */
async function writeInputs(work: string, base: string): Promise<{ workspace: string; collection: string }> {
  const workspace = path.join(work, 'ws');
  await fs.mkdir(path.join(workspace, 'requests'), { recursive: true });
  await fs.writeFile(path.join(workspace, 'ferry.yaml'), stringify({ version: 1, id: 'bench-run', name: 'Bench', variables: [{ key: 'base', value: base }] }));
  const folders: Array<{ name: string; item: unknown[] }> = [];
  for (let f = 0; f < FOLDERS; f++) {
    const folderName = `Folder ${f + 1}`;
    await fs.mkdir(path.join(workspace, 'requests', folderName));
    const item: unknown[] = [];
    for (let r = 0; r < REQUESTS / FOLDERS; r++) {
      const name = `Item ${r + 1}`;
      const url = `{{base}}/folders/${f + 1}/items/${r + 1}`;
      await fs.writeFile(path.join(workspace, 'requests', folderName, `${name}.yaml`), stringify({ name, seq: r, url, scripts: { postResponse: TEST } }));
      item.push({
        name,
        request: { method: 'GET', url },
        event: [{ listen: 'test', script: { type: 'text/javascript', exec: [TEST] } }],
      });
    }
    folders.push({ name: folderName, item });
  }
  const collection = path.join(work, 'collection.json');
  await fs.writeFile(
    collection,
    JSON.stringify({
      info: { name: 'Bench', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'base', value: base }],
      item: folders,
    }),
  );
  return { workspace, collection };
}

/** Bundles the CLI once (dependencies stay in node_modules), so Ferry starts like an installed build. */
async function bundleFerry(): Promise<string> {
  const dir = path.join(repo, 'node_modules', '.ferry-bench');
  const outfile = path.join(dir, 'src', 'cli', 'ferry.mjs');
  await fs.mkdir(path.dirname(outfile), { recursive: true });
  // main.ts reads ../../package.json (from src/cli/) for --version.
  await fs.copyFile(path.join(repo, 'package.json'), path.join(dir, 'package.json'));
  const entry = path.join(dir, 'entry.ts');
  await fs.writeFile(entry, `import { main } from ${JSON.stringify(path.join(repo, 'src', 'cli', 'main.ts'))};\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'error' });
  // The script sandbox reads its bundles from ../../dist/sandbox: build them if needed and copy them beside.
  const sandbox = path.join(repo, 'dist', 'sandbox');
  if (!(await fs.stat(path.join(sandbox, 'prelude.js')).catch(() => undefined))) {
    await new Promise<void>((resolve, reject) =>
      spawn(process.execPath, [path.join(repo, 'scripts', 'bundle-sandbox.mjs')], { stdio: 'inherit' }).on('close', (code) => (code === 0 ? resolve() : reject(new Error('bundling the sandbox failed')))),
    );
  }
  await fs.cp(sandbox, path.join(dir, 'dist', 'sandbox'), { recursive: true });
  return outfile;
}

await main();
