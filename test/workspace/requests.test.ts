import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResource } from '../../src/model/index.js';
import { createFolder, createRequest, deleteFolder, deleteRequest, folderSettingsFile, initWorkspace, moveFolder, moveRequest, openWorkspace, renameFolder, saveRequest } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

function request(name: string, extra: Record<string, unknown> = {}) {
  const parsed = parseResource('request', { name, ...extra });
  if (!parsed.ok) throw new Error('bad request');
  return parsed.value;
}

async function newWorkspace(): Promise<string> {
  return initWorkspace(path.join(await tempDir(), 'ws'), 'Test');
}

describe('create, rename, move, delete', () => {
  it('init creates ferry.yaml, requests/ and environments/ and nothing else', async () => {
    const root = await newWorkspace();
    expect((await fs.readdir(root)).sort()).toEqual(['environments', 'ferry.yaml', 'requests']);
    const ws = await openWorkspace(root);
    expect(ws.id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(ws.file.name).toBe('Test');
  });

  it('writes a generated id on first open when missing, changing only that', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), '# mine\nversion: 1\nname: No id # keep\n');
    const ws = await openWorkspace(root);
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(`# mine\nversion: 1\nid: ${ws.id}\nname: No id # keep\n`);
    expect((await openWorkspace(root)).id).toBe(ws.id);
  });

  it('file names follow display names and collide case-insensitively', async () => {
    const root = await newWorkspace();
    expect(await createRequest(root, '', request('Get: user?'))).toBe('Get- user-.yaml');
    expect(await createRequest(root, '', request('get- USER-'))).toBe('get- USER- 2.yaml');
    const folder = await createFolder(root, '', 'Admin/Tools');
    expect(folder).toBe('Admin-Tools');
    const ws = await openWorkspace(root);
    expect(ws.tree.children.map((c) => (c.type === 'folder' ? c.name : c.path))).toEqual(['Admin/Tools', 'get- USER- 2.yaml', 'Get- user-.yaml']);
  });

  it('names that differ only by Unicode normalization get files that differ in more (one file on macOS)', async () => {
    const root = await newWorkspace();
    expect(await createRequest(root, '', request('Caf\u00e9'))).toBe('Caf\u00e9.yaml');
    expect(await createRequest(root, '', request('Cafe\u0301'))).toBe('Cafe\u0301 2.yaml');
    expect(await createFolder(root, '', 'R\u00e9sum\u00e9s')).toBe('R\u00e9sum\u00e9s');
    expect(await createFolder(root, '', 'Re\u0301sume\u0301s')).toBe('Re\u0301sume\u0301s 2');
  });

  it('renaming a request renames its file and updates load tests in place', async () => {
    const root = await newWorkspace();
    const folder = await createFolder(root, '', 'Users');
    const p = await createRequest(root, folder, request('Get user'));
    await fs.mkdir(path.join(root, 'loadtests'));
    const loadText = '# load\nname: Load\ntargets:\n  - request: Users/Get user.yaml # the one\n    weight: 2\n  - request: Other.yaml\nthresholds:\n  - metric: p95\n    op: "<"\n    value: 200\n    target: Users/Get user.yaml\n';
    await fs.writeFile(path.join(root, 'loadtests', 'load.yaml'), loadText);
    const renamed = await saveRequest(root, p, request('Fetch user'));
    expect(renamed).toBe('Users/Fetch user.yaml');
    await expect(fs.access(path.join(root, 'requests', 'Users', 'Get user.yaml'))).rejects.toThrow();
    expect(await fs.readFile(path.join(root, 'loadtests', 'load.yaml'), 'utf8')).toBe(loadText.replaceAll('Users/Get user.yaml', 'Users/Fetch user.yaml'));
  });

  it('moving a request and renaming a folder move subtrees and load test targets', async () => {
    const root = await newWorkspace();
    const a = await createFolder(root, '', 'A');
    const b = await createFolder(root, a, 'B');
    const p = await createRequest(root, b, request('R'));
    await fs.mkdir(path.join(root, 'loadtests'));
    await fs.writeFile(path.join(root, 'loadtests', 'l.yaml'), 'name: L\ntargets:\n  - request: A/B/R.yaml\n');
    const moved = await moveRequest(root, p, a);
    expect(moved).toBe('A/R.yaml');
    expect(await fs.readFile(path.join(root, 'loadtests', 'l.yaml'), 'utf8')).toContain('request: A/R.yaml');
    const renamed = await renameFolder(root, a, 'Alpha');
    expect(renamed).toBe('Alpha');
    expect(await fs.readFile(path.join(root, 'loadtests', 'l.yaml'), 'utf8')).toContain('request: Alpha/R.yaml');
    const ws = await openWorkspace(root);
    const alpha = ws.tree.children[0]!;
    expect(alpha.type === 'folder' && alpha.name).toBe('Alpha');
    await deleteRequest(root, 'Alpha/R.yaml');
    await deleteFolder(root, 'Alpha');
    expect((await openWorkspace(root)).tree.children).toEqual([]);
  });

  it('moving a folder moves its subtree, keeps its display name and updates load tests', async () => {
    const { moveFolder } = await import('../../src/workspace/index.js');
    const root = await newWorkspace();
    const users = await createFolder(root, '', 'Users');
    await createRequest(root, users, request('List'));
    const admin = await createFolder(root, '', 'Admin');
    await createFolder(root, admin, 'users'); // taken, case-insensitively
    await fs.mkdir(path.join(root, 'loadtests'));
    await fs.writeFile(path.join(root, 'loadtests', 'l.yaml'), 'name: L\ntargets:\n  - request: Users/List.yaml\n');
    expect(await moveFolder(root, 'Users', 'Admin')).toBe('Admin/Users 2');
    expect(await fs.readFile(path.join(root, 'loadtests', 'l.yaml'), 'utf8')).toBe('name: L\ntargets:\n  - request: Admin/Users 2/List.yaml\n');
    const ws = await openWorkspace(root);
    const moved = ws.tree.children[0]!.type === 'folder' ? ws.tree.children[0].children.find((c) => c.path === 'Admin/Users 2') : undefined;
    expect(moved?.type === 'folder' && [moved.name, moved.children.map((c) => c.path)]).toEqual(['Users', ['Admin/Users 2/List.yaml']]);
    // Back to the root, where the name is free again; into itself is refused.
    expect(await moveFolder(root, 'Admin/Users 2', '')).toBe('Users');
    await expect(moveFolder(root, 'Admin', 'Admin/users')).rejects.toThrow('Cannot move folder "Admin" into itself ("Admin/users").');
    await expect(moveFolder(root, '', 'Admin')).rejects.toThrow(/root cannot be moved/);
    expect(await moveFolder(root, 'Admin', '')).toBe('Admin');
  });

  it('renaming a folder whose _folder.yaml does not parse is refused, and the file is kept', async () => {
    const root = await newWorkspace();
    const folder = await createFolder(root, '', 'Broken');
    await fs.writeFile(path.join(root, 'requests', folder, '_folder.yaml'), 'name: [\n');
    await expect(renameFolder(root, folder, 'Other')).rejects.toThrow(/Cannot change folder "Broken": requests\/Broken\/_folder\.yaml:\d+:\d+: YAML syntax error.*Fix requests\/Broken\/_folder\.yaml first\./);
    expect(await fs.readFile(path.join(root, 'requests', folder, '_folder.yaml'), 'utf8')).toBe('name: [\n');
    await expect(renameFolder(root, '', 'x')).rejects.toThrow(/collection root has no folder name/);
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual(['Broken']);
  });

  it('tree order: seq, then folders first, then name', async () => {
    const root = await newWorkspace();
    await createRequest(root, '', request('b'));
    await createRequest(root, '', request('a'));
    await createRequest(root, '', request('z', { seq: -1 }));
    await createFolder(root, '', 'folder');
    await createRequest(root, '', request('last', { seq: 5 }));
    const ws = await openWorkspace(root);
    expect(ws.tree.children.map((c) => (c.type === 'folder' ? `${c.name}/` : c.path))).toEqual(['z.yaml', 'folder/', 'a.yaml', 'b.yaml', 'last.yaml']);
  });

  it('ignores dot-names and extensions in any case are read', async () => {
    const root = await newWorkspace();
    await fs.writeFile(path.join(root, 'requests', '.hidden.yaml'), 'name: Hidden\n');
    await fs.mkdir(path.join(root, 'requests', '.git'));
    await fs.writeFile(path.join(root, 'requests', 'Upper.YAML'), 'name: Upper\n');
    await fs.writeFile(path.join(root, 'requests', 'notes.txt'), 'not a request');
    await fs.writeFile(path.join(root, 'requests', '_folder.yaml'), 'auth:\n  type: none\n');
    const ws = await openWorkspace(root);
    expect(ws.tree.children.map((c) => c.path)).toEqual(['Upper.YAML']);
    expect(ws.warnings.map((w) => w.message)).toEqual([
      'requests/_folder.yaml is not read: the collection root has no folder settings; put them in ferry.yaml (auth, headers, scripts).',
    ]);
  });
});

