import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, JsonStore, lockWorkspace, proxyWithCredentials, readSettings, setSetting, WorkspaceData, workspaceDataDir } from '../../src/appdata/index.js';
import { EMPTY_LOCK_GRACE_MS } from '../../src/appdata/json-store.js';
import type { AddressInfo } from 'node:net';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const errorOf = (text: string) => { try { JSON.parse(text); return ''; } catch (error) { return (error as Error).message; } };
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
import { systemErrorMessage } from '../../src/cli/system-error.js';

const run = promisify(execFile);

/**
 * Four child processes running `script` (a module in `data`, with FERRY_DATA_DIR there) that race
 * on a lock: each prints `ready`, then for each line (a round number) on its stdin takes the lock
 * and prints `done ROUND`. `waitFor` waits (bounded: 10 s) until every one has printed the line.
 */
async function racers(data: string, script: string) {
  const file = path.join(data, 'racer.mts');
  await fs.writeFile(file, script);
  const { spawn } = await import('node:child_process');
  const writers = Array.from({ length: 4 }, () => spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, FERRY_DATA_DIR: data }, stdio: ['pipe', 'pipe', 'inherit'] }));
  const lines = writers.map((child) => {
    const seen: string[] = [];
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      seen.push(...parts);
    });
    return seen;
  });
  const waitFor = async (line: string) => {
    for (let i = 0; i < 400 && !lines.every((seen) => seen.includes(line)); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(lines.map((seen) => seen.includes(line))).toEqual(writers.map(() => true));
  };
  return { writers, waitFor };
}

/**
 * Four writers in processes of their own (racers), each adding one to a count under the workspace
 * lock of `root`, slowly, each time a round number comes on its stdin: two holders at once would
 * lose one of the two additions. Returns the lock's folder and key for a test to plant locks in.
 * `clockAheadMs`: the writers read a lock's age by a clock this far ahead (the lock's `now`).
 */
async function workspaceLockRacers(clockAheadMs = 0) {
  const data = await isolatedDataDir();
  const root = await fs.realpath(await tempDir());
  const counter = path.join(root, 'count.txt');
  await fs.writeFile(counter, '0');
  const script = `
    import { promises as fs } from 'node:fs';
    import readline from 'node:readline';
    import { withWorkspaceLock } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
    process.stdout.write('ready\\n');
    for await (const round of readline.createInterface({ input: process.stdin })) {
      await withWorkspaceLock(${JSON.stringify(root)}, 'a racer', async () => {
        const count = Number(await fs.readFile(${JSON.stringify(counter)}, 'utf8'));
        await new Promise((resolve) => setTimeout(resolve, 15));
        await fs.writeFile(${JSON.stringify(counter)}, String(count + 1));
      }${clockAheadMs ? `, { now: () => Date.now() + ${clockAheadMs} }` : ''});
      process.stdout.write('done ' + round + '\\n');
    }
  `;
  const { writers, waitFor } = await racers(data, script);
  const { createHash } = await import('node:crypto');
  const key = createHash('sha256').update(root).digest('hex').slice(0, 24);
  const locks = path.join(data, 'locks');
  /**
   * Up to `rounds` rounds (60 s at most): `plant` puts a lock at `lock` as the test means it, then
   * every racer adds one under the workspace lock; after each, the count holds every addition and
   * no lock is left. Stops the racers at the end.
   */
  const eachRound = async (rounds: number, plant: (round: number, lock: string) => Promise<void>): Promise<void> => {
    const started = Date.now();
    try {
      await waitFor('ready');
      await fs.mkdir(locks, { recursive: true });
      for (let round = 1; round <= rounds && Date.now() - started < 60_000; round++) {
        await plant(round, path.join(locks, `${key}.lock`));
        for (const child of writers) child.stdin!.write(`${round}\n`);
        await waitFor(`done ${round}`);
        expect(await fs.readFile(counter, 'utf8')).toBe(String(round * writers.length));
        expect(await fs.readdir(locks)).toEqual([]);
      }
    } finally {
      for (const child of writers) child.kill('SIGKILL');
    }
  };
  return { key, locks, eachRound };
}

