/**
 * `ferry update` with hostile inputs: each refused with a message saying what, where and what to
 * do, and nothing written; or, where the input is fine but awkward (names colliding with
 * hand-made requests), nothing of the user's overwritten.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../../support/cli.js';
import { folderSnapshot, tempDir } from '../../support/temp.js';

const V1 = `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "http://127.0.0.1:9/v1"}]
paths:
  /pets:
    get: {summary: List pets, responses: {"200": {description: ok}}}
`;
const V2 = `${V1.replace('version: "1"', 'version: "2"')}    post: {summary: Add pet, responses: {"200": {description: ok}}}
  /store:
    get: {tags: [Store], summary: Inventory, responses: {"200": {description: ok}}}
`;

/** The workspace and the folder outside it, file by file (a link is not walked: folderSnapshot would read it). */
async function snapshot(ws: string, outside: string): Promise<unknown> {
  const parts = await Promise.all(['specs', 'environments', 'api'].map((d) => folderSnapshot(path.join(ws, d))));
  return [parts, await folderSnapshot(outside), await fs.readFile(path.join(ws, 'ferry.yaml'), 'utf8'), (await fs.readdir(path.join(ws, 'requests'))).sort()];
}

/** A workspace with requests/Pets imported from api/openapi.yaml (recorded as its source), and a folder outside it. */
async function imported(): Promise<{ ws: string; outside: string }> {
  const dir = await tempDir();
  process.env.FERRY_DATA_DIR = path.join(dir, 'data');
  const ws = path.join(dir, 'ws');
  const outside = path.join(dir, 'outside');
  await fs.mkdir(outside);
  expect((await ferry(['init', ws])).code).toBe(0);
  await fs.mkdir(path.join(ws, 'api'));
  await fs.writeFile(path.join(ws, 'api', 'openapi.yaml'), V1);
  expect((await ferry(['-w', ws, 'import', path.join(ws, 'api', 'openapi.yaml')])).code).toBe(0);
  return { ws, outside };
}

