/**
 * Server kinds by transport: the one table and its refusal of kinds not built yet; a kind that owns
 * its socket and one that takes HTTP upgrades on the shared listener, run through the same
 * start/reload/stop lifecycle over real sockets on 127.0.0.1.
 */
import net from 'node:net';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_KINDS, type ServerKind } from '../../src/model/index.js';
import {
  bindFailure,
  isServerKindBuilt,
  NEW_SERVER_KIND_PICKED,
  NEW_SERVER_KINDS,
  SERVER_KIND_INFO,
  SERVER_KIND_MODULES,
  TrafficLog,
  ServerError,
  serverKindModule,
  loadServerKind,
  startServer,
  type Listener,
  type RunningServer,
  type ServerKindModule,
  type TrafficRecord,
} from '../../src/servers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { eventually, makeWorkspace, send, serve, writeServer } from './helpers.js';

const started: RunningServer[] = [];
afterEach(async () => {
  while (started.length) await started.pop()!.stop();
});

/** An own-socket kind for the test: a TCP server answering `<name>:<message>`, one record per message. */
const tcpEcho: ServerKindModule = {
  kind: 'tcp',
  transport: 'ownSocket',
  create(context) {
    let name = '';
    return {
      configure: ({ server }) => {
        name = server.name;
      },
      openStreams: () => 0,
      close: () => {},
      listen: (bind) =>
        new Promise<Listener>((resolve, reject) => {
          const sockets = new Set<net.Socket>();
          const server = net.createServer((socket) => {
            sockets.add(socket);
            socket.once('close', () => sockets.delete(socket));
            socket.on('data', (data) => {
              const reply = `${name}:${data.toString()}`;
              socket.write(reply);
              const record: TrafficRecord<{ text: string }> = {
                kind: 'tcp', server: context.id, time: Date.now(), direction: 'in', summary: `← ${data.toString()}`,
                level: 'info', durationMs: 0, bytesIn: data.length, bytesOut: Buffer.byteLength(reply), detail: { text: data.toString() },
              };
              context.traffic.add(record);
            });
          });
          server.once('error', (error) => reject(new ServerError(bindFailure(error, bind))));
          server.listen({ host: bind.host, port: bind.port, exclusive: true }, () => {
            const port = (server.address() as net.AddressInfo).port;
            resolve({
              url: `tcp://127.0.0.1:${port}`,
              port,
              connections: () => sockets.size,
              close: () =>
                new Promise<void>((done) => {
                  for (const socket of sockets) socket.destroy();
                  server.close(() => done());
                }),
            });
          });
        }),
    };
  },
};

/** A shared-listener kind taking upgrades: 101, then every byte echoed; plain requests get 426. */
const upgradeEcho: ServerKindModule = {
  kind: 'websocket',
  transport: 'sharedHttp',
  create: () => ({
    configure: () => {},
    openStreams: () => 0,
    close: () => {},
    handle: (_req, res) => {
      res.writeHead(426, { 'content-type': 'text/plain' });
      res.end('upgrade required');
    },
    upgrade: (_req, socket) => {
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n');
      socket.on('data', (data) => socket.write(data));
    },
  }),
};

async function startOne(id: string, file: Record<string, unknown>, kinds: Parameters<typeof startServer>[2]): Promise<{ server: RunningServer; root: string }> {
  const root = await makeWorkspace({ servers: { [id]: file } });
  const entry = (await openWorkspace(root)).servers.find((s) => s.id === id)!;
  const server = await startServer(entry, { root, watch: false }, kinds);
  started.push(server);
  return { server, root };
}

/** Connects, writes, and resolves with the first `bytes` bytes that come back. */
async function exchange(port: number, text: string, bytes: number): Promise<{ reply: string; socket: net.Socket }> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write(text);
  let reply = '';
  while (reply.length < bytes) reply += ((await once(socket, 'data')) as [Buffer])[0].toString();
  return { reply, socket };
}

