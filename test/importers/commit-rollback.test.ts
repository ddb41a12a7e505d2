/**
 * An import that fails after its files are built leaves nothing: not in the workspace, not in
 * the workspace file, and not in this computer's secret store (secret values are stored only
 * after every file is in place, and put back if a later step fails). A big import writes one
 * file at a time.
 */
import fsSync, { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SecretStore, workspaceDataDir } from '../../src/appdata/index.js';
import { commitImport, convert, type ImportResult } from '../../src/importers/index.js';
import { initWorkspace, openWorkspace } from '../../src/workspace/index.js';
import { folderSnapshot } from '../support/temp.js';

let tmp: string;
let root: string;
let id: string;

beforeEach(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-import-rollback-'));
  process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
  root = await initWorkspace(path.join(tmp, 'ws'));
  id = (await openWorkspace(root)).id;
});
afterEach(async () => {
  vi.restoreAllMocks();
  delete process.env.FERRY_DATA_DIR;
  await fs.rm(tmp, { recursive: true, force: true });
});

const snapshot = () => folderSnapshot(root);

const store = () => new SecretStore(workspaceDataDir(id, root));

const envWithSecrets = JSON.stringify({
  name: 'Staging',
  values: [
    { key: 'host', value: 'staging.test', type: 'default', enabled: true },
    { key: 'token', value: 'tok-SECRET-1', type: 'secret', enabled: true },
    { key: 'password', value: 'pw-SECRET-2', type: 'secret', enabled: true },
  ],
});

