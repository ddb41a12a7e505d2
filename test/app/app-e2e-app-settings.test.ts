/**
 * `ferry app` in Chromium: the Application settings dialog (⚙ in the top bar, or the command
 * palette): a number typed and left is saved as `ferry config set` would; a refused value stays
 * in its field with the refusal beside it; a switch and a list save at once; "Use the default"
 * puts the default back. What the dialog saved is what `ferry config get` reads. A change of the
 * settings file while the dialog is open (`ferry config set` in a terminal, a hand edit) shows at
 * once; with a value typed and not saved, its setting changed meets the conflict bar. A setting
 * changed by `ferry config set` while the dialog's save of it is on its way is not written over:
 * the save is refused, the refusal and the bar show; another setting changed meanwhile is no conflict.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Dialog, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { browserMissing, closeAppPage, holdRequest, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);
const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');

describe.skipIf(missing !== undefined)('ferry app in Chromium: Application settings', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({ 'requests/A.yaml': { name: 'A', url: 'http://127.0.0.1:9/' } }, { stepTimeoutMs: 20_000 }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  const get = async (key: string) => (await promisify(execFile)(process.execPath, [BIN, 'config', 'get', key], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir } })).stdout.trim();
  /** `ferry config set` in a terminal, beside the app. */
  const set = async (key: string, text: string) => {
    await promisify(execFile)(process.execPath, [BIN, 'config', 'set', key, text], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir } });
  };
  const dialog = () => page.getByRole('dialog', { name: 'Application settings' });

  it('saves a number when the field is left; a refused one stays with the refusal; switches, lists and the default', async () => {
    await page.getByRole('button', { name: 'Application settings' }).click();
    const timeout = dialog().getByLabel('timeoutMs', { exact: true });
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    await timeout.fill('1500');
    await timeout.press('Enter');
    await expect.poll(() => dialog().getByRole('status').textContent()).toBe('timeoutMs saved.');
    expect(await get('timeoutMs')).toBe('1500');

    await timeout.fill('soon');
    await timeout.press('Tab');
    await expect.poll(() => dialog().getByRole('alert').textContent()).toBe('Setting timeoutMs takes a whole number from 0 to 2147483647, not "soon".');
    expect(await timeout.inputValue()).toBe('soon');
    expect(await timeout.getAttribute('aria-invalid')).toBe('true');
    expect(await get('timeoutMs')).toBe('1500');

    await dialog().getByRole('row', { name: /timeoutMs/ }).getByRole('button', { name: 'Use the default' }).click();
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    await expect.poll(() => dialog().getByRole('alert').count()).toBe(0);
    // The field shows the default before the setting's removal has been written: polled.
    await expect.poll(() => get('timeoutMs')).toBe('30000');

    await dialog().getByLabel('filesOutsideWorkspace', { exact: true }).check();
    await expect.poll(() => get('filesOutsideWorkspace')).toBe('true');
    await dialog().getByLabel('httpVersion', { exact: true }).selectOption('http1');
    await expect.poll(() => get('httpVersion')).toBe('http1');
    const noProxy = dialog().getByLabel('noProxy', { exact: true });
    await noProxy.fill('localhost, .internal');
    await noProxy.press('Enter');
    await expect.poll(() => get('noProxy')).toBe('localhost,.internal');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('Esc with a value typed and not saved asks first, as the other editors do (Cancel keeps it, OK drops it); Close leaves the field, which saves it', async () => {
    await page.getByRole('button', { name: 'Application settings' }).click();
    const timeout = dialog().getByLabel('timeoutMs', { exact: true });
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    await timeout.fill('2500');
    const asked: string[] = [];
    let discard = false;
    const onDialog = (d: Dialog) => { asked.push(d.message()); void (discard ? d.accept() : d.dismiss()); };
    page.on('dialog', onDialog);
    try {
      await page.keyboard.press('Escape');
      await expect.poll(() => asked).toEqual(['Discard what you typed and did not save (timeoutMs)? (Cancel, then press Enter in its field to save it.)']);
      expect(await timeout.inputValue()).toBe('2500');
      expect(await dialog().count()).toBe(1);
      discard = true;
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
      expect(asked.length).toBe(2);
      expect(await get('timeoutMs')).toBe('30000');

      await page.getByRole('button', { name: 'Application settings' }).click();
      await expect.poll(() => timeout.inputValue()).toBe('30000');
      await timeout.fill('2600');
      await dialog().locator('footer').getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialog().count()).toBe(0);
      await expect.poll(() => get('timeoutMs')).toBe('2600');
      expect(asked.length).toBe(2);
    } finally {
      page.off('dialog', onDialog);
    }
  });

  it('a change of the settings file while it is open shows at once (ferry config set, a hand edit); a setting typed in and not saved that changed meets the conflict bar, another beside it does not', async () => {
    const asked: string[] = [];
    const onDialog = (d: Dialog) => { asked.push(d.message()); void d.dismiss(); };
    page.on('dialog', onDialog);
    /** What the page saved: a field left for the bar must send nothing. */
    const puts: unknown[] = [];
    const onRequest = (r: Request) => { if (r.method() === 'PUT' && r.url().endsWith('/api/app-settings')) puts.push(r.postDataJSON()); };
    page.on('request', onRequest);
    try {
      await page.getByRole('button', { name: 'Application settings' }).click();
      const redirects = dialog().getByLabel('maxRedirects', { exact: true });
      const scriptTimeout = dialog().getByLabel('scriptTimeoutMs', { exact: true });
      const bar = dialog().getByRole('group', { name: 'Changed on disk' });
      await expect.poll(() => redirects.inputValue()).toBe('10');
      // Nothing typed: the file's new values show.
      await set('maxRedirects', '7');
      await expect.poll(() => redirects.inputValue()).toBe('7');
      const file = path.join(ws.dataDir, 'settings.json');
      await fs.writeFile(file, JSON.stringify({ ...JSON.parse(await fs.readFile(file, 'utf8')), scriptTimeoutMs: 6000 }, null, 1));
      await expect.poll(() => scriptTimeout.inputValue()).toBe('6000');
      expect(await bar.count()).toBe(0);

      // Typed in, not saved: that setting changed on disk asks for a choice; the other just shows.
      await redirects.fill('3');
      await set('maxRedirects', '8');
      await set('scriptTimeoutMs', '7000');
      await expect.poll(() => scriptTimeout.inputValue()).toBe('7000');
      await expect.poll(() => bar.textContent()).toContain('maxRedirects changed on disk while you were editing it.');
      expect(await redirects.inputValue()).toBe('3');
      // Leaving the field for the bar does not save it over the file's change: the choice does.
      await bar.getByRole('button', { name: "Take the file's version" }).click();
      await expect.poll(() => redirects.inputValue()).toBe('8');
      await expect.poll(() => bar.count()).toBe(0);
      expect(await get('maxRedirects')).toBe('8');

      await redirects.fill('4');
      await set('maxRedirects', '9');
      await expect.poll(() => bar.textContent()).toContain('maxRedirects changed on disk while you were editing it.');
      // Close with the conflict open: the field is not saved by leaving it, so closing asks.
      await dialog().locator('footer').getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => asked).toEqual(['Discard what you typed and did not save (maxRedirects)? (Cancel, then press Enter in its field to save it.)']);
      expect(await get('maxRedirects')).toBe('9');
      await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
      await expect.poll(() => get('maxRedirects')).toBe('4');
      await expect.poll(() => bar.count()).toBe(0);
      expect(await redirects.inputValue()).toBe('4');
      // The app's own save, seen on disk, is no change for the dialog: nothing to ask when closing.
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog().count()).toBe(0);
      expect(asked.length).toBe(1);
      // Only Keep mine saved: neither Take the file's version nor Close sent the typed value.
      // Sent with the file's value the bar offered as its base: the user's choice over it.
      expect(puts).toEqual([{ key: 'maxRedirects', text: '4', base: '9' }]);
    } finally {
      page.off('dialog', onDialog);
      page.off('request', onRequest);
    }
  });

  it('a save of a setting that ferry config set changed while the save was on its way is refused: nothing written, the refusal and the bar show; another setting changed meanwhile saves', async () => {
    await page.getByRole('button', { name: 'Application settings' }).click();
    const redirects = dialog().getByLabel('maxRedirects', { exact: true });
    const timeout = dialog().getByLabel('timeoutMs', { exact: true });
    const bar = dialog().getByRole('group', { name: 'Changed on disk' });
    const file = path.join(ws.dataDir, 'settings.json');
    await expect.poll(async () => redirects.inputValue()).toBe(await get('maxRedirects'));

    // The save leaves the page with the value the dialog read; the terminal's change lands before it arrives.
    let held = await holdRequest(page, /\/api\/app-settings$/, 'PUT');
    await redirects.fill('2');
    await redirects.press('Enter');
    await held.sent;
    await set('maxRedirects', '6');
    held.release();
    await held.answered;
    await expect.poll(() => bar.textContent()).toContain('maxRedirects changed on disk while you were editing it.');
    await expect.poll(() => dialog().getByRole('alert').allTextContents()).toContain(`maxRedirects changed in ${file} since the app read it (it is now 6); nothing was saved.`);
    expect(await redirects.inputValue()).toBe('2');
    expect(await get('maxRedirects')).toBe('6');
    // Keep mine writes it over the file's value, on purpose.
    await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => get('maxRedirects')).toBe('2');
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(() => dialog().getByRole('status').textContent()).toBe('maxRedirects saved.');
    expect(await dialog().getByRole('alert').count()).toBe(0);

    // Another setting changed while this one's save is on its way: saved, both kept, no bar.
    held = await holdRequest(page, /\/api\/app-settings$/, 'PUT');
    await timeout.fill('4500');
    await timeout.press('Enter');
    await held.sent;
    await set('scriptTimeoutMs', '8000');
    held.release();
    await held.answered;
    await expect.poll(() => dialog().getByRole('status').textContent()).toBe('timeoutMs saved.');
    expect(await get('timeoutMs')).toBe('4500');
    expect(await get('scriptTimeoutMs')).toBe('8000');
    await expect.poll(() => dialog().getByLabel('scriptTimeoutMs', { exact: true }).inputValue()).toBe('8000');
    expect(await bar.count()).toBe(0);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toMatchObject({ maxRedirects: 2, timeoutMs: 4500, scriptTimeoutMs: 8000 });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  });
});
