/**
 * The API behind the app's newer dialogs, on real sockets with the session cookie: update from
 * API spec (the known source, preview, apply only what was previewed, refusals), the history with
 * a kept answer (and hostile keys), the compact tree (the same tree as the full one), and the data
 * folder's store of kept answers (pruned, sealed, links refused).
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { RESULTS_KEPT, SendResults } from '../../src/appdata/index.js';
import type { CompactWorkspaceInfo, HistoryView, SendResponse, UpdatePreview, WorkspaceInfo } from '../../src/app/shared/api.js';
import { expandTree } from '../../src/app/web/tree.js';
import { commitImport, convertInput } from '../../src/importers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startGrpcPeer } from '../protocols/grpc-peer.js';
import { tempDir } from '../support/temp.js';
import { appForTest } from './app-for-test.js';

const ok = { 200: { description: 'ok' } };
const v1 = {
  openapi: '3.0.3', info: { title: 'Shop', version: '1' }, servers: [{ url: 'https://shop.example.test' }],
  paths: {
    '/items': { get: { summary: 'List items', description: 'All items.', responses: ok } },
    '/items/{id}': { delete: { summary: 'Delete item', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
  },
};
const v2 = structuredClone(v1) as unknown as { paths: Record<string, unknown> };
v2.paths['/items'] = { get: { summary: 'List items', description: 'All items, newest first.', responses: ok }, post: { summary: 'Create item', responses: ok } };
delete v2.paths['/items/{id}'];

/** The app on a workspace with the Shop API imported from docs/shop.yaml (v1). */
async function shopApp() {
  const { ws, call } = await appForTest({ 'docs/shop.yaml': stringify(v1), 'requests/Plain/Ping.yaml': { name: 'Ping', url: 'http://127.0.0.1:1/' } }, async ({ root }) => {
    const opened = await openWorkspace(root);
    await commitImport({ root, id: opened.id }, await convertInput(path.join(root, 'docs/shop.yaml'), { workspaceRoot: root }));
  });
  return { root: ws.root, call };
}

