/**
 * `ferry run --start-servers` when a server marked autoStart cannot start: the run stops before
 * any request is sent, exit 2, naming the server file and the reason (the JSON error object says
 * it too; no report file is written, as for an unknown environment), and stops the servers that
 * did start. It goes on only when the port is held by a `ferry serve` or `ferry app` of the same
 * workspace serving the same file, saying so. Real processes of bin/ferry.js, real programs
 * holding real ports of 127.0.0.1 (docs/running.md, --start-servers).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../app/api-client.js';
import { ferryProcess } from '../support/cli.js';
import { heldByServe, serving, stopped, until, workspaceWithMock } from '../support/port-holders.js';
import { freePort } from '../support/servers/index.js';
import { isolatedDataDir } from '../support/temp.js';

/** A workspace whose autoStart servers/api.yaml answers /ping on `port`, and one request of it. */
async function runnable(name: string, port: number): Promise<string> {
  const ws = await workspaceWithMock(name, port, 'autoStart: true\n');
  await fs.writeFile(path.join(ws, 'requests', 'ping.yaml'), `name: ping\nmethod: GET\nurl: http://127.0.0.1:${port}/ping\nscripts:\n  postResponse: "pm.test('pong', () => pm.expect(pm.response.text()).to.eql('pong'))"\n`);
  return ws;
}

/** A program that is not Ferry holding `port` and answering every request as the mock would ("pong"); it prints a line for each. */
async function impostor(port: number): Promise<{ child: ChildProcessWithoutNullStreams; requests(): number }> {
  const code = `require('http').createServer((q, r) => { console.log('request ' + q.url); r.end('pong'); }).listen(${port}, '127.0.0.1', () => console.log('listening'))`;
  const child = spawn(process.execPath, ['-e', code]);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await until(() => out.includes('listening'), 'the program to listen');
  return { child, requests: () => out.split('\n').filter((line) => line.startsWith('request ')).length };
}

async function refusedConnection(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => (probe.destroy(), resolve(false)));
    probe.once('error', () => resolve(true));
  });
}