describe('the kind table', () => {
  it('has one row per built kind, each naming its kind and transport (lazy rows once loaded)', async () => {
    for (const [kind, row] of Object.entries(SERVER_KIND_MODULES)) {
      expect(row!.kind).toBe(kind);
      const module = await loadServerKind(kind as ServerKind, `servers/${kind}.yaml`);
      expect(module.kind).toBe(kind);
      expect(['sharedHttp', 'ownSocket']).toContain(module.transport);
    }
    expect(SERVER_KINDS.filter(isServerKindBuilt)).toEqual([...SERVER_KINDS]);
  });

  it('refuses a kind not built yet in one place, naming the file, the kind and what runs', () => {
    expect(serverKindModule('http', 'servers/api.yaml')).toBe(SERVER_KIND_MODULES.http);
    // Every kind of the format is built; a table without a row stands for an older version.
    const partial = { http: SERVER_KIND_MODULES.http, sse: SERVER_KIND_MODULES.sse };
    for (const kind of SERVER_KINDS.filter((k) => k !== 'http' && k !== 'sse')) {
      expect(() => serverKindModule(kind, `servers/${kind}.yaml`, partial)).toThrow(ServerError);
      expect(() => serverKindModule(kind, `servers/${kind}.yaml`, partial)).toThrow(
        `servers/${kind}.yaml: kind: ${kind} servers are not supported by this version of Ferry yet (supported: http, sse).`,
      );
    }
  });

  it('what each kind says about itself (SERVER_KIND_INFO, the app\'s servers panel) agrees with what its instances do', async () => {
    expect(Object.keys(SERVER_KIND_INFO)).toEqual([...SERVER_KINDS]);
    expect([...NEW_SERVER_KINDS].sort()).toEqual([...SERVER_KINDS].sort());
    expect(NEW_SERVER_KINDS).toContain(NEW_SERVER_KIND_PICKED);
    for (const kind of SERVER_KINDS) {
      const info = SERVER_KIND_INFO[kind];
      expect(info.label && info.noun && info.sectionHint && info.directions.in && info.directions.out, kind).toBeTruthy();
      const module = await loadServerKind(kind, `servers/${kind}.yaml`);
      const instance = module.create({ id: kind, file: `servers/${kind}.yaml`, traffic: new TrafficLog(1) });
      // The panel offers the send (and words it) for the kinds that declare it: exactly those that push.
      expect(info.send !== undefined, `${kind}: send declared`).toBe(instance.push !== undefined);
      expect(info.send?.eventPlaceholder !== undefined, `${kind}: eventPlaceholder declared`).toBe(instance.sendForm?.event === true);
      instance.close();
    }
    // The editor's hint names the fields spec 2.11 gives the kind: lineEnding for all three, the
    // greeting for WebSocket and TCP only, encoding for TCP and UDP, framing for TCP only.
    const named = (kind: 'websocket' | 'tcp' | 'udp') => ['greeting', 'encoding', 'framing', 'lengthBytes', 'lineEnding'].filter((f) => SERVER_KIND_INFO[kind].sectionHint.includes(f));
    expect(named('websocket')).toEqual(['greeting', 'lineEnding']);
    expect(named('tcp')).toEqual(['greeting', 'encoding', 'framing', 'lengthBytes', 'lineEnding']);
    expect(named('udp')).toEqual(['encoding', 'lineEnding']);
  });

  it('the kinds that declare TLS (the editor offers it for them) are the six of spec 2.11, and start with it; the others refuse it, saying what to set', async () => {
    const declared = SERVER_KINDS.filter((kind) => SERVER_KIND_INFO[kind].tls);
    expect(declared).toEqual(['http', 'mcp', 'websocket', 'socketio', 'sse', 'tcp']);
    const servers = Object.fromEntries(SERVER_KINDS.map((kind) => [kind, {
      name: kind, kind, tls: { enabled: true }, ...(kind === 'tcpProxy' ? { proxy: { target: '127.0.0.1:9' } } : {}),
    }]));
    const root = await makeWorkspace({ servers });
    const handle = await serve(root);
    expect(handle.servers.map((s) => s.id).sort()).toEqual([...declared].sort());
    expect(handle.failures.map((f) => f.message).sort()).toEqual([
      'servers/dns.yaml:4:3: tls: the DNS server has no TLS; set tls.enabled to false.',
      'servers/tcpProxy.yaml:4:3: tls: the TCP relay takes plain TCP from clients; set tls.enabled to false (upstreamTls speaks TLS to the target).',
      'servers/udp.yaml:4:3: tls: a UDP server has no TLS; set tls.enabled to false.',
    ]);
  });

  it('a table given to startServer is the one asked', async () => {
    const root = await makeWorkspace({ servers: { api: { name: 'API', http: { routes: [] } } } });
    const entry = (await openWorkspace(root)).servers[0]!;
    await expect(startServer(entry, { root, watch: false }, { sse: SERVER_KIND_MODULES.sse })).rejects.toThrow(
      'servers/api.yaml: kind: http servers are not supported by this version of Ferry yet (supported: sse).',
    );
  });
});

