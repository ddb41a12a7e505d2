/**
 * `ferry app` in Chromium on the bundled example workspace (examples/demo, its servers on free
 * ports), used the way a new user would: start its servers from the notice, pick the
 * environment, send each kind of request, edit and undo, rename and undo, filter, the command
 * palette, run a folder and the whole workspace. And a hand-made folder beside a request of its
 * name (`requests/Users/` and `requests/Users.yaml`): each opens and runs as itself.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { browserMissing, closeAppPage, openAppPage, openWorkspacePage } from './browser.js';
import { DEMO } from '../support/demo.js';
import { freePort } from '../support/servers/index.js';
import type { TempWorkspace } from '../runner/workspace.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** A copy of examples/demo as a TempWorkspace (kept for the whole suite), its servers on free ports. */
async function demoWorkspace(): Promise<TempWorkspace> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-examples-'));
  const root = path.join(base, 'demo');
  await fs.cp(DEMO, root, { recursive: true });
  const ports = { '4010': String(await freePort()), '4011': String(await freePort()) };
  for (const file of ['ferry.yaml', 'servers/api.yaml', 'servers/events.yaml']) {
    const full = path.join(root, file);
    await fs.writeFile(full, (await fs.readFile(full, 'utf8')).replaceAll('4010', ports['4010']).replaceAll('4011', ports['4011']));
  }
  const write = async (relative: string, content: unknown) => {
    await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await fs.writeFile(path.join(root, relative), String(content));
  };
  return { root, dataDir: path.join(base, 'data'), write, cleanup: () => fs.rm(base, { recursive: true, force: true }) };
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: the example workspace as a new user meets it', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const file = (p: string) => path.join(ws.root, 'requests', p);
  const response = () => page.getByRole('region', { name: 'Response' });

  beforeAll(async () => {
    ws = await demoWorkspace();
    ({ app, browser, page } = await openAppPage(ws, { stepTimeoutMs: 30_000 }));
    await page.getByRole('treeitem', { name: /Health/ }).waitFor();
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('starts the servers from the notice, and sends each kind of request with the environment picked', async () => {
    const notice = page.getByRole('region', { name: 'Servers not started' });
    for (const name of ['Demo API', 'Demo events']) await notice.getByRole('button', { name: `Start ${name} now` }).click();
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByLabel('Environment', { exact: true }).selectOption({ label: 'Local' });
    await page.getByRole('treeitem', { name: /Users/ }).click();
    const sends: Array<[string, RegExp]> = [
      ['Health', /200 OK.*2 of 2 tests passed/],
      ['Get user', /200 OK.*3 of 3 tests passed/],
      ['Create user', /201 Created.*2 of 2 tests passed/],
      ['Events', /200 OK.*1 of 1 tests passed/],
    ];
    for (const [name, answer] of sends) {
      await page.getByRole('treeitem', { name: new RegExp(`${name}$`) }).click();
      await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(name);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await expect.poll(() => response().textContent(), { timeout: 15_000 }).toMatch(answer);
    }
  }, 90_000);

  it('edits and undoes, renames and undoes (the file follows each), filters the tree and finds a request in the palette', async () => {
    await page.getByRole('treeitem', { name: /Health/ }).click();
    const url = page.getByRole('textbox', { name: 'URL' });
    await url.click();
    await page.keyboard.press('End');
    await page.keyboard.insertText('?verbose=1');
    await expect.poll(() => fs.readFile(file('Health.yaml'), 'utf8'), { timeout: 15_000 }).toContain('/health?verbose=1');
    // The browser's undo steps are its own (a word at a time): as many as it takes, a few at most.
    for (let i = 0; i < 5 && (await url.inputValue()) !== '{{baseUrl}}/health'; i++) await page.keyboard.press('Control+z');
    expect(await url.inputValue()).toBe('{{baseUrl}}/health');
    await expect.poll(() => fs.readFile(file('Health.yaml'), 'utf8'), { timeout: 15_000 }).toContain('url: "{{baseUrl}}/health"\n');
    const name = page.getByLabel('Request name');
    await name.fill('Health check');
    await expect.poll(() => fs.readdir(path.join(ws.root, 'requests')), { timeout: 15_000 }).toContain('Health check.yaml');
    await page.keyboard.press('Control+z');
    await expect.poll(() => fs.readdir(path.join(ws.root, 'requests')), { timeout: 15_000 }).toContain('Health.yaml');
    expect(await fs.readFile(file('Health.yaml'), 'utf8')).toContain('pm.test("the service says it is up"');
    await page.getByLabel('Filter requests').fill('user');
    await expect.poll(async () => (await page.getByRole('treeitem').allTextContents()).map((t) => t.replace(/^(GET|POST|sse)\s*/, '').replace(/^[▾▸]\s*/, '').trim())).toEqual(['Users', 'Get user', 'Create user']);
    await page.getByLabel('Filter requests').fill('');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('create user');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Create user');
  }, 60_000);

  it('runs a folder and the whole workspace', async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    const runner = page.getByRole('region', { name: 'Runner' });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/^2 requests, 0 failed; 5 tests, 0 failed/);
    await runner.getByLabel('Close runner').click();
    await page.getByRole('button', { name: 'Run all' }).click();
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/^4 requests, 0 failed; 8 tests, 0 failed/);
    await runner.getByLabel('Close runner').click();
  }, 60_000);

  it('a hand-made folder beside a request of its name (Users/ and Users.yaml): each opens as itself, and Run folder runs the folder', async () => {
    await ws.write('requests/Users.yaml', `name: All users\nurl: "{{baseUrl}}/users/7"\n`);
    await expect.poll(() => page.getByRole('treeitem', { name: /All users/ }).count(), { timeout: 10_000 }).toBe(1);
    await page.getByRole('treeitem', { name: /All users/ }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'URL' }).inputValue()).toBe('{{baseUrl}}/users/7');
    await page.getByRole('treeitem', { name: /Users$/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    const runner = page.getByRole('region', { name: 'Runner' });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/^2 requests, /);
    const rows = await runner.getByRole('row').allTextContents();
    expect(rows.some((r) => r.includes('Get user')) && rows.some((r) => r.includes('Create user'))).toBe(true);
    expect(rows.some((r) => r.includes('All users'))).toBe(false);
    await runner.getByLabel('Close runner').click();
  }, 60_000);
});

