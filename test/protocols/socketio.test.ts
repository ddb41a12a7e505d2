/** Socket.IO requests against a real `socket.io` 4 server on 127.0.0.1 (plain, and over TLS with the self-signed test certificate). */
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestKind, SendError } from '../../src/protocols/index.js';
import { describeKindCases, sendWith, type RunningPeer } from './kind-cases.js';
import { requestSchema } from '../../src/model/index.js';
import { closedPort, nginxMissing, startNginx, testCertificate } from '../support/servers/index.js';
import { binaryBodyFile, failure, received, sendRequest } from './streaming-send.js';
import { floodPings, frame, rawPeer } from './raw-websocket-peer.js';
import { rawPollingPeer, rawWebSocketIoPeer } from './raw-engineio-peer.js';
import { awsV4Check, hawkCheck } from '../support/auth-checks.js';
import { listenOnBadPort, NO_BAD_PORT } from '../support/bad-port.js';

interface Seen {
  namespace: string;
  auth: unknown;
  transport: string;
  headers: http.IncomingHttpHeaders;
}

/** A socket.io server: `/` greets and answers `echo` (with an ack) and `shout`; `/admin` wants auth; `/bye` disconnects. */
async function ioPeer(secure = false): Promise<RunningPeer & { port: number; seen: Seen[] }> {
  const server = secure ? https.createServer(await testCertificate()) : http.createServer();
  const io = new Server(server);
  // Other paths get a 404, as a web server in front of Socket.IO would answer.
  server.on('request', (req, res) => {
    if (!req.url?.startsWith('/socket.io/')) res.writeHead(404).end('not here');
  });
  const seen: Seen[] = [];
  const record = (socket: import('socket.io').Socket) =>
    seen.push({ namespace: socket.nsp.name, auth: socket.handshake.auth, transport: socket.conn.transport.name, headers: socket.handshake.headers });
  io.of('/').on('connection', (socket) => {
    record(socket);
    socket.emit('welcome', { id: 1 }, 'two');
    socket.on('echo', (...args: unknown[]) => {
      const ack = typeof args.at(-1) === 'function' ? (args.pop() as (...a: unknown[]) => void) : undefined;
      if (ack) ack('got', args.length);
      socket.emit('echoed', ...args);
    });
    socket.on('count', (n: number) => {
      for (let i = 1; i <= n; i++) socket.emit('tick', i);
      socket.emit('done', Buffer.from([1, 2, 3]));
    });
  });
  io.of('/admin').use((socket, next) => ((socket.handshake.auth as { token?: string }).token === 's3cret' ? next() : next(Object.assign(new Error('not authorized'), { data: { hint: 'token' } }))));
  io.of('/admin').on('connection', (socket) => {
    record(socket);
    socket.emit('hello admin');
  });
  io.of('/nämespace').on('connection', (socket) => {
    record(socket);
    socket.emit('wëlcome');
  });
  io.of('/bye').on('connection', (socket) => {
    record(socket);
    socket.emit('last words');
    setTimeout(() => socket.disconnect(true), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    seen,
    url: `${secure ? 'https' : 'http'}://127.0.0.1:${port}/bye`,
    close: () => new Promise<void>((resolve) => { io.close(); server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

describeKindCases({
  module: requestKind('socketio'),
  urlFor: (port, secure) => `${secure ? 'https' : 'http'}://127.0.0.1:${port}/`,
  wrongScheme: 'mqtt://127.0.0.1:1/',
  fields: { socketio: { transport: 'websocket' } },
  startTls: () => ioPeer(true),
  waitsForHandshake: true,
});

describe('socketio requests', () => {
  let peer: Awaited<ReturnType<typeof ioPeer>>;
  const base = () => `http://127.0.0.1:${peer.port}`;
  beforeAll(async () => {
    peer = await ioPeer();
  });
  afterAll(() => peer.close());

  for (const transport of ['websocket', 'polling', 'auto'] as const) {
    it(`emits the body's arguments with an ack and reads events until the named one (${transport})`, async () => {
      const result = await sendRequest('socketio', {
        url: `${base()}/`,
        socketio: { transport, event: 'echo', ack: true },
        body: { type: 'json', text: '[{"a":1}, "b"]' },
        headers: [{ key: 'X-Trace', value: 't1' }],
        settings: { stream: { event: 'echoed' } },
      });
      expect(result.stream!.stoppedBy).toBe('event');
      expect(result.messages![0]).toMatchObject({ direction: 'sent', event: 'echo', args: [{ a: 1 }, 'b'] });
      const events = received(result);
      expect(events.find((m) => m.event === 'welcome')).toMatchObject({ args: [{ id: 1 }, 'two'], text: '[{"id":1},"two"]' });
      expect(events.find((m) => m.event === 'ack')).toMatchObject({ args: ['got', 2] });
      expect(events.at(-1)).toMatchObject({ event: 'echoed', args: [{ a: 1 }, 'b'] });
      expect(result.detail).toMatchObject({ namespace: '/', transport: transport === 'polling' ? 'polling' : 'websocket' });
      const seen = peer.seen.at(-1)!;
      expect(seen.transport).toBe(transport === 'polling' ? 'polling' : 'websocket');
      expect(seen.headers['x-trace']).toBe('t1');
    });
  }

  it('one JSON value is one argument; binary arguments are base64; maxEvents and the time limit stop reading', async () => {
    const counted = await sendRequest('socketio', { url: `${base()}/`, socketio: { event: 'count' }, body: { type: 'text', text: '3' }, settings: { stream: { event: 'done' } } });
    expect(received(counted).map((m) => m.text)).toEqual(['[{"id":1},"two"]', '1', '2', '3', 'AQID']);
    expect(received(counted).at(-1)).toMatchObject({ event: 'done', binary: true });
    const two = await sendRequest('socketio', { url: `${base()}/`, socketio: { event: 'count' }, body: { type: 'text', text: '5' }, settings: { stream: { maxEvents: 2 } } });
    expect(two.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
    const quiet = await sendRequest('socketio', { url: `${base()}/`, settings: { stream: { timeoutMs: 200 } } });
    expect(quiet.stream).toEqual({ events: 1, stoppedBy: 'timeout' });
  });

  it('a binary body (body.type binary, a file) is emitted as one binary argument', async () => {
    const body = await binaryBodyFile(Uint8Array.from([0x00, 0xff, 0x10, 0x80]));
    try {
      const result = await sendRequest('socketio', { url: `${base()}/`, socketio: { event: 'echo' }, body: { type: 'binary', file: body.file }, settings: { stream: { event: 'echoed' } } });
      expect(result.messages![0]).toMatchObject({ direction: 'sent', event: 'echo', args: ['AP8QgA=='], binary: true });
      // The server got a Buffer (socket.io's binary attachment) and sent it back as one.
      expect(received(result).at(-1)).toMatchObject({ event: 'echoed', args: ['AP8QgA=='], binary: true });
    } finally {
      await body.remove();
    }
  });

  it('connects to the namespace with the auth payload (templated), and names a refusal by the server', async () => {
    const ok = await sendRequest('socketio', { url: `${base()}/admin`, socketio: { auth: '{"token": "s3cret"}' }, settings: { stream: { maxEvents: 1 } } });
    expect(received(ok)[0]).toMatchObject({ event: 'hello admin' });
    expect(peer.seen.at(-1)).toMatchObject({ namespace: '/admin', auth: { token: 's3cret' } });
    const refused = await failure(sendRequest('socketio', { url: `${base()}/admin`, socketio: { auth: '{"token": "wrong"}' } }));
    expect(refused).toBeInstanceOf(SendError);
    expect(refused.message).toMatch(/refused the Socket\.IO connection to namespace \/admin: not authorized \{"hint":"token"\}/);
    const unknown = await failure(sendRequest('socketio', { url: `${base()}/nowhere` }));
    expect(unknown.message).toMatch(/has no Socket\.IO namespace \/nowhere/);
  });

  it('a header value beyond Latin-1 fails at once with one line, whatever the transport (the handshake was retried until the time limit)', async () => {
    for (const transport of ['auto', 'polling', 'websocket'] as const) {
      const error = await failure(sendRequest('socketio', { url: `${base()}/`, socketio: { transport }, headers: [{ key: 'X-Who', value: '☃' }], settings: { timeoutMs: 3000 } }));
      expect(error.message).toContain('the value of header X-Who has "☃" at character 1, which an HTTP header cannot carry');
    }
  });

  it('a namespace beyond ASCII is the path as typed (the URL parser\'s percent-encoding, /n%C3%A4mespace, was sent as the namespace: Invalid namespace)', async () => {
    for (const transport of ['websocket', 'polling'] as const) {
      const result = await sendRequest('socketio', { url: `${base()}/nämespace`, socketio: { transport }, settings: { stream: { maxEvents: 1 } } });
      expect(received(result)[0]).toMatchObject({ event: 'wëlcome' });
      expect(result.detail).toMatchObject({ namespace: '/nämespace' });
      expect(peer.seen.at(-1)!.namespace).toBe('/nämespace');
    }
    const unknown = await failure(sendRequest('socketio', { url: `${base()}/n%C3%B6pe` }));
    expect(unknown.message).toBe(`127.0.0.1:${peer.port} has no Socket.IO namespace /nöpe (Invalid namespace); the URL's path is the namespace.`);
  });

  it('http:// to a TLS Socket.IO server says to use https:// (it said only that the connection was closed), whatever the transport', async () => {
    const secure = await ioPeer(true);
    try {
      for (const transport of ['auto', 'polling', 'websocket'] as const) {
        const error = await failure(sendRequest('socketio', { url: `http://127.0.0.1:${secure.port}/`, socketio: { transport } }));
        expect((error as SendError).kind).toBe('reset');
        expect(error.message).toMatch(new RegExp(`^127\\.0\\.0\\.1:${secure.port} closed the connection during the Socket\\.IO handshake \\([A-Z_]+\\); if it is a TLS server, use https://\\.$`));
      }
    } finally {
      await secure.close();
    }
  });

  it('a refused connection is named whatever the transport', async () => {
    const { freePort } = await import('../support/servers/index.js');
    const port = await freePort();
    // Signed, long-polling goes through Ferry's pools (signed-transports.ts): named the same way.
    for (const [transport, auth] of [['auto', undefined], ['polling', undefined], ['polling', { type: 'hawk', authId: 'id', authKey: 'k' }]] as const) {
      const error = await failure(sendRequest('socketio', { url: `http://127.0.0.1:${port}/`, socketio: { transport }, ...(auth ? { auth } : {}) }));
      expect((error as SendError).kind).toBe('refused');
      expect(error.message).toContain(`127.0.0.1:${port}`);
      expect(error.message).not.toContain('\n');
    }
  });

  it('a server that is not Socket.IO, and one refusing the WebSocket upgrade, are named as such (not as a refusal to check auth for)', async () => {
    const web = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('hello from a web server\n'));
    const pollingOnly = http.createServer();
    const io = new Server(pollingOnly, { transports: ['polling'] });
    io.on('connection', (socket) => socket.emit('hi'));
    const portOf = async (server: http.Server) => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    const [webPort, pollPort] = [await portOf(web), await portOf(pollingOnly)];
    try {
      const notIo = await failure(sendRequest('socketio', { url: `http://127.0.0.1:${webPort}/` }));
      expect(notIo.message).toBe(`127.0.0.1:${webPort} answered Socket.IO's handshake with something that is not Socket.IO (Engine.IO could not parse it); check the URL's port and socketio.path (/socket.io/).`);
      const upgrade = await failure(sendRequest('socketio', { url: `http://127.0.0.1:${pollPort}/`, socketio: { transport: 'websocket' } }));
      expect(upgrade.message).toBe(`127.0.0.1:${pollPort} answered HTTP 400 to the WebSocket upgrade instead of opening it; check socketio.path (/socket.io/), and if the server takes only long-polling set socketio.transport to auto or polling.`);
      const polled = await sendRequest('socketio', { url: `http://127.0.0.1:${pollPort}/`, settings: { stream: { maxEvents: 1 } } });
      expect(received(polled)[0]).toMatchObject({ event: 'hi' });
    } finally {
      await io.close();
      web.close();
    }
  });

  it('the server disconnecting ends reading as closed', async () => {
    const result = await sendRequest('socketio', { url: `${base()}/bye` });
    expect(result.stream).toEqual({ events: 1, stoppedBy: 'closed' });
    expect(result.detail).toMatchObject({ disconnectReason: 'io server disconnect' });
  });

  it('a server sending a packet Socket.IO or Engine.IO cannot parse fails the request (it passed as the server closing), on both transports', async () => {
    const server = http.createServer();
    const io = new Server(server);
    // What each namespace's server writes as the client joins, right after its CONNECT answer (often
    // in the same long-polling payload; the next test makes sure of that): raw Engine.IO message data.
    io.of('/badjson').on('connection', (socket) => socket.conn.write('2["x", {'));
    io.of('/badtype').on('connection', (socket) => socket.conn.write('9["x"]'));
    // An Engine.IO packet of a type that does not exist (sendPacket is private in engine.io's types).
    io.of('/engine').on('connection', (socket) => (socket.conn as unknown as { sendPacket(type: string): void }).sendPacket('bogus'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const transport of ['websocket', 'polling']) {
        for (const [namespace, why] of [['badjson', 'invalid payload'], ['badtype', 'unknown packet type 9']]) {
          const error = await failure(sendRequest('socketio', { url: `http://${host}/${namespace}`, socketio: { transport }, settings: { stream: { timeoutMs: 5000 } } }));
          expect(error.message).toBe(`${host} broke the Socket.IO protocol: it sent a packet that cannot be parsed (${why}), so Ferry closed the connection.`);
        }
        const engine = await failure(sendRequest('socketio', { url: `http://${host}/engine`, socketio: { transport }, settings: { stream: { timeoutMs: 5000 } } }));
        expect(engine.message).toBe(`${host} broke the Engine.IO protocol (under Socket.IO): it sent a packet that cannot be parsed (parser error), so Ferry closed the connection.`);
      }
    } finally {
      await io.close();
      server.closeAllConnections();
    }
  });

  it('a packet that cannot be parsed in the same read as the CONNECT answer is a broken protocol after connecting (an Engine.IO one was said to be no Socket.IO server), on both transports', async () => {
    const cases: Array<[string, string]> = [
      ['42["x", {', 'broke the Socket.IO protocol: it sent a packet that cannot be parsed (invalid payload), so Ferry closed the connection.'],
      ['49["x"]', 'broke the Socket.IO protocol: it sent a packet that cannot be parsed (unknown packet type 9), so Ferry closed the connection.'],
      ['9bogus', 'broke the Engine.IO protocol (under Socket.IO): it sent a packet that cannot be parsed (parser error), so Ferry closed the connection.'],
    ];
    for (const [transport, start] of [['polling', rawPollingPeer], ['websocket', rawWebSocketIoPeer]] as const) {
      for (const [bad, words] of cases) {
        const peer = await start(['40{"sid":"s1"}', bad]);
        try {
          const error = await failure(sendRequest('socketio', { url: peer.url, socketio: { transport }, settings: { timeoutMs: 5000, stream: { timeoutMs: 5000 } } }));
          expect(`${transport} ${bad}: ${error.message}`).toBe(`${transport} ${bad}: ${peer.host} ${words}`);
          expect((error as SendError).kind).toBe('protocol');
        } finally {
          peer.close();
        }
      }
    }
  });

  it('events in the same read as the CONNECT answer are read after connecting, none lost, up to the server closing in that read too', async () => {
    for (const transport of ['polling', 'websocket'] as const) {
      const packets = ['40{"sid":"s1"}', '42["first",1]', '42["second",{"n":2}]'];
      // Long-polling: Engine.IO's close packet ends the payload; WebSocket: a close frame ends the write.
      const peer = transport === 'polling' ? await rawPollingPeer([...packets, '1']) : await rawWebSocketIoPeer([...packets, frame(0x8, Buffer.from([0x03, 0xe8]))]);
      try {
        const result = await sendRequest('socketio', { url: peer.url, socketio: { transport }, settings: { timeoutMs: 5000, stream: { timeoutMs: 5000 } } });
        expect(received(result).map((m) => [m.event, m.text])).toEqual([['first', '1'], ['second', '{"n":2}']]);
        expect(result.stream).toEqual({ events: 2, stoppedBy: 'closed' });
        expect(result.outcome.text).toBe(`connected (${transport})`);
      } finally {
        peer.close();
      }
    }
  });

  it('an event sent before the CONNECT answer is read once connected, before those after it (socket.io-client hands it on before saying connected, and it was lost)', async () => {
    for (const transport of ['polling', 'websocket'] as const) {
      const packets = ['42["early","before CONNECT"]', '40{"sid":"s1"}', '42["late",2]'];
      const peer = transport === 'polling' ? await rawPollingPeer(packets) : await rawWebSocketIoPeer(packets);
      try {
        const result = await sendRequest('socketio', { url: peer.url, socketio: { transport, event: 'hello' }, settings: { timeoutMs: 5000, stream: { maxEvents: 2, timeoutMs: 5000 } } });
        expect(result.messages!.map((m) => [m.direction, m.event])).toEqual([['received', 'early'], ['sent', 'hello'], ['received', 'late']]);
        expect(result.stream!.stoppedBy).toBe('maxEvents');
      } finally {
        peer.close();
      }
    }
  });

  it('a message past maxResponseMb over the WebSocket transport fails the request naming the setting (it was read whatever its size)', async () => {
    const server = http.createServer();
    const io = new Server(server, { maxHttpBufferSize: 1e8 });
    io.on('connection', (socket) => socket.emit('big', 'x'.repeat(2 * 1024 * 1024)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const request = requestSchema.parse({ name: 'big', kind: 'socketio', url: `http://${host}/`, socketio: { transport: 'websocket' }, settings: { timeoutMs: 5000, stream: { timeoutMs: 5000 } } });
      const error = await failure(sendWith(requestKind('socketio'), request, undefined, { maxResponseMb: 1 }));
      expect(error.message).toBe(`${host} sent a Socket.IO message larger than 1 MB (maxResponseMb), so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`);
    } finally {
      await io.close();
      server.closeAllConnections();
    }
  });

  it('long-polling: an answer past maxResponseMb fails the request the same way, and an endless answer is cut at the bound (it was read whole, forever)', async () => {
    const server = http.createServer();
    const io = new Server(server, { maxHttpBufferSize: 1e8 });
    io.on('connection', (socket) => socket.emit('big', 'x'.repeat(2 * 1024 * 1024)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    // A hostile Engine.IO peer: the handshake and the namespace's connect, then a poll answered with a body that never ends.
    let flooded = 0;
    const flood = http.createServer((req, res) => {
      if (req.method === 'POST') return void req.resume().on('end', () => res.end('ok'));
      const polls = new URL(req.url!, 'http://x').searchParams.has('sid') ? (flood as unknown as { polls: number }).polls++ : -1;
      if (polls === -1) return void res.end('0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}');
      if (polls === 0) return void res.end('40{"sid":"n1"}');
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const more = () => {
        while (!res.destroyed && res.write(chunk)) flooded += chunk.length;
      };
      res.on('drain', more);
      res.write('42["flood","');
      more();
    });
    (flood as unknown as { polls: number }).polls = 0;
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    const floodHost = `127.0.0.1:${(flood.address() as AddressInfo).port}`;
    const words = (at: string) => `${at} sent a Socket.IO message larger than 1 MB (maxResponseMb), so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`;
    try {
      const big = requestSchema.parse({ name: 'big', kind: 'socketio', url: `http://${host}/`, socketio: { transport: 'polling' }, settings: { timeoutMs: 5000, stream: { timeoutMs: 5000 } } });
      const error = await failure(sendWith(requestKind('socketio'), big, undefined, { maxResponseMb: 1 }));
      expect(error.message).toBe(words(host));
      expect((error as SendError).kind).toBe('tooLarge');
      const endless = requestSchema.parse({ name: 'endless', kind: 'socketio', url: `http://${floodHost}/`, socketio: { transport: 'polling' }, settings: { timeoutMs: 5000, stream: { timeoutMs: 0 } } });
      const cut = await failure(sendWith(requestKind('socketio'), endless, undefined, { maxResponseMb: 1 }));
      expect(cut.message).toBe(words(floodHost));
      // Cut at the bound, not read on: what the peer got out is the bound and the sockets' buffers.
      expect(flooded).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await io.close();
      server.closeAllConnections();
      flood.closeAllConnections();
      flood.close();
    }
  });

  it('long-polling: an answer of exactly maxResponseMb is read; one a byte over fails the request, and cutting it leaves no socket erroring unheard (it threw an uncaught AbortError)', async () => {
    // A hand-made Engine.IO peer: the handshake, the namespace's connect, then one poll answered
    // with one event of `size` bytes in one write, so the whole answer arrives before it is read.
    const peer = (size: number) => {
      let polls = 0;
      const server = http.createServer((req, res) => {
        if (req.method === 'POST') return void req.resume().on('end', () => res.end('ok'));
        if (!new URL(req.url!, 'http://x').searchParams.has('sid')) return void res.end('0{"sid":"s1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}');
        if (polls++ === 0) return void res.end('40{"sid":"n1"}');
        if (polls === 2) return void res.end(`42["big","${'x'.repeat(size - 12)}"]`);
      });
      return new Promise<http.Server>((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
    };
    const uncaught: Error[] = [];
    const heard = (error: Error) => void uncaught.push(error);
    process.on('uncaughtException', heard);
    const servers: http.Server[] = [];
    try {
      for (const size of [1024 * 1024, 1024 * 1024 + 1]) {
        const server = await peer(size);
        servers.push(server);
        const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
        const request = requestSchema.parse({ name: 'big', kind: 'socketio', url: `http://${host}/`, socketio: { transport: 'polling' }, settings: { timeoutMs: 5000, stream: { timeoutMs: 5000, maxEvents: 1 } } });
        const sent = sendWith(requestKind('socketio'), request, undefined, { maxResponseMb: 1 });
        if (size === 1024 * 1024) {
          const read = await sent;
          expect(read.stream).toEqual({ events: 1, stoppedBy: 'maxEvents' });
          expect(received(read)[0]!.text).toBe('x'.repeat(size - 12));
        } else {
          const error = await failure(sent);
          expect(error.message).toBe(`${host} sent a Socket.IO message larger than 1 MB (maxResponseMb), so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`);
        }
        // What the cut destroyed says so within a few turns of the event loop.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(uncaught.map((e) => e.message)).toEqual([]);
    } finally {
      process.off('uncaughtException', heard);
      for (const server of servers) {
        server.closeAllConnections();
        server.close();
      }
    }
  });

  /** Engine.IO's open packet and Socket.IO's connect to / over a hand-made WebSocket, then `then`. */
  const ioOverRawWebSocket = (then: Parameters<typeof rawPeer>[0]) =>
    rawPeer((socket, sent, request) => {
      socket.write(frame(0x1, '0{"sid":"e1","upgrades":[],"pingInterval":25000,"pingTimeout":20000,"maxPayload":1000000}'));
      socket.write(frame(0x1, '40{"sid":"s1"}'));
      then(socket, sent, request);
    });

  it('a close frame over the WebSocket transport ends reading at once, though the server keeps the connection open (ws waited 30 s for it to go)', async () => {
    // ws's own wait for the connection to go was 30 s: under this test's 10 s timeout, a read that waits for it fails the test.
    // One event, then a close frame 1000; the TCP connection stays.
    const peer = await ioOverRawWebSocket((socket) => {
      socket.write(frame(0x1, '42["hi","there"]'));
      socket.write(frame(0x8, Buffer.from([0x03, 0xe8])));
    });
    try {
      const result = await sendRequest('socketio', { url: peer.url.replace('ws:', 'http:'), socketio: { transport: 'websocket' }, settings: { timeoutMs: 0, stream: { timeoutMs: 0 } } });
      expect(result.stream).toEqual({ events: 1, stoppedBy: 'closed' });
      expect(result.detail).toMatchObject({ disconnectReason: 'transport close' });
    } finally {
      peer.close();
    }
  }, 10_000);

  it('a server flooding pings without reading the pongs is cut and named, as for WebSocket requests (engine.io-client\'s own ws kept every pong in memory)', async () => {
    const peer = await ioOverRawWebSocket(floodPings);
    try {
      const error = await failure(sendRequest('socketio', { url: peer.url.replace('ws:', 'http:'), socketio: { transport: 'websocket' }, settings: { timeoutMs: 5000, stream: { timeoutMs: 8000 } } }));
      expect(error.message).toBe(`${peer.host} flooded the connection with WebSocket pings without reading Ferry's pongs (60 pongs waiting to be sent), so Ferry closed the connection; the server must read what it is sent.`);
      expect(peer.sent.bytes).toBeLessThan(16 * 1024 * 1024);
    } finally {
      peer.close();
    }
  });

  it('a WebSocket frame breaking the WebSocket protocol (invalid UTF-8 in a text frame, a reserved opcode, a masked server frame) fails the request, as for WebSocket requests (it passed as the server closing)', async () => {
    const broken: Array<[Buffer, string]> = [
      [frame(0x1, Buffer.from([0x34, 0x32, 0xff, 0xfe])), 'Invalid WebSocket frame: invalid UTF-8 sequence (WS_ERR_INVALID_UTF8)'],
      [Buffer.from([0x83, 0]), 'Invalid WebSocket frame: invalid opcode 3 (WS_ERR_INVALID_OPCODE)'],
      [Buffer.from([0x81, 0x82, 1, 2, 3, 4, 0x35, 0x30]), 'Invalid WebSocket frame: MASK must be clear (WS_ERR_UNEXPECTED_MASK)'],
    ];
    for (const [bytes, why] of broken) {
      const peer = await ioOverRawWebSocket((socket) => socket.write(bytes));
      try {
        const error = await failure(sendRequest('socketio', { url: peer.url.replace('ws:', 'http:'), socketio: { transport: 'websocket' }, settings: { stream: { timeoutMs: 5000 } } }));
        expect(error.message).toBe(`${peer.host} broke the WebSocket protocol: ${why}.`);
        expect((error as SendError).kind).toBe('protocol');
      } finally {
        peer.close();
      }
    }
  });

  it.skipIf(nginxMissing())("nginx's 502 for a server behind it that is down says to check that server, not the path (it said to check the URL and socketio.path)", async () => {
    const nginx = await startNginx(`location / { proxy_pass http://127.0.0.1:${await closedPort()}; proxy_http_version 1.1; proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection "upgrade"; }`);
    try {
      const down = await failure(sendRequest('socketio', { url: `http://127.0.0.1:${nginx.port}/`, socketio: { transport: 'polling' } }));
      expect(down.message).toBe(`127.0.0.1:${nginx.port} answered HTTP 502 to Socket.IO's long-polling request; a proxy in front of the server (such as nginx) answers 502 when the server behind it is down or does not answer: check that it runs, and the proxy's upstream.`);
    } finally {
      await nginx.close();
    }
  });

  it('bad JSON in auth or body.text, and a wrong path, fail with one line', async () => {
    const auth = await failure(sendRequest('socketio', { url: `${base()}/`, socketio: { auth: '{token' } }));
    expect(auth.message).toMatch(/socketio\.auth is not valid JSON/);
    const notObject = await failure(sendRequest('socketio', { url: `${base()}/`, socketio: { auth: '[1]' } }));
    expect(notObject.message).toMatch(/socketio\.auth must be a JSON object/);
    const body = await failure(sendRequest('socketio', { url: `${base()}/`, socketio: { event: 'echo' }, body: { type: 'text', text: 'not json' } }));
    expect(body.message).toMatch(/body\.text is not valid JSON/);
    const path = await failure(sendRequest('socketio', { url: `${base()}/`, socketio: { path: '/wrong/', transport: 'polling' } }));
    expect(path.message).toMatch(/answered HTTP 404 to Socket\.IO's long-polling request; check the URL and socketio\.path \(\/wrong\/\)/);
    for (const error of [auth, notObject, body, path]) expect(error.message).not.toContain('\n');
  });
});

describe('socketio requests, signed', () => {
  // A gate in front of the Socket.IO server checks each request it gets (long-polling's GETs and
  // POSTs, the WebSocket upgrade) over its method, path and query (/socket.io/?EIO=4&…), headers
  // and body, by each scheme's specification (auth-checks.ts), not with the library Ferry signs
  // with; a Hawk nonce seen before is refused.
  const AWS = { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1', service: 'sio' };
  const HAWK = { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256', includePayloadHash: true };
  let peer: Awaited<ReturnType<typeof ioPeer>>;
  let gate: http.Server;
  const verdicts: string[] = [];
  const nonces = new Set<string>();
  const sockets = new Set<net.Socket>();
  const gateUrl = () => `http://127.0.0.1:${(gate.address() as AddressInfo).port}/`;

  function verdict(req: http.IncomingMessage, body: Buffer): string {
    const received = { method: req.method ?? '', target: req.url ?? '', host: req.headers.host ?? '', headers: req.headers, body };
    const auth = String(req.headers.authorization ?? '');
    let why: string;
    if (auth.startsWith('Hawk ')) {
      const { ok, hashOk, attributes } = hawkCheck(received, req.socket.localPort!, { key: 'hawk-key', algorithm: 'sha256' });
      const fresh = !nonces.has(attributes.nonce!);
      nonces.add(attributes.nonce!);
      why = !ok ? 'bad mac' : hashOk === false ? 'bad payload hash' : !fresh ? 'nonce seen before' : 'ok';
    } else why = awsV4Check(received, AWS.secretKey).why.split('\n')[0] || 'ok';
    const transport = new URL(req.url ?? '/', 'http://x').searchParams.get('transport');
    verdicts.push(`${req.method} ${transport} ${why}`);
    return why;
  }

  /** The gate: checks each request, forwards what passes to the Socket.IO peer (not yet listening). */
  function makeGate(): http.Server {
    const gate = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const why = verdict(req, body);
        if (why !== 'ok') return void res.writeHead(401).end(why);
        const forward = http.request({ host: '127.0.0.1', port: peer.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        forward.on('error', () => res.destroy());
        forward.end(body);
      });
    });
    gate.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      const why = verdict(req, Buffer.alloc(0));
      if (why !== 'ok') return void socket.end(`HTTP/1.1 401 Unauthorized\r\nContent-Length: ${why.length}\r\n\r\n${why}`);
      const upstream = net.connect(peer.port, '127.0.0.1', () => {
        const lines = [`${req.method} ${req.url} HTTP/1.1`];
        for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
        upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => socket.destroy());
    });
    return gate;
  }

  beforeAll(async () => {
    peer = await ioPeer();
    gate = makeGate();
    await new Promise<void>((resolve) => gate.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    gate.closeAllConnections();
    await new Promise<void>((resolve) => gate.close(() => resolve()));
    await peer.close();
  });

  for (const [transport, auth] of [
    ['websocket', HAWK],
    ['websocket', { type: 'awsv4', ...AWS }],
    ['polling', HAWK],
    ['polling', { type: 'awsv4', ...AWS }],
  ] as const) {
    it(`signs each request the connection makes for its own method, URL and body (${transport}, ${auth.type})`, async () => {
      verdicts.length = 0;
      const result = await sendRequest('socketio', { url: gateUrl(), auth, socketio: { transport, event: 'echo', ack: true }, body: { type: 'json', text: '["hi"]' }, settings: { stream: { event: 'echoed' } } });
      expect(result.outcome).toMatchObject({ ok: true, text: `connected (${transport})` });
      expect(received(result).map((m) => m.event)).toContain('echoed');
      expect(verdicts.length).toBeGreaterThan(0);
      expect(verdicts.filter((v) => !v.endsWith(' ok'))).toEqual([]);
      // Long-polling: the handshake GET and at least one POST (the namespace's CONNECT, the emit) each signed.
      if (transport === 'polling') expect(new Set(verdicts.map((v) => v.split(' ')[0]))).toEqual(new Set(['GET', 'POST']));
    });
  }

  it('signed long-polling reaches a server on 6666 or 10080 (undici\'s fetch refused it: "fetch failed: bad port"), each request still signed', async (context) => {
    const far = makeGate();
    const port = await listenOnBadPort(far);
    if (port === undefined) return context.skip(NO_BAD_PORT);
    try {
      for (const auth of [HAWK, { type: 'awsv4', ...AWS }]) {
        verdicts.length = 0;
        const result = await sendRequest('socketio', { url: `http://127.0.0.1:${port}/`, auth, socketio: { transport: 'polling', event: 'echo', ack: true }, body: { type: 'json', text: '["far"]' }, settings: { stream: { event: 'echoed' } } });
        expect(result.outcome).toMatchObject({ ok: true, text: 'connected (polling)' });
        expect(received(result).map((m) => m.event)).toContain('echoed');
        expect(new Set(verdicts.map((v) => v.split(' ')[0]))).toEqual(new Set(['GET', 'POST']));
        expect(verdicts.filter((v) => !v.endsWith(' ok'))).toEqual([]);
      }
    } finally {
      far.closeAllConnections();
      await new Promise<void>((resolve) => far.close(() => resolve()));
    }
  });
});
