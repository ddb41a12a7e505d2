/**
 * The data folder never reads through a symbolic link: the stores (state, history, tokens,
 * secrets), the secret key, the cookie jar and the generated certificate each refuse a link, or
 * start afresh, rather than read a file from elsewhere.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { withWorkspaceLock, WorkspaceData } from '../../src/appdata/index.js';
import { readJournalFile } from '../../src/support/journal-file.js';
import { ferry } from '../support/cli.js';
import { loadCookies, saveCookies } from '../../src/runner/cookies.js';
import { localhostCertificate } from '../../src/servers/self-signed.js';
import { folderSnapshot, isolatedDataDir, tempDir } from '../support/temp.js';

describe('symbolic links in the data folder', () => {
  it('a store that is a link is refused with its name, and the link target is neither read nor written', async () => {
    await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws-links');
    await fs.mkdir(store.dir, { recursive: true });
    const elsewhere = path.join(await tempDir(), 'history.json');
    const planted = JSON.stringify([{ time: 't', method: 'GET', url: 'http://planted/', durationMs: 1 }]);
    await fs.writeFile(elsewhere, planted);
    await fs.symlink(elsewhere, path.join(store.dir, 'history.json'));
    await expect(store.readHistory()).rejects.toThrow(/history\.json is a symbolic link; Ferry never follows links in its data folder/);
    await expect(store.addHistory({ time: 't', method: 'GET', url: 'http://new/', durationMs: 1 })).rejects.toThrow(/symbolic link/);
    expect(await fs.readFile(elsewhere, 'utf8')).toBe(planted);
  });

  it('a secret key that is a link is refused', async () => {
    const data = await isolatedDataDir();
    const elsewhere = path.join(await tempDir(), 'key');
    await fs.writeFile(elsewhere, Buffer.alloc(32, 7));
    await fs.symlink(elsewhere, path.join(data, 'secret.key'));
    vi.resetModules(); // the key is cached per module: load it afresh, as a new process would
    const fresh = await import('../../src/appdata/index.js');
    await expect(new fresh.WorkspaceData('ws', '/tmp/ws-key').secrets.set('env', 'token', 'v')).rejects.toThrow(/secret\.key is a symbolic link/);
  });

  it('a cookie jar that is a link starts empty, and saving replaces the link, not its target', async () => {
    const dir = await tempDir();
    const elsewhere = path.join(dir, 'planted.json');
    const jar = await loadCookies(path.join(dir, 'source.json'));
    jar.store('http://planted.example/', ['session=PLANTED']);
    await saveCookies(jar, path.join(dir, 'source.json'));
    await fs.rename(path.join(dir, 'source.json'), elsewhere);
    const file = path.join(dir, 'cookies.json');
    await fs.symlink(elsewhere, file);
    const opened = await loadCookies(file);
    expect(opened.cookieHeader('http://planted.example/')).toBe('');
    opened.store('http://127.0.0.1/', ['fresh=1']);
    await saveCookies(opened, file);
    expect((await fs.lstat(file)).isSymbolicLink()).toBe(false);
    expect(await fs.readFile(elsewhere, 'utf8')).toContain('PLANTED');
  });

  it('a generated certificate that is a link is not used: a new one is made in its place', async () => {
    const dir = await tempDir();
    const first = await localhostCertificate(dir);
    const elsewhere = await tempDir();
    for (const name of ['localhost-cert.pem', 'localhost-key.pem']) {
      await fs.rename(path.join(dir, name), path.join(elsewhere, name));
      await fs.symlink(path.join(elsewhere, name), path.join(dir, name));
    }
    const second = await localhostCertificate(dir);
    expect(second.cert).not.toBe(first.cert);
    expect((await fs.lstat(path.join(dir, 'localhost-key.pem'))).isSymbolicLink()).toBe(false);
  });

  it('a folder inside the data folder that is a link (workspaces/, pointing outside) is refused, naming it; nothing is read or written through it', async () => {
    const data = await isolatedDataDir();
    const outside = await tempDir();
    await fs.symlink(outside, path.join(data, 'workspaces'));
    const store = new WorkspaceData('ws', '/tmp/ws-linked-folder');
    const refused = new RegExp(`${path.join(data, 'workspaces').replace(/[/.-]/g, '\\$&')} is a symbolic link inside the data folder .*Ferry never follows links there`);
    await expect(store.setActiveEnvironment('dev')).rejects.toThrow(refused);
    await expect(store.addHistory({ time: 't', method: 'GET', url: 'http://x/', durationMs: 1 })).rejects.toThrow(refused);
    await expect(store.secrets.set('dev', 'token', 'v')).rejects.toThrow(refused);
    await expect(store.results.save('0'.repeat(32), { status: 200 })).rejects.toThrow(refused);
    await expect(loadCookies(store.cookieJarFile)).rejects.toThrow(refused);
    expect(await folderSnapshot(outside)).toEqual({});
    // Planted there: not read either.
    await fs.mkdir(path.dirname(path.join(outside, path.relative(path.join(data, 'workspaces'), store.dir), 'x')), { recursive: true });
    await fs.writeFile(path.join(outside, path.basename(store.dir), 'state.json'), JSON.stringify({ activeEnvironment: 'planted' }));
    await expect(store.activeEnvironment()).rejects.toThrow(refused);
  });

  it("a workspace's own folder that is a link is refused; so is a linked locks/ folder for the workspace lock", async () => {
    const data = await isolatedDataDir();
    const store = new WorkspaceData('ws', '/tmp/ws-linked-own');
    const outside = await tempDir();
    await fs.mkdir(path.dirname(store.dir), { recursive: true });
    await fs.symlink(outside, store.dir);
    await expect(store.readHistory()).rejects.toThrow(/is a symbolic link inside the data folder/);
    await fs.symlink(await tempDir(), path.join(data, 'locks'));
    await expect(withWorkspaceLock('/tmp/ws-linked-own', 'test', async () => 'ran')).rejects.toThrow(new RegExp(`${path.join(data, 'locks')} is a symbolic link inside the data folder`));
    expect(await folderSnapshot(outside)).toEqual({});
  });

  it('the data folder itself may be a link: its stores are read and written through it', async () => {
    const real = await tempDir();
    const parent = await tempDir();
    const linked = path.join(parent, 'ferry-data');
    await fs.symlink(real, linked);
    process.env.FERRY_DATA_DIR = linked;
    const store = new WorkspaceData('ws', '/tmp/ws-linked-root');
    await store.setActiveEnvironment('dev');
    expect(await store.activeEnvironment()).toBe('dev');
    expect(await withWorkspaceLock('/tmp/ws-linked-root', 'test', async () => 'ran')).toBe('ran');
    expect(Object.keys(await folderSnapshot(real))).toContain(path.join('workspaces', path.basename(store.dir), 'state.json'));
  });

  it('`ferry env use` with a linked folder in the data folder: one line naming the link and what to do, exit 2, nothing written', async () => {
    const data = await isolatedDataDir();
    const ws = await tempDir();
    expect((await ferry(['init', '.'], ws)).code).toBe(0);
    expect((await ferry(['env', 'new', 'Dev'], ws)).code).toBe(0);
    const outside = await tempDir();
    await fs.rm(path.join(data, 'workspaces'), { recursive: true, force: true });
    await fs.symlink(outside, path.join(data, 'workspaces'));
    const result = await ferry(['env', 'use', 'Dev'], ws);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/workspaces is a symbolic link inside the data folder .*Replace the link with the folder it points to/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(await folderSnapshot(outside)).toEqual({});
  });

  it('a journal that is a link is not read or acted on', async () => {
    const dir = await tempDir();
    const elsewhere = path.join(dir, 'planted.json');
    await fs.writeFile(elsewhere, JSON.stringify({ version: 1, pid: 1, host: 'h', root: dir, steps: [] }));
    await fs.symlink(elsewhere, path.join(dir, 'move-journal.json'));
    await expect(readJournalFile(path.join(dir, 'move-journal.json'), dir, () => true)).rejects.toThrow(/move-journal\.json is a symbolic link; Ferry never follows links in its data folder/);
    expect(await fs.readFile(elsewhere, 'utf8')).toContain('"steps"');
  });
});
