/**
 * `ferry cookies ls|clear`: the jar a real run filled (Set-Cookie from a server in the test),
 * listed in text and JSON, filtered by domain (subdomains included), cleared per domain and
 * whole; a damaged or linked jar file is neither trusted nor overwritten. Spawned `bin/ferry.js`.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { cookieOfDomain, CookieStore, type CookieInfo } from '../../src/protocols/index.js';
import { ferryBin } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let ws: string;
let data: string;
let server: http.Server;
const LONG = 'v'.repeat(300);

beforeEach(async () => {
  data = await isolatedDataDir();
  server = http.createServer((req, res) => {
    res.setHeader('set-cookie', req.url === '/ip' ? ['sid=abc; HttpOnly; Path=/', `long=${LONG}; Max-Age=3600`] : ['theme=dark; Path=/app; SameSite=Strict']);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  ws = await tempDir();
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: cookies-cli\nname: Cookies\n');
  await fs.mkdir(path.join(ws, 'requests'));
  await fs.writeFile(path.join(ws, 'requests', 'Ip.yaml'), `name: Ip\nmethod: GET\nurl: http://127.0.0.1:${port}/ip\n`);
  await fs.writeFile(path.join(ws, 'requests', 'Named.yaml'), `name: Named\nmethod: GET\nurl: http://localhost:${port}/app/x\n`);
});

afterEach(async () => {
  await new Promise((r) => server.close(r));
});

const jarFile = () => new WorkspaceData('cookies-cli', ws).cookieJarFile;

describe('ferry cookies', () => {
  it('lists what a run stored (text and JSON, by domain) and clears one domain, then all', async () => {
    expect((await ferryBin(['-w', ws, 'cookies', 'ls'], data)).stdout).toContain('No cookies.');
    expect((await ferryBin(['-w', ws, 'run'], data)).code).toBe(0);

    const text = await ferryBin(['-w', ws, 'cookies', 'ls'], data);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/127\.0\.0\.1\/\s+sid=abc +session, httpOnly/);
    expect(text.stdout).toMatch(/localhost\/app\s+theme=dark +session, sameSite=strict/);
    expect(text.stdout).toContain(`long=${'v'.repeat(60)}…  expires `); // cut in text
    expect(text.stdout).not.toContain(LONG);
    // Every column lines up, as in `ferry ls`: name=value and the flags start at one column on every line.
    const rows = text.stdout.trimEnd().split('\n').map((line) => /^(\S+)( +)(\S+)( +)(\S.*)$/.exec(line)!);
    expect(rows).toHaveLength(3);
    expect(new Set(rows.map((r) => r[1]!.length + r[2]!.length)).size).toBe(1);
    expect(new Set(rows.map((r) => r[1]!.length + r[2]!.length + r[3]!.length + r[4]!.length)).size).toBe(1);
    expect(rows.map((r) => r[4]!.length)).toContain(2); // two spaces after the widest name=value

    const all = JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', '--json'], data)).stdout) as CookieInfo[];
    expect(all.map((c) => `${c.domain} ${c.name}`).sort()).toEqual(['127.0.0.1 long', '127.0.0.1 sid', 'localhost theme']);
    expect(all.find((c) => c.name === 'long')!.value).toBe(LONG); // whole in JSON
    expect(all.find((c) => c.name === 'long')!.expires).toMatch(/^\d{4}-\d\d-\d\dT/);

    const one = JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', 'LOCALHOST', '--json'], data)).stdout) as CookieInfo[];
    expect(one.map((c) => c.name)).toEqual(['theme']);
    expect((await ferryBin(['-w', ws, 'cookies', 'ls', 'example.com'], data)).stdout).toContain('No cookies for example.com.');

    const cleared = await ferryBin(['-w', ws, 'cookies', 'clear', '127.0.0.1'], data);
    expect(cleared.code).toBe(0);
    expect(cleared.stderr).toContain('ferry: removed 2 cookies for 127.0.0.1.');
    const left = JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', '--json'], data)).stdout) as CookieInfo[];
    expect(left.map((c) => c.name)).toEqual(['theme']);

    expect((await ferryBin(['-w', ws, 'cookies', 'clear', 'nowhere.test'], data)).stderr).toContain('ferry: no cookies for nowhere.test; nothing removed.');
    expect((await ferryBin(['-w', ws, 'cookies', 'clear'], data)).stderr).toContain('ferry: removed 1 cookie.');
    expect(JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', '--json'], data)).stdout)).toEqual([]);
  }, 60_000);

  it('a domain takes in its subdomains, not look-alike names; the jar file written by the jar itself', async () => {
    const jar = CookieStore.fromSerialized(undefined);
    jar.store('http://example.com/', ['a=1']);
    jar.store('http://api.example.com/', ['b=2']);
    jar.store('http://badexample.com/', ['c=3']);
    await fs.mkdir(path.dirname(jarFile()), { recursive: true });
    await fs.writeFile(jarFile(), JSON.stringify(jar.serialize()));
    const names = async (d: string) => (JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', d, '--json'], data)).stdout) as CookieInfo[]).map((c) => c.name).sort();
    expect(await names('example.com')).toEqual(['a', 'b']);
    expect(await names('.Example.COM')).toEqual(['a', 'b']);
    expect(await names('api.example.com')).toEqual(['b']);
    expect(await names('com')).toEqual(['a', 'b', 'c']);
    expect(cookieOfDomain({ domain: 'example.com' }, '  ')).toBe(false); // a blank domain picks nothing
    expect((await ferryBin(['-w', ws, 'cookies', 'clear', 'example.com'], data)).stderr).toContain('removed 2 cookies for example.com');
    expect(await names('com')).toEqual(['c']);
  }, 60_000);

  it('a damaged or linked jar file reads as empty and is left as it was', async () => {
    await fs.mkdir(path.dirname(jarFile()), { recursive: true });
    await fs.writeFile(jarFile(), '{"cookies": [ not json');
    expect((await ferryBin(['-w', ws, 'cookies', 'ls'], data)).stdout).toContain('No cookies.');
    expect((await ferryBin(['-w', ws, 'cookies', 'clear'], data)).stderr).toContain('no cookies; nothing removed');
    expect(await fs.readFile(jarFile(), 'utf8')).toBe('{"cookies": [ not json');
    // A run that gets cookies writes a new jar, the damaged one set aside, not written over.
    expect((await ferryBin(['-w', ws, 'run'], data)).code).toBe(0);
    expect((await ferryBin(['-w', ws, 'cookies', 'ls'], data)).stdout).toContain('sid=abc');
    const aside = (await fs.readdir(path.dirname(jarFile()))).filter((name) => name.startsWith('cookies.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(await fs.readFile(path.join(path.dirname(jarFile()), aside[0]!), 'utf8')).toBe('{"cookies": [ not json');
    await fs.writeFile(jarFile(), '{"cookies": [ not json');

    const elsewhere = path.join(await tempDir(), 'jar.json');
    const jar = CookieStore.fromSerialized(undefined);
    jar.store('http://example.com/', ['a=1']);
    await fs.writeFile(elsewhere, JSON.stringify(jar.serialize()));
    await fs.rm(jarFile());
    await fs.symlink(elsewhere, jarFile());
    expect((await ferryBin(['-w', ws, 'cookies', 'ls'], data)).stdout).toContain('No cookies.'); // the link is not followed
    await ferryBin(['-w', ws, 'cookies', 'clear'], data);
    expect(JSON.parse(await fs.readFile(elsewhere, 'utf8'))).toEqual(jar.serialize());
  }, 60_000);

  it('runs at once each keep the cookies they got: no run writes over another\'s', async () => {
    // Each request's answer sets a cookie of its own, late, so that the runs save at about the same time.
    const slow = http.createServer((req, res) => {
      const name = new URL(req.url!, 'http://x').searchParams.get('c')!;
      setTimeout(() => {
        res.setHeader('set-cookie', `${name}=v-${name}; Path=/; Max-Age=3600`);
        res.end('ok');
      }, 300);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const port = (slow.address() as AddressInfo).port;
      const names = ['c1', 'c2', 'c3', 'c4'];
      for (const name of names) await fs.writeFile(path.join(ws, 'requests', `${name}.yaml`), `name: ${name}\nmethod: GET\nurl: http://127.0.0.1:${port}/?c=${name}\n`);
      const runs = await Promise.all(names.map((name) => ferryBin(['-w', ws, 'run', `requests/${name}.yaml`], data)));
      expect(runs.map((r) => r.code)).toEqual(names.map(() => 0));
      const kept = JSON.parse((await ferryBin(['-w', ws, 'cookies', 'ls', '--json'], data)).stdout) as CookieInfo[];
      expect(kept.map((c) => `${c.name}=${c.value}`).sort()).toEqual(names.map((n) => `${n}=v-${n}`));
      expect((await fs.readdir(path.dirname(jarFile()))).filter((name) => name.includes('.lock'))).toEqual([]);
    } finally {
      await new Promise((r) => slow.close(r));
    }
  }, 60_000);

  it('a jar saved while another process saved its own (the app open, a run): only what this jar changed is written', async () => {
    const { loadCookies, saveCookies } = await import('../../src/runner/cookies.js');
    const seed = await loadCookies(jarFile());
    seed.store('http://example.com/', ['kept=1', 'gone=1', 'theirs=old']);
    await saveCookies(seed, jarFile());
    // The app's jar, loaded now and used for a while.
    const app = await loadCookies(jarFile());
    expect(app.cookieHeader('http://example.com/')).toBe('kept=1; gone=1; theirs=old');
    // Meanwhile a run gets a new cookie and a new value of one the app has too.
    const run = await loadCookies(jarFile());
    run.store('http://example.com/', ['theirs=new', 'fresh=1']);
    await saveCookies(run, jarFile());
    // The app changes one cookie and removes another, then saves.
    app.store('http://example.com/', ['kept=2']);
    expect(app.remove({ domain: 'example.com', path: '/', name: 'gone' })).toBe(true);
    await saveCookies(app, jarFile());
    const after = await loadCookies(jarFile());
    expect(after.list().map((c) => `${c.name}=${c.value}`).sort()).toEqual(['fresh=1', 'kept=2', 'theirs=new']);
    // Saved, the app's jar holds what the others saved too.
    expect(app.list().map((c) => `${c.name}=${c.value}`).sort()).toEqual(['fresh=1', 'kept=2', 'theirs=new']);
  });

  it('refuses an unknown subcommand and works only in a workspace', async () => {
    expect((await ferryBin(['-w', ws, 'cookies', 'eat'], data)).code).toBe(2);
    const outside = await ferryBin(['-w', await tempDir(), 'cookies', 'ls'], data);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/ferry\.yaml/);
  }, 60_000);
});