describe.skipIf(missing !== undefined)('ferry app in Chromium: the protocols example\'s tree', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({}, { stepTimeoutMs: 30_000, prepare: async (ws) => {
      await fs.cp(path.join(DEMO, '..', 'protocols'), ws.root, { recursive: true });
    } }));
    await page.getByRole('treeitem', { name: /Streaming/ }).waitFor();
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it("lines up the names of a folder's requests whatever their kind (websocket, socketio, mqtt…), each badge saying its kind", async () => {
    const tree = page.getByRole('tree');
    for (const folder of ['Streaming', 'Sockets']) {
      const row = tree.getByRole('treeitem', { name: new RegExp(`${folder}$`) });
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
    }
    const row = (file: string) => tree.locator(`.row.request[data-path="${file}"]`);
    const lefts = async (files: string[]) => Promise.all(files.map(async (file) => Math.round((await row(file).locator('.label').boundingBox())!.x)));
    // Streaming/ holds a websocket, a socketio and an mqtt request; Sockets/ a udp and two tcp ones: one depth, one column.
    const streaming = await lefts(['Streaming/Chat.yaml', 'Streaming/Sum.yaml', 'Streaming/Temperature.yaml']);
    const sockets = await lefts(['Sockets/Ping.yaml', 'Sockets/Shout.yaml', 'Sockets/Shout bytes.yaml']);
    expect(new Set([...streaming, ...sockets]).size, JSON.stringify({ streaming, sockets })).toBe(1);
    expect(await row('Streaming/Sum.yaml').locator('.badge').getAttribute('title')).toBe('socketio');
    expect(await row('Streaming/Chat.yaml').locator('.badge').textContent()).toBe('ws');
  }, 60_000);
});
