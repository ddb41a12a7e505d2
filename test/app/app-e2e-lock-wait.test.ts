/**
 * `ferry app` in Chromium, while another Ferry process holds the workspace's write lock (an import
 * in a terminal): the dialogs that write — a new environment, an environment renamed or deleted,
 * an import, an update from API spec — say the wait in the dialog ("Waiting for ferry import
 * (process N, …)") as a request's save does, then show the refusal; nothing is written, and once
 * that process is done the same click goes through. The wait is said in the tab that waits, not in
 * another tab of the app.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { browserMissing, closeAppPage, gotoApp, openWorkspacePage } from './browser.js';
import { holdLockInAnotherProcess, type LockHolder } from './lock-holder.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { folderSnapshot } from '../support/temp.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const ok = { 200: { description: 'ok' } };
const shop = (paths: Record<string, unknown>) => JSON.stringify({ openapi: '3.0.3', info: { title: 'Shop', version: '1' }, servers: [{ url: 'http://127.0.0.1:1' }], paths }, null, 1);
const V1 = shop({ '/items': { get: { summary: 'List items', responses: ok } } });
const V2 = shop({ '/items': { get: { summary: 'List items', responses: ok }, post: { summary: 'Create item', responses: ok } } });

describe.skipIf(missing !== undefined)('ferry app in Chromium: dialogs that write while another process holds the workspace lock', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'local' }] },
      'requests/Health.yaml': { name: 'Health', url: 'http://127.0.0.1:1/health' },
    }, { viewport: { width: 1400, height: 860 }, stepTimeoutMs: 30_000 }));
    await page.getByRole('treeitem', { name: /Health/ }).waitFor();
    // The folder an update from API spec updates, imported as the page would.
    const imported = await page.evaluate(async (text) => (await fetch('/api/import', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text, fileName: 'shop.json' }) })).status, V1);
    expect(imported).toBe(200);
    await page.getByRole('treeitem', { name: /Shop/ }).waitFor();
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  /**
   * Clicks `act` in `dialog` while another process holds the lock: the dialog says the wait, naming
   * that process; then the refusal shows, the wait is no longer said (in the dialog or the page),
   * and the workspace is as it was.
   */
  async function whileLocked(dialog: Locator, act: () => Promise<void>): Promise<void> {
    const before = await folderSnapshot(ws.root);
    const holder: LockHolder = await holdLockInAnotherProcess(ws.root, ws.dataDir);
    process.env.FERRY_LOCK_WAIT_MS = '2500';
    try {
      await act();
      const wait = dialog.getByRole('status').filter({ hasText: 'Waiting for' });
      await expect.poll(() => wait.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^Waiting for ferry import \\(process ${holder.pid}, since \\d\\d:\\d\\d:\\d\\d UTC\\) to finish writing to this workspace before saving…$`));
      await expect.poll(() => dialog.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`The workspace is being changed by ferry import \\(process ${holder.pid}, since .*\\)\\. Wait for it to finish, then try again\\.`));
      // The server said the wait is over (live `lockWaitOver`): said nowhere in the page any more.
      await expect.poll(() => wait.count()).toBe(0);
      await expect.poll(() => page.getByText(/^Waiting for ferry import/).count()).toBe(0);
      expect(await folderSnapshot(ws.root)).toEqual(before);
    } finally {
      delete process.env.FERRY_LOCK_WAIT_MS;
      await holder.release();
    }
  }

  it('a new environment: the wait, then the refusal in the dialog; Create again adds it', async () => {
    await page.getByRole('button', { name: 'New environment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New environment' });
    await dialog.getByLabel('New environment name').fill('QA');
    await whileLocked(dialog, () => dialog.getByRole('button', { name: 'Create' }).click());
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => fs.readFile(path.join(ws.root, 'environments', 'QA.yaml'), 'utf8').catch(() => '')).toBe('name: QA\n');
    // The new one opens in the editor: closed here, the next step opens Local.
    await expect.poll(() => page.getByLabel('Environment name').inputValue()).toBe('QA');
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
  }, 60_000);

  it('an environment renamed: the wait, then the refusal; Save again renames it', async () => {
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Local');
    await dialog.getByLabel('Environment name').fill('Local EU');
    await whileLocked(dialog, () => dialog.getByRole('button', { name: 'Save' }).click());
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fs.readFile(path.join(ws.root, 'environments', 'Local EU.yaml'), 'utf8').catch(() => '')).toMatch(/^name: Local EU\n/);
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }, 60_000);

  it('an environment deleted: the wait, then the refusal; deleting again removes it', async () => {
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Local EU');
    await dialog.getByRole('button', { name: 'Delete environment…' }).click();
    await whileLocked(dialog, () => dialog.getByRole('button', { name: /Delete “Local EU” and its secret values/ }).click());
    await dialog.getByRole('button', { name: /Delete “Local EU” and its secret values/ }).click();
    await expect.poll(() => fs.access(path.join(ws.root, 'environments', 'Local EU.yaml')).then(() => 'there', () => 'gone')).toBe('gone');
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
  }, 60_000);

  it('an import: the wait, then the refusal; Import again writes it', async () => {
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Import' });
    await dialog.getByRole('button', { name: /^Paste/ }).click();
    await dialog.getByLabel('Import text').fill(V1.replace('"Shop"', '"Store"'));
    await dialog.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('Store');
    await whileLocked(dialog, () => dialog.getByRole('button', { name: 'Import', exact: true }).click());
    await dialog.getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByTestId('import-done').textContent()).toContain('1 requests');
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await fs.readdir(path.join(ws.root, 'requests'))).toContain('Store');
  }, 60_000);

  it('an update from API spec: the wait, then the refusal; Update again writes it', async () => {
    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Update from API spec…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update from API spec' });
    await dialog.getByRole('button', { name: 'Paste' }).click();
    await dialog.getByLabel('Document text').fill(V2);
    await dialog.getByRole('button', { name: 'Preview changes' }).click();
    await expect.poll(() => dialog.getByTestId('update-plan').textContent()).toContain('Create item');
    await whileLocked(dialog, () => dialog.getByRole('button', { name: 'Update', exact: true }).click());
    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await expect.poll(() => dialog.getByTestId('update-plan').textContent()).toContain('Updated.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await fs.readFile(path.join(ws.root, 'requests', 'Shop', 'Create item.yaml'), 'utf8')).toContain('method: POST');
  }, 60_000);

  it('two tabs: the wait is said in the tab whose write waits, not in the other', async () => {
    const other = await page.context().newPage();
    try {
      await gotoApp(other, app);
      await other.getByRole('treeitem', { name: /Health/ }).waitFor();
      await page.getByRole('button', { name: 'New environment' }).click();
      const dialog = page.getByRole('dialog', { name: 'New environment' });
      await dialog.getByLabel('New environment name').fill('Two tabs');
      const holder = await holdLockInAnotherProcess(ws.root, ws.dataDir);
      process.env.FERRY_LOCK_WAIT_MS = '2500';
      try {
        // Whether the other tab ever shows the line, however briefly: watched from inside it.
        await other.evaluate(() => {
          const w = window as unknown as { sawWait: boolean };
          w.sawWait = false;
          new MutationObserver(() => (w.sawWait ||= document.body.innerText.includes('Waiting for ferry import'))).observe(document.body, { subtree: true, childList: true, characterData: true });
        });
        await dialog.getByRole('button', { name: 'Create' }).click();
        await dialog.getByRole('status').filter({ hasText: 'Waiting for ferry import' }).waitFor({ timeout: 10_000 });
        await expect.poll(() => dialog.textContent(), { timeout: 10_000 }).toContain('The workspace is being changed by ferry import');
        // The other tab did not start this write: nothing to wait for there, at any time.
        expect(await other.evaluate(() => (window as unknown as { sawWait: boolean }).sawWait)).toBe(false);
      } finally {
        delete process.env.FERRY_LOCK_WAIT_MS;
        await holder.release();
      }
      await dialog.getByRole('button', { name: 'Cancel' }).click();
    } finally {
      await other.close();
    }
  }, 60_000);
});
