/**
 * `ferry app` in Chromium, the last steps of issue 19's part 1: pretty XML in the response viewer
 * (malformed XML shown as sent), OAuth 2.0 "Get token" without sending (the token server and the
 * resource server are real, on 127.0.0.1; the next send carries the token fetched), and a pasted
 * cURL command opened as a new unsaved request: sent before it is a file, written on Save. The
 * authorization code grant, with and without PKCE, end to end: Get token (and Send) open the
 * provider's sign-in page in a window (a real authorization server of this file on 127.0.0.1),
 * Allow sends the browser back to Ferry's loopback redirect, the token comes back; a redirect with
 * another state is ignored, Deny shows the provider's error, Cancel stops waiting.
 */
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { listenLoopback, type Listening } from '../support/servers/listen.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage, responseText, savesDone } from './browser.js';
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

interface SignInServer extends Listening {
  /** The query of each /authorize visit. */
  authorizations: URLSearchParams[];
  /** The form of each /token request. */
  exchanges: URLSearchParams[];
}

/**
 * An authorization server with a sign-in page: /authorize shows Allow (back to `redirect_uri`
 * with a one-time code and the state) and Deny (back with `access_denied`); /token exchanges a
 * code for `signed-in-N`, checking the redirect URI and, when a challenge was sent, the PKCE
 * verifier (S256); a code asked for without one must come without a verifier.
 */
