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
import { httpieEnv } from '../support/httpie.js';
import { missingToolchainsFail, RUNNERS } from '../codegen/runners.js';

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

  it('spec 4.7 rule 1: a value an earlier run\'s script stored in the globals is in the code, as ferry run sends it', async () => {
    const root = await workspace();
    await fs.writeFile(
      path.join(root, 'requests', 'Login.yaml'),
      'name: Login\nurl: "{{baseUrl}}/login"\nscripts:\n  postResponse: |\n    pm.globals.set(\'session\', \'g-42\');\n    pm.collectionVariables.set(\'tenant\', \'t-7\');\n',
    );
    await fs.writeFile(path.join(root, 'requests', 'Me.yaml'), 'name: Me\nseq: 1\nurl: "{{baseUrl}}/me?session={{session}}&tenant={{tenant}}"\n');
    const login = await ferry(['-w', root, 'run', 'Login']);
    expect(login.code, login.stderr).toBe(0);
    const exported = await ferry(['-w', root, 'export', 'Me', '--lang', 'curl']);
    expect(exported.code, exported.stderr).toBe(0);
    await run('bash', ['-c', exported.stdout]);
    const sent = await ferry(['-w', root, 'run', 'Me']);
    expect(sent.code, sent.stderr).toBe(0);
    const [, fromCurl, fromFerry] = seen as [Seen, Seen, Seen];
    expect(fromFerry.url).toBe('/me?session=g-42&tenant=t-7');
    expect(fromCurl.url).toBe(fromFerry.url);
    // --var still wins over them.
    const overridden = await ferry(['-w', root, 'export', 'Me', '--lang', 'curl', '--var', 'session=cli']);
    expect(overridden.stdout).toContain('/me?session=cli&tenant=t-7');
  });

  it('spec 4.7 rules 1 and 3: the workspace\'s headers and auth are in; cookies from the jar, headers set by a pre-request script and the request settings are not', async () => {
    // A server of its own that sets a cookie: the first run puts it in this computer's jar.
    const heard: Seen['headers'][] = [];
    const jarServer = http.createServer((req, res) => {
      heard.push(req.headers);
      res.setHeader('Set-Cookie', 'sid=from-jar; Path=/');
      res.end('ok');
    });
    await new Promise<void>((resolve) => jarServer.listen(0, '127.0.0.1', resolve));
    try {
      await isolatedDataDir();
      const root = await tempDir();
      const url = `http://127.0.0.1:${(jarServer.address() as AddressInfo).port}/r`;
      await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: left-out\nname: Left out\nheaders:\n  - key: X-Workspace\n    value: ws\nauth:\n  type: bearer\n  token: ws-token\n');
      await fs.mkdir(path.join(root, 'requests'));
      await fs.writeFile(path.join(root, 'requests', 'R.yaml'), [
        'name: R',
        `url: ${url}`,
        'settings:',
        '  timeoutMs: 5000',
        '  followRedirects: true',
        '  maxRedirects: 2',
        '  verifyTls: false',
        '  httpVersion: http1',
        'scripts:',
        '  preRequest: "pm.request.headers.add({key: \'X-Script\', value: \'yes\'})"',
        '',
      ].join('\n'));
      for (let i = 0; i < 2; i++) expect((await ferry(['-w', root, 'run', 'R.yaml'])).code).toBe(0);
      // What Ferry sends: the script's header and, the second time, the jar's cookie.
      expect(heard[1]).toMatchObject({ 'x-workspace': 'ws', authorization: 'Bearer ws-token', 'x-script': 'yes', cookie: 'sid=from-jar' });

      const curl = await ferry(['-w', root, 'export', 'R.yaml', '--lang', 'curl', '--lib', 'bash']);
      expect(curl.code, curl.stderr).toBe(0);
      expect(curl.stdout).toBe(`curl ${url} \\\n  -H 'X-Workspace: ws' \\\n  -H 'Authorization: Bearer ws-token'\n`);
      await run('bash', ['-c', curl.stdout]);
      const fromCurl = heard[2]!;
      expect(fromCurl).toMatchObject({ 'x-workspace': 'ws', authorization: 'Bearer ws-token' });
      expect(fromCurl.cookie).toBeUndefined();
      expect(fromCurl['x-script']).toBeUndefined();
      // Not the settings either: no timeout, redirects, TLS or HTTP version options in any library.
      for (const [lang, lib, settings] of [['python', 'requests', /timeout|allow_redirects|verify/], ['go', 'net-http', /Timeout|CheckRedirect|InsecureSkipVerify/], ['wget', 'wget', /--timeout|--max-redirect|--no-check-certificate/], ['httpie', 'httpie', /--timeout|--follow|--verify/]] as const) {
        const code = await ferry(['-w', root, 'export', 'R.yaml', '--lang', lang, '--lib', lib]);
        expect(code.code, `${lang}: ${code.stderr}`).toBe(0);
        expect(code.stdout, lang).toContain('ws-token');
        expect(code.stdout, lang).not.toMatch(/from-jar|X-Script|Cookie/);
        expect(code.stdout, lang).not.toMatch(settings);
      }
    } finally {
      await new Promise<void>((resolve) => jarServer.close(() => resolve()));
    }
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

  it('-e ENV with secret values or a token in the code: stdout is the code alone, stderr says so and points to --no-substitute', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'environments', 'prod.yaml'), 'name: Prod\nvariables:\n  - key: apiKey\n    secret: true\n');
    await fs.writeFile(path.join(root, 'requests', 'Keyed.yaml'), 'name: Keyed\nurl: "{{baseUrl}}/keyed"\nheaders:\n  - key: X-Api-Key\n    value: "{{apiKey}}"\n');
    const ws = await openWorkspace(root);
    const data = new WorkspaceData(ws.id, ws.root);
    await data.secrets.set('prod', 'apiKey', 'sk-live-5ecret-value');
    const plain = await ferry(['-w', root, 'export', 'Keyed', '--lang', 'curl', '-e', 'local']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toBe('');
    const exported = await ferry(['-w', root, 'export', 'Keyed', '--lang', 'curl', '-e', 'prod']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain('X-Api-Key: sk-live-5ecret-value');
    expect(exported.stdout).not.toMatch(/warning|secret/i);
    expect(exported.stderr).toBe('ferry: warning: the code holds secret values in plain text: secret variable apiKey. Do not share or commit it as is. Export with --no-substitute to keep {{variables}} as written.\n');
    // --no-substitute: the placeholder stays, nothing to say.
    const kept = await ferry(['-w', root, 'export', 'Keyed', '--lang', 'curl', '-e', 'prod', '--no-substitute']);
    expect(kept.stdout).toContain('X-Api-Key: {{apiKey}}');
    expect(kept.stderr).toBe('');
    // Auth typed with placeholders (a Bearer token, a Basic password) keeps them: nothing to say;
    // filled, the token is a credential in plain text.
    await fs.writeFile(path.join(root, 'requests', 'Tokened.yaml'), 'name: Tokened\nurl: "{{baseUrl}}/t"\nauth: { type: bearer, token: "{{apiKey}}" }\n');
    await fs.writeFile(path.join(root, 'requests', 'Passworded.yaml'), 'name: Passworded\nurl: "{{baseUrl}}/p"\nauth: { type: basic, username: ada, password: "{{apiKey}}" }\n');
    for (const name of ['Tokened', 'Passworded']) expect((await ferry(['-w', root, 'export', name, '-e', 'prod', '--no-substitute'])).stderr, name).toBe('');
    const typed = await ferry(['-w', root, 'export', 'Tokened', '--var', 'apiKey=tok-typed-value']);
    expect(typed.stderr).toBe('ferry: warning: the code holds secret values in plain text: auth credentials (a password, a token or an API key). Do not share or commit it as is. Export with --no-substitute to keep {{variables}} as written.\n');
    // A cached OAuth 2.0 token is in the code even without substitution: said, without the advice.
    const request = ws.tree.children.find((c) => c.type === 'request' && c.request.name === 'OAuth');
    if (request?.type !== 'request') throw new Error('fixture');
    await data.saveToken(tokenCacheKey(oauth2Settings(request.request.auth as Auth, (t) => t)), { accessToken: 'cached-token-456' });
    const token = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'curl', '--no-substitute']);
    expect(token.stdout).toContain('Authorization: Bearer cached-token-456');
    expect(token.stderr).toBe('ferry: warning: the code holds secret values in plain text: auth credentials (a password, a token or an API key). Do not share or commit it as is.\n');
  });

  it('--list, and clear errors for a folder and an unknown language; no --lang means curl', async () => {
    const root = await workspace();
    const list = await ferry(['export', '--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/python --lib requests/);
    expect((await ferry(['-w', root, 'export', 'Things', '--lang', 'curl'])).stderr).toMatch(/is a folder; export takes one request/);
    const unknown = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'cobol']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown language "cobol"/);
    const plain = await ferry(['-w', root, 'export', 'OAuth']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe((await ferry(['-w', root, 'export', 'OAuth', '--lang', 'curl'])).stdout);
    expect(plain.stdout).toMatch(/^curl /m);
    expect((await ferry(['-w', root, 'export', 'Nope', '--lang', 'curl'])).code).toBe(2);
    await fs.writeFile(path.join(root, 'requests', 'Stream.yaml'), 'name: Stream\nkind: sse\nurl: http://127.0.0.1:9/\n');
    const stream = await ferry(['-w', root, 'export', 'Stream', '--lang', 'curl']);
    expect(stream.code).toBe(2);
    expect(stream.stderr).toContain('requests/Stream.yaml is an SSE request; only HTTP requests can be exported as code.');
  });
});

