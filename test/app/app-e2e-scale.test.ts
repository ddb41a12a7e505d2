/**
 * `ferry app` in Chromium on a big workspace: GitHub's and Stripe's OpenAPI documents imported
 * with `ferry import` (≈1,070 requests). Behaviour, not timings (bench/app-scale.ts has those):
 * the windowed tree fills a tall window, the filter and the palette find requests anywhere in
 * it, a request opened from far away is shown in the tree, and 200 files changed at once on disk
 * all show. `ferry app` runs as its own process, as users run it: its reads do not wait for the
 * test's (a slow read and a quick one answer in the order the server finishes them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, drawn, ensureBuiltUi, launchBrowser } from './browser.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ferry } from '../support/cli.js';
import { CORPUS } from '../support/corpus.js';

const missing = browserMissing();
if (missing) console.warn(`app scale tests skipped: ${missing}`);

const RUN_FERRY = path.join(import.meta.dirname, '..', 'servers', 'support', 'run-ferry.ts');
const GITHUB = 'GitHub v3 REST API';
const STRIPE = 'Stripe API';

/** The tree's box and the rows drawn in it (only the rows in view exist). */
function drawnRows(page: Page) {
  return page.evaluate(() => {
    const tree = document.querySelector('[role=tree]')!;
    const box = tree.getBoundingClientRect();
    const rows = [...tree.querySelectorAll<HTMLElement>('[role=treeitem]')].map((r) => ({ path: r.dataset.path ?? '', text: r.textContent ?? '', top: r.getBoundingClientRect().top, bottom: r.getBoundingClientRect().bottom }));
    const visible = rows.filter((r) => r.bottom > box.top && r.top < box.bottom);
    return { treeTop: box.top, treeBottom: box.bottom, scrollHeight: tree.scrollHeight, visible };
  });
}

