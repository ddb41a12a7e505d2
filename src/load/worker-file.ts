/**
 * Where the generator worker's script is. In the bundle bin/ferry.js loads (dist/bundle/), the
 * worker is an entry of its own, `load-worker.js`, beside every chunk; tsc's output has `worker.js`
 * beside this file. From source (tests, `tsx`) a worker thread cannot load TypeScript, so the
 * worker is bundled once per process with esbuild (a dev dependency) into a temporary file.
 */
import { existsSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../support/package-root.js';

let bundled: Promise<string> | undefined;

export function workerFile(): Promise<string> {
  for (const name of ['./load-worker.js', './worker.js']) {
    const built = fileURLToPath(new URL(name, import.meta.url));
    if (existsSync(built)) return Promise.resolve(built);
  }
  bundled ??= bundle(fileURLToPath(new URL('./worker.ts', import.meta.url)));
  return bundled;
}

async function bundle(entry: string): Promise<string> {
  const { build } = await import('esbuild');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-load-worker-'));
  const outfile = path.join(dir, 'worker.mjs');
  // Packages loaded at run time by name (createRequire: aws4 for AWS signing, hawk) resolve from
  // the bundle's folder: it sees Ferry's node_modules, or every AWS or Hawk send failed with
  // "Cannot find module 'aws4'" when the worker was bundled from source.
  await fs.symlink(path.join(packageRoot, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  // CommonJS packages bundled into ESM need a require of their own.
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile, logLevel: 'silent', banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" } });
  process.once('exit', () => {
    rmSync(dir, { recursive: true, force: true }); // force: never throws for a missing folder
  });
  return outfile;
}
