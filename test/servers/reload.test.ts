/** An edited server file takes effect while the server runs; a broken edit keeps the old settings. */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { eventually, makeWorkspace, send, serve, writeServer } from './helpers.js';

const server = (body: string, extra: Record<string, unknown> = {}) => ({ name: 'Live', http: { routes: [{ path: '/v', body }] }, ...extra });

describe('hot reload', () => {
  it('picks up an edited route without a restart, on the same port', async () => {
    const root = await makeWorkspace({ servers: { live: server('one') } });
    const handle = await serve(root);
    const running = handle.servers[0]!;
    const url = running.url;
    expect((await send(`${url}/v`)).body).toBe('one');
    await writeServer(root, 'live', server('two'));
    await eventually(async () => (await send(`${url}/v`)).body === 'two');
    expect(running.url).toBe(url);
    expect(handle.notices.some((n) => n.level === 'info' && n.message.includes('servers/live.yaml changed'))).toBe(true);
  });

  it('re-reads variables when the server file changes', async () => {
    const root = await makeWorkspace({ variables: [{ key: 'greeting', value: 'hello' }], servers: { live: server('{{greeting}}') } });
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    expect((await send(`${url}/v`)).body).toBe('hello');
    await fs.writeFile(path.join(root, 'ferry.yaml'), stringify({ version: 1, id: 'servers-test', name: 'x', variables: [{ key: 'greeting', value: 'bonjour' }] }));
    await new Promise((r) => setTimeout(r, 150));
    expect((await send(`${url}/v`)).body).toBe('hello'); // variables are read at start and on settings changes only
    await writeServer(root, 'live', server('{{greeting}}!'));
    await eventually(async () => (await send(`${url}/v`)).body === 'bonjour!');
  });

  it('a broken edit is reported with file and line, and the previous settings keep answering', async () => {
    const root = await makeWorkspace({ servers: { live: server('stable') } });
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    await writeServer(root, 'live', 'name: Live\nhttp:\n  routes:\n    - path: /v\n      body: [unclosed\n');
    await eventually(async () => handle.notices.some((n) => n.level === 'warning'));
    const warning = handle.notices.find((n) => n.level === 'warning')!;
    expect(warning.message).toMatch(/^servers\/live\.yaml:\d+:\d+: YAML syntax error/);
    expect(warning.message).toContain('keeps its previous settings');
    expect((await send(`${url}/v`)).body).toBe('stable');
    await writeServer(root, 'live', server('stable', { port: 70000 }));
    await eventually(async () => handle.notices.some((n) => /port: must be at most 65535/.test(n.message)));
    expect((await send(`${url}/v`)).body).toBe('stable');
    await writeServer(root, 'live', server('fixed'));
    await eventually(async () => (await send(`${url}/v`)).body === 'fixed');
  });

  it('a deleted file is reported as deleted; the server keeps answering and takes the file back when it returns', async () => {
    const root = await makeWorkspace({ servers: { live: server('kept') } });
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    await fs.rm(path.join(root, 'servers', 'live.yaml'));
    await eventually(async () => handle.notices.some((n) => n.level === 'warning'));
    expect(handle.notices.find((n) => n.level === 'warning')!.message).toBe(
      'servers/live.yaml was deleted; the server keeps running with its last settings until it is stopped, or picks the file up again when it comes back.',
    );
    expect((await send(`${url}/v`)).body).toBe('kept');
    await writeServer(root, 'live', server('back'));
    await eventually(async () => (await send(`${url}/v`)).body === 'back');
  });

  it('restarts the listener when TLS or the kind changes', async () => {
    const root = await makeWorkspace({ servers: { live: server('plain') } });
    const handle = await serve(root);
    const running = handle.servers[0]!;
    expect(running.url).toMatch(/^http:/);
    await writeServer(root, 'live', { name: 'Live', kind: 'sse', sse: { events: [{ data: 'tick' }] } });
    await eventually(async () => running.kind === 'sse');
    const answer = await send(`${running.url}/`, { timeoutMs: 300 }).catch((e: Error) => e);
    expect(answer).toBeInstanceOf(Error); // an event stream does not end: the client times out
    await writeServer(root, 'live', { ...server('tls'), tls: { enabled: true } });
    await eventually(async () => running.url.startsWith('https:'));
    expect(running.config.tls?.enabled).toBe(true);
  });

  it('an edit that moves the server to a taken port is refused; the previous settings come back', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      const root = await makeWorkspace({ servers: { live: server('before') } });
      const handle = await serve(root);
      const running = handle.servers[0]!;
      await writeServer(root, 'live', server('after', { port: taken }));
      await eventually(async () => handle.notices.some((n) => n.level === 'warning'));
      expect(handle.notices.find((n) => n.level === 'warning')!.message).toBe(
        `servers/live.yaml: port ${taken} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port). — the server keeps its previous settings.`,
      );
      expect(running.config.port).toBe(0);
      // Restarted with the previous settings (port 0: any free port again), answering as before.
      expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect((await send(`${running.url}/v`)).body).toBe('before');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('reload() re-reads on demand, and a server with watch off ignores edits', async () => {
    const root = await makeWorkspace({ servers: { live: server('a') } });
    const handle = await serve(root, { watch: false });
    const running = handle.servers[0]!;
    await writeServer(root, 'live', server('b'));
    await new Promise((r) => setTimeout(r, 200));
    expect((await send(`${running.url}/v`)).body).toBe('a');
    await running.reload();
    expect((await send(`${running.url}/v`)).body).toBe('b');
  });
});