describe("a folder's settings file (the app's settings view)", () => {
  it('is requests/<path>/_folder.yaml; the collection root, paths out of requests/ and links are refused', async () => {
    const root = await newWorkspace();
    await createFolder(root, '', 'Users');
    expect(await folderSettingsFile(root, 'Users')).toBe('requests/Users/_folder.yaml');
    expect(await folderSettingsFile(root, 'Users/')).toBe('requests/Users/_folder.yaml');
    const outside = await tempDir();
    await fs.symlink(outside, path.join(root, 'requests', 'Linked'));
    await fs.mkdir(path.join(root, 'requests', 'Lured'));
    await fs.symlink(path.join(outside, 'x.yaml'), path.join(root, 'requests', 'Lured', '_folder.yaml'));
    for (const [folder, message] of [
      ['', 'The collection root has no _folder.yaml: its auth, headers, scripts and docs are the workspace file\'s.'],
      ['..', '".." is not a folder path: give it relative to requests/, with / between folders, without "." or ".." parts.'],
      ['Users/../../x', '"Users/../../x" is not a folder path'],
      ['/tmp', '"/tmp" is not a folder path'],
      ['Linked', 'Cannot use the settings of folder "Linked": requests/Linked is a symbolic link, and Ferry never follows links.'],
      ['Lured', 'Cannot use the settings of folder "Lured": requests/Lured/_folder.yaml is a symbolic link, and Ferry never follows links.'],
    ] as const) {
      await expect(folderSettingsFile(root, folder), folder).rejects.toThrow(message);
    }
  });
});