describe('ferry update with hostile inputs', () => {
  it('a YAML bomb and a document nested past the import limit are refused as an import refuses them, in the words of an update; nothing is written', async () => {
    const { ws, outside } = await imported();
    const bomb = ['openapi: 3.0.3', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) bomb.push(`b${i}: &b${i} [${Array(10).fill(i === 1 ? '*a' : `*b${i - 1}`).join(', ')}]`);
    await fs.writeFile(path.join(ws, 'bomb.yaml'), `${bomb.join('\n')}\ninfo: {title: Pets, version: "2"}\npaths: {}\n`);
    // Deeper than MAX_DOCUMENT_DEPTH (1,000), which an import refuses, and deep enough to overflow the YAML reader.
    for (const [name, levels] of [['deep.yaml', 1500], ['deeper.yaml', 6000]] as const) {
      await fs.writeFile(path.join(ws, name), `${V2}x-deep: ${'['.repeat(levels)}${']'.repeat(levels)}\n`);
    }
    const before = await snapshot(ws, outside);
    const update = (file: string) => ferry(['-w', ws, 'update', 'Pets', '--from', path.join(ws, file)]);
    const bombed = await update('bomb.yaml');
    expect(bombed.code).toBe(2);
    expect(bombed.stderr).toMatch(/bomb\.yaml expands YAML aliases more than 1000 times, which is how a small file becomes gigabytes \(a "YAML bomb"\); nothing was updated\.\n$/);
    const deep = await update('deep.yaml');
    expect(deep.code).toBe(2);
    expect(deep.stderr).toMatch(/deep\.yaml nests lists and objects more than 1,000 levels deep, which no export or API document does; nothing was updated\.\n$/);
    const deeper = await update('deeper.yaml');
    expect(deeper.code).toBe(2);
    expect(deeper.stderr).toMatch(/deeper\.yaml nests lists and objects (more than 1,000 levels deep|too deeply for the YAML reader), which no (export or )?API document does; nothing was updated\.\n$/);
    expect(await snapshot(ws, outside)).toEqual(before);
  });

  it('a new version over 50 MB is refused in the words of an update, not an import\'s; nothing is written', async () => {
    const { ws, outside } = await imported();
    // Past the limit by its size on disk (checked before reading) and as text (a paste in the app).
    await fs.writeFile(path.join(ws, 'huge.yaml'), `${V2}x-big: "${'a'.repeat(50 * 1024 * 1024)}"\n`);
    const before = await snapshot(ws, outside);
    const result = await ferry(['-w', ws, 'update', 'Pets', '--from', path.join(ws, 'huge.yaml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/huge\.yaml is 52,\d{3},\d{3} bytes; Ferry reads API documents up to 50 MB, so nothing was updated\. Update from a smaller document \(without large embedded examples, or one API per document\)\.\n$/);
    expect(result.stderr).not.toMatch(/import/);
    expect(await snapshot(ws, outside)).toEqual(before);
  });

  it('a file that is not an API document is named for what it is, with what to do instead; nothing is written', async () => {
    const { ws, outside } = await imported();
    const files: Record<string, [string, RegExp]> = {
      'collection.json': [
        JSON.stringify({ info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [] }),
        /collection\.json is a Postman collection, not an OpenAPI or Swagger document, so nothing was updated\. An imported folder is updated from a new version of its OpenAPI or Swagger document \(JSON or YAML\); to add what this file holds to the workspace, import it instead: ferry import .*collection\.json\n$/,
      ],
      'env.json': [JSON.stringify({ name: 'Dev', values: [{ key: 'a', value: '1' }] }), /env\.json is a Postman environment export, not an OpenAPI/],
      'call.sh': ['curl https://example.com/pets\n', /call\.sh is a cURL command, not an OpenAPI/],
      'empty.yaml': ['\n', /empty\.yaml is empty, so nothing was updated\. An imported folder is updated from a new version of its OpenAPI or Swagger document \(JSON or YAML\): give that file, URL or text\.\n$/],
      'other.yaml': ['name: not an API\n', /other\.yaml is not an OpenAPI or Swagger document: it has no `openapi: 3\.x` or `swagger: "2\.0"` field at the top, so nothing was updated\. An imported folder is updated from a new version of its OpenAPI or Swagger document \(JSON or YAML\): check that this is the right file\.\n$/],
      'broken.yaml': ['openapi: 3.0.3\npaths: [\n', /broken\.yaml:\d+:\d+: the document does not parse as JSON or YAML: .*\. Nothing was updated\.\n$/],
      // JSON's words and place, as an import of the file gives them, not the YAML reader's ("Flow map in block collection…").
      'broken.json': ['{"openapi": "3.0.3", "info": {"title": "x", "version": "1"},\n"paths": { ] }', /broken\.json:2:12: the document does not parse as JSON: Expected property name or '\}'\. Nothing was updated\.\n$/],
      // A trailing comma the YAML reader would take: refused by JSON's rules, as ferry import refuses it (below).
      'comma.json': ['{"openapi": "3.0.3", "info": {"title": "Pets", "version": "2"}, "paths": {},\n}', /comma\.json:2:1: the document does not parse as JSON: .*\. Nothing was updated\.\n$/],
    };
    for (const [name, [text]] of Object.entries(files)) await fs.writeFile(path.join(ws, name), text);
    const before = await snapshot(ws, outside);
    for (const [name, [, message]] of Object.entries(files)) {
      const result = await ferry(['-w', ws, 'update', 'Pets', '--from', path.join(ws, name)]);
      expect(result.stderr, name).toMatch(message);
      expect(result.code, name).toBe(2);
    }
    expect(await snapshot(ws, outside)).toEqual(before);
    const importComma = await ferry(['-w', ws, 'import', path.join(ws, 'comma.json')]);
    expect(importComma.stderr).toMatch(/looks like JSON but does not parse: .* at line 2, column 1\./);
    expect(importComma.code).toBe(2);
  });

  it('a recorded source that is gone, or a folder, is named as the folder\'s record, with --from to give instead; nothing is written', async () => {
    const { ws, outside } = await imported();
    await fs.rm(path.join(ws, 'api', 'openapi.yaml'));
    const before = await snapshot(ws, outside);
    const gone = await ferry(['-w', ws, 'update', 'Pets']);
    expect(gone.stderr).toBe('ferry: The folder "Pets" records its document as "api/openapi.yaml", which does not exist (moved, renamed or deleted?); give the new version with --from FILE|URL|-. Nothing was updated.\n');
    expect(gone.code).toBe(2);
    await fs.mkdir(path.join(ws, 'api', 'openapi.yaml'));
    const folder = await ferry(['-w', ws, 'update', 'Pets']);
    expect(folder.stderr).toBe('ferry: The folder "Pets" records its document as "api/openapi.yaml", which is a folder, not a file; give the new version with --from FILE|URL|-. Nothing was updated.\n');
    await fs.rmdir(path.join(ws, 'api', 'openapi.yaml'));
    expect(await snapshot(ws, outside)).toEqual(before);
  });

  it('new operations named like hand-made requests, or like each other but for case, get files of their own (as on a case-insensitive disk); nothing of the user\'s is overwritten', async () => {
    const { ws } = await imported();
    const pets = path.join(ws, 'requests', 'Pets');
    const mine = { 'add PET.yaml': 'name: Mine\nmethod: POST\nurl: http://127.0.0.1:9/mine\n', 'store/Inventory.yaml': '# by hand\nname: Inventory\nurl: http://127.0.0.1:9/count\n' };
    await fs.mkdir(path.join(pets, 'store'));
    for (const [file, text] of Object.entries(mine)) await fs.writeFile(path.join(pets, file), text);
    await fs.writeFile(path.join(ws, 'v3.yaml'), `${V2}  /pets/{id}:
    get: {summary: Get pet, responses: {"200": {description: ok}}}
    put: {summary: GET PET, responses: {"200": {description: ok}}}
    delete: {summary: get/pet, responses: {"200": {description: ok}}}
`);
    const update = () => ferry(['-w', ws, 'update', 'Pets', '--from', path.join(ws, 'v3.yaml')]);
    const first = await update();
    expect(first.code, first.stderr).toBe(0);
    for (const [file, text] of Object.entries(mine)) expect(await fs.readFile(path.join(pets, file), 'utf8')).toBe(text);
    const files = Object.keys(await folderSnapshot(pets));
    // Six requests of the document and two of the user's, no two names alike but for case (the Store tag goes into store/).
    expect(files.filter((f) => f.endsWith('.yaml') && !f.endsWith('_folder.yaml'))).toHaveLength(8);
    expect(new Set(files.map((f) => f.toLowerCase())).size).toBe(files.length);
    // Each new file holds its operation: the same update again finds nothing to do.
    const again = await update();
    expect(again.stdout).toMatch(/already matches this version/);
  });

  it('a _folder.yaml that is a symbolic link is named as one, not as a folder never imported; nothing is written', async () => {
    const { ws, outside } = await imported();
    await fs.rename(path.join(ws, 'requests', 'Pets', '_folder.yaml'), path.join(outside, '_folder.yaml'));
    await fs.symlink(path.join(outside, '_folder.yaml'), path.join(ws, 'requests', 'Pets', '_folder.yaml'));
    const before = await snapshot(ws, outside);
    for (const from of [[], ['--from', path.join(ws, 'api', 'openapi.yaml')]]) {
      const result = await ferry(['-w', ws, 'update', 'Pets', ...from]);
      expect(result.stderr).toBe('ferry: requests/Pets/_folder.yaml is a symbolic link, and Ferry never follows links, so the folder\'s settings (its link to the API document) are not read and "Pets" cannot be updated. Put the real file in its place (remove the link, then move or copy the file it points to here), then update again. Nothing was updated.\n');
      expect(result.code).toBe(2);
    }
    expect(await snapshot(ws, outside)).toEqual(before);
  });

  it('a folder that is a symbolic link is named as one, not as missing; nothing is written', async () => {
    const { ws, outside } = await imported();
    await fs.rename(path.join(ws, 'requests', 'Pets'), path.join(outside, 'Pets'));
    await fs.symlink(path.join(outside, 'Pets'), path.join(ws, 'requests', 'Pets'));
    await fs.writeFile(path.join(ws, 'v2.yaml'), V2);
    const before = await snapshot(ws, outside);
    for (const folder of ['Pets', 'Pets/Store']) {
      const result = await ferry(['-w', ws, 'update', folder, '--from', path.join(ws, 'v2.yaml')]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`ferry: requests/Pets is a symbolic link, and Ferry never follows links, so "${folder}" is not read as a folder and cannot be updated. Put the real folder in its place (remove the link, then move or copy the folder it points to here), then update again. Nothing was written.\n`);
    }
    expect(await snapshot(ws, outside)).toEqual(before);
  });

  it('specs/ or the kept document a symbolic link: refused before anything is written, in a dry run too, exit code 2, saying what to do', async () => {
    for (const link of ['specs', 'specs/Pets.yaml']) {
      const { ws, outside } = await imported();
      await fs.rename(path.join(ws, link), path.join(outside, 'moved'));
      await fs.symlink(path.join(outside, 'moved'), path.join(ws, link));
      await fs.writeFile(path.join(ws, 'api', 'openapi.yaml'), V2);
      const before = await snapshot(ws, outside);
      const pets = await folderSnapshot(path.join(ws, 'requests', 'Pets'));
      for (const dryRun of [[], ['--dry-run']]) {
        const result = await ferry(['-w', ws, 'update', 'Pets', ...dryRun]);
        expect(result.stderr).toBe(`ferry: Not updated: ${link} is a symbolic link, and Ferry never follows links. Put the real folder or file in its place (remove the link, then move or copy what it points to here), then update again. Nothing was written.\n`);
        expect(result.code).toBe(2);
      }
      expect(await snapshot(ws, outside)).toEqual(before);
      expect(await folderSnapshot(path.join(ws, 'requests', 'Pets'))).toEqual(pets);
    }
  });
});
