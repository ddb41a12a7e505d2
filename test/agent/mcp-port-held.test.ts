/**
 * `ferry mcp`'s servers and the ports they hold: the servers an agent starts with start_server are
 * recorded in the data folder as the other commands' are, so a `ferry serve` refused their port
 * names `ferry mcp` and stop_server; start_server refused a port names what holds it (another
 * Ferry process, or a server this `ferry mcp` started before), in the words every command uses.
 * The built bin/ferry.js driven by the MCP SDK's stdio client, real ports of 127.0.0.1.
 */
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferryProcess } from '../support/cli.js';
import { heldByServe, mcpAgent, serving, stopped, until, workspaceWithMock } from '../support/port-holders.js';
import { freePort } from '../support/servers/index.js';
import { isolatedDataDir } from '../support/temp.js';

describe('ferry mcp and the ports its servers hold', () => {
  it("start_server's port is recorded and named (with stop_server), start_server refused names the holder, the record goes when the agent leaves", async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const other = await freePort();
    const first = await workspaceWithMock('first', port);
    await fs.writeFile(path.join(first, 'servers', 'other.yaml'), `name: Other\nkind: http\nport: ${other}\n`);
    const second = await workspaceWithMock('second', port);
    const third = await workspaceWithMock('third', other);
    const agent = await mcpAgent(first, data);
    try {
      const started = await agent.call('start_server', { id: 'api' });
      expect(started.isError, started.text).toBe(false);
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done, refused.output.stderr).toBe(1);
      expect(refused.output.stderr).toBe(
        `ferry: server api did not start: servers/api.yaml: port ${port} is already in use by ferry mcp (process ${agent.pid}, serving servers/api.yaml of the workspace ${first}). Ask the agent that runs it to stop the server (its stop_server tool), or end that agent's session (kill ${agent.pid}), or set another port in servers/api.yaml (0 = any free port).\n` +
          'ferry: No server could start.\n',
      );
      // The other way round: a port a ferry serve holds, refused to start_server.
      const holder = await serving(third, data, other);
      try {
        const taken = await agent.call('start_server', { id: 'other' });
        expect(taken.isError).toBe(true);
        expect(taken.text).toContain(heldByServe(other, holder.child.pid!, third, 'servers/other.yaml'));
      } finally {
        await stopped(holder);
      }
    } finally {
      await agent.close();
    }
    await until(() => !existsSync(path.join(data, 'serving', `${agent.pid}.json`)), "ferry mcp's record to go");
    expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
  }, 90_000);

  it('a second start_server on the port of one it started names that one and stop_server', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const ws = await workspaceWithMock('ws', port);
    await fs.copyFile(path.join(ws, 'servers', 'api.yaml'), path.join(ws, 'servers', 'copy.yaml'));
    const agent = await mcpAgent(ws, data);
    try {
      expect((await agent.call('start_server', { id: 'api' })).isError).toBe(false);
      const refused = await agent.call('start_server', { id: 'copy' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(`servers/copy.yaml: port ${port} is already in use by servers/api.yaml of this workspace, started here with start_server. Stop it first with stop_server, or set another port in servers/copy.yaml (0 = any free port).`);
    } finally {
      await agent.close();
    }
  }, 90_000);

  it('its UDP server on the port number is not named for a TCP port another program holds', async () => {
    const data = await isolatedDataDir();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as net.AddressInfo).port;
    const ws = await workspaceWithMock('ws', port);
    await fs.writeFile(path.join(ws, 'servers', 'dgram.yaml'), `name: Datagrams\nkind: udp\nport: ${port}\n`);
    const agent = await mcpAgent(ws, data);
    try {
      const udp = await agent.call('start_server', { id: 'dgram' });
      expect(udp.isError, udp.text).toBe(false);
      const refused = await agent.call('start_server', { id: 'api' });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(`servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`);
    } finally {
      await agent.close();
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 90_000);
});
