/**
 * `ferry app` in Chromium: the editors that save on Save, one rule for all (save-answer.ts).
 * Save pressed again (Ctrl+S, a click) while a save is on its way sends nothing then; what was
 * typed meanwhile goes in one more save once the first has answered, on that answer's base (no
 * conflict with the app's own write), and a Save with nothing typed since sends nothing more.
 * The app's own write reported on the live channel while its answer is on its way is no change
 * on disk for the editor: it is not read while the answer is on its way (once it is in, a read
 * finds the same), no conflict bar shows, the answer wins.
 * Each PUT the page sends to the real server is counted, with what it carried; the file on disk
 * says what was written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, gotoApp, holdRequest, liveTaken, openWorkspacePage, type LiveTaken, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** One editor: how to open it, the field typed in, and where its PUT, its reads and its file are. */
interface Editor {
  name: string;
  file: string;
  put: RegExp;
  /** Its read of the file (on open, and again when the file changes on disk). */
  get: RegExp;
  values: [string, string, string];
  open(page: Page): Promise<Locator>;
  field(within: Locator): Locator;
  save(within: Locator): Locator;
  onDisk(text: string): unknown;
  carried(body: unknown): unknown;
  /** Nothing left unsaved, after the last save answered. */
  settled(page: Page, within: Locator): Promise<void>;
}

const editors: Editor[] = [
  {
    name: 'the server editor',
    file: 'servers/board.yaml',
    put: /\/api\/server$/,
    get: /\/api\/server\?id=/,
    values: ['one', 'one, two', 'one, two, three'],
    open: async (page) => {
      await page.getByRole('button', { name: 'Servers', exact: true }).click();
      await page.getByLabel('Servers', { exact: true }).getByRole('button', { name: 'Edit Board' }).click();
      const editor = page.getByRole('dialog', { name: 'Server editor' });
      await expect.poll(() => editor.getByLabel('websocket section (YAML)').textContent()).toContain('mode: manual');
      return editor;
    },
    field: (editor) => editor.getByLabel('Docs'),
    save: (editor) => editor.getByRole('button', { name: 'Save' }),
    onDisk: (text) => (parse(text) as { docs?: string }).docs,
    carried: (body) => (body as { server: { docs?: string } }).server.docs,
    settled: async (page, editor) => {
      await expect.poll(() => editor.getByRole('status').first().textContent()).toBe('Saved servers/board.yaml.');
      await editor.locator('footer').getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Server editor' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Servers', exact: true }).click();
    },
  },
  {
    name: 'the load-test panel',
    file: 'loadtests/soak.yaml',
    put: /\/api\/loadtest$/,
    get: /\/api\/loadtest\?id=/,
    values: ['3', '4', '5'],
    open: async (page) => {
      const panel = page.getByRole('region', { name: 'Load tests' });
      await page.getByRole('button', { name: 'Load tests', exact: true }).click();
      await panel.getByRole('listitem').filter({ hasText: 'Soak' }).click();
      await expect.poll(() => panel.getByLabel('Load test name').inputValue()).toBe('Soak');
      return panel;
    },
    field: (panel) => panel.getByLabel('Stage 1 target'),
    save: (panel) => panel.getByRole('button', { name: 'Save', exact: true }),
    onDisk: (text) => String((parse(text) as { stages: { target: number }[] }).stages[0]!.target),
    carried: (body) => String((body as { loadTest: { stages: { target: number }[] } }).loadTest.stages[0]!.target),
    settled: async (page, panel) => {
      await expect.poll(() => panel.textContent()).not.toContain('unsaved changes');
      await page.getByLabel('Close load tests').click();
    },
  },
  {
    name: 'the environment dialog',
    file: 'environments/local.yaml',
    put: /\/api\/environment\/variables$/,
    get: /\/api\/environment\/variables\?/,
    values: ['two', 'three', 'four'],
    open: async (page) => {
      await page.getByLabel('Environment', { exact: true }).selectOption('local');
      await page.getByLabel('Edit environment').click();
      const dialog = page.getByRole('dialog', { name: 'Environment' });
      await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Local');
      return dialog;
    },
    field: (dialog) => dialog.getByLabel('Value 1', { exact: true }),
    save: (dialog) => dialog.getByRole('button', { name: 'Save' }),
    onDisk: (text) => (parse(text) as { variables: { value: string }[] }).variables[0]!.value,
    carried: (body) => (body as { variables: { value: string }[] }).variables[0]!.value,
    settled: async (page) => { await expect.poll(() => page.getByRole('dialog').count()).toBe(0); },
  },
  {
    name: 'folder settings',
    file: 'requests/Users/_folder.yaml',
    put: /\/api\/folder\/settings$/,
    get: /\/api\/folder\/settings\?/,
    values: ['one', 'two', 'three'],
    open: async (page) => {
      await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Settings…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Folder settings' });
      await dialog.getByRole('tab', { name: 'Headers' }).click();
      await expect.poll(() => dialog.getByLabel('Header value 1').inputValue()).toBe('zero');
      return dialog;
    },
    field: (dialog) => dialog.getByLabel('Header value 1'),
    save: (dialog) => dialog.getByRole('button', { name: 'Save' }),
    onDisk: (text) => (parse(text) as { headers: { value: string }[] }).headers[0]!.value,
    carried: (body) => (body as { settings: { headers: { value: string }[] } }).settings.headers[0]!.value,
    settled: async (page) => { await expect.poll(() => page.getByRole('dialog').count()).toBe(0); },
  },
];