describe('update from API spec, through the app', () => {
  it('pre-fills the known source, previews without writing, and applies what was previewed', async () => {
    const { root, call } = await shopApp();
    const source = await call<{ source: string; name: string }>('GET', '/api/update/source?folder=Shop');
    expect(source.body).toMatchObject({ name: 'Shop', source: 'docs/shop.yaml' });

    // The user's edit of the docs is kept; the document's new docs conflict with it.
    const list = path.join(root, 'requests/Shop/List items.yaml');
    await fs.writeFile(list, (await fs.readFile(list, 'utf8')).replace('docs: All items.', 'docs: Mine.'));
    await fs.writeFile(path.join(root, 'docs/shop.yaml'), stringify(v2));
    const before = await fs.readFile(path.join(root, 'specs/Shop.yaml'), 'utf8');
    const preview = await call<UpdatePreview>('POST', '/api/update/preview', { folder: 'Shop' });
    expect(preview.status).toBe(200);
    expect(preview.body.added.map((a) => a.operation)).toEqual(['POST /items']);
    expect(preview.body.removed.map((r) => r.operation)).toEqual(['DELETE /items/{id}']);
    expect(preview.body.changed.find((c) => c.operation === 'GET /items')?.kept).toContain('docs');
    expect(preview.body.written).toBe(false);
    expect(await fs.readFile(path.join(root, 'specs/Shop.yaml'), 'utf8')).toBe(before);

    const applied = await call<UpdatePreview>('POST', '/api/update/apply', { planId: preview.body.planId });
    expect(applied.status).toBe(200);
    expect(applied.body.written).toBe(true);
    expect(await fs.readFile(list, 'utf8')).toContain('docs: Mine.');
    expect(await fs.readFile(path.join(root, 'requests/Shop/Create item.yaml'), 'utf8')).toContain('method: POST');
    expect(await fs.readFile(path.join(root, 'requests/Shop/Delete item.yaml'), 'utf8')).toMatch(/removed: true/);
    // Used once: the same preview cannot be applied again.
    expect((await call('POST', '/api/update/apply', { planId: preview.body.planId })).status).toBe(404);
    // The tree the page reads shows the mark at once.
    const info = await call<CompactWorkspaceInfo>('GET', '/api/workspace?tree=compact');
    const shop = expandTree(info.body.compactTree).children.find((c) => c.path === 'Shop');
    expect(shop).toMatchObject({ openapi: true });
    expect(shop?.type === 'folder' && shop.children.find((c) => c.path === 'Shop/Delete item.yaml')).toMatchObject({ removed: true });
  });

  it('a pasted new version (no name) is called the pasted text in a refusal, as the import dialog calls it', async () => {
    const { call } = await shopApp();
    const big = await call<{ error: string }>('POST', '/api/update/preview', { folder: 'Shop', text: `openapi: 3.0.3\n#${'x'.repeat(50 * 1024 * 1024)}\n` });
    expect(big.status).toBe(400);
    expect(big.body.error).toMatch(/^The pasted text is 52,428,8\d\d bytes; Ferry reads API documents up to 50 MB, so nothing was updated\./);
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    const refused = await call<{ error: string }>('POST', '/api/update/preview', { folder: 'Shop', text: `openapi: 3.0.3\n${bomb}\n` });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^The pasted text expands YAML aliases more than [\d,]+ times.*; nothing was updated\.$/);
  });

  it('refuses to apply a preview the files no longer match, writing nothing', async () => {
    const { root, call } = await shopApp();
    const preview = await call<UpdatePreview>('POST', '/api/update/preview', { folder: 'Shop', text: stringify(v2), name: 'shop-v2.yaml' });
    expect(preview.body.from).toBe('shop-v2.yaml');
    const list = path.join(root, 'requests/Shop/List items.yaml');
    await fs.writeFile(list, (await fs.readFile(list, 'utf8')).replace('docs: All items.', 'docs: Edited after the preview.'));
    const snapshot = await fs.readdir(path.join(root, 'requests/Shop'));
    const applied = await call<{ error: string }>('POST', '/api/update/apply', { planId: preview.body.planId });
    expect(applied.status).toBe(409);
    expect(applied.body.error).toMatch(/changed since the preview.*preview again\. Nothing was written\./);
    expect(await fs.readdir(path.join(root, 'requests/Shop'))).toEqual(snapshot);
  });

  it('says what is wrong with bad input, in one line each', async () => {
    const { call } = await shopApp();
    const cases: Array<[unknown, number, RegExp]> = [
      [{ folder: 'Nope' }, 404, /There is no folder "Nope" under requests\//],
      [{ folder: 'Plain' }, 400, /was not imported from an OpenAPI document/],
      [{ folder: 'Shop', text: 'just text, no document' }, 400, /./],
      [{ folder: 'Shop', text: '{"swagger": "1.2", "apis": []}' }, 400, /./],
      [{ folder: 'Shop', url: 'file:///etc/passwd' }, 400, /Give an http:\/\/ or https:\/\/ URL/],
      [{ folder: 42 }, 400, /"folder" is missing/],
      [{ folder: '../../etc' }, 404, /There is no folder/],
    ];
    for (const [body, status, message] of cases) {
      const answer = await call<{ error: string }>('POST', '/api/update/preview', body);
      expect([JSON.stringify(body), answer.status]).toEqual([JSON.stringify(body), status]);
      expect(answer.body.error).toMatch(message);
      expect(answer.body.error).not.toMatch(/\n\s+at /); // a message, not a stack
    }
    expect((await call('POST', '/api/update/apply', { planId: 'no-such-plan' })).status).toBe(404);
    expect((await call<{ error: string }>('GET', '/api/update/source?folder=Plain')).body.error).toMatch(/not imported from an OpenAPI document/);
  });
});

