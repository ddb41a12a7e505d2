/**
 * `ferry app` in Chromium with names a hand-edited workspace can hold but Ferry refuses to save:
 * bidirectional overrides and isolates (U+202E reverses what follows, so `\u202Elmay.exe` reads as
 * `exe.yaml`) and control characters. The page shows each visibly escaped (`\u202e`, `\n`), in the
 * tree, the top bar, the environment lists, the palette and the questions it asks. And the
 * environment dialog given a variable key no placeholder can name along with a rename: refused
 * whole (nothing renamed), saved whole once fixed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AppServer } from '../../src/app/server/index.js';

import { browserMissing, closeAppPage, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** Every character the page must never show as it is. */
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

describe.skipIf(missing !== undefined)('ferry app in Chromium: names holding bidi overrides or control characters', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const dialogs: string[] = [];

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Billing/_folder.yaml': { name: 'Bill\u2066ing' },
      'requests/Billing/Invoice.yaml': { name: 'Invoice \u202Efdp.exe', url: 'http://127.0.0.1:9/' },
      'environments/prod.yaml': { name: 'Prod\u202Edog', variables: [] },
      'environments/team.yaml': { name: 'Team', variables: [{ key: 'who', value: 'team' }] },
    }, { workspace: { name: 'Shop\nNot the shop' }, onDialog: (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    } }));
    await page.getByRole('treeitem', { name: /Bill/ }).waitFor();
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('shows the names escaped in the tree, the top bar and the environment list; nothing on the page holds them raw', async () => {
    await page.getByRole('treeitem', { name: /Bill/ }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: /Invoice/ }).textContent()).toContain('Invoice \\u202efdp.exe');
    expect(await page.getByRole('treeitem', { name: /Bill/ }).textContent()).toContain('Bill\\u2066ing');
    expect(await page.locator('.ws-name').textContent()).toBe('Shop\\nNot the shop');
    await expect.poll(() => page.getByRole('combobox', { name: /environment/i }).first().locator('option').allTextContents()).toContain('Prod\\u202edog');
    expect(await page.locator('body').innerText()).not.toMatch(HIDDEN);
  });

  it('the palette lists them escaped, and finds them by what it shows', async () => {
    await page.locator('body').press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await page.keyboard.type('fdp.exe');
    await expect.poll(() => palette.getByRole('option').first().textContent()).toContain('Invoice \\u202efdp.exe');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('env prod');
    await expect.poll(() => palette.getByRole('option').first().textContent()).toContain('Use environment Prod\\u202edog');
    expect(await palette.innerText()).not.toMatch(HIDDEN);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);
  });

  it('asks before deleting by the escaped name', async () => {
    await page.getByRole('treeitem', { name: /Invoice/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => dialogs.at(-1)).toBe('Delete request "Invoice \\u202efdp.exe"? Its file requests/Billing/Invoice.yaml is removed.');
    await page.getByRole('treeitem', { name: /Bill/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => dialogs.at(-1)).toBe('Delete folder "Bill\\u2066ing" and everything in it? Its directory requests/Billing/ is removed.');
  });

  it('the environment dialog: a rename with a key no placeholder can name is refused whole, then saved whole once the key is fixed', async () => {
    const envs = path.join(ws.root, 'environments');
    const before = await fs.readFile(path.join(envs, 'team.yaml'), 'utf8');
    await page.getByLabel('Environment', { exact: true }).selectOption('team');
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Team');
    await dialog.getByLabel('Environment name').fill('Team EU');
    await dialog.getByLabel('Variable 2', { exact: true }).fill('a{{b');
    await dialog.getByLabel('Value 2', { exact: true }).fill('eu');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.locator('p.error').textContent()).toContain('Not saved: variables[1].key: "a{{b" can never be used');
    // Neither renamed nor saved: before, the rename went first and stayed.
    expect((await fs.readdir(envs)).sort()).toEqual(['prod.yaml', 'team.yaml']);
    expect(await fs.readFile(path.join(envs, 'team.yaml'), 'utf8')).toBe(before);
    await dialog.getByLabel('Variable 2', { exact: true }).fill('region');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect((await fs.readdir(envs)).sort()).toEqual(['Team EU.yaml', 'prod.yaml']);
    expect(parse(await fs.readFile(path.join(envs, 'Team EU.yaml'), 'utf8'))).toEqual({ name: 'Team EU', variables: [{ key: 'who', value: 'team' }, { key: 'region', value: 'eu' }] });
  });
});
