/**
 * Hand-edited names (requests, folders, the workspace, environments, servers, load tests) out of 2.1.5's bounds (empty, blank, over 200 characters)
 * are read as written with a warning naming the file, line and fix; names at the bound are not.
 * Real files in a temporary folder; the workspace read whole, read in part, and by `ferry ls`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkspace, type Warning } from '../../src/workspace/index.js';
import { ferryBin } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const at200 = 'n'.repeat(200);
const astral200 = '😀'.repeat(200); // 400 UTF-16 units, 200 characters
const over = 'x'.repeat(201);

async function workspace(): Promise<string> {
  const root = await tempDir();
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  };
  await write('ferry.yaml', 'version: 1\nid: names-read\nname: Names\n');
  await write('requests/Empty.yaml', 'method: GET\nname: ""\nurl: http://127.0.0.1:9/\n');
  await write('requests/Blank.yaml', 'name: "   "\n');
  await write('requests/Long.yaml', `url: http://127.0.0.1:9/\nname: ${over}\n`);
  await write('requests/At200.yaml', `name: ${at200}\n`);
  await write('requests/Astral.yaml', `name: ${astral200}\n`);
  await write('requests/Unnamed/_folder.yaml', 'name: ""\n');
  await write('requests/Unnamed/Inner.yaml', 'name: Inner\n');
  await write('requests/Plain/_folder.yaml', 'seq: 1\n'); // no name: the folder's file name is its name
  await write('requests/Huge/_folder.yaml', `name: ${'y'.repeat(5000)}\n`);
  return root;
}

const byFile = (warnings: readonly Warning[]) => new Map(warnings.map((w) => [w.file, w]));

describe('names in hand-edited files', () => {
  it('the same for the workspace, environments, servers and load tests', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), `version: 1\nid: names-read-2\nname: ${over}\n`);
    for (const dir of ['environments', 'servers', 'loadtests']) await fs.mkdir(path.join(root, dir));
    await fs.writeFile(path.join(root, 'environments', 'blank.yaml'), 'name: ""\nvariables: []\n');
    await fs.writeFile(path.join(root, 'environments', 'fine.yaml'), `name: ${at200}\n`);
    await fs.writeFile(path.join(root, 'servers', 'blank.yaml'), 'name: " "\nport: 0\n');
    await fs.writeFile(path.join(root, 'loadtests', 'long.yaml'), `name: ${over}\n`);
    const ws = await openWorkspace(root);
    const warnings = byFile(ws.warnings);
    expect(warnings.get('ferry.yaml')).toMatchObject({ line: 3, message: expect.stringContaining('A name can have at most 200 characters; this one has 201.') });
    expect(warnings.get('environments/blank.yaml')).toMatchObject({ line: 1, message: 'name: A name cannot be empty; give a name of 1 to 200 characters. The file is read as it is.' });
    expect(warnings.get('servers/blank.yaml')?.message).toContain('A name cannot be empty; give a name of 1 to 200 characters.');
    expect(warnings.get('loadtests/long.yaml')?.message).toContain('this one has 201');
    expect(warnings.has('environments/fine.yaml')).toBe(false);
    // Still read, as written.
    expect(ws.file.name).toBe(over);
    expect(ws.environments.map((e) => e.id).sort()).toEqual(['blank', 'fine']);
    expect(ws.servers.map((e) => e.id)).toEqual(['blank']);
  });

  it('empty, blank or too long: read as written, with a warning at the name line', async () => {
    const ws = await openWorkspace(await workspace());
    const warnings = byFile(ws.warnings);
    expect(warnings.get('requests/Empty.yaml')).toEqual({
      file: 'requests/Empty.yaml', line: 2, column: 7,
      message: 'name: A name cannot be empty; give a name of 1 to 200 characters. The file is read as it is.',
    });
    expect(warnings.get('requests/Blank.yaml')?.message).toContain('A name cannot be empty; give a name of 1 to 200 characters.');
    expect(warnings.get('requests/Long.yaml')).toMatchObject({ line: 2, message: expect.stringContaining('A name can have at most 200 characters; this one has 201.') });
    expect(warnings.get('requests/Unnamed/_folder.yaml')?.message).toContain('A name cannot be empty; give a name of 1 to 200 characters.');
    expect(warnings.get('requests/Huge/_folder.yaml')?.message).toContain('this one has 5000');
    for (const fine of ['requests/At200.yaml', 'requests/Astral.yaml', 'requests/Plain/_folder.yaml', 'requests/Unnamed/Inner.yaml']) expect(warnings.has(fine), fine).toBe(false);
    expect(ws.warnings).toHaveLength(5);

    // Every one of them is still read: requests in the tree, folders with their settings.
    const names = new Map(ws.tree.children.map((c) => [c.path, c.type === 'request' ? c.request.name : c.type === 'folder' ? c.name : 'broken']));
    expect(names.get('Empty.yaml')).toBe('');
    expect(names.get('Long.yaml')).toBe(over);
    expect(names.get('Unnamed')).toBe('');
    expect(names.get('Plain')).toBe('Plain');
    expect([...names.values()]).not.toContain('broken');
  });

  it('a missing name is read as an empty one (spec 2.1.1: missing fields take their defaults): the file is usable, with a warning', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: names-read-3\n');
    for (const dir of ['requests', 'environments', 'servers', 'loadtests']) await fs.mkdir(path.join(root, dir));
    await fs.writeFile(path.join(root, 'requests', 'Health.yaml'), 'url: http://127.0.0.1:9/health\n');
    await fs.writeFile(path.join(root, 'environments', 'dev.yaml'), 'variables:\n  - key: base\n    value: b\n');
    await fs.writeFile(path.join(root, 'servers', 'mock.yaml'), 'kind: http\nport: 0\n');
    await fs.writeFile(path.join(root, 'loadtests', 'smoke.yaml'), 'targets:\n  - request: Health.yaml\n');
    const ws = await openWorkspace(root);
    const missing = 'name: the field is missing; give a name of 1 to 200 characters (name: …). The file is read as it is.';
    for (const file of ['ferry.yaml', 'requests/Health.yaml', 'environments/dev.yaml', 'servers/mock.yaml', 'loadtests/smoke.yaml']) {
      expect(byFile(ws.warnings).get(file), file).toEqual({ file, line: 1, column: 1, message: missing });
    }
    expect(ws.warnings).toHaveLength(5);
    const health = ws.tree.children[0]!;
    expect(health.type === 'request' && health.request).toMatchObject({ name: '', url: 'http://127.0.0.1:9/health' });
    expect(ws.environments[0]?.value).toMatchObject({ name: '', variables: [{ key: 'base', value: 'b' }] });
    expect(ws.servers.map((s) => s.id)).toEqual(['mock']);
    expect(ws.loadtests.map((l) => l.id)).toEqual(['smoke']);
  });

  it('reading part of the tree warns for what it reads, once', async () => {
    const ws = await openWorkspace(await workspace(), { requests: ['Long.yaml'] });
    expect(ws.warnings.filter((w) => w.file === 'requests/Long.yaml')).toHaveLength(1);
    expect(ws.warnings.some((w) => w.file === 'requests/Empty.yaml')).toBe(false);
  });

  it('ferry ls lists the requests and the warnings', async () => {
    const data = await isolatedDataDir();
    const root = await workspace();
    const out = (await ferryBin(['-w', root, 'ls'], data)).stdout;
    expect(out).toMatch(/GET\s+\s+Empty\.yaml/);
    expect(out).toContain('requests/Empty.yaml:2:7: name: A name cannot be empty; give a name of 1 to 200 characters. The file is read as it is.');
    expect(out).toContain('requests/Long.yaml:2:7: name: A name can have at most 200 characters; this one has 201.');
  }, 60_000);
});
