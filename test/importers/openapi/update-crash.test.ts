/**
 * An update from API spec killed part-way (a real process, SIGKILL) loses nothing: killed while
 * staging, the workspace is exactly as before; killed while renaming into place, the next ferry
 * command finishes it and the workspace is exactly what an uninterrupted update gives. Stopped
 * with Ctrl-C (SIGINT), it is undone or finished at once, before the process ends.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JOURNAL_FILE } from '../../../src/importers/openapi/update/index.js';
import { ferry } from '../../support/cli.js';
import { tempDir } from '../../support/temp.js';
import { yamlDoc } from './helpers.js';

const ok = { 200: { description: 'ok' } };
const v1 = {
  openapi: '3.0.3',
  info: { title: 'Shop' },
  servers: [{ url: 'https://shop.example.test' }],
  tags: [{ name: 'items' }],
  paths: {
    '/items': { get: { tags: ['items'], summary: 'List items', responses: ok } },
    '/items/{id}': {
      get: { tags: ['items'], summary: 'Get item', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok },
      delete: { tags: ['items'], summary: 'Delete item', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok },
    },
  },
};
// v2 (as JSON, so the kept YAML document is replaced by a .json one): a changed request, a removed
// one, a new one in a new tag folder with a new path parameter.
const v2 = structuredClone(v1) as any;
v2.paths['/items'].get.description = 'Every item.';
v2.paths['/items'].get.parameters = [{ name: 'X-Page', in: 'header', required: true, example: 'p1' }];
delete v2.paths['/items/{id}'].delete;
v2.paths['/orders/{orderId}'] = { get: { tags: ['orders'], summary: 'Get order', parameters: [{ name: 'orderId', in: 'path', required: true, example: 'o-1' }], responses: ok } };

/** Every file under a folder with its content, dot-files included. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (current: string) => {
    for (const entry of await fs.readdir(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) await walk(full);
      else out[path.relative(dir, full)] = await fs.readFile(full, 'utf8');
    }
  };
  await walk(dir);
  return out;
}

const visible = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).filter(([p]) => !p.split(path.sep).some((part) => part.startsWith('.'))));

/** One imported workspace and its uninterrupted update, shared by the tests (each kills a copy). */
let shared: Promise<Awaited<ReturnType<typeof makeSetup>>> | undefined;
const setup = () => (shared ??= makeSetup());
afterAll(async () => {
  if (shared) await fs.rm((await shared).dir, { recursive: true, force: true });
});

async function makeSetup() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-update-crash-'));
  const original = path.join(dir, 'original');
  await fs.mkdir(original);
  expect((await ferry(['init', original])).code).toBe(0);
  await fs.writeFile(path.join(dir, 'v1.yaml'), yamlDoc(v1));
  await fs.writeFile(path.join(dir, 'v2.json'), JSON.stringify(v2, null, 2));
  expect((await ferry(['-w', original, 'import', path.join(dir, 'v1.yaml')])).code).toBe(0);
  // A user edit that must survive: a comment and a script on the request the update changes.
  const list = path.join(original, 'requests', 'Shop', 'items', 'List items.yaml');
  await fs.writeFile(list, `# mine\n${await fs.readFile(list, 'utf8')}scripts:\n  postResponse: test("ok", () => {})\n`);
  const expected = path.join(dir, 'expected');
  await fs.cp(original, expected, { recursive: true });
  const script = path.join(dir, 'update.mts');
  await fs.writeFile(script, `import { main } from ${JSON.stringify(path.resolve('src/cli/main.ts'))};\nprocess.exitCode = await main(process.argv.slice(2));\n`);
  // The uninterrupted update, given on standard input (--from -) by a separate process.
  const done = await runFerry(script, ['-w', expected, 'update', 'Shop', '--from', '-'], {}, JSON.stringify(v2, null, 2));
  expect(done.code, done.stderr).toBe(0);
  expect(done.stdout).toMatch(/^Update "Shop" from standard input\n[\s\S]*Updated\.\n$/);
  return { dir, original, expected, script, before: await tree(original), after: await tree(expected) };
}

