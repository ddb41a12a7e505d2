/**
 * `ferry app` in Chromium, the panels beyond the request editor: servers with live traffic, SSE
 * events as they arrive, the cookie jar, folder rename and reorder, the runner's data file and
 * JUnit export, the command palette. Each step checks the files on disk (or the real servers) as
 * well as the page.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { listenLoopback } from '../support/servers/listen.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** Sets a cookie on `/login`, echoes the Cookie header and the query elsewhere. */
function startSite(): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/login')) res.setHeader('set-cookie', 'sid=abc123; Path=/; HttpOnly');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url, cookie: req.headers.cookie ?? '' }));
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, close }));
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: panels', () => {
  let ws: TempWorkspace;
  let site: Awaited<ReturnType<typeof startSite>>;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const file = (p: string) => path.join(ws.root, p);

  beforeAll(async () => {
    site = await startSite();
    ({ ws, app, browser, page } = await openWorkspacePage({
      'servers/mock.yaml': { name: 'Mock API', http: { routes: [{ name: 'Hello', method: 'GET', path: '/hello', body: '{"hi": true}' }] } },
      'servers/events.yaml': { name: 'Events', kind: 'sse', sse: { intervalMs: 1000, events: [{ event: 'a', data: 'one' }, { event: 'b', data: 'two' }, { event: 'c', data: 'three' }] } },
      'requests/Login.yaml': { name: 'Login', seq: 1, url: '{{base}}/login' },
      'requests/Shop/_folder.yaml': { name: 'Shop', seq: 2 },
      'requests/Shop/First.yaml': { name: 'First', seq: 1, url: '{{base}}/first?user={{user}}' },
      'requests/Shop/Second.yaml': { name: 'Second', seq: 2, url: '{{base}}/second' },
      'requests/Shop/Third.yaml': { name: 'Third', seq: 3, url: '{{base}}/third' },
    }, { workspace: { variables: [{ key: 'base', value: site.base }] }, context: { acceptDownloads: true } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await site?.close();
  });

  it('servers panel: lists the servers, starts one, shows its traffic live, stops it', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const panel = page.getByLabel('Servers', { exact: true });
    await expect.poll(() => panel.getByLabel('Server list').textContent()).toContain('Mock API');
    await panel.getByRole('button', { name: 'Start Mock API' }).click();
    // A start on a loaded machine can take longer than a step's 8 s: up to 30 s.
    const url = await waitFor('the server URL', async () => (await page.getByTestId('server-url-mock').textContent()) || undefined, 30_000);
    expect(await (await fetch(`${url}/hello`)).json()).toEqual({ hi: true });
    await expect.poll(() => panel.getByRole('table', { name: 'Traffic' }).textContent()).toContain('GET /hello');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-servers-light.png') });
    await panel.getByRole('button', { name: 'Stop Mock API' }).click();
    await expect.poll(() => panel.getByRole('button', { name: 'Start Mock API' }).count()).toBe(1);
    await expect(fetch(`${url}/hello`)).rejects.toThrow();
  });

  it('SSE request: the events show while the stream is still being read', async () => {
    const panel = page.getByLabel('Servers', { exact: true });
    await panel.getByRole('button', { name: 'Start Events' }).click();
    const url = await waitFor('the events URL', async () => (await page.getByTestId('server-url-events').textContent()) || undefined, 30_000);
    await ws.write('requests/Stream.yaml', { name: 'Stream', kind: 'sse', seq: 9, url: `${url}/`, settings: { stream: { maxEvents: 3, timeoutMs: 10000 } } });
    await page.getByRole('treeitem', { name: /Stream/ }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe(`${url}/`);
    await page.getByRole('button', { name: 'Send' }).click();
    // While sending: the first event is listed before the last one has been sent (every 1 s, so a
    // loaded machine still looks within the 2 s between them). One read for both: a second read
    // was a moment later, when the last one could have come.
    await expect.poll(async () => {
      const shown = (await page.getByLabel('Response').textContent()) ?? '';
      return /Sending….*one/s.test(shown) && !shown.includes('three');
    }).toBe(true);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    await page.getByLabel('Response').getByRole('tab', { name: /^Events/ }).click();
    await expect.poll(() => page.getByLabel('Response').getByRole('list', { name: 'Events' }).textContent()).toMatch(/a.*one.*b.*two.*c.*three/s);
    await panel.getByRole('button', { name: 'Stop Events' }).click();
    await page.getByLabel('Close servers').click();
  });

  it('cookies: the jar lists what a send stored; deleting one means the next send does not carry it', async () => {
    await page.getByRole('treeitem', { name: /Login/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    await page.getByRole('button', { name: 'Cookies', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Cookies' });
    await expect.poll(() => dialog.getByRole('table', { name: 'Cookie jar' }).textContent()).toContain('sid');
    expect(await dialog.textContent()).toContain('abc123');
    await dialog.getByRole('button', { name: 'Delete cookie sid' }).click();
    await expect.poll(() => dialog.textContent()).toContain('No cookies');
    await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
    await page.getByRole('treeitem', { name: /Shop/ }).click();
    await page.getByRole('treeitem', { name: /Second/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 10_000 }).toContain('"url": "/second"');
    expect(await page.getByTestId('response-body').textContent()).toContain('"cookie": ""');
  });

  it('renames a folder from its menu and reorders by drag and drop (files and seq on disk)', async () => {
    page.once('dialog', (d) => void d.accept('Store'));
    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await expect.poll(() => fs.readFile(file('requests/Store/_folder.yaml'), 'utf8').catch(() => '')).toContain('name: Store');
    await expect(fs.access(file('requests/Shop'))).rejects.toThrow();
    await expect.poll(() => page.getByRole('treeitem', { name: /Store/ }).count()).toBe(1);
    if ((await page.getByRole('treeitem', { name: /Third/ }).count()) === 0) await page.getByRole('treeitem', { name: /Store/ }).click();
    // The open request (Second) followed its folder.
    await expect.poll(() => page.getByRole('treeitem', { selected: true }).textContent()).toContain('Second');
    await page.getByRole('treeitem', { name: /Third/ }).dragTo(page.getByRole('treeitem', { name: /First/ }));
    // The siblings are written one after another: wait for the last of them.
    const seqs = async () => Promise.all(['Third', 'First', 'Second'].map(async (n) => /seq: (\d+)/.exec(await fs.readFile(file(`requests/Store/${n}.yaml`), 'utf8'))?.[1]));
    await expect.poll(seqs).toEqual(['1', '2', '3']);
    // The tree is read again after the writes (the place call's answer, then the watcher): it follows them.
    const order = async () => (await page.getByRole('treeitem').allTextContents()).map((r) => r.trim()).filter((r) => /First|Second|Third/.test(r)).map((n) => n.replace(/^GET\s*/, ''));
    await expect.poll(order).toEqual(['Third', 'First', 'Second']);
  });

  it('runs a folder with a CSV data file (one iteration per row) and exports JUnit', async () => {
    await page.getByRole('treeitem', { name: /Store/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    const runner = page.getByRole('region', { name: 'Runner' });
    await runner.getByLabel('Data file').setInputFiles({ name: 'users.csv', mimeType: 'text/csv', buffer: Buffer.from('user\nada\ngrace\n') });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/6 requests, 0 failed/);
    const [download] = await Promise.all([page.waitForEvent('download'), runner.getByRole('button', { name: 'Export JUnit' }).click()]);
    expect(download.suggestedFilename()).toBe('ferry-run.xml');
    const xml = await fs.readFile(await download.path(), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(6);
    await runner.getByLabel('Data file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"no": 1}') });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runner.textContent()).toMatch(/bad\.json must hold a JSON array/);
    // With the live panel (an SSE request), the servers panel and the runner open below them, the editor and the answer keep their room.
    await page.getByRole('treeitem', { name: /Stream/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Stream');
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await expect.poll(() => page.getByLabel('Servers', { exact: true }).getByRole('table', { name: 'Traffic' }).count()).toBe(1);
    const work = (await page.locator('main.work').boundingBox())!;
    const answer = (await page.getByRole('region', { name: 'Response' }).boundingBox())!; // as tall as the editor's column
    expect(answer.height).toBeGreaterThanOrEqual(work.height * 0.39);
    await page.getByLabel('Close servers').click();
    await runner.getByLabel('Close runner').click();
  });
});
