/**
 * Warning codes (docs/workspace.md, "Warning codes"): each warning about a file or folder not read
 * for what or where it is on disk carries a code set where it is made (`symlink`, `fifo`, …), the
 * same from the whole read, the listing and `ferry ls --json`, so a program tells a skipped link
 * from a broken file without reading the words; and the readers that tell them apart go by it
 * (`ferry env ls` says "fix the file" of a broken environment only, never of a pipe or socket).
 * Real links, FIFOs (the `mkfifo` program), a Unix socket, a sparse file over the size limit and a
 * name that is not UTF-8, in temporary workspaces.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_YAML_BYTES } from '../../src/workspace/files.js';
import { formatWarning, MAX_TREE_DEPTH, openWorkspace, WARNING_CODES } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { mkfifo, socketFile } from '../support/special-files.js';

async function write(root: string, file: string, text: string): Promise<void> {
  await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
  await fs.writeFile(path.join(root, file), text);
}

/** Folders nested one deeper than the request tree is read: the deepest is said, not read. */
const DEEP = `requests/${Array.from({ length: MAX_TREE_DEPTH + 1 }, (_, i) => `L${i + 1}`).join('/')}`;

/** The name of a request file whose name is not UTF-8 (`Bad\xff.yaml`), as a listing shows it. */
const NOT_UTF8 = 'requests/Bad\ufffd.yaml';

/**
 * One workspace with each thing on disk a warning code names (but a device, which takes root to
 * make), beside files that read; what each is said with.
 */
async function workspaceOfEveryKind(): Promise<{ root: string; expected: Array<[string, string]> }> {
  const root = await tempDir();
  await write(root, 'ferry.yaml', 'version: 1\nid: codes-ws\nname: Codes\nfutureField: 1\n');
  await write(root, 'requests/Good.yaml', 'name: Good\nurl: http://127.0.0.1:9/\n');
  await write(root, 'requests/Sub/Inner.yaml', 'name: Inner\nurl: http://127.0.0.1:9/\n');
  await write(root, 'requests/_folder.yaml', 'name: Root\n');
  await write(root, 'requests/old.yml', 'name: Old\nurl: http://127.0.0.1:9/\n');
  await write(root, `${DEEP}/Deep.yaml`, 'name: Deep\nurl: http://127.0.0.1:9/\n');
  await fs.symlink('Good.yaml', path.join(root, 'requests/Linked.yaml'));
  await fs.symlink('Sub', path.join(root, 'requests/LinkedSub'));
  mkfifo(path.join(root, 'requests/Pipe.yaml'));
  await socketFile(path.join(root, 'requests/api.sock'));
  // Over the limit without writing 50 MB: a sparse file.
  await fs.writeFile(path.join(root, 'requests/Big.yaml'), '');
  await fs.truncate(path.join(root, 'requests/Big.yaml'), MAX_YAML_BYTES + 1);
  await fs.writeFile(Buffer.concat([Buffer.from(path.join(root, 'requests', 'Bad')), Buffer.from([0xff]), Buffer.from('.yaml')]), 'name: Bad\n');
  await write(root, 'Requests/Other.yaml', 'name: Other\nurl: http://127.0.0.1:9/\n');
  await write(root, 'environments/local.yaml', 'name: Local\n');
  await write(root, 'environments/prod/api.yaml', 'name: Api\n');
  await write(root, 'environments/Staging.postman_environment.json', '{}');
  mkfifo(path.join(root, 'servers'));
  await write(root, 'elsewhere/smoke.yaml', 'name: Smoke\ntargets:\n  - request: Good.yaml\n');
  await fs.symlink('elsewhere', path.join(root, 'loadtests'));
  const expected: Array<[string, string]> = [
    ['Requests', 'misnamed-folder'],
    ['environments/prod', 'subfolder'],
    ['environments/Staging.postman_environment.json', 'postman-export'],
    ['ferry.yaml', 'unknown-fields'],
    ['loadtests', 'symlink'],
    [NOT_UTF8, 'unreadable'],
    ['requests/Big.yaml', 'too-large'],
    [DEEP, 'too-deep'],
    ['requests/Linked.yaml', 'symlink'],
    ['requests/LinkedSub', 'symlink'],
    ['requests/Pipe.yaml', 'fifo'],
    ['requests/_folder.yaml', 'root-folder-file'],
    ['requests/api.sock', 'socket'],
    ['requests/old.yml', 'yml'],
    ['servers', 'not-a-folder'],
  ];
  return { root, expected };
}

