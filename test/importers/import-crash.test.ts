/**
 * `ferry import` killed part-way (a real process, SIGKILL) leaves nothing behind once the next
 * ferry command has opened the workspace; stopped with Ctrl-C it leaves nothing behind at once;
 * two imports at once never undo each other's files.
 * Real processes of the built CLI (`npm run build` first), a big document from the corpus.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry, initedWorkspace } from '../support/cli.js';
import { folderSnapshot, tempDir } from '../support/temp.js';

const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
const GITHUB = path.resolve(import.meta.dirname, '..', 'fixtures', 'corpus', 'openapi', 'oas30-github.yaml');

interface Child {
  pid: number;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  kill: () => void;
  /** Writes standard input and closes it. */
  input: (text: string) => void;
}

/** `ferry ARGS` in a process of its own, ended after 60 s at most. */
function startFerry(args: string[], env: Record<string, string>): Child {
  const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => {});
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { pid: child.pid!, done, kill: () => child.kill('SIGKILL'), input: (text) => child.stdin.end(text) };
}

/** Every `.ferry-import-*` folder under `dir`. */
async function stagings(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string, depth: number) => {
    if (depth > 3) return;
    for (const entry of await fs.readdir(current, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory()) continue;
      if (entry.name.startsWith('.ferry-import-')) found.push(path.relative(dir, path.join(current, entry.name)));
      else await walk(path.join(current, entry.name), depth + 1);
    }
  };
  await walk(dir, 0);
  return found;
}