describe('a kind that owns its socket', () => {
  it('binds, answers, takes an edit on the same port, moves on a port change, and frees the port on stop', async () => {
    const { server, root } = await startOne('echo', { name: 'one', kind: 'tcp' }, { tcp: tcpEcho });
    expect(server.url).toBe(`tcp://127.0.0.1:${server.port}`);
    const first = await exchange(server.port, 'hi', 'one:hi'.length);
    expect(first.reply).toBe('one:hi');
    expect(server.openConnections()).toBe(1);
    await eventually(async () => server.traffic.recent().length === 1);
    expect(server.traffic.recent()[0]).toMatchObject({ kind: 'tcp', server: 'echo', direction: 'in', summary: '← hi', bytesIn: 2, bytesOut: 6, detail: { text: 'hi' } });

    // Same host and port: the instance takes the new settings, the connection stays.
    await writeServer(root, 'echo', { name: 'two', kind: 'tcp' });
    await server.reload();
    first.socket.write('again');
    expect(((await once(first.socket, 'data')) as [Buffer])[0].toString()).toBe('two:again');

    // A port change (0 → the port it got, so no probed port is handed on) rebinds: the old
    // socket and its connections are closed first, then the new one is bound.
    const port = server.port;
    await writeServer(root, 'echo', { name: 'three', kind: 'tcp', port });
    const closed = once(first.socket, 'close');
    await server.reload();
    await closed;
    expect(server.config.port).toBe(port);
    expect((await exchange(port, 'x', 'three:x'.length)).reply).toBe('three:x');

    await server.stop();
    await expect(refused(port)).resolves.toBe(true);
  });

  it('a port in use is refused with the file and what to do', async () => {
    const taken = net.createServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const port = (taken.address() as net.AddressInfo).port;
    try {
      await expect(startOne('echo', { name: 'e', kind: 'tcp', port }, { tcp: tcpEcho })).rejects.toThrow(
        `servers/echo.yaml: port ${port} on 127.0.0.1 is already in use by another program.`,
      );
    } finally {
      await new Promise<void>((r) => taken.close(() => r()));
    }
  });
});

describe('a kind on the shared listener that takes upgrades', () => {
  it('gets upgrade requests (plain ones still go to handle), with the loopback-name check, and stop closes upgraded sockets', async () => {
    const { server } = await startOne('ws', { name: 'WS', kind: 'websocket' }, { websocket: upgradeEcho });
    expect((await send(`${server.url}/`)).status).toBe(426);

    const upgrade = (host: string) => `GET /chat HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n`;
    const switched = 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: echo\r\nConnection: Upgrade\r\n\r\n';
    const { reply, socket } = await exchange(server.port, upgrade(`127.0.0.1:${server.port}`), switched.length);
    expect(reply).toBe(switched);
    socket.write('ping');
    expect(((await once(socket, 'data')) as [Buffer])[0].toString()).toBe('ping');

    // DNS rebinding: a page's own name pointing at 127.0.0.1 is refused for upgrades as for requests.
    const rebound = net.connect(server.port, '127.0.0.1');
    await once(rebound, 'connect');
    rebound.write(upgrade('evil.example'));
    let refusedText = '';
    rebound.on('data', (d: Buffer) => (refusedText += d.toString()));
    await once(rebound, 'close');
    expect(refusedText).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*only answers requests addressed to 127\.0\.0\.1/);

    const closed = once(socket, 'close');
    await server.stop();
    await closed;
  });
});

/** True when nothing listens on the port any more. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(port, '127.0.0.1');
    probe.once('connect', () => {
      probe.destroy();
      resolve(false);
    });
    probe.once('error', () => resolve(true));
  });
}
