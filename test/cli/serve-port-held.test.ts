/**
 * `ferry serve` refused a port that another `ferry serve` holds: it says that Ferry holds it
 * (which process, serving which file of which workspace) and how to stop it, where it used to say
 * "another program"; likewise a port held by the servers of `ferry run --start-servers` or of
 * `ferry app` (started from its API, as its Servers panel does). Every command refused such a
 * port says it in the same words: `ferry run --start-servers`, the app's Start (also for a port a
 * server it started before holds), an edit that moves a served port (`ferry mcp`:
 * test/agent/mcp-port-held). Real processes of bin/ferry.js on real ports of 127.0.0.1; a port
 * held by a program that is not Ferry still reads "another program", also when a killed Ferry's
 * record names its PID, or a Ferry serves UDP on the number.
 */
import { spawn } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../app/api-client.js';
import { ferry, ferryProcess } from '../support/cli.js';
import { heldByServe, serving, stopped, until, workspaceWithMock } from '../support/port-holders.js';
import { freePort } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

describe('ferry serve on a port another ferry serve holds', () => {
  it('names the other ferry serve (process, file, workspace) and how to stop it; its record goes when it stops', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port);
    const holder = ferryProcess(['-w', first, 'serve'], { FERRY_DATA_DIR: data });
    try {
      await until(() => holder.output.stdout.includes(`http://127.0.0.1:${port}`), 'the first serve to listen');
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done, refused.output.stderr).toBe(1);
      expect(refused.output.stderr).toBe(
        `ferry: server api did not start: servers/api.yaml: port ${port} is already in use by another ferry serve (process ${holder.child.pid}, serving servers/api.yaml of the workspace ${first}). Stop that one (Ctrl-C where it runs, or kill ${holder.child.pid}), or set another port in servers/api.yaml (0 = any free port).\n` +
          'ferry: No server could start.\n',
      );
      // The same workspace served twice says so.
      const again = ferryProcess(['-w', first, 'serve', '--json'], { FERRY_DATA_DIR: data });
      expect(await again.done).toBe(1);
      expect(again.output.stdout).toContain(`another ferry serve (process ${holder.child.pid}, serving servers/api.yaml of this workspace)`);
    } finally {
      holder.child.kill('SIGINT');
      expect(await holder.done).toBe(0);
    }
    // Its record went with it: nothing left in the data folder.
    expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
  }, 90_000);

  it('names a ferry run --start-servers that holds it (process, file, workspace) and how it ends; its record goes with the run', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    // The run's one request waits here until the test answers it: the run, and its server, stay up till then.
    const waiting: ServerResponse[] = [];
    const slow = createServer((_request, response) => void waiting.push(response));
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const first = await workspaceWithMock('first', port, 'autoStart: true\n');
    await fs.writeFile(path.join(first, 'requests', 'slow.yaml'), `name: slow\nmethod: GET\nurl: http://127.0.0.1:${(slow.address() as net.AddressInfo).port}/slow\n`);
    const second = await workspaceWithMock('second', port);
    const run = ferryProcess(['-w', first, 'run', '--start-servers'], { FERRY_DATA_DIR: data });
    try {
      await until(() => waiting.length === 1, "the run's request");
      expect(run.output.stderr).toContain(`Started server api at http://127.0.0.1:${port}`);
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done, refused.output.stderr).toBe(1);
      expect(refused.output.stderr).toBe(
        `ferry: server api did not start: servers/api.yaml: port ${port} is already in use by ferry run --start-servers (process ${run.child.pid}, serving servers/api.yaml of the workspace ${first}). It stops its servers when its run ends; to stop it now, Ctrl-C where it runs, or kill ${run.child.pid}, or set another port in servers/api.yaml (0 = any free port).\n` +
          'ferry: No server could start.\n',
      );
    } finally {
      for (const response of waiting) response.end('{}');
      expect(await run.done, run.output.stderr).toBe(0);
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
    expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
  }, 90_000);

  it('names a ferry app whose server holds it, and how to stop that server; its record goes when the server stops', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port);
    const app = ferryProcess(['-w', first, 'app', '--no-open'], { FERRY_DATA_DIR: data });
    try {
      await until(() => /token=[\w-]+/.test(app.output.stdout), 'the app to print its URL');
      const url = new URL(/http:\/\/\S+/.exec(app.output.stdout)![0]);
      const client = new ApiClient(Number(url.port));
      await client.login(url.searchParams.get('token')!);
      const started = await client.call('POST', '/api/servers/start', { id: 'api' });
      expect(started.status, started.text).toBe(200);
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done, refused.output.stderr).toBe(1);
      expect(refused.output.stderr).toContain(
        `servers/api.yaml: port ${port} is already in use by ferry app (process ${app.child.pid}, serving servers/api.yaml of the workspace ${first}). Stop the server in that app's Servers panel, or close the app (Ctrl-C where it runs, or kill ${app.child.pid}), or set another port in servers/api.yaml (0 = any free port).`,
      );
      // Stopped from the panel: the app runs on, and its record no longer holds the port.
      expect((await client.call('POST', '/api/servers/stop', { id: 'api' })).status).toBe(200);
      expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
    } finally {
      app.child.kill('SIGINT');
      expect(await app.done).toBe(0);
    }
  }, 90_000);

  it('a TCP port held by a program that is not Ferry reads "another program" while a ferry serve has a UDP server on the number', async () => {
    const data = await isolatedDataDir();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as net.AddressInfo).port;
    try {
      const udp = path.join(await tempDir(), 'udp');
      expect((await ferry(['init', udp])).code).toBe(0);
      await fs.mkdir(path.join(udp, 'servers'));
      await fs.writeFile(path.join(udp, 'servers', 'dgram.yaml'), `name: Datagrams\nkind: udp\nport: ${port}\n`);
      const holder = ferryProcess(['-w', udp, 'serve'], { FERRY_DATA_DIR: data });
      try {
        await until(() => holder.output.stdout.includes(`udp://127.0.0.1:${port}`), 'the UDP server to listen');
        const refused = ferryProcess(['-w', await workspaceWithMock('ws', port), 'serve'], { FERRY_DATA_DIR: data });
        expect(await refused.done).toBe(1);
        expect(refused.output.stderr).toContain(`servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`);
      } finally {
        await stopped(holder);
      }
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);

  it('a port held by a program that is not Ferry still reads "another program"', async () => {
    const data = await isolatedDataDir();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as net.AddressInfo).port;
    try {
      const ws = await workspaceWithMock('ws', port);
      const refused = ferryProcess(['-w', ws, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done).toBe(1);
      expect(refused.output.stderr).toContain(`servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);
});

describe('every command refused a port that another Ferry holds names it in the same words', () => {
  it('ferry run --start-servers: its server refused, the run names the ferry serve that holds the port', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port, 'autoStart: true\n');
    const holder = await serving(first, data, port);
    try {
      const run = ferryProcess(['-w', second, 'run', '--start-servers'], { FERRY_DATA_DIR: data });
      expect(await run.done).toBe(2);
      expect(run.output.stderr).toContain(`ferry: --start-servers: server api did not start, so no request was sent: ${heldByServe(port, holder.child.pid!, first)}\n`);
      expect(run.output.stderr).not.toContain('another program');
    } finally {
      await stopped(holder);
    }
  }, 90_000);

  it("ferry app: its server's Start refused, the app answers and lists the ferry serve that holds the port", async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port);
    const holder = await serving(first, data, port);
    const app = ferryProcess(['-w', second, 'app', '--no-open'], { FERRY_DATA_DIR: data });
    try {
      await until(() => /token=[\w-]+/.test(app.output.stdout), 'the app to print its URL');
      const url = new URL(/http:\/\/\S+/.exec(app.output.stdout)![0]);
      const client = new ApiClient(Number(url.port));
      await client.login(url.searchParams.get('token')!);
      const refused = await client.call('POST', '/api/servers/start', { id: 'api' });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain(JSON.stringify(heldByServe(port, holder.child.pid!, first)));
      // The Servers panel shows the same refusal beside the server.
      const listed = await client.call('GET', '/api/servers');
      expect((listed.body as Array<{ id: string; startError?: string }>).find((s) => s.id === 'api')?.startError).toBe(heldByServe(port, holder.child.pid!, first));
    } finally {
      app.child.kill('SIGINT');
      expect(await app.done).toBe(0);
      await stopped(holder);
    }
  }, 90_000);

  it('ferry serve: an edit that moves a server to a port another ferry serve holds names it; the server keeps its port', async () => {
    const data = await isolatedDataDir();
    const held = await freePort();
    const own = await freePort();
    const first = await workspaceWithMock('first', held);
    const second = await workspaceWithMock('second', own);
    const holder = await serving(first, data, held);
    const moving = await serving(second, data, own);
    try {
      await fs.writeFile(path.join(second, 'servers', 'api.yaml'), (await fs.readFile(path.join(second, 'servers', 'api.yaml'), 'utf8')).replace(`port: ${own}`, `port: ${held}`));
      await until(() => moving.output.stderr.includes('keeps its previous settings'), 'the edit to be refused');
      expect(moving.output.stderr).toContain(`ferry: ${heldByServe(held, holder.child.pid!, first)} — the server keeps its previous settings.\n`);
      // Still recorded on its own port, which it still answers.
      expect(JSON.parse(await fs.readFile(path.join(data, 'serving', `${moving.child.pid}.json`), 'utf8')).servers).toEqual([{ file: 'servers/api.yaml', port: own, kind: 'http', workspace: second }]);
      expect(await (await fetch(`http://127.0.0.1:${own}/ping`)).text()).toBe('pong');
    } finally {
      await stopped(moving);
      await stopped(holder);
    }
  }, 90_000);

});

