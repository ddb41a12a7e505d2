import { execFileSync, spawnSync } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createRequest, openWorkspace, openWorkspaceFrom, readResource, renameFolder, saveRequest, WorkspaceError, type FolderNode } from '../../src/workspace/index.js';
import { parseResource } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';
import { ferryProcess } from '../support/cli.js';
import { readWithLinkSwappedAtOpen } from '../support/link-swap.js';
import { readTextFile } from '../../src/workspace/files.js';

async function workspace(files: Record<string, string> = {}): Promise<string> {
  const root = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: test-ws\nname: Test\n');
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  return root;
}

const good = 'name: Good\nurl: http://127.0.0.1/\n';

function request(name: string) {
  const parsed = parseResource('request', { name });
  if (!parsed.ok) throw new Error('bad');
  return parsed.value;
}

describe('bad input: each a clear message while the rest opens', () => {
  it('YAML syntax error: path, line, column and message', async () => {
    const root = await workspace({ 'requests/Good.yaml': good, 'requests/Broken.yaml': 'name: Broken\nurl: [unclosed\n' });
    const ws = await openWorkspace(root);
    expect(ws.tree.children.map((c) => c.type)).toEqual(['request', 'broken']);
    expect(ws.warnings).toHaveLength(1);
    expect(ws.warnings[0]).toMatchObject({ file: 'requests/Broken.yaml', line: expect.any(Number), column: expect.any(Number) });
    expect(ws.warnings[0]!.message).toMatch(/YAML syntax error/);
  });

  it('wrong types name the field and its line', async () => {
    const root = await workspace({
      'requests/Seq.yaml': 'name: Seq\nseq: "x"\n',
      'requests/Headers.yaml': 'name: Headers\nurl: http://x\nheaders: 3\n',
      'requests/Good.yaml': good,
    });
    const ws = await openWorkspace(root);
    const byFile = Object.fromEntries(ws.warnings.map((w) => [w.file, w]));
    expect(byFile['requests/Seq.yaml']).toMatchObject({ line: 2, message: 'seq: expected a number, got text "x"' });
    expect(byFile['requests/Headers.yaml']).toMatchObject({ line: 3, message: 'headers: expected a list, got number 3' });
    expect(ws.tree.children.filter((c) => c.type === 'request')).toHaveLength(1);
  });

  it('a number below its bound says so, not "expected a number, got number -1"', async () => {
    const root = await workspace({ 'loadtests/Smoke.yaml': 'name: Smoke\nstages:\n  - durationSecs: -5\n    target: -1\n' });
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => [w.file, w.message])).toEqual([['loadtests/Smoke.yaml', 'stages[0].durationSecs: must be at least 0 (and 1 more problem: `ferry ls --problems` lists every one)']]);
    expect(ws.warnings[0]!.problems).toEqual(['stages[0].durationSecs: must be at least 0', 'stages[0].target: must be at least 0']);
  });

  it('a 51 MB file is not read', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const big = path.join(root, 'requests', 'Big.yaml');
    const handle = await fs.open(big, 'w');
    await handle.truncate(51 * 1024 * 1024);
    await handle.close();
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => w.message)).toEqual(['requests/Big.yaml is 51.0 MB; YAML files over 50 MB are not read.']);
  });

  it('a file of exactly 50 MB is read (8.1: the limit itself is accepted)', async () => {
    const head = 'name: Exactly\nurl: http://127.0.0.1/\n# ';
    const text = `${head}${'x'.repeat(50 * 1024 * 1024 - head.length - 1)}\n`;
    expect(Buffer.byteLength(text)).toBe(50 * 1024 * 1024);
    const root = await workspace({ 'requests/Exactly.yaml': text });
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    expect(ws.tree.children.map((c) => c.type === 'request' && c.request.name)).toEqual(['Exactly']);
  });

  it('ferry.yaml of exactly 50 MB opens; one byte more is refused saying its size and what to do (it said "cannot be read (… over the 50 MB limit; it was not read.)" and "It must be a file you may read")', async () => {
    const root = await tempDir();
    const head = 'version: 1\nid: big-one\nname: Big\n# ';
    const text = `${head}${'x'.repeat(50 * 1024 * 1024 - head.length - 1)}\n`;
    await fs.writeFile(path.join(root, 'ferry.yaml'), text);
    const data = await tempDir();
    const opened = ferryProcess(['-w', root, 'ls'], { FERRY_DATA_DIR: data }, 20_000);
    expect(await opened.done, opened.output.stderr).toBe(0);
    await fs.appendFile(path.join(root, 'ferry.yaml'), '\n');
    const refused = ferryProcess(['-w', root, 'ls'], { FERRY_DATA_DIR: data }, 20_000);
    expect(await refused.done).toBe(2);
    expect(refused.output.stderr).toBe(`ferry: ${path.join(root, 'ferry.yaml')} is 52,428,801 bytes; YAML files over 50 MB are not read, and the workspace cannot open without it. Make it smaller (keep large values in files beside it), then open the workspace again.\n`);
  }, 30_000);

  it('a file 10 bytes over 50 MB says its size in bytes (in MB it would read "50.0 MB")', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const handle = await fs.open(path.join(root, 'requests', 'Over.yaml'), 'w');
    await handle.truncate(50 * 1024 * 1024 + 10);
    await handle.close();
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => w.message)).toEqual(['requests/Over.yaml is 52,428,810 bytes; YAML files over 50 MB are not read.']);
  });

  it('40 folder levels: read to 32, then a warning', async () => {
    const root = await workspace();
    const deep = path.join(root, 'requests', ...Array.from({ length: 40 }, (_, i) => `l${i + 1}`));
    await fs.mkdir(deep, { recursive: true });
    await fs.writeFile(path.join(deep, 'Deep.yaml'), good);
    const ws = await openWorkspace(root);
    let depth = 0;
    let folder: FolderNode = ws.tree;
    while (folder.children[0]?.type === 'folder') {
      folder = folder.children[0];
      depth++;
    }
    expect(depth).toBe(32);
    expect(ws.warnings).toHaveLength(1);
    expect(ws.warnings[0]!.message).toMatch(/l33 is deeper than 32 folder levels and was not read/);
  });

  it('a symlink loop and a symlink pointing outside are skipped, never followed', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'Secret.yaml'), 'name: Secret\n');
    await fs.symlink(path.join(root, 'requests'), path.join(root, 'requests', 'loop'));
    await fs.symlink(outside, path.join(root, 'requests', 'escape'));
    await fs.symlink(path.join(outside, 'Secret.yaml'), path.join(root, 'requests', 'Linked.yaml'));
    const ws = await openWorkspace(root);
    expect(ws.tree.children.map((c) => c.path)).toEqual(['Good.yaml']);
    expect(ws.warnings.map((w) => w.file).sort()).toEqual(['requests/Linked.yaml', 'requests/escape', 'requests/loop']);
    expect(ws.warnings.every((w) => /symbolic link; Ferry never follows links/.test(w.message))).toBe(true);
    await expect(saveRequest(root, 'escape/Secret.yaml', request('Secret'))).rejects.toThrow(/symbolic link/);
  });

  it('readTextFile never reads through a link, even one swapped in between its check and its read (O_NOFOLLOW)', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'Secret.yaml'), 'name: SECRET\n');
    const file = path.join(root, 'requests', 'Good.yaml');
    // A link at the last component: refused, saying so.
    const link = path.join(root, 'requests', 'Linked.yaml');
    await fs.symlink(path.join(outside, 'Secret.yaml'), link);
    await expect(readTextFile(link)).rejects.toThrow(`${link} is a symbolic link; Ferry never follows links.`);
    // Swapped for a link after its check, as its open is called: refused as a link, never read.
    const { outcome, swapped } = await readWithLinkSwappedAtOpen(file, path.join(outside, 'Secret.yaml'), () => readTextFile(file));
    expect(swapped).toBe(1);
    expect('error' in outcome && outcome.error.message).toBe(`${file} is a symbolic link; Ferry never follows links.`);
    // The same read of a plain file gives its text.
    await fs.rm(file);
    await fs.writeFile(file, good);
    expect(await readTextFile(file)).toBe(good);
  });

  it('a ferry.yaml that is a named pipe is refused at once, not opened: the open waited for a writer for ever, deaf to Ctrl-C and SIGTERM', async () => {
    const root = await tempDir();
    execFileSync('mkfifo', [path.join(root, 'ferry.yaml')]);
    // A process of its own: the old open blocked its main thread (SIGKILLed after 20 s by ferryProcess).
    const run = ferryProcess(['-w', root, 'ls'], { FERRY_DATA_DIR: await tempDir() }, 20_000);
    expect(await run.done).toBe(2);
    expect(run.output.stderr).toContain(`${path.join(root, 'ferry.yaml')} cannot be read (it is not a regular file but a named pipe, a device or a socket; Ferry reads regular files only); the workspace cannot open without it.`);
  }, 30_000);

  it('requests/, environments/ and servers/ that are links are not followed either', async () => {
    const outside = await tempDir();
    for (const dir of ['requests', 'environments', 'servers']) {
      await fs.mkdir(path.join(outside, dir));
      await fs.writeFile(path.join(outside, dir, 'Outside.yaml'), 'name: Outside\n');
    }
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: test-ws\nname: Test\n');
    for (const dir of ['requests', 'environments', 'servers']) await fs.symlink(path.join(outside, dir), path.join(root, dir));
    const ws = await openWorkspace(root);
    expect(ws.tree.children).toEqual([]);
    expect(ws.environments).toEqual([]);
    expect(ws.servers).toEqual([]);
    expect(ws.warnings.map((w) => w.message)).toEqual([
      'environments is a symbolic link; Ferry never follows links, so it was skipped.',
      'requests is a symbolic link; Ferry never follows links, so no request was read. Put the real folder in its place (remove the link, then move or copy the folder it points to here as requests/).',
      'servers is a symbolic link; Ferry never follows links, so it was skipped.',
    ]);
    await expect(createRequest(root, '', request('New'))).rejects.toThrow(/symbolic link/);
    expect(await fs.readdir(path.join(outside, 'requests'))).toEqual(['Outside.yaml']);
  });

  it('environments/ that is a file is reported; the rest opens', async () => {
    const root = await workspace({ 'requests/Good.yaml': good, environments: 'not a folder' });
    const ws = await openWorkspace(root);
    expect(ws.tree.children).toHaveLength(1);
    expect(ws.warnings).toEqual([{ file: 'environments', message: 'environments/ cannot be read (it is a file, not a folder). Make it a folder.', code: 'not-a-folder', namesFile: true }]);
  });

  it('a secret variable with a value in the file is a warning (the value is not used)', async () => {
    const root = await workspace({ 'environments/prod.yaml': 'name: Prod\nvariables:\n  - key: token\n    value: s3cret\n    secret: true\n  - key: ok\n    secret: true\n' });
    const ws = await openWorkspace(root);
    expect(ws.environments).toHaveLength(1);
    expect(ws.warnings.map((w) => w.message)).toEqual([
      'environments/prod.yaml: the secret variable "token" has a value in the file. Ferry ignores it (secret values come from this computer\'s secret store); remove it from the file, and from your git history if it is real.',
    ]);
  });

  it('a ferry.yaml that does not parse or fit opens the workspace with a warning, under its id, and its settings at their defaults', async () => {
    const cases: [string, RegExp][] = [
      ['version: 1\nid: kept-id\nname: [unclosed\nheaders:\n  - key: X-Team\n    value: a\n', /^YAML syntax error: .*The workspace opens without this file's variables, auth, headers and scripts, and nothing is saved to it, until it is fixed\.$/],
      ['version: 1\nid: kept-id\nname: W\nheaders: 3\n', /^headers: expected a list, got number 3\. The workspace opens without/],
      ['version: 0\nid: kept-id\nname: W\n', /^version must be 1, got 0\. The workspace opens without/],
      // In quotes, the version is text: the message says to drop them.
      ['version: "1"\nid: kept-id\nname: W\n', /^version: expected the format version number, 1, got the text "1": write it without quotes \(version: 1\)\. The workspace opens without/],
    ];
    for (const [text, message] of cases) {
      const root = await tempDir();
      await fs.writeFile(path.join(root, 'ferry.yaml'), text);
      await fs.mkdir(path.join(root, 'requests'));
      await fs.writeFile(path.join(root, 'requests', 'Good.yaml'), good);
      const ws = await openWorkspace(root);
      expect(ws.id).toBe('kept-id'); // this computer's secrets and active environment are still found
      expect(ws.file.name).toBe(path.basename(root));
      expect(ws.file.headers).toEqual([]);
      expect(ws.tree.children.map((c) => (c.type === 'request' ? c.request.name : c.type))).toEqual(['Good']);
      const warning = ws.warnings.find((w) => w.file === 'ferry.yaml')!;
      expect(warning.message).toMatch(message);
      expect(warning.line).toBeGreaterThan(0);
      expect(ws.fileProblem).toMatch(/^ferry\.yaml:\d+:\d+: /);
      expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(text); // nothing written
    }
    // A newer version in quotes is refused as newer at once: dropping the quotes would only lead there (spec 7).
    const quoted = await tempDir();
    await fs.writeFile(path.join(quoted, 'ferry.yaml'), 'version: "2"\nid: kept-id\nname: W\n');
    await expect(openWorkspace(quoted)).rejects.toThrow('This workspace was created by a newer version of Ferry (format version 2; this Ferry reads version 1). Update Ferry to open it.');
    // Without a usable id line, the id comes from the folder path, the same on every open.
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), '<<<<<<< HEAD\nversion: 1\n');
    const first = await openWorkspace(root);
    expect(first.id).toMatch(/^path-[0-9a-f]{32}$/);
    expect((await openWorkspace(root)).id).toBe(first.id);
  });

  it('a ferry.yaml without version is read as version 1 with a warning: its variables, auth, headers and scripts are kept, and a write adds the line', async () => {
    const text = 'id: kept-id\nname: No version\nvariables:\n  - key: base\n    value: http://127.0.0.1:9\nheaders:\n  - key: X-Team\n    value: a\nauth:\n  type: bearer\n  token: t\nscripts:\n  preRequest: pm.variables.set("x", 1);\n';
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), text);
    const ws = await openWorkspace(root);
    expect(ws.fileProblem).toBeUndefined();
    expect(ws.file).toMatchObject({ version: 1, name: 'No version', variables: [{ key: 'base', value: 'http://127.0.0.1:9' }], headers: [{ key: 'X-Team', value: 'a' }], auth: { type: 'bearer', token: 't' } });
    expect(ws.file.scripts?.preRequest).toBe('pm.variables.set("x", 1);');
    expect(ws.warnings).toEqual([{ file: 'ferry.yaml', line: 1, column: 1, message: 'no version: read as format version 1. Add the line `version: 1` (Ferry writes it the next time it saves this file).' }]);
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(text); // nothing written by opening
    // An empty `version:` is missing too, as any empty field is.
    await fs.writeFile(path.join(root, 'ferry.yaml'), `version:\n${text}`);
    expect((await openWorkspace(root)).warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^no version: read as format version 1\./)]);
    // Without an id either, Ferry writes the id, and the version with it: no warning then.
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'name: Neither\n');
    const written = await openWorkspace(root);
    expect(written.warnings).toEqual([]);
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(`version: 1\nid: ${written.id}\nname: Neither\n`);
  });

  it('files ending in .yml are not read, and each is named with the name to give it; a ferry.yml says to rename it', async () => {
    const root = await workspace({
      'requests/Good.yaml': good,
      'requests/Other.yml': good.replace('name: Good', 'name: Other'),
      'requests/F/_folder.yml': 'name: F\n',
      'requests/notes.txt': 'not YAML, not said',
      'environments/dev.yml': 'name: Dev\n',
      'servers/mock.YML': 'name: Mock\n',
      'loadtests/smoke.yml': 'name: Smoke\n',
    });
    const ws = await openWorkspace(root);
    expect(ws.environments).toEqual([]);
    expect(ws.servers).toEqual([]);
    expect(ws.tree.children.map((c) => (c.type === 'request' ? c.request.name : c.type === 'folder' ? `${c.name}/` : c.type))).toEqual(['F/', 'Good']);
    expect(ws.warnings.map((w) => w.message).sort()).toEqual([
      'environments/dev.yml is not read: Ferry reads .yaml files only. Rename it to dev.yaml.',
      'loadtests/smoke.yml is not read: Ferry reads .yaml files only. Rename it to smoke.yaml.',
      'requests/F/_folder.yml is not read: Ferry reads .yaml files only. Rename it to _folder.yaml.',
      'requests/Other.yml is not read: Ferry reads .yaml files only. Rename it to Other.yaml.',
      'servers/mock.YML is not read: Ferry reads .yaml files only. Rename it to mock.yaml.',
    ]);
    // The workspace file itself: not found, and the message says why.
    const misnamed = await tempDir();
    await fs.writeFile(path.join(misnamed, 'ferry.yml'), 'version: 1\nname: W\n');
    await fs.mkdir(path.join(misnamed, 'sub'));
    const said = `${misnamed} has ferry.yml, but Ferry reads ferry.yaml only. Rename it to ferry.yaml.`;
    await expect(openWorkspace(misnamed)).rejects.toThrow(said);
    await expect(openWorkspaceFrom(undefined, path.join(misnamed, 'sub'))).rejects.toThrow(said);
  });

  it('version 2 is refused with the spec message', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 2\nname: Future\n');
    await expect(openWorkspace(root)).rejects.toThrow(WorkspaceError);
    await expect(openWorkspace(root)).rejects.toThrow(/created by a newer version of Ferry \(format version 2.*Update Ferry/);
  });

  it('empty and 201-character names are refused and nothing is written', async () => {
    const root = await workspace();
    await expect(createRequest(root, '', request(' '))).rejects.toThrow('A name cannot be empty; give a name of 1 to 200 characters.');
    await expect(createRequest(root, '', request('n'.repeat(201)))).rejects.toThrow(/at most 200 characters/);
    await expect(renameFolder(root, '', '')).rejects.toThrow(/cannot be empty/);
    expect(await fs.readdir(path.join(root, 'requests')).catch(() => [])).toEqual([]);
  });

  it('a value of the wrong type is refused before anything is written', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const bad = { ...request('Good'), headers: 3 } as unknown as ReturnType<typeof request>;
    await expect(saveRequest(root, 'Good.yaml', bad)).rejects.toThrow('Not saved: Good.yaml would not be valid (headers: expected a list, got number 3).');
    await expect(createRequest(root, '', { ...request('New'), seq: 'x' } as unknown as ReturnType<typeof request>)).rejects.toThrow(/seq: expected a number/);
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual(['Good.yaml']);
    expect(await fs.readFile(path.join(root, 'requests', 'Good.yaml'), 'utf8')).toBe(good);
  });

  it('a read-only folder: the save fails with the reason and the old file is intact', async () => {
    if (process.getuid?.() === 0) {
      // root ignores permission bits; check the atomic write instead: a failing rename leaves no temp file.
      const root = await workspace({ 'requests/Good.yaml': good });
      await fs.mkdir(path.join(root, 'requests', 'Good.yaml.dir'));
      const dir = path.join(root, 'requests');
      const { writeFileAtomic } = await import('../../src/workspace/index.js');
      await expect(writeFileAtomic(path.join(dir, 'Good.yaml.dir'), 'x')).rejects.toThrow();
      expect((await fs.readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect(await fs.readFile(path.join(dir, 'Good.yaml'), 'utf8')).toBe(good);
      return;
    }
    const root = await workspace({ 'requests/Good.yaml': good });
    await fs.chmod(path.join(root, 'requests'), 0o555);
    await expect(saveRequest(root, 'Good.yaml', { ...request('Good'), url: 'http://changed/' })).rejects.toThrow(/EACCES|permission/i);
    await fs.chmod(path.join(root, 'requests'), 0o755);
    expect(await fs.readFile(path.join(root, 'requests', 'Good.yaml'), 'utf8')).toBe(good);
  });

  it('a read-only file is refused, not replaced by the atomic rename; a replaced file keeps its permission bits', async () => {
    const root = await workspace({ 'requests/Locked.yaml': good, 'requests/Private.yaml': 'name: Private\nurl: http://127.0.0.1/\n' });
    const locked = path.join(root, 'requests', 'Locked.yaml');
    const kept = path.join(root, 'requests', 'Private.yaml');
    await fs.chmod(locked, 0o444);
    await fs.chmod(kept, 0o600);
    // A rename replaces a file whatever its bits say (for every user, root or not): so Ferry checks them.
    const refused = saveRequest(root, 'Locked.yaml', { ...request('Locked'), url: 'http://changed/' });
    await expect(refused).rejects.toThrow(`${locked} is read-only (mode 0444), so it was not changed. Make it writable (chmod u+w), then try again.`);
    await expect(refused).rejects.toMatchObject({ name: 'FileWriteError', code: 'EACCES' });
    expect(await fs.readFile(locked, 'utf8')).toBe(good);
    expect((await fs.stat(locked)).mode & 0o7777).toBe(0o444);
    await saveRequest(root, 'Private.yaml', { ...request('Private'), url: 'http://changed/' });
    expect(await fs.readFile(kept, 'utf8')).toContain('http://changed/');
    // A request made private (a token in it) is not made readable by everyone by a save.
    expect((await fs.stat(kept)).mode & 0o7777).toBe(0o600);
    expect((await fs.readdir(path.join(root, 'requests'))).sort()).toEqual(['Locked.yaml', 'Private.yaml']);
  });

  it('a folder that allows no new files: the message names the file and the folder, not the temporary file', async (ctx) => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const folder = path.join(root, 'requests');
    // root ignores permission bits; an immutable folder (chattr +i) refuses new files even to root.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      const made = spawnSync('chattr', ['+i', folder]);
      if (made.status !== 0) ctx.skip();
    } else await fs.chmod(folder, 0o555);
    try {
      const failed = saveRequest(root, 'Good.yaml', { ...request('Good'), url: 'http://changed/' });
      const reason = asRoot ? 'operation not permitted' : 'permission denied';
      await expect(failed).rejects.toThrow(`Could not write ${path.join(folder, 'Good.yaml')} (nothing was changed): ${reason}: the folder ${folder} does not allow new files. Make the folder writable, then try again.`);
      await expect(createRequest(root, '', request('New'))).rejects.toMatchObject({ name: 'FileWriteError', path: path.join(folder, 'New.yaml') });
    } finally {
      if (asRoot) spawnSync('chattr', ['-i', folder]);
      else await fs.chmod(folder, 0o755);
    }
    expect(await fs.readdir(folder)).toEqual(['Good.yaml']);
    expect(await fs.readFile(path.join(folder, 'Good.yaml'), 'utf8')).toBe(good);
  });

  it('a folder that allows no removal: deleting a request or a folder says which folder refused and what to do, not ENOTDIR, and removes nothing', async (ctx) => {
    const { deleteFolder, deleteRequest } = await import('../../src/workspace/index.js');
    const root = await workspace({ 'requests/Shelf/_folder.yaml': 'name: Shelf\n', 'requests/Shelf/Loose.yaml': good, 'requests/Shelf/Box/Kept.yaml': good });
    const box = path.join(root, 'requests', 'Shelf', 'Box');
    // root ignores permission bits; an immutable folder (chattr +i) refuses removals even to root.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      if (spawnSync('chattr', ['+i', box]).status !== 0) ctx.skip();
    } else await fs.chmod(box, 0o555);
    const reason = asRoot
      ? 'operation not permitted: the folder requests/Shelf/Box/ (or what is in it) cannot be changed. Make it writable (chmod u+w; chattr -i for an immutable one), then try again.'
      : 'permission denied: the folder requests/Shelf/Box/ does not allow removing what is in it. Make the folder writable, then try again.';
    try {
      await expect(deleteRequest(root, 'Shelf/Box/Kept.yaml')).rejects.toThrow(`Could not delete requests/Shelf/Box/Kept.yaml (nothing was removed): ${reason}`);
      await expect(deleteFolder(root, 'Shelf')).rejects.toThrow(`Could not delete requests/Shelf/ (nothing was removed): ${reason}`);
    } finally {
      if (asRoot) spawnSync('chattr', ['-i', box]);
      else await fs.chmod(box, 0o755);
    }
    expect(await fs.readFile(path.join(box, 'Kept.yaml'), 'utf8')).toBe(good);
    // Found before anything went: the folder is whole, its files beside the subfolder too.
    expect((await fs.readdir(path.join(root, 'requests', 'Shelf'))).sort()).toEqual(['Box', 'Loose.yaml', '_folder.yaml']);
    expect(await fs.readFile(path.join(root, 'requests', 'Shelf', 'Loose.yaml'), 'utf8')).toBe(good);
  });

  it('a folder whose folder above allows no removal: deleting it says which, and removes nothing of what it holds', async (ctx) => {
    const { deleteFolder } = await import('../../src/workspace/index.js');
    const root = await workspace({ 'requests/Shelf/Box/A.yaml': good, 'requests/Shelf/Box/Deep/B.yaml': good });
    const shelf = path.join(root, 'requests', 'Shelf');
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      if (spawnSync('chattr', ['+i', shelf]).status !== 0) ctx.skip();
    } else await fs.chmod(shelf, 0o555);
    try {
      const reason = asRoot
        ? 'operation not permitted: the folder requests/Shelf/ (or what is in it) cannot be changed. Make it writable (chmod u+w; chattr -i for an immutable one), then try again.'
        : 'permission denied: the folder requests/Shelf/ does not allow removing what is in it. Make the folder writable, then try again.';
      await expect(deleteFolder(root, 'Shelf/Box')).rejects.toThrow(`Could not delete requests/Shelf/Box/ (nothing was removed): ${reason}`);
    } finally {
      if (asRoot) spawnSync('chattr', ['-i', shelf]);
      else await fs.chmod(shelf, 0o755);
    }
    expect((await fs.readdir(shelf, { recursive: true })).sort()).toEqual(['Box', path.join('Box', 'A.yaml'), path.join('Box', 'Deep'), path.join('Box', 'Deep', 'B.yaml')]);
  });

  it('an immutable file deep in a folder: deleting the folder names the file, removes nothing, and a link inside is not followed', async (ctx) => {
    const { deleteFolder } = await import('../../src/workspace/index.js');
    const root = await workspace({ 'requests/Shelf/A.yaml': good, 'requests/Shelf/Deep/Er/Kept.yaml': good, 'requests/Shelf/Z.yaml': good });
    const kept = path.join(root, 'requests', 'Shelf', 'Deep', 'Er', 'Kept.yaml');
    // Only chattr makes a file no one may remove (append-only stops its removal as immutable does).
    if (spawnSync('chattr', ['+a', kept]).status !== 0) ctx.skip();
    // A link to a folder outside that allows no removal: a link is removed as it is, never entered.
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'Theirs.yaml'), good);
    await fs.symlink(outside, path.join(root, 'requests', 'Shelf', 'Linked'));
    const locked = spawnSync('chattr', ['+i', outside]).status === 0;
    try {
      await expect(deleteFolder(root, 'Shelf')).rejects.toThrow('Could not delete requests/Shelf/ (nothing was removed): operation not permitted: requests/Shelf/Deep/Er/Kept.yaml cannot be removed (it is immutable or append-only). Make it removable (chattr -i; chattr -a), then try again.');
      expect((await fs.readdir(path.join(root, 'requests', 'Shelf'))).sort()).toEqual(['A.yaml', 'Deep', 'Linked', 'Z.yaml']);
      expect(await fs.readFile(kept, 'utf8')).toBe(good);
    } finally {
      spawnSync('chattr', ['-a', kept]);
    }
    await deleteFolder(root, 'Shelf');
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual([]);
    if (locked) spawnSync('chattr', ['-i', outside]);
    expect(await fs.readdir(outside)).toEqual(['Theirs.yaml']);
  });

  it('a read-only workspace without an id or requests/ still opens, with a warning and a stable id', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nname: Read-only\n');
    const denied = () => Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
    let restore: () => Promise<void>;
    if (process.getuid?.() === 0) {
      // root ignores permission bits: refuse the writes the way a read-only folder would.
      // Opens for reading go ahead (ferry.yaml is read through fs.open, without following a link).
      const realOpen = fs.open.bind(fs);
      const writes = (flags: unknown) => (typeof flags === 'number' ? (flags & (constants.O_WRONLY | constants.O_RDWR | constants.O_CREAT)) !== 0 : typeof flags === 'string' && /[wa+]/.test(flags));
      const open = vi.spyOn(fs, 'open').mockImplementation(((file: string, flags?: string | number, mode?: number) => (writes(flags) ? Promise.reject(denied()) : realOpen(file, flags, mode))) as typeof fs.open);
      const mkdir = vi.spyOn(fs, 'mkdir').mockRejectedValue(denied());
      restore = async () => {
        open.mockRestore();
        mkdir.mockRestore();
      };
    } else {
      await fs.chmod(root, 0o555);
      restore = () => fs.chmod(root, 0o755);
    }
    try {
      const first = await openWorkspace(root);
      const second = await openWorkspace(root);
      expect(first.id).toMatch(/^path-[0-9a-f]{32}$/);
      expect(second.id).toBe(first.id);
      expect(first.warnings.map((w) => w.message)).toEqual([
        `ferry.yaml has no id and Ferry could not write one (permission denied); using ${first.id} until the file can be written. Add an id line, or make the folder writable.`,
        'Could not create requests/ and environments/ (permission denied); the workspace opens without them.',
      ]);
    } finally {
      await restore();
    }
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe('version: 1\nname: Read-only\n');
    expect(await fs.readdir(root)).toEqual(['ferry.yaml']);
  });

  it('a file deleted while being read is reported, not fatal', async () => {
    const root = await workspace();
    const outcome = await readResource('request', path.join(root, 'requests', 'Gone.yaml'), 'requests/Gone.yaml');
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.warning.message).toMatch(/disappeared while the workspace was being read/);
  });

  it('a YAML alias bomb is refused, not expanded', async () => {
    const bomb = ['name: Bomb', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 0; i < 9; i++) bomb.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)},*${String.fromCharCode(97 + i)}]`);
    const root = await workspace({ 'requests/Bomb.yaml': bomb.join('\n') + '\n', 'requests/Good.yaml': good });
    const ws = await openWorkspace(root);
    expect(ws.warnings).toHaveLength(1);
    expect(ws.warnings[0]!.file).toBe('requests/Bomb.yaml');
  });
});

describe('hostile paths given to the write API', () => {
  it('request and folder paths cannot leave requests/, and entry ids cannot be paths', async () => {
    const { createEntry, saveEntry, deleteEntry, moveRequest, deleteRequest, createFolder } = await import('../../src/workspace/index.js');
    const root = await workspace({ 'requests/Good.yaml': good, 'environments/e.yaml': 'name: E\n' });
    const before = await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8');
    await expect(saveRequest(root, '../ferry.yaml', request('Evil'))).rejects.toThrow(/not a request path.*without "\." or "\.\." parts/);
    await expect(createRequest(root, '..', request('Evil'))).rejects.toThrow(/not a folder path/);
    await expect(createFolder(root, 'a/../..', 'Evil')).rejects.toThrow(/not a folder path/);
    await expect(moveRequest(root, 'Good.yaml', '../servers')).rejects.toThrow(/not a folder path/);
    await expect(deleteRequest(root, '../ferry.yaml')).rejects.toThrow(/not a request path/);
    await expect(deleteRequest(root, '/etc/passwd')).rejects.toThrow(/not a request path/);
    await expect(saveEntry(root, 'environment', '../requests/Good', { name: 'E', variables: [] })).rejects.toThrow(/not an id under environments\//);
    await expect(deleteEntry(root, 'server', '../ferry')).rejects.toThrow(/not an id under servers\//);
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(before);
    expect(await fs.readFile(path.join(root, 'requests', 'Good.yaml'), 'utf8')).toBe(good);
    expect((await fs.readdir(root)).sort()).toEqual(['environments', 'ferry.yaml', 'requests']);
    const server = parseResource('server', { name: '../x' });
    if (!server.ok) throw new Error('fixture');
    expect(await createEntry(root, 'server', server.value)).toBe('_-x'); // a name only gives a file name (a leading - prefixed with _)
  });
});