/** Polls (every 5 ms, at most 30 s) until `check` holds. */
async function waitFor(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Resolves once the import writes its files aside: a staging folder under requests/ with files in it. */
function stagingStarted(ws: string): Promise<void> {
  return waitFor(async () => {
    for (const staging of await stagings(path.join(ws, 'requests'))) {
      if ((await fs.readdir(path.join(ws, 'requests', staging)).catch(() => [])).length > 0) return true;
    }
    return false;
  }, 'the import to stage files');
}

describe('ferry import killed with SIGKILL', () => {
  it('mid-import of a big document: the staging folders are there after the kill, and gone after the next ferry command', async () => {
    const { ws, data } = await initedWorkspace();
    const before = await folderSnapshot(ws);
    const child = startFerry(['-w', ws, 'import', GITHUB], { FERRY_DATA_DIR: data });
    // Killed while it writes its files aside: a staging folder with files in it.
    await stagingStarted(ws);
    child.kill();
    expect((await child.done).signal).toBe('SIGKILL');
    expect((await stagings(ws)).length).toBeGreaterThan(0);

    // Any ferry command undoes it, says so, and the workspace is exactly as before.
    const ls = await ferry(['-w', ws, 'ls']);
    expect(ls.code).toBe(0);
    expect(ls.stderr).toContain('an interrupted `ferry import` was undone');
    expect(await stagings(ws)).toEqual([]);
    expect(await folderSnapshot(ws)).toEqual(before);
    // Nothing is left to undo, and the dead process's lock does not hold the next import up.
    expect((await ferry(['-w', ws, 'ls'])).stderr).toBe('');
    const again = await ferry(['-w', ws, 'import', GITHUB, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(await stagings(ws)).toEqual([]);
  }, 120_000);

  it('while moving files into place: the next ferry command removes what was moved and the folder it created', async () => {
    const { ws, data } = await initedWorkspace();
    await fs.writeFile(path.join(ws, 'requests', 'Mine.yaml'), 'name: Mine\nurl: http://127.0.0.1:1/\n');
    const before = await folderSnapshot(ws);
    const doc = JSON.stringify({ openapi: '3.0.3', info: { title: 'Shop', version: '1' }, servers: [{ url: 'http://127.0.0.1:1' }], paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
    const source = path.join(await tempDir(), 'shop.json');
    await fs.writeFile(source, doc);
    // Killed after its first move (the kept document is in specs/, the requests are not yet).
    const child = startFerry(['-w', ws, 'import', source], { FERRY_DATA_DIR: data, FERRY_TEST_KILL_IMPORT: '1' });
    expect((await child.done).signal).toBe('SIGKILL');
    expect(await fs.readdir(path.join(ws, 'specs'))).toContain('Shop.json');

    const ls = await ferry(['-w', ws, 'ls']);
    expect(ls.stderr).toContain('an interrupted `ferry import` was undone');
    expect(await folderSnapshot(ws)).toEqual(before);
  }, 60_000);
});

/** Whether this computer's data folder `data` holds an import journal (of any workspace). */
async function journalLeft(data: string): Promise<boolean> {
  const entries = await fs.readdir(data, { recursive: true });
  return entries.some((entry) => path.basename(entry) === 'import-journal.json');
}

describe('ferry import stopped with Ctrl-C (SIGINT)', () => {
  it('mid-import of a big document: undone at once, one line, exit code 1, the workspace exactly as before', async () => {
    const { ws, data } = await initedWorkspace();
    const before = await folderSnapshot(ws);
    const child = startFerry(['-w', ws, 'import', GITHUB], { FERRY_DATA_DIR: data });
    await stagingStarted(ws);
    // Twice at once, as `timeout` and `npm run` deliver one Ctrl-C: still one interruption.
    process.kill(child.pid, 'SIGINT');
    process.kill(child.pid, 'SIGINT');
    const done = await child.done;
    expect(done.signal).toBeNull();
    expect(done.code).toBe(1);
    expect(done.stderr).toBe('ferry: Interrupted: the import was undone; the workspace is as it was.\n');
    expect(done.stdout).toBe('');
    // Nothing for a later command to tidy: no staging folder, no journal.
    expect(await folderSnapshot(ws)).toEqual(before);
    expect(await journalLeft(data)).toBe(false);
    expect((await ferry(['-w', ws, 'ls'])).stderr).toBe('');
  }, 120_000);

  it('after its first move into place: the import is finished, and says so', async () => {
    const { ws, data } = await initedWorkspace();
    const doc = JSON.stringify({ openapi: '3.0.3', info: { title: 'Shop', version: '1' }, servers: [{ url: 'http://127.0.0.1:1' }], paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
    const source = path.join(await tempDir(), 'shop.json');
    await fs.writeFile(source, doc);
    const done = await startFerry(['-w', ws, 'import', source], { FERRY_DATA_DIR: data, FERRY_TEST_KILL_IMPORT: '1:SIGINT' }).done;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stderr).toBe('ferry: Interrupted too late to stop: the import was finished.\n');
    expect(done.stdout).toContain('Imported "Shop"');
    expect(await fs.readdir(path.join(ws, 'specs'))).toEqual(['Shop.json']);
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual(['Shop']);
    expect(await journalLeft(data)).toBe(false);
    expect((await ferry(['-w', ws, 'ls'])).stderr).toBe('');
  }, 60_000);
});

describe('two imports into one workspace at once', () => {
  it('the second waits, then fails naming the first; the first keeps its document in specs/', async () => {
    const { ws, data } = await initedWorkspace();
    // The second reads its document from standard input: started first, it is ready to write
    // the moment the test gives it the document. It waits 20 ms for the lock: the first holds it
    // while it writes ~1,100 files, which takes a few hundred ms on a fast machine (200 ms of
    // waiting sometimes outlasted it).
    const second = startFerry(['-w', ws, 'import', '-'], { FERRY_DATA_DIR: data, FERRY_LOCK_WAIT_MS: '20' });
    const first = startFerry(['-w', ws, 'import', GITHUB], { FERRY_DATA_DIR: data });
    // The first holds the lock once its staging folders exist.
    await waitFor(async () => (await stagings(ws)).length > 0, 'the first import to start writing');
    second.input(JSON.stringify({ openapi: '3.0.3', info: { title: 'Small', version: '1' }, servers: [{ url: 'http://127.0.0.1:1' }], paths: { '/s': { get: { responses: { 200: { description: 'ok' } } } } } }));
    const [a, b] = await Promise.all([first.done, second.done]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(new RegExp(`The workspace is being changed by an import \\(process ${first.pid}, since \\d\\d:\\d\\d:\\d\\d UTC\\)\\. Wait for it to finish, then try again\\.`));
    // The first's document survived the second's failure, and its folder points at it.
    const specs = await fs.readdir(path.join(ws, 'specs'));
    expect(specs).toHaveLength(1);
    const folders = (await fs.readdir(path.join(ws, 'requests'))).filter((n) => !n.startsWith('.'));
    expect(folders).toHaveLength(1);
    const settings = await fs.readFile(path.join(ws, 'requests', folders[0]!, '_folder.yaml'), 'utf8');
    expect(settings).toContain(`spec: specs/${specs[0]}`);
    expect(await stagings(ws)).toEqual([]);
  }, 120_000);

  it('a second import that waits for the first succeeds, and both documents are kept', async () => {
    const { ws, data } = await initedWorkspace();
    const docs = await tempDir();
    const doc = (title: string) => JSON.stringify({ openapi: '3.0.3', info: { title, version: '1' }, servers: [{ url: 'http://127.0.0.1:1' }], paths: { [`/${title}`]: { get: { responses: { 200: { description: 'ok' } } } } } });
    await fs.writeFile(path.join(docs, 'a.json'), doc('Alpha'));
    await fs.writeFile(path.join(docs, 'b.json'), doc('Beta'));
    const [a, b] = await Promise.all(['a.json', 'b.json'].map((f) => startFerry(['-w', ws, 'import', path.join(docs, f)], { FERRY_DATA_DIR: data, FERRY_LOCK_WAIT_MS: '30000' }).done));
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    expect((await fs.readdir(path.join(ws, 'specs'))).sort()).toEqual(['Alpha.json', 'Beta.json']);
  }, 60_000);
});
