/**
 * `ferry app` in Chromium on a big workspace: GitHub's and Stripe's OpenAPI documents imported
 * with `ferry import` (≈1,070 requests). Behaviour, not timings (bench/app-scale.ts has those):
 * the windowed tree fills a tall window, the filter and the palette find requests anywhere in
 * it, a request opened from far away is shown in the tree, and 200 files changed at once on disk
 * all show.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserMissing, closeAppPage, openAppPage, type AppPage } from './browser.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ferry } from '../support/cli.js';
import { CORPUS } from '../support/corpus.js';

const missing = browserMissing();
if (missing) console.warn(`app scale tests skipped: ${missing}`);

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
  let opened: Partial<AppPage> = {};
  let page: Page;

  beforeAll(async () => {
    ws = await makeWorkspace({});
    for (const doc of ['oas30-github.yaml', 'oas30-stripe-spec3.json']) {
      const imported = await ferry(['-w', ws.root, 'import', path.join(CORPUS, 'openapi', doc)]);
      expect(imported.code, imported.stderr).toBe(0);
    }
    opened = await openAppPage(ws, { viewport: { width: 1400, height: 900 }, stepTimeoutMs: 20_000 });
    page = opened.page!;
  }, 120_000);

  afterAll(async () => {
    await closeAppPage(opened);
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
        const drawn = await drawnRows(page);
        // Rows are 26 px: the last one drawn reaches the tree's bottom edge (the content is far taller).
        return drawn.scrollHeight > drawn.treeBottom - drawn.treeTop && Math.max(...drawn.visible.map((r) => r.bottom)) >= drawn.treeBottom - 26;
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
