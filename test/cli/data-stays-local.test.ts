/**
 * Spec 2.1.3 and 2.1.10, end to end: opening a workspace adds `requests/` and `environments/` and
 * nothing else, and what a computer keeps — secret values, values set by scripts (environment,
 * collection, globals), cookies, OAuth 2.0 tokens, the active environment, history, load test
 * results — goes to its data folder: a run, a second run that uses them, and a load test leave the
 * workspace byte for byte as it was.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startAuthServer, type AuthServer } from '../support/servers/index.js';
import { folderSnapshot, isolatedDataDir, tempDir } from '../support/temp.js';

let dataDir: string;
let ws: string;
let server: http.Server;
let auth: AuthServer;
/** What the echo route received, by request: its headers. */
let seen: http.IncomingHttpHeaders[];

beforeEach(async () => {
  dataDir = await isolatedDataDir();
  ws = await tempDir();
  seen = [];
  auth = await startAuthServer();
  server = http.createServer((req, res) => {
    if (req.url === '/login') return void res.writeHead(200, { 'set-cookie': 'sid=abc123; Path=/' }).end('in');
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.headers));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  await auth.close();
});

async function write(relative: string, lines: string[]): Promise<void> {
  await fs.mkdir(path.dirname(path.join(ws, relative)), { recursive: true });
  await fs.writeFile(path.join(ws, relative), `${lines.join('\n')}\n`);
}

describe('the workspace holds no data of this computer (spec 2.1.3, 2.1.10)', () => {
  it('opening adds requests/ and environments/ only; runs, their script values, cookies, tokens, secrets, the active environment and a load test change no file', async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await write('ferry.yaml', ['version: 1', 'id: local-data', 'name: Local data', 'variables:', '  - key: apiKey', '    secret: true']);

    // 2.1.3: opening creates requests/ and environments/, and nothing else.
    expect((await ferry(['-w', ws, 'ls'])).code).toBe(0);
    expect((await fs.readdir(ws)).sort()).toEqual(['environments', 'ferry.yaml', 'requests']);

    await write('environments/dev.yaml', ['name: Dev', 'variables:', '  - key: base', `    value: ${base}`, '  - key: envSecret', '    secret: true']);
    await write('requests/1 Login.yaml', [
      'name: Login',
      'seq: 1',
      'url: "{{base}}/login"',
      'scripts:',
      '  postResponse: |',
      "    pm.environment.set('fromScript', 'e1');",
      "    pm.collectionVariables.set('colVar', 'c1');",
      "    pm.globals.set('glob', 'g1');",
    ]);
    await write('requests/2 Echo.yaml', [
      'name: Echo',
      'seq: 2',
      'url: "{{base}}/echo"',
      'headers:',
      '  - key: X-Secrets',
      '    value: "{{apiKey}} {{envSecret}}"',
      '  - key: X-Script',
      '    value: "{{fromScript}} {{colVar}} {{glob}}"',
      'auth:',
      '  type: oauth2',
      `  tokenUrl: ${auth.url}/token`,
      '  clientId: app',
      '  clientSecret: shh',
    ]);
    await write('loadtests/smoke.yaml', ['name: Smoke', 'targets:', '  - request: 2 Echo.yaml', 'model: arrivalRate', 'stages:', '  - durationSecs: 0', '    target: 20', '  - durationSecs: 0.3', '    target: 20']);
    expect((await ferry(['-w', ws, 'secret', 'set', 'apiKey'], ws, 'ws-secret')).code).toBe(0);
    expect((await ferry(['-w', ws, 'secret', 'set', 'envSecret', '-e', 'dev'], ws, 'env-secret')).code).toBe(0);
    expect((await ferry(['-w', ws, 'env', 'use', 'dev'])).code).toBe(0);
    const before = await folderSnapshot(ws);

    // The active environment (dev, not named here) gives base; the secrets come from this computer.
    const first = await ferry(['-w', ws, 'run']);
    expect(first.stderr).toBe('ferry: using environment "Dev" (active; ferry env use to change)\n');
    expect(first.code).toBe(0);
    expect(seen[0]).toMatchObject({ 'x-secrets': 'ws-secret env-secret', 'x-script': 'e1 c1 g1', cookie: 'sid=abc123', authorization: 'Bearer token-1' });

    // A second run of the echo alone gets the script values, the cookie and the cached token from this computer.
    expect((await ferry(['-w', ws, 'run', '2 Echo'])).code).toBe(0);
    expect(seen[1]).toMatchObject({ 'x-secrets': 'ws-secret env-secret', 'x-script': 'e1 c1 g1', cookie: 'sid=abc123', authorization: 'Bearer token-1' });
    expect(auth.grants).toEqual({ client_credentials: 1 });

    const load = await ferry(['-w', ws, 'load', 'smoke']);
    expect(load.code).toBe(0);
    expect(seen.length).toBeGreaterThan(2);

    expect(await folderSnapshot(ws)).toEqual(before);
    const kept = (await fs.readdir(dataDir, { recursive: true })).length;
    expect(kept).toBeGreaterThan(0);
  });
});
