/**
 * Vitest's global set-up: many tests run Ferry as shipped (`bin/ferry.js` loads dist/bundle/, the
 * app serves dist/app/web/), so a `dist/` older than the sources tests yesterday's code and can pass
 * where CI, which builds first, fails. When any source is newer than the build, `npm run build`
 * runs here before the tests; a current build is left alone (CI's `npm install` has just made it).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
/** What `npm run build` reads. */
const SOURCES = ['src', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'];
/** One file of each of the build's steps (tsc, the CLI's bundle, the app's page). */
const OUTPUTS = ['dist/cli/main.js', 'dist/bundle/ferry.js', 'dist/app/web/index.html'];

/** The newest modification time under `file` (a file or a folder), 0 when it does not exist. */
function newest(file: string): number {
  let stat;
  try {
    stat = statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs; // a deleted source makes its folder newer
  for (const entry of readdirSync(file)) latest = Math.max(latest, newest(path.join(file, entry)));
  return latest;
}

/** The build's oldest output, 0 when one is missing. */
function oldestOutput(): number {
  return Math.min(...OUTPUTS.map((file) => {
    try {
      return statSync(path.join(ROOT, file)).mtimeMs;
    } catch {
      return 0;
    }
  }));
}

export default function setup(): void {
  const source = Math.max(...SOURCES.map((name) => newest(path.join(ROOT, name))));
  if (oldestOutput() >= source) return;
  process.stderr.write('dist/ is older than the sources: running `npm run build` before the tests…\n');
  // Without Vitest's NODE_ENV=test: Vite would bundle React's development build into the page,
  // which is not what ships (slower, console errors on every render).
  const { NODE_ENV: _test, ...env } = process.env;
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, env, stdio: ['ignore', 'inherit', 'inherit'], shell: process.platform === 'win32' });
}
