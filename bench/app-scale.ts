/**
 * The app with a big imported workspace: GitHub's and Stripe's OpenAPI documents (≈1,070
 * requests) imported with `ferry import`, opened with `ferry app` in Debian's Chromium. Figures
 * from the browser's performance timeline (Event Timing: input to next paint; long tasks) and
 * the server's timings: the sidebar's first paint, expanding every folder, a filter keystroke,
 * the command palette's search, opening a request, switching requests quickly, the listing
 * route's payload, the page's memory after opening 50 requests, and 200 request files changed
 * at once on disk (a `git checkout`).
 * Targets: sidebar interactive < 1 s; keystroke to filtered list < 100 ms; opening a request < 150 ms.
 * Run: npm run build && npx tsx bench/app-scale.ts
 */
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserMissing, launchBrowser } from '../test/app/browser.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = path.join(ROOT, 'test/fixtures/corpus/openapi');
const DOCUMENTS = ['oas30-github.yaml', 'oas30-stripe-spec3.json'];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const ms = (x: number) => `${x.toFixed(0)} ms`;
const verdict = (x: number, target: number) => `target < ${target} ms: ${x < target ? 'met' : 'NOT met'}`;

/** Collects Event Timing entries (input to next paint) and long tasks in the page. */
async function observe(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __events: Array<{ name: string; start: number; duration: number }>; __long: Array<{ start: number; duration: number }> };
    w.__events = [];
    w.__long = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__events.push({ name: e.name, start: e.startTime, duration: e.duration });
    }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__long.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

/** The longest input-to-paint of the events since `since` (page time), or 0 when none took 16 ms. */
async function slowestEvent(page: Page, since: number, names?: string[]): Promise<number> {
  return page.evaluate(({ since, names }) => {
    const w = window as unknown as { __events: Array<{ name: string; start: number; duration: number }> };
    return Math.max(0, ...w.__events.filter((e) => e.start >= since && (!names || names.includes(e.name))).map((e) => e.duration));
  }, { since, names });
}

const now = (page: Page) => page.evaluate(() => performance.now());

/** Page time from now until `test` holds (checked every frame), measured in the page. */
async function until(page: Page, act: () => Promise<void>, test: (arg: string) => boolean, arg = ''): Promise<number> {
  const start = await now(page);
  await act();
  await page.waitForFunction(test, arg, { polling: 'raf', timeout: 20_000 });
  return (await now(page)) - start;
}

const missing = browserMissing();
if (missing) {
  console.log(`bench/app-scale: skipped, ${missing}`);
  process.exit(0);
}
const work = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-bench-app-scale-'));
const root = path.join(work, 'ws');
process.env.FERRY_DATA_DIR = path.join(work, 'data');
const ferry = (...args: string[]) => execFileSync(process.execPath, [path.join(ROOT, 'bin/ferry.js'), ...args], { cwd: root, env: process.env, encoding: 'utf8' });
await fs.mkdir(root);
ferry('init', '.');
for (const doc of DOCUMENTS) console.log(ferry('import', path.join(CORPUS, doc)).split('\n')[0]);
const files: string[] = [];
const walk = async (dir: string): Promise<void> => {
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (e.isDirectory()) await walk(path.join(dir, e.name));
    else if (e.name.endsWith('.yaml') && e.name !== '_folder.yaml') files.push(path.join(dir, e.name));
  }
};
await walk(path.join(root, 'requests'));