const collectionWithSecret = JSON.stringify({
  info: { name: 'Vault', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [{ name: 'a', request: { url: 'http://127.0.0.1/a' } }],
  variable: [{ key: 'plain', value: 'p' }, { key: 'apiKey', value: 'key-SECRET-3', type: 'secret' }],
});

async function result(text: string): Promise<ImportResult> {
  return convert(text, { label: 'test' });
}

describe('all or nothing, secrets included', () => {
  it('a move that fails leaves no secret value in the data folder', async () => {
    const before = await snapshot();
    const realRename = fs.rename.bind(fs);
    // The file system refuses the environment's move into place (as a full or read-only disk would).
    vi.spyOn(fs, 'rename').mockImplementation(async (from, to) => {
      if (String(to).endsWith(path.join('environments', 'Staging.yaml'))) throw Object.assign(new Error('EIO: i/o error, rename'), { code: 'EIO' });
      return realRename(from, to);
    });
    await expect(commitImport({ root, id }, await result(envWithSecrets))).rejects.toThrow(/EIO/);
    vi.restoreAllMocks();
    expect(await snapshot()).toEqual(before);
    expect(await store().all('Staging')).toEqual({});
    // The store file was never even created.
    await expect(fs.access(path.join(workspaceDataDir(id, root), 'secrets.json'))).rejects.toThrow();
  });

  it('a secret store that cannot be written undoes the files and the workspace file', async () => {
    const before = await snapshot();
    // A damaged key file: the store refuses to seal values.
    process.env.FERRY_DATA_DIR = path.join(tmp, 'damaged');
    await fs.mkdir(process.env.FERRY_DATA_DIR, { recursive: true });
    await fs.writeFile(path.join(process.env.FERRY_DATA_DIR, 'secret.key'), 'short');
    await expect(commitImport({ root, id }, await result(collectionWithSecret))).rejects.toThrow(/secret\.key is damaged/);
    await expect(commitImport({ root, id }, await result(envWithSecrets))).rejects.toThrow(/secret\.key is damaged/);
    expect(await snapshot()).toEqual(before);
    expect(before['ferry.yaml']).not.toContain('plain');
  });

  it("an empty folder of the collection's name is used (nobody's), and is there again, empty, when the import is undone", async () => {
    await fs.mkdir(path.join(root, 'requests', 'Vault'));
    process.env.FERRY_DATA_DIR = path.join(tmp, 'damaged');
    await fs.mkdir(process.env.FERRY_DATA_DIR, { recursive: true });
    await fs.writeFile(path.join(process.env.FERRY_DATA_DIR, 'secret.key'), 'short');
    await expect(commitImport({ root, id }, await result(collectionWithSecret))).rejects.toThrow(/secret\.key is damaged/);
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual(['Vault']);
    expect(await fs.readdir(path.join(root, 'requests', 'Vault'))).toEqual([]);
    process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
    const summary = await commitImport({ root, id }, await result(collectionWithSecret));
    expect(summary.written).toContain('requests/Vault');
    expect(await fs.readdir(path.join(root, 'requests', 'Vault'))).toContain('a.yaml');
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual(['Vault']);
  });

  it('a failure writing the secrets leaves the values that were there, and the workspace as it was', async () => {
    // A value left from an earlier environment of the same name.
    await store().set('Staging', 'token', 'old-token');
    const before = await snapshot();
    vi.spyOn(SecretStore.prototype, 'setMany').mockRejectedValue(new Error('ENOSPC: no space left on device'));
    await expect(commitImport({ root, id }, await result(envWithSecrets))).rejects.toThrow(/ENOSPC/);
    vi.restoreAllMocks();
    expect(await snapshot()).toEqual(before);
    expect(await store().all('Staging')).toEqual({ token: 'old-token' });
  });

  it('a successful import stores the secrets, and only there', async () => {
    const summary = await commitImport({ root, id }, await result(collectionWithSecret));
    expect(summary.variables).toBe(2);
    const workspaceText = await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8');
    expect(workspaceText).toContain('apiKey');
    expect(workspaceText).not.toContain('key-SECRET-3');
    expect(await store().get('workspace', 'apiKey')).toBe('key-SECRET-3');
  });
});

describe('writing a big import', () => {
  it('writes each file with one synchronous write (one file open at a time) and makes each folder once', async () => {
    // The tree goes into a fresh staging folder: one open/write/close per file, no thread-pool
    // round trips, never more than one file open (a 1,024 open-file limit is common).
    const writes = vi.spyOn(fsSync, 'writeFileSync');
    const mkdirs = vi.spyOn(fsSync, 'mkdirSync');
    const asyncWrites = vi.spyOn(fs, 'writeFile');
    const item = Array.from({ length: 10 }, (_, f) => ({
      name: `Folder ${f}`,
      item: Array.from({ length: 60 }, (_, r) => ({ name: r % 10 === 0 ? 'Same' : `Request ${r}`, request: { url: `http://127.0.0.1/${f}/${r}` } })),
    }));
    const text = JSON.stringify({ info: { name: 'Big', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item });
    const summary = await commitImport({ root, id }, await result(text));
    const written = writes.mock.calls.map(([file]) => String(file));
    const made = mkdirs.mock.calls.map(([dir]) => String(dir));
    const asyncWritten = asyncWrites.mock.calls.map(([file]) => String(file));
    vi.restoreAllMocks();
    expect(summary).toMatchObject({ requests: 600, folders: 11 });
    // 600 requests and the _folder.yaml of Folder 1 to 9 (their order; Folder 0 and Big need none), each written once.
    expect(written.filter((f) => f.endsWith('.yaml'))).toHaveLength(609);
    expect(new Set(written).size).toBe(written.length);
    expect(asyncWritten.filter((f) => f.includes(`${path.sep}requests${path.sep}`))).toEqual([]);
    // The top folder and its 10 subfolders, each made once, parents first.
    expect(made).toHaveLength(11);
    expect(made.findIndex((d) => d.endsWith(`${path.sep}Big`))).toBe(0);
    const folder = await fs.readdir(path.join(root, 'requests', 'Big', 'Folder 7'));
    expect(folder).toHaveLength(61); // 60 requests and _folder.yaml
    expect(folder.filter((n) => n.startsWith('Same')).sort()).toEqual(['Same 2.yaml', 'Same 3.yaml', 'Same 4.yaml', 'Same 5.yaml', 'Same 6.yaml', 'Same.yaml']);
  });
});

describe('the 50 MB bound of YAML files (spec 8.1)', () => {
  it('refuses an import whose request file would be over 50 MB, naming it, and writes nothing', async () => {
    const before = await snapshot();
    // 27 MB of export: a body of 9 million short lines, each indented in the YAML block (54 MB).
    const text = JSON.stringify({
      info: { name: 'Huge', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      item: [{ name: 'Small', request: { url: 'http://127.0.0.1/s' } }, { name: 'Lines', request: { method: 'POST', url: 'http://127.0.0.1/l', body: { mode: 'raw', raw: 'a\n'.repeat(9_000_000) } } }],
    });
    expect(text.length).toBeLessThan(50 * 1024 * 1024);
    const error = await commitImport({ root, id }, await result(text)).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^Not imported: requests\/Huge\/Lines\.yaml would be 51\.5 MB, and YAML files over 50 MB are not read\. .*Nothing was imported\.$/);
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it('refuses an environment file over 50 MB the same way', async () => {
    const before = await snapshot();
    const text = JSON.stringify({ name: 'Wide', values: [{ key: 'lines', value: 'a\n'.repeat(9_000_000), enabled: true }] });
    const error = await commitImport({ root, id }, await result(text)).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/^Not imported: environments\/Wide\.yaml would be [\d.]+ MB, and YAML files over 50 MB are not read\./);
    expect(await snapshot()).toEqual(before);
  }, 60_000);
});
