/**
 * The app server's guard at the HTTP level (issue 19): no token, a foreign Host or a foreign
 * Origin is refused with 403 on the API and the live channel; the printed URL's token becomes an
 * HttpOnly SameSite=Strict cookie; no CORS; not reachable on a non-loopback address.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import os from 'node:os';
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CookieJar } from 'tough-cookie';
import WebSocket from 'ws';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { initWorkspace, openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { browserMissing, ensureBuiltUi, launchBrowser, WEB_ROOT } from './browser.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function liveStatus(port: number, headers: Record<string, string>): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/live`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

describe('ferry app: the guard', () => {
  let app: AppServer;
  let cookie: string;

  beforeEach(async () => {
    await isolatedDataDir();
    const root = await initWorkspace(await tempDir(), 'Guarded');
    app = await startAppServer({ workspace: await openWorkspace(root), webRoot: await tempDir() });
    const exchange = await request(app.port, `/?token=${app.token}`);
    cookie = String(exchange.headers['set-cookie']?.[0] ?? '').split(';')[0]!;
  });

  afterEach(async () => {
    await app.close();
  });

  it('listens on 127.0.0.1 only, with the token in the printed URL', () => {
    expect(app.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${app.port}/\\?token=[A-Za-z0-9_-]{40,}$`));
  });

  it('exchanges the token for an HttpOnly SameSite=Strict cookie, then serves the API', async () => {
    const exchange = await request(app.port, `/?token=${app.token}`);
    // A page of its own that goes on to `/` (not a redirect: see the Chromium test below).
    expect(exchange.status).toBe(200);
    expect(exchange.body).toContain("<script>location.replace('/')</script>");
    expect(exchange.body).toContain('<noscript><meta http-equiv="refresh" content="0;url=/"></noscript>');
    // That one script only: its hash, nothing else allowed.
    expect(exchange.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]+=*'; frame-ancestors 'none'$/);
    expect(exchange.headers['referrer-policy']).toBe('no-referrer');
    expect(exchange.headers['cache-control']).toBe('no-store');
    const setCookie = String(exchange.headers['set-cookie']?.[0]);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    const ok = await request(app.port, '/api/workspace', { cookie });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body).name).toBe('Guarded');
    expect(ok.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('two apps open at once keep their sessions: browsers send 127.0.0.1\'s cookies to every port, so one cookie name would be overwritten', async () => {
    const other = await startAppServer({ workspace: await openWorkspace(await initWorkspace(await tempDir(), 'Other')), webRoot: await tempDir() });
    try {
      // A browser's jar: cookies are kept by host, path and name, never by port (RFC 6265, 8.5).
      const jar = new CookieJar();
      for (const server of [app, other]) {
        const origin = `http://127.0.0.1:${server.port}/`;
        const exchange = await request(server.port, `/?token=${server.token}`);
        for (const line of exchange.headers['set-cookie'] ?? []) await jar.setCookie(line, origin);
      }
      for (const [server, name] of [[app, 'Guarded'], [other, 'Other']] as const) {
        const sent = await jar.getCookieString(`http://127.0.0.1:${server.port}/api/workspace`);
        const answer = await request(server.port, '/api/workspace', { cookie: sent });
        expect(answer.status, name).toBe(200);
        expect(JSON.parse(answer.body).name).toBe(name);
      }
    } finally {
      await other.close();
    }
  });

  it('refuses a wrong token, and every API call without the cookie (403)', async () => {
    expect((await request(app.port, '/?token=nope')).status).toBe(403);
    expect((await request(app.port, '/api/workspace')).status).toBe(403);
    expect((await request(app.port, '/api/workspace', { cookie: `ferry_session=guess; ferry_session_${app.port}=guess` })).status).toBe(403);
    expect((await request(app.port, '/api/send', { 'content-type': 'application/json' }, 'POST', '{"path":"x"}')).status).toBe(403);
    expect((await request(app.port, '/api/server-kinds')).status).toBe(403);
    expect((await request(app.port, '/')).status).toBe(403);
  });

  it('refuses a foreign Host, even with the cookie (DNS rebinding)', async () => {
    for (const host of ['evil.example', `evil.example:${app.port}`, '127.0.0.1', `127.0.0.1:${app.port + 1}`]) {
      expect((await request(app.port, '/api/workspace', { cookie, host })).status, host).toBe(403);
      expect((await request(app.port, '/api/server-kinds', { cookie, host })).status, host).toBe(403);
    }
    expect((await request(app.port, '/api/workspace', { cookie, host: `localhost:${app.port}` })).status).toBe(200);
    expect((await request(app.port, `/?token=${app.token}`, { host: 'evil.example' })).status).toBe(403);
  });

  it('refuses a foreign Origin, even with the cookie; no CORS headers', async () => {
    for (const origin of ['http://evil.example', `http://127.0.0.1:${app.port + 1}`, 'null', `https://127.0.0.1:${app.port}`]) {
      const answer = await request(app.port, '/api/workspace', { cookie, origin });
      expect(answer.status, origin).toBe(403);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect((await request(app.port, '/api/server-kinds', { cookie, origin })).status, origin).toBe(403);
    }
    const preflight = await request(app.port, '/api/request', { origin: 'http://evil.example', 'access-control-request-method': 'PUT' }, 'OPTIONS');
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect((await request(app.port, '/api/workspace', { cookie, origin: `http://127.0.0.1:${app.port}` })).status).toBe(200);
  });

  it('refuses the live channel without the cookie, with a foreign Host or Origin', async () => {
    const host = `127.0.0.1:${app.port}`;
    expect(await liveStatus(app.port, { host })).toBe(403);
    expect(await liveStatus(app.port, { host: 'evil.example', cookie })).toBe(403);
    expect(await liveStatus(app.port, { host, cookie, origin: 'http://evil.example' })).toBe(403);
    expect(await liveStatus(app.port, { host, cookie, origin: `http://${host}` })).toBe('open');
  });

  it('refuses state changes that are not JSON (a plain form cannot make them)', async () => {
    const answer = await request(app.port, '/api/request', { cookie, 'content-type': 'application/x-www-form-urlencoded' }, 'POST', 'name=x');
    expect(answer.status).toBe(415);
  });

  it('is not reachable on a non-loopback address of this computer', async () => {
    const addresses = Object.values(os.networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a!.address);
    for (const address of addresses) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = net.connect({ host: address, port: app.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
        socket.setTimeout(2000, () => {
          socket.destroy();
          resolve(false);
        });
      });
      expect(reached, address).toBe(false);
    }
    // Loopback other than 127.0.0.1 is refused too: the listener is bound to that one address.
    const other = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.2', port: app.port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.on('error', () => resolve(false));
    });
    expect(other).toBe(false);
  });
});

describe.skipIf(browserMissing())('ferry app: the printed link opened by a page, in Chromium', () => {
  it('lands in the app when a local file or another page opens the link, not only when it is typed', async () => {
    await isolatedDataDir();
    await ensureBuiltUi();
    const app = await startAppServer({ workspace: await openWorkspace(await initWorkspace(await tempDir(), 'Opened')), webRoot: WEB_ROOT });
    const browser = await launchBrowser();
    try {
      // As `ferry app` opens it (a private file that goes on to the link), or a link in a chat page.
      const file = path.join(await tempDir(), 'open.html');
      await fs.writeFile(file, `<!doctype html><meta http-equiv="refresh" content="0;url=${app.url}">`);
      const page = await browser.newPage();
      const answers: Array<{ status: number; url: string }> = [];
      page.on('response', (r) => answers.push({ status: r.status(), url: r.url() }));
      await page.goto(`file://${file}`);
      await page.waitForURL(`http://127.0.0.1:${app.port}/`, { timeout: 30_000 }); // a first load on a loaded machine
      await page.waitForLoadState('load');
      expect(answers.filter((a) => a.status === 403), JSON.stringify(answers)).toEqual([]);
      expect(await page.content()).not.toContain('Forbidden');
      expect(new URL(page.url()).search).toBe('');
    } finally {
      await browser.close();
      await app.close();
    }
  }, 60_000);

  it('leaves no history entry holding the token: Back from the app does not go to the link (the link page replaces itself)', async () => {
    await isolatedDataDir();
    await ensureBuiltUi();
    const app = await startAppServer({ workspace: await openWorkspace(await initWorkspace(await tempDir(), 'History')), webRoot: WEB_ROOT });
    const browser = await launchBrowser();
    try {
      const page = await browser.newPage();
      const csp: string[] = [];
      page.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) csp.push(m.text()); });
      // A page seen before the link, as when the link is pasted into a tab that was open.
      await page.goto(`http://127.0.0.1:${app.port}/nothing-here`);
      expect(await page.evaluate(() => history.length)).toBe(2);
      await page.goto(app.url);
      await page.waitForURL(`http://127.0.0.1:${app.port}/`, { timeout: 30_000 }); // a first load on a loaded machine
      await page.waitForLoadState('load');
      // The link's page was replaced by the app: one entry for both, not two.
      expect(await page.evaluate(() => history.length)).toBe(3);
      expect(csp).toEqual([]);
      await page.goBack();
      expect(page.url()).toBe(`http://127.0.0.1:${app.port}/nothing-here`);
      expect(page.url()).not.toContain('token');
    } finally {
      await browser.close();
      await app.close();
    }
  }, 60_000);
});
