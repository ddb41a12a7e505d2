/**
 * A workspace from git may hold `specs` or `environments` as symbolic links to folders elsewhere
 * (~/.config/…). An import must refuse to write through them, and leave both sides untouched.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commitImport, convert } from '../../src/importers/index.js';
import { initWorkspace, openWorkspace } from '../../src/workspace/index.js';

let tmp: string;
let root: string;
let outside: string;
let id: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-import-links-'));
  process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
  root = await initWorkspace(path.join(tmp, 'ws'));
  id = (await openWorkspace(root)).id;
  outside = path.join(tmp, 'outside');
  await fs.mkdir(outside);
});
afterEach(async () => {
  delete process.env.FERRY_DATA_DIR;
  await fs.rm(tmp, { recursive: true, force: true });
});

const openapi = JSON.stringify({
  openapi: '3.0.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9' }],
  paths: { '/pets': { get: { operationId: 'listPets', responses: { 200: { description: 'ok' } } } } },
});
const environment = JSON.stringify({ name: 'Staging', values: [{ key: 'host', value: 'h', enabled: true }], _postman_variable_scope: 'environment' });

/** Every path under the workspace, links listed but not followed, with the text of files. */
async function snapshot(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(root, file)] = entry.isSymbolicLink() ? `-> ${await fs.readlink(file)}` : entry.isFile() ? await fs.readFile(file, 'utf8') : '(folder)';
  }
  return out;
}

describe('imports into a workspace whose folders are symbolic links', () => {
  it.each([
    ['specs', openapi],
    ['environments', openapi],
    ['environments', environment],
  ])('refuse to write through %s', async (folder, text) => {
    await fs.rm(path.join(root, folder), { recursive: true, force: true });
    await fs.symlink(outside, path.join(root, folder));
    const before = await snapshot();
    const result = await convert(text, { label: 'test' });
    await expect(commitImport({ root, id }, result)).rejects.toThrow(new RegExp(`${folder} is a symbolic link`));
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await snapshot()).toEqual(before);
  });
});

describe('imports next to files that are symbolic links', () => {
  it("never read a folder's _folder.yaml that is a link (to /dev/zero it would never end) when placing the import after it", async () => {
    // Where the import goes is found from the siblings' seq; a link is skipped, as the reader skips it.
    await fs.mkdir(path.join(root, 'requests', 'Linked'));
    await fs.writeFile(path.join(outside, 'elsewhere.yaml'), 'name: Elsewhere\nseq: 41\n');
    await fs.symlink(path.join(outside, 'elsewhere.yaml'), path.join(root, 'requests', 'Linked', '_folder.yaml'));
    await commitImport({ root, id }, await convert(openapi, { label: 'test' }));
    const folder = (await fs.readdir(path.join(root, 'requests'))).find((name) => name !== 'Linked')!;
    const written = await fs.readFile(path.join(root, 'requests', folder, '_folder.yaml'), 'utf8');
    // After Linked (seq 0, its settings file not read), not after the linked file's 41.
    expect(written).toMatch(/^seq: 1$/m);
  });
});
