/** Update from API spec (spec 4.5) with hand-written pairs of document versions. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitImport } from '../../../src/importers/commit.js';
import { importOpenApiText } from '../../../src/importers/openapi/index.js';
import { applyUpdate, formatPreview, planUpdate } from '../../../src/importers/openapi/update/index.js';
import { openWorkspace, walkRequests, type FolderNode } from '../../../src/workspace/index.js';
import { listFiles, tempWorkspace, yamlDoc } from './helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const ok = { 200: { description: 'ok' } };
const v1 = {
  openapi: '3.0.3',
  info: { title: 'Shop' },
  servers: [{ url: 'https://shop.example.test' }],
  tags: [{ name: 'items' }],
  paths: {
    '/items': {
      get: { tags: ['items'], summary: 'List items', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }], responses: ok },
      post: { tags: ['items'], summary: 'Create item', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string' } } } } } }, responses: ok },
    },
    '/items/{id}': {
      get: { tags: ['items'], summary: 'Get item', description: 'One item.', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok },
      delete: { tags: ['items'], summary: 'Delete item', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok },
    },
    '/health': { get: { summary: 'Health', responses: ok } },
  },
};

/** v2: List items gains a header, Create item's body and docs change, Delete is gone, two operations are new. */
const v2 = structuredClone(v1) as any;
v2.paths['/items'].get.parameters.push({ name: 'X-Page', in: 'header', required: true, schema: { type: 'string', example: 'p1' } });
v2.paths['/items'].post.requestBody.content['application/json'].schema.properties.price = { type: 'number' };
v2.paths['/items'].post.description = 'Creates an item.';
v2.paths['/items/{id}'].get.description = 'One item, by id.';
delete v2.paths['/items/{id}'].delete;
v2.paths['/orders/{orderId}/lines/{lineNo}'] = { get: { tags: ['orders'], summary: 'Order line', parameters: [{ name: 'orderId', in: 'path', required: true, example: 'o-1' }, { name: 'lineNo', in: 'path', required: true }], responses: ok } };
v2.paths['/items/{id}/restock'] = { post: { tags: ['items'], summary: 'Restock', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok } };

async function importedWorkspace(doc: unknown): Promise<string> {
  const root = await tempWorkspace();
  dirs.push(root);
  const ws = await openWorkspace(root);
  await commitImport({ root, id: ws.id }, importOpenApiText(yamlDoc(doc), { label: 'shop.yaml' }));
  return root;
}

async function requestsByOperation(root: string) {
  const ws = await openWorkspace(root);
  const folder = ws.tree.children[0] as FolderNode;
  const out = new Map<string, { path: string; request: any }>();
  for (const { node } of walkRequests(folder)) out.set(String(node.request.openapi?.operation), { path: node.path, request: node.request });
  return { ws, folder, requests: out };
}

async function editRequest(root: string, requestPath: string, edit: (text: string) => string): Promise<void> {
  const file = path.join(root, 'requests', requestPath);
  await fs.writeFile(file, edit(await fs.readFile(file, 'utf8')));
}