describe('ferry run --start-servers: a server that cannot start stops the run before anything is sent', () => {
  it('a port held by another program that answers as the mock would: exit 2, no request reaches it, the reason said (JSON error object too), no report file', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await runnable('ws', port);
    const other = await impostor(port);
    try {
      const reason = `servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`;
      const run = ferryProcess(['-w', ws, 'run', '--start-servers'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(2);
      expect(run.output.stderr).toBe(`ferry: --start-servers: server api did not start, so no request was sent: ${reason}\n`);
      expect(run.output.stdout).toBe('');

      const json = ferryProcess(['-w', ws, 'run', '--start-servers', '-r', 'json'], { FERRY_DATA_DIR: data });
      expect(await json.done).toBe(2);
      expect(JSON.parse(json.output.stdout)).toEqual({ error: { message: `--start-servers: server api did not start, so no request was sent: ${reason}`, exitCode: 2 } });

      // As for -e typo: no report file is written, and the folder made for it goes again.
      const junit = ferryProcess(['-w', ws, 'run', '--start-servers', '--out-junit', 'reports/junit.xml', '--out-html', 'reports/run.html'], { FERRY_DATA_DIR: data });
      expect(await junit.done).toBe(2);
      expect(existsSync(path.join(ws, 'reports'))).toBe(false);

      expect(other.requests()).toBe(0);
      // Nothing of the run is left in the data folder as serving.
      expect(await fs.readdir(path.join(data, 'serving')).catch(() => [])).toEqual([]);
    } finally {
      other.child.kill();
    }
  }, 90_000);

  it('each server that did not start is named with its reason; the one that started is stopped again', async () => {
    const data = await isolatedDataDir();
    const held = await freePort();
    const startable = await freePort();
    const ws = await runnable('ws', held);
    await fs.writeFile(path.join(ws, 'servers', 'good.yaml'), `name: Good\nport: ${startable}\nautoStart: true\n`);
    await fs.writeFile(path.join(ws, 'servers', 'tls.yaml'), 'name: TLS\nport: 0\nautoStart: true\ntls:\n  enabled: true\n  certPath: missing.pem\n  keyPath: missing.key\n');
    const other = await impostor(held);
    try {
      const run = ferryProcess(['-w', ws, 'run', '--start-servers', '-r', 'json'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(2);
      const lines = run.output.stderr.trimEnd().split('\n');
      expect(lines[0]).toBe('ferry: --start-servers: 2 servers did not start, so no request was sent:');
      expect(lines.slice(1)).toEqual([
        `  server api: servers/api.yaml: port ${held} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`,
        expect.stringMatching(/^ {2}server tls: servers\/tls\.yaml:\d+:\d+: tls\.certPath: the file missing\.pem does not exist /),
      ]);
      expect(run.output.stderr).not.toContain('Started server');
      expect(JSON.parse(run.output.stdout).error.message).toMatch(/server tls: servers\/tls\.yaml:\d+:\d+: tls\.certPath/);
      expect(await refusedConnection(startable)).toBe(true);
      expect(other.requests()).toBe(0);
    } finally {
      other.child.kill();
    }
  }, 90_000);

  it('a ferry serve of another workspace on the port: refused, the holder named, nothing sent to it', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const other = await workspaceWithMock('other', port);
    const ws = await runnable('ws', port);
    const holder = await serving(other, data, port);
    try {
      const run = ferryProcess(['-w', ws, 'run', '--start-servers'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(2);
      expect(run.output.stderr).toBe(`ferry: --start-servers: server api did not start, so no request was sent: ${heldByServe(port, holder.child.pid!, other)}\n`);
      // The serve's traffic log shows no request.
      expect(holder.output.stdout).not.toContain('GET /ping');
    } finally {
      await stopped(holder);
    }
  }, 90_000);

  it('a ferry serve of this workspace serving another file on the port: refused', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await runnable('ws', port);
    // servers/copy.yaml: the same mock on the same port, served by `ferry serve copy`.
    await fs.writeFile(path.join(ws, 'servers', 'copy.yaml'), (await fs.readFile(path.join(ws, 'servers', 'api.yaml'), 'utf8')).replace('autoStart: true\n', ''));
    const holder = ferryProcess(['-w', ws, 'serve', 'copy'], { FERRY_DATA_DIR: data });
    try {
      await until(() => holder.output.stdout.includes(`http://127.0.0.1:${port}`), 'the serve to listen');
      const run = ferryProcess(['-w', ws, 'run', '--start-servers'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(2);
      expect(run.output.stderr).toContain(`server api did not start, so no request was sent: servers/api.yaml: port ${port} is already in use by another ferry serve (process ${holder.child.pid}, serving servers/copy.yaml of this workspace).`);
      expect(holder.output.stdout).not.toContain('GET /ping');
    } finally {
      await stopped(holder);
    }
  }, 90_000);

  it('a ferry run --start-servers of this workspace holding the port: refused, as it stops its servers when its own run ends', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await runnable('ws', port);
    // The first run's one extra request waits here until the test answers it: its server stays up till then.
    const waiting: ServerResponse[] = [];
    const slow = createServer((_request, response) => void waiting.push(response));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    await fs.writeFile(path.join(ws, 'requests', 'slow.yaml'), `name: slow\nmethod: GET\nurl: http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/slow\n`);
    const first = ferryProcess(['-w', ws, 'run', '--start-servers', 'slow'], { FERRY_DATA_DIR: data });
    try {
      await until(() => waiting.length === 1, "the first run's request");
      const second = ferryProcess(['-w', ws, 'run', '--start-servers', 'ping'], { FERRY_DATA_DIR: data });
      expect(await second.done, second.output.stderr).toBe(2);
      expect(second.output.stderr).toContain(`server api did not start, so no request was sent: servers/api.yaml: port ${port} is already in use by ferry run --start-servers (process ${first.child.pid}, serving servers/api.yaml of this workspace).`);
    } finally {
      for (const response of waiting) response.end('{}');
      expect(await first.done, first.output.stderr).toBe(0);
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  }, 90_000);
});

describe('ferry run --start-servers when this workspace already serves the file', () => {
  it('a ferry serve of this workspace serving the same file: the run uses it, saying so, and passes', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await runnable('ws', port);
    const holder = await serving(ws, data, port);
    try {
      const run = ferryProcess(['-w', ws, 'run', '--start-servers', '-r', 'json'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(0);
      expect(run.output.stderr).toBe(
        `ferry: server api was not started: servers/api.yaml is already served by ferry serve (process ${holder.child.pid}) of this workspace; using it (its answers use that process's environment and --var values, not this run's).\n`,
      );
      expect(JSON.parse(run.output.stdout).summary).toMatchObject({ requests: 1, failedRequests: 0, tests: 1, failedTests: 0 });
      // The serve answered it.
      await until(() => holder.output.stdout.includes('GET /ping'), "the serve's traffic line");
    } finally {
      await stopped(holder);
    }
  }, 90_000);

  it('a ferry app of this workspace running the same server: the run uses it, saying so', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await runnable('ws', port);
    const app = ferryProcess(['-w', ws, 'app', '--no-open'], { FERRY_DATA_DIR: data });
    try {
      await until(() => /token=[\w-]+/.test(app.output.stdout), 'the app to print its URL');
      const url = new URL(/http:\/\/\S+/.exec(app.output.stdout)![0]);
      const client = new ApiClient(Number(url.port));
      await client.login(url.searchParams.get('token')!);
      const started = await client.call('POST', '/api/servers/start', { id: 'api' });
      expect(started.status, started.text).toBe(200);
      const run = ferryProcess(['-w', ws, 'run', '--start-servers', '-r', 'json'], { FERRY_DATA_DIR: data });
      expect(await run.done, run.output.stderr).toBe(0);
      expect(run.output.stderr).toContain(`ferry: server api was not started: servers/api.yaml is already served by ferry app (process ${app.child.pid}) of this workspace; using it`);
      expect(JSON.parse(run.output.stdout).summary).toMatchObject({ requests: 1, failedRequests: 0 });
    } finally {
      app.child.kill('SIGINT');
      expect(await app.done).toBe(0);
    }
  }, 90_000);
});
