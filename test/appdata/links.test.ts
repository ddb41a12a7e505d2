/**
 * The data folder never reads through a symbolic link: the stores (state, history, tokens,
 * secrets), the secret key, the cookie jar and the generated certificate each refuse a link, or
 * start afresh, rather than read a file from elsewhere.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { loadCookies, saveCookies } from '../../src/runner/cookies.js';
import { localhostCertificate } from '../../src/servers/self-signed.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

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
});
