import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import type { Auth } from '../../src/model/index.js';
import { tokenCacheKey } from '../../src/request/index.js';
import { oauth2Settings } from '../../src/request/auth.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const run = promisify(execFile);

interface Seen {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let server: http.Server;
let seen: Seen[];
let base: string;

beforeEach(async () => {
  seen = [];
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function workspace(): Promise<string> {
  await isolatedDataDir();
  const root = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), `version: 1\nid: export-test\nname: Export\nvariables:\n  - key: baseUrl\n    value: ${base}\n`);
  await fs.mkdir(path.join(root, 'requests', 'Things'), { recursive: true });
  await fs.mkdir(path.join(root, 'environments'));
  await fs.writeFile(path.join(root, 'environments', 'local.yaml'), 'name: Local\nvariables:\n  - key: thingId\n    value: "7"\n');
  await fs.writeFile(path.join(root, 'requests', 'Things', '_folder.yaml'), 'name: Things\nheaders:\n  - key: X-Folder\n    value: inherited\n');
  await fs.writeFile(
    path.join(root, 'requests', 'Things', 'Create thing.yaml'),
    [
      'name: Create thing',
      'method: POST',
      'url: "{{baseUrl}}/things/{{thingId}}?q=it\'s%20here"',
      'headers:',
      '  - key: X-Request-Id',
      '    value: "{{$uuid}}"',
      '  - key: X-Quote',
      `    value: "it's \\"quoted\\" $HOME \`tick\`"`,
      'body:',
      '  type: json',
      '  text: \'{"name": "{{thingId}}", "note": "a\\\\b $x"}\'',
      'auth:',
      '  type: basic',
      '  username: ada',
      '  password: "p@ss word"',
      '',
    ].join('\n'),
  );
  await fs.writeFile(
    path.join(root, 'requests', 'OAuth.yaml'),
    'name: OAuth\nurl: "{{baseUrl}}/me"\nauth:\n  type: oauth2\n  tokenUrl: http://127.0.0.1:1/token\n  clientId: app\n',
  );
  return root;
}

describe('ferry export', () => {
  it('exported bash cURL sends what ferry run sends', async () => {
    const root = await workspace();
    const exported = await ferry(['-w', root, 'export', 'Things/Create thing', '--lang', 'curl', '-e', 'local']);
    expect(exported.code, exported.stderr).toBe(0);
    await run('bash', ['-c', exported.stdout]);
    const runResult = await ferry(['-w', root, 'run', 'Things/Create thing.yaml', '-e', 'local', '-r', 'json']);
    expect(runResult.code, runResult.stderr).toBe(0);
    expect(seen).toHaveLength(2);
    const [fromCurl, fromFerry] = seen as [Seen, Seen];
    expect(fromCurl.method).toBe(fromFerry.method);
    expect(fromCurl.url).toBe(fromFerry.url);
    expect(fromCurl.url).toBe('/things/7?q=it%27s%20here');
    expect(fromCurl.body).toBe(fromFerry.body);
    expect(fromCurl.body).toBe(String.raw`{"name": "7", "note": "a\\b $x"}`);
    for (const name of ['x-folder', 'x-quote', 'authorization', 'content-type']) expect(fromCurl.headers[name], name).toBe(fromFerry.headers[name]);
    expect(fromCurl.headers['x-quote']).toBe('it\'s "quoted" $HOME `tick`');
    // A dynamic value is a fresh UUID each time, in both.
    expect(fromCurl.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('--no-substitute keeps {{name}} but fills dynamic values', async () => {
    const root = await workspace();
    const result = await ferry(['-w', root, 'export', 'Things/Create thing.yaml', '--lang', 'python', '--no-substitute']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"{{baseUrl}}/things/{{thingId}}?q=it%27s%20here"');
    expect(result.stdout).toContain('{{thingId}}');
    expect(result.stdout).not.toContain('{{$uuid}}');
    expect(result.stdout).toMatch(/"X-Request-Id": "[0-9a-f-]{36}"/);
  });

  it('OAuth 2.0: <access-token> with a comment when none is cached, the cached token when there is one', async () => {
    const root = await workspace();
    const without = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'curl']);
    expect(without.code, without.stderr).toBe(0);
    expect(without.stdout).toContain('Authorization: Bearer <access-token>');
    expect(without.stdout).toMatch(/#.*access-token/i);
    const ws = await openWorkspace(root);
    const data = new WorkspaceData(ws.id, ws.root);
    const request = ws.tree.children.find((c) => c.type === 'request' && c.request.name === 'OAuth');
    if (request?.type !== 'request') throw new Error('fixture');
    await data.saveToken(tokenCacheKey(oauth2Settings(request.request.auth as Auth, (t) => t)), { accessToken: 'cached-123' });
    const withToken = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'curl']);
    expect(withToken.stdout).toContain('Authorization: Bearer cached-123');
  });

  it('--list, and clear errors for a folder, an unknown language and a missing --lang', async () => {
    const root = await workspace();
    const list = await ferry(['export', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/python --lib requests/);
    expect((await ferry(['-w', root, 'export', 'Things', '--lang', 'curl'])).stderr).toMatch(/is a folder; export takes one request/);
    const unknown = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'cobol']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown language "cobol"/);
    expect((await ferry(['-w', root, 'export', 'OAuth'])).stderr).toMatch(/Choose a language with --lang/);
    expect((await ferry(['-w', root, 'export', 'Nope', '--lang', 'curl'])).code).toBe(2);
  });
});
