/** Collection mapping details of spec 4.2 that the corpus sweep does not pin down. */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitImport, convert, type ImportedFolderNode, type ImportedRequestNode } from '../../src/importers/index.js';
import { OAUTH2_REDIRECT_URI } from '../../src/model/index.js';
import { SecretStore, workspaceDataDir } from '../../src/appdata/index.js';
import { initWorkspace, openWorkspace, readResource } from '../../src/workspace/index.js';

let tmp: string;
beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-import-map-'));
  process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
});
afterAll(async () => {
  delete process.env.FERRY_DATA_DIR;
  await fs.rm(tmp, { recursive: true, force: true });
});

const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
const script = (listen: string, code: string) => ({ listen, script: { type: 'text/javascript', exec: code.split('\n') } });

const collection = {
  info: { name: 'Shop', schema, description: 'Shop API' },
  auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{token}}' }] },
  event: [script('prerequest', 'pm.sendRequest("http://x", () => {});')],
  variable: [{ key: 'baseUrl', value: 'http://new' }, { key: 'fresh', value: '1' }, { key: 'hidden', value: 's3cret', type: 'secret' }],
  item: [
    {
      name: 'Orders',
      variable: [{ key: 'folderVar', value: 'x' }],
      auth: { type: 'oauth2', oauth2: [{ key: 'grant_type', value: 'authorization_code' }, { key: 'redirect_uri', value: 'https://oauth.pstmn.io/v1/callback' }, { key: 'authUrl', value: 'https://a/auth' }, { key: 'accessTokenUrl', value: 'https://a/token' }] },
      item: [
        {
          name: 'Get order',
          event: [script('test', 'pm.test("ok", () => pm.response.to.have.status(200));\nsetTimeout(() => {}, 1);'), script('beforeSend', 'x()')],
          protocolProfileBehavior: { followRedirects: false, maxRedirects: 3, strictSSL: false, disableCookies: true },
          request: {
            method: 'get',
            description: { content: 'Fetch one order', type: 'text/markdown' },
            url: {
              raw: '{{baseUrl}}/orders/:id?expand=items',
              query: [{ key: 'expand', value: 'items', description: 'related' }, { key: 'debug', value: '1', disabled: true, description: 'off' }],
              variable: [{ key: 'id', value: '42', description: 'order id' }],
            },
          },
          response: [{ name: 'OK', code: 200, header: [{ key: 'Content-Type', value: 'application/json' }], body: '{"id":42}' }, { name: 'Huge', code: 200, body: 'x'.repeat(1024 * 1024 + 1) }],
        },
        {
          name: 'Upload',
          request: { method: 'POST', url: 'http://x/up', body: { mode: 'formdata', formdata: [{ key: 'doc', type: 'file', src: '/home/me/a.pdf' }, { key: 'note', value: 'hi', type: 'text' }] } },
        },
        { name: 'Raw file', request: { method: 'PUT', url: 'http://x/raw', body: { mode: 'file', file: { src: 'data.bin' } } } },
        { name: 'Gql', request: { method: 'POST', url: 'http://x/graphql', body: { mode: 'graphql', graphql: { query: '{ me { id } }', variables: '{"a":1}' } } } },
        { name: 'Form', request: { method: 'POST', url: 'http://x/f', body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1' }, { key: 'b', value: '2', disabled: true }] } } },
        { name: 'Weird auth', request: { url: 'http://x', auth: { type: 'kerberos', kerberos: [] } } },
      ],
    },
  ],
};

describe('collection mapping', () => {
  it('maps folders, auth, scripts, params, settings, examples and bodies, with notes', async () => {
    const result = await convert(JSON.stringify(collection), { label: 't' });
    const root = result.items[0] as ImportedFolderNode;
    expect(root.settings).toMatchObject({ auth: { type: 'bearer', token: '{{token}}' }, docs: 'Shop API', scripts: { preRequest: 'pm.sendRequest("http://x", () => {});' } });
    const orders = root.children[0] as ImportedFolderNode;
    expect(orders.settings?.auth).toMatchObject({ type: 'oauth2', grantType: 'authorizationCode', authUrl: 'https://a/auth', tokenUrl: 'https://a/token', redirectUri: OAUTH2_REDIRECT_URI });
    const get = (orders.children[0] as ImportedRequestNode).request;
    expect(get).toMatchObject({
      method: 'GET',
      url: '{{baseUrl}}/orders/:id?expand=items',
      disabledParams: [{ key: 'debug', value: '1', description: 'off' }],
      paramDescriptions: [{ key: 'expand', value: '', description: 'related' }],
      pathParams: [{ key: 'id', value: '42', description: 'order id' }],
      settings: { followRedirects: false, maxRedirects: 3, verifyTls: false },
      docs: 'Fetch one order',
      scripts: { postResponse: 'pm.test("ok", () => pm.response.to.have.status(200));\nsetTimeout(() => {}, 1);' },
    });
    expect(get.examples).toEqual([
      { name: 'OK', status: 200, headers: [{ key: 'Content-Type', value: 'application/json' }], body: '{"id":42}' },
      { name: 'Huge', status: 200, headers: [] },
    ]);
    const bodies = orders.children.slice(1, 5).map((n) => (n as ImportedRequestNode).request.body);
    expect(bodies).toEqual([
      { type: 'multipart', multipart: [{ key: 'doc', value: '/home/me/a.pdf', file: true }, { key: 'note', value: 'hi' }] },
      { type: 'binary', file: 'data.bin' },
      { type: 'graphql', graphql: { query: '{ me { id } }', variables: '{"a":1}' } },
      { type: 'formUrlencoded', form: [{ key: 'a', value: '1' }, { key: 'b', value: '2', enabled: false }] },
    ]);
    expect((orders.children[5] as ImportedRequestNode).request.auth).toEqual({ type: 'none' });
    const notes = result.notes.join('\n');
    expect(notes).toMatch(/redirect URL is now http:\/\/127\.0\.0\.1:53682\/callback; register it/);
    expect(notes).toMatch(/sendRequest.*Shop \(pre-request\)/);
    expect(notes).toMatch(/setTimeout.*Shop\/Orders\/Get order \(post-response\)/);
    expect(notes).toMatch(/other events were skipped: Shop\/Orders\/Get order \(beforeSend\)/);
    expect(notes).toMatch(/Folder variables .* skipped: Shop\/Orders/);
    expect(notes).toMatch(/choose them again for: .*Upload \(form field "doc": \/home\/me\/a\.pdf\).*Raw file \(binary body: data\.bin\)/);
    expect(notes).toMatch(/Huge.*over 1 MB/);
    expect(notes).toMatch(/The request setting disableCookies is not imported \(Ferry has no such setting\): Shop\/Orders\/Get order\./);
    expect(notes).toMatch(/auth type "kerberos" is not supported/);
  });

  it('keeps a saved response body of exactly 1 MB as its example (8.1, the limit itself); one byte more is left out with a note', async () => {
    const oneMb = 'é'.repeat(512 * 1024); // 1 MB counted in UTF-8 bytes
    const response = (name: string, body: string) => ({ name, code: 200, body });
    const item = { name: 'Get', request: { method: 'GET', url: 'http://127.0.0.1/x' }, response: [response('At', oneMb), response('Over', `${oneMb}x`)] };
    const result = await convert(JSON.stringify({ info: { name: 'Limits', schema }, item: [item] }), { label: 't' });
    const examples = ((result.items[0] as ImportedFolderNode).children[0] as ImportedRequestNode).request.examples!;
    expect(examples.map((e) => [e.name, typeof e.body === 'string' ? e.body.length : e.body])).toEqual([['At', 512 * 1024], ['Over', undefined]]);
    expect(result.notes.join('\n')).toMatch(/saved response "Over" is over 1 MB and was left out/);
    expect(result.notes.join('\n')).not.toMatch(/"At"/);
  });

  it('a request whose name makes no file name (.., _folder, .) is written under its method and path, as OpenAPI operations are (not untitled.yaml)', async () => {
    const item = (name: string, method: string, url: string) => ({ name, request: { method, url } });
    const result = await convert(JSON.stringify({ info: { name: 'Odd names', schema }, item: [
      item('..', 'GET', '{{baseUrl}}/users/:id?x=1'),
      item('_folder', 'POST', 'https://api.example.com/orders'),
      item('   ', 'DELETE', 'http://127.0.0.1:9/a/b'), // a blank name is Postman's "Untitled request"
      item('.', 'GET', ''),
    ] }), { label: 't' });
    const root = await fs.mkdtemp(path.join(tmp, 'odd-'));
    await initWorkspace(root, 'Odd');
    await commitImport(await openWorkspace(root), result);
    expect((await fs.readdir(path.join(root, 'requests', 'Odd names'))).sort()).toEqual(['Untitled request.yaml', 'get-users-id.yaml', 'get.yaml', 'post-orders.yaml'].sort());
    const names = await Promise.all(['get-users-id', 'post-orders', 'get'].map(async (base) => {
      const read = await readResource('request', path.join(root, 'requests', 'Odd names', `${base}.yaml`), base);
      return read.ok ? read.value.name : read.warning.message;
    }));
    expect(names).toEqual(['..', '_folder', '.']);
  });

  it('merges collection variables: existing ones keep their value; secrets go to the store', async () => {
    const root = await initWorkspace(path.join(tmp, 'vars'));
    const wsFile = path.join(root, 'ferry.yaml');
    await fs.writeFile(wsFile, `${await fs.readFile(wsFile, 'utf8')}# my comment\nvariables:\n  - key: baseUrl\n    value: http://mine # keep\n`);
    const ws = await openWorkspace(root);
    const result = await convert(JSON.stringify(collection), { label: 't' });
    const summary = await commitImport({ root, id: ws.id }, result);
    expect(summary).toMatchObject({ kind: 'postman', name: 'Shop', requests: 6, folders: 2, environments: 0, variables: 2 });
    expect(summary.notes.join('\n')).toMatch(/already has these variables, which keep their current values: baseUrl/);
    const text = await fs.readFile(wsFile, 'utf8');
    expect(text).toContain('# my comment');
    expect(text).toContain('value: http://mine');
    expect(text).not.toContain('s3cret');
    const reopened = await openWorkspace(root);
    expect(reopened.file.variables).toEqual([
      { key: 'baseUrl', value: 'http://mine', enabled: true, secret: false },
      { key: 'fresh', value: '1', enabled: true, secret: false },
      { key: 'hidden', value: '', enabled: true, secret: true },
    ]);
    expect(await new SecretStore(workspaceDataDir(ws.id, root)).get('workspace', 'hidden')).toBe('s3cret');
    // Imported twice: a second folder, numbered, after the first.
    const again = await commitImport({ root, id: ws.id }, await convert(JSON.stringify(collection), { label: 't' }));
    expect(again.variables).toBe(0);
    const names = (await openWorkspace(root)).tree.children.map((c) => (c.type === 'folder' ? c.name : ''));
    expect(names).toEqual(['Shop', 'Shop']);
    expect((await fs.readdir(path.join(root, 'requests'))).sort()).toEqual(['Shop', 'Shop 2']);
  });
});

describe('collection variables', () => {
  it('a key given more than once takes its last enabled value, as Newman does, with a note (it kept the first, and called it one the workspace already had)', async () => {
    const doc = { info: { name: 'D', schema }, item: [], variable: [{ key: 'd', value: '1' }, { key: 'd', value: '2' }, { key: 'd', value: '3', disabled: true }, { key: 'x', value: 'a', disabled: true }, { key: 'x', value: 'b', disabled: true }] };
    const result = await convert(JSON.stringify(doc), { label: 't' });
    expect(result.variables).toEqual([{ key: 'd', value: '2' }, { key: 'x', value: 'b', enabled: false }]);
    expect(result.notes).toContain('The collection gives these variables more than once; the last enabled value is used, as in Postman: d; x.');
    const root = await initWorkspace(path.join(tmp, 'dupes'));
    const summary = await commitImport({ root, id: (await openWorkspace(root)).id }, result);
    expect(summary.variables).toBe(2);
    expect(summary.notes.join('\n')).not.toMatch(/already has/);
    expect((await openWorkspace(root)).file.variables.map((v) => [v.key, v.value, v.enabled])).toEqual([['d', '2', true], ['x', 'b', false]]);
  });
});

describe('Postman URLs: the structured url wins over raw (issue 21)', () => {
  const one = (url: unknown) => ({ info: { name: 'U', schema }, item: [{ name: 'R', request: { method: 'GET', url } }] });
  const urlOf = async (url: unknown) => {
    const result = await convert(JSON.stringify(one(url)), { label: 't' });
    return ((result.items[0] as ImportedFolderNode).children[0] as ImportedRequestNode).request;
  };

  it('drops a parameter switched off in query from the URL (it stays in disabledParams, not sent)', async () => {
    const request = await urlOf({ raw: 'https://h/a?on=1&off=2', protocol: 'https', host: ['h'], path: ['a'], query: [{ key: 'on', value: '1' }, { key: 'off', value: '2', disabled: true }] });
    expect(request.url).toBe('https://h/a?on=1');
    expect(request.disabledParams).toEqual([{ key: 'off', value: '2' }]);
  });

  it('encodes & and # in query keys and values (and = in keys) outside {{variables}}, and line breaks and tabs, as Postman sends them', async () => {
    // What Newman sent for the corpus's whatwg-url items "params with & and #" and "newlines".
    const request = await urlOf({
      raw: 'stale', protocol: 'https', host: ['h'], path: ['get'],
      query: [{ key: 'q', value: '%23{{foo&bar}}%23' }, { key: 'x%26y', value: '{{#foo#}}' }, { key: 'b#a&r', value: null }, { key: 'a=b', value: 'c=d' }, { key: 'nl', value: '\nbar\n\t' }],
    });
    expect(request.url).toBe('https://h/get?q=%23{{foo&bar}}%23&x%26y={{#foo#}}&b%23a%26r&a%3Db=c=d&nl=%0Abar%0A%09');
    // A key or value that splits no parameter is written as it is.
    expect((await urlOf({ protocol: 'https', host: ['h'], query: [{ key: 'sp', value: 'a b+c/é' }] })).url).toBe('https://h?sp=a b+c/é');
  });

  it('uses the parts when raw disagrees, and raw when there are no parts', async () => {
    expect((await urlOf({ raw: 'https://old/stale', protocol: 'https', host: ['new', 'example'], port: '8443', path: ['v2', ':id'], query: [{ key: 'q', value: null }] })).url).toBe('https://new.example:8443/v2/:id?q');
    expect((await urlOf({ raw: '{{baseUrl}}/only-raw?x=1' })).url).toBe('{{baseUrl}}/only-raw?x=1');
    expect((await urlOf('https://h/string')).url).toBe('https://h/string');
  });
});

describe('raw bodies (spec 4.2: JSON, XML, HTML, JavaScript, text)', () => {
  it('each language becomes the matching body type, written to its file and sent with the Content-Type Postman sends', async () => {
    const { prepareRequest } = await import('../../src/request/index.js');
    const raw = (language: string, text: string) => ({ name: language, request: { method: 'POST', url: 'http://127.0.0.1:1/x', body: { mode: 'raw', raw: text, options: { raw: { language } } } } });
    const doc = {
      info: { name: 'Raw', schema },
      item: [raw('json', '{"a":1}'), raw('xml', '<a/>'), raw('html', '<p>hi</p>'), raw('javascript', 'let a = 1;'), raw('text', 'plain')],
    };
    const result = await convert(JSON.stringify(doc), { label: 't' });
    const root = await initWorkspace(path.join(tmp, 'raw-bodies'));
    await commitImport({ root, id: (await openWorkspace(root)).id }, result);
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    const folder = ws.tree.children[0]!;
    if (folder.type !== 'folder') throw new Error('fixture');
    const sent: Array<[string, string, string | undefined, string]> = [];
    for (const node of folder.children) {
      if (node.type !== 'request') throw new Error('fixture');
      const prepared = await prepareRequest({ request: node.request, folders: [], workspace: { root, file: ws.file } });
      const body = node.request.body;
      sent.push([node.request.name, body.type, prepared.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value, body.text ?? '']);
    }
    expect(sent).toEqual([
      ['json', 'json', 'application/json', '{"a":1}'],
      ['xml', 'xml', 'application/xml', '<a/>'],
      ['html', 'text', 'text/html', '<p>hi</p>'],
      ['javascript', 'text', 'application/javascript', 'let a = 1;'],
      ['text', 'text', 'text/plain', 'plain'],
    ]);
  });
});