describe('the 50 MB a YAML file is read up to (spec 8.1)', () => {
  it('a save that would make a file over 50 MB is refused and the old file kept', async () => {
    const root = await newWorkspace();
    const saved = await createRequest(root, '', request('Big'));
    const file = path.join(root, 'requests', saved);
    const before = await fs.readFile(file, 'utf8');
    const body = { type: 'text', text: 'x'.repeat(50 * 1024 * 1024) };
    await expect(saveRequest(root, saved, request('Big', { body }))).rejects.toThrow(
      /^Not saved: Big\.yaml would be [\d,]+ bytes, and YAML files over 50 MB are not read\./,
    );
    expect(await fs.readFile(file, 'utf8')).toBe(before);
  });
});

describe('the 32 folder levels the tree is read to (spec 2.1.8)', () => {
  const levels = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}`).join('/');

  it('creating or moving past level 32 is refused and changes nothing; level 32 itself works', async () => {
    const root = await newWorkspace();
    await fs.mkdir(path.join(root, 'requests', levels(32)), { recursive: true });
    expect(await createFolder(root, levels(31), 'Last')).toBe(`${levels(31)}/Last`);
    expect(await createRequest(root, levels(32), request('Deep'))).toBe(`${levels(32)}/Deep.yaml`);
    const tooDeep = /would be 33 folder levels deep; the request tree is read to 32 levels, so it would not be seen/;
    await expect(createFolder(root, levels(32), 'Lost')).rejects.toThrow(tooDeep);
    await expect(createRequest(root, `${levels(32)}/l33`, request('Lost'))).rejects.toThrow(tooDeep);
    await expect(moveRequest(root, `${levels(32)}/Deep.yaml`, `${levels(32)}/l33`)).rejects.toThrow(tooDeep);

    // A folder with two levels inside moved to level 31: its deepest folder would be at 34.
    await fs.mkdir(path.join(root, 'requests', 'Top', 'a', 'b'), { recursive: true });
    await createRequest(root, 'Top/a/b', request('Kept'));
    await expect(moveFolder(root, 'Top', levels(30))).rejects.toThrow(/"Top" with its subfolders would be 33 folder levels deep/);
    await expect(moveFolder(root, 'Top', levels(31))).rejects.toThrow(/would be 34 folder levels deep/);
    expect(await moveFolder(root, 'Top', levels(29))).toBe(`${levels(29)}/Top`);

    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    expect(await fs.readdir(path.join(root, 'requests', levels(32)))).toEqual(['Deep.yaml']);
  });
});

describe('environments, servers and load tests', () => {
  it('a new entry takes its id from its name; servers/ and loadtests/ appear only on first save', async () => {
    const { createEntry, saveEntry, deleteEntry } = await import('../../src/workspace/index.js');
    const root = await newWorkspace();
    expect((await fs.readdir(root)).sort()).toEqual(['environments', 'ferry.yaml', 'requests']);
    const env = parseResource('environment', { name: 'Staging: EU', variables: [{ key: 'a', value: '1' }] });
    const server = parseResource('server', { name: 'Mock', http: { routes: [{ path: '/x' }] } });
    const load = parseResource('loadtest', { name: 'Smoke' });
    if (!env.ok || !server.ok || !load.ok) throw new Error('fixtures');
    expect(await createEntry(root, 'environment', env.value)).toBe('Staging- EU');
    expect(await createEntry(root, 'environment', env.value)).toBe('Staging- EU 2');
    expect(await createEntry(root, 'server', server.value)).toBe('Mock');
    expect(await createEntry(root, 'loadtest', load.value)).toBe('Smoke');
    expect((await fs.readdir(root)).sort()).toEqual(['environments', 'ferry.yaml', 'loadtests', 'requests', 'servers']);

    // Renaming an environment renames its file, keeping what the user wrote.
    const file = path.join(root, 'environments', 'Staging- EU.yaml');
    await fs.writeFile(file, `# mine\n${await fs.readFile(file, 'utf8')}`);
    const id = await saveEntry(root, 'environment', 'Staging- EU', { ...env.value, name: 'Production' });
    expect(id).toBe('Production');
    expect(await fs.readFile(path.join(root, 'environments', 'Production.yaml'), 'utf8')).toMatch(/^# mine\nname: "Production"\n/);
    // Saving without renaming keeps a hand-named file (`local.yaml` named "Local"): its id keys secrets.
    await fs.writeFile(path.join(root, 'environments', 'local.yaml'), 'name: Local\nvariables: []\n');
    expect(await saveEntry(root, 'environment', 'local', { name: 'Local', variables: [{ key: 'b', value: '2', enabled: true, secret: false }] })).toBe('local');
    await deleteEntry(root, 'environment', 'local');
    // A server and a load test are renamed with their files too (2.1.4); a taken name gets a number.
    expect(await saveEntry(root, 'server', 'Mock', { ...server.value, name: 'Other' })).toBe('Other');
    await fs.writeFile(path.join(root, 'loadtests', 'Soak.yaml'), 'name: Soak (by hand)\ntargets: []\n');
    expect(await saveEntry(root, 'loadtest', 'Smoke', { ...load.value, name: 'Soak' })).toBe('Soak 2');
    expect((await fs.readdir(path.join(root, 'loadtests'))).sort()).toEqual(['Soak 2.yaml', 'Soak.yaml']);
    // Saved again under the same name: the file stays.
    expect(await saveEntry(root, 'loadtest', 'Soak 2', { ...load.value, name: 'Soak' })).toBe('Soak 2');
    await deleteEntry(root, 'loadtest', 'Soak 2');
    await deleteEntry(root, 'loadtest', 'Soak');
    const ws = await openWorkspace(root);
    expect(ws.environments.map((e) => e.id).sort()).toEqual(['Production', 'Staging- EU 2']);
    expect(ws.servers.map((s) => [s.id, s.value.name])).toEqual([['Other', 'Other']]);
    expect(ws.loadtests).toEqual([]);
    await expect(createEntry(root, 'environment', { ...env.value, name: '' })).rejects.toThrow('A name cannot be empty; give a name of 1 to 200 characters.');
  });
});

