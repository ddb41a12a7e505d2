/**
 * `ferry app` as a command: it prints a 127.0.0.1 URL with the token, serves the UI behind the
 * guard, saves edits in place (comments kept), and Ctrl-C stops it with exit code 0.
 */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import net from 'node:net';
import { KnownServers, lockWorkspace } from '../../src/appdata/index.js';
import { startAppServer } from '../../src/app/server/index.js';
import { browserLaunch } from '../../src/cli/app.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const RUN_FERRY = path.join(import.meta.dirname, '..', 'servers', 'support', 'run-ferry.ts');

async function workspace(): Promise<string> {
  const root = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: app-cli\nname: App CLI\n');
  await fs.mkdir(path.join(root, 'requests'));
  return root;
}

describe('ferry app', () => {
  it('opens the browser without the token on its command line (other users of the computer can read command lines), through a file only this user can read', async () => {
    const url = 'http://127.0.0.1:4321/?token=SECRET-TOKEN-abc';
    const launch = await browserLaunch(url);
    try {
      expect([launch.command, ...launch.args].join(' ')).not.toContain('SECRET-TOKEN');
      const target = launch.args.at(-1)!.replace(/^--app=/, '');
      const file = fileURLToPath(target);
      expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
      expect((await fs.stat(path.dirname(file))).mode & 0o777).toBe(0o700);
      // The file goes on to the link (the link's own page then sets the cookie).
      expect(await fs.readFile(file, 'utf8')).toContain(`<meta http-equiv="refresh" content="0;url=${url}">`);
      await launch.done();
      await expect(fs.stat(file)).rejects.toThrow();
    } finally {
      await launch.done();
    }
  });

  it('removes the link file also when the process exits without closing the app (a second Ctrl-C)', async () => {
    const script = `import { browserLaunch } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, '..', '..', 'src', 'cli', 'app.ts')).href)};
const launch = await browserLaunch('http://127.0.0.1:4321/?token=T');
console.log(launch.args.at(-1).replace(/^--app=/, ''));
process.exit(130);`;
    const { execFile } = await import('node:child_process');
    const child = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
      const run = execFile(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { timeout: 20_000 }, (_error, stdout) => resolve({ stdout, code: run.exitCode }));
    });
    expect(child.code).toBe(130);
    const file = fileURLToPath(child.stdout.trim());
    expect(file).toMatch(/open\.html$/);
    await expect(fs.stat(path.dirname(file))).rejects.toThrow();
  });

  it("serves React's production build: the page built before the tests (test/support/built-is-current.ts, under Vitest's NODE_ENV=test) carries no development code", async () => {
    const assets = path.join(import.meta.dirname, '..', '..', 'dist', 'app', 'web', 'assets');
    const scripts = (await fs.readdir(assets)).filter((name) => name.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const text = await fs.readFile(path.join(assets, name), 'utf8');
      // React's development JSX runtime and checks: slower, and console errors in every page.
      expect(text.includes('is being spread into JSX'), name).toBe(false);
      expect(text.includes('React.jsx: Static children should always be an array'), name).toBe(false);
    }
  });

  it('refuses a bad --port', async () => {
    const result = await ferry(['-w', await workspace(), 'app', '--port', 'abc', '--no-open']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--port must be a port number/);
  });

  // Number() reads these as ports ('' and ' ' as 0, a free port): they are not port numbers either.
  it.each(['', ' ', '0x1F90', '1e3', '80.0'])('refuses --port %j, which is not a port number written as one', async (bad) => {
    const result = await ferry(['-w', await workspace(), 'app', '--port', bad, '--no-open']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--port must be a port number/);
  }, 10_000);

  it('a --port in use: exit 2 at once, and no autoStart server was started', async () => {
    const root = await workspace();
    const data = await tempDir('ferry-data-');
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as net.AddressInfo).port;
    const mockPort = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (probe.address() as net.AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    await fs.mkdir(path.join(root, 'servers'));
    await fs.writeFile(path.join(root, 'servers', 'mock.yaml'), `name: Mock\nport: ${mockPort}\nautoStart: true\n`);
    // This computer knows the configuration, so the app would start it by itself (2.11).
    const before = process.env.FERRY_DATA_DIR;
    process.env.FERRY_DATA_DIR = data;
    const ws = await openWorkspace(root);
    await new KnownServers(ws.id, ws.root).remember('mock', ws.servers[0]!.value);
    process.env.FERRY_DATA_DIR = before;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', RUN_FERRY, '-w', root, 'app', '--port', String(taken), '--no-open'], { env: { ...process.env, FERRY_DATA_DIR: data } });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((resolve, reject) => {
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          reject(new Error(`ferry app did not exit: ${err}`));
        }, 20_000);
        child.on('close', (c) => {
          clearTimeout(timer);
          resolve(c);
        });
      });
      expect(code).toBe(2);
      expect(err).toContain(`Port ${taken} on 127.0.0.1 is taken`);
      // Nothing listens on the mock's port: it was never started.
      const refused = await new Promise<boolean>((resolve) => net.connect(mockPort, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(false); }).on('error', () => resolve(true)));
      expect(refused).toBe(true);
    } finally {
      busy.close();
    }
  }, 30_000);

  it('prints its URL, answers behind the guard, and stops on Ctrl-C with exit code 0', async () => {
    const root = await workspace();
    const data = await tempDir('ferry-data-');
    const child = spawn(process.execPath, ['--import', 'tsx', RUN_FERRY, '-w', root, 'app', '--no-open'], { env: { ...process.env, FERRY_DATA_DIR: data } });
    // Stopped whatever fails first (no URL in time, a refused call): else it runs on after the test.
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 25_000);
        child.stdout.on('data', () => {
          const found = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
          if (found) {
            clearTimeout(timer);
            resolve(found[0]);
          }
        });
      });
      const origin = new URL(url).origin;
      expect((await fetch(`${origin}/api/workspace`)).status).toBe(403);
      const exchange = await fetch(url, { redirect: 'manual' });
      expect(exchange.status).toBe(200);
      const cookie = exchange.headers.get('set-cookie')!.split(';')[0]!;
      const info = await fetch(`${origin}/api/workspace`, { headers: { cookie } });
      expect((await info.json()).name).toBe('App CLI');
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await expect(fetch(`${origin}/api/workspace`, { headers: { cookie } })).rejects.toThrow();
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('saves an edited request in place: comments, order and untouched lines stay byte for byte', async () => {
    await isolatedDataDir();
    const root = await workspace();
    const original = '# Owned by the API team\nname: Get user\nmethod: GET # always GET\nurl: http://example.test/users/1\nheaders:\n  - key: Accept\n    value: application/json\n';
    await fs.writeFile(path.join(root, 'requests', 'Get user.yaml'), original);
    const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: root });
    try {
      const exchange = await fetch(app.url, { redirect: 'manual' });
      const headers = { cookie: exchange.headers.get('set-cookie')!.split(';')[0]!, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${app.port}`;
      const { request } = await (await fetch(`${base}/api/request?path=Get%20user.yaml`, { headers })).json();
      // Saving what was read changes nothing.
      expect((await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Get user.yaml', request }) })).status).toBe(200);
      expect(await fs.readFile(path.join(root, 'requests', 'Get user.yaml'), 'utf8')).toBe(original);
      // One field edited: one line changes.
      const saved = await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Get user.yaml', request: { ...request, url: 'http://example.test/users/2' } }) });
      expect(saved.status).toBe(200);
      expect(await fs.readFile(path.join(root, 'requests', 'Get user.yaml'), 'utf8')).toBe(original.replace('users/1', 'users/2'));
      // A new name renames the file.
      const renamed = await (await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Get user.yaml', request: { ...request, name: 'Fetch user' } }) })).json();
      expect(renamed.path).toBe('Fetch user.yaml');
      expect(await fs.readdir(path.join(root, 'requests'))).toEqual(['Fetch user.yaml']);
      // An invalid request is refused and nothing is written.
      const bad = await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Fetch user.yaml', request: { ...request, name: '' } }) });
      expect(bad.status).toBe(400);
      // Another writer holds the workspace (an import): the save waits briefly, then 409 names it.
      const release = await lockWorkspace(root, 'an import');
      process.env.FERRY_LOCK_WAIT_MS = '200';
      try {
        const busy = await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Fetch user.yaml', request: { ...request, name: 'Fetch user', url: 'http://example.test/busy' } }) });
        expect(busy.status).toBe(409);
        expect((await busy.json()).error).toMatch(new RegExp(`^The workspace is being changed by an import \\(process ${process.pid}, since \\d\\d:\\d\\d:\\d\\d UTC\\)\\. Wait for it to finish, then try again\\.$`));
        expect(await fs.readFile(path.join(root, 'requests', 'Fetch user.yaml'), 'utf8')).not.toContain('busy');
      } finally {
        delete process.env.FERRY_LOCK_WAIT_MS;
        await release();
      }
      const after = await fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify({ path: 'Fetch user.yaml', request: { ...request, name: 'Fetch user', url: 'http://example.test/free' } }) });
      expect(after.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('never overwrites a change made elsewhere, nor writes a deleted request back', async () => {
    await isolatedDataDir();
    const root = await workspace();
    const file = path.join(root, 'requests', 'Get user.yaml');
    await fs.writeFile(file, 'name: Get user\nurl: http://example.test/users/1\n');
    const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: root });
    try {
      const exchange = await fetch(app.url, { redirect: 'manual' });
      const headers = { cookie: exchange.headers.get('set-cookie')!.split(';')[0]!, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${app.port}`;
      const put = (body: unknown) => fetch(`${base}/api/request`, { method: 'PUT', headers, body: JSON.stringify(body) });
      const { request } = await (await fetch(`${base}/api/request?path=Get%20user.yaml`, { headers })).json();
      // Saved with what the page read as its base: written.
      expect((await put({ path: 'Get user.yaml', base: request, request: { ...request, url: 'http://example.test/users/2' } })).status).toBe(200);
      const mine = { ...request, url: 'http://example.test/users/2' };
      // An editor (or git, or another tab) changes the file before the page hears of it.
      const theirs = 'name: Get user\nurl: http://example.test/users/3 # from git\n';
      await fs.writeFile(file, theirs);
      const stale = await put({ path: 'Get user.yaml', base: mine, request: { ...mine, url: 'http://example.test/users/4' } });
      expect(stale.status).toBe(409);
      const refused = await stale.json();
      expect(refused.error).toBe('requests/Get user.yaml changed on disk since the app read it; nothing was saved.');
      expect(refused.request.url).toBe('http://example.test/users/3');
      expect(await fs.readFile(file, 'utf8')).toBe(theirs);
      // Keeping mine after seeing theirs: saved with theirs as the base.
      expect((await put({ path: 'Get user.yaml', base: refused.request, request: { ...mine, url: 'http://example.test/users/4' } })).status).toBe(200);
      expect(await fs.readFile(file, 'utf8')).toBe(theirs.replace('users/3', 'users/4'));
      // Deleted elsewhere: reading and saving say so (404), and the file is not written back.
      await fs.rm(file);
      const read = await fetch(`${base}/api/request?path=Get%20user.yaml`, { headers });
      expect(read.status).toBe(404);
      expect((await read.json()).error).toBe('requests/Get user.yaml is no longer in the workspace (deleted, moved or renamed outside the app).');
      const gone = await put({ path: 'Get user.yaml', request: mine });
      expect(gone.status).toBe(404);
      expect((await gone.json()).gone).toBe(true);
      expect(await fs.readdir(path.join(root, 'requests'))).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('keeps a secret variable\'s value on this computer: the file gets the key only, the page never the value', async () => {
    await isolatedDataDir();
    const root = await workspace();
    await fs.mkdir(path.join(root, 'environments'), { recursive: true });
    await fs.writeFile(path.join(root, 'environments', 'local.yaml'), 'name: Local\nvariables:\n  - key: greeting\n    value: hi\n');
    const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: root });
    try {
      const exchange = await fetch(app.url, { redirect: 'manual' });
      const headers = { cookie: exchange.headers.get('set-cookie')!.split(';')[0]!, 'content-type': 'application/json' };
      const base = `http://127.0.0.1:${app.port}`;
      const variables = [{ key: 'greeting', value: 'hi', enabled: true, secret: false }, { key: 'token', value: 's3cr3t', enabled: true, secret: true }];
      expect((await fetch(`${base}/api/environment/variables`, { method: 'PUT', headers, body: JSON.stringify({ id: 'local', variables }) })).status).toBe(200);
      const file = await fs.readFile(path.join(root, 'environments', 'local.yaml'), 'utf8');
      expect(file).toBe('name: Local\nvariables:\n  - key: greeting\n    value: hi\n  - key: token\n    secret: true\n');
      const view = await (await fetch(`${base}/api/environment/variables?id=local`, { headers })).json();
      expect(view.variables[1]).toEqual({ key: 'token', value: '', enabled: true, secret: true, stored: true });
      expect(JSON.stringify(view)).not.toContain('s3cr3t');
    } finally {
      await app.close();
    }
  });
});