describe('the data folder', () => {
  it('keys data by workspace id and absolute folder path', async () => {
    const data = await isolatedDataDir();
    expect(workspaceDataDir('ws1', '/a/b')).not.toBe(workspaceDataDir('ws1', '/a/c'));
    expect(workspaceDataDir('ws1', '/a/b').startsWith(data)).toBe(true);
  });

  it('encrypts secrets at rest with a key only the user can read', async () => {
    const data = await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.secrets.set('staging', 'apiKey', 'sup3r-s3cret');
    expect(await store.secrets.get('staging', 'apiKey')).toBe('sup3r-s3cret');
    expect(await store.secrets.all('staging')).toEqual({ apiKey: 'sup3r-s3cret' });
    expect(await store.secrets.get('prod', 'apiKey')).toBeUndefined();
    // Names that mean something to JavaScript objects are plain names here.
    await store.secrets.set('staging', '__proto__', 'p');
    await store.secrets.set('staging', 'constructor', 'c');
    const all = await store.secrets.all('staging');
    expect(Object.entries(all).sort()).toEqual([['__proto__', 'p'], ['apiKey', 'sup3r-s3cret'], ['constructor', 'c']]);
    expect(({} as Record<string, unknown>).p).toBeUndefined();
    // Many values of one scope in one write, encrypted the same way.
    await store.secrets.setMany('prod', new Map([['a', 'alpha-secret'], ['b', 'beta-secret']]));
    expect(await store.secrets.all('prod')).toEqual({ a: 'alpha-secret', b: 'beta-secret' });
    expect(await fs.readFile(path.join(store.dir, 'secrets.json'), 'utf8')).not.toMatch(/alpha-secret|beta-secret/);
    const raw = await fs.readFile(path.join(store.dir, 'secrets.json'), 'utf8');
    expect(raw).not.toContain('sup3r-s3cret');
    const keyStat = await fs.stat(path.join(data, 'secret.key'));
    expect(keyStat.mode & 0o777).toBe(0o600);
    // A key file with looser bits (copied, restored from a backup) is tightened when next used.
    await fs.chmod(path.join(data, 'secret.key'), 0o644);
    vi.resetModules(); // a fresh module, as in the next process: the key is loaded again
    const fresh = await import('../../src/appdata/index.js');
    expect(await new fresh.WorkspaceData('ws', '/tmp/ws').secrets.get('staging', 'apiKey')).toBe('sup3r-s3cret');
    expect((await fs.stat(path.join(data, 'secret.key'))).mode & 0o777).toBe(0o600);
    await store.secrets.delete('staging', 'apiKey');
    expect(await store.secrets.get('staging', 'apiKey')).toBeUndefined();
  });

  it('keeps script values, the active environment, tokens and bounded history', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.updateScriptValues('environment:local', { a: '1', b: '2' });
    await store.updateScriptValues('environment:local', { c: null, d: { n: [1, true] } }, ['a']);
    // JSON data as scripts set it: null is a value, not an unset.
    expect(await store.scriptValues('environment:local')).toEqual({ b: '2', c: null, d: { n: [1, true] } });
    await store.updateScriptValues('environment:local', {}, ['c', 'd']);
    expect(await store.scriptValues('environment:local')).toEqual({ b: '2' });
    await store.setActiveEnvironment('local');
    expect(await store.activeEnvironment()).toBe('local');
    await store.saveToken('k', { accessToken: 't', expiresAt: 1 });
    expect(await store.token('k')).toEqual({ accessToken: 't', expiresAt: 1 });
    await store.addHistory(...Array.from({ length: 505 }, (_, i) => ({ time: '', method: 'GET', url: `u${i}`, durationMs: 1 })));
    for (let i = 505; i < 510; i++) await store.addHistory({ time: '', method: 'GET', url: `u${i}`, durationMs: 1 });
    const history = await store.readHistory();
    expect(history).toHaveLength(500);
    expect(history[0]!.url).toBe('u10');
  }, 60_000);

  it('runs that save their history in another order than they sent (a long run ends after a short one) keep it in time order; the oldest sends go first', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    const at = (minute: number, url: string) => ({ time: `2026-01-01T10:${String(minute).padStart(2, '0')}:00.000Z`, method: 'GET', url, durationMs: 1 });
    // The short run sent at 10:02 and ended first; the long one sent from 10:00 to 10:05.
    await store.addHistory(at(2, 'short'));
    await store.addHistory(at(0, 'long-0'), at(1, 'long-1'), at(3, 'long-3'), at(5, 'long-5'));
    expect((await store.readHistory()).map((entry) => entry.url)).toEqual(['long-0', 'long-1', 'short', 'long-3', 'long-5']);
    // Past the limit, the oldest sends go, not the ones saved first.
    await store.addHistory(...Array.from({ length: 497 }, (_, i) => at(59, `late-${i}`)));
    const kept = (await store.readHistory()).map((entry) => entry.url);
    expect(kept).toHaveLength(500);
    expect(kept.slice(0, 3)).toEqual(['short', 'long-3', 'long-5']);
  });

  it('a damaged store is set aside, not fatal, and the user is told once: what, why, where it is now, what is lost', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.setActiveEnvironment('x');
    await fs.writeFile(path.join(store.dir, 'state.json'), '{"trunc');
    const told: string[] = [];
    // Imported as the store loads it (an earlier test reset the module registry).
    const { onSetAside } = await import('../../src/appdata/set-aside.js');
    const stop = onSetAside((notice) => told.push(notice.message));
    try {
      expect(await store.activeEnvironment()).toBeUndefined();
      expect(await store.activeEnvironment()).toBeUndefined();
      await store.setActiveEnvironment('y');
    } finally {
      stop();
    }
    const aside = (await fs.readdir(store.dir)).filter((f) => f.startsWith('state.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(await fs.readFile(path.join(store.dir, aside[0]!), 'utf8')).toBe('{"trunc');
    expect(told).toEqual([
      `state.json in the data folder could not be read (${errorOf('{"trunc')}); it was moved to ${path.join(store.dir, aside[0]!)}, and the active environment and the values scripts set (pm.environment.set and the like) are lost: choose the environment again (\`ferry env use NAME\`, or in the app).`,
    ]);
  });

  it('a damaged secrets.json or state.json is said once on the command\'s stderr, one line each, no stack trace', async () => {
    const data = await isolatedDataDir();
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: told\nname: Told\n');
    await fs.mkdir(path.join(root, 'environments'));
    await fs.writeFile(path.join(root, 'environments', 'local.yaml'), 'name: Local\nvariables:\n  - key: token\n    secret: true\n');
    const dir = workspaceDataDir('told', root);
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'secrets.json'), '');
    await fs.writeFile(path.join(dir, 'state.json'), '[1, 2');
    const bin = path.resolve('bin/ferry.js');
    const env = { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' };
    const first = await run(process.execPath, [bin, '-w', root, 'secret', 'ls', '--env', 'local'], { env });
    const second = await run(process.execPath, [bin, '-w', root, 'secret', 'ls', '--env', 'local'], { env });
    const lines = first.stderr.trim().split('\n');
    const secrets = lines.find((l) => l.includes('secrets.json'));
    expect(secrets).toMatch(new RegExp(`^ferry: secrets\\.json in the data folder could not be read \\(Unexpected end of JSON input\\); it was moved to ${escape(path.join(dir, 'secrets.json.damaged-'))}\\d+, and the secret values stored for this workspace on this computer are lost: set them again \\(\`ferry secret set NAME\`, or in the app\\)\\.$`));
    expect(first.stderr).not.toMatch(/\n\s+at /);
    expect(second.stderr).not.toContain('could not be read');
    expect((await fs.readdir(dir)).filter((f) => f.includes('.damaged-'))).toHaveLength(1);
    // state.json, read by a command that uses the active environment.
    await run(process.execPath, [bin, '-w', root, 'env', 'ls'], { env }).then((listed) => {
      expect(listed.stderr).toMatch(/^ferry: state\.json in the data folder could not be read \(.+\); it was moved to .+state\.json\.damaged-\d+, and the active environment .+ are lost: choose the environment again/m);
      expect(listed.stderr).not.toMatch(/\n\s+at /);
    });
  }, 60_000);

  it('a damaged settings.json: the settings are back to their defaults, and the message says how to set them again (the command line: the app has no settings dialog)', async () => {
    const data = await isolatedDataDir();
    await fs.mkdir(data, { recursive: true });
    await fs.writeFile(path.join(data, 'settings.json'), '{"timeoutMs": 10');
    const env = { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' };
    const listed = await run(process.execPath, [path.resolve('bin/ferry.js'), 'config', 'get', 'timeoutMs'], { env });
    expect(listed.stdout.trim()).toBe('30000');
    expect(listed.stderr).toMatch(/^ferry: settings\.json in the data folder could not be read \(.+\); it was moved to .+settings\.json\.damaged-\d+, and the application settings are back to their defaults: set them again with `ferry config set NAME VALUE` \(`ferry config list` shows them\)\.$/m);
  }, 60_000);

  it('a store that is a folder fails with a message naming it (through ferry, one line)', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.secrets.set('workspace', 'a', 'b');
    await fs.rm(path.join(store.dir, 'secrets.json'));
    await fs.mkdir(path.join(store.dir, 'secrets.json'));
    const error = await store.secrets.all('workspace').catch((caught: unknown) => caught);
    expect(systemErrorMessage(error)?.message).toBe(`Could not read ${path.join(store.dir, 'secrets.json')}: it is a folder, not a file (EISDIR).`);
  });

  it('a run whose history.json and cookies.json are folders: it runs, and says which file could not be saved and why, naming no temporary file', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => {
      res.setHeader('set-cookie', 'sid=1; Path=/');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const data = await isolatedDataDir();
      const root = await tempDir();
      await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: folders\nname: Folders\n');
      await fs.mkdir(path.join(root, 'requests'));
      await fs.writeFile(path.join(root, 'requests', 'One.yaml'), `name: One\nurl: http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
      const dir = workspaceDataDir('folders', root);
      for (const name of ['history.json', 'cookies.json']) await fs.mkdir(path.join(dir, name), { recursive: true });
      const ran = await run(process.execPath, [path.resolve('bin/ferry.js'), '-w', root, 'run'], { env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' } });
      expect(ran.stdout).toContain('PASSED');
      expect(ran.stdout).toContain(`! the history of this run could not be saved in the data folder: Could not read ${path.join(dir, 'history.json')}: it is a folder, not a file (EISDIR).\n`);
      expect(ran.stdout).toContain(`! the cookies of this run could not be saved in the data folder: Could not write ${path.join(dir, 'cookies.json')} (nothing was changed): it is a folder, not a file. Move the folder away, then try again.\n`);
      expect(ran.stdout).not.toContain('.tmp');
      expect((await fs.readdir(dir)).sort()).toEqual(['cookies.json', 'history.json']);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 60_000);

  it('a write that would make a store too large to read back is refused, saying so, and the store keeps what it held', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.secrets.set('local', 'small', 'kept');
    // 100 MB each, about 133 MB sealed: the second would take secrets.json past 256 MB.
    const huge = 'x'.repeat(100 * 2 ** 20);
    await store.secrets.set('local', 'first', huge);
    const file = path.join(store.dir, 'secrets.json');
    const before = await fs.readFile(file, 'utf8');
    await expect(store.secrets.set('local', 'second', huge)).rejects.toThrow(/^Not saved: secrets\.json in the data folder would be 2\d\d MB, more than the 256 MB a file of the data folder may hold \(it could not be read back\); nothing in it changed\. Keep values that large in a file instead/);
    expect(await fs.readFile(file, 'utf8')).toBe(before);
    expect(Object.keys(await store.secrets.all('local')).sort()).toEqual(['first', 'small']);
    expect((await fs.readdir(store.dir)).filter((name) => name.includes('damaged'))).toEqual([]);
  }, 60_000);

  it('a store too large to read (a 600 MB history.json) is set aside and said once, not read: the next write starts it again', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.addHistory({ time: '2026-01-01T00:00:00.000Z', method: 'GET', url: 'http://x/', status: 200, durationMs: 1 });
    const file = path.join(store.dir, 'history.json');
    // Sparse: 600 MB long, no disk used; past the longest string Node makes (512 MB), so it could never be read whole.
    await fs.truncate(file, 600 * 1024 * 1024);
    const told: string[] = [];
    const { onSetAside } = await import('../../src/appdata/set-aside.js');
    const stop = onSetAside((notice) => told.push(notice.message));
    try {
      await store.addHistory({ time: '2026-01-02T00:00:00.000Z', method: 'GET', url: 'http://x/after', status: 200, durationMs: 1 });
      expect((await store.readHistory()).map((entry) => entry.url)).toEqual(['http://x/after']);
    } finally {
      stop();
    }
    const aside = (await fs.readdir(store.dir)).filter((name) => name.startsWith('history.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect((await fs.stat(path.join(store.dir, aside[0]!))).size).toBe(600 * 1024 * 1024);
    expect(told).toEqual([`history.json in the data folder could not be read (it is 600 MB, more than the 256 MB a file of the data folder may hold); it was moved to ${path.join(store.dir, aside[0]!)}, and the history of sends starts empty again.`]);
    // The cookie jar alike: read as empty, set aside when a run saves cookies, never written over.
    await fs.writeFile(store.cookieJarFile, '');
    await fs.truncate(store.cookieJarFile, 600 * 1024 * 1024);
    const { loadCookies, saveCookies } = await import('../../src/runner/cookies.js');
    const jar = await loadCookies(store.cookieJarFile);
    expect(jar.list()).toEqual([]);
    jar.store('http://example.com/', ['fresh=1']);
    const stopCookies = onSetAside((notice) => told.push(notice.message));
    try {
      await saveCookies(jar, store.cookieJarFile);
    } finally {
      stopCookies();
    }
    expect((await loadCookies(store.cookieJarFile)).list().map((c) => c.name)).toEqual(['fresh']);
    expect(told[1]).toMatch(/^cookies\.json in the data folder could not be read \(it is 600 MB, more than the 256 MB a file of the data folder may hold\); it was moved to .+cookies\.json\.damaged-\d+, and the cookies kept for this workspace are lost/);
  }, 60_000);

  it('valid JSON of the wrong shape is set aside too', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.setActiveEnvironment('x');
    await fs.writeFile(path.join(store.dir, 'state.json'), 'null');
    await fs.writeFile(path.join(store.dir, 'history.json'), '{"not": "a list"}');
    expect(await store.activeEnvironment()).toBeUndefined();
    expect(await store.readHistory()).toEqual([]);
    await store.updateScriptValues('collection', { a: '1' });
    expect(await store.scriptValues('collection')).toEqual({ a: '1' });
    await fs.writeFile(path.join(store.dir, 'state.json'), '{}');
    expect(await store.scriptValues('collection')).toEqual({});
    await store.clearScriptValues('collection');
    expect(await store.scriptValues('collection')).toEqual({});
    const damaged = (await fs.readdir(store.dir)).filter((f) => f.includes('.damaged-'));
    expect(damaged.map((f) => f.split('.damaged-')[0]).sort()).toEqual(['history.json', 'state.json']);
  });

  it('two processes writing at once do not corrupt it', async () => {
    const data = await isolatedDataDir();
    const script = `
      import { WorkspaceData } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
      const store = new WorkspaceData('ws', '/tmp/ws');
      const who = process.argv[2];
      for (let i = 0; i < 40; i++) await store.updateScriptValues('collection', { [who + i]: String(i) });
    `;
    const file = path.join(data, 'writer.mts');
    await fs.writeFile(file, script);
    const env = { ...process.env, FERRY_DATA_DIR: data };
    await Promise.all(['a', 'b'].map((who) => run(process.execPath, ['--import', 'tsx', file, who], { env })));
    const values = await new WorkspaceData('ws', '/tmp/ws').scriptValues('collection');
    expect(Object.keys(values)).toHaveLength(80);
  }, 60_000);

  it('a store lock left by a process killed while writing (kill -9) is taken over at once, and the write loses nothing', async () => {
    const data = await isolatedDataDir();
    await new WorkspaceData('ws', '/tmp/ws').updateScriptValues('collection', { before: 'kept' });
    // A writer that holds the lock of state.json and never finishes, killed the way a crash or kill -9 ends it.
    // Its change never returns: the writer waits inside the lock until killed.
    const script = `
      import path from 'node:path';
      import { JsonStore, WorkspaceData } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
      const state = new JsonStore(path.join(new WorkspaceData('ws', '/tmp/ws').dir, 'state.json'), () => ({}));
      await state.update(() => new Promise(() => setInterval(() => {}, 1000)));
    `;
    const file = path.join(data, 'stuck-writer.mts');
    await fs.writeFile(file, script);
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['--import', 'tsx', file], { env: { ...process.env, FERRY_DATA_DIR: data }, stdio: 'ignore' });
    const store = new WorkspaceData('ws', '/tmp/ws');
    // The lock is a file naming its holder (made only if absent, then filled).
    const holder = path.join(store.dir, 'state.json.lock');
    // Until it is written whole.
    const holding = async () => {
      try {
        return (JSON.parse(await fs.readFile(holder, 'utf8')) as { pid?: number }).pid;
      } catch {
        return undefined;
      }
    };
    for (let i = 0; i < 200 && (await holding()) === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await holding()).toBe(child.pid);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    // Not by going stale: its time is set an hour ahead, so it never is; the write can only go
    // through by seeing its holder dead (else refused as busy).
    const ahead = new Date(Date.now() + 3_600_000);
    await fs.utimes(holder, ahead, ahead);
    await store.updateScriptValues('collection', { after: 'written' });
    expect(await store.scriptValues('collection')).toEqual({ before: 'kept', after: 'written' });
    expect((await fs.readdir(store.dir)).filter((name) => name.includes('.lock'))).toEqual([]);
  }, 30_000);

  it('a store lock whose holder is not known is taken over once stale; an older Ferry\'s folder lock with a killed holder at once', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.updateScriptValues('collection', { a: '1' });
    const lock = path.join(store.dir, 'state.json.lock');
    // Killed between making the lock and writing its name: empty, and not refreshed for 20 s.
    await fs.writeFile(lock, '');
    const old = new Date(Date.now() - 20_000);
    await fs.utimes(lock, old, old);
    await store.updateScriptValues('collection', { b: '2' });
    // An older Ferry's lock (a folder, its holder named beside it) whose process is gone: a pid no process has.
    // Its time an hour ahead: never stale, so only its dead holder lets the write through.
    await fs.mkdir(lock);
    await fs.writeFile(path.join(store.dir, 'state.json.lock-holder'), JSON.stringify({ pid: 2 ** 22 + 17, host: (await import('node:os')).hostname() }));
    const ahead = new Date(Date.now() + 3_600_000);
    await fs.utimes(lock, ahead, ahead);
    await store.updateScriptValues('collection', { c: '3' });
    expect(await store.scriptValues('collection')).toEqual({ a: '1', b: '2', c: '3' });
    expect((await fs.readdir(store.dir)).filter((name) => name.includes('.lock'))).toEqual([]);
    // One that is fresh and held by a live process (this one's parent) is waited for, then refused
    // in one line, and left as it is. The same store's lock, waiting 300 ms instead of its 13 s.
    const held = JSON.stringify({ pid: process.ppid, host: (await import('node:os')).hostname() });
    await fs.writeFile(lock, held);
    const state = new JsonStore(path.join(store.dir, 'state.json'), () => ({}), 'lost', 0o600, 300);
    const refused = await state.update(() => {}).catch((error: Error) => error);
    expect(String(refused)).toBe(`WorkspaceBusyError: ${path.join(store.dir, 'state.json')} is being changed by another Ferry process (its lock ${lock} is held). Try again when it is done; if no Ferry is running, remove ${lock}.`);
    expect(await fs.readFile(lock, 'utf8')).toBe(held);
    expect(await store.scriptValues('collection')).toEqual({ a: '1', b: '2', c: '3' });
  });

  it('processes that find a dead holder\'s lock at the same moment: exactly one takes it over, each round, no update lost (file and older folder lock)', async () => {
    const data = await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.updateScriptValues('collection', { count: '0' });
    // Each writer waits for a round number on its stdin, then adds one to the count, slowly
    // (a read-modify-write: two holders at once would lose one of the two additions).
    const script = `
      import path from 'node:path';
      import readline from 'node:readline';
      import { JsonStore, WorkspaceData } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
      const state = new JsonStore(path.join(new WorkspaceData('ws', '/tmp/ws').dir, 'state.json'), () => ({}));
      process.stdout.write('ready\\n');
      for await (const round of readline.createInterface({ input: process.stdin })) {
        await state.update(async (value) => {
          const values = value.scriptValues.collection;
          const count = Number(values.count);
          await new Promise((resolve) => setTimeout(resolve, 15));
          values.count = String(count + 1);
        });
        process.stdout.write('done ' + round + '\\n');
      }
    `;
    const { writers, waitFor } = await racers(data, script);
    const os = await import('node:os');
    try {
      await waitFor('ready');
      const lock = path.join(store.dir, 'state.json.lock');
      // A process id no process has (past the largest Linux gives), on this computer: its holder was killed.
      const dead = JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname() });
      const rounds = 24;
      const started = Date.now();
      for (let round = 1; round <= rounds && Date.now() - started < 60_000; round++) {
        if (round % 3 === 0) {
          // An older Ferry's folder lock, its holder named beside it.
          await fs.mkdir(lock);
          await fs.writeFile(path.join(store.dir, 'state.json.lock-holder'), dead);
        } else {
          await fs.writeFile(lock, dead);
        }
        for (const child of writers) child.stdin!.write(`${round}\n`);
        await waitFor(`done ${round}`);
        expect((await store.scriptValues('collection')).count).toBe(String(round * writers.length));
        expect((await fs.readdir(store.dir)).filter((name) => name.includes('.lock'))).toEqual([]);
      }
      // A taker killed while taking a lock over leaves its marker: the next one passes it by, at once.
      await fs.writeFile(lock, JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname(), id: 'lock-1' }));
      await fs.writeFile(`${lock}.takeover-lock-1-1`, dead);
      // Both an hour ahead: never stale, so only their dead holders let the write through.
      const ahead = new Date(Date.now() + 3_600_000);
      await fs.utimes(lock, ahead, ahead);
      await fs.utimes(`${lock}.takeover-lock-1-1`, ahead, ahead);
      await store.updateScriptValues('collection', { after: 'written' });
      expect((await fs.readdir(store.dir)).filter((name) => name.includes('.lock'))).toEqual([]);
    } finally {
      for (const child of writers) child.kill('SIGKILL');
    }
  }, 90_000);

  it('a takeover marker left by a taker killed after it removed the lock goes at a later write; a live taker\'s stays', async () => {
    const data = await isolatedDataDir();
    const os = await import('node:os');
    const store = new WorkspaceData('ws', '/tmp/ws');
    await fs.mkdir(store.dir, { recursive: true });
    await fs.writeFile(path.join(store.dir, 'state.json'), JSON.stringify({ scriptValues: { collection: { a: '1' } } }));
    const lock = path.join(store.dir, 'state.json.lock');
    // The taker removed the dead holder's lock (id lock-9), then was killed before it removed its marker.
    const dead = JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname() });
    await fs.writeFile(`${lock}.takeover-lock-9-1`, dead);
    await fs.writeFile(`${lock}.takeover-lock-9-2`, dead);
    // A taker of another lock that is alive (this test's parent) is at work: its marker is its own.
    await fs.writeFile(`${lock}.takeover-lock-7-1`, JSON.stringify({ pid: process.ppid, host: os.hostname() }));
    // The same in the workspace locks' folder.
    const locks = path.join(data, 'locks');
    await fs.mkdir(locks, { recursive: true });
    await fs.writeFile(path.join(locks, 'abc.lock.takeover-inode123-1'), dead);
    await store.updateScriptValues('collection', { b: '2' });
    const { withWorkspaceLock } = await import('../../src/appdata/index.js');
    const root = await tempDir();
    const { createHash } = await import('node:crypto');
    const key = createHash('sha256').update(await fs.realpath(root)).digest('hex').slice(0, 24);
    await fs.writeFile(path.join(locks, `${key}.lock.takeover-inode123-1`), dead);
    await withWorkspaceLock(root, 'a test', async () => {});
    expect((await fs.readdir(store.dir)).filter((name) => name.includes('.lock')).sort()).toEqual(['state.json.lock.takeover-lock-7-1']);
    expect(await fs.readdir(locks)).toEqual(['abc.lock.takeover-inode123-1']); // another workspace's lock: its writer cleans it
    expect(await store.scriptValues('collection')).toEqual({ a: '1', b: '2' });
  });

  it('writers killed (SIGKILL) at random points while they write: nothing written before is lost, nothing damaged, nothing left behind', async () => {
    const data = await isolatedDataDir();
    // Each writer adds its next number to its own list in state.json and says so once it is written.
    const script = `
      import { WorkspaceData } from ${JSON.stringify(path.resolve('src/appdata/index.ts'))};
      const store = new WorkspaceData('ws', '/tmp/ws');
      const who = process.argv[2];
      for (let i = 0; i < 10_000; i++) {
        let n = 0;
        await store.updateScriptValues('collection', {});
        const values = await store.scriptValues('collection');
        n = Number(values[who] ?? 0) + 1;
        await store.updateScriptValues('collection', { [who]: String(n) });
        process.stdout.write(who + ' ' + n + '\\n');
      }
    `;
    const file = path.join(data, 'writer.mts');
    await fs.writeFile(file, script);
    const { spawn } = await import('node:child_process');
    const written = new Map<string, number>();
    const start = (who: string) => {
      const child = spawn(process.execPath, ['--import', 'tsx', file, who], { env: { ...process.env, FERRY_DATA_DIR: data }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) {
          const [name, n] = line.split(' ');
          if (name && n) written.set(name, Math.max(written.get(name) ?? 0, Number(n)));
        }
      });
      return { child, stderr: () => stderr };
    };
    const writers = ['a', 'b', 'c'].map((who) => ({ who, ...start(who) }));
    const started = Date.now();
    try {
      for (let kill = 0; kill < 20 && Date.now() - started < 60_000; kill++) {
        // Until each has written something, then a random one at a random moment.
        for (let i = 0; i < 200 && writers.some((w) => !written.has(w.who)); i++) await new Promise((resolve) => setTimeout(resolve, 25));
        await new Promise((resolve) => setTimeout(resolve, 20 + Math.floor(Math.random() * 150)));
        const victim = writers[kill % writers.length]!;
        victim.child.kill('SIGKILL');
        await new Promise((resolve) => victim.child.once('exit', resolve));
        expect(victim.stderr()).toBe('');
        Object.assign(victim, start(victim.who));
      }
    } finally {
      for (const w of writers) w.child.kill('SIGKILL');
      await Promise.all(writers.map((w) => new Promise((resolve) => (w.child.exitCode !== null ? resolve(null) : w.child.once('exit', resolve)))));
    }
    // A write after them all takes over whatever lock a killed one held.
    const store = new WorkspaceData('ws', '/tmp/ws');
    await store.updateScriptValues('collection', { after: 'written' });
    const values = await store.scriptValues('collection');
    for (const [who, n] of written) expect(Number(values[who])).toBeGreaterThanOrEqual(n);
    const names = await fs.readdir(store.dir);
    expect(names.filter((name) => name.includes('.damaged-') || name.includes('.lock'))).toEqual([]);
  }, 120_000);

  it('writers that find the workspace lock of a killed process at the same moment: exactly one takes it over, each round', async () => {
    const { key, locks, eachRound } = await workspaceLockRacers();
    const os = await import('node:os');
    const rounds = 16;
    await eachRound(rounds, async (_round, lock) => {
      // What a writer killed while holding the lock leaves: the lock folder, then its name beside it
      // (a process id no process has: past the largest Linux gives).
      await fs.mkdir(lock);
      await fs.writeFile(path.join(locks, `${key}.json`), JSON.stringify({ pid: 2 ** 22 + 17, host: os.hostname(), writer: 'ferry import', since: new Date().toISOString() }));
      // Its time an hour ahead: never stale, so only its dead holder lets a writer take it.
      const ahead = new Date(Date.now() + 3_600_000);
      await fs.utimes(lock, ahead, ahead);
    });
  }, 90_000);

  it('writers that find a stale workspace lock of an unknown holder at the same moment: exactly one takes it over, each round', async () => {
    const { key, locks, eachRound } = await workspaceLockRacers();
    await eachRound(30, async (round, lock) => {
      // A lock not refreshed for 20 s, whose holder is not known here: a writer on another
      // computer sharing the data folder, or one killed before it wrote its name.
      // Every third, the lock as Ferry makes it now (a file naming its holder); else as an older
      // Ferry's (a folder, proper-lockfile's, the holder named beside it or not at all).
      const holder = { pid: 4242, host: 'another-computer', writer: 'an import', since: new Date(Date.now() - 20_000).toISOString() };
      if (round % 3 === 0) await fs.writeFile(lock, JSON.stringify({ ...holder, id: `lock-${round}` }));
      else await fs.mkdir(lock);
      if (round % 3 === 1) await fs.writeFile(path.join(locks, `${key}.json`), JSON.stringify(holder));
      const old = new Date(Date.now() - 20_000);
      await fs.utimes(lock, old, old);
    });
  }, 90_000);

  it('an empty lock (its maker killed between making it and writing its name), fresh or 4 s old: of racing writers exactly one takes it over, each round', async () => {
    // The writers' clock 1 s ahead, so a fresh empty lock is taken over after 1 s, not its 2 s
    // grace: no sooner, as a live maker that took 1 s to name itself checks it still holds the lock.
    const { eachRound } = await workspaceLockRacers(EMPTY_LOCK_GRACE_MS / 2);
    await eachRound(6, async (round, lock) => {
      // Made as the lock code makes it (only if absent, for the user only), its name never written.
      await fs.writeFile(lock, '', { flag: 'wx', mode: 0o600 });
      if (round % 2 === 0) return;
      // Older than the 2 s a live writer could take to name itself, younger than the 10 s a lock takes to go stale.
      const old = new Date(Date.now() - 4_000);
      await fs.utimes(lock, old, old);
    });
  }, 90_000);

  it('a lock whose holder is not known is taken over once old enough by the clock its age is read by: an empty one at 2 s, at once when 4 s old; one naming a holder on another computer only at 10 s', async () => {
    const data = await isolatedDataDir();
    const root = await fs.realpath(await tempDir());
    const { createHash } = await import('node:crypto');
    const lock = path.join(data, 'locks', `${createHash('sha256').update(root).digest('hex').slice(0, 24)}.lock`);
    await fs.mkdir(path.dirname(lock), { recursive: true });
    /**
     * Plants a lock holding `content`, aged `age` ms by the clock the writer then reads its age by
     * (the file's time plus `age`, set by `at`), and has a writer take the workspace lock.
     */
    const plant = async (content: string, age = 0) => {
      await fs.writeFile(lock, content, { flag: 'wx', mode: 0o600 });
      const planted = await fs.stat(lock);
      let reads = 0;
      let held = false;
      const waited: string[] = [];
      const now = () => {
        reads++;
        return planted.mtimeMs + age;
      };
      const taking = lockWorkspace(root, 'a writer', { now, waitMs: 60_000, onWait: (holder) => waited.push(holder) }).then((release) => {
        held = true;
        return release;
      });
      const stillPlanted = async () => {
        const stat = await fs.stat(lock).catch(() => undefined);
        return stat?.ino === planted.ino && (await fs.readFile(lock, 'utf8')) === content;
      };
      return {
        waited,
        /**
         * The lock `ms` old from now on: the writer looks at it three times (a takeover reads its
         * age twice, then takes the lock), and is still waiting, the planted lock left as it was.
         */
        leftAt: async (ms: number) => {
          age = ms;
          const from = reads;
          await expect.poll(() => held || reads >= from + 3, { timeout: 30_000 }).toBe(true);
          expect(held, `taken over at ${ms} ms`).toBe(false);
          expect(await stillPlanted(), `the planted lock at ${ms} ms`).toBe(true);
        },
        /** The lock `ms` old from now on: the writer takes it over, its own lock in its place, and releases it. */
        takenAt: async (ms: number) => {
          age = ms;
          await expect.poll(() => held, { timeout: 30_000, message: `taken over at ${ms} ms` }).toBe(true);
          expect(JSON.parse(await fs.readFile(lock, 'utf8'))).toMatchObject({ writer: 'a writer', pid: process.pid });
          await (await taking)();
          await expect(fs.stat(lock)).rejects.toThrow(/ENOENT/);
        },
      };
    };

    // Empty (its maker killed before it wrote its name): left while a live maker could still be naming itself, 2 s; then taken over, not only after 10 s.
    const empty = await plant('');
    await empty.leftAt(0);
    await empty.leftAt(1_900);
    await empty.takenAt(2_100);
    expect(empty.waited).toEqual(['another Ferry process']);

    // Empty and 4 s old when first seen: taken over at once, without waiting.
    const old = await plant('', 4_000);
    await old.takenAt(4_000);
    expect(old.waited).toEqual([]);

    // Naming a holder on another computer (which cannot be asked whether it runs): left until stale, 10 s without a refresh.
    const since = new Date().toISOString();
    const named = await plant(JSON.stringify({ pid: 4242, host: 'another-computer', id: 'theirs', writer: 'ferry import', since }));
    await named.leftAt(0);
    await named.leftAt(2_100);
    await named.leftAt(9_900);
    await named.takenAt(10_100);
    expect(named.waited).toEqual([`ferry import (process 4242 on another-computer, since ${since.slice(11, 19)} UTC)`]);
  }, 90_000);

  it('a data folder that cannot be written: each command says in one line what was not saved, which folder refused, and what to do', async (ctx) => {
    const http = await import('node:http');
    const { spawn, spawnSync } = await import('node:child_process');
    const bin = path.resolve('bin/ferry.js');
    // Root writes any folder: then ferry runs as the user nobody, for whom the data folder is read-only.
    const nobody = process.getuid?.() === 0 ? 65534 : undefined;
    if (nobody !== undefined && spawnSync(process.execPath, ['-e', `require('fs').readFileSync(${JSON.stringify(bin)})`], { uid: nobody, gid: nobody }).status !== 0) return ctx.skip();
    const server = http.createServer((_req, res) => {
      res.setHeader('set-cookie', 'sid=1; Path=/');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const top = await tempDir();
    await fs.chmod(top, 0o755);
    const root = path.join(top, 'ws');
    const data = path.join(top, 'data');
    await fs.mkdir(path.join(root, 'requests'), { recursive: true });
    await fs.mkdir(path.join(root, 'environments'));
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: ro\nname: Read-only\nvariables:\n  - key: token\n    value: ""\n    secret: true\n');
    await fs.writeFile(path.join(root, 'environments', 'dev.yaml'), 'name: dev\nvariables: []\n');
    await fs.writeFile(path.join(root, 'requests', 'One.yaml'), `name: One\nurl: http://127.0.0.1:${(server.address() as AddressInfo).port}/\n`);
    for (const entry of ['', ...(await fs.readdir(root, { recursive: true }))]) await fs.chmod(path.join(root, entry), entry.endsWith('.yaml') ? 0o644 : 0o755);
    await fs.mkdir(data, { mode: 0o555 });
    await fs.chmod(data, 0o555);
    const ferryAs = (args: string[]) => new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [bin, '-w', root, ...args], { env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: data, HOME: top }, stdio: ['pipe', 'pipe', 'pipe'], ...(nobody !== undefined ? { uid: nobody, gid: nobody } : {}) });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c));
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
      child.stdin.end('s3cret\n');
    });
    const refused = (file: string, folder: string) => new RegExp(`Could not save ${escape(file)} \\(nothing was changed\\): the data folder's folder ${escape(folder)} does not allow new files \\(permission denied\\)\\. Make it writable \\(chmod u\\+w ${escape(folder)}\\), or set FERRY_DATA_DIR to a folder you can write; then try again\\.`);
    const wsDir = path.join(data, 'workspaces', path.basename(workspaceDataDir('ro', root)));
    try {
      const ran = await ferryAs(['run']);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(new RegExp(`! the cookies of this run could not be saved in the data folder: ${refused(path.join(wsDir, 'cookies.json'), data).source}`));
      expect(ran.stdout).toMatch(new RegExp(`! the history of this run could not be saved in the data folder: ${refused(path.join(wsDir, 'history.json'), data).source}`));
      for (const [args, file] of [
        [['config', 'set', 'timeoutMs', '5000'], path.join(data, 'settings.json')],
        [['env', 'use', 'dev'], path.join(wsDir, 'state.json')],
        [['secret', 'set', 'token'], path.join(data, 'secret.key')],
      ] as const) {
        const result = await ferryAs([...args]);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(new RegExp(`^ferry: ${refused(file, data).source}\n$`));
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 90_000);

  it('application settings: documented defaults, typed changes, clear errors', async () => {
    await isolatedDataDir();
    expect(await readSettings()).toEqual(DEFAULT_SETTINGS);
    expect((await setSetting('timeoutMs', '5000')).timeoutMs).toBe(5000);
    expect((await setSetting('verifyTls', 'false')).verifyTls).toBe(false);
    await expect(setSetting('timeoutMs', 'soon')).rejects.toThrow('Setting timeoutMs takes a whole number from 0 to 2147483647, not "soon".');
    await expect(setSetting('nope', '1')).rejects.toThrow(/Unknown setting "nope"/);
    // A hand-edited file with wrong types: those values are ignored, the others kept.
    const data = process.env.FERRY_DATA_DIR!;
    await fs.writeFile(path.join(data, 'settings.json'), JSON.stringify({ timeoutMs: 'soon', maxRedirects: -1, httpVersion: 'http9', verifyTls: 'no', decompress: false }));
    expect(await readSettings()).toEqual({ ...DEFAULT_SETTINGS, decompress: false });
  });

  it('the proxy password goes to the secret store, never settings.json', async () => {
    await isolatedDataDir();
    const data = process.env.FERRY_DATA_DIR!;
    const saved = await setSetting('proxy', 'http://ann:p%40ss%20word@proxy.test:3128');
    // As typed, less the password (it read http://ann@proxy.test:3128/, a slash added by URL).
    expect(saved.proxy).toBe('http://ann@proxy.test:3128');
    const file = await fs.readFile(path.join(data, 'settings.json'), 'utf8');
    expect(file).not.toContain('p%40ss');
    expect(file).not.toContain('p@ss');
    expect(await proxyWithCredentials(saved)).toBe('http://ann:p%40ss%20word@proxy.test:3128');
    expect(new URL(await proxyWithCredentials(saved)).password).toBe('p%40ss%20word');
    // Clearing the proxy forgets the password too.
    await setSetting('proxy', 'none');
    expect(await proxyWithCredentials(await setSetting('proxy', 'http://ann@proxy.test:3128'))).toBe('http://ann@proxy.test:3128');
    expect((await setSetting('proxy', 'http://ann:pw@proxy.test:3128/')).proxy).toBe('http://ann@proxy.test:3128/');
    expect((await readSettings()).noProxy).toEqual([]);
    expect((await setSetting('noProxy', '.corp.test,10.0.0.0/8')).noProxy).toEqual(['.corp.test', '10.0.0.0/8']);
  });
});
