/**
 * `ferry env rename` / `ferry env rm` in one process while a `ferry run` is under way in another:
 * the run saves the values its scripts set where the environment is when it ends (renamed: under
 * the new id; deleted: nowhere), through the record of environment changes in the data folder
 * (appdata/environment-changes.ts). Two real processes of the built CLI, a real server on
 * 127.0.0.1 that answers only when the test lets it.
 */
import { promises as fs, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ENVIRONMENT_CHANGES_KEPT, JsonStore, WorkspaceData } from '../../src/appdata/index.js';
import { ferryProcess } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';


interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

let dataDir: string;
let ws: string;
let site: http.Server;
/** Answers the request waiting at /slow; set once it has arrived. */
let answer: (() => void) | undefined;

/** `ferry ARGS` in this test's workspace and data folder; what it printed and its exit code. */
async function ferryIn(args: string[]): Promise<Ran> {
  const ran = ferryProcess(['-w', ws, ...args], { FERRY_DATA_DIR: dataDir }, 20_000);
  const code = await ran.done;
  return { code, ...ran.output };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function data(): Promise<WorkspaceData> {
  return new WorkspaceData('env-run', ws);
}

beforeEach(async () => {
  dataDir = await isolatedDataDir();
  ws = await tempDir();
  answer = undefined;
  site = http.createServer((req, res) => {
    if (req.url === '/slow') answer = () => res.end('{"token": "T-42"}');
    else res.end('ok');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: env-run\nname: Env run\n');
  await fs.mkdir(path.join(ws, 'environments'));
  await fs.mkdir(path.join(ws, 'requests'));
  await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), `name: staging\nvariables:\n  - key: base\n    value: ${base}\n`);
  await fs.writeFile(
    path.join(ws, 'requests', 'Login.yaml'),
    "name: Login\nurl: '{{base}}/slow'\nscripts:\n  postResponse: pm.environment.set('token', pm.response.json().token);\n",
  );
  // A value set by an earlier run: the rename moves it, the run's save must land beside it.
  await (await data()).updateScriptValues('environment:staging', { earlier: 'E-1' });
});

afterEach(async () => {
  site.closeAllConnections();
  await new Promise((resolve) => site.close(resolve));
});

describe('an environment renamed or deleted by another process while a run is under way', () => {
  it('renamed: the run saves the values its scripts set under the new id, none under the old', async () => {
    const run = ferryIn(['run', 'Login', '-e', 'staging']);
    await until('the run\'s request to arrive', () => answer);
    const renamed = await ferryIn(['env', 'rename', 'staging', 'Staging EU']);
    expect(renamed.code, renamed.stderr).toBe(0);
    answer!();
    const ran = await run;
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    const store = await data();
    expect(await store.scriptValues('environment:Staging EU')).toEqual({ earlier: 'E-1', token: 'T-42' });
    expect(await store.scriptValues('environment:staging')).toEqual({});
    // A new environment of the old name starts with nothing of the renamed one's.
    expect((await ferryIn(['env', 'new', 'staging'])).code).toBe(0);
    expect(await store.scriptValues('environment:staging')).toEqual({});
  });

  it('renamed after the run read the workspace and before it opened its session: the run still follows it (its place in the record was taken as it read)', async (context) => {
    // The test sees the run's read by the file's access time: a file system mounted noatime cannot say it.
    const probe = path.join(ws, 'atime-probe');
    await fs.writeFile(probe, 'x');
    await fs.utimes(probe, new Date('2020-01-01T00:00:00Z'), new Date());
    await fs.readFile(probe);
    const seen = statSync(probe).atimeMs > Date.parse('2021-01-01');
    await fs.rm(probe);
    if (!seen) return context.skip('the temporary folder\'s file system does not update access times (noatime)');
    // The run is held between the two: it reads the settings after the workspace and before its
    // mark, and a damaged settings file is read under its lock, which this test holds meanwhile.
    await fs.writeFile(path.join(dataDir, 'settings.json'), '{"timeoutMs": 30');
    const envFile = path.join(ws, 'environments', 'staging.yaml');
    // Read since: its access time moves past its change time (relatime), so the test sees the read.
    await fs.utimes(envFile, new Date('2020-01-01T00:00:00Z'), new Date());
    let run: Promise<Ran> | undefined;
    // The lock goes once the rename is done; the run goes on and takes its mark after it.
    await new JsonStore(path.join(dataDir, 'settings.json'), () => ({}), 'test').withLock(async () => {
      run = ferryIn(['run', 'Login', '-e', 'staging']);
      await until('the run to read the workspace', () => (statSync(envFile).atimeMs > Date.parse('2021-01-01') ? true : undefined));
      const renamed = await ferryIn(['env', 'rename', 'staging', 'Staging EU']);
      expect(renamed.code, renamed.stderr).toBe(0);
    });
    await until('the run\'s request to arrive', () => answer);
    answer!();
    const ran = await run!;
    // It read the workspace before the rename: `-e staging` was found.
    expect(ran.code, ran.stderr + ran.stdout).toBe(0);
    const store = await data();
    expect(await store.scriptValues('environment:Staging EU')).toEqual({ earlier: 'E-1', token: 'T-42' });
    expect(await store.scriptValues('environment:staging')).toEqual({});
  });

  it('renamed twice (there and on) while it runs: the run follows both', async () => {
    const run = ferryIn(['run', 'Login', '-e', 'staging']);
    await until('the run\'s request to arrive', () => answer);
    expect((await ferryIn(['env', 'rename', 'staging', 'qa'])).code).toBe(0);
    expect((await ferryIn(['env', 'rename', 'qa', 'prod'])).code).toBe(0);
    answer!();
    expect((await run).code).toBe(0);
    const store = await data();
    expect(await store.scriptValues('environment:prod')).toEqual({ earlier: 'E-1', token: 'T-42' });
    expect(await store.scriptValues('environment:qa')).toEqual({});
    expect(await store.scriptValues('environment:staging')).toEqual({});
  });

  it('deleted: the run keeps its values nowhere (a new environment of that name starts empty)', async () => {
    const run = ferryIn(['run', 'Login', '-e', 'staging']);
    await until('the run\'s request to arrive', () => answer);
    const removed = await ferryIn(['env', 'rm', 'staging']);
    expect(removed.code, removed.stderr).toBe(0);
    answer!();
    expect((await run).code).toBe(0);
    const state = JSON.parse(await fs.readFile(path.join((await data()).dir, 'state.json'), 'utf8')) as { scriptValues: Record<string, unknown> };
    expect(Object.keys(state.scriptValues)).toEqual([]);
  });

  it('a damaged record of changes is set aside with one line saying so; the run saves under the id it began with, nothing lost', async () => {
    const store = await data();
    const record = path.join(store.dir, 'environment-changes.json');
    // Cut off mid-write (as by a crash of an editor; Ferry writes it atomically).
    await fs.writeFile(record, '{"id": "x", "next": 3, "changes": [{"seq": 2, "fr');
    const ran = await (async () => {
      const run = ferryIn(['run', 'Login', '-e', 'staging']);
      await until('the run\'s request to arrive', () => answer);
      answer!();
      return run;
    })();
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/ferry: environment-changes\.json in the data folder could not be read \(.*\); it was moved to .*environment-changes\.json\.damaged-\d+, and a run under way now does not follow the environment renames and deletes made before/);
    expect(await store.scriptValues('environment:staging')).toEqual({ earlier: 'E-1', token: 'T-42' });
    expect((await fs.readdir(store.dir)).filter((name) => name.startsWith('environment-changes.json.damaged-'))).toHaveLength(1);
    // The next rename starts a new record, and a run under way follows it.
    answer = undefined;
    const run = ferryIn(['run', 'Login', '-e', 'staging']);
    await until('the second run\'s request to arrive', () => answer);
    expect((await ferryIn(['env', 'rename', 'staging', 'qa'])).code).toBe(0);
    answer!();
    expect((await run).code).toBe(0);
    expect(await store.scriptValues('environment:qa')).toEqual({ earlier: 'E-1', token: 'T-42' });
    expect(await store.scriptValues('environment:staging')).toEqual({});
  });

  it('a record of another shape (edited by hand) is read for what it holds; the record stays bounded', async () => {
    const store = await data();
    const record = path.join(store.dir, 'environment-changes.json');
    await fs.writeFile(record, JSON.stringify({ id: 7, next: 'x', changes: [{ seq: 'a' }, null, { seq: 0, from: 'old', to: 'older' }] }));
    const run = ferryIn(['run', 'Login', '-e', 'staging']);
    await until('the run\'s request to arrive', () => answer);
    for (const [from, to] of [['staging', 'a'], ['a', 'b'], ['b', 'c']]) expect((await ferryIn(['env', 'rename', from!, to!])).code).toBe(0);
    answer!();
    expect((await run).code).toBe(0);
    expect(await store.scriptValues('environment:c')).toEqual({ earlier: 'E-1', token: 'T-42' });
    const written = JSON.parse(await fs.readFile(record, 'utf8')) as { id: unknown; next: number; changes: Array<{ seq: number }> };
    expect(typeof written.id).toBe('string');
    expect(written.changes.map((c) => c.seq)).toEqual([0, 1, 2, 3]);
    expect(written.next).toBe(4);
  });
});

