/**
 * Credentials that no secret variable holds (OAuth 2.0 access and refresh tokens, passwords from
 * the auth settings) are masked as `***` in the terminal output, the JSON report (its `console`)
 * and the JSON/JUnit test messages, like stored secrets; the token cache (tokens.json) is
 * encrypted as secrets.json is, and an older plain one is read and rewritten sealed.
 * A real OAuth 2.0 token endpoint and a real API, both written here, on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { CliReporter, JsonReporter, JunitReporter, runRequests, type Reporter } from '../../src/runner/index.js';
import { openedWorkspace } from './workspace.js';

const ACCESS = 'at-7Qx9mZ2pLr4v';
const REFRESH = 'rt-K3n8Wd5sYh1c';
const PASSWORD = 'pw-Hunter2-Basic';
const OAUTH_PASSWORD = 'pw-Ada-Lovelace';

let server: http.Server;
let base = '';
let tokenRequests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/token') {
        const form = new URLSearchParams(raw);
        tokenRequests++;
        if (form.get('grant_type') !== 'password' || form.get('username') !== 'ada' || form.get('password') !== OAUTH_PASSWORD) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'invalid_grant' }));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify({ access_token: ACCESS, refresh_token: REFRESH, token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      // The API echoes what it was sent, and (as some do) the refresh token it knows of.
      const auth = req.headers.authorization ?? '';
      const basic = /^Basic (.+)$/.exec(auth);
      const decoded = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8') : '';
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ auth, decoded, refresh: REFRESH }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function reports(): { reporters: Reporter[]; json: () => string; xml: () => string; cli: () => string } {
  let json = '';
  let xml = '';
  let cli = '';
  return {
    reporters: [new JsonReporter((t) => void (json += t)), new JunitReporter((t) => void (xml += t)), new CliReporter({ write: (t) => void (cli += t), color: false })],
    json: () => json,
    xml: () => xml,
    cli: () => cli,
  };
}

// Logs what the API echoed and fails a test whose message holds it: every place a value can leak.
const leaky = {
  postResponse: [
    'console.log(pm.response.text());',
    "pm.test('auth is as expected', () => pm.expect(pm.response.json().decoded + ' ' + pm.response.json().auth).to.eql('nothing'));",
  ].join('\n'),
};

describe('credentials in run output', () => {
  it('OAuth 2.0 tokens and auth passwords are masked in terminal output, the JSON report and JUnit; tokens.json is sealed', async () => {
    const s = await openedWorkspace({
      'requests/1 oauth.yaml': {
        name: 'oauth', seq: 1, url: `${base}/api`,
        auth: { type: 'oauth2', grantType: 'password', tokenUrl: `${base}/token`, clientId: 'spa', username: 'ada', password: OAUTH_PASSWORD },
        scripts: leaky,
      },
      'requests/2 basic.yaml': {
        name: 'basic', seq: 2, url: `${base}/api`,
        auth: { type: 'basic', username: 'bob', password: PASSWORD },
        scripts: leaky,
      },
    });
    const r = reports();
    const outcome = await runRequests({ workspace: s.ws, dataFolder: new WorkspaceData(s.ws.id, s.ws.root), settings: DEFAULT_SETTINGS, reporters: r.reporters });
    expect(outcome.results.map((x) => x.error)).toEqual([undefined, undefined]);
    expect(outcome.summary.failedTests).toBe(2);
    expect(tokenRequests).toBe(1);

    // The values reached the scripts (the API saw them), and every report shows *** instead.
    const json = JSON.parse(r.json()) as { results: Array<{ console: string[]; tests: Array<{ message?: string }> }> };
    expect(json.results[0]!.console[0]).toBe(JSON.stringify({ auth: 'Bearer ***', decoded: '', refresh: '***' }));
    expect(json.results[1]!.console[0]).toContain('"decoded":"bob:***"');
    expect(json.results[0]!.tests[0]!.message).toContain('Bearer ***');
    expect(json.results[1]!.tests[0]!.message).toContain('bob:***');
    for (const text of [r.json(), r.xml(), r.cli()]) {
      expect(text).not.toBe('');
      for (const value of [ACCESS, REFRESH, PASSWORD, OAUTH_PASSWORD, Buffer.from(`bob:${PASSWORD}`).toString('base64')]) expect(text).not.toContain(value);
    }
    expect(r.xml()).toContain('Bearer ***');
    expect(r.cli()).toContain('Bearer ***');

    // The token cache is sealed with the secret store's key.
    const tokens = await fs.readFile(path.join(s.data.dir, 'tokens.json'), 'utf8');
    expect(tokens).not.toContain(ACCESS);
    expect(tokens).not.toContain(REFRESH);
    const history = await fs.readFile(path.join(s.data.dir, 'history.json'), 'utf8');
    expect(history).not.toContain(ACCESS);
  });

  it('Bearer tokens, API key values and an AWS session token typed in the auth are masked too, as passwords are', async () => {
    const BEARER = 'bt-Zr8Qw2Lx5Nc7';
    const API_KEY = 'ak-Pq4Vt9Hs3Jm6';
    const SESSION = 'st-Gd2Kf7Wb1Ry8';
    const logs = (value: string) => ({ postResponse: `console.log(pm.response.text()); console.log('sent ${value}');` });
    const s = await openedWorkspace({
      'requests/1 bearer.yaml': { name: 'bearer', seq: 1, url: `${base}/api`, auth: { type: 'bearer', token: BEARER }, scripts: logs(BEARER) },
      'requests/2 key.yaml': { name: 'key', seq: 2, url: `${base}/api`, auth: { type: 'apiKey', key: 'X-Api-Key', value: API_KEY }, scripts: logs(API_KEY) },
      'requests/3 aws.yaml': {
        name: 'aws', seq: 3, url: `${base}/api`,
        auth: { type: 'awsv4', accessKey: 'AKIDEXAMPLE', secretKey: 'sk-Secret-Key-1', region: 'eu-west-1', service: 'execute-api', sessionToken: SESSION },
        scripts: logs(SESSION),
      },
    });
    const r = reports();
    const outcome = await runRequests({ workspace: s.ws, dataFolder: new WorkspaceData(s.ws.id, s.ws.root), settings: DEFAULT_SETTINGS, reporters: r.reporters });
    expect(outcome.summary.failedRequests).toBe(0);
    const json = JSON.parse(r.json()) as { results: Array<{ console: string[] }> };
    expect(json.results[0]!.console).toEqual([JSON.stringify({ auth: 'Bearer ***', decoded: '', refresh: REFRESH }), 'sent ***']);
    expect(json.results.map((x) => x.console[1])).toEqual(['sent ***', 'sent ***', 'sent ***']);
    for (const text of [r.json(), r.cli()]) for (const value of [BEARER, API_KEY, SESSION]) expect(text).not.toContain(value);
  });

  it('an older plain tokens.json is still read, and rewritten sealed', async () => {
    const s = await openedWorkspace({
      'requests/oauth.yaml': {
        name: 'oauth', url: `${base}/api`,
        auth: { type: 'oauth2', grantType: 'password', tokenUrl: `${base}/token`, clientId: 'spa', username: 'ada', password: OAUTH_PASSWORD },
      },
    });
    // Fetch once to learn the cache key, then write the cache as an older Ferry did: plain.
    const data = new WorkspaceData(s.ws.id, s.ws.root);
    await runRequests({ workspace: s.ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    const file = path.join(s.data.dir, 'tokens.json');
    const [key] = Object.keys(JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>);
    await fs.writeFile(file, JSON.stringify({ [key!]: { accessToken: 'plain-old-token-1', tokenType: 'Bearer', expiresAt: Date.now() + 3_600_000 } }));
    const before = tokenRequests;
    const r = reports();
    const outcome = await runRequests({ workspace: s.ws, dataFolder: new WorkspaceData(s.ws.id, s.ws.root), settings: DEFAULT_SETTINGS, reporters: r.reporters });
    expect(outcome.summary.failedRequests).toBe(0);
    expect(tokenRequests).toBe(before); // the plain token was used, not fetched again
    const rewritten = await fs.readFile(file, 'utf8');
    expect(rewritten).not.toContain('plain-old-token-1');
    expect(await new WorkspaceData(s.ws.id, s.ws.root).token(key!)).toMatchObject({ accessToken: 'plain-old-token-1' });
  });
});
