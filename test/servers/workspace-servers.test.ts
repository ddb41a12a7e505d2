/** startWorkspaceServers: what `ferry serve`, `ferry run --start-servers` and the app share. */
import { afterEach, describe, expect, it } from 'vitest';
import dgram from 'node:dgram';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ServerError, startServers, startWorkspaceServers, type WorkspaceServers } from '../../src/servers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir } from '../support/temp.js';
import { makeWorkspace, send } from './helpers.js';

const handles: WorkspaceServers[] = [];
afterEach(async () => {
  while (handles.length) await handles.pop()!.stop();
});

const hello = { name: 'API', http: { routes: [{ path: '/who', body: '{{who}} on {{stage}}' }] } };

describe('startWorkspaceServers', () => {
  it('takes the environment by display name, --var values over it, and names the environment used', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      environments: { staging: [{ key: 'stage', value: 'staging' }, { key: 'who', value: 'env' }] },
      servers: { api: hello, open: { ...hello, host: '0.0.0.0', autoStart: true } },
    });
    const handle = await startWorkspaceServers(await openWorkspace(root), { env: 'STAGING', vars: new Map([['who', 'cli']]), ids: ['api'], watch: false });
    handles.push(handle);
    expect(handle.environment).toBe('staging');
    expect(handle.exposed).toEqual([]);
    expect((await send(`${handle.servers[0]!.url}/who`)).body).toBe('cli on staging');

    const auto = await startWorkspaceServers(await openWorkspace(root), { autoStartOnly: true, watch: false });
    handles.push(auto);
    expect(auto.servers.map((s) => s.id)).toEqual(['open']);
    expect(auto.environment).toBeUndefined();
    expect(auto.exposed).toEqual([{ server: 'open', level: 'warning', message: expect.stringContaining('servers/open.yaml listens on 0.0.0.0 (host)') }]);
  });

  it('refuses an unknown environment before anything starts', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ environments: { local: [] }, servers: { api: hello } });
    const started = startWorkspaceServers(await openWorkspace(root), { env: 'nope', watch: false });
    await expect(started).rejects.toThrow(ServerError);
    await expect(started).rejects.toThrow('No environment "nope". Environments here: local.');
  });

  it("a port two servers of a batch both ask for is named in the failure only when they share a transport (the kind table's listensOn)", async () => {
    await isolatedDataDir();
    // A port free for TCP and for UDP alike: another test's UDP socket may hold one TCP finds free
    // (the failure then said "in use by another program", not this workspace's file).
    const port = await portFreeForBoth();
    const root = await makeWorkspace({
      servers: {
        datagrams: { name: 'Datagrams', kind: 'udp', port },
        names: { name: 'Names', kind: 'dns', port, dns: { records: [] } },
        stream: { name: 'Stream', kind: 'tcp', port },
      },
    });
    const handle = await startServers(await openWorkspace(root), { watch: false });
    try {
      // DNS listens on UDP and TCP: it shares a transport with each of the others, which hold the port.
      const started = handle.servers.map((s) => s.id).sort();
      const failed = handle.failures.map((f) => f.id).sort();
      expect([...started, ...failed].sort()).toEqual(['datagrams', 'names', 'stream']);
      // UDP and TCP on one port do not clash; whichever of them lost to DNS names DNS's file, and DNS names one of theirs.
      for (const failure of handle.failures) {
        expect(failure.message).toMatch(new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already taken by servers/(datagrams|names|stream)\\.yaml of this workspace`));
      }
      if (started.includes('names')) expect(failed).toEqual(['datagrams', 'stream']);
      else expect(started).toEqual(['datagrams', 'stream']);
    } finally {
      await handle.stop();
    }
  });
});

/** A loopback port nothing listens on over TCP or UDP just now. */
async function portFreeForBoth(): Promise<number> {
  for (;;) {
    const probe = net.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const udp = dgram.createSocket('udp4');
    const free = await new Promise<boolean>((resolve) => {
      udp.once('error', () => resolve(false));
      udp.bind(port, '127.0.0.1', () => resolve(true));
    });
    await new Promise<void>((resolve) => udp.close(() => resolve()));
    if (free) return port;
  }
}