const browser = await launchBrowser();
// `ferry app` as its own process, as users run it: its work does not share this process's CPU time.
const server = spawn(process.execPath, [path.join(ROOT, 'bin/ferry.js'), 'app', '--no-open'], { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'inherit'] });
const app = await new Promise<{ url: string }>((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`ferry app printed no URL in 30 s: ${out}`)), 30_000);
  server.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
    const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out)?.[0];
    if (url) {
      clearTimeout(timer);
      resolve({ url });
    }
  });
});
try {
  console.log(`machine: ${os.cpus().length} cores, Node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}; ${files.length} requests`);

  // The listing route, as the page asks for it.
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  const page = await context.newPage();
  await observe(page);
  const paints: number[] = [];
  for (let run = 0; run < 3; run++) {
    const start = performance.now();
    await page.goto(app.url);
    await page.getByRole('treeitem').first().waitFor();
    paints.push(performance.now() - start);
  }
  console.log(`sidebar shown (navigation to first tree row, median of 3): ${ms(median(paints))} — ${verdict(median(paints), 1000)}`);
  const listing = await page.evaluate(async () => {
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const text = await (await fetch('/api/workspace?tree=compact')).text();
      times.push(performance.now() - t);
      bytes = text.length;
    }
    return { times, bytes };
  });
  console.log(`GET /api/workspace?tree=compact: ${(listing.bytes / 1024).toFixed(0)} KB, median ${ms(median(listing.times))} round trip`);
  const calls = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/')).length);
  console.log(`API calls made by the page so far: ${calls}`);

  // Expanding every folder, top to bottom.
  let since = await now(page);
  const expandStart = performance.now();
  let expanded = 0;
  // Only the rows in view exist: click the closed folders in view, then scroll on, to the end.
  for (let step = 0; step < 500; step++) {
    const closed = page.locator('[role=treeitem][aria-expanded=false]').first();
    if (await closed.count() > 0) {
      await closed.click();
      expanded++;
      continue;
    }
    const atEnd = await page.evaluate(() => {
      const tree = document.querySelector('[role=tree]')!;
      if (tree.scrollTop + tree.clientHeight >= tree.scrollHeight - 1) return true;
      tree.scrollTop += tree.clientHeight;
      return false;
    });
    if (atEnd) break;
    await page.waitForTimeout(20);
  }
  console.log(`expanding every folder: ${expanded} clicks in ${ms(performance.now() - expandStart)}; slowest click to paint ${ms(await slowestEvent(page, since, ['click', 'pointerup', 'mousedown']))}`);

  await page.evaluate(() => { document.querySelector('[role=tree]')!.scrollTop = 0; });
  // A filter keystroke: the slowest input-to-paint while typing.
  const filter = page.getByRole('searchbox', { name: 'Filter requests' });
  const typing: number[] = [];
  for (const word of ['repos', 'customer', 'issue']) {
    since = await now(page);
    await filter.fill('');
    await filter.pressSequentially(word, { delay: 30 });
    await page.waitForTimeout(300);
    typing.push(await slowestEvent(page, since, ['keydown', 'keypress', 'keyup', 'input', 'beforeinput']));
  }
  const shown = await until(page, () => filter.fill('pulls'), () => {
    const found = [...document.querySelectorAll('[role=tree] .row.request')];
    return found.length > 0 && found.every((r) => /pull/i.test(`${r.getAttribute('data-path')} ${r.textContent}`));
  });
  console.log(`filter keystroke to paint (slowest per word): ${typing.map(ms).join(', ')} — ${verdict(Math.max(...typing), 100)}; a whole query to the filtered list: ${ms(shown)}`);
  await filter.fill('');

  // The command palette.
  since = await now(page);
  await page.keyboard.press('Control+k');
  const palette = page.getByRole('combobox', { name: /Search requests/ });
  await palette.waitFor();
  const paletteOpen = await slowestEvent(page, since, ['keydown']);
  since = await now(page);
  await palette.pressSequentially('listissues', { delay: 30 });
  await page.waitForTimeout(300);
  const paletteKey = await slowestEvent(page, since, ['keydown', 'keypress', 'keyup', 'input', 'beforeinput']);
  console.log(`palette: open ${ms(paletteOpen)} (0: under 16 ms); slowest keystroke to paint ${ms(paletteKey)} — ${verdict(paletteKey, 100)}`);
  await page.keyboard.press('Escape');

  // Opening requests: click to the editor showing it.
  await filter.fill('');
  const rows = page.locator('[role=tree] .row.request');
  const opens: number[] = [];
  for (let i = 0; i < 8; i++) {
    const row = rows.nth(i * 2);
    const name = (await row.locator('.label').textContent())!;
    opens.push(await until(page, () => row.click(), (n) => (document.querySelector('[aria-label="Request name"]') as HTMLInputElement | null)?.value === n, name));
  }
  console.log(`opening a request (click to editor, median of 8): ${ms(median(opens))} — ${verdict(median(opens), 150)}`);

  // Opening a request right after editing the one open: the edit is saved first.
  const afterEdit: number[] = [];
  for (let i = 0; i < 5; i++) {
    await rows.nth(i).click();
    const name = (await rows.nth(i).locator('.label').textContent())!;
    await page.waitForFunction((n) => (document.querySelector('[aria-label="Request name"]') as HTMLInputElement | null)?.value === n, name);
    await page.getByLabel('URL').fill(`http://127.0.0.1:1/edited/${i}`);
    const next = (await rows.nth(i + 1).locator('.label').textContent())!;
    afterEdit.push(await until(page, () => rows.nth(i + 1).click(), (n) => (document.querySelector('[aria-label="Request name"]') as HTMLInputElement | null)?.value === n, next));
    await page.waitForTimeout(1000);
  }
  console.log(`opening a request right after editing the open one (median of 5): ${ms(median(afterEdit))} — ${verdict(median(afterEdit), 150)}`);

  // Switching quickly: ten clicks without waiting; the last one must win.
  const names: string[] = [];
  for (let i = 20; i < 30; i++) names.push((await rows.nth(i).locator('.label').textContent())!);
  const switchStart = performance.now();
  for (let i = 20; i < 30; i++) await rows.nth(i).click({ noWaitAfter: true });
  await page.waitForFunction((n) => (document.querySelector('[aria-label="Request name"]') as HTMLInputElement | null)?.value === n, names.at(-1)!, { polling: 'raf' });
  await page.waitForTimeout(500);
  const finalName = await page.locator('[aria-label="Request name"]').inputValue();
  console.log(`switching 10 requests quickly: ${ms(performance.now() - switchStart)}; the editor shows ${finalName === names.at(-1) ? 'the last one clicked' : `"${finalName}", NOT the last one clicked ("${names.at(-1)}")`}`);

  // Memory after opening 50 requests.
  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const before = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  const count = await rows.count();
  for (let i = 0; i < 50; i++) {
    const row = rows.nth(i % count);
    await row.scrollIntoViewIfNeeded();
    await row.click();
  }
  await page.waitForTimeout(500);
  await cdp.send('HeapProfiler.collectGarbage');
  const after = (await cdp.send('Runtime.getHeapUsage')).usedSize;
  console.log(`page JS heap: ${(before / 1048576).toFixed(1)} MB before, ${(after / 1048576).toFixed(1)} MB after opening 50 requests`);

  // 200 request files changed on disk, as a `git checkout` writes them: all at once, then spread over a second.
  await filter.fill('(v');
  for (const [label, spreadMs, mark] of [['at once', 0, 'v2'], ['over 1 s', 5, 'v3']] as const) {
    const fetchesBefore = await page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/workspace')).length);
    since = await now(page);
    const changedAt = performance.now();
    const updated = page.waitForFunction((m) => [...document.querySelectorAll('[role=tree] .row.request')].some((r) => r.textContent!.includes(`(${m})`)), mark, { polling: 'raf', timeout: 30_000 }).then(() => performance.now());
    const writes = (async () => {
      for (const file of files.slice(0, 200)) {
        const text = (await fs.readFile(file, 'utf8')).replace(/^name: (.*?)( \(v\d\))?$/m, `name: $1 (${mark})`);
        if (spreadMs) {
          await fs.writeFile(file, text);
          await new Promise((r) => setTimeout(r, spreadMs));
        } else void fs.writeFile(file, text);
      }
    })();
    const probes: number[] = [];
    for (let i = 0; i < 20; i++) {
      const t = performance.now();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
      probes.push(performance.now() - t);
      await page.waitForTimeout(20);
    }
    await writes;
    const written = performance.now() - changedAt;
    const settled = (await updated) - changedAt;
    await page.waitForTimeout(2000);
    // Every row with the mark, scrolling through the windowed list a frame at a time.
    const matching = await page.evaluate(async (mark) => {
      const tree = document.querySelector('[role=tree]')!;
      const seen = new Set<string>();
      for (let top = 0; top <= tree.scrollHeight && top < 1_000_000; top += 200) {
        tree.scrollTop = top;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        for (const r of tree.querySelectorAll('.row.request')) if (r.textContent!.includes(`(${mark})`)) seen.add(r.getAttribute('data-path')!);
      }
      tree.scrollTop = 0;
      return seen.size;
    }, mark);
    const { fetches, longest, longTotal } = await page.evaluate((since) => {
      const w = window as unknown as { __long: Array<{ start: number; duration: number }> };
      const long = w.__long.filter((e) => e.start >= since);
      return {
        fetches: performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/workspace')).length,
        longest: Math.max(0, ...long.map((e) => e.duration)),
        longTotal: long.reduce((s, e) => s + e.duration, 0),
      };
    }, since);
    console.log(`200 files changed on disk ${label} (written in ${ms(written)}): first change shown after ${ms(settled)}; ${fetches - fetchesBefore} tree fetches; long tasks ${ms(longTotal)} in all (longest ${ms(longest)}); a frame meanwhile: slowest ${ms(Math.max(...probes))}; ${matching} of 200 changes shown 2 s later`);
  }
  await context.close();
} finally {
  server.kill('SIGINT');
  await browser.close();
  await fs.rm(work, { recursive: true, force: true });
}
