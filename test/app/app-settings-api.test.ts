/**
 * The settings view's API on a real `ferry app` server and real files: a folder's `_folder.yaml`
 * and the workspace file's auth, headers, scripts and docs read and saved in place (comments,
 * unknown fields, name, seq, variables and an import's `openapi` kept), a save over a file
 * changed meanwhile refused (409), input the format refuses (400 naming the field), and paths
 * that are not a folder's (`..`, a link, the collection root) refused; the next send using them;
 * the auth a request set to inherit gets, named without its values.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { SettingsView } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient as Client } from './api-client.js';

const FOLDER_YAML = `# Users API, imported
name: Users
seq: 3
auth:
  type: bearer
  token: "{{old}}"
hedaers:
  - key: X-Typo
    value: "1"
openapi:
  spec: specs/users.yaml
  source: https://example.test/openapi.yaml
`;

const WORKSPACE_YAML = `version: 1
id: settings-api
name: Settings API
# kept: the variables are the variables dialog's
variables:
  - key: base
    value: http://127.0.0.1:1
sripts:
  preRequest: "x"
`;

describe('ferry app API: folder and workspace settings', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let client: Client;
  const text = (relative: string) => fs.readFile(path.join(ws.root, relative), 'utf8');
  const error = (answer: { body: unknown }) => (answer.body as { error: string }).error;

  beforeEach(async () => {
    ws = await makeWorkspace({
      'requests/Users/_folder.yaml': FOLDER_YAML,
      'requests/Users/Get user.yaml': { name: 'Get user', url: '{{base}}/users/1' },
      'requests/Plain/List.yaml': { name: 'List', url: '{{base}}/list' },
    });
    await fs.writeFile(path.join(ws.root, 'ferry.yaml'), WORKSPACE_YAML);
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    client = new Client(app.port);
    await client.login(app.token);
  });

  afterEach(async () => {
    await app.close();
    await ws.cleanup();
  });

  it("reads a folder's settings with its import's openapi section and its misspelt field named, and saves them in place", async () => {
    const read = await client.call('GET', '/api/folder/settings?path=Users');
    expect(read.status).toBe(200);
    const view = read.body as SettingsView;
    expect(view).toEqual({
      file: 'requests/Users/_folder.yaml',
      name: 'Users',
      settings: { auth: { type: 'bearer', token: '{{old}}', prefix: 'Bearer' }, headers: [] },
      openapi: { spec: 'specs/users.yaml', source: 'https://example.test/openapi.yaml', validate: true },
      notices: ['requests/Users/_folder.yaml: fields that folder settings do not have are ignored: hedaers (did you mean headers?).'],
    });
    const settings = {
      auth: { type: 'apiKey', key: 'X-Api-Key', value: '{{key}}', location: 'header' },
      headers: [{ key: 'X-Team', value: 'blue', enabled: true, description: '' }],
      scripts: { preRequest: "ferry.variables.set('from', 'folder');" },
      docs: '# Users\nAll about users.',
    };
    const saved = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings, base: view.settings });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toMatchObject({ settings, notices: view.notices });
    const file = await text('requests/Users/_folder.yaml');
    // Edited in place: the comment, name, seq, the unknown field and the import's section stay.
    expect(file.startsWith('# Users API, imported\nname: Users\nseq: 3\n')).toBe(true);
    expect(parse(file)).toEqual({
      name: 'Users', seq: 3,
      auth: { type: 'apiKey', key: 'X-Api-Key', value: '{{key}}' },
      headers: [{ key: 'X-Team', value: 'blue' }],
      scripts: { preRequest: "ferry.variables.set('from', 'folder');" },
      docs: '# Users\nAll about users.',
      hedaers: [{ key: 'X-Typo', value: '1' }],
      openapi: { spec: 'specs/users.yaml', source: 'https://example.test/openapi.yaml' },
    });
    // The app's own copy follows at once: the folder's settings are what the next send inherits.
    expect(app.state.workspace.tree.children.find((c) => c.type === 'folder' && c.path === 'Users')).toMatchObject({ settings: { headers: [{ key: 'X-Team', value: 'blue' }] } });
    // Settings left out are removed: scripts and docs go, auth back to inherit.
    const cleared = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: { auth: { type: 'inherit' }, headers: [] }, base: settings });
    expect(cleared.status, cleared.text).toBe(200);
    expect(parse(await text('requests/Users/_folder.yaml'))).toEqual({
      name: 'Users', seq: 3, hedaers: [{ key: 'X-Typo', value: '1' }], openapi: { spec: 'specs/users.yaml', source: 'https://example.test/openapi.yaml' },
    });
  });

  it('a folder without _folder.yaml reads as the defaults; saving nothing writes no file, saving a header writes one', async () => {
    const read = await client.call('GET', '/api/folder/settings?path=Plain');
    expect(read.body).toEqual({ file: 'requests/Plain/_folder.yaml', name: 'Plain', settings: { auth: { type: 'inherit' }, headers: [] }, notices: [] });
    const same = await client.call('PUT', '/api/folder/settings', { path: 'Plain', settings: { auth: { type: 'inherit' }, headers: [] }, base: { auth: { type: 'inherit' }, headers: [] } });
    expect(same.status, same.text).toBe(200);
    await expect(fs.access(path.join(ws.root, 'requests/Plain/_folder.yaml'))).rejects.toThrow();
    const header = await client.call('PUT', '/api/folder/settings', { path: 'Plain', settings: { auth: { type: 'inherit' }, headers: [{ key: 'X-Plain', value: '1' }] } });
    expect(header.status, header.text).toBe(200);
    expect(await text('requests/Plain/_folder.yaml')).toBe('headers:\n  - key: X-Plain\n    value: "1"\n');
    // Cleared again: nothing is left in it and the folder holds a request (git keeps it by that), so the file goes, never `{}`.
    const cleared = await client.call('PUT', '/api/folder/settings', { path: 'Plain', settings: { auth: { type: 'inherit' }, headers: [] } });
    expect(cleared.status, cleared.text).toBe(200);
    await expect(fs.access(path.join(ws.root, 'requests/Plain/_folder.yaml'))).rejects.toThrow();
    expect((await client.call('GET', '/api/folder/settings?path=Plain')).body).toMatchObject({ name: 'Plain', settings: { auth: { type: 'inherit' }, headers: [] } });
  });

  it('a _folder.yaml whose settings are all cleared keeps its comments, and stays (empty) when it is what keeps an empty folder', async () => {
    await fs.mkdir(path.join(ws.root, 'requests/Noted'));
    await fs.writeFile(path.join(ws.root, 'requests/Noted/_folder.yaml'), '# Shared by the team: keep\n\nheaders:\n  - key: X-A\n    value: "1"\n');
    await fs.writeFile(path.join(ws.root, 'requests/Noted/Ping.yaml'), 'name: Ping\nurl: http://127.0.0.1:1/\n');
    await fs.mkdir(path.join(ws.root, 'requests/Empty'));
    await fs.writeFile(path.join(ws.root, 'requests/Empty/_folder.yaml'), 'headers:\n  - key: X-B\n    value: "2"\n');
    await app.state.reload();
    const none = { auth: { type: 'inherit' }, headers: [] };
    expect((await client.call('PUT', '/api/folder/settings', { path: 'Noted', settings: none })).status).toBe(200);
    expect(await text('requests/Noted/_folder.yaml')).toBe('# Shared by the team: keep\n');
    expect((await client.call('PUT', '/api/folder/settings', { path: 'Empty', settings: none })).status).toBe(200);
    expect(await text('requests/Empty/_folder.yaml')).toBe('');
    // Both read back as folders with no settings.
    for (const folder of ['Noted', 'Empty']) {
      expect((await client.call('GET', `/api/folder/settings?path=${folder}`)).body).toEqual({ file: `requests/${folder}/_folder.yaml`, name: folder, settings: none, notices: [] });
    }
  });

  it('refuses a save over a file changed since the page read it (409 with the file\'s settings), writing nothing', async () => {
    const view = (await client.call('GET', '/api/folder/settings?path=Users')).body as SettingsView;
    const elsewhere = FOLDER_YAML.replace('{{old}}', '{{new}}');
    await fs.writeFile(path.join(ws.root, 'requests/Users/_folder.yaml'), elsewhere);
    const refused = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: { ...view.settings, headers: [{ key: 'X-Mine', value: '1' }] }, base: view.settings });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      error: 'requests/Users/_folder.yaml changed on disk since the app read it; nothing was saved.',
      settings: { auth: { type: 'bearer', token: '{{new}}', prefix: 'Bearer' }, headers: [] },
    });
    expect(await text('requests/Users/_folder.yaml')).toBe(elsewhere);
    // The same for the workspace file.
    const wsView = (await client.call('GET', '/api/workspace/settings')).body as SettingsView;
    await fs.writeFile(path.join(ws.root, 'ferry.yaml'), `${WORKSPACE_YAML}headers:\n  - key: X-Git\n    value: pulled\n`);
    const wsRefused = await client.call('PUT', '/api/workspace/settings', { settings: { ...wsView.settings, docs: 'mine' }, base: wsView.settings });
    expect(wsRefused.status).toBe(409);
    expect(wsRefused.body).toMatchObject({ settings: { headers: [{ key: 'X-Git', value: 'pulled' }] } });
    expect(await text('ferry.yaml')).not.toContain('mine');
    // A file that no longer reads is not written over.
    await fs.writeFile(path.join(ws.root, 'requests/Users/_folder.yaml'), 'name: [unclosed\n');
    const broken = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: { auth: { type: 'none' }, headers: [] } });
    expect(broken.status).toBe(409);
    expect(error(broken)).toMatch(/^Not saved: requests\/Users\/_folder\.yaml:\d+:\d+: YAML syntax error.*Fix requests\/Users\/_folder\.yaml first/);
    expect(await text('requests/Users/_folder.yaml')).toBe('name: [unclosed\n');
  });

  it('refuses settings the format does not accept with a 400 naming the field, writing nothing', async () => {
    for (const [settings, message] of [
      [{ auth: { type: 'bearer', token: { from: 'vault' } }, headers: [] }, 'Not saved: requests/Users/_folder.yaml would not be valid: settings.auth.token: '],
      [{ auth: { type: 'inherit' }, headers: 'X-A: 1' }, 'Not saved: requests/Users/_folder.yaml would not be valid: settings.headers: '],
      [{ auth: { type: 'inherit' }, headers: [{ key: 'X-A', value: { nested: 1 } }] }, 'Not saved: requests/Users/_folder.yaml would not be valid: settings.headers[0].value: '],
      [{ auth: { type: 'inherit' }, headers: [], scripts: { preRequest: ['x'] } }, 'Not saved: requests/Users/_folder.yaml would not be valid: settings.scripts.preRequest: '],
      [{ auth: { type: 'oauth' }, headers: [] }, 'Not saved: requests/Users/_folder.yaml would not be valid: settings.auth'],
      [{ auth: { type: 'inherit' }, headers: [], name: 'Renamed' }, 'settings.name is not a setting this view edits (auth, headers, scripts, docs); nothing was saved.'],
      [['auth'], '"settings" must be an object of the settings: { auth, headers, scripts, docs }. Nothing was saved.'],
      [undefined, '"settings" must be an object of the settings'],
    ] as const) {
      const refused = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings });
      expect(refused.status, JSON.stringify(settings)).toBe(400);
      expect(error(refused), JSON.stringify(settings)).toContain(message);
    }
    const wsRefused = await client.call('PUT', '/api/workspace/settings', { settings: { auth: { type: 'basic', username: ['a'] }, headers: [] } });
    expect(wsRefused.status).toBe(400);
    expect(error(wsRefused)).toContain('Not saved: ferry.yaml would not be valid: settings.auth.username: ');
    expect(await text('requests/Users/_folder.yaml')).toBe(FOLDER_YAML);
    expect(await text('ferry.yaml')).toBe(WORKSPACE_YAML);
  });

  it('refuses paths that are not a folder of requests/: .., absolute, the collection root, a linked folder, a gone one', async () => {
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, '_folder.yaml'), 'name: Outside\nauth:\n  type: bearer\n  token: OUTSIDE-SECRET\n');
    await fs.symlink(outside, path.join(ws.root, 'requests', 'linked'));
    // The folder is real, its _folder.yaml a link to a file outside.
    await fs.mkdir(path.join(ws.root, 'requests', 'Lured'));
    await fs.symlink(path.join(outside, '_folder.yaml'), path.join(ws.root, 'requests', 'Lured', '_folder.yaml'));
    for (const [folder, status, message] of [
      ['..', 400, '".." is not a folder path'],
      ['Users/../..', 400, 'is not a folder path'],
      ['/etc', 400, '"/etc" is not a folder path'],
      ['', 400, 'The collection root has no _folder.yaml'],
      ['linked', 400, 'Cannot use the settings of folder "linked": requests/linked is a symbolic link, and Ferry never follows links.'],
      ['Lured', 400, 'requests/Lured/_folder.yaml is a symbolic link'],
      ['Nope', 404, 'Folder "Nope" is no longer in the workspace'],
      ['Users/Get user.yaml', 404, 'is no longer in the workspace'],
    ] as const) {
      const read = await client.call('GET', `/api/folder/settings?path=${encodeURIComponent(folder)}`);
      expect(read.status, folder).toBe(status);
      expect(error(read), folder).toContain(message);
      expect(read.text).not.toContain('OUTSIDE-SECRET');
      const write = await client.call('PUT', '/api/folder/settings', { path: folder, settings: { auth: { type: 'none' }, headers: [] } });
      expect(write.status, folder).toBe(status);
    }
    expect(await fs.readFile(path.join(outside, '_folder.yaml'), 'utf8')).toContain('OUTSIDE-SECRET');
    expect(await fs.readdir(outside)).toEqual(['_folder.yaml']);
    await fs.rm(outside, { recursive: true, force: true });
  });

  it("reads and saves the workspace file's auth, headers, scripts and docs; its variables, id, comments and unknown fields stay", async () => {
    const read = await client.call('GET', '/api/workspace/settings');
    expect(read.body).toEqual({
      file: 'ferry.yaml', name: 'Settings API', settings: { auth: { type: 'none' }, headers: [] },
      notices: ['ferry.yaml: fields that ferry.yaml does not have are ignored: sripts (did you mean scripts?).'],
    });
    const settings = { auth: { type: 'basic', username: 'ann', password: '{{pw}}' }, headers: [{ key: 'X-Workspace', value: 'yes', enabled: true, description: '' }], scripts: { postResponse: 'ferry.test("ok", () => {});' } };
    const saved = await client.call('PUT', '/api/workspace/settings', { settings, base: (read.body as SettingsView).settings });
    expect(saved.status, saved.text).toBe(200);
    const file = await text('ferry.yaml');
    expect(file.startsWith(WORKSPACE_YAML.split('sripts')[0]!)).toBe(true);
    expect(parse(file)).toEqual({
      version: 1, id: 'settings-api', name: 'Settings API', variables: [{ key: 'base', value: 'http://127.0.0.1:1' }], sripts: { preRequest: 'x' },
      auth: { type: 'basic', username: 'ann', password: '{{pw}}' }, headers: [{ key: 'X-Workspace', value: 'yes' }], scripts: { postResponse: 'ferry.test("ok", () => {});' },
    });
    expect(app.state.workspace.file.headers).toEqual([{ key: 'X-Workspace', value: 'yes', enabled: true, description: '' }]);
  });

  it('a ferry.yaml without version (read as version 1) gets the line at its first save, every other line kept', async () => {
    const without = WORKSPACE_YAML.replace(/^version: 1\n/m, '');
    expect(without).not.toContain('version');
    await fs.writeFile(path.join(ws.root, 'ferry.yaml'), without);
    await app.state.reloadAfterOwnWrites(['ferry.yaml']);
    const read = (await client.call('GET', '/api/workspace/settings')).body as SettingsView;
    const saved = await client.call('PUT', '/api/workspace/settings', { settings: { ...read.settings, docs: 'Saved once.' }, base: read.settings });
    expect(saved.status, saved.text).toBe(200);
    const file = await text('ferry.yaml');
    expect(parse(file)).toMatchObject({ version: 1, id: 'settings-api', variables: [{ key: 'base', value: 'http://127.0.0.1:1' }], docs: 'Saved once.' });
    expect(file.replace(/^version: 1\n/m, '').replace(/docs: Saved once\.\n/, '')).toBe(without);
  });

  it("the next send from the app uses the settings just saved: the folder's auth and headers, the workspace's header below the folder's", async () => {
    const seen: http.IncomingHttpHeaders[] = [];
    const server = http.createServer((req, res) => {
      seen.push(req.headers);
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const request = { name: 'Get user', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/users/1` };
      const send = async () => {
        const sent = await client.call('POST', '/api/send', { path: 'Users/Get user.yaml', request });
        expect(sent.status, sent.text).toBe(200);
        return seen.at(-1)!;
      };
      expect(await send()).toMatchObject({ authorization: 'Bearer {{old}}' });
      const folder = (await client.call('GET', '/api/folder/settings?path=Users')).body as SettingsView;
      const saved = await client.call('PUT', '/api/folder/settings', { path: 'Users', base: folder.settings, settings: { auth: { type: 'bearer', token: 'folder-1' }, headers: [{ key: 'X-Team', value: 'blue' }] } });
      expect(saved.status, saved.text).toBe(200);
      expect(await send()).toMatchObject({ authorization: 'Bearer folder-1', 'x-team': 'blue' });
      const workspace = (await client.call('GET', '/api/workspace/settings')).body as SettingsView;
      const wsSaved = await client.call('PUT', '/api/workspace/settings', { base: workspace.settings, settings: { auth: { type: 'none' }, headers: [{ key: 'X-Team', value: 'workspace' }, { key: 'X-All', value: '1' }] } });
      expect(wsSaved.status, wsSaved.text).toBe(200);
      expect(await send()).toMatchObject({ authorization: 'Bearer folder-1', 'x-team': 'blue', 'x-all': '1' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("the folder's switch Check responses against the spec (7.1) sets openapi.validate in place; the next send has, or has not, the test Matches the API spec", async () => {
    const server = http.createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"id":"one"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    await fs.mkdir(path.join(ws.root, 'specs'));
    await fs.writeFile(path.join(ws.root, 'specs/users.yaml'), [
      'openapi: 3.0.3', 'info: {title: Users, version: "1"}', 'paths:', '  /users/{id}:', '    get:', '      responses:',
      "        '200': {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}}", '',
    ].join('\n'));
    try {
      const request = { name: 'Get user', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/users/1`, openapi: { operation: 'GET /users/{id}' } };
      const contractTests = async () => {
        const sent = await client.call('POST', '/api/send', { path: 'Users/Get user.yaml', request });
        expect(sent.status, sent.text).toBe(200);
        return (sent.body as { result: { tests: { name: string; passed: boolean }[] } }).result.tests.filter((t) => t.name.startsWith('Matches the API spec'));
      };
      expect(await contractTests()).toEqual([expect.objectContaining({ name: 'Matches the API spec (GET /users/{id} -> 200)', passed: false })]);

      const view = (await client.call('GET', '/api/folder/settings?path=Users')).body as SettingsView;
      const off = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: view.settings, base: view.settings, validate: false });
      expect(off.status, off.text).toBe(200);
      expect(off.body).toMatchObject({ openapi: { spec: 'specs/users.yaml', validate: false } });
      // In place: the comment and every other line stay; the document stays linked.
      expect(await text('requests/Users/_folder.yaml')).toBe(`${FOLDER_YAML}  validate: false\n`);
      expect(await contractTests()).toEqual([]);
      expect(((await client.call('GET', '/api/folder/settings?path=Users')).body as SettingsView).openapi).toEqual({ spec: 'specs/users.yaml', source: 'https://example.test/openapi.yaml', validate: false });

      // On again: true is the default, so the line goes (2.1.1), and the check is back.
      const on = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: view.settings, base: view.settings, validate: true });
      expect(on.status, on.text).toBe(200);
      expect(await text('requests/Users/_folder.yaml')).toBe(FOLDER_YAML);
      expect(await contractTests()).toHaveLength(1);
      // A save without the switch keeps the file's value.
      await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: view.settings, validate: false });
      expect((await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: view.settings })).status).toBe(200);
      expect(await text('requests/Users/_folder.yaml')).toContain('  validate: false\n');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }

    // Only a folder imported from a document has the switch; nothing is written otherwise.
    const plain = await client.call('PUT', '/api/folder/settings', { path: 'Plain', settings: { auth: { type: 'inherit' }, headers: [] }, validate: false });
    expect(plain.status).toBe(400);
    expect(error(plain)).toBe('requests/Plain/_folder.yaml does not link an API document (openapi.spec): only a folder imported from one has responses to check; nothing was saved.');
    await expect(fs.access(path.join(ws.root, 'requests/Plain/_folder.yaml'))).rejects.toThrow();
    const workspace = (await client.call('GET', '/api/workspace/settings')).body as SettingsView;
    const onWorkspace = await client.call('PUT', '/api/workspace/settings', { settings: workspace.settings, validate: false });
    expect(onWorkspace.status).toBe(400);
    expect(error(onWorkspace)).toMatch(/^ferry\.yaml does not link an API document/);
    const notFlag = await client.call('PUT', '/api/folder/settings', { path: 'Users', settings: { auth: { type: 'inherit' }, headers: [] }, validate: 'no' });
    expect(notFlag.status).toBe(400);
    expect(error(notFlag)).toBe('"validate" must be true or false; nothing was saved.');
  });

  it('says which auth a request set to inherit gets (type and whose, never its values), following saved settings', async () => {
    const asked = (p: string) => client.call('GET', `/api/request/inherited-auth?path=${encodeURIComponent(p)}`);
    const fromFolder = await asked('Users/Get user.yaml');
    expect(fromFolder.body).toEqual({ type: 'bearer', source: 'folder', folder: 'Users', name: 'Users' });
    expect(fromFolder.text).not.toContain('{{old}}');
    // An unsaved request in that folder inherits the same.
    expect((await asked('Users/Not saved yet.yaml')).body).toEqual({ type: 'bearer', source: 'folder', folder: 'Users', name: 'Users' });
    expect((await asked('Plain/List.yaml')).body).toEqual({ type: 'none', source: 'workspace', name: 'Settings API' });
    await client.call('PUT', '/api/workspace/settings', { settings: { auth: { type: 'basic', username: 'u', password: 'SECRET-PW' }, headers: [] } });
    const fromWorkspace = await asked('Plain/List.yaml');
    expect(fromWorkspace.body).toEqual({ type: 'basic', source: 'workspace', name: 'Settings API' });
    expect(fromWorkspace.text).not.toContain('SECRET-PW');
    for (const p of ['Nope/x.yaml', '../x.yaml', 'Users/../../x.yaml']) {
      const refused = await asked(p);
      expect(refused.status, p).toBeGreaterThanOrEqual(400);
      expect(refused.status, p).toBeLessThan(500);
      expect(error(refused), p).toMatch(/\S/);
    }
  });
});
