/** Which modules a spawned `bin/ferry.js` loads (see module-recorder/record.mjs). */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { tempDir } from './temp.js';

const ROOT = path.join(import.meta.dirname, '..', '..');
const RECORDER = path.join(import.meta.dirname, 'module-recorder', 'record.mjs');

export interface LoadedModules {
  code: number | null;
  stdout: string;
  /** Every module resolved, once each: file paths, `node:` names for built-ins. */
  modules: string[];
  /** The npm packages among them (`undici`, `@peculiar/asn1-x509`). */
  packages: Set<string>;
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
  const modules = [...new Set((await fs.readFile(file, 'utf8')).split('\n').filter(Boolean))];
  const packages = new Set<string>();
  for (const m of modules) {
    // The innermost node_modules names the package (a/node_modules/b is b).
    const unix = m.replaceAll('\\', '/');
    const at = unix.lastIndexOf('node_modules/');
    const match = at < 0 ? null : /^((?:@[^/]+\/)?[^/]+)\//.exec(unix.slice(at + 'node_modules/'.length));
    if (match) packages.add(match[1]!);
  }
  return { code, stdout, modules, packages };
}
