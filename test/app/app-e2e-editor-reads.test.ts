/**
 * `ferry app` in Chromium: the editors' reads of their file and what closing one drops. The New
 * environment dialog asks before dropping a name typed, as every editor asks over its edits.
 * Application settings: a change of the settings file while a setting's own save is on its way
 * is read once that save has answered, and a value other than the one saved meets the conflict
 * bar. The settings, environment and server editors: a read asked when the file changed before
 * the editor's first read answered is not lost, nor undone by that older first read; and an
 * editor opened on B right after A never shows A's values. The load-test panel's read of the
 * load test picked is one of its reads of the file too (it was a read of its own, and a change
 * while it was on its way was not read). Reads are held between the real server and the page
 * until the newer news is shown.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Dialog, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, drawn, holdRequest, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);
const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');
const SMOKE = 'name: Smoke\ntargets:\n  - request: Plain.yaml\n    weight: 1\nstages:\n  - { durationSecs: 6, target: 2 }\n';

describe.skipIf(missing !== undefined)('ferry app in Chromium: which read of a file an editor takes, and closing over what was typed', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  const file = (p: string) => path.join(ws.root, p);
  /** The page's questions (window.confirm), answered by `answer`. */
  const asked: string[] = [];
  let answer: 'accept' | 'dismiss' = 'dismiss';
  const onDialog = (d: Dialog) => { asked.push(d.message()); void (answer === 'accept' ? d.accept() : d.dismiss()); };

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Users/_folder.yaml': { name: 'Users', headers: [{ key: 'X-Team', value: 'zero' }] },
      'requests/Users/Who.yaml': { name: 'Who', url: 'http://127.0.0.1:9/who' },
      'requests/Shop/_folder.yaml': { name: 'Shop', headers: [{ key: 'X-Shop', value: 'shop' }] },
      'requests/Shop/Cart.yaml': { name: 'Cart', url: 'http://127.0.0.1:9/cart' },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] },
      'environments/stage.yaml': { name: 'Stage', variables: [{ key: 'who', value: 'staged' }] },
      'servers/board.yaml': 'name: Board\nkind: websocket\ndocs: board notes\nwebsocket:\n  mode: manual\n',
      'servers/echo.yaml': 'name: Echo\nkind: websocket\ndocs: echo notes\nwebsocket:\n  mode: echo\n',
      'loadtests/smoke.yaml': SMOKE,
    }, { viewport: { width: 1400, height: 1000 }, log: true, onDialog }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

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

  it('Application settings: the file changed while a setting\'s own save is on its way; once saved, the other value meets the conflict bar (Keep mine writes the value saved again)', async () => {
    const config = async (...args: string[]) => (await promisify(execFile)(process.execPath, [BIN, 'config', ...args], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir } })).stdout.trim();
    const dialog = page.getByRole('dialog', { name: 'Application settings' });
    const timeout = dialog.getByLabel('timeoutMs', { exact: true });
    const bar = dialog.getByRole('group', { name: 'Changed on disk' });
    /** A report of the settings file's change on the live channel since `from`. */
    const reported = (from: number) => log.frames.slice(from).some((f) => f.includes('"appSettings"'));
    await page.getByRole('button', { name: 'Application settings' }).click();
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    const own = log.frames.length;
    await timeout.fill('5000');
    // The save reaches the server (the file is written); its answer is held from the page.
    const held = await holdRequest(page, /\/api\/app-settings$/, 'PUT', { reachServer: true });
    await timeout.press('Enter');
    await held.sent;
    try {
      expect(await config('get', 'timeoutMs')).toBe('5000');
      // The save's own write reported, then another writer's (ferry config set in a terminal), both while the answer is held.
      await expect.poll(() => reported(own), { message: 'the save\'s own write reported' }).toBe(true);
      const other = log.frames.length;
      await config('set', 'timeoutMs', '7000');
      await expect.poll(() => reported(other), { message: 'the other writer\'s change reported' }).toBe(true);
      await drawn(page);
      expect(await bar.count()).toBe(0);
    } finally {
      held.release();
    }
    await expect.poll(() => bar.textContent()).toContain('timeoutMs changed on disk while you were editing it.');
    // The field keeps what was saved; the file keeps the other writer's value until the user chooses.
    expect(await timeout.inputValue()).toBe('5000');
    expect(await config('get', 'timeoutMs')).toBe('7000');
    await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => config('get', 'timeoutMs')).toBe('5000');
    await expect.poll(() => bar.count()).toBe(0);
    expect(await timeout.inputValue()).toBe('5000');

    // A save with no other writer: its own write read again after it shows nothing, and closing asks nothing.
    const asks = asked.length;
    const quiet = log.frames.length;
    /** The page's reads of the settings from here on, each done when answered whole. */
    const settingsRead: Promise<unknown>[] = [];
    const onRequest = (r: Request) => { if (r.method() === 'GET' && r.url().endsWith('/api/app-settings')) settingsRead.push(r.response().then((a) => a?.finished())); };
    page.on('request', onRequest);
    await timeout.fill('6000');
    await timeout.press('Enter');
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('timeoutMs saved.');
    await expect.poll(() => reported(quiet)).toBe(true);
    // The read that report asked for, answered and drawn: only then does "no bar" say something.
    await expect.poll(() => settingsRead.length).toBeGreaterThan(0);
    await Promise.all(settingsRead);
    page.off('request', onRequest);
    await drawn(page);
    expect(await bar.count()).toBe(0);
    expect(await timeout.inputValue()).toBe('6000');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(asked.length).toBe(asks);
    expect(await config('get', 'timeoutMs')).toBe('6000');
  });

  /** The three editors read when opened, each with its file, a field, and how to open it on a file. */
  const editors = [
    {
      name: 'folder settings',
      read: /\/api\/folder\/settings\?path=/,
      files: { A: 'requests/Users/_folder.yaml', B: 'requests/Shop/_folder.yaml' },
      values: { A: 'zero', B: 'shop' },
      open: async (which: 'A' | 'B') => {
        await page.getByRole('treeitem', { name: which === 'A' ? /Users/ : /Shop/ }).click({ button: 'right' });
        await page.getByRole('menuitem', { name: 'Settings…' }).click();
        return page.getByRole('dialog', { name: 'Folder settings' });
      },
      /** What the field shows, '' while the file is not read. */
      shown: async (dialog: ReturnType<Page['getByRole']>) => {
        if ((await dialog.getByRole('tab', { name: 'Headers' }).count()) === 0) return '';
        await dialog.getByRole('tab', { name: 'Headers' }).click();
        return dialog.getByLabel('Header value 1').inputValue();
      },
    },
    {
      name: 'the environment dialog',
      read: /\/api\/environment\/variables\?id=/,
      files: { A: 'environments/local.yaml', B: 'environments/stage.yaml' },
      values: { A: 'one', B: 'staged' },
      open: async (which: 'A' | 'B') => {
        await page.getByLabel('Environment', { exact: true }).selectOption(which === 'A' ? 'local' : 'stage');
        await page.getByLabel('Edit environment').click();
        return page.getByRole('dialog', { name: 'Environment' });
      },
      shown: (dialog: ReturnType<Page['getByRole']>) => dialog.getByLabel('Value 1', { exact: true }).inputValue(),
    },
    {
      name: 'the server editor',
      read: /\/api\/server\?id=/,
      files: { A: 'servers/board.yaml', B: 'servers/echo.yaml' },
      values: { A: 'board notes', B: 'echo notes' },
      open: async (which: 'A' | 'B') => {
        const servers = page.getByLabel('Servers', { exact: true });
        if ((await servers.count()) === 0) await page.getByRole('button', { name: 'Servers', exact: true }).click();
        await servers.getByRole('button', { name: which === 'A' ? 'Edit Board' : 'Edit Echo' }).click();
        return page.getByRole('dialog', { name: 'Server editor' });
      },
      shown: async (dialog: ReturnType<Page['getByRole']>) => ((await dialog.getByLabel('Docs').count()) === 0 ? '' : dialog.getByLabel('Docs').inputValue()),
    },
  ];

  for (const editor of editors) {
    it(`${editor.name}: the file changed while the first read is on its way is shown, and that older read answering last does not put back the file before the change`, async () => {
      const { A } = editor.files;
      const text = await fs.readFile(file(A), 'utf8');
      const changed = text.replace(editor.values.A, `${editor.values.A} changed`);
      // The first read reaches the server (the file as it was) and its answer is held from the page.
      const held = await holdRequest(page, editor.read, 'GET', { reachServer: true });
      const dialog = await editor.open('A');
      await held.sent;
      const from = log.mark();
      try {
        await fs.writeFile(file(A), changed);
        // The change reported and taken: the read it asked for (none on the old code) answered and drawn.
        await expect.poll(() => log.frames.slice(from.frames).some((f) => f.includes('"changed"') && f.includes(JSON.stringify(A)))).toBe(true);
        await drawn(page);
      } finally {
        held.release();
      }
      await held.answered;
      await drawn(page);
      await expect.poll(() => editor.shown(dialog)).toBe(`${editor.values.A} changed`);
      // Still so once every read asked has answered and been drawn.
      await log.answered(editor.read, from);
      expect(await editor.shown(dialog)).toBe(`${editor.values.A} changed`);
      await fs.writeFile(file(A), text);
      await expect.poll(() => editor.shown(dialog)).toBe(editor.values.A);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    });

    it(`${editor.name}: opened on A, closed, and opened on B at once, shows B's values, also when A's read answers last`, async () => {
      const held = await holdRequest(page, editor.read, 'GET', { reachServer: true });
      // The same dialog locator, on A's file, then on B's.
      const dialog = await editor.open('A');
      await held.sent;
      try {
        await page.keyboard.press('Escape');
        await expect.poll(() => dialog.count()).toBe(0);
        await editor.open('B');
        await expect.poll(() => editor.shown(dialog)).toBe(editor.values.B);
      } finally {
        held.release();
      }
      await held.answered;
      await drawn(page);
      expect(await editor.shown(dialog)).toBe(editor.values.B);
      expect(await fs.readFile(file(editor.files.B), 'utf8')).toContain(editor.values.B);
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    });
  }
  it('the load-test panel: the file changed while the first read of the load test picked is on its way is shown, that older read answering last does not put it back, and a click on the open one keeps its edit', async () => {
    const read = /\/api\/loadtest\?id=smoke$/;
    const sent: string[] = [];
    const onRequest = (r: Request) => { if (r.method() === 'GET' && read.test(r.url())) sent.push(r.url()); };
    page.on('request', onRequest);
    const held = await holdRequest(page, read, 'GET', { reachServer: true });
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Load tests' });
    const weight = panel.getByLabel('Target 1 weight');
    await panel.getByRole('listitem').filter({ hasText: 'Smoke' }).click();
    await held.sent;
    const from = log.mark();
    try {
      await fs.writeFile(file('loadtests/smoke.yaml'), SMOKE.replace('weight: 1', 'weight: 5'));
      // The change reported and taken: the read it asked for (none on the old code) is on its way.
      await expect.poll(() => log.frames.slice(from.frames).some((f) => f.includes('"changed"') && f.includes('"loadtests/smoke.yaml"'))).toBe(true);
      await drawn(page);
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    await expect.poll(() => weight.inputValue()).toBe('5');
    // Still so once every read asked has answered and been drawn.
    await log.answered(read, from);
    expect(await weight.inputValue()).toBe('5');

    // Picked again while it holds an edit: nothing is read over the edit (the panel read the file again, dropping it unasked).
    await weight.fill('6');
    const before = sent.length;
    await panel.getByRole('listitem').filter({ hasText: 'Smoke' }).click();
    await drawn(page);
    expect(sent.length).toBe(before);
    expect(await weight.inputValue()).toBe('6');
    expect(await panel.locator('summary').textContent()).toBe('Smoke loadtests/smoke.yaml · unsaved changes');
    page.off('request', onRequest);
    await panel.getByRole('button', { name: 'Revert' }).click();
    await expect.poll(() => weight.inputValue()).toBe('5');
    await page.getByLabel('Close load tests').click();
    await expect.poll(() => panel.count()).toBe(0);
    expect(await fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toBe(SMOKE.replace('weight: 1', 'weight: 5'));
  });
  it('the load-test panel: a load test picked while its file does not parse shows once the file is fixed on disk, its error gone', async () => {
    await fs.writeFile(file('loadtests/broken.yaml'), 'name: Broken\ntargets: [\n');
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Load tests' });
    const item = panel.getByRole('listitem').filter({ hasText: 'broken' });
    await expect.poll(() => item.textContent()).toContain('does not parse');
    await item.click();
    await expect.poll(() => panel.getByRole('alert').count()).toBe(1);
    expect(await panel.getByRole('alert').textContent()).toContain('loadtests/broken.yaml');
    expect(await panel.getByLabel('Load test name').count()).toBe(0);
    await fs.writeFile(file('loadtests/broken.yaml'), SMOKE.replace('Smoke', 'Fixed'));
    await expect.poll(() => panel.getByLabel('Load test name').inputValue()).toBe('Fixed');
    await expect.poll(() => panel.getByRole('alert').count()).toBe(0);
    expect(await panel.locator('summary').textContent()).toBe('Fixed loadtests/broken.yaml');
    await page.getByLabel('Close load tests').click();
    await expect.poll(() => panel.count()).toBe(0);
    await fs.rm(file('loadtests/broken.yaml'));
  });
});