describe('names starting with -', () => {
  it('a new request or folder named like an option gets `_` first; a file named `-rf.yaml` before keeps its name when saved, and is renamed only with its name', async () => {
    const root = await newWorkspace();
    expect(await createRequest(root, '', request('-rf'))).toBe('_-rf.yaml');
    expect(await createFolder(root, '', '--help')).toBe('_--help');
    await fs.writeFile(path.join(root, 'requests', '-old.yaml'), 'name: "-old"\nurl: http://127.0.0.1:9/\n');
    expect(await saveRequest(root, '-old.yaml', request('-old', { url: 'http://127.0.0.1:9/changed' }))).toBe('-old.yaml');
    expect(await fs.readFile(path.join(root, 'requests', '-old.yaml'), 'utf8')).toContain('changed');
    expect(await saveRequest(root, '-old.yaml', request('-new'))).toBe('_-new.yaml');
  });
});

describe('control characters in names given now', () => {
  // ESC (a terminal sequence), a carriage return (writes over the line), NUL, DEL, C1, a bidi override and an isolate.
  const hostile = ['Red\x1b[31m', 'a\rfake', 'nul\u0000', 'del\u007f', 'c1\u009b', 'exe\u202egnp', 'iso\u2066x\u2069', 'tab\there'];

  it('creating or renaming a request, folder, environment or server with one is refused, naming the character; nothing is written', async () => {
    const { createEntry, saveEntry } = await import('../../src/workspace/index.js');
    const root = await newWorkspace();
    await createRequest(root, '', request('Plain'));
    await createFolder(root, '', 'Folder');
    const env = parseResource('environment', { name: 'Env', variables: [] });
    const server = parseResource('server', { name: 'Mock', http: { routes: [{ path: '/x' }] } });
    if (!env.ok || !server.ok) throw new Error('fixtures');
    await createEntry(root, 'environment', env.value);
    await createEntry(root, 'server', server.value);
    const before = await openWorkspace(root);
    for (const name of hostile) {
      const refused = /A name cannot hold control characters or bidirectional overrides .* has U\+[0-9A-F]{4} at character \d+\. Remove it/;
      await expect(createRequest(root, '', request(name)), name).rejects.toThrow(refused);
      await expect(createFolder(root, '', name), name).rejects.toThrow(refused);
      await expect(renameFolder(root, 'Folder', name), name).rejects.toThrow(refused);
      await expect(saveRequest(root, 'Plain.yaml', request(name)), name).rejects.toThrow(refused);
      await expect(createEntry(root, 'environment', { ...env.value, name }), name).rejects.toThrow(refused);
      await expect(saveEntry(root, 'environment', 'Env', { ...env.value, name }), name).rejects.toThrow(refused);
      await expect(saveEntry(root, 'server', 'Mock', { ...server.value, name }), name).rejects.toThrow(refused);
    }
    // The message shows the name escaped, never the raw character.
    await expect(createRequest(root, '', request('Red\x1b[31m'))).rejects.toThrow('"Red\\x1b[31m" has U+001B at character 4');
    const after = await openWorkspace(root);
    expect(JSON.stringify(after.tree)).toBe(JSON.stringify(before.tree));
    expect(after.environments.map((e) => [e.id, e.value.name])).toEqual([['Env', 'Env']]);
    // Right-to-left marks are not overrides: a Hebrew or Arabic name keeps them.
    expect(await createRequest(root, '', request('\u05e9\u05dc\u05d5\u05dd\u200f 1'))).toBe('\u05e9\u05dc\u05d5\u05dd- 1.yaml');
  });

  it('a name that already holds one (a hand edit, an import) is read, and the item saved again under it; only a new name is checked', async () => {
    const root = await newWorkspace();
    await fs.writeFile(path.join(root, 'requests', 'r.yaml'), 'name: "tab\\there"\nurl: http://127.0.0.1:9/\n');
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    expect(ws.tree.children.map((c) => (c.type === 'request' ? c.request.name : c.path))).toEqual(['tab\there']);
    expect(await saveRequest(root, 'r.yaml', request('tab\there', { url: 'http://127.0.0.1:9/changed' }))).toBe('tab-here.yaml');
    expect(await fs.readFile(path.join(root, 'requests', 'tab-here.yaml'), 'utf8')).toContain('changed');
    await expect(saveRequest(root, 'tab-here.yaml', request('tab\there\x1b'))).rejects.toThrow(/U\+0009 at character 4/);
  });
});

