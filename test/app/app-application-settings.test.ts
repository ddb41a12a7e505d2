/**
 * The app's Application settings (docs/app.md): this computer's settings as `ferry config` has
 * them, read and set through the same declarations and setter. A value the command line refuses
 * is refused with its words and changes nothing; a change made in the app is what `ferry config
 * get` (its own process, same data folder) reads (the next send using it: app-config-while-open).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { AppSettingsView } from '../../src/app/shared/api.js';
import { APP_SETTING_KEYS } from '../../src/model/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient } from './api-client.js';

const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');

describe('ferry app: Application settings', () => {
  let ws: TempWorkspace | undefined;
  let app: AppServer | undefined;
  afterEach(async () => {
    await app?.close();
    await ws?.cleanup();
  });

  async function open() {
    ws = await makeWorkspace({});
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    const client = new ApiClient(app.port);
    await client.login(app.token);
    return client;
  }
  const config = (...args: string[]) => promisify(execFile)(process.execPath, [BIN, 'config', ...args], { env: { ...process.env, FERRY_DATA_DIR: ws!.dataDir } });
  const row = (view: AppSettingsView, key: string) => view.settings.find((s) => s.key === key)!;

  it('lists every setting with its value, default and what it takes; a change is what ferry config reads', async () => {
    const client = await open();
    const view = (await client.call('GET', '/api/app-settings')).body as AppSettingsView;
    expect(view.settings.map((s) => s.key)).toEqual(APP_SETTING_KEYS);
    expect(view.file).toBe(path.join(ws!.dataDir, 'settings.json'));
    expect(row(view, 'timeoutMs')).toEqual({ key: 'timeoutMs', type: 'wholeNumber', text: '30000', defaultText: '30000', takes: expect.stringMatching(/^a whole number from 0 to \d+$/), perRequest: true });
    expect(row(view, 'httpVersion')).toMatchObject({ type: 'choice', text: 'auto', choices: ['auto', 'http1', 'http2'] });
    expect(row(view, 'proxy')).toMatchObject({ type: 'text', text: 'none', perRequest: false });

    const changed = await client.call('PUT', '/api/app-settings', { key: 'timeoutMs', text: '1234' });
    expect(changed.status).toBe(200);
    expect(row(changed.body as AppSettingsView, 'timeoutMs').text).toBe('1234');
    expect((await config('get', 'timeoutMs')).stdout.trim()).toBe('1234');
    // And the other way: ferry config set while the app is open shows at the next read.
    await config('set', 'maxRedirects', '3');
    expect(row((await client.call('GET', '/api/app-settings')).body as AppSettingsView, 'maxRedirects').text).toBe('3');
  });

  it('refuses what ferry config set refuses, with its words, and changes nothing', async () => {
    const client = await open();
    const cases: [string, string, RegExp][] = [
      ['timeoutMs', '-5', /^Setting timeoutMs takes a whole number from 0 to \d+, not "-5"\.$/],
      ['timeoutMs', '1e3', /not "1e3"/],
      ['httpVersion', 'http3', /HTTP\/3 is not supported yet/],
      ['proxy', 'ftp://x', /a proxy URL starts with http:\/\/, https:\/\/ or socks5:\/\//],
      ['caFiles', '/nonexistent/ca.pem', /cannot use \/nonexistent\/ca.pem: it does not exist/],
      ['clientCertificates', '{not json', /takes JSON/],
      ['noSuchSetting', 'x', /noSuchSetting/],
    ];
    for (const [key, text, message] of cases) {
      const answer = await client.call('PUT', '/api/app-settings', { key, text });
      expect(answer.status, `${key} ${text}`).toBe(400);
      expect((answer.body as { error: string }).error).toMatch(message);
    }
    expect((await client.call('PUT', '/api/app-settings', { key: 'timeoutMs' })).status).toBe(400);
    expect((await client.call('PUT', '/api/app-settings', { key: 'timeoutMs', text: 5 })).status).toBe(400);
    await expect(fs.readFile(path.join(ws!.dataDir, 'settings.json'), 'utf8').catch(() => '{}')).resolves.toBe('{}');
    expect((await config('list')).stdout).not.toMatch(/^\S+\s+\S+$/m); // every line still says (default)
  });

  it('a save carrying the value it read is refused (409, nothing written) when ferry config set changed that setting since; another setting changed is no conflict', async () => {
    const client = await open();
    const file = path.join(ws!.dataDir, 'settings.json');
    const read = (await client.call('GET', '/api/app-settings')).body as AppSettingsView;
    expect(row(read, 'maxRedirects').text).toBe('10');
    // Another program writes the same setting after the page read it.
    await config('set', 'maxRedirects', '7');
    const refused = await client.call('PUT', '/api/app-settings', { key: 'maxRedirects', text: '3', base: row(read, 'maxRedirects').text });
    expect(refused.status).toBe(409);
    const body = refused.body as AppSettingsView & { error: string };
    expect(body.error).toBe(`maxRedirects changed in ${file} since the app read it (it is now 7); nothing was saved.`);
    // The refusal carries the settings as the file holds them, for the page's conflict bar.
    expect(row(body, 'maxRedirects').text).toBe('7');
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ maxRedirects: 7 });
    expect((await config('get', 'maxRedirects')).stdout.trim()).toBe('7');

    // Another setting changed since the read: this one's save goes through, and keeps that change.
    await config('set', 'scriptTimeoutMs', '6000');
    const other = await client.call('PUT', '/api/app-settings', { key: 'timeoutMs', text: '1500', base: row(read, 'timeoutMs').text });
    expect(other.status).toBe(200);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual({ maxRedirects: 7, scriptTimeoutMs: 6000, timeoutMs: 1500 });

    // The value the file holds as the base (Keep mine after the conflict): written over it.
    const kept = await client.call('PUT', '/api/app-settings', { key: 'maxRedirects', text: '3', base: '7' });
    expect(kept.status).toBe(200);
    expect((await config('get', 'maxRedirects')).stdout.trim()).toBe('3');
    // Changed to the value this save writes: nothing is lost, no conflict.
    await config('set', 'maxRedirects', '4');
    expect((await client.call('PUT', '/api/app-settings', { key: 'maxRedirects', text: '4', base: '3' })).status).toBe(200);
    // A proxy save refused keeps the stored password of the proxy the file holds.
    await config('set', 'proxy', 'http://me:first@127.0.0.1:3128');
    const proxyRefused = await client.call('PUT', '/api/app-settings', { key: 'proxy', text: 'http://you:second@127.0.0.1:3129', base: 'none' });
    expect(proxyRefused.status).toBe(409);
    expect(row(proxyRefused.body as AppSettingsView, 'proxy').text).toBe('http://me@127.0.0.1:3128');
    const { proxyWithCredentials, readSettings } = await import('../../src/appdata/index.js');
    expect(await proxyWithCredentials(await readSettings())).toBe('http://me:first@127.0.0.1:3128');
    // A base that is not text is refused, naming it.
    const bad = await client.call('PUT', '/api/app-settings', { key: 'maxRedirects', text: '5', base: 3 });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/^"base" must be/);
    expect((await config('get', 'maxRedirects')).stdout.trim()).toBe('4');
  });

  it('a proxy password goes to the secret store: the view never shows it', async () => {
    const client = await open();
    const answer = await client.call('PUT', '/api/app-settings', { key: 'proxy', text: 'http://me:s3cret@127.0.0.1:3128' });
    expect(answer.status).toBe(200);
    expect(row(answer.body as AppSettingsView, 'proxy').text).toBe('http://me@127.0.0.1:3128');
    expect(JSON.stringify((await client.call('GET', '/api/app-settings')).body)).not.toContain('s3cret');
    expect(await fs.readFile(path.join(ws!.dataDir, 'settings.json'), 'utf8')).not.toContain('s3cret');
  });

  it('says on the live channel when the settings file changes outside the page (ferry config set, a hand edit, removed), the data folder made after the app started', async () => {
    // A fresh computer: no data folder when the app starts; `ferry config set` makes it.
    const client = await open();
    await expect(fs.access(ws!.dataDir)).rejects.toThrow();
    const live = await client.live();
    try {
      const said = () => live.events.filter((e) => e.type === 'appSettings').length;
      const maxRedirects = async () => row((await client.call('GET', '/api/app-settings')).body as AppSettingsView, 'maxRedirects').text;
      await config('set', 'maxRedirects', '3');
      await expect.poll(said).toBeGreaterThan(0);
      expect(await maxRedirects()).toBe('3');
      const file = path.join(ws!.dataDir, 'settings.json');
      let before = said();
      // An editor writing in place (same file, no rename).
      await fs.writeFile(file, JSON.stringify({ maxRedirects: 4 }));
      await expect.poll(said).toBeGreaterThan(before);
      expect(await maxRedirects()).toBe('4');
      before = said();
      await fs.rm(file);
      await expect.poll(said).toBeGreaterThan(before);
      expect(await maxRedirects()).toBe('10');
    } finally {
      live.close();
    }
  });
});
