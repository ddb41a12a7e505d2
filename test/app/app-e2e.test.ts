/**
 * `ferry app` end to end in a real browser: Debian's Chromium driven by playwright-core against
 * the app server on a temporary workspace and a local HTTP server. Each step checks the files on
 * disk as well as the page. Screenshots (light and dark) go to test-artifacts/app/.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';

import { ARTIFACTS, browserMissing, closeAppPage, gotoApp, holdRequest, openWorkspacePage, savesDone, waitForFile, WEB_ROOT, type PageLog } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { listenLoopback } from '../support/servers/listen.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/**
 * Echoes method, URL, headers and body as JSON, with `n`, the request's number (1 for the first):
 * an answer on the page is told from the one before of the same request by it. `/users/42`
 * answers a user. `received`: each request's headers, in order.
 */
function startEcho(): Promise<{ base: string; received: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const received: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/users/42') res.end(JSON.stringify({ id: 42, name: 'Ada' }));
      else res.end(JSON.stringify({ n: received.push(req.headers), method: req.method, url: req.url, headers: req.headers, body }));
    });
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, received, close }));
}

describe.skipIf(missing !== undefined)('ferry app in Chromium', () => {
  let ws: TempWorkspace;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  const req = (p: string) => path.join(ws.root, 'requests', p);

  beforeAll(async () => {
    echo = await startEcho();
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'greeting', value: 'hello-local' }] },
      'environments/staging.yaml': { name: 'Staging', variables: [{ key: 'greeting', value: 'hello-staging' }] },
      'requests/Users/Get user.yaml': {
        name: 'Get user', url: '{{base}}/users/42',
        scripts: { postResponse: "pm.test('is Ada', () => pm.expect(pm.response.json().name).to.eql('Ada'));" },
      },
    }, { workspace: { variables: [{ key: 'base', value: echo.base }] }, viewport: { width: 1400, height: 860 }, stepTimeoutMs: 30_000, goto: false, log: true, onDialog: (d) => void d.accept(d.type() === 'prompt' ? 'Archive' : undefined) }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await echo?.close();
  });

  it('opens from the printed URL: the token becomes a cookie and leaves the address bar', async () => {
    await gotoApp(page, app);
    expect(new URL(page.url()).search).toBe('');
    // The start screen offers the import dialog (spec 4.1), into the workspace root.
    await page.getByRole('main').getByRole('button', { name: 'Import…' }).click();
    await expect.poll(() => page.getByLabel('Import into').inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await page.getByRole('treeitem', { name: /Users/ }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: /Get user/ }).count()).toBe(1);
  });

  it('creates a request and edits name, method, URL, headers, body and tests: each saved to its file', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
    await page.getByRole('button', { name: 'New request' }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('New request');
    await waitForFile(req('New request.yaml'), (t) => t.includes('name: New request'));

    await page.getByLabel('Request name').fill('Echo');
    await page.getByLabel('Method').selectOption('POST');
    await page.getByLabel('URL').fill('{{base}}/echo?x=1');
    await page.getByRole('tab', { name: /Headers/ }).click();
    await page.getByLabel('Header key 1').fill('X-Test');
    await page.getByLabel('Header value 1').fill('{{greeting}}');
    // {{base}} (the workspace's) and {{greeting}} (Local's) are defined; a name neither has is pointed out.
    await expect.poll(() => page.getByTestId('undefined-variables').count()).toBe(0);
    await page.getByLabel('URL').fill('{{base}}/echo?x={{nope}}&t={{$timestamp}}');
    await expect.poll(() => page.getByTestId('undefined-variables').textContent()).toBe('Not defined in the workspace or the active environment: {{nope}}. Sent as written unless a script or a data file sets it.');
    await page.getByLabel('URL').fill('{{base}}/echo?x=1');
    await expect.poll(() => page.getByTestId('undefined-variables').count()).toBe(0);
    await page.getByRole('tab', { name: /Body/ }).click();
    await page.getByLabel('Body type').selectOption('json');
    await page.locator('[aria-label="Body"]').click();
    await page.keyboard.insertText('{"hello": "world"}');
    await page.getByRole('tab', { name: /Scripts/ }).click();
    await page.locator('[aria-label="Post-response script"]').click();
    await page.keyboard.insertText("pm.test('echoes the greeting', () => pm.expect(pm.response.json().headers['x-test']).to.eql('hello-local'));");

    const text = await waitForFile(req('Echo.yaml'), (t) => t.includes('postResponse') && t.includes('X-Test') && t.includes('hello'));
    expect((await fs.readdir(path.join(ws.root, 'requests'))).sort()).toEqual(['Echo.yaml', 'Users']);
    expect(text).toContain('method: POST');
    expect(text).toContain('url: "{{base}}/echo?x=1"');
    await expect(fs.access(req('New request.yaml'))).rejects.toThrow();
  });

  it('sends with Ctrl+Enter and shows status, body and tests', async () => {
    // Pressed in the script editor (the step before typed there): it sends, and edits nothing.
    const before = await fs.readFile(req('Echo.yaml'), 'utf8');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 15_000 }).toContain('200');
    // A blank line typed by the key would be saved by now.
    await savesDone(page);
    expect(await fs.readFile(req('Echo.yaml'), 'utf8')).toBe(before);
    // The body is drawn once the viewer has the answer (its highlighter loads lazily).
    const body = () => page.getByTestId('response-body').textContent();
    await expect.poll(body).toContain('\\"hello\\": \\"world\\"');
    await expect.poll(body).toContain('"x-test": "hello-local"');
    await page.getByLabel('Response').getByRole('tab', { name: /^Tests/ }).click();
    await expect.poll(() => page.getByLabel('Test results').textContent()).toContain('PASS echoes the greeting');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-light.png') });
  });

  it('switches environments: the next send uses the other one', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('staging');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Response').getByRole('tab', { name: /^Tests/ }).click();
    await expect.poll(() => page.getByLabel('Test results').textContent(), { timeout: 15_000 }).toContain('FAIL echoes the greeting');
    await page.getByLabel('Response').getByRole('tab', { name: /^Body/ }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent()).toContain('hello-staging');
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
  });

  // Right after the switch back to Local (the step before): the editor must open Local, not the
  // environment the last workspace read reported (it did, and Save wrote staging.yaml).
  it('edits environment variables; a secret value goes to this computer, never to the workspace', async () => {
    await page.getByLabel('Edit environment').click();
    await page.getByLabel('Variable 2').fill('token');
    await page.getByLabel('Secret 2').check();
    await page.getByRole('dialog').getByLabel('Value 2', { exact: true }).fill('s3cr3t-value-42');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    const file = await waitForFile(path.join(ws.root, 'environments/local.yaml'), (t) => t.includes('token'));
    expect(file).toContain('secret: true');
    const everything = await Promise.all((await fs.readdir(ws.root, { recursive: true })).map((f) => fs.readFile(path.join(ws.root, f), 'utf8').catch(() => '')));
    expect(everything.join('\n')).not.toContain('s3cr3t-value-42');
    // The value is used by sends, and the editor shows it only as stored.
    await page.getByLabel('Request editor').getByRole('tab', { name: /Headers/ }).click();
    await page.getByLabel('Header key 2').fill('X-Token');
    await page.getByLabel('Header value 2').fill('{{token}}');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Response').getByRole('tab', { name: /^Body/ }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 15_000 }).toContain('"x-token": "s3cr3t-value-42"');
    await page.getByLabel('Edit environment').click();
    await expect.poll(() => page.getByRole('dialog').getByLabel('Value 2', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => page.getByRole('dialog').getByLabel('Value 2', { exact: true }).getAttribute('placeholder')).toMatch(/stored on this computer/);
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await waitForFile(req('Echo.yaml'), (t) => t.includes('X-Token'));
  });

  it('adds an environment as a copy, renames it (file and secret value follow), deletes it', async () => {
    await page.getByRole('button', { name: 'New environment' }).click();
    await page.getByLabel('New environment name').fill('QA');
    await page.getByLabel('Copy of').selectOption('local');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    const qa = await waitForFile(path.join(ws.root, 'environments/QA.yaml'), (t) => t.includes('token'));
    expect(qa).toMatch(/^name: QA\n/);
    // The new one is active and open in the editor.
    await expect.poll(() => page.getByRole('combobox', { name: 'Environment', exact: true }).inputValue()).toBe('QA');
    await expect.poll(() => page.getByLabel('Environment name').inputValue()).toBe('QA');
    await page.getByLabel('Environment name').fill('QA EU');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await waitForFile(path.join(ws.root, 'environments/QA EU.yaml'), (t) => t.startsWith('name: QA EU\n'));
    await expect.poll(() => fs.access(path.join(ws.root, 'environments/QA.yaml')).then(() => 'there', () => 'gone')).toBe('gone');
    await expect.poll(() => page.getByRole('combobox', { name: 'Environment', exact: true }).inputValue()).toBe('QA EU');
    // The copied secret value moved with the rename: the send still carries it. The answer shown
    // (the step before's) carries it too: this send's is the one with the echo's next number.
    const n = echo.received.length + 1;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Response').getByRole('tab', { name: /^Body/ }).click();
    const body = () => page.getByTestId('response-body').textContent();
    await expect.poll(body, { timeout: 15_000 }).toContain(`"n": ${n},`);
    expect(await body()).toContain('"x-token": "s3cr3t-value-42"');
    expect(echo.received[n - 1]?.['x-token']).toBe('s3cr3t-value-42');
    await page.getByLabel('Edit environment').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete environment…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: /Delete “QA EU” and its secret values/ }).click();
    await expect.poll(() => fs.access(path.join(ws.root, 'environments/QA EU.yaml')).then(() => 'there', () => 'gone')).toBe('gone');
    await expect.poll(() => page.getByRole('combobox', { name: 'Environment', exact: true }).inputValue()).toBe('');
    await page.getByRole('combobox', { name: 'Environment', exact: true }).selectOption('local');
  });

  it('shows an edit made on disk by another program', async () => {
    const file = req('Echo.yaml');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('/echo?x=1', '/echo?x=2'));
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('{{base}}/echo?x=2');
  });

  it('never overwrites an edit made on disk just before a save, nor drops yours: the conflict keeps both until you choose', async () => {
    const file = req('Echo.yaml');
    const text = await fs.readFile(file, 'utf8');
    await page.getByLabel('URL').fill('{{base}}/echo?x=mine');
    const from = log.mark();
    await fs.writeFile(file, text.replace('/echo?x=2', '/echo?x=theirs'));
    await page.keyboard.press('Control+s'); // before the file watcher reports theirs
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'changed on disk' }).count()).toBe(1);
    // The watcher's report of theirs, and the editor's read of the file it brings, taken: mine stays.
    await log.changeTaken('requests/Echo.yaml', /\/api\/request\?path=Echo\.yaml$/, from);
    expect(await page.getByLabel('URL').inputValue()).toBe('{{base}}/echo?x=mine');
    expect(await fs.readFile(file, 'utf8')).toContain('/echo?x=theirs');
    await page.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await waitForFile(file, (t) => t.includes('/echo?x=mine'));
    await page.getByLabel('URL').fill('{{base}}/echo?x=2');
    await waitForFile(file, (t) => t.includes('/echo?x=2'));
  });

  it("Take the file's version: the editor shows the file's request, your edit is dropped and not written back", async () => {
    const file = req('Echo.yaml');
    const text = await waitForFile(file, (t) => t.includes('/echo?x=2'));
    await page.getByLabel('URL').fill('{{base}}/echo?x=dropped');
    await fs.writeFile(file, text.replace('/echo?x=2', '/echo?x=theirs'));
    await page.keyboard.press('Control+s'); // before the file watcher reports theirs
    const bar = page.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.getByRole('alert').textContent()).toBe('This request changed on disk while you were editing it.');
    await bar.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('{{base}}/echo?x=theirs');
    await expect.poll(() => bar.count()).toBe(0);
    await savesDone(page); // nothing of the dropped edit is written
    expect(await fs.readFile(file, 'utf8')).toContain('/echo?x=theirs');
    // The next edit saves over the file's version without a conflict.
    await page.getByLabel('URL').fill('{{base}}/echo?x=2');
    await waitForFile(file, (t) => t.includes('/echo?x=2'));
    expect(await bar.count()).toBe(0);
  });

  it('copies the request as code', async () => {
    await page.getByRole('button', { name: 'Copy as code' }).click();
    await expect.poll(() => page.getByTestId('code').textContent()).toContain('/echo?x=2');
    expect(await page.getByTestId('code').textContent()).toMatch(/curl/);
    await page.getByLabel('Search languages').fill('python');
    // One entry per language; its library is chosen above the code (spec 4.7).
    await page.getByRole('option', { name: 'Python' }).click();
    await page.getByRole('radio', { name: 'requests' }).check();
    await expect.poll(() => page.getByTestId('code').textContent()).toContain('import requests');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-code-light.png') });
    // The search matches the platform too (spec 4.7): it matched language and library only.
    const search = page.getByLabel('Search languages');
    const languages = page.getByRole('listbox', { name: 'Languages' });
    const options = () => languages.getByRole('option').allTextContents();
    await search.fill('android');
    await expect.poll(options).toEqual(['Kotlin OkHttp 4']);
    await search.fill('flutter');
    await expect.poll(options).toEqual(['Dart http']);
    await languages.getByRole('option', { name: /Dart/ }).click();
    await expect.poll(() => page.getByTestId('code').textContent()).toContain("import 'package:http/http.dart'");
    // Moving fast with the arrow keys: the code is the last choice's, not a late answer's.
    await search.fill('');
    const from = log.mark();
    // The first choice's code answers last: held until the last choice's is shown.
    const first = await holdRequest(page, /\/api\/export$/, 'POST');
    for (let i = 0; i < 5; i++) await search.press('ArrowUp');
    await first.sent;
    await expect.poll(() => languages.getByRole('option', { selected: true }).textContent()).toMatch(/^Swift/);
    await expect.poll(() => page.getByTestId('code').textContent()).toContain('import Foundation');
    first.release();
    // Every choice's code answered and drawn, the first's too: shown, it would be there now.
    await log.answered(/\/api\/export$/, from);
    expect(await page.getByTestId('code').textContent()).toContain('import Foundation');
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('imports a cURL command: previewed, opened as a new unsaved request, written on Save', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('Import text').fill(`curl -X PUT ${echo.base}/things/7 -H 'X-From: curl' --json '{"a":1}'`);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('1 requests');
    const before = await fs.readdir(path.join(ws.root, 'requests'));
    await page.getByRole('dialog').getByRole('button', { name: 'Open as new request' }).click();
    await expect.poll(() => page.getByTestId('unsaved-bar').count()).toBe(1);
    expect(await fs.readdir(path.join(ws.root, 'requests'))).toEqual(before);
    // Copy as code works on it before it is a file (it said there was no such request).
    await page.getByRole('button', { name: 'Copy as code' }).click();
    await expect.poll(() => page.getByTestId('code').textContent()).toContain('/things/7');
    expect(await page.getByTestId('code').textContent()).toContain('X-From');
    await page.getByRole('button', { name: 'Close' }).click();
    await page.getByTestId('unsaved-bar').getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('unsaved-bar').count()).toBe(0);
    const added = (await fs.readdir(path.join(ws.root, 'requests'))).filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    const text = await fs.readFile(req(added[0]!), 'utf8');
    expect(text).toContain('X-From');
    expect(text).toContain('method: PUT');
  });

  it('moves a request into a folder by drag and drop (the file moves)', async () => {
    await page.getByRole('treeitem', { name: /Echo/ }).dragTo(page.getByRole('treeitem', { name: /Users/ }));
    await expect.poll(() => fs.access(req('Users/Echo.yaml')).then(() => true, () => false), { timeout: 15_000 }).toBe(true);
    await expect(fs.access(req('Echo.yaml'))).rejects.toThrow();
  });

  it('runs a folder with live progress and a summary', async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    await page.getByLabel('Runner').getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/2 requests, 0 failed; 2 tests, 0 failed/);
    await expect.poll(() => page.getByLabel('Run results').locator('tbody tr').count()).toBe(2);
  });

  it('has a dark theme', async () => {
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    // Shot with this send's answer (Echo's earlier 200 may be shown at first): the echo's next number.
    const n = echo.received.length + 1;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByLabel('Response').getByRole('tab', { name: /^Body/ }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 15_000 }).toContain(`"n": ${n},`);
    expect(await page.getByTestId('status').textContent()).toContain('200');
    await page.getByLabel('Toggle theme').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-dark.png') });
    await page.getByLabel('Toggle theme').click();
  });

  it('Send right after picking another request sends the one picked, not the one still shown while it opens', async () => {
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Echo');
    // The picked request's file is slow to arrive (a large file, a busy disk).
    await page.route(/\/api\/request\?path=Users%2FGet%20user\.yaml/, async (route) => {
      await new Promise((r) => setTimeout(r, 700));
      await route.continue();
    });
    try {
      if ((await page.getByRole('treeitem', { name: /Get user/ }).count()) === 0) await page.getByRole('treeitem', { name: /Users/ }).click();
      await page.getByRole('treeitem', { name: /Get user/ }).click();
      await page.keyboard.press('Control+Enter');
      await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 15_000 }).toContain('200');
      await page.getByLabel('Response').getByRole('tab', { name: /^Body/ }).click();
      await expect.poll(() => page.getByTestId('response-body').textContent()).toContain('"name": "Ada"');
      await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Get user');
    } finally {
      await page.unroute(/\/api\/request\?path=Users%2FGet%20user\.yaml/);
    }
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    // Echo's earlier answer may be shown again with it: this send's has the echo's next number.
    const n = echo.received.length + 1;
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 15_000 }).toContain(`"n": ${n},`);
    expect(await page.getByTestId('response-body').textContent()).toContain('"url": "/echo?x=');
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Echo');
  });

  it('moves between the request\'s and the answer\'s tabs with the arrow keys, Home and End; each row is one Tab stop', async () => {
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('role') === 'tab' ? document.activeElement.textContent : null);
    for (const [name, first] of [['Parts of the request', 'Params'], ['Parts of the answer', 'Body']] as const) {
      const list = page.getByRole('tablist', { name });
      const names = (await list.getByRole('tab').allTextContents()).map((t) => t.replace(/\s*\d+$/, ''));
      await list.getByRole('tab', { name: new RegExp(`^${first}`) }).click();
      const selected = async () => (await list.getByRole('tab', { selected: true }).textContent())!.replace(/\s*\d+$/, '');
      // One Tab stop: the chosen tab. (Polled: each key's selection is drawn after its event.)
      await expect.poll(() => list.locator('[role="tab"][tabindex="0"]').count()).toBe(1);
      const at = names.indexOf(first);
      await page.keyboard.press('ArrowRight');
      await expect.poll(selected).toBe(names[at + 1]);
      await expect.poll(focused).toMatch(new RegExp(`^${names[at + 1]}`));
      await page.keyboard.press('End');
      await expect.poll(selected).toBe(names.at(-1));
      await page.keyboard.press('ArrowRight'); // wraps
      await expect.poll(selected).toBe(names[0]);
      await page.keyboard.press('ArrowLeft');
      await expect.poll(selected).toBe(names.at(-1));
      await page.keyboard.press('Home');
      await expect.poll(selected).toBe(names[0]);
      await expect.poll(focused).toMatch(new RegExp(`^${names[0]}`));
    }
    await page.getByRole('tablist', { name: 'Parts of the request' }).getByRole('tab', { name: /^Params/ }).click();
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Body/ }).click();
  });

  it('resizes the sidebar by mouse and keyboard between its bounds; width, theme and the open request are kept on this computer for the next start (a new port), not in the workspace', async () => {
    const filesOf = async () => {
      const names = (await fs.readdir(ws.root, { recursive: true })).sort();
      return Promise.all(names.map(async (n) => [n, await fs.readFile(path.join(ws.root, n), 'utf8').catch(() => 'a folder')]));
    };
    const before = await filesOf();
    const splitter = page.getByRole('separator', { name: 'Sidebar width' });
    const sidebar = page.getByRole('complementary', { name: 'Requests' });
    const shown = async () => [await splitter.getAttribute('aria-valuenow'), Math.round((await sidebar.boundingBox())!.width)];
    expect(await shown()).toEqual(['280', 280]);
    expect(await splitter.getAttribute('aria-controls')).toBe(await sidebar.getAttribute('id'));
    expect([await splitter.getAttribute('aria-valuemin'), await splitter.getAttribute('aria-valuemax')]).toEqual(['200', '640']);

    // The mouse: dragged 120 px to the right, then past the left edge (it stops at 200).
    const grab = async () => {
      const box = (await splitter.boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + 300 };
    };
    let at = await grab();
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x + 120, at.y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(shown).toEqual(['400', 400]);
    at = await grab();
    await page.mouse.move(at.x, at.y);
    await page.mouse.down();
    await page.mouse.move(at.x - 500, at.y, { steps: 4 });
    await page.mouse.up();
    await expect.poll(shown).toEqual(['200', 200]);

    // The keyboard: in the Tab order; arrows by 16 px (Shift: 64), End and Home to the bounds.
    expect(await splitter.getAttribute('tabindex')).toBe('0');
    await splitter.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(shown).toEqual(['232', 232]);
    await page.keyboard.press('End');
    await expect.poll(shown).toEqual(['640', 640]);
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(shown).toEqual(['312', 312]);
    // A narrow window keeps room for the editor: the sidebar narrows with it, the width kept stays.
    await page.setViewportSize({ width: 700, height: 860 });
    await expect.poll(() => splitter.getAttribute('aria-valuemax')).toBe('280');
    await expect.poll(shown).toEqual(['280', 280]);
    await page.setViewportSize({ width: 1400, height: 860 });
    await expect.poll(() => shown()).toEqual(['312', 312]);

    await page.getByLabel('Toggle theme').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    const kept = path.join(ws.dataDir, 'app-view.json');
    await expect.poll(() => fs.readFile(kept, 'utf8').then((t) => JSON.parse(t) as unknown, () => null)).toEqual({ sidebarWidth: 312, theme: 'dark' });

    // The next start of the app takes another port (another origin, whose storage the page starts empty): both are there.
    const next = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: WEB_ROOT });
    const other = await page.context().newPage();
    try {
      expect(next.port).not.toBe(app.port);
      await gotoApp(other, next);
      const otherSplitter = other.getByRole('separator', { name: 'Sidebar width' });
      await expect.poll(() => otherSplitter.getAttribute('aria-valuenow')).toBe('312');
      await expect.poll(async () => Math.round((await other.getByRole('complementary', { name: 'Requests' }).boundingBox())!.width)).toBe(312);
      await expect.poll(() => other.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      // The request open when the app stopped opens again.
      await expect.poll(() => other.getByLabel('Request name').inputValue()).toBe(await page.getByLabel('Request name').inputValue());
    } finally {
      await other.close();
      await next.close();
    }
    // Nothing of it is in the workspace.
    expect(await filesOf()).toEqual(before);
    await page.getByLabel('Toggle theme').click();
    await splitter.dblclick();
    await expect.poll(shown).toEqual(['280', 280]);
    await expect.poll(() => fs.readFile(kept, 'utf8').then((t) => JSON.parse(t) as unknown)).toEqual({ sidebarWidth: 280, theme: 'light' });
  });

  it('keeps a request deleted on disk as unsaved (Save writes it again); deleting its folder from the menu closes it, writing nothing back', async () => {
    await page.getByRole('treeitem', { name: /Echo/ }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toContain('/echo');
    await fs.rm(req('Users/Echo.yaml'));
    await expect.poll(() => page.getByTestId('unsaved-bar').textContent()).toContain('deleted or moved outside the app');
    await page.getByLabel('URL').fill(`{{base}}/echo?kept=1`);
    await savesDone(page); // an edit alone must not write it back
    await expect(fs.access(req('Users/Echo.yaml'))).rejects.toThrow();
    await page.keyboard.press('Control+s');
    expect(await waitForFile(req('Users/Echo.yaml'), (t) => t.includes('kept=1'))).toContain('name: Echo');
    await expect.poll(() => page.getByTestId('unsaved-bar').count()).toBe(0);

    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect.poll(() => page.getByText('Pick a request in the sidebar').count()).toBe(1);
    // Opening another request (the one cURL's import wrote) writes what the editor had not saved yet
    // first, as Copy as code does: once it shows, nothing is left to write into the folder.
    const [other] = (await fs.readdir(path.join(ws.root, 'requests'))).filter((f) => f.endsWith('.yaml'));
    const otherName = (parse(await fs.readFile(req(other!), 'utf8')) as { name: string }).name;
    await page.getByRole('treeitem', { name: otherName }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(otherName);
    await expect(fs.access(req('Users'))).rejects.toThrow();
  });

  it('asks before a reload would lose an edit not saved yet, and the edit reaches the file', async () => {
    await page.getByRole('button', { name: 'New request' }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('New request');
    await page.getByLabel('URL').fill('{{base}}/typed-just-before-reload');
    const leaving = page.waitForEvent('dialog');
    await page.reload(); // within the save delay
    expect((await leaving).type()).toBe('beforeunload');
    expect(await waitForFile(req('New request.yaml'), (t) => t.includes('typed-just-before-reload'))).toContain('name: New request');
  });

  it('says an empty name is not saved, and stops saying so once a good name is saved', async () => {
    // The reloaded page has the edit saved while it was leaving (the file's version, taken from disk).
    await expect.poll(() => page.getByLabel('URL').inputValue()).toContain('typed-just-before-reload');
    await page.getByLabel('Request name').fill('');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Not saved: A name cannot be empty; give a name of 1 to 200 characters.' }).count()).toBe(1);
    await page.getByLabel('Request name').fill('Named again');
    await waitForFile(req('Named again.yaml'), (t) => t.includes('name: Named again'));
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Not saved' }).count()).toBe(0);
  });

  it('a notice closes from the keyboard too: its × is a button', async () => {
    await page.getByLabel('Request name').fill('');
    const notice = page.getByRole('alert').filter({ hasText: 'Not saved: A name cannot be empty; give a name of 1 to 200 characters.' });
    await expect.poll(() => notice.count()).toBe(1);
    const close = notice.getByRole('button', { name: 'Close the notice' });
    await close.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => notice.count()).toBe(0);
    await page.getByLabel('Request name').fill('Named again');
    await waitForFile(req('Named again.yaml'), (t) => t.includes('name: Named again'));
  });

  it('a damaged state.json set aside while the page is open is said in its notice: which file, where it went, what is lost', async () => {
    const { workspaceDataDir } = await import('../../src/appdata/index.js');
    const dir = workspaceDataDir(app.state.workspace.id, app.state.workspace.root);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'state.json'), '{"activeEnvironment": "sta');
    // Choosing an environment writes state.json: the damaged one is set aside first.
    await page.getByLabel('Environment', { exact: true }).selectOption('staging');
    const notice = page.getByRole('alert').filter({ hasText: /^state\.json in the data folder could not be read \(.+\); it was moved to .+state\.json\.damaged-\d+, and the active environment .+ are lost/ });
    await expect.poll(() => notice.count()).toBe(1);
    await notice.getByRole('button', { name: 'Close the notice' }).click();
    await expect.poll(() => notice.count()).toBe(0);
  });
});