/** Runs ferry in a process of its own (real standard input, a real kill), at most 30 s. */
function runFerry(script: string, args: string[], env: Record<string, string>, stdin = ''): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.on('error', () => {}); // a killed child closes its input early
  child.stdin.end(stdin);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the ferry process did not end within 30 s'));
    }, 30_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

async function killedUpdate(ctx: Awaited<ReturnType<typeof setup>>, workspace: string, killAt: string): Promise<NodeJS.Signals | null> {
  await fs.cp(ctx.original, workspace, { recursive: true });
  const result = await runFerry(ctx.script, ['-w', workspace, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')], { FERRY_TEST_KILL_UPDATE: killAt });
  return result.signal;
}

describe('an interrupted ferry update', () => {
  it('killed while renaming into place: the next ferry command finishes it, nothing lost', async () => {
    const ctx = await setup();
    expect(visible(ctx.after)).not.toEqual(visible(ctx.before));
    const ws = path.join(ctx.dir, 'killed-commit');
    expect(await killedUpdate(ctx, ws, 'commit:2')).toBe('SIGKILL');
    const mid = await tree(ws);
    expect(JSON.parse(mid[JOURNAL_FILE]!).state).toBe('commit');
    // Part-way: neither the old nor the new workspace yet.
    expect(visible(mid)).not.toEqual(visible(ctx.before));
    expect(visible(mid)).not.toEqual(visible(ctx.after));

    const ls = await ferry(['-w', ws, 'ls']);
    expect(ls.code).toBe(0);
    expect(ls.stderr).toMatch(/an interrupted `ferry update` was finished/);
    expect(await tree(ws)).toEqual(ctx.after); // byte for byte, and no staged files or journal left
    expect(ctx.after[path.join('requests', 'Shop', 'items', 'List items.yaml')]).toMatch(/^# mine\n[\s\S]*X-Page[\s\S]*test\("ok"/);

    const again = await ferry(['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(again.stdout).toContain('The folder already matches this version.');
  }, 60_000);

  it('killed while staging: the workspace is exactly as before, and ferry update then works', async () => {
    const ctx = await setup();
    const ws = path.join(ctx.dir, 'killed-staging');
    expect(await killedUpdate(ctx, ws, 'staging:2')).toBe('SIGKILL');
    const mid = await tree(ws);
    expect(JSON.parse(mid[JOURNAL_FILE]!).state).toBe('staging');
    expect(visible(mid)).toEqual(visible(ctx.before)); // nothing the user sees has changed

    // Undone by the next command, the workspace is the original byte for byte (no staged files, no new folders).
    const ls = await ferry(['-w', ws, 'ls']);
    expect(ls.code).toBe(0);
    expect(ls.stderr).toMatch(/was undone/);
    expect(await tree(ws)).toEqual(ctx.before);

    const update = await ferry(['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(update.code, update.stderr).toBe(0);
    expect(await tree(ws)).toEqual(ctx.after);
  }, 60_000);

  it('killed while staging, its journal then deleted by hand (as a refused journal is): the staged files left behind are ignored, and the next update removes them', async () => {
    const ctx = await setup();
    const ws = path.join(ctx.dir, 'journal-deleted');
    expect(await killedUpdate(ctx, ws, 'staging:2')).toBe('SIGKILL');
    await fs.rm(path.join(ws, JOURNAL_FILE));
    const staged = Object.keys(await tree(ws)).filter((f) => f.includes('.ferry-update-'));
    expect(staged.length).toBeGreaterThan(0);
    // Until then the workspace reader does not see them: nothing is listed twice.
    const ls = await ferry(['-w', ws, 'ls']);
    expect(ls.stdout).not.toMatch(/ferry-update/);
    const update = await ferry(['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(update.code, update.stderr).toBe(0);
    // No staged file is left, and the folder the killed update made for the new tag, holding
    // nothing but its staged files, is nobody's: the update makes it its tag folder as if new
    // (its _folder.yaml too). The workspace is byte for byte what an uninterrupted update gives.
    expect(await tree(ws)).toEqual(ctx.after);
  }, 60_000);

  it('killed right after making a tag folder, its journal deleted by hand: the empty folder is nobody\'s, so the next update or import may use it; one with any file of the user\'s stays theirs', async () => {
    const ctx = await setup();
    const orders = path.join('requests', 'Shop', 'orders');
    const killed = async (name: string) => {
      const ws = path.join(ctx.dir, name);
      expect(await killedUpdate(ctx, ws, 'staging:1')).toBe('SIGKILL');
      await fs.rm(path.join(ws, JOURNAL_FILE));
      // The folder is there; nothing the user sees is in it (at most a staged dot-file).
      expect((await fs.readdir(path.join(ws, orders))).every((f) => f.startsWith('.'))).toBe(true);
      return ws;
    };

    // Empty: the next update takes it as its own new tag folder.
    const updated = await killed('empty-tag-folder-update');
    const update = await ferry(['-w', updated, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(update.code, update.stderr).toBe(0);
    expect(await tree(updated)).toEqual(ctx.after);

    // Empty: an import of a document named "orders" into Shop takes its name, not "orders 2".
    const imported = await killed('empty-tag-folder-import');
    await fs.writeFile(path.join(ctx.dir, 'orders.yaml'), yamlDoc({ ...v1, info: { title: 'orders' }, tags: [] }));
    const run = await ferry(['-w', imported, 'import', path.join(ctx.dir, 'orders.yaml'), '--into', 'Shop']);
    expect(run.code, run.stderr).toBe(0);
    const files = Object.keys(visible(await tree(imported)));
    expect(files).toContain(path.join(orders, 'items', 'List items.yaml'));
    expect(files.some((f) => f.includes('orders 2'))).toBe(false);

    // With a file of the user's (.gitkeep), it is the user's folder: used as it is, no _folder.yaml written, the file kept.
    const kept = await killed('kept-tag-folder');
    await fs.writeFile(path.join(kept, orders, '.gitkeep'), '');
    const again = await ferry(['-w', kept, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(again.code, again.stderr).toBe(0);
    const { [path.join(orders, '_folder.yaml')]: _made, ...rest } = ctx.after;
    expect(await tree(kept)).toEqual({ ...rest, [path.join(orders, '.gitkeep')]: '' });
  }, 90_000);

  it('leaves a journal of a running update alone, and refuses journals that point outside the imported areas', async () => {
    const base = await setup();
    const ctx = { ...base, original: path.join(base.dir, 'journals') };
    await fs.cp(base.original, ctx.original, { recursive: true });
    const journal = path.join(ctx.original, JOURNAL_FILE);
    // A live process (the test runner's parent) still owns the journal: no recovery, no second update.
    const here = { host: os.hostname(), root: await fs.realpath(ctx.original) };
    await fs.writeFile(journal, JSON.stringify({ version: 1, pid: process.ppid, ...here, token: 'a'.repeat(12), state: 'commit', writes: [], deletes: [], dirs: [] }));
    expect((await ferry(['-w', ctx.original, 'ls'])).code).toBe(0);
    const busy = await ferry(['-w', ctx.original, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')]);
    expect(busy.code).not.toBe(0);
    expect(busy.stderr).toMatch(/Another `ferry update` of this workspace is running/);
    expect(await tree(ctx.original)).toEqual({ ...ctx.before, [JOURNAL_FILE]: await fs.readFile(journal, 'utf8') });

    // An hour old, the same journal is stale (its process id belongs to someone else by now).
    const hourAgo = new Date(Date.now() - 3_600_000);
    await fs.utimes(journal, hourAgo, hourAgo);
    expect((await ferry(['-w', ctx.original, 'ls'])).stderr).toMatch(/an interrupted `ferry update` was finished/);
    expect(await tree(ctx.original)).toEqual(ctx.before);

    // A hostile journal (a workspace is a shared folder) moves nothing: paths outside the imported
    // areas, deletes of anything but a kept document, or a journal from another copy of the workspace.
    const token = 'b'.repeat(12);
    const staged = (file: string) => ({ file, temp: path.posix.join(path.posix.dirname(file), `.${path.posix.basename(file)}.ferry-update-${token}.tmp`) });
    const hostile = [
      { ...here, writes: [staged('ferry.yaml')], deletes: [] },
      { ...here, writes: [], deletes: ['../outside.yaml'] },
      { ...here, writes: [], deletes: ['environments/Shop.yaml'] },
      { host: here.host, root: '/somewhere/else', writes: [staged('environments/Shop.yaml')], deletes: [] },
    ];
    for (const fields of hostile) {
      await fs.writeFile(journal, JSON.stringify({ version: 1, pid: 0, token, state: 'commit', dirs: [], ...fields }));
      const refused = await ferry(['-w', ctx.original, 'ls']);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/(is not an update journal Ferry can read|was left by an update of this workspace at .*, not here).*delete \.ferry-update\.json/);
    }
    await fs.rm(journal);
    expect(await tree(ctx.original)).toEqual(ctx.before);
  }, 60_000);
});

describe('ferry update stopped with Ctrl-C (SIGINT)', () => {
  const STRIPE = path.resolve(import.meta.dirname, '..', '..', 'fixtures', 'corpus', 'openapi', 'oas30-stripe-spec3.json');
  const BIN = path.resolve(import.meta.dirname, '..', '..', '..', 'bin', 'ferry.js');

  it('while staging the files of a big document: undone at once, one line, exit code 1, the workspace exactly as before', async () => {
    const dir = await tempDir();
    const ws = path.join(dir, 'ws');
    expect((await ferry(['init', ws])).code).toBe(0);
    expect((await ferry(['-w', ws, 'import', STRIPE])).code).toBe(0);
    // The next version changes every operation's description: ~400 files to stage.
    const next = JSON.parse(await fs.readFile(STRIPE, 'utf8'));
    for (const item of Object.values(next.paths) as Record<string, { description?: string }>[]) {
      for (const operation of Object.values(item)) if (operation && typeof operation === 'object') operation.description = `${operation.description ?? ''} (v2)`;
    }
    await fs.writeFile(path.join(dir, 'v2.json'), JSON.stringify(next));
    const before = await tree(ws);

    const child = spawn(process.execPath, [BIN, '-w', ws, 'update', 'Stripe API', '--from', path.join(dir, 'v2.json')], { env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    // Interrupted once it stages files (journal `staging`, staged files beside their targets).
    const end = Date.now() + 30_000;
    for (;;) {
      const journal = await fs.readFile(path.join(ws, JOURNAL_FILE), 'utf8').catch(() => '');
      if (journal.includes('"state": "staging"')) break;
      if (Date.now() > end) throw new Error(`the update did not start writing: ${stderr}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    // Twice at once, as `timeout` and `npm run` deliver one Ctrl-C: still one interruption.
    child.kill('SIGINT');
    child.kill('SIGINT');
    expect(await done).toBe(1);
    expect(stderr).toBe('ferry: Interrupted: the update was undone; the workspace is as it was.\n');
    expect(stdout).toBe('');
    // No journal, no staged file: nothing left for a later command to tidy.
    expect(await tree(ws)).toEqual(before);
    expect((await ferry(['-w', ws, 'ls'])).stderr).toBe('');
  }, 120_000);

  it('after the second staged file: undone, exit code 1; the same update run again then finishes', async () => {
    const ctx = await setup();
    const ws = path.join(ctx.dir, 'sigint-staging');
    await fs.cp(ctx.original, ws, { recursive: true });
    const result = await runFerry(ctx.script, ['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')], { FERRY_TEST_KILL_UPDATE: 'staging:2:SIGINT' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('ferry: Interrupted: the update was undone; the workspace is as it was.\n');
    expect(await tree(ws)).toEqual(ctx.before);
    // Nothing of the stopped one is in the way of the next.
    const again = await runFerry(ctx.script, ['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')], {});
    expect(again.code, again.stderr).toBe(0);
    expect(await tree(ws)).toEqual(ctx.after);
  }, 60_000);

  it('past the commit point: the update is finished, and says so', async () => {
    const ctx = await setup();
    const ws = path.join(ctx.dir, 'sigint-commit');
    await fs.cp(ctx.original, ws, { recursive: true });
    const result = await runFerry(ctx.script, ['-w', ws, 'update', 'Shop', '--from', path.join(ctx.dir, 'v2.json')], { FERRY_TEST_KILL_UPDATE: 'commit:1:SIGINT' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe('ferry: Interrupted too late to stop: the update was finished.\n');
    expect(result.stdout).toMatch(/Updated\.\n$/);
    expect(await tree(ws)).toEqual(ctx.after);
  }, 60_000);
});
