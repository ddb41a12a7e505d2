import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import aws4 from 'aws4';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseResource, type Auth, type FolderFile, type RequestFile, type WorkspaceFile } from '../../src/model/index.js';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { checkBodyFile, effectiveAuth, MAX_BODY_FILE_BYTES, PrepareError, prepareRequest, type FolderLike } from '../../src/request/index.js';
import { buildVariableScope } from '../../src/template/index.js';
import { startHttp1, type Peer } from '../support/servers/index.js';

function request(data: Record<string, unknown>): RequestFile {
  const parsed = parseResource('request', { name: 'R', ...data });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}
function folder(p: string, data: Record<string, unknown> = {}): FolderLike {
  const parsed = parseResource('folder', data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return { path: p, settings: parsed.value as FolderFile };
}
function workspace(data: Record<string, unknown> = {}): WorkspaceFile {
  const parsed = parseResource('workspace', { version: 1, ...data });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

let root: string;
let outside: string;
let peer: Peer;
const agents = new HttpAgents();

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-prepare-'));
  outside = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-outside-'));
  await fs.mkdir(path.join(root, 'files'));
  await fs.writeFile(path.join(root, 'files', 'blob.bin'), Buffer.from([0, 1, 2, 250, 255]));
  await fs.writeFile(path.join(root, 'files', 'note.txt'), 'file part ✓');
  await fs.writeFile(path.join(outside, 'secret.txt'), 'outside');
  await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'files', 'link.txt'));
  peer = await startHttp1();
});
afterAll(async () => {
  await agents.close();
  await peer.close();
  await fs.rm(root, { recursive: true, force: true });
  await fs.rm(outside, { recursive: true, force: true });
});

const vars = buildVariableScope({ overrides: new Map([['host', '127.0.0.1'], ['id', '42'], ['who', 'Ada']]) });

async function prepare(req: RequestFile, folders: FolderLike[] = [folder('')], ws: WorkspaceFile = workspace(), options = {}) {
  return prepareRequest({ request: req, path: 'A/R.yaml', folders, workspace: { root, file: ws }, variables: vars }, options);
}

/** Sends and returns what the server received. */
async function roundTrip(req: RequestFile, options = {}) {
  const prepared = await prepare(req, [folder('')], workspace(), options);
  const before = peer.seen.length;
  await sendHttp(prepared, { agents });
  return { prepared, seen: peer.seen[before]! };
}

describe('URL', () => {
  it('fills variables, :path params (not the port) and keeps the query', async () => {
    const p = await prepare(request({ url: 'http://{{host}}:8080/users/:id/books/:missing?q={{who}}', pathParams: [{ key: 'id', value: '{{id}}' }] }));
    expect(p.url).toBe('http://127.0.0.1:8080/users/42/books/:missing?q=Ada');
  });

  it('adds http:// when no scheme is typed, and rejects hosts with unfilled placeholders', async () => {
    expect((await prepare(request({ url: 'example.test/x' }))).url).toBe('http://example.test/x');
    await expect(prepare(request({ url: 'http://{{nope}}/x' }))).rejects.toThrow(PrepareError);
    await expect(prepare(request({ url: '' }))).rejects.toThrow(/URL is empty/);
  });
});