/** Each warning as its file and code, in one order whatever the reader's. */
const codesOf = (warnings: ReadonlyArray<{ file: string; code?: string }>) =>
  warnings.map((w): [string, string | undefined] => [w.file, w.code]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const sorted = (pairs: Array<[string, string]>) => [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('warning codes', () => {
  it('each warning about what is on disk carries its code, the same from the whole read, the listing and its cache', async () => {
    const { root, expected } = await workspaceOfEveryKind();
    const whole = await openWorkspace(root);
    expect(codesOf(whole.warnings)).toEqual(sorted(expected));
    const listing = await openWorkspace(root, { listing: true });
    expect(codesOf(listing.warnings)).toEqual(sorted(expected));
    const dataDir = await isolatedDataDir();
    const cached = { dir: path.join(dataDir, 'listing-cache'), version: 'test' };
    await openWorkspace(root, { listing: true, listingCache: cached });
    expect(codesOf((await openWorkspace(root, { listing: true, listingCache: cached })).warnings)).toEqual(sorted(expected));
    // Every code named is one of the closed set.
    for (const [, code] of expected) expect(WARNING_CODES).toContain(code);
    // The files beside them read.
    expect(whole.environments.map((e) => e.id)).toEqual(['local']);
    expect(whole.tree.children.map((c) => c.path)).toEqual(expect.arrayContaining(['Good.yaml', 'Sub']));
  });

  it('ferry ls --json gives each warning its code, and a file that did not read its warning\'s; --problems --json too', async () => {
    const { root, expected } = await workspaceOfEveryKind();
    await isolatedDataDir();
    const listed = await ferry(['-w', root, 'ls', '--json']);
    expect(listed.code).toBe(0);
    const json = JSON.parse(listed.stdout) as { requests: Array<Record<string, unknown>>; warnings: Array<{ file: string; message: string; code?: string }> };
    expect(codesOf(json.warnings)).toEqual(sorted(expected));
    // The fields that were there stay as they were: the code is added, and each of these messages names its file itself.
    for (const w of json.warnings) expect(Object.keys(w).sort()).toEqual(w.code === 'unknown-fields' ? ['code', 'file', 'message'] : ['code', 'file', 'message', 'namesFile']);
    const broken = json.requests.filter((r) => r.broken === true);
    expect(broken).toEqual([
      { path: 'Bad\ufffd.yaml', broken: true, warning: expect.stringContaining('not valid UTF-8'), code: 'unreadable' },
      { path: 'Big.yaml', broken: true, warning: expect.stringContaining('YAML files over 50 MB are not read'), code: 'too-large' },
    ]);
    // A request that reads has no code of its own.
    expect(json.requests.find((r) => r.path === 'Good.yaml')).toEqual({ path: 'Good.yaml', name: 'Good', kind: 'http', method: 'GET' });
    const problems = await ferry(['-w', root, 'ls', '--problems', '--json']);
    expect(codesOf(JSON.parse(problems.stdout) as Array<{ file: string; code?: string }>)).toEqual(sorted(expected));
  });

  it('a warning is printed by where it is made (namesFile), never by its words: each message that names its file says so', async () => {
    const { root } = await workspaceOfEveryKind();
    await write(root, 'requests/Broken.yaml', 'name: [unclosed\n');
    const ws = await openWorkspace(root);
    for (const w of ws.warnings) {
      if (w.namesFile) expect(formatWarning(w)).toBe(w.message);
      else expect(formatWarning(w)).toBe(`${w.file}${w.line ? `:${w.line}:${w.column ?? 1}` : ''}: ${w.message}`);
    }
    // Every warning about what is on disk names its file; fields the format does not have and a file's YAML are placed after it.
    expect(ws.warnings.filter((w) => w.namesFile).map((w) => w.code)).not.toContain(undefined);
    expect(ws.warnings.filter((w) => !w.namesFile).map((w) => [w.file, w.code])).toEqual([['ferry.yaml', 'unknown-fields'], ['requests/Broken.yaml', undefined]]);
    // A message that happens to start with its file's path is still placed: the words decide nothing.
    const broken = ws.warnings.find((w) => w.file === 'requests/Broken.yaml')!;
    expect(formatWarning({ ...broken, message: `requests/Broken.yaml ${broken.message}` })).toBe(`requests/Broken.yaml:${broken.line}:${broken.column}: requests/Broken.yaml ${broken.message}`);
  });

  it('a warning about what a file says has no code; ferry ls --strict gives unknown fields theirs', async () => {
    const root = await tempDir();
    await write(root, 'ferry.yaml', 'version: 1\nid: said-ws\nname: Said\n');
    await write(root, 'requests/Broken.yaml', 'name: [unclosed\n');
    await write(root, 'requests/Typo.yaml', 'name: Typo\nurl: http://127.0.0.1:9/\nhedaers: []\n');
    await isolatedDataDir();
    const ws = await openWorkspace(root);
    expect(ws.warnings.map((w) => [w.file, w.code])).toEqual([['requests/Broken.yaml', undefined]]);
    const strict = await ferry(['-w', root, 'ls', '--strict', '--json']);
    expect(strict.code).toBe(1);
    expect((JSON.parse(strict.stdout) as Array<{ file: string; code?: string }>).map((w) => [w.file, w.code])).toEqual([
      ['requests/Broken.yaml', undefined],
      ['requests/Typo.yaml', 'unknown-fields'],
    ]);
  });

  it('ferry env ls says "fix the file" of an environment file that does not read, not of a link, pipe or socket in its place', async () => {
    const root = await tempDir();
    await write(root, 'ferry.yaml', 'version: 1\nid: env-codes\nname: Env codes\n');
    await write(root, 'environments/local.yaml', 'name: Local\n');
    await write(root, 'environments/broken.yaml', 'name: [unclosed\n');
    await fs.symlink('local.yaml', path.join(root, 'environments/linked.yaml'));
    mkfifo(path.join(root, 'environments/piped.yaml'));
    await socketFile(path.join(root, 'environments/socket.yaml'));
    await isolatedDataDir();
    const listed = await ferry(['-w', root, 'env', 'ls']);
    expect(listed.code).toBe(0);
    const lines = listed.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^ferry: environments\/broken\.yaml:\d+:\d+: YAML syntax error: .+ \(not listed: fix the file to use it\)$/),
      'ferry: environments/linked.yaml is a symbolic link; Ferry never follows links, so it was skipped.',
      'ferry: environments/piped.yaml is a named pipe, not a regular file; Ferry reads regular files only, so it was skipped. Put a regular file in its place, or remove it.',
      'ferry: environments/socket.yaml is a socket, not a regular file; Ferry reads regular files only, so it was skipped. Put a regular file in its place, or remove it.',
    ]);
  });
});

describe('the codes in docs/workspace.md', () => {
  it('the table names every code, and no other', async () => {
    const docs = await fs.readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'workspace.md'), 'utf8');
    const table = docs.slice(docs.indexOf('| `code` |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const named = rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]));
    expect(named.sort()).toEqual([...WARNING_CODES].sort());
  });
});