describe('a move finished from its journal (move-journal.ts)', () => {
  /** The journal a killed `ferry mv Users People` leaves right after renaming the folder. */
  async function killedMove(): Promise<{ root: string; journal: string }> {
    const root = await newWorkspace();
    await fs.mkdir(path.join(root, 'requests', 'People'));
    await fs.writeFile(path.join(root, 'requests', 'People', 'A.yaml'), 'name: A\n');
    await fs.mkdir(path.join(root, 'loadtests'));
    await fs.writeFile(path.join(root, 'loadtests', 'l.yaml'), 'name: l\ntargets:\n  - request: Users/A.yaml\n');
    const journal = path.join(await tempDir(), 'move-journal.json');
    const steps = [
      { op: 'rename', from: 'Users', to: 'People' },
      { op: 'save', kind: 'folder', path: 'People', value: { name: 'People', seq: 4, auth: { type: 'inherit' }, headers: [] } },
      { op: 'retarget', folder: true, from: 'Users', to: 'People' },
    ];
    await fs.writeFile(journal, JSON.stringify({ version: 1, pid: 2 ** 22 + 17, host: (await import('node:os')).hostname(), root: path.resolve(root), steps }));
    return { root, journal };
  }

  it('takes the steps not done yet, once; taken again they change nothing', async () => {
    const { finishInterruptedMove } = await import('../../src/workspace/move-journal.js');
    const { root, journal } = await killedMove();
    expect(await finishInterruptedMove(root, journal)).toEqual({ state: 'finished', from: 'Users', to: 'People' });
    expect(await fs.readFile(path.join(root, 'loadtests', 'l.yaml'), 'utf8')).toBe('name: l\ntargets:\n  - request: People/A.yaml\n');
    expect(await fs.readFile(path.join(root, 'requests', 'People', '_folder.yaml'), 'utf8')).toBe('name: People\nseq: 4\n');
    await expect(fs.lstat(journal)).rejects.toThrow();
    expect(await finishInterruptedMove(root, journal)).toEqual({ state: 'none' });
  });

  it('a folder made where the move went, or the moved one gone, since the kill: nothing is written into it, the journal goes', async () => {
    const { finishInterruptedMove } = await import('../../src/workspace/move-journal.js');
    const { root, journal } = await killedMove();
    // Users is back (made again by hand) beside People: which is the moved one is no longer known.
    await fs.mkdir(path.join(root, 'requests', 'Users'));
    expect(await finishInterruptedMove(root, journal)).toEqual({ state: 'none' });
    await expect(fs.lstat(path.join(root, 'requests', 'People', '_folder.yaml'))).rejects.toThrow();
    expect(await fs.readFile(path.join(root, 'loadtests', 'l.yaml'), 'utf8')).toContain('Users/A.yaml');
    await expect(fs.lstat(journal)).rejects.toThrow();
  });

  it('a journal written for another folder, or damaged, is removed without acting on it', async () => {
    const { finishInterruptedMove } = await import('../../src/workspace/move-journal.js');
    const { root, journal } = await killedMove();
    const other = await newWorkspace();
    expect(await finishInterruptedMove(other, journal)).toEqual({ state: 'none' });
    await expect(fs.lstat(journal)).rejects.toThrow();
    const escape = { version: 1, pid: 1, host: (await import('node:os')).hostname(), root: path.resolve(root), steps: [{ op: 'rename', from: '../ferry.yaml', to: 'x' }] };
    await fs.writeFile(journal, JSON.stringify(escape));
    expect(await finishInterruptedMove(root, journal)).toEqual({ state: 'none' });
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toContain('name: Test');
  });
});
