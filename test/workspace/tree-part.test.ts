/**
 * Reading part of the tree (`openWorkspace(root, { requests })`, issue 21): a run or export of a
 * few requests reads them and the folders above them, and what each request inherits (auth,
 * headers, scripts, the prepared request) is what a full read gives.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportSavedRequest } from '../../src/codegen/export-saved.js';
import { effectiveAuth, mergedHeaders, prepareRequest, scriptChain } from '../../src/request/index.js';
import { buildVariableScope } from '../../src/template/index.js';
import { openWorkspace, selectRequests, walkRequests, type RunItem, type Workspace } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

async function write(root: string, file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await fs.writeFile(path.join(root, file), text);
}

/** Three levels of folders with auth, headers and scripts, siblings that must not be read, and a broken file elsewhere. */
async function nestedWorkspace(): Promise<string> {
  const root = await tempDir();
  await write(root, 'ferry.yaml', 'version: 1\nid: part\nname: Part\nauth:\n  type: basic\n  username: ws\n  password: pw\nheaders:\n  - key: X-Ws\n    value: ws\nscripts:\n  preRequest: "pm.variables.set(\'w\', 1)"\n');
  await write(root, 'requests/Outer/_folder.yaml', 'name: Outer shown\nauth:\n  type: bearer\n  token: outer-token\nheaders:\n  - key: X-Level\n    value: outer\nscripts:\n  preRequest: "pm.variables.set(\'o\', 1)"\n');
  await write(root, 'requests/Outer/Middle/_folder.yaml', 'headers:\n  - key: X-Level\n    value: middle\n  - key: X-Middle\n    value: m\nscripts:\n  postResponse: "pm.test(\'m\', () => {})"\n');
  await write(root, 'requests/Outer/Middle/Inner/_folder.yaml', 'auth:\n  type: apiKey\n  key: X-Key\n  value: k1\n  location: header\n');
  await write(root, 'requests/Outer/Middle/Inner/Deep.yaml', 'name: Deep\nurl: http://127.0.0.1:9/deep\nheaders:\n  - key: X-Own\n    value: own\n');
  await write(root, 'requests/Outer/Middle/Mid.yaml', 'name: Mid\nmethod: POST\nurl: http://127.0.0.1:9/mid\nauth:\n  type: inherit\nbody:\n  type: json\n  text: "{\\"a\\": 1}"\n');
  await write(root, 'requests/Outer/Top.yaml', 'name: Top\nurl: http://127.0.0.1:9/top\nauth:\n  type: none\n');
  await write(root, 'requests/Root.yaml', 'name: Root\nurl: http://127.0.0.1:9/root\n');
  await write(root, 'requests/Other/Broken.yaml', 'name: [unclosed\n');
  await write(root, 'requests/Other/Fine.yaml', 'name: Fine\nurl: http://127.0.0.1:9/fine\n');
  return root;
}

const NESTED = ['Outer/Middle/Inner/Deep.yaml', 'Outer/Middle/Mid', 'outer/top', 'Root.yaml'];

function chainSettings(item: RunItem) {
  return item.folders.map((f) => ({ path: f.path, name: f.name, settings: f.settings }));
}

async function prepared(ws: Workspace, item: RunItem) {
  if (item.node.type !== 'request') throw new Error('not a request');
  const request = item.node.request;
  return prepareRequest(
    { request, path: item.node.path, folders: item.folders, workspace: { root: ws.root, file: ws.file }, variables: buildVariableScope({}) },
    { unsendableAuth: 'omit' },
  );
}

