import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fetch } from 'undici';
import { WorkspaceData } from '../../src/appdata/index.js';
import { oauth2AccessToken, type OAuth2Settings } from '../../src/request/index.js';
import { type AuthServer, freePort, startAuthServer } from '../support/servers/index.js';
import { BAD_PORTS, NO_BAD_PORT, onBadPort } from '../support/bad-port.js';
import { HttpAgents } from '../../src/protocols/index.js';

let as: AuthServer;
let dataDir: string;
let data: WorkspaceData;
const previousDataDir = process.env.FERRY_DATA_DIR;

beforeAll(async () => {
  as = await startAuthServer();
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-oauth-'));
  process.env.FERRY_DATA_DIR = dataDir;
});
afterAll(async () => {
  await as.close();
  await fs.rm(dataDir, { recursive: true, force: true });
  if (previousDataDir === undefined) delete process.env.FERRY_DATA_DIR;
  else process.env.FERRY_DATA_DIR = previousDataDir;
});
beforeEach(() => {
  // A fresh workspace identity per test: an empty token cache.
  data = new WorkspaceData(`ws-${Math.random().toString(36).slice(2)}`, dataDir);
  as.grants = {};
  as.expiresIn = 3600;
});

function settings(over: Partial<OAuth2Settings>): OAuth2Settings {
  return {
    grantType: 'clientCredentials',
    tokenUrl: `${as.url}/token`,
    authUrl: `${as.url}/authorize`,
    redirectUri: '',
    clientId: 'app',
    clientSecret: 'shh',
    scope: '',
    audience: '',
    username: '',
    password: '',
    clientAuth: 'basicHeader',
    pkce: true,
    ...over,
  };
}