describe('a record without its command (written before commands were recorded: only ferry serve wrote one then)', () => {
  it('names the holder as another ferry serve, as it did', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    // A real process holding the port, with the record such a Ferry wrote: no command, no start time.
    const program = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`]);
    try {
      await new Promise<void>((resolve) => program.stdout.once('data', () => resolve()));
      await fs.mkdir(path.join(data, 'serving'), { recursive: true });
      await fs.writeFile(path.join(data, 'serving', `${program.pid}.json`), JSON.stringify({ pid: program.pid, servers: [{ file: 'servers/api.yaml', port, workspace: first }] }));
      const refused = ferryProcess(['-w', await workspaceWithMock('second', port), 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done).toBe(1);
      expect(refused.output.stderr).toContain(heldByServe(port, program.pid!, first));
    } finally {
      program.kill();
    }
  }, 60_000);
});

describe('a port that a server the same process started before holds', () => {
  it("ferry app: a second server's Start on the port of one it runs names that one and the panel's Stop", async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await workspaceWithMock('ws', port);
    await fs.copyFile(path.join(ws, 'servers', 'api.yaml'), path.join(ws, 'servers', 'copy.yaml'));
    const app = ferryProcess(['-w', ws, 'app', '--no-open'], { FERRY_DATA_DIR: data });
    try {
      await until(() => /token=[\w-]+/.test(app.output.stdout), 'the app to print its URL');
      const url = new URL(/http:\/\/\S+/.exec(app.output.stdout)![0]);
      const client = new ApiClient(Number(url.port));
      await client.login(url.searchParams.get('token')!);
      expect((await client.call('POST', '/api/servers/start', { id: 'api' })).status).toBe(200);
      const refused = await client.call('POST', '/api/servers/start', { id: 'copy' });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.text).toContain(JSON.stringify(`servers/copy.yaml: port ${port} is already in use by servers/api.yaml of this workspace, running in this app. Stop it in the Servers panel first, or set another port in servers/copy.yaml (0 = any free port).`));
      // Once that one is stopped, the port is the other's.
      expect((await client.call('POST', '/api/servers/stop', { id: 'api' })).status).toBe(200);
      expect((await client.call('POST', '/api/servers/start', { id: 'copy' })).status).toBe(200);
    } finally {
      app.child.kill('SIGINT');
      expect(await app.done).toBe(0);
    }
  }, 90_000);

});

describe('a record of a Ferry that was killed', () => {
  // The PID a killed ferry serve had, given since to a program that is not Ferry (here the record
  // is moved to that program's PID: a system cannot be made to hand out a given PID).
  it.runIf(existsSync('/proc/self/stat'))('whose PID another program has since is not named: "another program", and the record is removed', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port);
    const killed = await serving(first, data, port);
    killed.child.kill('SIGKILL');
    await killed.done;
    const record = path.join(data, 'serving', `${killed.child.pid}.json`);
    const left = JSON.parse(await fs.readFile(record, 'utf8')) as { pid: number };
    // Not Ferry, holding the port the killed serve had.
    const program = spawn(process.execPath, ['-e', `require('net').createServer().listen(${port}, '127.0.0.1', () => console.log('listening'))`]);
    try {
      await new Promise<void>((resolve) => program.stdout.once('data', () => resolve()));
      await fs.writeFile(path.join(data, 'serving', `${program.pid}.json`), JSON.stringify({ ...left, pid: program.pid }));
      await fs.rm(record);
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done).toBe(1);
      expect(refused.output.stderr).toContain(`servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`);
      expect(refused.output.stderr).not.toContain(`process ${program.pid}`);
      expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
    } finally {
      program.kill();
    }
  }, 90_000);

  it('whose process is gone is not named, and the record is removed', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const killed = await serving(first, data, port);
    killed.child.kill('SIGKILL');
    await killed.done;
    expect(await fs.readdir(path.join(data, 'serving'))).toEqual([`${killed.child.pid}.json`]);
    // Another Ferry serves the port now: it is the one named.
    const again = await serving(first, data, port);
    try {
      const refused = ferryProcess(['-w', await workspaceWithMock('second', port), 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done).toBe(1);
      expect(refused.output.stderr).toContain(`process ${again.child.pid}, serving servers/api.yaml of the workspace ${first}`);
      expect(await fs.readdir(path.join(data, 'serving'))).toEqual([`${again.child.pid}.json`]);
    } finally {
      await stopped(again);
    }
  }, 90_000);
});