describe('history through the app', () => {
  it("keeps each send's status as its kind words it and the kind's verdict: a gRPC NOT_FOUND is a failed send, not a status below 400", async () => {
    const peer = await startGrpcPeer();
    try {
      const body = (text: string) => ({ type: 'json', text });
      const { call } = await appForTest({
        'requests/Missing.yaml': { name: 'Missing', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Say', body: body('{"text": "x", "failWith": true}') },
        'requests/Hello.yaml': { name: 'Hello', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Say', body: body('{"text": "ann"}') },
      });
      expect((await call<SendResponse>('POST', '/api/send', { path: 'Missing.yaml' })).body.result.statusLabel).toBe('5 NOT_FOUND: no greeting for x');
      await call<SendResponse>('POST', '/api/send', { path: 'Hello.yaml' });
      const { entries } = (await call<{ entries: HistoryView[] }>('GET', '/api/history')).body;
      expect(entries.map((e) => [e.path, e.status, e.statusLabel, e.ok])).toEqual([
        ['Hello.yaml', 0, '0 OK', true],
        ['Missing.yaml', 5, '5 NOT_FOUND: no greeting for x', false],
      ]);
    } finally {
      await peer.close();
    }
  });

  it('lists a send with its answer kept, and refuses keys that are not one', async () => {
    const server = http.createServer((_req, res) => res.end('{"pong":true}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const { ws, call } = await appForTest({ 'requests/Ping.yaml': { name: 'Ping', url: `http://127.0.0.1:${port}/ping` } });
      expect((await call<{ entries: HistoryView[] }>('GET', '/api/history')).body.entries).toEqual([]);
      const sent = await call<SendResponse>('POST', '/api/send', { path: 'Ping.yaml' });
      expect(sent.body.result.status).toBe(200);
      const { entries } = (await call<{ entries: HistoryView[] }>('GET', '/api/history')).body;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ path: 'Ping.yaml', method: 'GET', status: 200, kept: true });
      const kept = await call<SendResponse>('GET', `/api/history/result?key=${entries[0]!.key}`);
      expect(Buffer.from(kept.body.response!.bodyBase64, 'base64').toString()).toBe('{"pong":true}');
      for (const key of ['', '../../secret.key', 'x'.repeat(10_000), '%00', entries[0]!.key.toUpperCase()]) {
        const answer = await call<{ error: string }>('GET', `/api/history/result?key=${encodeURIComponent(key)}`);
        expect(answer.status).toBe(404);
        expect(answer.body.error).toMatch(/not kept on this computer/);
      }
      // Kept in the data folder, sealed: the body is not readable there, and not in the workspace.
      const dataFiles = (await fs.readdir(ws.dataDir, { recursive: true })) as string[];
      const results = dataFiles.filter((f) => f.includes(`results${path.sep}`));
      expect(results).toHaveLength(1);
      expect(await fs.readFile(path.join(ws.dataDir, results[0]!), 'utf8')).not.toContain('pong');
      expect(((await fs.readdir(ws.root, { recursive: true })) as string[]).some((f) => /results|history/.test(f))).toBe(false);
    } finally {
      server.close();
    }
  });
});

describe('kept answers in the data folder', () => {
  it(`keeps the newest ${RESULTS_KEPT}, sealed, and refuses a link`, async () => {
    const dir = path.join(await tempDir(), 'results');
    const store = new SendResults(dir);
    const key = (i: number) => i.toString(16).padStart(32, '0');
    for (let i = 0; i < RESULTS_KEPT + 5; i++) {
      await store.save(key(i), { n: i });
      // Distinct modification times, so "newest" is well defined on coarse clocks.
      const when = new Date(Date.now() - (RESULTS_KEPT + 5 - i) * 1000);
      await fs.utimes(path.join(dir, `${key(i)}.json`), when, when);
    }
    await store.save(key(999), { n: 999 });
    const keys = await store.keys();
    expect(keys.size).toBe(RESULTS_KEPT);
    expect(keys.has(key(999))).toBe(true);
    expect(keys.has(key(0))).toBe(false);
    expect(await store.read(key(999))).toEqual({ n: 999 });
    expect(await store.read(key(0))).toBeUndefined();
    await fs.writeFile(path.join(dir, `${key(1000)}.json`), 'not json');
    expect(await store.read(key(1000))).toBeUndefined();
    await fs.symlink('/etc/hostname', path.join(dir, `${key(1001)}.json`));
    await expect(store.read(key(1001))).rejects.toThrow(/symbolic link; Ferry never follows links/);
  });
});

describe('the compact tree', () => {
  it('expands to the same tree as the full form, a third of the bytes or less', async () => {
    const { call } = await appForTest({
      'requests/A/_folder.yaml': { name: 'Area A', openapi: { spec: 'specs/a.yaml' } },
      'requests/A/Get.yaml': { name: 'Get it', method: 'get', url: 'http://x/', openapi: { operation: 'GET /', removed: true } },
      'requests/A/Events.yaml': { name: 'Events', kind: 'sse', url: 'http://x/events' },
      'requests/Broken.yaml': 'name: [unclosed',
      ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`requests/Many/Folder ${i % 10}/Request ${i}.yaml`, { name: `Request ${i}`, method: 'POST', url: `http://x/${i}` }])),
    });
    const full = await call<WorkspaceInfo>('GET', '/api/workspace');
    const compact = await call<CompactWorkspaceInfo>('GET', '/api/workspace?tree=compact');
    expect(expandTree(compact.body.compactTree)).toEqual(full.body.tree);
    expect(JSON.stringify(compact.body).length).toBeLessThan(JSON.stringify(full.body).length * 0.6);
    const { compactTree: _tree, ...rest } = compact.body;
    const { tree: _full, ...fullRest } = full.body;
    expect(rest).toEqual(fullRest);
  });
});