describe('the record of environment changes', () => {
  it('keeps the last ENVIRONMENT_CHANGES_KEPT changes; a run whose mark is older follows those it keeps', async () => {
    const store = await data();
    const mark = await store.environmentMark();
    let id = 'staging';
    for (let n = 0; n < ENVIRONMENT_CHANGES_KEPT + 5; n++) await store.renameEnvironmentData(id, (id = `env-${n}`));
    const record = JSON.parse(await fs.readFile(path.join(store.dir, 'environment-changes.json'), 'utf8')) as { next: number; changes: unknown[] };
    expect(record.changes).toHaveLength(ENVIRONMENT_CHANGES_KEPT);
    expect(record.next).toBe(ENVIRONMENT_CHANGES_KEPT + 5);
    expect(await store.scriptValues(`environment:${id}`)).toEqual({ earlier: 'E-1' });
    // The first five renames are no longer kept: from its old id the run cannot follow them (kept as it was)…
    expect(await store.exclusive(async (changes) => changes.since('staging', mark))).toBe('staging');
    // …and from an id the kept changes name, it follows them to the end.
    expect(await store.exclusive(async (changes) => changes.since('env-4', mark))).toBe(id);
    expect(await store.exclusive(async (changes) => changes.since(id, await store.environmentMark()))).toBe(id);
  });
});
