/**
 * Overhead of scripts per request, through the runner: two workspaces of the same 1,000 GET
 * requests (10 folders) against one local server, one where every request has a small
 * pre-request script and a post-response script of three pm.test/pm.expect calls, one without
 * scripts. Each round runs both with `runRequests` (what `ferry run` calls), alternating; the
 * figure is the median over rounds. Targets: overhead <= 1 ms per request (issue 5), <= 0.3 ms (issue 24).
 * CPU time of the process (user + system; the server answers in the same process for both) is
 * printed beside the wall time: it moves less when other work shares the machine.
 *
 * The built code is measured (dist/, as bin/ferry.js runs Ferry), in a Node process of its own
 * without tsx: bench/scripts-run.mjs. Under tsx every dynamic `import()` goes through its module
 * hooks (~130 µs CPU each), and each HTTP send does one, so both runs paid ~0.3-0.5 ms per
 * request that Ferry as shipped does not: the same in both runs, but noise in their difference.
 * Run: npm run build && npx tsx bench/scripts.ts [requests=1000] [rounds=5]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'dist', 'runner', 'index.js');
if (!existsSync(built) || !existsSync(path.join(root, 'dist', 'sandbox', 'prelude.js'))) {
  console.error(`${path.relative(root, built)} or the sandbox bundle is missing: this bench measures the built code. Run \`npm run build\` first.`);
  process.exit(1);
}

/** The newest modification time (ms) of the files under `dir`. */
function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(file) : statSync(file).mtimeMs);
  }
  return latest;
}
if (newest(path.join(root, 'src')) > statSync(built).mtimeMs) {
  console.warn('warning: src/ changed after the last build; this bench measures dist/ (run `npm run build` to include the changes).');
}

// NODE_OPTIONS could carry a loader into the child: it runs with none.
const env = { ...process.env };
delete env.NODE_OPTIONS;
const child = spawnSync(process.execPath, [path.join(root, 'bench', 'scripts-run.mjs'), ...process.argv.slice(2)], { stdio: 'inherit', env, cwd: root });
process.exit(child.status ?? 1);