describe('the app\'s wording of a URL whose host is still a {{placeholder}}', () => {
  it('tells the app\'s user to pick an environment in the app, not the CLI\'s -e, for a send and code export', async () => {
    const { call } = await appForTest({ 'requests/Far.yaml': { name: 'Far', url: '{{baseUrl}}/users' } });
    const remedy = 'define the variable or choose an environment in the Environment selector of the top bar.';
    const sent = await call<SendResponse>('POST', '/api/send', { path: 'Far.yaml' });
    expect(sent.body.result.error).toBe(`requests/Far.yaml: the URL still holds {{baseUrl}} where the host should be; ${remedy}`);
    const exported = await call<{ error: string }>('POST', '/api/export', { path: 'Far.yaml', lang: 'curl' });
    expect(exported.status).toBe(400);
    expect(exported.body.error).toContain(remedy);
    expect(JSON.stringify([sent.body, exported.body])).not.toContain('-e.');
  });
});

describe('spec 7: an OpenAPI document without host information, imported through the app', () => {
  it('is refused with the spec\'s words, naming the dialog\'s Base URL field; with a base URL given it previews and imports with it, and nothing is written before', async () => {
    const { ws, call } = await appForTest({});
    const hostless = JSON.stringify({ openapi: '3.0.3', info: { title: 'Nowhere', version: '1' }, paths: { '/items': { get: { summary: 'List items', responses: ok } } } });
    for (const route of ['/api/import/preview', '/api/import']) {
      const refused = await call<{ error: string }>('POST', route, { text: hostless, fileName: 'nowhere.json' });
      expect(refused.status, route).toBe(400);
      expect(refused.body.error).toBe('The document does not say where the API runs; give its base URL and import again (type it in Base URL).');
    }
    expect(await fs.readdir(path.join(ws.root, 'requests'))).toEqual([]);
    const preview = await call<{ requests: number }>('POST', '/api/import/preview', { text: hostless, fileName: 'nowhere.json', baseUrl: 'http://127.0.0.1:4010' });
    expect(preview.status).toBe(200);
    expect(preview.body.requests).toBe(1);
    expect((await call('POST', '/api/import', { text: hostless, fileName: 'nowhere.json', baseUrl: 'http://127.0.0.1:4010' })).status).toBe(200);
    const info = await call<WorkspaceInfo>('GET', '/api/workspace');
    expect(JSON.stringify(info.body)).toContain('List items');
    const written = await fs.readdir(path.join(ws.root, 'environments'));
    const environment = await fs.readFile(path.join(ws.root, 'environments', written[0]!), 'utf8');
    expect(environment).toContain('http://127.0.0.1:4010');
  });
});
