/**
 * `ferry app` in Chromium: the editors' reads of their file and what closing one drops. The New
 * environment dialog asks before dropping a name typed, as every editor asks over its edits.
 * Application settings: a change of the settings file while a setting's own save is on its way
 * is read once that save has answered, and a value other than the one saved meets the conflict
 * bar. The settings, environment and server editors: a read asked when the file changed before
 * the editor's first read answered is not lost, nor undone by that older first read; and an
 * editor opened on B right after A never shows A's values. Reads are held between the real
 * server and the page until the newer news is shown.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, gotoApp, holdRequest, logPage, openAppPage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);
const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');

describe.skipIf(missing !== undefined)('ferry app in Chromium: which read of a file an editor takes, and closing over what was typed', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  /** Frames of the live channel, in order. */
  const frames: string[] = [];
  const file = (p: string) => path.join(ws.root, p);
  /** What the page does with an answer that has reached it is drawn by the next frame but one. */
  const drawn = () => page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  /** The page's questions (window.confirm), answered by `answer`. */
  const asked: string[] = [];
  let answer: 'accept' | 'dismiss' = 'dismiss';
  const onDialog = (d: Dialog) => { asked.push(d.message()); void (answer === 'accept' ? d.accept() : d.dismiss()); };

  beforeAll(async () => {
    ws = await makeWorkspace({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Users/_folder.yaml': { name: 'Users', headers: [{ key: 'X-Team', value: 'zero' }] },
      'requests/Users/Who.yaml': { name: 'Who', url: 'http://127.0.0.1:9/who' },
      'requests/Shop/_folder.yaml': { name: 'Shop', headers: [{ key: 'X-Shop', value: 'shop' }] },
      'requests/Shop/Cart.yaml': { name: 'Cart', url: 'http://127.0.0.1:9/cart' },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] },
      'environments/stage.yaml': { name: 'Stage', variables: [{ key: 'who', value: 'staged' }] },
      'servers/board.yaml': 'name: Board\nkind: websocket\ndocs: board notes\nwebsocket:\n  mode: manual\n',
      'servers/echo.yaml': 'name: Echo\nkind: websocket\ndocs: echo notes\nwebsocket:\n  mode: echo\n',
    });
    ({ app, browser, page } = await openAppPage(ws, { viewport: { width: 1400, height: 1000 }, goto: false }));
    log = logPage(page);
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    page.on('dialog', onDialog);
    await gotoApp(page, app);
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await ws?.cleanup();
  });

  it('New environment: Esc, × and Cancel with a name typed ask first (Cancel keeps it); OK drops it and creates nothing', async () => {
    const dialog = page.getByRole('dialog', { name: 'New environment' });
    const name = dialog.getByLabel('New environment name');
    const question = 'Discard the new environment “QA”? It is not created yet. (Cancel, then Create to add it.)';
    asked.length = 0;
    answer = 'dismiss';
    await page.getByRole('button', { name: 'New environment' }).click();
    await name.fill('QA');
    await page.keyboard.press('Escape');
    await expect.poll(() => asked).toEqual([question]);
    await dialog.locator('header').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => asked).toEqual([question, question]);
    await dialog.locator('footer').getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => asked).toEqual([question, question, question]);
    // Each time the answer was Cancel: the dialog and the name typed stay.
    expect(await dialog.count()).toBe(1);
    expect(await name.inputValue()).toBe('QA');
    answer = 'accept';
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(asked.length).toBe(4);
    expect(await fs.readdir(file('environments'))).toEqual(['local.yaml', 'stage.yaml']);
    // Nothing typed: closes at once.
    await page.getByRole('button', { name: 'New environment' }).click();
    await expect.poll(() => name.inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(asked.length).toBe(4);
    answer = 'dismiss';
  });
});
