/** Common settings: host, port, the reported URL. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, send, serve } from './helpers.js';
import { freePort } from '../support/servers/index.js';

const routes = { routes: [{ path: '/ok', body: 'ok' }] };

describe('host and port', () => {
  it('port 0 takes any free port and reports it; a fixed port is used as given', async () => {
    const fixed = await freePort();
    const root = await makeWorkspace({ servers: { any: { name: 'Any', http: routes }, fixed: { name: 'Fixed', port: fixed, http: routes } } });
    const handle = await serve(root);
    const byId = Object.fromEntries(handle.servers.map((s) => [s.id, s]));
    expect(byId.any!.port).toBeGreaterThan(0);
    expect(byId.any!.url).toBe(`http://127.0.0.1:${byId.any!.port}`);
    expect(byId.fixed!.url).toBe(`http://127.0.0.1:${fixed}`);
    expect((await send(`${byId.fixed!.url}/ok`)).body).toBe('ok');
  });

  it('host 0.0.0.0 listens on every address (this computer included); the URL names 127.0.0.1', async () => {
    const root = await makeWorkspace({ servers: { all: { name: 'All', host: '0.0.0.0', http: routes }, local: { name: 'Local', http: routes } } });
    const handle = await serve(root);
    expect(handle.failures).toEqual([]);
    const all = handle.servers.find((s) => s.id === 'all')!;
    expect(all.url).toBe(`http://127.0.0.1:${all.port}`);
    expect((await send(`${all.url}/ok`)).body).toBe('ok');
    // Bound to the wildcard address: the port is taken on 0.0.0.0, not only on 127.0.0.1.
    const probe = net.createServer();
    const error = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      probe.once('error', resolve);
      probe.listen({ host: '0.0.0.0', port: all.port, exclusive: true }, () => resolve(undefined));
    });
    if (error === undefined) await new Promise((r) => probe.close(r));
    expect(error?.code).toBe('EADDRINUSE');
    const local = handle.servers.find((s) => s.id === 'local')!;
    expect(local.url).toBe(`http://127.0.0.1:${local.port}`);
  });
});
