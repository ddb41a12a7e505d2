/**
 * Which modules a spawned `bin/ferry.js` loads (see module-recorder/record.mjs). bin/ferry.js
 * loads the bundle in dist/bundle/ (scripts/bundle-cli.mjs): the recorder sees its chunks, and
 * esbuild's metafile (dist/bundle/metafile.json) says which source modules each chunk holds. A
 * module counts as loaded when the chunk holding it was, since its code was then read and compiled.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const RECORDER = path.join(import.meta.dirname, 'module-recorder', 'record.mjs');
const BUNDLE = path.join(ROOT, 'dist', 'bundle');

export interface LoadedModules {
  code: number | null;
  stdout: string;
  /** The files of the bundle that were loaded (its entry and chunks). */
  chunks: string[];
  /**
   * Every module loaded, once each: the source files inside the chunks loaded (src/… and the
   * bundled packages' files), the files resolved outside the bundle, `node:` names for built-ins.
   */
  modules: string[];
  /** Ferry's own source modules among them (under src/). */
  ours: string[];
  /** The npm packages among them (`undici`, `@peculiar/asn1-x509`). */
  packages: Set<string>;
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/**
 * Each output file of the bundle (absolute) → the source files it holds code of (absolute; files
 * of types only, which leave no code, and esbuild's virtual modules left out).
 */
async function bundleContents(): Promise<Map<string, string[]>> {
  const metafile = JSON.parse(await fs.readFile(path.join(BUNDLE, 'metafile.json'), 'utf8')) as Metafile;
  const contents = new Map<string, string[]>();
  for (const [output, { inputs }] of Object.entries(metafile.outputs)) {
    // Paths are relative to the folder the build ran in (the package root); `namespace:` ones are generated.
    const files = Object.entries(inputs)
      .filter(([input, { bytesInOutput }]) => bytesInOutput > 0 && !/^[a-z-]+:/.test(input))
      .map(([input]) => input);
    contents.set(path.resolve(ROOT, output), files.map((input) => path.resolve(ROOT, input)));
  }
  return contents;
}

export async function modulesLoadedBy(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<LoadedModules> {
  const file = path.join(await tempDir(), 'modules.txt');
  await fs.writeFile(file, '');
  const child = spawn(process.execPath, ['--import', RECORDER, path.join(ROOT, 'bin', 'ferry.js'), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env, FERRY_RECORD_MODULES: file, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  const timer = setTimeout(() => child.kill(), 20_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearTimeout(timer);
  const resolved = [...new Set((await fs.readFile(file, 'utf8')).split('\n').filter(Boolean))];
  const contents = await bundleContents();
  const chunks = resolved.filter((m) => m.startsWith(BUNDLE + path.sep));
  for (const chunk of chunks) if (!contents.has(chunk)) throw new Error(`${chunk} is not in dist/bundle/metafile.json: run \`npm run build\``);
  const modules = [...new Set([...chunks.flatMap((chunk) => contents.get(chunk)!), ...resolved.filter((m) => !chunks.includes(m) && m !== path.join(ROOT, 'bin', 'ferry.js'))])];
  const ours = modules.filter((m) => m.startsWith(path.join(ROOT, 'src') + path.sep));
  const packages = new Set<string>();
  for (const m of modules) {
    // The innermost node_modules names the package (a/node_modules/b is b).
    const unix = m.replaceAll('\\', '/');
    const at = unix.lastIndexOf('node_modules/');
    const match = at < 0 ? null : /^((?:@[^/]+\/)?[^/]+)\//.exec(unix.slice(at + 'node_modules/'.length));
    if (match) packages.add(match[1]!);
  }
  return { code, stdout, chunks, modules, ours, packages };
}
