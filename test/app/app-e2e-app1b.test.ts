/**
 * `ferry app` in Chromium, the last steps of issue 19's part 1: pretty XML in the response viewer
 * (malformed XML shown as sent), OAuth 2.0 "Get token" without sending (the token server and the
 * resource server are real, on 127.0.0.1; the next send carries the token fetched), and a pasted
 * cURL command opened as a new unsaved request: sent before it is a file, written on Save.
 */
import path from 'node:path';
import http from 'node:http';
import { promises as fs } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, openAppPage } from './browser.js';
import { startAuthServer, startResourceServer, type AuthServer, type ResourceServer } from './token-servers.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** Answers XML: well-formed on /good (as `+xml`), broken on /bad; an image on /png, bytes on /bin. */
async function startXmlSite(): Promise<Listening> {
  const server = http.createServer((req, res) => {
    if (req.url === '/png') res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    else if (req.url === '/bin') res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(Buffer.from([0, 1, 2, 0xff, 0x41]));
    else if (req.url === '/good') res.writeHead(200, { 'content-type': 'application/atom+xml' }).end('<?xml version="1.0"?><feed><title>News</title><entry id="1"><t>a &amp; b</t></entry></feed>');
    else res.writeHead(200, { 'content-type': 'application/xml' }).end('<feed><title>News</feed>');
  });
  return listenLoopback(server, 'http');
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: pretty XML, get token, cURL as an unsaved request', () => {
  let ws: TempWorkspace;
  let xml: Listening;
  let auth: AuthServer;
  let resource: ResourceServer;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    xml = await startXmlSite();
    auth = await startAuthServer();
    resource = await startResourceServer();
    ws = await makeWorkspace(
      {
        'requests/Good XML.yaml': { name: 'Good XML', seq: 1, url: `${xml.url}/good` },
        'requests/Bad XML.yaml': { name: 'Bad XML', seq: 2, url: `${xml.url}/bad` },
        'requests/Image.yaml': { name: 'Image', seq: 4, url: `${xml.url}/png` },
        'requests/Bytes.yaml': { name: 'Bytes', seq: 5, url: `${xml.url}/bin` },
        'requests/Secured/_folder.yaml': { name: 'Secured', seq: 3, auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `${auth.url}/token`, clientId: 'app', clientSecret: '{{secret}}' } },
        'requests/Secured/Data.yaml': { name: 'Data', seq: 1, url: `${resource.url}/data`, auth: { type: 'inherit' } },
      },
      { variables: [{ key: 'secret', value: 'shh' }] },
    );
    ({ app, browser, page } = await openAppPage(ws));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await Promise.all([xml?.close(), auth?.close(), resource?.close()]);
    await ws?.cleanup();
  });

  it('shows XML indented, and malformed XML as it came', async () => {
    await page.getByRole('treeitem', { name: /Good XML/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    expect(await page.getByTestId('response-body').textContent()).toBe(
      ['<?xml version="1.0"?>', '<feed>', '  <title>News</title>', '  <entry id="1">', '    <t>a &amp; b</t>', '  </entry>', '</feed>'].join('\n'),
    );
    await page.getByRole('treeitem', { name: /Bad XML/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 10_000 }).toBe('<feed><title>News</feed>');
  });

  it('shows an image answer as the image and a binary one as hex, not as garbled text; a view picked is kept', async () => {
    await page.getByRole('treeitem', { name: /Image/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByRole('img', { name: 'Response body' }).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'preview' }).getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('treeitem', { name: /Bytes/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('pre.hex').textContent(), { timeout: 10_000 }).toMatch(/^00000000  00 01 02 ff 41 +\.\.\.\.A$/);
    await page.getByRole('button', { name: 'raw' }).click();
    await page.getByRole('treeitem', { name: /Good XML/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent(), { timeout: 10_000 }).toContain('<feed><title>News</title>');
    await page.getByRole('button', { name: 'pretty' }).click();
  });

  it('Get token fetches the folder\'s OAuth 2.0 token without sending; Send then carries it', async () => {
    await page.getByRole('treeitem', { name: /Secured/ }).click();
    await page.getByRole('treeitem', { name: /Data/ }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe(`${resource.url}/data`);
    await page.getByLabel('Request editor').getByRole('tab', { name: /Auth/ }).click();
    await page.getByRole('button', { name: 'Get token' }).click();
    const status = page.getByTestId('token-status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/^Token obtained \(auth of folder Secured\), expires in (59 min|1 h): … \(7 characters\)$/);
    expect(auth.grants.client_credentials).toBe(1);
    expect(resource.seen).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-get-token.png') });

    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    expect(resource.seen).toEqual(['Bearer token-1']);
    expect(auth.grants.client_credentials).toBe(1);
  });

  it('Get token shows the provider\'s refusal', async () => {
    await page.getByLabel('Request editor').getByRole('tab', { name: /Auth/ }).click();
    await page.getByLabel('Auth type').selectOption('oauth2');
    await page.getByLabel('Auth Token URL').fill(`${auth.url}/token`);
    await page.getByLabel('Auth Client ID').fill('nobody');
    await page.getByLabel('Auth Client secret').fill('wrong');
    await page.getByRole('button', { name: 'Get token' }).click();
    await expect.poll(() => page.getByTestId('token-status').textContent(), { timeout: 10_000 }).toMatch(/the provider answered 401: invalid_client/);
  });

  it('cURL "Open as new request": an unsaved tab in a folder, sent with the folder\'s auth, written on Save', async () => {
    const folder = path.join(ws.root, 'requests/Secured');
    const before = (await fs.readdir(folder)).sort();
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByLabel('Import text').fill(`curl -X POST '${resource.url}/made?x=1' -H 'X-From: curl' --data 'a=1'`);
    await page.getByLabel('Import into').selectOption('Secured');
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('1 requests');
    await page.getByRole('dialog').getByRole('button', { name: 'Open as new request' }).click();
    await expect.poll(() => page.getByTestId('unsaved-bar').textContent()).toContain('it goes into Secured');
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe(`${resource.url}/made?x=1`);
    // Editing does not write a file; sending works before saving, with the folder's OAuth 2.0 auth.
    await page.getByLabel('Request name').fill('Made by curl');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    expect(resource.paths.at(-1)).toBe('POST /made?x=1');
    expect(resource.seen.at(-1)).toBe('Bearer token-1');
    // Opening another request asks first; declined (Playwright dismisses the confirm), the unsaved request stays.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('treeitem', { name: /Good XML/ }).click();
    expect(await page.getByTestId('unsaved-bar').count()).toBe(1);
    expect(await page.getByLabel('Request name').inputValue()).toBe('Made by curl');
    await new Promise((r) => setTimeout(r, 1_000)); // longer than the editor's save delay
    expect((await fs.readdir(folder)).sort()).toEqual(before);

    await page.keyboard.press('Control+s');
    await expect.poll(() => page.getByTestId('unsaved-bar').count()).toBe(0);
    const added = (await fs.readdir(folder)).filter((f) => !before.includes(f));
    expect(added).toEqual(['Made by curl.yaml']);
    const text = await fs.readFile(path.join(folder, added[0]!), 'utf8');
    expect(text).toContain('name: Made by curl');
    expect(text).toContain('method: POST');
    expect(text).toContain('X-From');
    await expect.poll(() => page.getByRole('treeitem', { name: /Made by curl/ }).count()).toBe(1);
  });
});
