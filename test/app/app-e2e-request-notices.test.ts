/**
 * `ferry app` in Chromium: the request editor says which fields of the request file do nothing (a
 * typo: `hedaers:`), in the line `ferry run` prints for it; a request without any says nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { browserMissing, closeAppPage, openAppPage } from './browser.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: notices of the request editor', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ws = await makeWorkspace({
      'requests/Typo.yaml': { name: 'Typo', url: 'http://127.0.0.1:1/', hedaers: [{ key: 'a', value: '1' }] },
      'requests/Clean.yaml': { name: 'Clean', url: 'http://127.0.0.1:1/' },
    });
    ({ app, browser, page } = await openAppPage(ws, { stepTimeoutMs: 30_000 }));
    await page.getByRole('treeitem', { name: /Typo/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await ws?.cleanup();
  });

  it('shows the line for a request with a misspelt field, and none for a clean one', async () => {
    await page.getByRole('treeitem', { name: /Typo/ }).click();
    await expect.poll(() => page.getByTestId('request-notices').textContent(), { timeout: 10_000 }).toBe(
      'requests/Typo.yaml: fields that requests do not have are ignored: hedaers (did you mean headers?).',
    );
    await page.getByRole('treeitem', { name: /Clean/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Clean');
    await expect.poll(() => page.getByTestId('request-notices').count(), { timeout: 10_000 }).toBe(0);
  }, 60_000);
});
