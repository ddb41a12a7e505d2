/**
 * Subfolders of environments/, servers/ and loadtests/ (spec 2.1.2: one item per file, directly in
 * the folder): not read, and one that holds .yaml files is said once, naming it and what to do;
 * data folders (loadtests/data/) and specs/ are not warned about. Real files in temporary folders,
 * with hostile folder names.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { entriesHere, openWorkspace } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

async function workspace(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: test-ws\nname: Test\n');
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  return root;
}

const said = (dir: string, items: string, sub: string, found: string) =>
  `${dir}/${sub}/ is not read: Ferry reads ${items} from the .yaml files directly in ${dir}/ (the file name is the id), not from its subfolders, and this one holds ${found}. Move the files up into ${dir}/, or start the folder's name with a dot if it is not meant for Ferry.`;

describe('subfolders of environments/, servers/, loadtests/', () => {
  it('one holding .yaml files is not read and is said once, whatever its name; its files are not items', async () => {
    const root = await workspace({
      'environments/local.yaml': 'name: Local\n',
      'environments/prod eu ✓/api.yaml': 'name: API\n',
      'environments/prod eu ✓/web.yaml': 'name: Web\n',
      'environments/a..b/deep/x.yml': 'name: X\n',
      'servers/mocks/users.yaml': 'name: Users\n',
      'servers/mocks/more/orders.yaml': 'name: Orders\n',
      'loadtests/old/smoke.YAML': 'name: Smoke\n',
      'loadtests/old.yaml/inner.yaml': 'name: Folder named like a file\n',
    });
    const ws = await openWorkspace(root);
    expect(ws.environments.map((e) => e.id)).toEqual(['local']);
    expect(ws.servers).toEqual([]);
    expect(ws.loadtests).toEqual([]);
    expect(ws.warnings.map((w) => [w.file, w.message])).toEqual([
      ['environments/a..b', said('environments', 'environments', 'a..b', 'a..b/deep/x.yml')],
      ['environments/prod eu ✓', said('environments', 'environments', 'prod eu ✓', 'prod eu ✓/api.yaml')],
      ['loadtests/old', said('loadtests', 'load tests', 'old', 'old/smoke.YAML')],
      ['loadtests/old.yaml', said('loadtests', 'load tests', 'old.yaml', 'old.yaml/inner.yaml')],
      ['servers/mocks', said('servers', 'servers', 'mocks', 'mocks/users.yaml')],
    ]);
  });

  it('data folders (loadtests/data/ with CSV and JSON, servers/certs/), empty and dot-named ones, and specs/ are not warned about', async () => {
    const root = await workspace({
      'loadtests/smoke.yaml': 'name: Smoke\ndataFile: loadtests/data/users.csv\n',
      'loadtests/data/users.csv': 'user\nann\n',
      'loadtests/data/more/rows.json': '[]\n',
      'servers/certs/cert.pem': 'x\n',
      'environments/.archive/old.yaml': 'name: Old\n',
      'specs/v1/petstore.yaml': 'openapi: 3.0.0\n',
      'environments/local.yaml': 'name: Local\n',
    });
    await fs.mkdir(path.join(root, 'environments', 'empty'));
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    expect(ws.loadtests.map((l) => l.id)).toEqual(['smoke']);
  });

  it('a linked subfolder is a link (never followed), not a subfolder; a .yaml below a link inside is not looked at', async () => {
    const outside = await workspace({ 'elsewhere/api.yaml': 'name: API\n' });
    const root = await workspace({ 'environments/group/readme.txt': 'x\n' });
    await fs.symlink(path.join(outside, 'elsewhere'), path.join(root, 'environments', 'linked'));
    await fs.symlink(path.join(outside, 'elsewhere'), path.join(root, 'environments', 'group', 'inner'));
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => w.file)).toEqual(['environments/linked']);
    expect(ws.warnings[0]!.message).toMatch(/symbolic link; Ferry never follows links/);
  });

  it('a subfolder with over 1,000 folders of data is not searched to its end (every open looks)', async () => {
    const root = await workspace({ 'loadtests/data/zz/smoke.yaml': 'name: Smoke\n', 'loadtests/few/zz/smoke.yaml': 'name: Smoke\n' });
    await Promise.all(Array.from({ length: 1000 }, (_, i) => fs.mkdir(path.join(root, 'loadtests', 'data', `d${String(i).padStart(4, '0')}`))));
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => w.file)).toEqual(['loadtests/few']);
  });

  it('a listing (ferry ls) says the same', async () => {
    const root = await workspace({ 'environments/prod/api.yaml': 'name: API\n' });
    const ws = await openWorkspace(root, { listing: true });
    expect(ws.warnings.map((w) => w.message)).toEqual([said('environments', 'environments', 'prod', 'prod/api.yaml')]);
  });

  it('an id not found names the subfolders, where it likely is', async () => {
    const root = await workspace({ 'environments/local.yaml': 'name: Local\n', 'environments/prod/api.yaml': 'name: API\n', 'servers/x/y.yaml': 'name: Y\n' });
    const ws = await openWorkspace(root);
    expect(entriesHere(ws, 'environment')).toBe('Environments here: local. Not read, being in a subfolder: environments/prod/ (move its .yaml files up into environments/).');
    expect(entriesHere(ws, 'loadtest')).toBe('This workspace has no load tests (loadtests/*.yaml).');
  });

  it('Postman exports there are named with the import to run; other files (x.json, users.csv) are data, not warned about', async () => {
    const root = await workspace({
      'environments/dev.postman_environment.json': '{}',
      'environments/workspace.postman_globals.JSON': '{}',
      'loadtests/shop.postman_collection.json': '{}',
      'environments/x.json': '{}',
      'loadtests/users.csv': 'user\n',
      'servers/openapi.json': '{}',
    });
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => w.message)).toEqual([
      'environments/dev.postman_environment.json is not read: it is a Postman environment export, and Ferry reads its own .yaml files only. Import it with `ferry import "environments/dev.postman_environment.json"`, then delete the export.',
      'environments/workspace.postman_globals.JSON is not read: it is a Postman globals export, and Ferry reads its own .yaml files only. Import it with `ferry import "environments/workspace.postman_globals.JSON"`, then delete the export.',
      'loadtests/shop.postman_collection.json is not read: it is a Postman collection export, and Ferry reads its own .yaml files only. Import it with `ferry import "loadtests/shop.postman_collection.json"`, then delete the export.',
    ]);
  });

  it('Requests/, Environments/, SERVERS/, LoadTests/ (read where the file system ignores case, not on Linux) are said, whatever they hold', async () => {
    const root = await workspace({ 'Environments/dev.yaml': 'name: Dev\n', 'SERVERS/x.txt': 'x\n', 'Requests/Get.yaml': 'name: Get\n', 'LoadTests/.keep': '' });
    await fs.writeFile(path.join(root, 'Servers'), 'a file, not a folder');
    const ws = await openWorkspace(root);
    const misnamed = ws.warnings.filter((w) => !w.file.includes('/'));
    expect(misnamed.map((w) => w.file)).toEqual(['Environments', 'LoadTests', 'Requests', 'SERVERS']);
    expect(misnamed[0]!.message).toBe('Environments/ must be named environments/ in lower case: on a file system that tells case apart (Linux, most CI) it is not read, so the workspace works on some computers only. Rename it to environments/ (moving its files into environments/ if that exists too).');
  });
});