async function startSignInServer(): Promise<SignInServer> {
  const codes = new Map<string, { challenge: string | null; redirectUri: string }>();
  const authorizations: URLSearchParams[] = [];
  const exchanges: URLSearchParams[] = [];
  let issued = 0;
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' }).end(JSON.stringify(body));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/authorize') {
      const q = url.searchParams;
      authorizations.push(q);
      if (q.get('response_type') !== 'code' || q.get('client_id') !== 'spa') return json(res, 400, { error: 'invalid_request' });
      const code = randomBytes(8).toString('hex');
      codes.set(code, { challenge: q.get('code_challenge_method') === 'S256' ? q.get('code_challenge') : null, redirectUri: q.get('redirect_uri')! });
      const allow = new URL(q.get('redirect_uri')!);
      allow.search = new URLSearchParams({ code, state: q.get('state') ?? '' }).toString();
      const deny = new URL(q.get('redirect_uri')!);
      deny.search = new URLSearchParams({ error: 'access_denied', error_description: 'the user said no', state: q.get('state') ?? '' }).toString();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>Sign in</title><h1>Sign in to Example</h1><a href="${allow.href}">Allow</a> <a href="${deny.href}">Deny</a>`);
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/token') return json(res, 404, { error: 'not_found' });
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const p = new URLSearchParams(raw);
      exchanges.push(p);
      const entry = codes.get(p.get('code') ?? '');
      codes.delete(p.get('code') ?? '');
      if (p.get('grant_type') !== 'authorization_code' || p.get('client_id') !== 'spa' || !entry || entry.redirectUri !== p.get('redirect_uri')) return json(res, 400, { error: 'invalid_grant', error_description: 'bad code' });
      const verifier = p.get('code_verifier');
      if (entry.challenge ? createHash('sha256').update(verifier ?? '').digest('base64url') !== entry.challenge : verifier !== null) return json(res, 400, { error: 'invalid_grant', error_description: 'PKCE verification failed' });
      issued++;
      json(res, 200, { access_token: `signed-in-${issued}`, token_type: 'Bearer', expires_in: 3600 });
    });
  });
  const listening = await listenLoopback(server, 'http');
  return { ...listening, authorizations, exchanges };
}

/** A port free now on 127.0.0.1 (for a loopback redirect URI). */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: pretty XML, get token, cURL as an unsaved request', () => {
  let ws: TempWorkspace;
  let xml: Listening;
  let auth: AuthServer;
  let resource: ResourceServer;
  let signIn: SignInServer;
  let redirectUri: string;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    xml = await startXmlSite();
    auth = await startAuthServer();
    resource = await startResourceServer();
    signIn = await startSignInServer();
    redirectUri = `http://127.0.0.1:${await freePort()}/callback`;
    const code = { type: 'oauth2', grantType: 'authorizationCode', authUrl: `${signIn.url}/authorize`, tokenUrl: `${signIn.url}/token`, clientId: 'spa', redirectUri, scope: 'profile' };
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Good XML.yaml': { name: 'Good XML', seq: 1, url: `${xml.url}/good` },
      'requests/Bad XML.yaml': { name: 'Bad XML', seq: 2, url: `${xml.url}/bad` },
      'requests/Image.yaml': { name: 'Image', seq: 4, url: `${xml.url}/png` },
      'requests/Bytes.yaml': { name: 'Bytes', seq: 5, url: `${xml.url}/bin` },
      'requests/Secured/_folder.yaml': { name: 'Secured', seq: 3, auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `${auth.url}/token`, clientId: 'app', clientSecret: '{{secret}}' } },
      'requests/Secured/Data.yaml': { name: 'Data', seq: 1, url: `${resource.url}/data`, auth: { type: 'inherit' } },
      'requests/Sign-in/_folder.yaml': { name: 'Sign-in', seq: 6 },
      'requests/Sign-in/PKCE.yaml': { name: 'PKCE', seq: 1, url: `${resource.url}/pkce`, auth: { ...code, pkce: true } },
      'requests/Sign-in/Plain code.yaml': { name: 'Plain code', seq: 2, url: `${resource.url}/plain`, auth: { ...code, pkce: false, scope: 'plain' } },
      'requests/Sign-in/In a run.yaml': { name: 'In a run', seq: 3, url: `${resource.url}/in-run`, auth: { ...code, scope: 'run' } },
    }, { workspace: { variables: [{ key: 'secret', value: 'shh' }] } }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await Promise.all([xml?.close(), auth?.close(), resource?.close(), signIn?.close()]);
  });

  it('shows XML indented, and malformed XML as it came', async () => {
    await page.getByRole('treeitem', { name: /Good XML/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    await expect.poll(() => responseText(page)).toBe(
      ['<?xml version="1.0"?>', '<feed>', '  <title>News</title>', '  <entry id="1">', '    <t>a &amp; b</t>', '  </entry>', '</feed>'].join('\n'),
    );
    await page.getByRole('treeitem', { name: /Bad XML/ }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => responseText(page), { timeout: 10_000 }).toBe('<feed><title>News</feed>');
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
    // The server's record first: the 200 shown may still be the answer shown before (Good XML's).
    await expect.poll(() => resource.seen, { timeout: 10_000 }).toEqual(['Bearer token-1']);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
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

  /** Opens `name` under Sign-in on its Auth tab. */
  const openSignInRequest = async (name: string) => {
    const item = page.getByRole('treeitem', { name: new RegExp(name) });
    if (!(await item.isVisible())) await page.getByRole('treeitem', { name: /Sign-in/ }).click();
    await item.click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(name);
    await page.getByLabel('Request editor').getByRole('tab', { name: /Auth/ }).click();
  };

  it('authorization code with PKCE: Get token opens the sign-in page, a forged redirect is ignored, Allow gives the token; Send carries it', async () => {
    await openSignInRequest('PKCE');
    const [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 10_000 }), page.getByRole('button', { name: 'Get token' }).click()]);
    await popup.waitForLoadState();
    expect(await popup.locator('h1').textContent()).toBe('Sign in to Example');
    const asked = signIn.authorizations.at(-1)!;
    expect(asked.get('code_challenge_method')).toBe('S256');
    expect(asked.get('redirect_uri')).toBe(redirectUri);
    expect(asked.get('scope')).toBe('profile');
    // The page says what it waits for, links the sign-in page, and can cancel.
    await expect.poll(() => page.getByTestId('token-sign-in').textContent()).toMatch(/^Sign in in the window that opened/);
    expect(await page.getByRole('link', { name: 'Open the sign-in page' }).getAttribute('href')).toBe(popup.url());
    expect(await page.getByRole('button', { name: 'Getting token…' }).isDisabled()).toBe(true);

    // Another page reaching the loopback address with a state Ferry did not send ends nothing.
    const forged = await page.context().newPage();
    await forged.goto(`${redirectUri}?code=forged&state=not-the-one`);
    expect(await forged.locator('p').textContent()).toMatch(/^This is not the authorization Ferry is waiting for/);
    await forged.close();
    expect(await page.getByTestId('token-sign-in').count()).toBe(1);
    expect(signIn.exchanges).toHaveLength(0);

    await popup.getByRole('link', { name: 'Allow' }).click();
    await expect.poll(() => popup.locator('p').textContent()).toBe('Ferry got the authorization. You can close this window.');
    await expect.poll(() => page.getByTestId('token-status').textContent(), { timeout: 10_000 }).toMatch(/^Token obtained, expires in (59 min|1 h): … \(11 characters\)$/);
    await expect.poll(() => page.getByTestId('token-sign-in').count()).toBe(0);
    expect(signIn.exchanges.at(-1)?.get('code_verifier')).toMatch(/^[\w-]{43,}$/);
    await popup.close();

    const sends = resource.seen.length;
    await page.getByRole('button', { name: 'Send' }).click();
    // The server's record of this send: the 200 shown may still be an earlier answer.
    await expect.poll(() => resource.seen.slice(sends), { timeout: 10_000 }).toEqual(['Bearer signed-in-1']);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    expect(signIn.exchanges).toHaveLength(1);
  });

  it('authorization code without PKCE: Deny shows the provider\'s error; Cancel stops waiting and frees the redirect port; Send signs in too', async () => {
    await openSignInRequest('Plain code');
    let [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 10_000 }), page.getByRole('button', { name: 'Get token' }).click()]);
    // The window opens before its page has asked the sign-in server: polled.
    await expect.poll(() => signIn.authorizations.at(-1)?.get('code_challenge')).toBeNull();
    await popup.getByRole('link', { name: 'Deny' }).click();
    await expect.poll(() => popup.locator('p').textContent()).toMatch(/^The authorization was not given/);
    await expect.poll(() => page.getByTestId('token-status').textContent(), { timeout: 10_000 })
      .toBe(`requests/Sign-in/Plain code.yaml: OAuth 2.0 (authorizationCode) token request to ${signIn.url}/token failed: authorization was refused: access_denied (the user said no)`);
    await popup.close();

    [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 10_000 }), page.getByRole('button', { name: 'Get token' }).click()]);
    await page.getByRole('button', { name: 'Cancel Get token' }).click();
    await expect.poll(() => page.getByTestId('token-status').textContent()).toBe('Cancelled: no token was fetched.');
    // The loopback listener is gone: the sign-in page's Allow now reaches nothing.
    await expect.poll(async () => fetch(`${redirectUri}?code=x&state=y`).then(() => 'listening', () => 'closed')).toBe('closed');
    await popup.close();

    // Send needs the token: it opens the sign-in page itself and goes on once the browser is back.
    const sends = resource.paths.length;
    [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 10_000 }), page.getByRole('button', { name: 'Send' }).click()]);
    await expect.poll(() => page.getByText(/^OAuth 2\.0: sign in in the window that opened/).count()).toBe(1);
    await popup.getByRole('link', { name: 'Allow' }).click();
    // The server's record of this send: the 200 shown may still be an earlier answer.
    await expect.poll(() => resource.paths.slice(sends), { timeout: 10_000 }).toEqual(['GET /plain']);
    expect(resource.seen.at(-1)).toBe('Bearer signed-in-2');
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    await expect.poll(() => page.getByText(/^OAuth 2\.0: sign in in the window that opened/).count()).toBe(0);
    expect(signIn.exchanges.at(-1)?.get('code_verifier')).toBeNull();
    await popup.close();
  });

  it('a run of the folder signs in too: the request that needs a token opens the sign-in page, and the run goes on', async () => {
    await page.getByRole('treeitem', { name: /Sign-in/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    const [popup] = await Promise.all([page.waitForEvent('popup', { timeout: 10_000 }), page.getByLabel('Runner').getByRole('button', { name: 'Run', exact: true }).click()]);
    await expect.poll(() => signIn.authorizations.at(-1)?.get('scope')).toBe('run');
    await expect.poll(() => page.getByText(/^OAuth 2\.0: sign in in the window that opened/).count()).toBe(1);
    await popup.getByRole('link', { name: 'Allow' }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/^3 requests, 0 failed/);
    expect(resource.paths.slice(-3)).toEqual(['GET /pkce', 'GET /plain', 'GET /in-run']);
    expect(resource.seen.at(-1)).toBe('Bearer signed-in-3');
    await expect.poll(() => page.getByText(/^OAuth 2\.0: sign in in the window that opened/).count()).toBe(0);
    await popup.close();
    await page.getByRole('button', { name: 'Close runner' }).click();
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
    const sends = resource.paths.length;
    await page.getByRole('button', { name: 'Send' }).click();
    // The server's record of this send: the 200 shown may still be an earlier answer.
    await expect.poll(() => resource.paths.slice(sends), { timeout: 10_000 }).toEqual(['POST /made?x=1']);
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toContain('200');
    expect(resource.seen.at(-1)).toBe('Bearer token-1');
    // Opening another request asks first; declined (Playwright dismisses the confirm), the unsaved request stays.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('treeitem', { name: /Good XML/ }).click();
    expect(await page.getByTestId('unsaved-bar').count()).toBe(1);
    expect(await page.getByLabel('Request name').inputValue()).toBe('Made by curl');
    await savesDone(page); // an edit that would write the file has written it by now
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

  it("an auth type left in one request's editor does not come back in another's", async () => {
    await openSignInRequest('PKCE');
    await page.getByLabel('Auth type').selectOption('none');
    await page.getByRole('treeitem', { name: /Image/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Image');
    await page.getByLabel('Request editor').getByRole('tab', { name: /Auth/ }).click();
    await page.getByLabel('Auth type').selectOption('oauth2');
    // The defaults, not the PKCE request's sign-in settings.
    await expect.poll(() => page.getByLabel('Auth Grant type').inputValue()).toBe('clientCredentials');
    await expect.poll(() => page.getByLabel('Auth Client ID').inputValue()).toBe('');
  });
});
