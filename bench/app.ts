/**
 * The app (issue 19): time until the page is usable — the sidebar and the last request shown —
 * on a generated 10,000-request workspace, in Debian's Chromium; and the built UI's JavaScript
 * size, gzip. Targets: under 1 s; under 1 MB gzip.
 * Run: npm run build && npx tsx bench/app.ts
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { startAppServer } from '../src/app/server/index.js';
import { openWorkspace } from '../src/workspace/index.js';
import { browserMissing, launchBrowser, WEB_ROOT } from '../test/app/browser.js';

const FOLDERS = 500;
const PER_FOLDER = 20;
const RUNS = 5;
const LAST = 'Area 9/Folder 499/Request 19.yaml';

async function generate(root: string): Promise<void> {
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: bench-app\nname: Bench\n');
  for (let f = 0; f < FOLDERS; f++) {
    const dir = path.join(root, 'requests', `Area ${Math.floor(f / 50)}`, `Folder ${f}`);
    await fs.mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: PER_FOLDER }, (_, r) =>
      fs.writeFile(path.join(dir, `Request ${r}.yaml`), `name: Request ${r}\nseq: ${r}\nmethod: POST\nurl: "{{baseUrl}}/things/${f}/${r}"\nbody:\n  type: json\n  text: '{"n": ${r}}'\n`)));
  }
}

async function jsGzipBytes(): Promise<number> {
  const dir = path.join(WEB_ROOT, 'assets');
  let total = 0;
  for (const name of await fs.readdir(dir)) if (name.endsWith('.js')) total += gzipSync(await fs.readFile(path.join(dir, name))).length;
  return total;
}

const missing = browserMissing();
if (missing) {
  console.log(`bench/app: skipped, ${missing}`);
  process.exit(0);
}
const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-app-'));
process.env.FERRY_DATA_DIR = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-app-data-'));
const browser = await launchBrowser();
try {
  await generate(root);
  const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: WEB_ROOT });
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const context = await browser.newContext();
    // The last request of the previous session, as the page remembers it.
    await context.addInitScript((last) => localStorage.setItem('ferry.last', last), LAST);
    const page = await context.newPage();
    const start = performance.now();
    await page.goto(app.url);
    await page.getByRole('treeitem', { name: /Area 0/ }).waitFor();
    await page.waitForFunction(() => (document.querySelector('[aria-label="Request name"]') as HTMLInputElement | null)?.value === 'Request 19');
    times.push(performance.now() - start);
    await context.close();
  }
  await app.close();
  times.sort((a, b) => a - b);
  const js = await jsGzipBytes();
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  console.log(`page usable (sidebar + last request) on ${FOLDERS * PER_FOLDER} requests: median ${times[Math.floor(RUNS / 2)]!.toFixed(0)} ms (min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)}) — target < 1000 ms: ${times[Math.floor(RUNS / 2)]! < 1000 ? 'met' : 'NOT met'}`);
  console.log(`built UI JavaScript: ${(js / 1024).toFixed(0)} KB gzip — target < 1024 KB: ${js < 1024 * 1024 ? 'met' : 'NOT met'}`);
} finally {
  await browser.close();
  await fs.rm(root, { recursive: true, force: true });
}