describe.skipIf(missing !== undefined)('ferry app in Chromium: Save pressed again while a save is on its way', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The live channel's messages the page has handled. */
  let live: LiveTaken;
  let log: PageLog;
  /** The page's requests, in order: method, URL, body. */
  const requests: { method: string; url: string; body: string | null }[] = [];
  /** The answers to its PUTs, in order. */
  const answers: { url: string; status: number }[] = [];
  const read = (p: string) => fs.readFile(path.join(ws.root, p), 'utf8');

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Users/_folder.yaml': { name: 'Users', headers: [{ key: 'X-Team', value: 'zero' }] },
      'requests/Users/Who.yaml': { name: 'Who', url: 'http://127.0.0.1:9/who' },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] },
      'servers/board.yaml': 'name: Board\nkind: websocket\nwebsocket:\n  mode: manual\n',
      'loadtests/soak.yaml': 'name: Soak\ntargets:\n  - request: Plain.yaml\n    weight: 1\nstages:\n  - { durationSecs: 6, target: 2 }\n',
    }, { viewport: { width: 1400, height: 1000 }, goto: false, log: true }));
    live = await liveTaken(page);
    page.on('request', (r) => requests.push({ method: r.method(), url: r.url(), body: r.postData() }));
    page.on('response', (r) => { if (r.request().method() === 'PUT') answers.push({ url: r.url(), status: r.status() }); });
    await gotoApp(page, app);
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  for (const editor of editors) {
    it(`${editor.name}: Save, its own write reported while the answer is held, typing, Ctrl+S and Save again: one more PUT, of the last text, no conflict`, async () => {
      const within = await editor.open(page);
      const field = editor.field(within);
      const [first, between, last] = editor.values;
      const from = requests.length;
      const answersFrom = answers.length;
      const liveFrom = await live.count();
      const mark = log.mark();
      await field.fill(first);
      // The first save reaches the server (the file is written); its answer is held from the page.
      const held = await holdRequest(page, editor.put, 'PUT', { reachServer: true });
      await editor.save(within).click();
      await held.sent;
      expect(editor.onDisk(await read(editor.file))).toBe(first);
      // The watcher reports the app's own write to the page while the answer is still held, and the
      // page has taken the report (a read of the file it made the editor ask would have left by now).
      await live.since(liveFrom, ['"changed"', editor.file]);
      await field.fill(between);
      await field.press('ControlOrMeta+s');
      await field.fill(last);
      await editor.save(within).click();
      // Neither Save sent anything yet, the file was not read again, and no conflict is shown.
      const sentMeanwhile = requests.slice(from).filter((r) => editor.put.test(r.url) || editor.get.test(r.url));
      expect(sentMeanwhile.map((r) => (r.method === 'PUT' ? `PUT ${editor.carried(JSON.parse(r.body!))}` : `${r.method} ${r.url}`))).toEqual([`PUT ${first}`]);
      expect(await within.getByRole('group', { name: 'Changed on disk' }).count()).toBe(0);
      held.release();
      await expect.poll(async () => editor.onDisk(await read(editor.file))).toBe(last);
      // The file holds it before the page has the answer: the first one's "Saved" is shown already,
      // and closing before the second's answer is taken would ask about edits not saved.
      await log.answered(editor.put, mark);
      await editor.settled(page, within);
      // Polled: Playwright's request and response events reach the test after the app's server (in
      // this process) may already have written the file.
      const puts = () => requests.slice(from).filter((r) => r.method === 'PUT' && editor.put.test(r.url));
      await expect.poll(() => puts().map((r) => editor.carried(JSON.parse(r.body!)))).toEqual([first, last]);
      await expect.poll(() => answers.slice(answersFrom).filter((a) => editor.put.test(a.url)).map((a) => a.status)).toEqual([200, 200]);
    });
  }

  it('the server editor: Save twice with nothing typed between sends one PUT; the next edit is the next PUT', async () => {
    const editor = editors[0]!;
    const within = await editor.open(page);
    const from = requests.length;
    await editor.field(within).fill('once');
    const held = await holdRequest(page, editor.put, 'PUT');
    await editor.save(within).click();
    await held.sent;
    await editor.save(within).click();
    held.release();
    await held.answered;
    await expect.poll(() => within.getByRole('status').first().textContent()).toBe('Saved servers/board.yaml.');
    await editor.field(within).fill('once more');
    await editor.save(within).click();
    await expect.poll(async () => editor.onDisk(await read(editor.file))).toBe('once more');
    // PUTs leave the page in order: nothing between the first and the edit after it.
    await expect.poll(() => requests.slice(from).filter((r) => r.method === 'PUT' && editor.put.test(r.url)).map((r) => editor.carried(JSON.parse(r.body!)))).toEqual(['once', 'once more']);
    await editor.settled(page, within);
  });

  it('Application settings: Enter, then typing, Enter and Tab before the answer: one more PUT, of the last text; Enter then Tab alone: one PUT', async () => {
    await page.getByRole('button', { name: 'Application settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Application settings' });
    const timeout = dialog.getByLabel('timeoutMs', { exact: true });
    await expect.poll(() => timeout.inputValue()).toBe('30000');
    const stored = () => page.evaluate(async () => ((await (await fetch('/api/app-settings')).json()) as { settings: { key: string; text: string }[] }).settings.find((s) => s.key === 'timeoutMs')?.text);
    const sentTexts = (from: number) => requests.slice(from).filter((r) => r.method === 'PUT' && /\/api\/app-settings$/.test(r.url)).map((r) => (JSON.parse(r.body!) as { text: string }).text);

    let from = requests.length;
    await timeout.fill('1500');
    let held = await holdRequest(page, /\/api\/app-settings$/, 'PUT');
    await timeout.press('Enter');
    await held.sent;
    await timeout.press('End');
    await timeout.press('0');
    await timeout.press('Enter');
    await timeout.press('Tab');
    expect(sentTexts(from)).toEqual(['1500']);
    held.release();
    await expect.poll(stored).toBe('15000');
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('timeoutMs saved.');
    expect(await timeout.inputValue()).toBe('15000');
    expect(sentTexts(from)).toEqual(['1500', '15000']);

    from = requests.length;
    await timeout.fill('2000');
    held = await holdRequest(page, /\/api\/app-settings$/, 'PUT');
    await timeout.press('Enter');
    await held.sent;
    await timeout.press('Tab');
    held.release();
    await held.answered;
    await timeout.fill('2100');
    await timeout.press('Enter');
    await expect.poll(stored).toBe('2100');
    // PUTs leave the page in order: nothing between the first and the edit after it.
    expect(sentTexts(from)).toEqual(['2000', '2100']);
    await dialog.getByRole('row', { name: /timeoutMs/ }).getByRole('button', { name: 'Use the default' }).click();
    await expect.poll(stored).toBe('30000');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
