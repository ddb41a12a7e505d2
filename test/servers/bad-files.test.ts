/** Bad server files and settings: each gets a clear message naming the file, and the others still run. */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { makeWorkspace, send, serve } from './helpers.js';

const ok = { name: 'Fine', http: { routes: [{ path: '/ok', body: 'ok' }] } };

describe('bad server files', () => {
  it('reports unknown kinds, ports out of range and route paths without / with file:line, and starts the rest', async () => {
    const root = await makeWorkspace({
      servers: {
        fine: ok,
        kind: 'name: K\nkind: gopher\n',
        port: 'name: P\nport: 70000\n',
        negative: 'name: N\nport: -1\n',
        route: 'name: R\nhttp:\n  routes:\n    - path: users\n',
        notyaml: 'name: [oops\n',
        list: '- a\n- b\n',
      },
    });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id)).toEqual(['fine']);
    expect((await send(`${handle.servers[0]!.url}/ok`)).body).toBe('ok');
    const byId = Object.fromEntries(handle.failures.map((f) => [f.id, f.message]));
    expect(byId.kind).toMatch(/^servers\/kind\.yaml:2:7: kind: expected one of http, mcp, websocket, socketio, sse, tcp, udp, dns, tcpProxy, got text "gopher"/);
    expect(byId.port).toMatch(/^servers\/port\.yaml:2:7: port: must be at most 65535/);
    expect(byId.negative).toMatch(/^servers\/negative\.yaml:2:7: port: must be at least 0/);
    expect(byId.route).toMatch(/^servers\/route\.yaml:4:\d+: http\.routes\[0\]\.path: a route path must start with \//);
    expect(byId.notyaml).toMatch(/^servers\/notyaml\.yaml:\d+:\d+: YAML syntax error/);
    expect(byId.list).toMatch(/expected a mapping/);
    for (const message of Object.values(byId)) expect(message).toContain('fix the file to start this server');
  });

  it('refuses a socket kind whose settings cannot load, naming the field, while the others run', async () => {
    const root = await makeWorkspace({ servers: { ws: { name: 'WS', kind: 'websocket', websocket: { mode: 'rules', rules: [{ reply: 'x', delayMs: 3_000_000_000 }] } }, fine: ok } });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id)).toEqual(['fine']);
    expect(handle.failures).toEqual([{ id: 'ws', message: expect.stringMatching(/^servers\/ws\.yaml:\d+:\d+: websocket\.rules\[0\]\.delayMs: 3000000000 ms is longer than a server can wait/) }]);
  });

  it("names a rule, record, tool, resource or prompt by the same index whether the format or the kind refuses it (as the file's fields are counted, from 0)", async () => {
    const ws = (second: object) => ({ name: 'WS', kind: 'websocket', websocket: { mode: 'rules', rules: [{ pattern: 'a', reply: 'b' }, second] } });
    const dns = (value: string, type = 'A') => ({ name: 'N', kind: 'dns', dns: { records: [{ name: 'ok.test', type: 'A', value: '127.0.0.1' }, { name: 'b.test', type, value }] } });
    const root = await makeWorkspace({
      servers: {
        fine: ok,
        wsformat: ws({ match: 'sometimes', pattern: 'x' }),
        wskind: ws({ match: 'regex', pattern: '(' }),
        sio: { name: 'S', kind: 'socketio', socketio: { mode: 'rules', rules: [{ event: 'a' }, { event: 'b', match: 'regex', pattern: '(' }] } },
        dnsformat: dns('127.0.0.2', 'AX'),
        dnskind: dns('not an address'),
        mcp: { name: 'M', kind: 'mcp', mcp: { tools: [{ name: 't' }, { name: 'u', inputSchema: '{' }], resources: [{ uri: 'file:///a' }, { uri: '' }], prompts: [{ name: 'p' }, { name: '' }] } },
      },
    });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id)).toEqual(['fine']);
    const byId = Object.fromEntries(handle.failures.map((f) => [f.id, f.message]));
    expect(byId.wsformat).toMatch(/^servers\/wsformat\.yaml:\d+:\d+: websocket\.rules\[1\]\.match: expected one of/);
    expect(byId.wskind).toMatch(/^servers\/wskind\.yaml:\d+:\d+: websocket\.rules\[1\]: pattern "\(" is not a regular expression/);
    expect(byId.sio).toMatch(/^servers\/sio\.yaml:\d+:\d+: socketio\.rules\[1\]: pattern "\(" is not a regular expression/);
    expect(byId.dnsformat).toMatch(/^servers\/dnsformat\.yaml:\d+:\d+: dns\.records\[1\]\.type: expected one of/);
    expect(byId.dnskind).toMatch(/^servers\/dnskind\.yaml:\d+:\d+: dns\.records\[1\] \(b\.test A\): value "not an address" is not an IPv4 address/);
    expect(byId.mcp).toMatch(/^servers\/mcp\.yaml:\d+:\d+: mcp\.tools\[1\] \(u\): inputSchema is not JSON/);
  });

  it('refuses a delayMs or intervalMs longer than a timer can hold, and 1xx statuses, instead of answering at once', async () => {
    const root = await makeWorkspace({
      servers: {
        fine: ok,
        // As text, so the lines and columns below can be counted.
        slow: 'name: Slow\nhttp:\n  routes:\n    - path: /ok\n    - path: /late\n      delayMs: 3000000000\n',
        ticks: 'name: Ticks\nkind: sse\nsse:\n  intervalMs: 2147483648\n  repeat: true\n  events:\n    - data: a\n',
        longest: { name: 'Longest', http: { routes: [{ path: '/l', delayMs: 2_147_483_647 }] } },
        interim: 'name: Interim\nhttp:\n  routes:\n    - path: /ok\n    - path: /c\n      status: 100\n',
      },
    });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id).sort()).toEqual(['fine', 'longest']);
    const byId = Object.fromEntries(handle.failures.map((f) => [f.id, f.message]));
    expect(byId).toEqual({
      // An interim status would leave the client waiting for an answer that never comes.
      interim: 'servers/interim.yaml:6:15: http.routes[1].status: 100 is an interim status (1xx) that cannot end a request; give 200 to 999.',
      slow: 'servers/slow.yaml:6:16: http.routes[1].delayMs: 3000000000 ms is longer than a server can wait; give at most 2147483647 (about 24 days).',
      ticks: 'servers/ticks.yaml:4:15: sse.intervalMs: 2147483648 ms is longer than a server can wait; give at most 2147483647 (about 24 days).',
    });
  });

  it('says so when the port is taken, and keeps the others running', async () => {
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const root = await makeWorkspace({ servers: { taken: { ...ok, name: 'Taken', port }, fine: ok } });
      const handle = await serve(root);
      expect(handle.servers.map((s) => s.id)).toEqual(['fine']);
      expect(handle.failures[0]!.message).toBe(
        `servers/taken.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`,
      );
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('two servers of the workspace on one port: the one that did not start names the other, not "another program"', async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as net.AddressInfo).port;
    await new Promise((r) => probe.close(r));
    // A UDP server on that port too: another transport, so it starts beside either of them.
    const root = await makeWorkspace({ servers: { first: { ...ok, name: 'First', port }, second: { ...ok, name: 'Second', port }, datagrams: { name: 'Datagrams', kind: 'udp', port } } });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id).sort()).toHaveLength(2);
    expect(handle.servers.map((s) => s.id)).toContain('datagrams');
    const started = handle.servers.find((s) => s.id !== 'datagrams')!.id;
    const failed = started === 'first' ? 'second' : 'first';
    expect(handle.failures).toEqual([
      {
        id: failed,
        message: `servers/${failed}.yaml: port ${port} on 127.0.0.1 is already taken by servers/${started}.yaml of this workspace, started with it. Give one of them another port (0 = any free port).`,
      },
    ]);
  });

  it('names unknown server ids and unknown environments', async () => {
    const root = await makeWorkspace({ servers: { fine: ok }, environments: { dev: [] } });
    const unknown = await serve(root, { ids: ['nope'] });
    expect(unknown.failures).toEqual([{ id: 'nope', message: 'No server "nope": there is no servers/nope.yaml. Servers here: fine.', unknown: true }]);
    // A file that cannot be read is named too, as for environments and load tests.
    const withBroken = await makeWorkspace({ servers: { fine: ok }, files: { 'servers/bad.yaml': 'name: [unclosed\n' } });
    expect((await serve(withBroken, { ids: ['nope'] })).failures[0]!.message).toBe('No server "nope": there is no servers/nope.yaml. Servers here: fine. Files that cannot be read: bad (ferry ls says why).');
    const env = await serve(root, { environment: 'prod' });
    expect(env.failures[0]!.message).toBe('No environment "prod": environments/prod.yaml does not exist. Environments here: dev.');
    const hostile = await serve(root, { environment: '../../etc/passwd' });
    expect(hostile.failures[0]!.message).toMatch(/is not an environment id/);
  });

  it('starts only autoStart servers when asked, and the ids given otherwise', async () => {
    const root = await makeWorkspace({ servers: { auto: { ...ok, name: 'Auto', autoStart: true }, manual: ok, broken: 'port: x\n' } });
    const auto = await serve(root, { autoStartOnly: true });
    expect(auto.servers.map((s) => s.id)).toEqual(['auto']);
    expect(auto.failures).toEqual([]);
    const some = await serve(root, { ids: ['manual', 'servers/auto.yaml'] });
    expect(some.servers.map((s) => s.id).sort()).toEqual(['auto', 'manual']);
  });

  it('answers 413 to a request body larger than a mock route reads', async () => {
    const root = await makeWorkspace({ servers: { api: { name: 'A', http: { routes: [{ path: '/b', method: 'POST', matchBody: 'x', body: 'got' }] } } } });
    const handle = await serve(root);
    const answer = await send(`${handle.servers[0]!.url}/b`, { method: 'POST', body: Buffer.alloc(33 * 1024 * 1024, 0x78), timeoutMs: 20_000 });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatch(/over 32 MB/);
    expect((await send(`${handle.servers[0]!.url}/b`, { method: 'POST', body: 'x' })).body).toBe('got');
  });
  it('starts a server whose other kinds\' sections do not fit the format, and keeps those sections as written (2.11)', async () => {
    // Left from switching the kind: the websocket and dns sections are wrong, but only `http` is used.
    const text = 'name: Switched\nhttp:\n  routes:\n    - path: /ok\n      body: ok\nwebsocket:\n  mode: shout\ndns: [not, a, section]\n';
    const root = await makeWorkspace({ servers: { switched: text, broken: 'name: B\nkind: dns\ndns:\n  records: 7\n' } });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id)).toEqual(['switched']);
    expect((await send(`${handle.servers[0]!.url}/ok`)).body).toBe('ok');
    // The kind's own section is still checked.
    expect(handle.failures).toEqual([{ id: 'broken', message: expect.stringMatching(/^servers\/broken\.yaml:4:\d+: dns\.records: /) }]);
  });
});
