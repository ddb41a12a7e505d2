/**
 * `ferry app` in Chromium, the body editor (spec 2.5): XML and HTML bodies highlighted with
 * the mode code-modes.ts loads when first shown (not with the page), and a binary body's
 * Content-Type set from its pane, saved to the request file and sent with the file's bytes to a
 * real server on 127.0.0.1.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { browserMissing, closeAppPage, openWorkspacePage, showTheme, waitForFile, type PageLog } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { defineContrast, lowContrast } from '../support/contrast.js';
import { listenLoopback } from '../support/servers/listen.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** Answers what it got: the Content-Type and the body's bytes as hex. */
function startEcho(): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ contentType: req.headers['content-type'] ?? null, hex: Buffer.concat(chunks).toString('hex') }));
    });
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, close }));
}


const BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x10]);

describe.skipIf(missing !== undefined)('ferry app in Chromium: the body editor', () => {
  let ws: TempWorkspace;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The page's log from before its first load: which script chunks (editors, modes) it has fetched. */
  let log: PageLog;
  const request = (name: string) => path.join(ws.root, 'requests', name);

  beforeAll(async () => {
    echo = await startEcho();
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Order.yaml': { name: 'Order', seq: 1, method: 'POST', url: `${echo.base}/orders`, body: { type: 'xml', text: '<?xml version="1.0"?>\n<order id="7">\n  <!-- one item -->\n  <item sku="{{sku}}">Tea</item>\n</order>' } },
      'requests/Page.yaml': { name: 'Page', seq: 2, method: 'POST', url: `${echo.base}/pages`, body: { type: 'text', contentType: 'text/html; charset=utf-8', text: '<!doctype html>\n<html><body class="x"><h1>Hi</h1></body></html>' } },
      'requests/Note.yaml': { name: 'Note', seq: 3, method: 'POST', url: `${echo.base}/notes`, body: { type: 'text', text: '<order> is plain text here' } },
      'requests/Upload.yaml': { name: 'Upload', seq: 4, method: 'PUT', url: `${echo.base}/files`, body: { type: 'binary', file: 'files/logo.png' } },
    }, { stepTimeoutMs: 20_000, log: true, prepare: async (ws) => {
      await fs.mkdir(path.join(ws.root, 'files'));
      await fs.writeFile(path.join(ws.root, 'files/logo.png'), BYTES);
    } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await echo?.close();
  });

  const open = async (name: string) => {
    await page.getByRole('treeitem', { name: new RegExp(`${name}$`) }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(name);
  };
  const bodyTab = () => page.getByRole('tablist', { name: 'Parts of the request' }).getByRole('tab', { name: /^Body/ }).click();
  /** A token of the body editor drawn as its own span (highlighted), by its exact text. */
  const token = (text: string) => page.locator('.code-editor[data-label="Body"] .cm-line span', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  /** The token's colour and its line's (plain text) colour. */
  const colours = (text: string) => token(text).first().evaluate((span) => [getComputedStyle(span).color, getComputedStyle(span.closest('.cm-line')!).color]);
  const send = async () => {
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 15_000 }).toContain('200');
  };
  /**
   * What the echo server got, as the page shows it. Read in a poll after `send`: the previous
   * send's 200 is still on the page until "Sending…" replaces it, so the status alone does not
   * say the body shown is this send's.
   */
  const got = async () => JSON.parse(await page.getByTestId('response-body').textContent() ?? '') as { contentType: string | null; hex: string };

  it('highlights an XML body with the XML mode, which the page\'s first load does not carry', async () => {
    await open('Order');
    // The page opens on Params: no editor and no mode fetched yet.
    expect(log.chunks().length).toBeGreaterThan(0);
    expect(['xml', 'CodeEditor'].filter(log.fetched)).toEqual([]);
    await bodyTab();
    await expect.poll(() => token('item').count()).toBeGreaterThan(0);
    expect(log.fetched('xml')).toBe(true);
    // Element names, attribute names, their values and the comment each in another colour than plain text.
    for (const text of ['order', 'sku', '"7"', '<!-- one item -->']) {
      const [own, line] = await colours(text);
      expect(own, text).not.toBe(line);
    }
    // Element and attribute names differ from each other; {{variables}} stay marked inside a value.
    expect((await colours('order'))[0]).not.toBe((await colours('sku'))[0]);
    expect(await page.locator('.code-editor[data-label="Body"] .cm-variable').allTextContents()).toEqual(['{{sku}}']);
    // Readable in both themes (4.5:1, as the Copy as code view's tokens), the {{variable}} mark
    // too: its text on its tint (a color-mix() of the accent) laid over the editor's background.
    await page.evaluate(defineContrast);
    const low: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      // The tint is measured, not skipped: the mark's background is not the line's.
      const [mark, line] = await page.locator('.code-editor[data-label="Body"] .cm-variable').evaluate((v) => [window.ferryContrast.behind(v), window.ferryContrast.behind(v.closest('.cm-line'))]);
      expect(mark, theme).not.toBe(line);
      low.push(...await lowContrast(page.locator('.code-editor[data-label="Body"] .cm-line span'), theme));
    }
    expect(low).toEqual([]);
    await showTheme(page, 'light');
  });

  it('highlights a text body by its Content-Type: HTML as HTML, text/plain as plain text', async () => {
    await open('Page');
    await bodyTab();
    await expect.poll(() => token('h1').count()).toBe(2);
    const [own, line] = await colours('h1');
    expect(own).not.toBe(line);
    expect((await colours('class'))[0]).not.toBe(line);
    await open('Note');
    await bodyTab();
    await expect.poll(() => page.locator('.code-editor[data-label="Body"] .cm-line').first().textContent()).toBe('<order> is plain text here');
    await expect.poll(() => token('order').count()).toBe(0);
    // Switched to application/xml, the same text is XML.
    await page.getByLabel('Content type', { exact: true }).fill('application/xml');
    await expect.poll(() => token('order').count()).toBe(1);
    await waitForFile(request('Note.yaml'), (t) => t.includes('contentType: application/xml'));
  });

  it('sets a binary body\'s Content-Type from its pane: saved as body.contentType and sent with the file', async () => {
    await open('Upload');
    await bodyTab();
    const field = page.getByLabel('File content type');
    // None chosen: the file goes out as application/octet-stream, as the placeholder says.
    expect(await field.inputValue()).toBe('');
    expect(await field.getAttribute('placeholder')).toBe('application/octet-stream (default)');
    await send();
    await expect.poll(got).toEqual({ contentType: 'application/octet-stream', hex: BYTES.toString('hex') });
    // Common types are offered.
    expect(await page.locator('#body-file-types option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toContain('image/png');

    await field.fill('image/png');
    const saved = await waitForFile(request('Upload.yaml'), (t) => t.includes('contentType'));
    // The spec's field names, in its order (type, contentType, file).
    expect(saved).toContain('body:\n  type: binary\n  contentType: image/png\n  file: files/logo.png\n');
    await send();
    await expect.poll(got).toEqual({ contentType: 'image/png', hex: BYTES.toString('hex') });

    // text/plain is the field's default: kept in the field while typed, with what to do instead.
    await field.fill('text/plain');
    expect(await field.inputValue()).toBe('text/plain');
    await expect.poll(() => page.getByTestId('binary-text-plain').textContent()).toContain('add a Content-Type header row');
    await waitForFile(request('Upload.yaml'), (t) => !t.includes('contentType'));

    // Emptied: the default again, nothing in the file.
    await field.fill('');
    await expect.poll(() => page.getByTestId('binary-text-plain').count()).toBe(0);
    expect(await fs.readFile(request('Upload.yaml'), 'utf8')).not.toContain('contentType');
    await send();
    await expect.poll(async () => (await got()).contentType).toBe('application/octet-stream');

    // A Content-Type header row wins over the body's type: the pane says so.
    await field.fill('application/pdf');
    await page.getByRole('tablist', { name: 'Parts of the request' }).getByRole('tab', { name: /^Headers/ }).click();
    await page.getByLabel('Header key 1').fill('Content-Type');
    await page.getByLabel('Header value 1').fill('text/plain');
    await bodyTab();
    await expect.poll(() => page.getByTestId('body-type-header').textContent()).toContain('text/plain');
    await send();
    await expect.poll(got).toEqual({ contentType: 'text/plain', hex: BYTES.toString('hex') });
    await waitForFile(request('Upload.yaml'), (t) => t.includes('contentType: application/pdf') && t.includes('key: Content-Type'));
  });
});