describe.skipIf(missing !== undefined)('ferry app in Chromium with a big imported workspace', () => {
  let ws: TempWorkspace;
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  let page: Page;

  beforeAll(async () => {
    ws = await makeWorkspace({});
    for (const doc of ['oas30-github.yaml', 'oas30-stripe-spec3.json']) {
      const imported = await ferry(['-w', ws.root, 'import', path.join(CORPUS, 'openapi', doc)]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    await ensureBuiltUi();
    const child = spawn(process.execPath, ['--import', 'tsx', RUN_FERRY, '-w', ws.root, 'app', '--no-open'], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    server = child;
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`ferry app printed no URL in 60 s: ${out}`)), 60_000);
      const read = (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.exec(out)?.[0];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      child.once('exit', (code) => reject(new Error(`ferry app exited (${code}): ${out}`)));
    });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' })).newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(url);
    await page.waitForURL(`${new URL(url).origin}/`);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once('exit', resolve));
      server.kill('SIGINT');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (server.exitCode === null) server.kill('SIGKILL');
    }
    await ws?.cleanup();
  });

  it('lists both imports; a tall window shows rows down to the bottom of the tree, also after a resize', async () => {
    const folder = (p: string) => page.locator(`[role=treeitem][data-path="${p}"]`);
    await folder(STRIPE).waitFor();
    await folder(STRIPE).click();
    await expect.poll(() => folder(STRIPE).getAttribute('aria-expanded')).toBe('true');
    for (const height of [1800, 700, 2000]) {
      await page.setViewportSize({ width: 1400, height });
      await expect.poll(async () => {
        const rows = await drawnRows(page);
        // Rows are 26 px: the last one drawn reaches the tree's bottom edge (the content is far taller).
        return rows.scrollHeight > rows.treeBottom - rows.treeTop && Math.max(...rows.visible.map((r) => r.bottom)) >= rows.treeBottom - 26;
      }, { message: `rows to the bottom of a ${height} px window` }).toBe(true);
    }
    await page.setViewportSize({ width: 1400, height: 900 });
  });

  it('the filter finds requests anywhere in the tree, also when the tree was scrolled far down', async () => {
    await page.evaluate(() => {
      const tree = document.querySelector('[role=tree]')!;
      tree.scrollTop = tree.scrollHeight;
    });
    const filter = page.getByRole('searchbox', { name: 'Filter requests' });
    await filter.fill('pull request has been merged');
    await expect.poll(async () => (await drawnRows(page)).visible.map((r) => r.text)).toEqual([
      expect.stringContaining(GITHUB), expect.stringContaining('pulls'), expect.stringContaining('Check if a pull request has been merged'),
    ]);
    await filter.fill('PostInvoicesInvoiceVoid');
    await expect.poll(async () => (await drawnRows(page)).visible.map((r) => r.path)).toEqual([STRIPE, `${STRIPE}/PostInvoicesInvoiceVoid.yaml`]);
    await filter.fill('');
  });

  it('a request opened from the palette, far down the tree, is shown there: its folders open and the tree scrolls to it', async () => {
    await page.evaluate(() => {
      document.querySelector('[role=tree]')!.scrollTop = 0;
    });
    await page.locator('body').press('Control+k');
    await page.keyboard.type('PostInvoicesInvoiceVoid');
    await expect.poll(() => page.getByRole('listbox', { name: 'Matches' }).getByRole('option').first().textContent()).toContain('PostInvoicesInvoiceVoid');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('PostInvoicesInvoiceVoid');
    const row = page.locator(`[role=treeitem][data-path="${STRIPE}/PostInvoicesInvoiceVoid.yaml"]`);
    await expect.poll(async () => (await drawnRows(page)).visible.some((r) => r.path === `${STRIPE}/PostInvoicesInvoiceVoid.yaml`)).toBe(true);
    expect(await row.getAttribute('aria-selected')).toBe('true');
    // Clicking a row in view does not move the tree.
    const before = await page.evaluate(() => document.querySelector('[role=tree]')!.scrollTop);
    await page.locator(`[role=treeitem][data-path="${STRIPE}/PostInvoicesInvoiceSend.yaml"]`).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('PostInvoicesInvoiceSend');
    expect(await page.evaluate(() => document.querySelector('[role=tree]')!.scrollTop)).toBe(before);
  });

  it('switching requests quickly: the editor ends on the last one clicked, even when an earlier one answers later', async () => {
    // A request whose answer comes late (a big file on a busy disk): the server's real answer, held back a second.
    await ws.write('requests/Slow.yaml', { name: 'Slow', url: 'http://127.0.0.1:1/slow' });
    let slowGiven!: () => void;
    const slowAnswered = new Promise<void>((resolve) => (slowGiven = resolve));
    await page.route(/\/api\/request\?path=Slow\.yaml$/, async (route) => {
      const response = await route.fetch();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await route.fulfill({ response });
      slowGiven();
    });
    const filter = page.getByRole('searchbox', { name: 'Filter requests' });
    /** Clicks the request's row, found with the filter; does not wait for it to open. */
    const click = async (name: string, file: string) => {
      await filter.fill(name);
      await page.locator(`[role=treeitem][data-path="${file}"]`).click();
    };
    await click('Slow', 'Slow.yaml');
    await click('PostInvoicesInvoiceVoid', `${STRIPE}/PostInvoicesInvoiceVoid.yaml`);
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('PostInvoicesInvoiceVoid');
    // The slow answer given to the page, and what the page does with it drawn: only then can it
    // be seen not to have replaced the last one clicked.
    await slowAnswered;
    await drawn(page);
    expect(await page.getByLabel('Request name').inputValue()).toBe('PostInvoicesInvoiceVoid');
    expect(await page.locator('[role=treeitem][aria-selected=true]').getAttribute('data-path')).toBe(`${STRIPE}/PostInvoicesInvoiceVoid.yaml`);
    // The slow one, opened alone, still opens.
    await click('Slow', 'Slow.yaml');
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Slow');
    await page.unroute(/\/api\/request\?path=Slow\.yaml$/);
    await filter.fill('');
    await fs.rm(path.join(ws.root, 'requests', 'Slow.yaml'));
  });

  it('two changes on disk in a row: the tree keeps the newer, even when the older tree answers last', async () => {
    const file = path.join(ws.root, 'requests', STRIPE, 'PostInvoicesInvoiceVoid.yaml');
    const original = await fs.readFile(file, 'utf8');
    // Every tree from before the second change answers 2 s late (a slow answer to an older read);
    // the second change's answers at once. Told apart by what they hold, not by their order: one
    // change on disk may be reported in two batches, and the previous test's last change may be
    // reported now, so the number of reads is not known (counting them made this test flaky).
    let held = 0;
    let heldFirst = 0;
    let released = 0;
    const pattern = /\/api\/workspace\?tree=compact$/;
    await page.route(pattern, async (route) => {
      const response = await route.fetch();
      const text = await response.text();
      if (!text.includes('InvoiceVoid second')) {
        held++;
        if (text.includes('InvoiceVoid first')) heldFirst++;
        await new Promise((resolve) => setTimeout(resolve, 2000));
        await route.fulfill({ response }).catch(() => undefined); // the page may have gone (the test failed meanwhile)
        released++;
        return;
      }
      await route.fulfill({ response });
    });
    const filter = page.getByRole('searchbox', { name: 'Filter requests' });
    await filter.fill('InvoiceVoid');
    try {
      await fs.writeFile(file, original.replace(/^name: .*$/m, 'name: InvoiceVoid first'));
      // A tree with the first change was read and is held back.
      await expect.poll(() => heldFirst, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      await fs.writeFile(file, original.replace(/^name: .*$/m, 'name: InvoiceVoid second'));
      const row = page.locator(`[role=treeitem][data-path="${STRIPE}/PostInvoicesInvoiceVoid.yaml"]`);
      await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain('InvoiceVoid second');
      // Every held-back (older) tree has answered since, after the newer one.
      await expect.poll(() => released === held, { timeout: 10_000 }).toBe(true);
      expect(await row.textContent()).toContain('InvoiceVoid second');
    } finally {
      await page.unroute(pattern);
      await fs.writeFile(file, original);
      await filter.fill('');
    }
  });

  it('200 request files changed at once on disk (a git checkout): every change shows in the tree', async () => {
    const dir = path.join(ws.root, 'requests', STRIPE);
    const names = (await fs.readdir(dir)).filter((n) => n.endsWith('.yaml') && n !== '_folder.yaml').sort().slice(0, 200);
    expect(names).toHaveLength(200);
    await Promise.all(names.map(async (name) => {
      const file = path.join(dir, name);
      await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^name: (.*)$/m, 'name: $1 v2'));
    }));
    const filter = page.getByRole('searchbox', { name: 'Filter requests' });
    await filter.fill(' v2');
    // 200 requests and their folder: the list's full height, whatever rows are drawn.
    await expect.poll(() => page.evaluate(() => document.querySelector('[role=tree]')!.scrollHeight), { timeout: 15_000 }).toBe(201 * 26);
    await filter.fill('');
  });
});