/**
 * Runs generated code with its own toolchain. A toolchain that is not on this machine (Python's
 * `requests`, HTTPie) skips its test with the reason, as the execution tests do (runners.ts).
 */
const PROGRAMS: Array<{ lang: string; lib: string; file: string; argv: (file: string) => string[] }> = [
  { lang: 'javascript', lib: 'fetch', file: 'request.mjs', argv: (f) => [process.execPath, f] },
  { lang: 'python', lib: 'requests', file: 'request.py', argv: (f) => ['/usr/bin/python3', f] },
  { lang: 'httpie', lib: 'httpie', file: 'request.sh', argv: (f) => ['bash', f] },
];

describe('ferry export of a saved request', () => {
  it.for(PROGRAMS)('sends in $lang/$lib what ferry run sends (folder headers, auth, variables, repeated headers)', async (program, ctx) => {
    const missing = RUNNERS.find((r) => r.targetId === `${program.lang}/${program.lib}`)?.missing();
    if (missing && !missingToolchainsFail()) return ctx.skip(missing);
    expect(missing, 'toolchain required here (CI)').toBeUndefined();
    const root = await workspace();
    await fs.writeFile(
      path.join(root, 'requests', 'Things', 'Patch thing.yaml'),
      [
        'name: Patch thing',
        'method: PATCH',
        'url: "{{baseUrl}}/things/:id?tag=a b&q=$HOME"',
        'pathParams:',
        '  - key: id',
        '    value: "{{thingId}}"',
        'headers:',
        '  - key: X-Multi',
        '    value: one',
        '  - key: X-Multi',
        '    value: two',
        '  - key: X-Odd',
        `    value: "back\\\\slash \\"dq\\" 'sq' $(id) %PATH% ^caret"`,
        'body:',
        '  type: text',
        '  contentType: text/plain; charset=utf-8',
        `  text: "line1\\nunicode 日本 🚀 $HOME \`id\` \\\\n"`,
        'auth:',
        '  type: bearer',
        '  token: "{{thingId}}-token"',
        '',
      ].join('\n'),
    );
    const ran = await ferry(['-w', root, 'run', 'Things/Patch thing.yaml', '-e', 'local', '-r', 'json']);
    expect(ran.code, ran.stderr).toBe(0);
    const fromFerry = seen.pop()!;
    expect(fromFerry.url).toBe('/things/7?tag=a%20b&q=$HOME');
    const dir = await tempDir();
    {
      const file = path.join(dir, program.file);
      const argv = program.argv(file);
      const exported = await ferry(['-w', root, 'export', 'Things/Patch thing', '--lang', program.lang, '--lib', program.lib, '-e', 'local']);
      expect(exported.code, exported.stderr).toBe(0);
      await fs.writeFile(file, exported.stdout);
      await run(argv[0]!, argv.slice(1), { timeout: 30_000, env: { ...process.env, ...httpieEnv(dir) } });
      const fromCode = seen.pop()!;
      const label = `${program.lang}/${program.lib}`;
      expect(fromCode.method, label).toBe(fromFerry.method);
      expect(decodeURIComponent(fromCode.url), label).toBe(decodeURIComponent(fromFerry.url));
      expect(fromCode.body, label).toBe(fromFerry.body);
      for (const name of ['x-folder', 'x-multi', 'x-odd', 'authorization', 'content-type']) expect(fromCode.headers[name], `${label} ${name}`).toBe(fromFerry.headers[name]);
    }
    expect(fromFerry.headers['x-multi']).toBe('one, two');
    expect(fromFerry.headers.authorization).toBe('Bearer 7-token');
  });

  it('--no-substitute keeps placeholders in path parameters and an API key in the query', async () => {
    const root = await workspace();
    await fs.writeFile(
      path.join(root, 'requests', 'Keyed.yaml'),
      'name: Keyed\nurl: "{{baseUrl}}/items/:id"\npathParams:\n  - key: id\n    value: "{{itemId}}"\nauth:\n  type: apiKey\n  key: api_key\n  value: "{{apiKey}}"\n  location: query\n',
    );
    const result = await ferry(['-w', root, 'export', 'Keyed', '--lang', 'go', '--no-substitute']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('"{{baseUrl}}/items/{{itemId}}?api_key={{apiKey}}"');
  });

  it('with substitution on, an undefined {{name}} in the path or query stays as written (not %7B%7B), as Postman shows it; an undefined host is still refused', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'requests', 'Half.yaml'), 'name: Half\nurl: "http://127.0.0.1:9/users/{{userId}}?page={{page}}&q=a%20b"\n');
    const result = await ferry(['-w', root, 'export', 'Half', '--lang', 'curl']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("'http://127.0.0.1:9/users/{{userId}}?page={{page}}&q=a%20b'");
    await fs.writeFile(path.join(root, 'requests', 'Hostless.yaml'), 'name: Hostless\nurl: "http://{{nohost}}/x"\n');
    const hostless = await ferry(['-w', root, 'export', 'Hostless', '--lang', 'curl']);
    expect(hostless.code).toBe(2);
    expect(hostless.stderr).toContain('{{nohost}}');
  });

  it('--no-substitute keeps placeholders for the scheme and the port, and errors show them as written', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'requests', 'Templated.yaml'), 'name: Templated\nurl: "{{scheme}}://{{host}}:{{port}}/x?a={{a}}"\n');
    const result = await ferry(['-w', root, 'export', 'Templated', '--lang', 'curl', '--no-substitute']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("'{{scheme}}://{{host}}:{{port}}/x?a={{a}}'");
    await fs.writeFile(path.join(root, 'requests', 'Invalid.yaml'), 'name: Invalid\nurl: "http://{{host}} x:{{port}}/"\n');
    const invalid = await ferry(['-w', root, 'export', 'Invalid', '--lang', 'curl', '--no-substitute']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain('"http://{{host}} x:{{port}}/" is not a valid URL');
  });

  it('--no-substitute still finds the cached OAuth 2.0 token, and explains Basic credentials with placeholders', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'requests', 'Templated OAuth.yaml'), 'name: Templated OAuth\nurl: "{{baseUrl}}/me"\nauth:\n  type: oauth2\n  tokenUrl: "{{baseUrl}}/token"\n  clientId: app\n');
    await fs.writeFile(path.join(root, 'requests', 'Basic.yaml'), 'name: Basic\nurl: "{{baseUrl}}/me"\nauth:\n  type: basic\n  username: "{{user}}"\n  password: pw\n');
    const ws = await openWorkspace(root);
    const data = new WorkspaceData(ws.id, ws.root);
    const request = ws.tree.children.find((c) => c.type === 'request' && c.request.name === 'Templated OAuth');
    if (request?.type !== 'request') throw new Error('fixture');
    const filled = (t: string) => t.replace('{{baseUrl}}', base);
    await data.saveToken(tokenCacheKey(oauth2Settings(request.request.auth as Auth, filled)), { accessToken: 'cached-456' });
    const oauth = await ferry(['-w', root, 'export', 'Templated OAuth', '--lang', 'curl', '--no-substitute']);
    expect(oauth.stdout).toContain("'{{baseUrl}}/me'");
    expect(oauth.stdout).toContain('Authorization: Bearer cached-456');
    const basic = await ferry(['-w', root, 'export', 'Basic', '--lang', 'python', '--no-substitute']);
    expect(basic.stdout).toMatch(/^# Basic auth: the Authorization header encodes the user name and password with their \{\{variables\}\} as written;/);
    const substituted = await ferry(['-w', root, 'export', 'Basic', '--lang', 'python']);
    expect(substituted.stdout).not.toContain('Basic auth:');
  });

  it('--var wins over the environment, and a bad --var is refused', async () => {
    const root = await workspace();
    const result = await ferry(['-w', root, 'export', 'Things/Create thing', '--lang', 'httpie', '-e', 'local', '--var', 'thingId=9', '--var', 'baseUrl=http://example.test']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('http://example.test/things/9?q=it%27s%20here');
    const bad = await ferry(['-w', root, 'export', 'Things/Create thing', '--lang', 'httpie', '--var', 'novalue']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--var expects key=value/);
  });

  it('a file that does not parse: the message names the file and line', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'requests', 'Broken.yaml'), 'name: [broken\n');
    const result = await ferry(['-w', root, 'export', 'Broken', '--lang', 'curl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/requests\/Broken\.yaml:\d+:\d+: YAML syntax error/);
    const unknownLib = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'python', '--lib', 'urllib']);
    expect(unknownLib.stderr).toMatch(/Unknown library "urllib" for Python\. Choose one of: requests, httpx\./);
    const noEnv = await ferry(['-w', root, 'export', 'OAuth', '--lang', 'curl', '-e', 'Nope']);
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toMatch(/No environment "Nope"/);
  });

  it('a body file outside the workspace is refused with what to do, and --allow-files-outside exports it', async () => {
    const root = await workspace();
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'blob.bin'), Buffer.from([0, 1, 255]));
    await fs.writeFile(path.join(root, 'requests', 'Upload.yaml'), `name: Upload\nmethod: PUT\nurl: "{{baseUrl}}/up"\nbody:\n  type: binary\n  file: ${JSON.stringify(path.join(outside, 'blob.bin'))}\n`);
    const refused = await ferry(['-w', root, 'export', 'Upload', '--lang', 'curl']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/lies outside the workspace folder.*--allow-files-outside/);
    const allowed = await ferry(['-w', root, 'export', 'Upload', '--lang', 'curl', '--allow-files-outside']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toContain(`printf %s ${Buffer.from([0, 1, 255]).toString('base64')} | base64 -d | curl -X PUT`);
  });
});
