/**
 * `ferry app` in Chromium: the request editor says which fields of the request file do nothing (a
 * typo: `hedaers:`), in the line `ferry run` prints for it; a request without any says nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { browserMissing, closeAppPage, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { holdLockInAnotherProcess } from './lock-holder.js';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: notices of the request editor', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Typo.yaml': { name: 'Typo', url: 'http://127.0.0.1:1/', hedaers: [{ key: 'a', value: '1' }] },
      'requests/Clean.yaml': { name: 'Clean', url: 'http://127.0.0.1:1/' },
    }, { stepTimeoutMs: 30_000 }));
    await page.getByRole('treeitem', { name: /Typo/ }).waitFor();
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('shows the line for a request with a misspelt field, and none for a clean one', async () => {
    await page.getByRole('treeitem', { name: /Typo/ }).click();
    await expect.poll(() => page.getByTestId('request-notices').textContent(), { timeout: 10_000 }).toBe(
      'requests/Typo.yaml: fields that requests do not have are ignored: hedaers (did you mean headers?).',
    );
    await page.getByRole('treeitem', { name: /Clean/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Clean');
    await expect.poll(() => page.getByTestId('request-notices').count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);

  it('an edit saved while another Ferry process writes: the wait is shown with its process, then "Not saved" keeps the edit, which is saved once that process is done', async () => {
    await page.getByRole('treeitem', { name: /Clean/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Clean');
    const holder = await holdLockInAnotherProcess(ws.root, ws.dataDir);
    process.env.FERRY_LOCK_WAIT_MS = '2500';
    try {
      await page.getByRole('textbox', { name: 'URL' }).fill('http://127.0.0.1:1/while-locked');
      const notice = page.getByRole('alert');
      await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toContain(`Waiting for ferry import (process ${holder.pid}, since `);
      await expect.poll(() => notice.textContent(), { timeout: 10_000 }).toMatch(new RegExp(`^Not saved: The workspace is being changed by ferry import \\(process ${holder.pid}, since .*\\)\\. Wait for it to finish, then try again\\. Your edit stays in the editor; the app tries again in 3 s \\(Ctrl\\+S: now\\)\\.`));
      expect(await page.getByRole('textbox', { name: 'URL' }).inputValue()).toBe('http://127.0.0.1:1/while-locked');
      expect(await fs.readFile(path.join(ws.root, 'requests', 'Clean.yaml'), 'utf8')).not.toContain('while-locked');
      // Opening another request meanwhile asks first; Cancel keeps the edit where it is.
      let asked = '';
      page.once('dialog', (d) => {
        asked = d.message();
        void d.dismiss();
      });
      await page.getByRole('treeitem', { name: /Typo/ }).click();
      await expect.poll(() => asked).toContain('Your edit of Clean.yaml is not saved yet: another Ferry process is writing to the workspace.');
      expect(await page.getByLabel('Request name').inputValue()).toBe('Clean');
      expect(await page.getByRole('textbox', { name: 'URL' }).inputValue()).toBe('http://127.0.0.1:1/while-locked');
    } finally {
      delete process.env.FERRY_LOCK_WAIT_MS;
      await holder.release();
    }
    // The other process is done: the edit is saved on its own, and the notice goes.
    await expect.poll(() => fs.readFile(path.join(ws.root, 'requests', 'Clean.yaml'), 'utf8'), { timeout: 15_000 }).toContain('while-locked');
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 10_000 }).toBe(0);
  }, 90_000);
});