describe('headers', () => {
  it('merges workspace, folders and request; an inner name replaces outer ones', async () => {
    const ws = workspace({ headers: [{ key: 'X-A', value: 'ws' }, { key: 'X-B', value: 'ws' }, { key: 'X-Off', value: 'x', enabled: false }] });
    const folders = [folder(''), folder('F', { headers: [{ key: 'x-a', value: 'folder' }, { key: 'X-C', value: '1' }, { key: 'X-C', value: '2' }] })];
    const p = await prepare(request({ url: 'http://h/', headers: [{ key: 'X-B', value: 'req {{who}}' }] }), folders, ws);
    expect(p.headers).toEqual([
      { name: 'x-a', value: 'folder' },
      { name: 'X-C', value: '1' },
      { name: 'X-C', value: '2' },
      { name: 'X-B', value: 'req Ada' },
    ]);
  });

  it('a row of spec 2.4 that is disabled or has no key is not sent and replaces nothing; descriptions are never sent', async () => {
    const ws = workspace({ headers: [{ key: 'X-Level', value: 'ws' }] });
    const folders = [folder(''), folder('F', { headers: [{ key: 'X-Level', value: 'folder' }, { key: 'X-Kept', value: 'folder', description: 'notes' }] })];
    const req = request({
      url: `${peer.url}/rows/:id/:off?q=1`,
      pathParams: [{ key: 'id', value: '{{id}}', description: 'the id' }, { key: 'off', value: 'x', enabled: false }],
      disabledParams: [{ key: 'gone', value: '1' }],
      headers: [{ key: 'X-Level', value: 'request', enabled: false }, { key: '', value: 'no key' }, { key: 'X-Empty' }],
    });
    const prepared = await prepare(req, folders, ws);
    const before = peer.seen.length;
    await sendHttp(prepared, { agents });
    const seen = peer.seen[before]!;
    expect(seen.url).toBe('/rows/42/:off?q=1');
    const sent = seen.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase());
    expect(sent.filter((name) => name.startsWith('x-'))).toEqual(['x-level', 'x-kept', 'x-empty']);
    expect(seen.headers).toMatchObject({ 'x-level': 'folder', 'x-kept': 'folder', 'x-empty': '' });
    expect(seen.rawHeaders.join('\n')).not.toMatch(/no key|notes|the id/);
  });

  it('{{variables}} in the workspace\'s and folders\' headers and in inherited auth fields are filled (spec 2.1.11)', async () => {
    const ws = workspace({ headers: [{ key: 'X-{{who}}', value: 'ws {{id}}' }], auth: { type: 'bearer', token: 'tok-{{id}}', prefix: '{{who}}' } });
    const apiKey = folder('F', { headers: [{ key: 'X-Folder', value: '{{who}}' }], auth: { type: 'apiKey', key: 'k_{{who}}', value: 'v-{{id}}', location: 'query' } });
    const send = async (folders: FolderLike[]) => {
      const before = peer.seen.length;
      await sendHttp(await prepare(request({ url: `${peer.url}/vars` }), folders, ws), { agents });
      return peer.seen[before]!;
    };
    const fromWorkspace = await send([folder('')]);
    expect(fromWorkspace.headers).toMatchObject({ 'x-ada': 'ws 42', authorization: 'Ada tok-42' });
    const fromFolder = await send([folder(''), apiKey]);
    expect(fromFolder.url).toBe('/vars?k_Ada=v-42');
    expect(fromFolder.headers).toMatchObject({ 'x-ada': 'ws 42', 'x-folder': 'Ada' });
    expect(fromFolder.headers.authorization).toBeUndefined();
    const basic = await send([folder(''), apiKey, folder('F/G', { auth: { type: 'basic', username: '{{who}}', password: '{{id}}' } })]);
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from('Ada:42').toString('base64')}`);
  });

  it('refuses header values with line breaks', async () => {
    await expect(prepare(request({ url: 'http://h/', headers: [{ key: 'X', value: 'a\r\nInjected: 1' }] }))).rejects.toThrow(/line break/);
  });

  it('refuses a header value beyond Latin-1 or with a control character when sending, naming the character; code export keeps it as typed (curl sends its UTF-8 bytes)', async () => {
    await expect(prepare(request({ url: 'http://h/', headers: [{ key: 'X-Who', value: 'Zoë ☃' }] }))).rejects.toThrow('the value of header X-Who has "☃" at character 5, which an HTTP header cannot carry');
    await expect(prepare(request({ url: 'http://h/', headers: [{ key: 'X', value: 'a\u007fb' }] }))).rejects.toThrow('the value of header X has U+007F at character 2');
    expect((await prepare(request({ url: 'http://h/', headers: [{ key: 'X', value: 'Zoë\tok' }] }))).headers.find((h) => h.name === 'X')?.value).toBe('Zoë\tok');
    expect((await prepare(request({ url: 'http://h/', headers: [{ key: 'X-Who', value: '☃' }] }), [folder('')], workspace(), { unsendableAuth: 'omit' })).headers.find((h) => h.name === 'X-Who')?.value).toBe('☃');
  });
});

describe('auth inheritance (spec 5.1)', () => {
  const basic: Auth = { type: 'basic', username: 'u', password: 'p' };
  const bearer: Auth = { type: 'bearer', token: 't', prefix: 'Bearer' };
  const wsAuth: Auth = { type: 'apiKey', key: 'X-Key', value: 'k', location: 'header' };
  const cases: Array<[string, Auth, Auth[], Auth, string]> = [
    ['own auth wins', basic, [bearer], wsAuth, 'basic'],
    ['inherit takes the nearest folder', { type: 'inherit' }, [basic, bearer], wsAuth, 'bearer'],
    ['inherit skips inheriting folders', { type: 'inherit' }, [bearer, { type: 'inherit' }], wsAuth, 'bearer'],
    ['inherit falls back to the workspace', { type: 'inherit' }, [{ type: 'inherit' }], wsAuth, 'apiKey'],
    ['none on the request stops it', { type: 'none' }, [bearer], wsAuth, 'none'],
    ['none on a folder stops it', { type: 'inherit' }, [bearer, { type: 'none' }], wsAuth, 'none'],
    ['nothing anywhere is none', { type: 'inherit' }, [], { type: 'none' }, 'none'],
  ];
  it.each(cases)('%s', async (_name, own, folderAuths, workspaceAuth, expected) => {
    const folders = [folder(''), ...folderAuths.map((a, i) => folder(`F${i}`, { auth: a }))];
    expect(effectiveAuth({ auth: own }, folders, { auth: workspaceAuth }).auth.type).toBe(expected);
    const p = await prepare(request({ url: 'http://h/', auth: own }), folders, workspace({ auth: workspaceAuth }));
    expect(p.authType).toBe(expected);
  });

  it('applies basic, bearer with prefix, and apiKey in header or query', async () => {
    const b = await prepare(request({ url: 'http://h/', auth: { type: 'basic', username: '{{who}}', password: 'pä' } }));
    expect(b.headers).toContainEqual({ name: 'Authorization', value: `Basic ${Buffer.from('Ada:pä').toString('base64')}` });
    const t = await prepare(request({ url: 'http://h/', auth: { type: 'bearer', token: 'tok', prefix: 'Token' } }));
    expect(t.headers).toContainEqual({ name: 'Authorization', value: 'Token tok' });
    const bare = await prepare(request({ url: 'http://h/', auth: { type: 'bearer', token: 'tok', prefix: '' } }));
    expect(bare.headers).toContainEqual({ name: 'Authorization', value: 'tok' });
    const q = await prepare(request({ url: 'http://h/p?a=1', auth: { type: 'apiKey', key: 'api key', value: 'v&1', location: 'query' } }));
    expect(q.url).toBe('http://h/p?a=1&api%20key=v%261');
  });

  it('bearer with an empty token (a variable not set yet) sends no Authorization header, as Postman does, not a bare "Bearer"', async () => {
    const scope = buildVariableScope({ overrides: new Map([['token', '']]) });
    for (const token of ['', '{{token}}']) {
      const p = await prepareRequest({ request: request({ url: 'http://h/', auth: { type: 'bearer', token } }), path: 'A/R.yaml', folders: [folder('')], workspace: { root, file: workspace() }, variables: scope });
      expect(p.headers.filter((h) => h.name.toLowerCase() === 'authorization'), token).toEqual([]);
    }
    // Inherited from a folder too; a token that is there still goes.
    const inherited = await prepare(request({ url: 'http://h/' }), [folder(''), folder('A', { auth: { type: 'bearer', token: '' } })]);
    expect(inherited.headers.some((h) => h.name.toLowerCase() === 'authorization')).toBe(false);
    expect((await prepare(request({ url: 'http://h/', auth: { type: 'bearer', token: 't' } }))).headers).toContainEqual({ name: 'Authorization', value: 'Bearer t' });
  });

  it('an explicit header of the same name wins over the auth', async () => {
    const p = await prepare(request({ url: 'http://h/', headers: [{ key: 'authorization', value: 'Custom x' }], auth: { type: 'bearer', token: 't' } }));
    expect(p.headers.filter((h) => h.name.toLowerCase() === 'authorization')).toEqual([{ name: 'authorization', value: 'Custom x' }]);
  });

  it('fails a signing type without its settings clearly, or leaves it unsigned for export', async () => {
    const r = request({ url: 'http://h/', auth: { type: 'jwt' } });
    await expect(prepare(r)).rejects.toThrow(/JWT Bearer: the secret is empty/);
    const exported = await prepare(r, undefined, undefined, { unsendableAuth: 'omit' });
    expect(exported.authType).toBe('jwt');
  });

  it('shows <access-token> for OAuth 2.0 without a cached token when not fetching', async () => {
    const p = await prepare(request({ url: 'http://h/', auth: { type: 'oauth2', tokenUrl: 'http://127.0.0.1:1/token', clientId: 'c' } }), undefined, undefined, { oauth2: { fetchTokens: false } });
    expect(p.oauth2TokenCached).toBe(false);
    expect(p.headers).toContainEqual({ name: 'Authorization', value: 'Bearer <access-token>' });
  });

  it('says which auth header cannot be sent: a token with its newline, a character beyond Latin-1, a bad API key name', async () => {
    const scope = buildVariableScope({ overrides: new Map([['tok', 'abc123\n']]) });
    const failing = (auth: Record<string, unknown>, variables = vars) =>
      prepareRequest({ request: request({ url: 'http://h/', auth }), path: 'A/R.yaml', folders: [folder('')], workspace: { root, file: workspace() }, variables }).then(() => 'prepared', (e: Error) => e.message);
    expect(await failing({ type: 'bearer', token: '{{tok}}' }, scope)).toBe(
      "requests/A/R.yaml: the Authorization header of Bearer auth contains a line break, which HTTP does not allow; check the auth's fields and the variables they use (a token pasted with its newline?).",
    );
    expect(await failing({ type: 'apiKey', key: 'X-Key', value: '令牌' })).toBe(
      'requests/A/R.yaml: the X-Key header of API key auth contains "令", which an HTTP header cannot carry; check the auth\'s fields and the variables they use.',
    );
    expect(await failing({ type: 'apiKey', key: 'api key:', value: 'v' })).toBe(
      'requests/A/R.yaml: the API key\'s header name "api key:" is not valid (letters, digits and - only); fix the key, or send it in the query (location: query).',
    );
    // Latin-1 goes as it is, as a header row's value does.
    expect(await failing({ type: 'bearer', token: 'tøkén' })).toBe('prepared');
  });

  it('sends the OAuth 2.0 token with headerPrefix: Bearer by default, another word, or none', async () => {
    const auth = (extra: Record<string, unknown>) => ({ type: 'oauth2', tokenUrl: 'http://127.0.0.1:1/token', clientId: 'c', ...extra });
    const header = async (extra: Record<string, unknown>) =>
      (await prepare(request({ url: 'http://h/', auth: auth(extra) }), undefined, undefined, { oauth2: { fetchTokens: false } })).headers.find((h) => h.name === 'Authorization')?.value;
    expect(await header({})).toBe('Bearer <access-token>');
    expect(await header({ headerPrefix: 'Token' })).toBe('Token <access-token>');
    expect(await header({ headerPrefix: '' })).toBe('<access-token>');
  });

  it('signs AWS Signature V4 over the final request', async () => {
    const auth = { type: 'awsv4', accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'us-east-1', service: 'execute-api' };
    const { prepared, seen } = await roundTrip(request({ method: 'POST', url: `${peer.url}/aws?b=2&a=1`, auth, body: { type: 'json', text: '{"x":1}' } }));
    const authorization = prepared.headers.find((h) => h.name === 'Authorization')!.value;
    expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/execute-api\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
    // Re-sign what the server received with the same date: the signatures match.
    const headers: Record<string, string> = {};
    for (const h of (authorization.match(/SignedHeaders=([^,]+)/)![1]!).split(';')) headers[h] = String(seen.headers[h]);
    const check = { host: seen.headers.host as string, path: seen.url, method: seen.method, headers, body: seen.body, service: 'execute-api', region: 'us-east-1' };
    aws4.sign(check, { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' });
    expect((check.headers as Record<string, string>).Authorization).toBe(seen.headers.authorization);
  });
});

describe('bodies, byte-checked at the server', () => {
  it('spec 2.5: every body type\'s data is kept, and only type decides what is sent', async () => {
    const all = {
      text: '{"who":"{{who}}"}', contentType: 'text/csv', form: [{ key: 'f', value: 'form' }],
      multipart: [{ key: 'm', value: 'part' }], file: 'files/blob.bin', graphql: { query: '{ q }' },
    };
    const sent: Record<string, string> = {};
    for (const type of ['none', 'json', 'text', 'formUrlencoded', 'multipart', 'binary', 'graphql'] as const) {
      const { seen } = await roundTrip(request({ method: 'POST', url: `${peer.url}/b`, body: { type, ...all } }));
      const body = seen.body.toString('latin1');
      sent[type] = `${String(seen.headers['content-type'] ?? '').replace(/boundary=.*/, 'boundary=…')} ${body.includes('name="m"') ? 'multipart:part' : body}`;
    }
    expect(sent).toEqual({
      none: ' ',
      json: 'application/json {"who":"Ada"}',
      text: 'text/csv {"who":"Ada"}',
      formUrlencoded: 'application/x-www-form-urlencoded f=form',
      multipart: 'multipart/form-data; boundary=… multipart:part',
      // contentType changed from its default also names a binary body's type (docs/running.md).
      binary: `text/csv ${Buffer.from([0, 1, 2, 250, 255]).toString('latin1')}`,
      graphql: 'application/json {"query":"{ q }","variables":{},"operationName":null}',
    });
  });

  it('json, xml and text with their Content-Type', async () => {
    const json = await roundTrip(request({ method: 'POST', url: `${peer.url}/b`, body: { type: 'json', text: '{"who":"{{who}}","n":1}' } }));
    expect(json.seen.body.toString()).toBe('{"who":"Ada","n":1}');
    expect(json.seen.headers['content-type']).toBe('application/json');
    const xml = await roundTrip(request({ method: 'POST', url: `${peer.url}/b`, body: { type: 'xml', text: '<a>{{who}}</a>' } }));
    expect(xml.seen.body.toString()).toBe('<a>Ada</a>');
    expect(xml.seen.headers['content-type']).toBe('application/xml');
    const t = await roundTrip(request({ method: 'PUT', url: `${peer.url}/b`, body: { type: 'text', text: 'héllo', contentType: 'text/csv' } }));
    expect(t.seen.body).toEqual(Buffer.from('héllo'));
    expect(t.seen.headers['content-type']).toBe('text/csv');
  });

  it('a header Content-Type wins over the body type', async () => {
    const r = await roundTrip(request({ method: 'POST', url: `${peer.url}/b`, headers: [{ key: 'Content-Type', value: 'application/vnd.api+json' }], body: { type: 'json', text: '{}' } }));
    expect(r.seen.headers['content-type']).toBe('application/vnd.api+json');
  });

  it('formUrlencoded with enabled rows only', async () => {
    const r = await roundTrip(request({
      method: 'POST',
      url: `${peer.url}/b`,
      body: { type: 'formUrlencoded', form: [{ key: 'a b', value: '1&2' }, { key: 'off', value: 'x', enabled: false }, { key: 'who', value: '{{who}}' }] },
    }));
    expect(r.seen.body.toString()).toBe('a+b=1%262&who=Ada');
    expect(r.seen.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('multipart with text and file parts', async () => {
    const r = await roundTrip(request({
      method: 'POST',
      url: `${peer.url}/b`,
      body: {
        type: 'multipart',
        multipart: [
          { key: 'name', value: '{{who}}' },
          { key: 'doc', value: 'files/note.txt', file: true, contentType: 'text/plain' },
          { key: 'off', value: 'x', enabled: false },
        ],
      },
    }));
    const type = String(r.seen.headers['content-type']);
    const boundary = /boundary=(.+)$/.exec(type)![1]!;
    expect(type.startsWith('multipart/form-data; boundary=')).toBe(true);
    expect(r.seen.body.toString()).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nAda\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="doc"; filename="note.txt"\r\nContent-Type: text/plain\r\n\r\nfile part ✓\r\n` +
        `--${boundary}--\r\n`,
    );
  });

  it('binary file bytes as they are', async () => {
    const r = await roundTrip(request({ method: 'POST', url: `${peer.url}/b`, body: { type: 'binary', file: 'files/blob.bin' } }));
    expect(r.seen.body).toEqual(Buffer.from([0, 1, 2, 250, 255]));
    expect(r.seen.headers['content-type']).toBe('application/octet-stream');
  });

  it('graphql as a JSON object with query, variables and operationName', async () => {
    const r = await roundTrip(request({
      method: 'POST',
      url: `${peer.url}/graphql`,
      body: { type: 'graphql', graphql: { query: 'query Q($id: ID!) { user(id: $id) { name } }', variables: '{"id": "{{id}}"}', operationName: 'Q' } },
    }));
    expect(JSON.parse(r.seen.body.toString())).toEqual({ query: 'query Q($id: ID!) { user(id: $id) { name } }', variables: { id: '42' }, operationName: 'Q' });
    expect(r.seen.headers['content-type']).toBe('application/json');
    await expect(prepare(request({ url: 'http://h/', body: { type: 'graphql', graphql: { query: '{a}', variables: '{bad' } } }))).rejects.toThrow(/graphql.variables is not valid JSON/);
  });

  it('refuses body files outside the workspace unless allowed, and never follows links', async () => {
    const out = path.join(outside, 'secret.txt');
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: out } }))).rejects.toThrow(/outside the workspace folder.*--allow-files-outside/);
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: '../' + path.basename(outside) + '/secret.txt' } }))).rejects.toThrow(/outside the workspace/);
    const allowed = await prepare(request({ url: 'http://h/', body: { type: 'binary', file: out } }), undefined, undefined, { allowFilesOutside: true });
    expect(allowed.body.kind === 'bytes' && Buffer.from(allowed.body.bytes).toString()).toBe('outside');
    await expect(prepare(request({ url: 'http://h/', body: { type: 'multipart', multipart: [{ key: 'f', value: 'files/link.txt', file: true }] } }))).rejects.toThrow(
      'A/R.yaml: the multipart part "f" file cannot be used: files/link.txt is a symbolic link, and Ferry never follows links. Put the real file (or folder) in the link\'s place, or name the file the link points to (outside the workspace, only if allowed).',
    );
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: 'files/missing.bin' } }))).rejects.toThrow(/does not exist/);
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary' } }))).rejects.toThrow(/no file is chosen/);
  });

  it('a file whose name starts with two dots (..data.bin) is inside the workspace; ..\\ (a Windows path) and .. still climb out', async () => {
    await fs.writeFile(path.join(root, '..data.bin'), 'dotted');
    const dotted = await prepare(request({ url: 'http://h/', body: { type: 'binary', file: '..data.bin' } }));
    expect(dotted.body.kind === 'bytes' && Buffer.from(dotted.body.bytes).toString()).toBe('dotted');
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: '..\\x.bin' } }))).rejects.toThrow(/outside the workspace/);
    await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: '..' } }))).rejects.toThrow(/outside the workspace/);
  });

  it('a multipart file replaced by a link after the check is not read through it when sent', async () => {
    const swapped = path.join(root, 'files', 'swapped.txt');
    await fs.writeFile(swapped, 'checked');
    try {
      // Checked when the request is prepared; read when it is sent (a file part is not held in memory before).
      const prepared = await prepare(request({ method: 'POST', url: `${peer.url}/b`, body: { type: 'multipart', multipart: [{ key: 'f', value: 'files/swapped.txt', file: true }] } }));
      await fs.rm(swapped);
      await fs.symlink(path.join(outside, 'secret.txt'), swapped);
      const before = peer.seen.length;
      const error = await sendHttp(prepared, { agents }).then(() => undefined, (e: unknown) => e as Error);
      expect(error?.message).toMatch(/the multipart file files\/swapped\.txt is now a symbolic link; Ferry never follows links/);
      expect(peer.seen.slice(before).map((r) => r.body.toString())).not.toContainEqual(expect.stringContaining('outside'));
    } finally {
      await fs.rm(swapped, { force: true });
    }
  });

  it('refuses body files over 1 GB with a message instead of crashing the run', async () => {
    // Sparse: the size is there, the disk blocks are not.
    const big = path.join(root, 'files', 'big.bin');
    await fs.writeFile(big, '');
    await fs.truncate(big, MAX_BODY_FILE_BYTES + 1);
    try {
      const message = /the binary body file files\/big\.bin is 1\.0 GB; Ferry sends body files of at most 1 GB/;
      await expect(prepare(request({ url: 'http://h/', body: { type: 'binary', file: 'files/big.bin' } }))).rejects.toThrow(message);
      await expect(prepare(request({ url: 'http://h/', body: { type: 'multipart', multipart: [{ key: 'f', value: 'files/big.bin', file: true }] } }))).rejects.toThrow(/multipart part "f" file files\/big\.bin is 1\.0 GB/);
      // Exactly the limit is not refused for its size (not read here: only checked).
      await fs.truncate(big, MAX_BODY_FILE_BYTES);
      await expect(checkBodyFile('files/big.bin', { root, allowFilesOutside: false, where: 'R.yaml' }, 'binary body')).resolves.toBe(big);
    } finally {
      await fs.rm(big);
    }
  });
});
