/**
 * OAuth 2.0 "get token" through the app's API (`POST /api/oauth2/token`), on real sockets: the
 * token a send would use, with the folder's auth and the variables, fetched and cached without
 * sending the request; the next send carries it; refusals are one clear line; the token never
 * comes back whole nor lands in the workspace. The settings dialogs' Get token (`folder`, `auth`):
 * the token of the auth they hold, under the key a request inheriting it finds.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { SendResponse, TokenResponse } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { startAuthServer, startResourceServer, type AuthServer, type ResourceServer } from './token-servers.js';

async function connect(app: AppServer) {
  const login = await fetch(app.url, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  return async <T = unknown>(url: string, body: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`http://127.0.0.1:${app.port}${url}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as T };
  };
}

async function filesUnder(dir: string): Promise<string> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.push(await fs.readFile(path.join(entry.parentPath, entry.name), 'utf8'));
  }
  return out.join('\n');
}

describe('app API: OAuth 2.0 get token', () => {
  let auth: AuthServer;
  let resource: ResourceServer;
  let ws: TempWorkspace;
  let app: AppServer;
  let post: Awaited<ReturnType<typeof connect>>;

  beforeAll(async () => {
    auth = await startAuthServer();
    resource = await startResourceServer();
    ws = await makeWorkspace(
      {
        'requests/Secured/_folder.yaml': { name: 'Secured', auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: '{{authBase}}/token', clientId: '{{clientId}}', clientSecret: 'shh', scope: 'read' } },
        'requests/Secured/Data.yaml': { name: 'Data', url: '{{resourceBase}}/data', auth: { type: 'inherit' } },
        'requests/Open.yaml': { name: 'Open', url: '{{resourceBase}}/open', auth: { type: 'none' } },
        'requests/Team/List.yaml': { name: 'List', url: '{{resourceBase}}/team', auth: { type: 'inherit' } },
      },
      { variables: [{ key: 'authBase', value: auth.url }, { key: 'resourceBase', value: resource.url }, { key: 'clientId', value: 'app' }] },
    );
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root) });
    post = await connect(app);
  });
  afterAll(async () => {
    await app?.close();
    await auth?.close();
    await resource?.close();
    await ws?.cleanup();
  });

  it('fetches the token of the folder\'s auth without sending the request, then a send uses it', async () => {
    const got = await post<TokenResponse>('/api/oauth2/token', { path: 'Secured/Data.yaml' });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.cached).toBe(false);
    expect(got.body.source).toBe('folder:Secured');
    expect(got.body.expiresInSeconds).toBeGreaterThan(3500);
    expect(got.body.expiresInSeconds).toBeLessThanOrEqual(3600);
    expect(auth.grants.client_credentials).toBe(1);
    expect(auth.lastParams?.get('scope')).toBe('read');
    expect(resource.seen).toEqual([]); // the request itself was not sent
    // Masked: the answer holds no token value (the server issued `token-1`).
    expect(JSON.stringify(got.body)).not.toContain('token-1');
    expect(got.body.masked).toMatch(/\(7 characters\)/);

    const again = await post<TokenResponse>('/api/oauth2/token', { path: 'Secured/Data.yaml' });
    expect(again.body.cached).toBe(true);
    expect(auth.grants.client_credentials).toBe(1);

    const sent = await post<SendResponse>('/api/send', { path: 'Secured/Data.yaml' });
    expect(sent.status).toBe(200);
    expect(sent.body.result.status).toBe(200);
    expect(resource.seen).toEqual(['Bearer token-1']);
    expect(auth.grants.client_credentials).toBe(1);
    // Cached on this computer, never in the workspace.
    expect(await filesUnder(ws.root)).not.toContain('token-1');
  });

  it('works on what the editor holds (an unsaved request with its own auth)', async () => {
    const request = { name: 'Draft', url: `${resource.url}/draft`, auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `${auth.url}/token`, clientId: 'app', clientSecret: 'shh', scope: 'write' } };
    const got = await post<TokenResponse>('/api/oauth2/token', { path: 'Secured/Draft.yaml', request });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({ cached: false, source: 'request' });
    expect(auth.lastParams?.get('scope')).toBe('write');
  });

  it('says what is wrong in one line: not OAuth 2.0, a refused client, no token URL, a bad body', async () => {
    const none = await post<{ error: string }>('/api/oauth2/token', { path: 'Open.yaml' });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe('requests/Open.yaml: its auth is none, not OAuth 2.0; choose OAuth 2.0 (here or on a folder) to get a token.');

    const wrong = { name: 'Wrong', url: `${resource.url}/x`, auth: { type: 'oauth2', tokenUrl: `${auth.url}/token`, clientId: 'app', clientSecret: 'not-the-secret' } };
    const refused = await post<{ error: string }>('/api/oauth2/token', { path: 'Wrong.yaml', request: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^requests\/Wrong\.yaml: OAuth 2\.0 \(clientCredentials\) token request to .* failed: the provider answered 401: invalid_client/);
    expect(refused.body.error).not.toContain('not-the-secret');
    expect(refused.body.error).not.toContain('\n');

    const noUrl = await post<{ error: string }>('/api/oauth2/token', { path: 'NoUrl.yaml', request: { name: 'NoUrl', url: 'http://127.0.0.1:1/', auth: { type: 'oauth2', clientId: 'app' } } });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error).toContain('tokenUrl is empty');

    const unknown = await post<{ error: string }>('/api/oauth2/token', { path: 'Nowhere/Gone.yaml' });
    expect(unknown.status).toBe(400);
    const noPath = await post<{ error: string }>('/api/oauth2/token', {});
    expect(noPath.status).toBe(400);
    const badRequest = await post<{ error: string }>('/api/oauth2/token', { path: 'X.yaml', request: 'not a request' });
    expect(badRequest.status).toBe(400);
    expect(badRequest.body.error).toMatch(/^The request is not valid/);
    const hostile = await post<{ error: string }>('/api/oauth2/token', { path: '../../etc/passwd' });
    expect(hostile.status).toBe(400);
  });

  it("a folder's settings dialog gets the token of the auth it holds, and a request inheriting it finds that token", async () => {
    const teamAuth = { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: '{{authBase}}/token', clientId: '{{clientId}}', clientSecret: 'shh', scope: 'team' };
    const before = auth.grants.client_credentials ?? 0;
    // Not saved yet: the folder has no _folder.yaml (its auth is inherit); the dialog holds teamAuth.
    const got = await post<TokenResponse>('/api/oauth2/token', { folder: 'Team', auth: teamAuth });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({ cached: false, source: 'folder:Team' });
    expect(auth.grants.client_credentials).toBe(before + 1);
    expect(auth.lastParams?.get('scope')).toBe('team'); // variables filled as a send fills them
    expect(resource.seen).not.toContain(expect.stringMatching(/team/));

    // Saved, the request inside that inherits it sends with the same token: one cache, one key.
    await fs.writeFile(path.join(ws.root, 'requests/Team/_folder.yaml'), `name: Team\nauth:\n${Object.entries(teamAuth).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`);
    await app.state.reload();
    const fromRequest = await post<TokenResponse>('/api/oauth2/token', { path: 'Team/List.yaml' });
    expect(fromRequest.body).toMatchObject({ cached: true, source: 'folder:Team' });
    const sent = await post<SendResponse>('/api/send', { path: 'Team/List.yaml' });
    expect(sent.body.result.status).toBe(200);
    expect(auth.grants.client_credentials).toBe(before + 1);
    expect(resource.seen.at(-1)).toMatch(/^Bearer token-\d+$/);
    expect(await filesUnder(ws.root)).not.toMatch(/token-\d/);
  });

  it("the workspace's settings dialog gets its token too; refusals name the settings file", async () => {
    const workspaceAuth = { type: 'oauth2', tokenUrl: `${auth.url}/token`, clientId: 'app', clientSecret: 'shh', scope: 'everything' };
    const got = await post<TokenResponse>('/api/oauth2/token', { folder: '', auth: workspaceAuth });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({ cached: false, source: 'workspace' });
    expect(auth.lastParams?.get('scope')).toBe('everything');

    const noUrl = await post<{ error: string }>('/api/oauth2/token', { folder: '', auth: { type: 'oauth2', clientId: 'app' } });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error).toBe('ferry.yaml: OAuth 2.0: tokenUrl is empty; set the token endpoint of the provider.');
    const bearer = await post<{ error: string }>('/api/oauth2/token', { folder: 'Team', auth: { type: 'bearer', token: 'x' } });
    expect(bearer.status).toBe(400);
    expect(bearer.body.error).toMatch(/^requests\/Team\/_folder\.yaml: its auth is bearer, not OAuth 2\.0/);
    const invalid = await post<{ error: string }>('/api/oauth2/token', { folder: 'Team', auth: { type: 'oauth2', grantType: 'implicit' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toMatch(/^The auth is not valid: auth\.grantType: /);
    const gone = await post<{ error: string }>('/api/oauth2/token', { folder: 'Nowhere', auth: workspaceAuth });
    expect(gone.status).toBe(400);
    expect(gone.body.error).toContain('Nowhere');
  });
});