describe('reading part of the request tree', () => {
  it('gives each nested request the same folder chain, inheritance and prepared request as a full read', async () => {
    const root = await nestedWorkspace();
    const full = await openWorkspace(root);
    expect(full.part).toBeUndefined();
    for (const wanted of NESTED) {
      const part = await openWorkspace(root, { requests: [wanted] });
      expect(part.part).toEqual([wanted]);
      const [a] = selectRequests(full.tree, [wanted]);
      const [b] = selectRequests(part.tree, [wanted]);
      expect(b!.node).toEqual(a!.node);
      expect(chainSettings(b!)).toEqual(chainSettings(a!));
      const request = (a!.node as { request: import('../../src/model/index.js').RequestFile }).request;
      expect(effectiveAuth(request, b!.folders, part.file)).toEqual(effectiveAuth(request, a!.folders, full.file));
      expect(mergedHeaders(part.file, b!.folders, request)).toEqual(mergedHeaders(full.file, a!.folders, request));
      for (const phase of ['preRequest', 'postResponse'] as const) {
        expect(scriptChain(part.file, b!.folders, request, a!.node.path, phase)).toEqual(scriptChain(full.file, a!.folders, request, a!.node.path, phase));
      }
      expect(await prepared(part, b!)).toEqual(await prepared(full, a!));
      const code = async (ws: Workspace) => (await exportSavedRequest(ws, wanted, { lang: 'curl' })).code;
      expect(await code(part)).toBe(await code(full));
    }
  });

  it('reads only the named request and its folders, not their siblings or other folders', async () => {
    const root = await nestedWorkspace();
    const part = await openWorkspace(root, { requests: ['Outer/Middle/Inner/Deep'] });
    expect([...walkRequests(part.tree)].map((r) => r.node.path)).toEqual(['Outer/Middle/Inner/Deep.yaml']);
    // The broken file in Other/ was not read, so it is no warning of this read; a full read has it.
    expect(part.warnings).toEqual([]);
    expect((await openWorkspace(root)).warnings.map((w) => w.file)).toEqual(['requests/Other/Broken.yaml']);
  });

  it('reads a named folder whole, in tree order, and several paths into one tree', async () => {
    const root = await nestedWorkspace();
    const full = await openWorkspace(root);
    const part = await openWorkspace(root, { requests: ['Outer/Middle', 'Root'] });
    const paths = (ws: Workspace, p: string[]) => selectRequests(ws.tree, p).map((i) => i.node.path);
    expect(paths(part, ['Outer/Middle', 'Root'])).toEqual(paths(full, ['Outer/Middle', 'Root']));
    expect(paths(part, ['Outer/Middle'])).toEqual(['Outer/Middle/Inner/Deep.yaml', 'Outer/Middle/Mid.yaml']);
  });

  it('a folder beside a request of its name (Outer/ and Outer.yaml): Outer/ reads the folder, Outer.yaml the request, a bare Outer the whole tree (whose selection refuses it)', async () => {
    const root = await nestedWorkspace();
    await write(root, 'requests/Outer.yaml', 'name: Outer request\nurl: http://127.0.0.1:9/outer\n');
    const paths = (ws: Workspace, p: string[]) => selectRequests(ws.tree, p).map((i) => i.node.path);
    const folder = await openWorkspace(root, { requests: ['Outer/'] });
    expect(folder.part).toEqual(['Outer/']);
    expect(paths(folder, ['Outer/'])).toEqual(['Outer/Middle/Inner/Deep.yaml', 'Outer/Middle/Mid.yaml', 'Outer/Top.yaml']);
    const request = await openWorkspace(root, { requests: ['Outer.yaml'] });
    expect(paths(request, ['Outer.yaml'])).toEqual(['Outer.yaml']);
    const bare = await openWorkspace(root, { requests: ['Outer'] });
    expect(bare.part).toBeUndefined();
    expect(() => selectRequests(bare.tree, ['Outer'])).toThrow('"Outer" names both the request Outer.yaml and the folder Outer/. Give Outer.yaml for the request or Outer/ for the folder.');
  });

  it('keeps the warnings of the files it reads (a broken request named, once, with overlapping paths)', async () => {
    const root = await nestedWorkspace();
    const part = await openWorkspace(root, { requests: ['Other', 'Other/Broken'] });
    expect(part.part).toEqual(['Other', 'Other/Broken']);
    expect(part.warnings.map((w) => w.file)).toEqual(['requests/Other/Broken.yaml']);
    const items = selectRequests(part.tree, ['Other']);
    expect(items.map((i) => i.node.type)).toEqual(['request', 'broken']);
  });

  it('reads the whole tree when a path is not found plainly: missing, a link, "..", ambiguous case', async () => {
    const root = await nestedWorkspace();
    await fs.symlink(path.join(root, 'requests', 'Root.yaml'), path.join(root, 'requests', 'Linked.yaml'));
    for (const wanted of ['Nope', 'Linked', 'Outer/../Root', 'Outer//Top', '', '.']) {
      const ws = await openWorkspace(root, { requests: [wanted] });
      expect(ws.part, wanted).toBeUndefined();
    }
    // Two folders differing in case (possible on Linux): a full read decides as it always does.
    await write(root, 'requests/outer/Other.yaml', 'name: Other\nurl: http://127.0.0.1:9/o\n');
    expect((await openWorkspace(root, { requests: ['OUTER/Top'] })).part).toBeUndefined();
    // A run of a missing path still fails with the full read's message.
    const ws = await openWorkspace(root, { requests: ['Outer/Tpo'] });
    expect(() => selectRequests(ws.tree, ['Outer/Tpo'])).toThrow(/No request or folder "Outer\/Tpo"/);
  });

  it('refuses nothing more than a full read: requests/ itself a link reads the whole (empty) tree with its warning', async () => {
    const root = await tempDir();
    const elsewhere = await nestedWorkspace();
    await write(root, 'ferry.yaml', 'version: 1\nid: linked\nname: Linked\n');
    await fs.symlink(path.join(elsewhere, 'requests'), path.join(root, 'requests'));
    const ws = await openWorkspace(root, { requests: ['Root'] });
    expect(ws.part).toBeUndefined();
    expect(ws.warnings.map((w) => w.message).join('\n')).toMatch(/requests is a symbolic link/);
  });
});