describe('OAuth 2.0 grants against a real authorization server', () => {
  it('client credentials with a Basic header, cached until it expires', async () => {
    const s = settings({ scope: 'read write' });
    const first = await oauth2AccessToken(s, { data, fetchTokens: true });
    expect(first).toEqual({ token: expect.stringMatching(/^token-/), cached: false, expiresAt: expect.any(Number) });
    expect(as.lastClientAuth).toBe('basic');
    expect(as.lastParams?.get('scope')).toBe('read write');
    const second = await oauth2AccessToken(s, { data, fetchTokens: true });
    expect(second).toEqual({ token: first!.token, cached: true, expiresAt: first!.expiresAt });
    expect(as.grants.client_credentials).toBe(1);
    // The cache lives in the data folder, never in the workspace, encrypted as secrets.json is.
    const text = await fs.readFile(path.join(data.dir, 'tokens.json'), 'utf8');
    expect(text).not.toContain(first!.token);
    expect(Object.values(JSON.parse(text))).toEqual([{ iv: expect.any(String), tag: expect.any(String), data: expect.any(String) }]);
  });

  it('client credentials with the secret in the body', async () => {
    await oauth2AccessToken(settings({ clientAuth: 'body' }), { data, fetchTokens: true });
    expect(as.lastClientAuth).toBe('body');
    expect(as.lastParams?.get('client_secret')).toBe('shh');
  });

  it('password grant; an expired token is refreshed with the refresh token', async () => {
    as.expiresIn = 1; // expires inside Ferry's safety margin: counts as expired at once
    const s = settings({ grantType: 'password', username: 'ada', password: 'pw' });
    const first = await oauth2AccessToken(s, { data, fetchTokens: true });
    expect(as.grants.password).toBe(1);
    const second = await oauth2AccessToken(s, { data, fetchTokens: true });
    expect(second!.token).not.toBe(first!.token);
    expect(as.grants.refresh_token).toBe(1);
    expect(as.grants.password).toBe(1);
  });

  it('a token another process refreshed meanwhile (refresh tokens rotated) is read from the data folder, not asked for again', async () => {
    as.expiresIn = 1; // expires inside Ferry's safety margin: counts as expired at once
    as.rotate = true;
    try {
      const s = settings({ grantType: 'password', username: 'ada', password: 'pw' });
      // A long run holds its token in memory; the app (another process, the same data folder) refreshes it meanwhile.
      const id = `ws-rotate-${Math.random().toString(36).slice(2)}`;
      const [runData, appData] = [new WorkspaceData(id, dataDir), new WorkspaceData(id, dataDir)];
      const run = new Map();
      await oauth2AccessToken(s, { data: runData, fetchTokens: true, memo: run });
      await oauth2AccessToken(s, { data: appData, fetchTokens: true, memo: new Map() });
      expect(as.grants).toEqual({ password: 1, refresh_token: 1 });
      // The run's refresh token was rotated away: it refreshes with the one the app saved, and signs in no second time.
      const again = await oauth2AccessToken(s, { data: runData, fetchTokens: true, memo: run });
      expect(again!.cached).toBe(false);
      expect(as.grants).toEqual({ password: 1, refresh_token: 2 });
    } finally {
      as.rotate = false;
    }
  });

  it('two processes refreshing one token at the same moment (refresh tokens rotated): the one refused takes the other\'s, and signs in no second time', async () => {
    as.expiresIn = 1;
    as.rotate = true;
    try {
      const s = settings({ grantType: 'password', username: 'ada', password: 'pw' });
      const id = `ws-race-${Math.random().toString(36).slice(2)}`;
      const [first, second] = [new WorkspaceData(id, dataDir), new WorkspaceData(id, dataDir)];
      await oauth2AccessToken(s, { data: first, fetchTokens: true, memo: new Map() });
      // The first one's refresh is answered late, after the second one refreshed with the same refresh token and saved.
      let release!: () => void;
      as.holdNextRefresh = new Promise((resolve) => (release = resolve));
      const slow = oauth2AccessToken(s, { data: first, fetchTokens: true, memo: new Map() });
      for (let i = 0; i < 200 && as.grants.refresh_token !== 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      const quick = await oauth2AccessToken(s, { data: second, fetchTokens: true, memo: new Map() });
      release();
      const late = await slow;
      expect(late!.token).not.toBe(quick!.token);
      expect(as.grants).toEqual({ password: 1, refresh_token: 3 });
    } finally {
      as.rotate = false;
    }
  });

  it('names an empty clientId before asking the provider', async () => {
    await expect(oauth2AccessToken(settings({ clientId: '' }), { data, fetchTokens: true })).rejects.toThrow('OAuth 2.0: clientId is empty; set the client id the provider gave you for this application.');
  });

  it('reports the provider error clearly', async () => {
    const s = settings({ grantType: 'password', username: 'ada', password: 'wrong' });
    await expect(oauth2AccessToken(s, { data, fetchTokens: true })).rejects.toThrow(/answered 400: invalid_grant \(wrong username or password\)/);
    await expect(oauth2AccessToken(settings({ clientSecret: 'bad' }), { data, fetchTokens: true })).rejects.toThrow(/invalid_client/);
  });

  /** The authorization code grant over the loopback redirect; the authorization URL Ferry showed, and the token. */
  async function authorizeOnLoopback(extra: Record<string, unknown>) {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    let shown = '';
    const token = await oauth2AccessToken(settings({ grantType: 'authorizationCode', redirectUri, ...extra }), {
      data,
      fetchTokens: true,
      // The "browser": opens the URL and follows the provider's redirect back to Ferry.
      onAuthorizeUrl: (url) => {
        shown = url;
        void fetch(url).then((r) => r.text());
      },
      authorizeTimeoutMs: 10_000,
    });
    return { asked: new URL(shown), token, redirectUri };
  }

  it('authorization code with PKCE S256 over the loopback redirect', async () => {
    const { asked, token, redirectUri } = await authorizeOnLoopback({ clientId: 'spa', clientSecret: '' });
    expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
    expect(asked.searchParams.get('redirect_uri')).toBe(redirectUri);
    expect(token).toEqual({ token: expect.stringMatching(/^token-/), cached: false, expiresAt: expect.any(Number) });
    expect(as.grants.authorization_code).toBe(1);
    expect(as.lastParams?.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it('authorization code with pkce: false sends no challenge and no verifier; scope and audience go to the authorization URL (spec 2.6)', async () => {
    const { asked, token } = await authorizeOnLoopback({ pkce: false, scope: 'read', audience: 'api://x' });
    expect(asked.searchParams.has('code_challenge')).toBe(false);
    expect(asked.searchParams.has('code_challenge_method')).toBe(false);
    expect([asked.searchParams.get('scope'), asked.searchParams.get('audience')]).toEqual(['read', 'api://x']);
    expect(token?.token).toMatch(/^token-/);
    expect(as.lastParams?.has('code_verifier')).toBe(false);
  });

  it('a refusal sent back to the loopback redirect fails with the provider\'s reason, and the page does not claim success', async () => {
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    let page: Promise<string> | undefined;
    const outcome = oauth2AccessToken(settings({ grantType: 'authorizationCode', clientId: 'spa', clientSecret: '', redirectUri }), {
      data,
      fetchTokens: true,
      // The "browser": the user clicks "Deny", the provider sends the error back with the state.
      onAuthorizeUrl: (url) => {
        const state = new URL(url).searchParams.get('state')!;
        page = fetch(`${redirectUri}?error=access_denied&error_description=${encodeURIComponent('the user said no')}&state=${encodeURIComponent(state)}`).then((r) => r.text());
      },
      authorizeTimeoutMs: 10_000,
    });
    await expect(outcome).rejects.toThrow(/authorization was refused: access_denied \(the user said no\)/);
    expect(await page).toMatch(/The authorization was not given/);
  });

  it('a request to the loopback redirect without this authorization\'s state is turned away, and the wait goes on', async () => {
    // Any web page open in the browser (an <img>) or any local program can reach the redirect
    // while Ferry waits: such a request must neither end the authorization nor choose its message.
    const port = await freePort();
    const redirectUri = `http://127.0.0.1:${port}/callback`;
    const forged: { status: number; text: string }[] = [];
    let browser: Promise<void> = Promise.resolve();
    const token = await oauth2AccessToken(settings({ grantType: 'authorizationCode', clientId: 'spa', clientSecret: '', redirectUri }), {
      data,
      fetchTokens: true,
      onAuthorizeUrl: (url) => {
        browser = (async () => {
          for (const query of ['?error=access_denied&error_description=run%20curl%20evil.sh', '?code=attacker&state=guessed', '', '?state=']) {
            const r = await fetch(`${redirectUri}${query}`);
            forged.push({ status: r.status, text: await r.text() });
          }
          await fetch(url).then((r) => r.text());
        })();
        browser.catch(() => {}); // awaited below; the flow's own failure is the one to show
      },
      authorizeTimeoutMs: 10_000,
    });
    await browser;
    expect(forged).toHaveLength(4);
    for (const answer of forged) {
      expect(answer.status).toBe(400);
      expect(answer.text).toMatch(/not the authorization Ferry is waiting for/);
    }
    expect(token).toEqual({ token: expect.stringMatching(/^token-/), cached: false, expiresAt: expect.any(Number) });
    expect(as.grants.authorization_code).toBe(1);
  });

  it('gives up when the browser never comes back', async () => {
    const port = await freePort();
    await expect(
      oauth2AccessToken(settings({ grantType: 'authorizationCode', redirectUri: `http://127.0.0.1:${port}/callback` }), {
        data,
        fetchTokens: true,
        onAuthorizeUrl: () => {},
        authorizeTimeoutMs: 200,
      }),
    ).rejects.toThrow(/no authorization came back/);
  });

  it('stops waiting for the browser when the run is cancelled (Ctrl-C)', async () => {
    const port = await freePort();
    const cancel = new AbortController();
    await expect(
      oauth2AccessToken(settings({ grantType: 'authorizationCode', redirectUri: `http://127.0.0.1:${port}/callback` }), {
        data,
        fetchTokens: true,
        onAuthorizeUrl: () => cancel.abort(),
        authorizeTimeoutMs: 60_000,
        signal: cancel.signal,
      }),
    ).rejects.toThrow(/stopped waiting for the authorization \(the run was cancelled\)/);
  });

  it('fails at once, without listening for a redirect, where nobody can sign in in a browser (noBrowser: a CI job)', async () => {
    const port = await freePort();
    const shown: string[] = [];
    await expect(
      oauth2AccessToken(settings({ grantType: 'authorizationCode', clientId: 'spa', clientSecret: '', redirectUri: `http://127.0.0.1:${port}/callback` }), {
        data,
        fetchTokens: true,
        onAuthorizeUrl: (url) => void shown.push(url),
        noBrowser: 'this run is not interactive; pass a token with --var.',
      }),
    ).rejects.toThrow(/^OAuth 2\.0 authorization code needs someone to sign in in a browser: this run is not interactive; pass a token with --var\.$/);
    expect(shown).toEqual([]);
    expect(as.grants).toEqual({});
    // Nothing listened on the redirect's port.
    const probe = http.createServer();
    await new Promise<void>((resolve, reject) => probe.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });

  it('refuses a redirect URI that is not a loopback address', async () => {
    await expect(
      oauth2AccessToken(settings({ grantType: 'authorizationCode', redirectUri: 'https://example.com/cb' }), { data, fetchTokens: true, onAuthorizeUrl: () => {} }),
    ).rejects.toThrow(/loopback address/);
  });

  it('uses only a cached token when fetching is off', async () => {
    const s = settings({ scope: 'only-cache' });
    expect(await oauth2AccessToken(s, { data, fetchTokens: false })).toBeUndefined();
    await oauth2AccessToken(s, { data, fetchTokens: true });
    expect(await oauth2AccessToken(s, { data, fetchTokens: false })).toEqual({ token: expect.any(String), cached: true, expiresAt: expect.any(Number) });
  });

  it('says what a token endpoint that is not one answered: status, type and the start of an error page, or the OAuth error with what to check', async () => {
    const answers: Record<string, [number, Record<string, string>, string]> = {
      '/missing': [404, { 'content-type': 'text/html' }, '<html><body><h1>Not Found</h1></body></html>'],
      '/broken': [500, {}, ''],
      '/challenge': [401, { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="token"' }, '{"error":"invalid_client","error_description":"unknown client"}'],
      '/form': [200, { 'content-type': 'application/x-www-form-urlencoded' }, 'access_token=secret-token&token_type=bearer'],
    };
    const provider = http.createServer((req, res) => {
      const [status, headers, body] = answers[req.url ?? '']!;
      res.writeHead(status, headers).end(body);
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as { port: number };
    const message = (route: string) => oauth2AccessToken(settings({ tokenUrl: `http://127.0.0.1:${port}${route}` }), { data, fetchTokens: true }).then(() => 'no error', (e: Error) => e.message);
    try {
      expect(await message('/missing')).toMatch(/failed: the provider answered 404 Not Found \(text\/html\): <html><body><h1>Not Found<\/h1><\/body><\/html>; check tokenUrl\.$/);
      expect(await message('/broken')).toMatch(/failed: the provider answered 500 Internal Server Error with an empty body; check tokenUrl\.$/);
      expect(await message('/challenge')).toMatch(/failed: the provider answered 401: invalid_client \(unknown client\); check clientId, clientSecret and clientAuth \(basicHeader or body\)\.$/);
      // A success is not shown: its body may hold a token.
      const form = await message('/form');
      expect(form).toMatch(/failed: the provider answered 200 OK \(application\/x-www-form-urlencoded\), not 200 with a JSON token; check tokenUrl\.$/);
      expect(form).not.toContain('secret-token');
    } finally {
      await new Promise((resolve) => provider.close(resolve));
    }
  });

  it('takes a token answer without token_type, or with a type other than bearer (Slack: bot), as Postman does', async () => {
    const answers: Record<string, string> = {
      '/untyped': '{"access_token":"untyped-token","expires_in":60}',
      '/bot': '{"ok":true,"access_token":"xoxb-bot-token","token_type":"bot"}',
      '/typeless-and-tokenless': '{"ok":false}',
    };
    const provider = http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(answers[req.url ?? '']);
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    const { port } = provider.address() as { port: number };
    const token = (route: string) => oauth2AccessToken(settings({ tokenUrl: `http://127.0.0.1:${port}${route}` }), { data, fetchTokens: true });
    try {
      expect(await token('/untyped')).toMatchObject({ token: 'untyped-token', cached: false });
      expect(await token('/bot')).toMatchObject({ token: 'xoxb-bot-token', cached: false });
      // Without an access token there is nothing to take: still refused.
      await expect(token('/typeless-and-tokenless')).rejects.toThrow(/token request to .* failed/);
    } finally {
      await new Promise((resolve) => provider.close(resolve));
    }
  });

  it('gives up on a token endpoint that never answers after the request\'s timeoutMs, saying so', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const error = await oauth2AccessToken(settings({ tokenUrl: `http://127.0.0.1:${port}/token` }), { data, fetchTokens: true, timeoutMs: 300 }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/token request to .* failed: no answer within 300 ms \(the request's timeoutMs\); check tokenUrl\.$/);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('stops reading a token endpoint that answers more than 1 MB (or without end), with a clear error', async () => {
    let written = 0;
    const endless = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"access_token":"');
      const chunk = 'x'.repeat(64 * 1024);
      // Bounded: the server gives up after 64 MB if the client never stops it.
      const pump = () => {
        while (written < 64 * 1024 * 1024 && res.write(chunk)) written += chunk.length;
        if (written < 64 * 1024 * 1024 && !res.destroyed) res.once('drain', pump);
        else res.end();
      };
      pump();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = endless.address() as { port: number };
      const error = await oauth2AccessToken(settings({ tokenUrl: `http://127.0.0.1:${port}/token` }), { data, fetchTokens: true }).catch((e: Error) => e);
      expect((error as Error).message).toMatch(/OAuth 2\.0 \(clientCredentials\) token request to .* failed: its answer is larger than 1 MB, which no token response is \(stopped reading\); check tokenUrl\./);
      expect(written).toBeLessThan(32 * 1024 * 1024);
      // A normal provider still works afterwards.
      expect(await oauth2AccessToken(settings({}), { data, fetchTokens: true })).toEqual({ token: expect.stringMatching(/^token-/), cached: false, expiresAt: expect.any(Number) });
    } finally {
      endless.closeAllConnections();
      await new Promise((resolve) => endless.close(resolve));
    }
  });
});

describe('OAuth 2.0 token endpoint on a port the Fetch standard calls "bad"', () => {
  it('a token is fetched from a provider on 6666 or 10080 (undici\'s fetch refused it: "fetch failed: bad port"), with and without Ferry\'s pools', async (context) => {
    const provider = await onBadPort((port) => startAuthServer(port));
    if (!provider) return context.skip(NO_BAD_PORT);
    const agents = new HttpAgents();
    try {
      expect(BAD_PORTS).toContain(Number(new URL(provider.url).port));
      const s = settings({ tokenUrl: `${provider.url}/token`, scope: 'far' });
      // The form body (oauth4webapi's URLSearchParams) and the Basic header arrive as sent.
      expect(await oauth2AccessToken(s, { data, fetchTokens: true, timeoutMs: 5000 })).toMatchObject({ token: 'token-1', cached: false });
      expect(provider.lastClientAuth).toBe('basic');
      expect(provider.lastParams?.get('scope')).toBe('far');
      const pooled = settings({ tokenUrl: `${provider.url}/token`, grantType: 'password', username: 'ada', password: 'pw' });
      expect(await oauth2AccessToken(pooled, { data, fetchTokens: true, dispatcher: agents.get(true, 'auto', false) })).toMatchObject({ token: 'token-2', cached: false });
      expect(provider.grants).toEqual({ client_credentials: 1, password: 1 });
    } finally {
      await agents.close();
      await provider.close();
    }
  });
});
