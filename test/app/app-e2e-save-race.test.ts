/**
 * `ferry app` in Chromium: what the user types while a save is on its way stays. The load-test
 * panel put the save's answer back into its editor, so keystrokes made between pressing Save and
 * the answer were undone without a word (the load e2e test had to wait for the answer between two
 * edits); the server editor did the same, and the variables and settings dialogs closed over them.
 * Each save is held here on its way (the page's request, sent to the real server once the test has
 * typed on), then the editor must still show the later edit, say it is not saved, and save it next.
 * That is checked once the page shows something only the taken answer gives (a status, the new
 * file's name, the next save written): the answer reaching the page is not its being drawn.
 * Also: a switched-off query parameter keeps its place in the Params table and the URL.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, holdRequest, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: edits typed while a save is on its way', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const read = (p: string) => fs.readFile(path.join(ws.root, p), 'utf8');

  const holdNext = (url: RegExp, method: string) => holdRequest(page, url, method);
  let log: PageLog;

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Params.yaml': { name: 'Params', seq: 2, url: 'http://127.0.0.1:9/p?a=1&b=2&c=3' },
      'requests/Users/_folder.yaml': { name: 'Users' },
      'requests/Users/Who.yaml': { name: 'Who', url: 'http://127.0.0.1:9/who' },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] },
      'servers/chat.yaml': '# a chat for the test\nname: Chat\nkind: websocket\nwebsocket:\n  mode: manual\n',
      'loadtests/smoke.yaml': 'name: Smoke\ntargets:\n  - request: Plain.yaml\n    weight: 1\nstages:\n  - { durationSecs: 6, target: 2 }\n',
    }, { viewport: { width: 1400, height: 1000 }, log: true }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('load tests: a stage typed while Save is on its way stays, as unsaved, and the next Save writes it', async () => {
    const panel = page.getByRole('region', { name: 'Load tests' });
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    await panel.getByRole('listitem').filter({ hasText: 'Smoke' }).click();
    await expect.poll(() => panel.getByLabel('Load test name').inputValue()).toBe('Smoke');
    await panel.getByLabel('Target 1 weight').fill('2');
    // Renamed in the same save: the heading then names the answer's file, which only the answer
    // taken can draw (nothing else the panel shows comes from it while the user has typed on).
    await panel.getByLabel('Load test name').fill('Smoke EU');
    const heading = panel.locator('summary');
    await expect.poll(() => heading.textContent()).toBe('Smoke loadtests/smoke.yaml · unsaved changes');
    const held = await holdNext(/\/api\/loadtest$/, 'PUT');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await held.sent;
    await panel.getByLabel('Stage 1 target').fill('3');
    held.release();
    await held.answered;
    expect(await read('loadtests/Smoke EU.yaml')).toBe('name: Smoke EU\ntargets:\n  - request: Plain.yaml\n    weight: 2\nstages:\n  - { durationSecs: 6, target: 2 }\n');
    // The answer taken (its file in the heading), the stage typed after Save is still unsaved.
    await expect.poll(() => heading.textContent()).toBe('Smoke EU loadtests/Smoke EU.yaml · unsaved changes');
    expect(await panel.getByLabel('Stage 1 target').inputValue()).toBe('3');
    expect(await panel.getByLabel('Target 1 weight').inputValue()).toBe('2');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => heading.textContent()).toBe('Smoke EU loadtests/Smoke EU.yaml');
    expect(await read('loadtests/Smoke EU.yaml')).toBe('name: Smoke EU\ntargets:\n  - request: Plain.yaml\n    weight: 2\nstages:\n  - { durationSecs: 6, target: 3 }\n');
    expect(await fs.readdir(path.join(ws.root, 'loadtests'))).toEqual(['Smoke EU.yaml']);
    await page.getByLabel('Close load tests').click();
  });

  it('the server editor: notes typed while a rename is saved stay (not read again under the new name), and are saved next', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const panel = page.getByLabel('Servers', { exact: true });
    await panel.getByRole('button', { name: 'Edit Chat' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    await expect.poll(() => editor.getByLabel('websocket section (YAML)').textContent()).toContain('mode: manual');
    await editor.getByLabel('Server name').fill('Chat room');
    await editor.getByLabel('Docs').fill('first');
    const held = await holdNext(/\/api\/server$/, 'PUT');
    await editor.getByRole('button', { name: 'Save' }).click();
    await held.sent;
    await editor.getByLabel('Docs').fill('first, then more');
    held.release();
    await held.answered;
    expect(parse(await read('servers/Chat room.yaml'))).toMatchObject({ name: 'Chat room', docs: 'first' });
    await expect.poll(() => editor.getByRole('status').first().textContent()).toContain('Saved servers/Chat room.yaml. What you typed after pressing Save is not saved yet');
    expect(await editor.getByLabel('Docs').inputValue()).toBe('first, then more');
    expect(await editor.getByLabel('Server name').inputValue()).toBe('Chat room');
    await editor.getByRole('button', { name: 'Save' }).click();
    // Its answer taken (the file is written before it comes): nothing left unsaved.
    await expect.poll(() => editor.getByRole('status').first().textContent()).toBe('Saved servers/Chat room.yaml.');
    expect(parse(await read('servers/Chat room.yaml')).docs).toBe('first, then more');
    expect(await read('servers/Chat room.yaml')).toMatch(/^# a chat for the test\n/);
    // Nothing left unsaved: closing asks nothing.
    await editor.locator('footer').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Server editor' }).count()).toBe(0);
  });

  it('the environment dialog: a value typed while Save is on its way keeps the dialog open with it; Save writes it', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Local');
    await dialog.getByLabel('Value 1', { exact: true }).fill('two');
    const held = await holdNext(/\/api\/environment\/variables$/, 'PUT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await held.sent;
    await dialog.getByLabel('Value 1', { exact: true }).fill('three');
    const from = log.mark();
    held.release();
    await held.answered;
    expect(parse(await read('environments/local.yaml'))).toEqual({ name: 'Local', variables: [{ key: 'who', value: 'two' }] });
    // The answer taken (the status only it sets): polled first, so that the checks after it look
    // at the dialog as the answer left it.
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Saved. What you typed after pressing Save is not saved yet: Save again to keep it.');
    expect(await dialog.count()).toBe(1);
    expect(await dialog.getByLabel('Value 1', { exact: true }).inputValue()).toBe('three');
    // The app's own write (the watcher's report of it) is no conflict.
    await log.changeTaken('environments/local.yaml', /\/api\/environment\/variables\?id=local$/, from);
    expect(await dialog.getByRole('group', { name: 'Changed on disk' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(parse(await read('environments/local.yaml'))).toEqual({ name: 'Local', variables: [{ key: 'who', value: 'three' }] });
  });

  it('folder settings: a header typed while Save is on its way keeps the dialog open with it; Save writes it', async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await dialog.getByLabel('Header key 1').fill('X-Team');
    await dialog.getByLabel('Header value 1').fill('one');
    const held = await holdNext(/\/api\/folder\/settings$/, 'PUT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await held.sent;
    await dialog.getByLabel('Header value 1').fill('two');
    const from = log.mark();
    held.release();
    await held.answered;
    expect(parse(await read('requests/Users/_folder.yaml'))).toEqual({ name: 'Users', headers: [{ key: 'X-Team', value: 'one' }] });
    await expect.poll(() => dialog.getByRole('status').last().textContent()).toBe('Saved. What you typed after pressing Save is not saved yet: Save again to keep it.');
    expect(await dialog.count()).toBe(1);
    expect(await dialog.getByLabel('Header value 1').inputValue()).toBe('two');
    await log.changeTaken('requests/Users/_folder.yaml', /\/api\/folder\/settings\?path=Users$/, from);
    expect(await dialog.getByRole('group', { name: 'Changed on disk' }).count()).toBe(0);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(parse(await read('requests/Users/_folder.yaml'))).toEqual({ name: 'Users', headers: [{ key: 'X-Team', value: 'two' }] });
  });

  it('Application settings: a number typed on after Enter saved the field stays, and is saved when the field is left', async () => {
    await page.getByRole('button', { name: 'Application settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Application settings' });
    const timeout = dialog.getByLabel('timeoutMs', { exact: true });
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    await timeout.fill('1500');
    const held = await holdNext(/\/api\/app-settings$/, 'PUT');
    await timeout.press('Enter');
    await held.sent;
    await timeout.press('End');
    await timeout.press('0');
    held.release();
    await held.answered;
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('timeoutMs saved.');
    expect(await timeout.inputValue()).toBe('15000');
    await timeout.press('Tab');
    const stored = () => page.evaluate(async () => ((await (await fetch('/api/app-settings')).json()) as { settings: { key: string; text: string }[] }).settings.find((s) => s.key === 'timeoutMs')?.text);
    await expect.poll(stored).toBe('15000');
    await dialog.getByRole('row', { name: /timeoutMs/ }).getByRole('button', { name: 'Use the default' }).click();
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('the request editor (saved as you type): a URL typed on while its save is on its way is the next save', async () => {
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/plain');
    const held = await holdNext(/\/api\/request$/, 'PUT');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/plain?x=1');
    await held.sent;
    await page.getByLabel('URL').fill('http://127.0.0.1:9/plain?x=1&y=2');
    held.release();
    await held.answered;
    // The URL typed on is saved next, once the held save has answered (saves go one at a time):
    // written, it says the page has taken that answer, which must have left the editor as it was.
    await expect.poll(async () => parse(await read('requests/Plain.yaml')).url).toBe('http://127.0.0.1:9/plain?x=1&y=2');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/plain?x=1&y=2');
  });

  it('a request opened from cURL: a URL typed while Save writes its file stays, and is saved next', async () => {
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('Import text').fill(`curl 'http://127.0.0.1:9/made?x=1'`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('1 requests');
    await page.getByRole('dialog').getByRole('button', { name: 'Open as new request' }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/made?x=1');
    await page.getByLabel('Request name').fill('Made');
    const held = await holdNext(/\/api\/request$/, 'POST');
    await page.keyboard.press('Control+s');
    await held.sent;
    await page.getByLabel('URL').fill('http://127.0.0.1:9/made?x=1&typed=after');
    held.release();
    await held.answered;
    await expect.poll(() => page.getByTestId('unsaved-bar').count()).toBe(0);
    // Written as it was when Save was pressed, then the later URL by the save as you type: only
    // once the page has taken the answer, so the editor is then checked as that answer left it.
    await expect.poll(async () => parse(await read('requests/Made.yaml')).url).toBe('http://127.0.0.1:9/made?x=1&typed=after');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/made?x=1&typed=after');
    expect(await page.getByLabel('Request name').inputValue()).toBe('Made');
  });

  it('Params: a switched-off parameter stays second in the table, leaves the URL, and comes back second', async () => {
    await page.getByRole('treeitem', { name: /Params/ }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/p?a=1&b=2&c=3');
    const table = page.getByRole('table', { name: 'Query parameter' });
    const keys = () => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => {
      const [check, key] = [...r.querySelectorAll('input')] as HTMLInputElement[];
      return key!.value === '' ? '' : `${check!.type === 'checkbox' && !check!.checked ? '!' : ''}${key!.value}`;
    }).filter(Boolean).join(' '));
    await table.getByLabel('Query parameter b enabled').uncheck();
    await expect.poll(keys).toBe('a !b c');
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/p?a=1&c=3');
    // The file (spec 2.3, 2.4): the URL without it, the row in disabledParams with enabled: false.
    await expect.poll(async () => parse(await read('requests/Params.yaml'))).toEqual({
      name: 'Params', seq: 2, url: 'http://127.0.0.1:9/p?a=1&c=3', disabledParams: [{ key: 'b', value: '2', enabled: false }],
    });
    // Edited while off, then on again: same place in the table and the URL.
    await table.getByLabel('Query parameter value 2').fill('20');
    await expect.poll(keys).toBe('a !b c');
    await table.getByLabel('Query parameter b enabled').check();
    await expect.poll(keys).toBe('a b c');
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/p?a=1&b=20&c=3');
    await expect.poll(async () => parse(await read('requests/Params.yaml'))).toEqual({ name: 'Params', seq: 2, url: 'http://127.0.0.1:9/p?a=1&b=20&c=3' });
  });
});