describe('update from API spec', () => {
  it('previews and applies added, changed and removed operations, keeping the user\'s edits', async () => {
    const root = await importedWorkspace(v1);
    const before = await requestsByOperation(root);
    // The user edits the POST body and renames a request; the GET /items/{id} docs stay as imported.
    await editRequest(root, before.requests.get('POST /items')!.path, (t) => t.replace(/text: \|-?\n(\s+)\{[\s\S]*?\n\1\}/, 'text: \'{"name": "mine"}\''));
    await editRequest(root, before.requests.get('GET /items')!.path, (t) => t.replace('name: List items', 'name: All my items').concat('settings:\n  timeoutMs: 5\nscripts:\n  postResponse: test("ok", () => {})\n'));
    const edited = await requestsByOperation(root);
    expect(edited.requests.get('POST /items')!.request.body.text).toBe('{"name": "mine"}');

    const snapshot = await listFiles(root);
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'shop-v2.yaml' } });
    expect(await listFiles(root)).toEqual(snapshot); // planning writes nothing

    expect(plan.upToDate).toBe(false);
    expect(plan.added.map((a) => a.operation).sort()).toEqual(['GET /orders/{orderId}/lines/{lineNo}', 'POST /items/{id}/restock']);
    expect(plan.removed.map((r) => r.operation)).toEqual(['DELETE /items/{id}']);
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('GET /items')).toMatchObject({ update: ['headers'], kept: [] });
    expect(changed.get('POST /items')).toMatchObject({ update: ['docs'], kept: ['body'] });
    expect(changed.get('GET /items/{id}')).toMatchObject({ update: ['docs'], kept: [] });
    expect(plan.newVariables.sort()).toEqual(['lineNo', 'orderId']);
    expect(plan.environment).toBe('Shop');

    const preview = formatPreview(plan);
    expect(preview).toContain('Added (2)');
    expect(preview).toContain('kept (your edits): body');
    expect(preview).toContain('No longer in the spec (kept, marked) (1)');
    expect(preview).toMatch(/New environment variables in "Shop" \(2\)/);

    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(after.ws.warnings).toEqual([]);
    const list = after.requests.get('GET /items')!.request;
    expect(list.name).toBe('All my items'); // names never touched
    expect(list.scripts.postResponse).toContain('test("ok"'); // scripts never touched
    expect(list.settings.timeoutMs).toBe(5); // settings never touched
    expect(list.headers).toEqual([{ key: 'X-Page', value: 'p1', enabled: true, description: '' }]);
    expect(after.requests.get('POST /items')!.request.body.text).toBe('{"name": "mine"}');
    expect(after.requests.get('POST /items')!.request.docs).toBe('Creates an item.');
    expect(after.requests.get('DELETE /items/{id}')!.request.openapi.removed).toBe(true);
    const restock = after.requests.get('POST /items/{id}/restock')!;
    expect(restock.path.startsWith('Shop/items/')).toBe(true);
    const line = after.requests.get('GET /orders/{orderId}/lines/{lineNo}')!;
    expect(line.path).toMatch(/^Shop\/orders\//);
    expect(line.request.url).toBe('{{baseUrl}}/orders/{{orderId}}/lines/{{lineNo}}');
    const env = after.ws.environments.find((e) => e.value.name === 'Shop')!;
    expect(env.value.variables.map((v) => v.key)).toEqual(['baseUrl', 'itemId', 'orderId', 'lineNo']);
    expect(env.value.variables.find((v) => v.key === 'orderId')?.value).toBe('o-1');
    // The kept document is the new version.
    const spec = after.folder.settings.openapi!.spec!;
    expect(await fs.readFile(path.join(root, spec), 'utf8')).toBe(yamlDoc(v2));

    // Updating again with the same version: nothing to do.
    const again = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'shop-v2.yaml' } });
    expect(again.upToDate).toBe(true);
    expect(again.writes).toEqual([]);
    expect(formatPreview(again)).toContain('The folder already matches this version.');

    // The removed operation comes back: the mark goes away.
    const v3 = structuredClone(v2) as any;
    v3.paths['/items/{id}'].delete = v1.paths['/items/{id}'].delete;
    const back = await planUpdate(root, { folder: 'requests/Shop/', text: yamlDoc(v3), source: { label: 'shop-v3.yaml' } });
    expect(back.changed.find((c) => c.operation === 'DELETE /items/{id}')).toMatchObject({ restored: true });
    expect(formatPreview(back)).toContain('back in the spec');
    await applyUpdate(root, back);
    const restored = await requestsByOperation(root);
    expect(restored.requests.get('DELETE /items/{id}')!.request.openapi.removed).toBeUndefined();
  });

  it('lists only the notes this version brings: the ones the import already gave are not repeated at every update', async () => {
    // v1 has a note of its own (an API key in a cookie is not imported as auth).
    const noted = structuredClone(v1) as any;
    noted.components = { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } } };
    noted.security = [{ session: [] }];
    const root = await importedWorkspace(noted);
    const next = structuredClone(noted) as any;
    next.paths['/items/{id}'].get.description = 'One item, by id.';
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(next), source: { label: 'v2' } });
    expect(plan.changed.map((c) => c.operation)).toEqual(['GET /items/{id}']);
    expect(plan.notes).toEqual([]);
    expect(formatPreview(plan)).not.toContain('Notes');
    // A version that adds a note of its own (an operation without responses) shows that one only.
    next.paths['/ping'] = { get: { summary: 'Ping' } };
    const withNew = await planUpdate(root, { folder: 'Shop', text: yamlDoc(next), source: { label: 'v2' } });
    expect(withNew.notes).toEqual(['An operation documents no responses, so responses cannot be checked against the document: GET /ping.']);
    expect(formatPreview(withNew)).toMatch(/\nNotes\n {2}- An operation documents no responses[^\n]*$/);
    // Without the old document nothing says which notes are known: all are listed.
    const { folder } = await requestsByOperation(root);
    await fs.rm(path.join(root, folder.settings.openapi!.spec!));
    const blind = await planUpdate(root, { folder: 'Shop', text: yamlDoc(next), source: { label: 'v2' } });
    expect(blind.notes).toHaveLength(2);
  });

  it('URLs an earlier Ferry wrote with the host of a path server that is the document\'s own are not rewritten, nor listed, unless the document changes them', async () => {
    const host = 'https://t.example.test';
    const op = (summary: string) => ({ get: { summary, servers: [{ url: host }], responses: ok } });
    const twilioLike = { openapi: '3.0.3', info: { title: 'Tw' }, servers: [{ url: host }], paths: { '/a': op('A'), '/b': op('B'), '/c': op('C') } };
    const root = await importedWorkspace(twilioLike);
    const before = await requestsByOperation(root);
    expect(before.requests.get('GET /a')!.request.url).toBe('{{baseUrl}}/a');
    // As Ferry wrote them before: the path server's URL written out in every request.
    for (const { path: file } of before.requests.values()) await editRequest(root, file, (t) => t.replace(/"\{\{baseUrl\}\}(\/[^"]*)"/, `${host}$1`));
    await editRequest(root, before.requests.get('GET /c')!.path, (t) => t.replace(`${host}/c`, `${host}/c?mine=1`));
    const files = await listFiles(root);
    const same = await planUpdate(root, { folder: 'Tw', text: yamlDoc(twilioLike), source: { label: 'v1' } });
    expect(same.upToDate).toBe(true);
    expect(same.writes).toEqual([]);
    // A version that changes /a and /c: /a takes it (in the {{baseUrl}} form), /c keeps your edit, /b is not touched.
    const next = structuredClone(twilioLike) as any;
    for (const key of ['/a', '/c']) next.paths[key].get.parameters = [{ name: 'page', in: 'query', required: true, example: 2 }];
    const plan = await planUpdate(root, { folder: 'Tw', text: yamlDoc(next), source: { label: 'v2' } });
    expect(plan.changed.map((c) => [c.operation, c.update, c.kept])).toEqual([['GET /a', ['url'], []], ['GET /c', [], ['url']]]);
    // Without the old document (URLs take the new version) /b is the same request all the same.
    const spec = path.join(root, before.folder.settings.openapi!.spec!);
    const kept = await fs.readFile(spec, 'utf8');
    await fs.rm(spec);
    const blind = await planUpdate(root, { folder: 'Tw', text: yamlDoc(next), source: { label: 'v2' } });
    expect(blind.changed.map((c) => [c.operation, c.update])).toEqual([['GET /a', ['url']], ['GET /c', ['url']]]);
    await fs.writeFile(spec, kept);
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(after.requests.get('GET /a')!.request.url).toBe('{{baseUrl}}/a?page=2');
    expect(after.requests.get('GET /b')!.request.url).toBe(`${host}/b`);
    expect(after.requests.get('GET /c')!.request.url).toBe(`${host}/c?mine=1`);
    expect(await listFiles(root)).toEqual(files);
  });

  it('updates an operation whose summary changed like any other: the request keeps its name, the preview gives the new one', async () => {
    const root = await importedWorkspace(v1);
    const renamed = structuredClone(v1) as any;
    renamed.paths['/items/{id}'].get.summary = 'Fetch one item';
    renamed.paths['/items/{id}'].get.description = 'One item, by id.';
    renamed.paths['/items/{id}'].get.parameters.push({ name: 'X-Trace', in: 'header', required: true, example: 't1' });
    renamed.paths['/health'].get.summary = 'Liveness';
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(renamed), source: { label: 'v2' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('GET /items/{id}')).toMatchObject({ name: 'Get item', update: ['headers', 'docs'], kept: [], documentName: 'Fetch one item' });
    // Only the summary changed: still listed, so the new name is not lost silently.
    expect(changed.get('GET /health')).toMatchObject({ name: 'Health', update: [], kept: [], documentName: 'Liveness' });
    expect(plan.added).toEqual([]);
    expect(plan.removed).toEqual([]);
    expect(formatPreview(plan)).toContain('the document now calls it "Fetch one item"; the request keeps its name (names are never touched)');
    await applyUpdate(root, plan);
    const after = (await requestsByOperation(root)).requests.get('GET /items/{id}')!;
    expect(after.path).toBe('Shop/items/Get item.yaml');
    expect(after.request.name).toBe('Get item');
    expect(after.request.docs).toBe('One item, by id.');
    expect(after.request.headers).toEqual([{ key: 'X-Trace', value: 't1', enabled: true, description: '' }]);
    const again = await planUpdate(root, { folder: 'Shop', text: yamlDoc(renamed), source: { label: 'v2' } });
    expect(again.upToDate).toBe(true);
  });

  it('values an earlier import left empty (no example: Ferry now generates one) are not taken for your edits', async () => {
    const search = {
      openapi: '3.0.3',
      info: { title: 'Finder' },
      servers: [{ url: 'https://finder.example.test' }],
      paths: {
        '/things/{thing_id}': {
          get: {
            summary: 'Find',
            parameters: [
              { name: 'thing_id', in: 'path', required: true, schema: { type: 'string' } },
              { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
              { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'integer' } },
            ],
            responses: ok,
          },
        },
        '/other': { get: { summary: 'Other', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }], responses: ok } },
      },
    };
    const root = await importedWorkspace(search);
    const before = await requestsByOperation(root);
    const find = before.requests.get('GET /things/{thing_id}')!;
    expect(find.request.url).toBe('{{baseUrl}}/things/{{thingId}}?q=string');
    // As imports before generated values wrote them: parameters without an example left empty.
    await editRequest(root, find.path, (t) => t.replace('?q=string', '?q=').replace('value: "0"', 'value: ""'));
    const envFile = path.join(root, 'environments', 'Finder.yaml');
    await fs.writeFile(envFile, (await fs.readFile(envFile, 'utf8')).replace(/(key: thingId\n\s+value:) string/, '$1 ""'));
    // A real edit of the same kind of value on another request.
    await editRequest(root, before.requests.get('GET /other')!.path, (t) => t.replace('?q=string', '?q=shoes'));

    const next = structuredClone(search) as any;
    for (const item of [next.paths['/things/{thing_id}'].get, next.paths['/other'].get]) {
      item.parameters.push({ name: 'page', in: 'query', required: true, schema: { type: 'integer', example: 2 } });
    }
    next.paths['/things/{thing_id}'].get.parameters[0].example = 't-1';
    const plan = await planUpdate(root, { folder: 'Finder', text: yamlDoc(next), source: { label: 'v2' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('GET /things/{thing_id}')).toMatchObject({ update: ['url', 'headers'], kept: [] });
    expect(changed.get('GET /other')).toMatchObject({ update: [], kept: ['url'] });
    expect(plan.updatedVariables).toEqual(['thingId']);
    expect(formatPreview(plan)).not.toMatch(/GET \/things[^\n]*\n(\s+update[^\n]*\n)?\s+kept/);
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(after.requests.get('GET /things/{thing_id}')!.request.url).toBe('{{baseUrl}}/things/{{thingId}}?q=string&page=2');
    expect(after.requests.get('GET /things/{thing_id}')!.request.headers).toEqual([{ key: 'X-Tenant', value: '0', enabled: true, description: '' }]);
    expect(after.requests.get('GET /other')!.request.url).toBe('{{baseUrl}}/other?q=shoes');
    const env = after.ws.environments.find((e) => e.value.name === 'Finder')!;
    expect(env.value.variables.find((v) => v.key === 'thingId')?.value).toBe('t-1');
  });

  it('a generated body that only an earlier Ferry generated differently is not taken for your edit; edited and example bodies stay kept', async () => {
    const petBody = (extra: Record<string, unknown> = {}) => ({ content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', ...extra } } } });
    const pets = {
      openapi: '3.1.0',
      info: { title: 'Pets' },
      servers: [{ url: 'https://pets.example.test' }],
      paths: {
        '/pets': { post: { summary: 'Create', requestBody: petBody(), responses: ok } },
        '/pets/{id}': { put: { summary: 'Replace', requestBody: petBody(), responses: ok } },
        '/pets/{id}/note': { put: { summary: 'Note', requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: { count: 5, note: 'hi' } } } }, responses: ok } },
      },
      components: {
        schemas: {
          Count: { type: 'integer' },
          Pet: { type: 'object', properties: { name: { type: 'string', minLength: 8 }, born: { type: 'string', format: 'date' }, count: { $ref: '#/components/schemas/Count', minimum: 5 }, tame: { type: 'boolean', default: false } } },
        },
      },
    };
    const root = await importedWorkspace(pets);
    const before = await requestsByOperation(root);
    const bodyOf = (operation: string, map = before.requests) => JSON.parse(map.get(operation)!.request.body.text);
    expect(bodyOf('POST /pets')).toEqual({ name: 'stringst', born: '2024-01-01', count: 5, tame: false });
    const setBody = (operation: string, value: unknown) =>
      editRequest(root, before.requests.get(operation)!.path, (t) => t.replace(/text: \|-?\n(\s+)\{[\s\S]*?\n\1\}/, `text: '${JSON.stringify(value)}'`));
    // As an earlier Ferry generated it (keywords beside $ref ignored, no minLength, defaults of any kind): placeholders only.
    await setBody('POST /pets', { name: 'string', born: '2024-01-01', count: 0, tame: true });
    // Real edits: a value of the user's own, and a documented example changed to 0.
    await setBody('PUT /pets/{id}', { name: 'Rex', born: '2024-01-01', count: 0, tame: true });
    await setBody('PUT /pets/{id}/note', { count: 0, note: 'hi' });

    const next = structuredClone(pets) as any;
    next.components.schemas.Pet.properties.tag = { type: 'string' };
    next.paths['/pets/{id}/note'].put.requestBody.content['application/json'].example.note = 'hello';
    const plan = await planUpdate(root, { folder: 'Pets', text: yamlDoc(next), source: { label: 'v2' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('POST /pets')).toMatchObject({ update: ['body'], kept: [] });
    expect(changed.get('PUT /pets/{id}')).toMatchObject({ update: [], kept: ['body'] });
    expect(changed.get('PUT /pets/{id}/note')).toMatchObject({ update: [], kept: ['body'] });
    await applyUpdate(root, plan);
    const after = (await requestsByOperation(root)).requests;
    expect(bodyOf('POST /pets', after)).toEqual({ name: 'stringst', born: '2024-01-01', count: 5, tame: false, tag: 'string' });
    expect(bodyOf('PUT /pets/{id}', after)).toEqual({ name: 'Rex', born: '2024-01-01', count: 0, tame: true });
  });

  it('query parameters as earlier Ferry versions wrote them (objects as JSON text, arrays by repeating the key) are not taken for your edits', async () => {
    const search = (extra: Record<string, unknown>[] = []) => ({
      openapi: '3.0.3',
      info: { title: 'Query' },
      servers: [{ url: 'https://query.example.test' }],
      paths: {
        '/points': { get: { summary: 'Points', parameters: [{ name: 'point', in: 'query', required: true, schema: { type: 'object' }, example: { x: 1 } }, ...extra], responses: ok } },
        '/ids': { get: { summary: 'Ids', parameters: [{ name: 'ids', in: 'query', required: true, explode: false, schema: { type: 'array', items: { type: 'integer' } }, example: [1, 2] }, ...extra], responses: ok } },
      },
    });
    const root = await importedWorkspace(search());
    const before = await requestsByOperation(root);
    expect(before.requests.get('GET /points')!.request.url).toBe('{{baseUrl}}/points?x=1');
    expect(before.requests.get('GET /ids')!.request.url).toBe('{{baseUrl}}/ids?ids=1,2');
    await editRequest(root, before.requests.get('GET /points')!.path, (t) => t.replace('?x=1', '?point=%7B%22x%22:1%7D'));
    await editRequest(root, before.requests.get('GET /ids')!.path, (t) => t.replace('?ids=1,2', '?ids=1&ids=2'));
    const plan = await planUpdate(root, { folder: 'Query', text: yamlDoc(search([{ name: 'page', in: 'query', required: true, example: 3 }])), source: { label: 'v2' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('GET /points')).toMatchObject({ update: ['url'], kept: [] });
    expect(changed.get('GET /ids')).toMatchObject({ update: ['url'], kept: [] });
    await applyUpdate(root, plan);
    const after = (await requestsByOperation(root)).requests;
    expect(after.get('GET /points')!.request.url).toBe('{{baseUrl}}/points?x=1&page=3');
    expect(after.get('GET /ids')!.request.url).toBe('{{baseUrl}}/ids?ids=1,2&page=3');
  });

  it('a 3.1 parameter description an earlier Ferry took from the shared parameter (ignoring the one beside the reference) is not taken for your edit', async () => {
    const doc = (override: string) => ({
      openapi: '3.1.0',
      info: { title: 'Described' },
      servers: [{ url: 'https://described.example.test' }],
      paths: { '/items': { get: { summary: 'List', parameters: [{ $ref: '#/components/parameters/Limit', description: override }], responses: ok } } },
      components: { parameters: { Limit: { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer' } } } },
    });
    const root = await importedWorkspace(doc('At most 50'));
    const list = (await requestsByOperation(root)).requests.get('GET /items')!;
    expect(list.request.disabledParams).toEqual([{ key: 'limit', value: '', description: 'At most 50', enabled: true }]);
    await editRequest(root, list.path, (t) => t.replace('description: At most 50', 'description: Page size'));
    const plan = await planUpdate(root, { folder: 'Described', text: yamlDoc(doc('At most 20')), source: { label: 'v2' } });
    expect(plan.changed).toMatchObject([{ operation: 'GET /items', update: ['disabledParams'], kept: [] }]);
  });

  it('a 3.1 value an earlier Ferry generated ignoring the keywords beside a $ref is not taken for your edit', async () => {
    const doc = (example: number) => ({
      openapi: '3.1.0',
      info: { title: 'Beside' },
      servers: [{ url: 'https://beside.example.test' }],
      paths: { '/items': { get: { summary: 'List', parameters: [{ name: 'size', in: 'query', required: true, schema: { $ref: '#/components/schemas/Size', example } }], responses: ok } } },
      components: { schemas: { Size: { type: 'integer', example: 1 } } },
    });
    const root = await importedWorkspace(doc(42));
    const list = (await requestsByOperation(root)).requests.get('GET /items')!;
    expect(list.request.url).toBe('{{baseUrl}}/items?size=42');
    await editRequest(root, list.path, (t) => t.replace('?size=42', '?size=1'));
    const plan = await planUpdate(root, { folder: 'Beside', text: yamlDoc(doc(43)), source: { label: 'v2' } });
    expect(plan.changed).toMatchObject([{ operation: 'GET /items', update: ['url'], kept: [] }]);
  });

  it('bodies as earlier Ferry versions wrote them (example references as written, a string body bare) are not taken for your edits', async () => {
    const json = (content: Record<string, unknown>) => ({ content: { 'application/json': content } });
    const labels = {
      openapi: '3.0.3',
      info: { title: 'Labels' },
      servers: [{ url: 'https://labels.example.test' }],
      paths: {
        '/labels': { post: { summary: 'Label', requestBody: json({ example: { language: { $ref: '#/components/schemas/Lang/enum/0' } } }), responses: ok } },
        '/word': { post: { summary: 'Word', requestBody: json({ schema: { type: 'string', enum: ['.', 'X'] } }), responses: ok } },
      },
      components: { schemas: { Lang: { type: 'string', enum: ['en', 'de'] } } },
    };
    const root = await importedWorkspace(labels);
    const before = await requestsByOperation(root);
    expect(JSON.parse(before.requests.get('POST /labels')!.request.body.text)).toEqual({ language: 'en' });
    expect(before.requests.get('POST /word')!.request.body.text).toBe('"."');
    const setText = (operation: string, text: string) =>
      editRequest(root, before.requests.get(operation)!.path, (t) => t.replace(/  text: .*(\n    .*)*/, `  text: ${JSON.stringify(text)}`));
    await setText('POST /labels', JSON.stringify({ language: { $ref: '#/components/schemas/Lang/enum/0' } }, null, 2));
    await setText('POST /word', '.');
    expect((await requestsByOperation(root)).requests.get('POST /word')!.request.body.text).toBe('.');

    const next = structuredClone(labels) as any;
    next.paths['/labels'].post.requestBody.content['application/json'].example.color = 'red';
    next.paths['/word'].post.requestBody.content['application/json'].schema.enum = ['X', '.'];
    const plan = await planUpdate(root, { folder: 'Labels', text: yamlDoc(next), source: { label: 'v2' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('POST /labels')).toMatchObject({ update: ['body'], kept: [] });
    expect(changed.get('POST /word')).toMatchObject({ update: ['body'], kept: [] });
    await applyUpdate(root, plan);
    const after = (await requestsByOperation(root)).requests;
    expect(JSON.parse(after.get('POST /labels')!.request.body.text)).toEqual({ language: 'en', color: 'red' });
    expect(after.get('POST /word')!.request.body.text).toBe('"X"');
  });

  it('moves baseUrl with the document\'s server unless the environment has the user\'s own value', async () => {
    const moved = structuredClone(v1) as any;
    moved.servers = [{ url: 'https://shop.example.test/v2' }];
    const root = await importedWorkspace(v1);
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(moved), source: { label: 'v2' } });
    expect(plan.updatedVariables).toEqual(['baseUrl']);
    expect(plan.upToDate).toBe(false);
    expect(formatPreview(plan)).toMatch(/Environment variables updated in "Shop" \(1\)\n {2}~ baseUrl/);
    await applyUpdate(root, plan);
    const env = (await openWorkspace(root)).environments.find((e) => e.value.name === 'Shop')!;
    expect(env.value.variables.find((v) => v.key === 'baseUrl')?.value).toBe('https://shop.example.test/v2');

    const mine = await importedWorkspace(v1);
    const envFile = path.join(mine, 'environments', 'Shop.yaml');
    await fs.writeFile(envFile, (await fs.readFile(envFile, 'utf8')).replace('https://shop.example.test', 'http://127.0.0.1:9999'));
    const kept = await planUpdate(mine, { folder: 'Shop', text: yamlDoc(moved), source: { label: 'v2' } });
    expect(kept.updatedVariables).toEqual([]);
    await applyUpdate(mine, kept);
    expect(await fs.readFile(envFile, 'utf8')).toContain('http://127.0.0.1:9999');
  });

  it('an environment file that cannot be read is not replaced by a second environment of the same name: the update stops, naming it', async () => {
    const root = await importedWorkspace(v1);
    const envFile = path.join(root, 'environments', 'Shop.yaml');
    const good = await fs.readFile(envFile, 'utf8');
    // A hand edit gone wrong: a key written twice.
    await fs.writeFile(envFile, good.replace(/(key: itemId\n)/, '$1    key: itemNo\n'));
    const before = await listFiles(root);
    await expect(planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } })).rejects.toThrow(
      /^The environment of "Shop" may be one that cannot be read, and the update would add a second "Shop" beside it:\n {2}environments\/Shop\.yaml:\d+:\d+: .*\nFix or remove it, then update again\. Nothing was written\.$/,
    );
    expect(await listFiles(root)).toEqual(before);
    // Fixed, the update adds the new variables to it.
    await fs.writeFile(envFile, good);
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
    expect(plan.createsEnvironment).toBe(false);
    expect(plan.writes.filter((w) => w.file.includes(`${path.sep}environments${path.sep}`)).map((w) => path.basename(w.file))).toEqual(['Shop.yaml']);
  });

  it('an environment file that reads with a warning (a number where text goes) does not stop an update that makes the folder\'s environment', async () => {
    const root = await importedWorkspace(v1);
    // The folder's own environment deleted by hand; another one holds `value: 007` (read as 7, warned).
    await fs.rm(path.join(root, 'environments', 'Shop.yaml'));
    await fs.writeFile(path.join(root, 'environments', 'Other.yaml'), 'name: Other\nvariables:\n  - key: code\n    value: 007\n');
    expect((await openWorkspace(root)).warnings.map((w) => w.file)).toContain('environments/Other.yaml');
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
    expect(plan.createsEnvironment).toBe(true);
    await applyUpdate(root, plan);
    expect((await openWorkspace(root)).environments.map((e) => e.value.name).sort()).toEqual(['Other', 'Shop']);
  });

  it('of two imports named alike, new variables go into the environment of the folder updated', async () => {
    const other = structuredClone(v1) as any;
    other.servers = [{ url: 'https://other.example.test' }];
    const root = await importedWorkspace(v1);
    await commitImport({ root, id: (await openWorkspace(root)).id }, importOpenApiText(yamlDoc(other), { label: 'other.yaml' }));
    const ws = await openWorkspace(root);
    const folders = ws.tree.children.filter((n): n is FolderNode => n.type === 'folder');
    expect(folders.map((f) => f.name)).toEqual(['Shop', 'Shop']);
    expect(ws.environments.filter((e) => e.value.name === 'Shop')).toHaveLength(2);
    // The second import's folder and environment: the one whose baseUrl is other.example.test.
    const second = folders.find((f) => f.path !== 'Shop')!;
    const secondEnv = ws.environments.find((e) => e.value.variables.some((v) => v.value === 'https://other.example.test'))!;
    const firstEnv = ws.environments.find((e) => e !== secondEnv && e.value.name === 'Shop')!;
    const firstText = await fs.readFile(path.join(root, firstEnv.file), 'utf8');

    const next = structuredClone(other) as any;
    next.paths['/owners/{ownerId}'] = { get: { summary: 'Owner', parameters: [{ name: 'ownerId', in: 'path', required: true, example: 'ow-1' }], responses: ok } };
    next.servers = [{ url: 'https://other.example.test/v2' }];
    const plan = await planUpdate(root, { folder: second.path, text: yamlDoc(next), source: { label: 'other-v2.yaml' } });
    expect(plan.newVariables).toEqual(['ownerId']);
    expect(plan.updatedVariables).toEqual(['baseUrl']);
    expect(plan.warnings.join('\n')).toContain(`2 environments are named "Shop"; this update uses ${secondEnv.file}`);
    await applyUpdate(root, plan);
    const after = await openWorkspace(root);
    const values = Object.fromEntries(after.environments.find((e) => e.file === secondEnv.file)!.value.variables.map((v) => [v.key, v.value]));
    expect(values).toMatchObject({ baseUrl: 'https://other.example.test/v2', ownerId: 'ow-1' });
    expect(await fs.readFile(path.join(root, firstEnv.file), 'utf8')).toBe(firstText);
  });

  it('a write that fails while staging leaves the workspace as it was (no staged files, no journal)', async () => {
    const root = await importedWorkspace(v1);
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
    // The new tag folder "orders" is taken by a file after planning: staging into it fails.
    await fs.writeFile(path.join(root, 'requests', 'Shop', 'orders'), 'in the way');
    const before = await listFiles(root);
    await expect(applyUpdate(root, plan)).rejects.toThrow(/ENOTDIR|not a directory/);
    expect(await listFiles(root)).toEqual(before);
  });

  it('a read-only request file is not replaced (nothing is written, the file named); a replaced file keeps its permission bits', async () => {
    const root = await importedWorkspace(v1);
    const { requests } = await requestsByOperation(root);
    const listed = path.join(root, 'requests', requests.get('GET /items')!.path);
    const created = path.join(root, 'requests', requests.get('POST /items')!.path);
    await fs.chmod(listed, 0o444);
    await fs.chmod(created, 0o600);
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
    const before = await listFiles(root);
    await expect(applyUpdate(root, plan)).rejects.toThrow(`The update was not written: requests/${requests.get('GET /items')!.path} is read-only (mode 0444). Make it writable (chmod u+w), then update again.`);
    expect(await listFiles(root)).toEqual(before);
    await fs.chmod(listed, 0o640);
    await applyUpdate(root, await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } }));
    expect(await fs.readFile(listed, 'utf8')).toContain('X-Page');
    expect(await fs.readFile(created, 'utf8')).toContain('price');
    expect([(await fs.stat(listed)).mode & 0o7777, (await fs.stat(created)).mode & 0o7777]).toEqual([0o640, 0o600]);
  });

  it('matches renamed path parameters, and look-alike paths each to their own request', async () => {
    const get = (summary: string, name: string, description?: string) => ({ get: { summary, ...(description ? { description } : {}), parameters: [{ name, in: 'path', required: true }], responses: ok } });
    const doc = (paths: Record<string, unknown>) => ({ openapi: '3.0.3', info: { title: 'Dup' }, servers: [{ url: 'https://d.example.test' }], paths });
    const root = await importedWorkspace(doc({ '/pets/{id}': get('A', 'id'), '/pets/{petId}': get('B', 'petId'), '/owners/{id}': get('C', 'id') }));
    const plan = await planUpdate(root, {
      folder: 'Dup',
      text: yamlDoc(doc({ '/pets/{id}': get('A', 'id', 'a2'), '/pets/{petId}': get('B', 'petId', 'b2'), '/owners/{ownerId}': get('C', 'ownerId', 'c2') })),
      source: { label: 'v2' },
    });
    expect(plan.added).toEqual([]);
    expect(plan.removed).toEqual([]);
    expect(plan.changed.map((c) => [c.path, c.operation, c.update])).toEqual([
      ['Dup/A.yaml', 'GET /pets/{id}', ['docs']],
      ['Dup/B.yaml', 'GET /pets/{petId}', ['docs']],
      ['Dup/C.yaml', 'GET /owners/{ownerId}', ['docs', 'operation']],
    ]);
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect([...after.requests.keys()].sort()).toEqual(['GET /owners/{ownerId}', 'GET /pets/{id}', 'GET /pets/{petId}']);
    expect(after.requests.get('GET /owners/{ownerId}')!.request.docs).toBe('c2');
    expect(after.requests.get('GET /pets/{petId}')!.request.docs).toBe('b2');
  });

  it('a path parameter the document renames keeps the value you gave the old one; an untouched one takes the new example', async () => {
    const param = (name: string, example?: string) => ({ name, in: 'path', required: true, schema: { type: 'string' }, ...(example ? { example } : {}) });
    const doc = (user: string, order: string, orderExample?: string) => ({
      openapi: '3.0.3',
      info: { title: 'Accounts' },
      servers: [{ url: 'https://a.example.test' }],
      paths: {
        [`/users/{${user}}`]: { get: { summary: 'Get user', parameters: [param(user)], responses: ok }, delete: { summary: 'Delete user', parameters: [param(user)], responses: ok } },
        [`/orders/{${order}}`]: { get: { summary: 'Get order', parameters: [param(order, orderExample)], responses: ok } },
      },
    });
    const root = await importedWorkspace(doc('username', 'order_id'));
    const envFile = path.join(root, 'environments', 'Accounts.yaml');
    await fs.writeFile(envFile, (await fs.readFile(envFile, 'utf8')).replace(/(key: username\n\s+value:) string/, '$1 alice'));
    const plan = await planUpdate(root, { folder: 'Accounts', text: yamlDoc(doc('login', 'orderNo', 'o-9')), source: { label: 'v2' } });
    expect(plan.newVariables).toEqual(['login', 'orderNo']);
    expect(plan.carriedVariables).toEqual({ login: 'username' });
    const preview = formatPreview(plan);
    expect(preview).toContain('+ login (your value of username)');
    expect(preview).toMatch(/\+ orderNo\n/);
    await applyUpdate(root, plan);
    const env = (await openWorkspace(root)).environments.find((e) => e.value.name === 'Accounts')!;
    const value = (key: string) => env.value.variables.find((v) => v.key === key)?.value;
    expect(value('login')).toBe('alice');
    expect(value('orderNo')).toBe('o-9');
    expect(value('username')).toBe('alice'); // the old variable stays (other requests may use it)
    const after = await requestsByOperation(root);
    expect(after.requests.get('DELETE /users/{login}')!.request.url).toBe('{{baseUrl}}/users/{{login}}');
  });

  it('a path parameter renamed to one whose variable other requests already use: the preview warns that your value no longer goes out', async () => {
    const param = (name: string) => ({ name, in: 'path', required: true, schema: { type: 'string' } });
    const doc = (user: string) => ({
      openapi: '3.0.3', info: { title: 'Hub' }, servers: [{ url: 'https://h.example.test' }],
      paths: {
        [`/users/{${user}}`]: { get: { summary: 'Get user', parameters: [param(user)], responses: ok } },
        '/users/{userId}/repos': { get: { summary: 'Repos', parameters: [param('userId')], responses: ok } },
      },
    });
    const root = await importedWorkspace(doc('username'));
    const envFile = path.join(root, 'environments', 'Hub.yaml');
    const values = (text: string) => text.replace(/(key: username\n\s+value:) string/, '$1 alice').replace(/(key: userId\n\s+value:) string/, '$1 u-7');
    await fs.writeFile(envFile, values(await fs.readFile(envFile, 'utf8')));
    // /users/{username} → /users/{id}: {{userId}}, which Repos uses with another value.
    const plan = await planUpdate(root, { folder: 'Hub', text: yamlDoc(doc('id')), source: { label: 'v2' } });
    expect(plan.newVariables).toEqual([]);
    expect(plan.warnings).toEqual([
      'The document renamed the path parameter of {{username}} to one whose variable, {{userId}}, "Hub" already has with another value: the requests of those operations (GET /users/{id}) now send that value, not your value of username. Check {{userId}} in "Hub" before sending them.',
    ]);
    expect(formatPreview(plan)).toContain('Warning: The document renamed the path parameter of {{username}}');
    // When your value of the old one was the document's (untouched), nothing of yours is lost: no warning.
    const fresh = await importedWorkspace(doc('username'));
    expect((await planUpdate(fresh, { folder: 'Hub', text: yamlDoc(doc('id')), source: { label: 'v2' } })).warnings).toEqual([]);
  });

  it('edits request files in place: only the changed lines change', async () => {
    const root = await importedWorkspace(v1);
    const { requests } = await requestsByOperation(root);
    const file = path.join(root, 'requests', requests.get('GET /items')!.path);
    const text = `# my comment\n${await fs.readFile(file, 'utf8')}`;
    await fs.writeFile(file, text);
    await applyUpdate(root, await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } }));
    const updated = await fs.readFile(file, 'utf8');
    expect(updated.startsWith('# my comment\n')).toBe(true);
    expect(updated).toContain('X-Page');
  });

  it('falls back with a warning when the old document is missing from specs/', async () => {
    const root = await importedWorkspace(v1);
    const { folder, requests } = await requestsByOperation(root);
    await fs.rm(path.join(root, folder.settings.openapi!.spec!));
    await editRequest(root, requests.get('POST /items')!.path, (t) => t.replace(/text: \|-?\n(\s+)\{[\s\S]*?\n\1\}/, 'text: \'{"name": "mine"}\''));
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
    expect(plan.warnings.join('\n')).toMatch(/could not be read.*missing.*docs and auth stay/);
    expect(formatPreview(plan)).toMatch(/^Warning: /m);
    const post = plan.changed.find((c) => c.operation === 'POST /items')!;
    expect(post.update).toContain('body'); // bodies take the new version
    expect(post.kept).toContain('docs'); // docs stay
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(JSON.parse(after.requests.get('POST /items')!.request.body.text)).toEqual({ name: 'string', price: 0 });
    expect(after.requests.get('POST /items')!.request.docs).toBeUndefined();
    expect(after.folder.settings.openapi!.spec).toBe('specs/Shop.yaml');
  });

  it('old document missing: auth stays as it is (as docs do), while headers take the new version', async () => {
    const schemes = { key: { type: 'apiKey', in: 'header', name: 'X-Key' }, key2: { type: 'apiKey', in: 'header', name: 'X-Key-2' } };
    const sv1 = { ...structuredClone(v1), components: { securitySchemes: schemes } } as any;
    sv1.paths['/items'].get.security = [{ key: [] }];
    const root = await importedWorkspace(sv1);
    const { folder } = await requestsByOperation(root);
    await fs.rm(path.join(root, folder.settings.openapi!.spec!));
    const sv2 = structuredClone(sv1);
    sv2.paths['/items'].get.security = [{ key2: [] }];
    sv2.paths['/items'].get.parameters.push({ name: 'X-Page', in: 'header', required: true, schema: { type: 'string', example: 'p1' } });
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(sv2), source: { label: 'v2' } });
    expect(plan.warnings.join('\n')).toMatch(/docs and auth stay/);
    const list = plan.changed.find((c) => c.operation === 'GET /items')!;
    expect(list.update).toContain('headers');
    expect(list.update).not.toContain('auth');
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(after.requests.get('GET /items')!.request.auth).toMatchObject({ type: 'apiKey', key: 'X-Key' });
    expect(after.requests.get('GET /items')!.request.headers).toEqual([{ key: 'X-Page', value: 'p1', enabled: true, description: '' }]);
  });

  it('never reads or replaces a file outside specs/ named by openapi.spec, and does not overwrite another document', async () => {
    const root = await importedWorkspace(v1);
    const { folder, requests } = await requestsByOperation(root);
    const folderFile = path.join(root, 'requests', folder.path, '_folder.yaml');
    const original = await fs.readFile(folderFile, 'utf8');
    const wsText = await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8');
    for (const hostile of ['ferry.yaml', `requests/${requests.get('GET /items')!.path}`, '../outside.yaml']) {
      await fs.writeFile(folderFile, original.replace(/spec: .*/, `spec: ${JSON.stringify(hostile)}`));
      const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } });
      expect(plan.warnings.join('\n')).toMatch(/is not a \.json or \.yaml file under specs\//);
      // The new document goes to a file of its own under specs/; the named file is not replaced by it.
      expect(plan.writes.filter((w) => w.text === yamlDoc(v2)).map((w) => path.relative(root, w.file))).toEqual(['specs/Shop 2.yaml']);
      expect(plan.deletes).toEqual([]);
    }
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(wsText);

    // The format changes (YAML to JSON) while specs/Shop.json belongs to someone else: a name of its own.
    await fs.writeFile(folderFile, original);
    await fs.writeFile(path.join(root, 'specs', 'Shop.json'), '{"other": true}');
    const plan = await planUpdate(root, { folder: 'Shop', text: JSON.stringify(v2), source: { label: 'v2.json' } });
    await applyUpdate(root, plan);
    expect(await fs.readFile(path.join(root, 'specs', 'Shop.json'), 'utf8')).toBe('{"other": true}');
    const spec = (await requestsByOperation(root)).folder.settings.openapi!.spec!;
    expect(spec).toBe('specs/Shop 2.json');
    expect(await fs.readFile(path.join(root, spec), 'utf8')).toBe(JSON.stringify(v2));
    await expect(fs.stat(path.join(root, 'specs', 'Shop.yaml'))).rejects.toThrow();
  });

  it('refuses a new version that would write a request file over 50 MB (spec 8.1), naming it; nothing is written', async () => {
    const root = await importedWorkspace(v1);
    const before = await listFiles(root);
    const huge = structuredClone(v1) as any;
    // 27 MB of document: a text example of 9 million short lines, indented in the request's YAML (54 MB).
    huge.paths['/notes'] = { post: { tags: ['items'], summary: 'Upload notes', requestBody: { content: { 'text/plain': { example: 'a\n'.repeat(9_000_000) } } }, responses: ok } };
    const text = JSON.stringify(huge);
    expect(text.length).toBeLessThan(50 * 1024 * 1024);
    await expect(planUpdate(root, { folder: 'Shop', text, source: { label: 'huge.json' } })).rejects.toThrow(
      /^Not updated: requests\/Shop\/items\/Upload notes\.yaml would be [\d.]+ MB, and YAML files over 50 MB are not read\. .* Nothing was written\.$/,
    );
    expect(await listFiles(root)).toEqual(before);
  }, 60_000);

  it('updates auth, the folder\'s (document-wide security) and each request\'s, where it is still the old document\'s; an auth you changed is kept', async () => {
    const schemes = { basic: { type: 'http', scheme: 'basic' }, bearer: { type: 'http', scheme: 'bearer' }, key: { type: 'apiKey', in: 'header', name: 'X-Key' }, key2: { type: 'apiKey', in: 'header', name: 'X-Key-2' } };
    const sv1 = { ...structuredClone(v1), security: [{ basic: [] }], components: { securitySchemes: schemes } } as any;
    sv1.paths['/items'].get.security = [{ key: [] }];
    sv1.paths['/items'].post.security = [{ key: [] }];
    const root = await importedWorkspace(sv1);
    const before = await requestsByOperation(root);
    expect(before.folder.settings.auth).toMatchObject({ type: 'basic' });
    // The user gives Create item an auth of their own.
    await editRequest(root, before.requests.get('POST /items')!.path, (t) => t.replace(/auth:\n(  .*\n)+/, 'auth:\n  type: bearer\n  token: mine\n'));
    expect((await requestsByOperation(root)).requests.get('POST /items')!.request.auth).toMatchObject({ type: 'bearer', token: 'mine' });

    const sv2 = structuredClone(sv1);
    sv2.security = [{ bearer: [] }];
    sv2.paths['/items'].get.security = [{ key2: [] }];
    sv2.paths['/items'].post.security = [{ key2: [] }];
    const plan = await planUpdate(root, { folder: 'Shop', text: yamlDoc(sv2), source: { label: 'shop-v2.yaml' } });
    const changed = new Map(plan.changed.map((c) => [c.operation, c]));
    expect(changed.get('GET /items')).toMatchObject({ update: ['auth'], kept: [] });
    expect(changed.get('POST /items')).toMatchObject({ update: [], kept: ['auth'] });
    await applyUpdate(root, plan);
    const after = await requestsByOperation(root);
    expect(after.folder.settings.auth).toMatchObject({ type: 'bearer', token: '{{bearerToken}}' });
    expect(after.requests.get('GET /items')!.request.auth).toMatchObject({ type: 'apiKey', key: 'X-Key-2', value: '{{apiKey}}' });
    expect(after.requests.get('POST /items')!.request.auth).toMatchObject({ type: 'bearer', token: 'mine' });
    // Requests that follow the folder's auth still do.
    expect(after.requests.get('GET /items/{id}')!.request.auth).toEqual({ type: 'inherit' });
  });

  it('refuses folders that were not imported from a document, and bad new versions', async () => {
    const root = await importedWorkspace(v1);
    await fs.mkdir(path.join(root, 'requests', 'Plain'));
    await expect(planUpdate(root, { folder: 'Plain', text: yamlDoc(v2), source: { label: 'v2' } })).rejects.toThrow(/was not imported from an OpenAPI document/);
    await expect(planUpdate(root, { folder: 'Nope', text: yamlDoc(v2), source: { label: 'v2' } })).rejects.toThrow(/There is no folder "Nope"/);
    // A tag subfolder, by path or by name, or a request of the imported folder: the message names the folder to update.
    for (const folder of ['Shop/items', 'requests/Shop/items/', 'items', 'Shop/items/List items.yaml', 'Shop/items/List items']) {
      const inside = `"${folder}" is inside "Shop", the folder imported from an OpenAPI document: update "Shop" instead (the whole folder is updated at once).`;
      await expect(planUpdate(root, { folder, text: yamlDoc(v2), source: { label: 'v2' } }), folder).rejects.toThrow(inside);
    }
    await expect(planUpdate(root, { folder: 'Shop', text: '{"a": 1}', source: { label: 'a.json' } })).rejects.toThrow(/not an OpenAPI or Swagger document/);
    // A document without operations would mark every request as removed: refused, nothing planned.
    await expect(planUpdate(root, { folder: 'Shop', text: '{"openapi": "3.0.3", "info": 5}', source: { label: 'empty.json' } })).rejects.toThrow(
      /^empty\.json has no operations \(no `paths` with methods\), so updating "Shop" from it would mark all 5 of its requests as no longer in the spec\. Check that this is the right document\. Nothing was written\.$/,
    );
    // A request file that does not parse could be any operation: no update (it would add a second request for it).
    await editRequest(root, 'Shop/items/List items.yaml', () => 'name: List items\nurl: [broken\n');
    await expect(planUpdate(root, { folder: 'Shop', text: yamlDoc(v2), source: { label: 'v2' } })).rejects.toThrow(
      /Some files in "Shop" cannot be read.*\n {2}requests\/Shop\/items\/List items\.yaml:\d+:\d+: .*\nFix or remove them, then update again\. Nothing was written\./,
    );
  });
});
