/**
 * `ferry app` in Chromium: the open request deleted from the sidebar's menu (itself, or the folder
 * holding it) while something of its editor is still under way: a save on its way to the server,
 * an edit refused for what it holds. The editor closes; nothing is written back into the deleted
 * path, nothing is said about the request's save afterwards, and opening another request asks
 * about no edit of it (the user deleted it, edits and all, when they said OK).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, holdRequest, openAppPage } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: the open request deleted from the menu while its editor is busy', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The page's questions (window.confirm), each answered OK. */
  const asked: string[] = [];
  const req = (p: string) => path.join(ws.root, 'requests', p);
  /** What the page does with an answer that has reached it is drawn by the next frame but one. */
  const drawn = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  const gone = (p: string) => fs.stat(req(p)).then(() => false, () => true);
  const notices = () => page.locator('.notice[role=alert]').allTextContents();

  beforeAll(async () => {
    ws = await makeWorkspace({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Doomed/_folder.yaml': { name: 'Doomed' },
      'requests/Doomed/Busy.yaml': { name: 'Busy', url: 'http://127.0.0.1:9/busy' },
      'requests/Fated/_folder.yaml': { name: 'Fated' },
      'requests/Fated/Refused.yaml': { name: 'Refused', url: 'http://127.0.0.1:9/refused' },
    });
    ({ app, browser, page } = await openAppPage(ws, { viewport: { width: 1400, height: 1000 }, onDialog: (d) => { asked.push(d.message()); void d.accept(); } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await ws?.cleanup();
  });

  const deleteFolder = async (name: string) => {
    await page.getByRole('treeitem', { name: new RegExp(name) }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => gone(name)).toBe(true);
    await expect.poll(() => page.getByRole('treeitem', { name: new RegExp(name) }).count()).toBe(0);
  };

  it('a save on its way when the folder is deleted: not written back into the deleted folder, the editor closed, and its refusal not said', async () => {
    await page.getByRole('treeitem', { name: /Doomed/ }).click();
    await page.getByRole('treeitem', { name: /Busy/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Busy');
    // The save as you type leaves the page and is held before the server: it arrives after the delete.
    const held = await holdRequest(page, /\/api\/request$/, 'PUT');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/typed');
    await held.sent;
    asked.length = 0;
    await deleteFolder('Doomed');
    expect(asked).toEqual(['Delete folder "Doomed" and everything in it? Its directory requests/Doomed/ is removed.']);
    await expect.poll(() => page.getByLabel('Request name').count()).toBe(0);
    held.release();
    // Its answer taken and drawn: what the page says of it, it has said.
    await held.answered;
    await drawn();
    expect(await gone('Doomed')).toBe(true);
    expect(await notices()).toEqual([]);
    expect(await page.getByLabel('Request name').count()).toBe(0);
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Plain');
    expect(asked).toHaveLength(1);
    expect(await gone('Doomed')).toBe(true);
  });

  it('an edit refused for what it holds (an empty name) when its folder is deleted: its "Not saved" goes with it, and opening another request asks nothing about it', async () => {
    await page.getByRole('treeitem', { name: /Fated/ }).click();
    await page.getByRole('treeitem', { name: /Refused/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Refused');
    await page.getByLabel('Request name').fill('');
    await expect.poll(() => notices()).toEqual([expect.stringContaining('Not saved: A name cannot be empty')]);
    asked.length = 0;
    await deleteFolder('Fated');
    await expect.poll(() => page.getByLabel('Request name').count()).toBe(0);
    await expect.poll(() => notices()).toEqual([]);
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Plain');
    expect(asked).toEqual(['Delete folder "Fated" and everything in it? Its directory requests/Fated/ is removed.']);
    expect(await gone('Fated')).toBe(true);
  });
});
