/**
 * `ferry app` in Chromium: the open request deleted from the sidebar's menu (itself, or the folder
 * holding it) while something of its editor is still under way: a save on its way to the server,
 * an edit refused for what it holds. The editor closes; nothing is written back into the deleted
 * path, nothing is said about the request's save afterwards, and opening another request asks
 * about no edit of it (the user deleted it, edits and all, when they said OK). A delete the server
 * refuses (a folder that allows no removal) leaves the editor open with its edit, which is saved
 * as usual, and says the refusal.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, drawn, holdRequest, openWorkspacePage } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/**
 * Makes folder `dir` refuse removals (and new files); returns what undoes it, or undefined when
 * it cannot: root ignores permission bits, so an immutable folder (chattr +i) refuses it instead.
 */
async function lockFolder(dir: string): Promise<(() => Promise<void>) | undefined> {
  if (process.getuid?.() !== 0) {
    await fs.chmod(dir, 0o555);
    return () => fs.chmod(dir, 0o755);
  }
  if (spawnSync('chattr', ['+i', dir]).status !== 0) return undefined;
  return async () => void spawnSync('chattr', ['-i', dir]);
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: the open request deleted from the menu while its editor is busy', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The page's questions (window.confirm), each answered OK. */
  const asked: string[] = [];
  const req = (p: string) => path.join(ws.root, 'requests', p);
  const gone = (p: string) => fs.stat(req(p)).then(() => false, () => true);
  const notices = () => page.locator('.notice[role=alert]').allTextContents();

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Doomed/_folder.yaml': { name: 'Doomed' },
      'requests/Doomed/Busy.yaml': { name: 'Busy', url: 'http://127.0.0.1:9/busy' },
      'requests/Fated/_folder.yaml': { name: 'Fated' },
      'requests/Fated/Refused.yaml': { name: 'Refused', url: 'http://127.0.0.1:9/refused' },
      'requests/Locked/_folder.yaml': { name: 'Locked' },
      'requests/Locked/Kept.yaml': { name: 'Kept', url: 'http://127.0.0.1:9/kept' },
      'requests/Locked/Fixed.yaml': { name: 'Fixed', url: 'http://127.0.0.1:9/fixed' },
    }, { viewport: { width: 1400, height: 1000 }, onDialog: (d) => { asked.push(d.message()); void d.accept(); } }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

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
    await drawn(page);
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

  it('a delete refused by the server: the editor stays open, an edit typed while the delete was on its way is saved, and the refusal is said', async (ctx) => {
    await page.getByRole('treeitem', { name: /Locked/ }).click();
    await page.getByRole('treeitem', { name: /Kept/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Kept');
    const unlock = await lockFolder(req('Locked'));
    if (!unlock) return ctx.skip();
    let locked = true;
    try {
      // The delete reaches the server and is refused there; its answer is held from the page meanwhile.
      const held = await holdRequest(page, /\/api\/request\?path=/, 'DELETE', { reachServer: true });
      asked.length = 0;
      await page.getByRole('treeitem', { name: /Kept/ }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await held.sent;
      expect(asked).toEqual(['Delete request "Kept"? Its file requests/Locked/Kept.yaml is removed.']);
      // The editor waits for the answer: what is typed now is an edit like any other.
      await page.getByLabel('URL').fill('http://127.0.0.1:9/typed-while-deleting');
      await unlock();
      locked = false;
      held.release();
      await expect.poll(() => notices()).toEqual([expect.stringMatching(/^Not deleted: .*Kept\.yaml/)]);
      await expect.poll(() => fs.readFile(req('Locked/Kept.yaml'), 'utf8')).toContain('url: http://127.0.0.1:9/typed-while-deleting');
      expect(await page.getByLabel('Request name').inputValue()).toBe('Kept');
      expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/typed-while-deleting');
      expect(await page.getByRole('treeitem', { name: /Kept/ }).count()).toBe(1);
    } finally {
      if (locked) await unlock();
    }
  });

  it('a delete refused while an edit is refused for what it holds: the edit stays, both refusals are said, and, fixed, it is saved', async (ctx) => {
    // Notices stand until closed: those of the test before go first.
    const close = page.getByRole('button', { name: 'Close the notice' });
    while ((await close.count()) > 0) await close.first().click();
    await expect.poll(() => notices()).toEqual([]);
    await page.getByRole('treeitem', { name: /Fixed/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Fixed');
    await page.getByLabel('Request name').fill('');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/edited');
    await expect.poll(() => notices()).toEqual([expect.stringContaining('Not saved: A name cannot be empty')]);
    const unlock = await lockFolder(req('Locked'));
    if (!unlock) return ctx.skip();
    try {
      asked.length = 0;
      await page.getByRole('treeitem', { name: /Fixed/ }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      // The second refusal is said below the first: why the edit is not saved still shows (it took its place before).
      await expect.poll(() => notices()).toEqual([expect.stringContaining('Not saved: A name cannot be empty'), expect.stringMatching(/^Not deleted: .*Fixed\.yaml/)]);
    } finally {
      await unlock();
    }
    expect(await page.getByLabel('Request name').inputValue()).toBe('');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/edited');
    expect(await fs.readFile(req('Locked/Fixed.yaml'), 'utf8')).toContain('url: http://127.0.0.1:9/fixed');
    await page.getByLabel('Request name').fill('Fixed');
    await expect.poll(() => fs.readFile(req('Locked/Fixed.yaml'), 'utf8')).toContain('url: http://127.0.0.1:9/edited');
    // Saved: its refusal goes; the delete's stays until closed, and closing it leaves none.
    await expect.poll(() => notices()).toEqual([expect.stringMatching(/^Not deleted: .*Fixed\.yaml/)]);
    await page.getByRole('alert').filter({ hasText: 'Not deleted:' }).getByRole('button', { name: 'Close the notice' }).click();
    await expect.poll(() => notices()).toEqual([]);
    expect(asked).toEqual(['Delete request "Fixed"? Its file requests/Locked/Fixed.yaml is removed.']);
  });
});
