/**
 * Operations whose name makes no file name (`..`, `.`, `_folder`, `_FOLDER`, only spaces) get one
 * from method and path (`get-users-id.yaml`), by one rule for import and update (spec 2.1.4, 4.4,
 * 4.5): the same document gives the same file names either way, never `untitled.yaml`, and never
 * an operation's `_folder.yaml`. A device name (`CON`) and a name of 300 characters keep theirs,
 * made safe. Saving or moving such a request keeps its file name.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitImport } from '../../../src/importers/commit.js';
import { importOpenApiText } from '../../../src/importers/openapi/index.js';
import { applyUpdate, planUpdate } from '../../../src/importers/openapi/update/index.js';
import type { RequestFile } from '../../../src/model/index.js';
import { moveRequest, openWorkspace, readResource, saveRequest } from '../../../src/workspace/index.js';
import { listFiles, tempWorkspace, yamlDoc } from './helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const ok = { 200: { description: 'ok' } };
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
const long = 'L'.repeat(300);
const v1 = {
  openapi: '3.0.3',
  info: { title: 'Odd' },
  servers: [{ url: 'https://odd.example.test' }],
  tags: [{ name: 'users' }],
  paths: { '/health': { get: { summary: 'Health', responses: ok } } },
};
/** The fixture: every operation but Health has a name that makes no file name, or a hard one. */
const v2 = structuredClone(v1) as any;
Object.assign(v2.paths, {
  '/users/{id}': {
    get: { summary: '..', tags: ['users'], parameters: id, responses: ok },
    put: { summary: '.', tags: ['users'], parameters: id, responses: ok },
    delete: { operationId: '_FOLDER', tags: ['users'], parameters: id, responses: ok },
    patch: { summary: '_folder', tags: ['users'], parameters: id, responses: ok },
  },
  '/users': { post: { summary: ' ... ', tags: ['users'], responses: ok } },
  '/': { get: { summary: '_folder', responses: ok } },
  '/con': { get: { summary: 'CON', responses: ok } },
  '/long': { get: { summary: long, responses: ok } },
});
const expected = [
  'requests/Odd/CON_.yaml',
  'requests/Odd/get.yaml',
  'requests/Odd/Health.yaml',
  `requests/Odd/${'L'.repeat(80)}.yaml`,
  'requests/Odd/users/delete-users-id.yaml',
  'requests/Odd/users/get-users-id.yaml',
  'requests/Odd/users/patch-users-id.yaml',
  'requests/Odd/users/post-users.yaml',
  'requests/Odd/users/put-users-id.yaml',
].sort();

async function workspace(): Promise<{ root: string; id: string }> {
  const root = await tempWorkspace();
  dirs.push(root);
  return { root, id: (await openWorkspace(root)).id };
}

/** Request files (not `_folder.yaml`) under requests/, sorted. */
async function requestFiles(root: string): Promise<string[]> {
  return (await listFiles(path.join(root, 'requests'))).map((f) => `requests/${f.split(path.sep).join('/')}`).filter((f) => !f.endsWith('/_folder.yaml')).sort();
}

describe('file names of operations whose names make none', () => {
  it('import gives method-and-path names, keeping the request names as the document gives them', async () => {
    const ws = await workspace();
    await commitImport(ws, importOpenApiText(yamlDoc(v2), { label: 'odd.yaml' }));
    expect(await requestFiles(ws.root)).toEqual(expected);
    const get = await readResource('request', path.join(ws.root, 'requests/Odd/users/get-users-id.yaml'), 'x');
    expect(get.ok && get.value.name).toBe('..');
    const root = await readResource('request', path.join(ws.root, 'requests/Odd/get.yaml'), 'x');
    expect(root.ok && root.value.name).toBe('_folder');
    // The folder's own settings are the folder's, not an operation's.
    expect(await fs.readFile(path.join(ws.root, 'requests/Odd/_folder.yaml'), 'utf8')).toMatch(/^name: Odd$/m);
  });

  it('update adds the same operations under the same file names as the import', async () => {
    const ws = await workspace();
    await commitImport(ws, importOpenApiText(yamlDoc(v1), { label: 'odd.yaml' }));
    const plan = await planUpdate(ws.root, { folder: 'Odd', text: yamlDoc(v2), source: { label: 'odd-v2.yaml' } });
    expect(plan.added.map((a) => a.path).sort()).toEqual(expected.filter((f) => !f.endsWith('Health.yaml')).map((f) => f.replace('requests/', '')).sort());
    await applyUpdate(ws.root, plan);
    expect(await requestFiles(ws.root)).toEqual(expected);
    const folder = await fs.readFile(path.join(ws.root, 'requests/Odd/_folder.yaml'), 'utf8');
    expect(folder).toMatch(/^name: Odd$/m);
    expect(folder).toMatch(/^openapi:/m);
    // The update's second run finds every request again: nothing added twice.
    const again = await planUpdate(ws.root, { folder: 'Odd', text: yamlDoc(v2), source: { label: 'odd-v2.yaml' } });
    expect(again.added).toEqual([]);
  });

  it('saving or moving such a request keeps its file name, rather than turning it into untitled.yaml', async () => {
    const ws = await workspace();
    await commitImport(ws, importOpenApiText(yamlDoc(v2), { label: 'odd.yaml' }));
    const file = path.join(ws.root, 'requests/Odd/users/get-users-id.yaml');
    const read = await readResource('request', file, 'x');
    if (!read.ok) throw new Error('unreadable');
    const saved = await saveRequest(ws.root, 'Odd/users/get-users-id.yaml', { ...read.value, docs: 'Edited.' } as RequestFile);
    expect(saved).toBe('Odd/users/get-users-id.yaml');
    expect(await fs.readFile(file, 'utf8')).toMatch(/Edited\./);
    const moved = await moveRequest(ws.root, 'Odd/users/get-users-id.yaml', 'Odd');
    expect(moved).toBe('Odd/get-users-id.yaml');
  });
});
