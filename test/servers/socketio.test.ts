/** The Socket.IO server against socket.io-client 4 on 127.0.0.1, over both transports. */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { io as connectClient, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { SOCKETIO_LIMITS } from '../../src/servers/kinds/socketio/socketio.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace, rawHead, send, serve } from './helpers.js';

const clients: Socket[] = [];
afterEach(() => {
  while (clients.length) clients.pop()!.close();
});

async function ioServer(socketio: Record<string, unknown>, variables: { key: string; value: string }[] = [], extra: Record<string, unknown> = {}) {
  const root = await makeWorkspace({ variables, servers: { live: { name: 'Live', kind: 'socketio', socketio, ...extra } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  return { handle, server: handle.servers[0]!, url: handle.servers[0]!.url };
}

function client(url: string, transport: 'polling' | 'websocket', path = '/socket.io/'): Promise<Socket> {
  const socket = connectClient(url, { transports: [transport], path, reconnection: false, forceNew: true });
  clients.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

const once = <T = unknown[]>(socket: Socket, event: string) =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5000);
    socket.once(event, (...args: unknown[]) => (clearTimeout(timer), resolve(args as T)));
  });

/** A WebSocket text frame as a client sends it: masked (with a zero key, so the payload reads as is). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const size = payload.length;
  const head = size < 126 ? Buffer.from([0x81, 0x80 | size]) : size < 65536 ? Buffer.from([0x81, 0x80 | 126, size >> 8, size & 0xff]) : Buffer.concat([Buffer.from([0x81, 0x80 | 127]), bigLength(size)]);
  return Buffer.concat([head, Buffer.alloc(4), payload]);
}

function bigLength(size: number): Buffer {
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(BigInt(size));
  return out;
}

/** A raw TCP client past the Engine.IO WebSocket handshake (its open packet read), not joined yet. */
async function rawEngineIo(port: number): Promise<net.Socket> {
  const raw = net.connect(port, '127.0.0.1');
  raw.on('error', () => {}); // the server may reset it once it is closed
  await new Promise((r) => raw.once('connect', r));
  raw.write('GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n');
  let head = '';
  await new Promise<void>((resolve) => {
    const onData = (c: Buffer) => {
      head += c.toString('latin1');
      if (head.includes('"sid"')) raw.off('data', onData), resolve();
    };
    raw.on('data', onData);
  });
  return raw;
}

/** A process's peak resident memory so far (VmHWM), in MB. */
async function peakMb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)![1]) / 1024;
}

describe('Socket.IO server', () => {
  for (const transport of ['polling', 'websocket'] as const) {
    it(`echoes events and acknowledges with their arguments, after a greeting (${transport})`, async () => {
      const { url, handle } = await ioServer({ greetingEvent: 'welcome', greetingArgs: '[{"to":"{{who}}"}, 2]' }, [{ key: 'who', value: 'Ada' }]);
      const socket = connectClient(url, { transports: [transport], reconnection: false, forceNew: true });
      clients.push(socket);
      const greeting = once(socket, 'welcome');
      expect(await greeting).toEqual([{ to: 'Ada' }, 2]);
      const echoed = once(socket, 'chat');
      const acked = await socket.timeout(5000).emitWithAck('chat', 'hi', { n: 1 });
      expect(acked).toEqual('hi'); // an ack's first argument (emitWithAck resolves with it)
      expect(await echoed).toEqual(['hi', { n: 1 }]);
      expect(handle.traffic.recent().some((r) => r.summary.includes('chat ["hi",{"n":1}]'))).toBe(true);
      // The acknowledgement is in the log as the echo is: out, its arguments, their bytes.
      const ack = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.preview.startsWith('ack '));
      expect([ack?.direction, ack?.detail.preview, ack?.bytesOut]).toEqual(['out', 'ack ["hi",{"n":1}]', Buffer.byteLength('["hi",{"n":1}]')]);
    });
  }

  it("gives records the bytes of each event as encoded (name and arguments as JSON), and a client's close its totals", async () => {
    const { url, handle } = await ioServer({ greetingEvent: 'welcome', greetingArgs: '[{"to":"Zoë"}]' });
    const socket = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true });
    clients.push(socket);
    await once(socket, 'welcome');
    const echoed = once(socket, 'say');
    socket.emit('say', 'grüß dich', 2);
    await echoed;
    socket.disconnect();
    const records = () => handle.traffic.recent() as MessageRecord[];
    await eventually(async () => records().some((r) => r.detail.event === 'close'));
    const greeting = Buffer.byteLength(JSON.stringify(['welcome', { to: 'Zoë' }]));
    const said = Buffer.byteLength(JSON.stringify(['say', 'grüß dich', 2]));
    const sizes = records().map((r) => [r.direction, r.detail.event, r.bytesIn, r.bytesOut]);
    expect(sizes).toEqual([
      ['exchange', 'connect', 0, 0],
      ['out', 'message', 0, greeting],
      ['in', 'message', said, 0],
      ['out', 'message', 0, said],
      ['exchange', 'close', said, greeting + said],
    ]);
  });

  it('answers by rules: event and pattern on the JSON arguments, ack, replyEvent, delayMs; broadcast reaches another client', async () => {
    const { url, handle } = await ioServer({
      mode: 'rules',
      rules: [
        { event: 'order', match: 'regex', pattern: '"id":\\s*\\d+', ack: true, replyArgs: '{"ok":true}', replyEvent: 'ordered' },
        { event: 'say', match: 'contains', pattern: 'hello', replyEvent: 'said', replyArgs: '["{{stage}}"]', broadcast: true },
        { event: 'slow', ack: true, replyArgs: '"late"', delayMs: 150 },
        { event: '*', match: 'exact', pattern: '["off"]', ack: true, replyArgs: '"no"', enabled: false },
        { event: '*', ack: true, replyArgs: '"fallback"' },
      ],
    }, [{ key: 'stage', value: 'dev' }]);
    const a = await client(url, 'websocket');
    const b = await client(url, 'polling');
    const ordered = once(a, 'ordered');
    expect(await a.timeout(5000).emitWithAck('order', { id: 7 })).toEqual({ ok: true });
    expect(await ordered).toEqual([{ ok: true }]);
    const seenByB = once(b, 'said');
    const seenByA = once(a, 'said');
    a.emit('say', 'hello all');
    expect(await seenByB).toEqual(['dev']);
    expect(await seenByA).toEqual(['dev']);
    const started = performance.now();
    expect(await a.timeout(5000).emitWithAck('slow')).toBe('late');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(await b.timeout(5000).emitWithAck('off')).toBe('fallback');
    // B's close record counts what it was sent: the broadcast and its ack.
    b.disconnect();
    const closes = () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'close');
    await eventually(async () => closes().length === 1);
    expect(closes()[0]!.bytesOut).toBe(Buffer.byteLength('["said","dev"]') + Buffer.byteLength('["fallback"]'));
  });

  it('serves any namespace a client joins, and a custom path', async () => {
    const { url } = await ioServer({ path: '/live/', greetingEvent: 'hi' });
    const socket = connectClient(`${url}/rooms/one`, { transports: ['websocket'], path: '/live/', reconnection: false, forceNew: true });
    clients.push(socket);
    expect(await once(socket, 'hi')).toEqual([]);
    expect((await send(`${url}/socket.io/?EIO=4&transport=polling`)).status).toBe(404);
    // Its header names as written, as the HTTP mock's and the SSE server's (not `content-type`).
    const head = await rawHead(url, '/socket.io/?EIO=4&transport=polling');
    expect(head[0]).toBe('HTTP/1.1 404 Not Found');
    expect(head.filter((line) => /^content-(type|length):/i.test(line))).toEqual(['Content-Type: text/plain; charset=utf-8', expect.stringMatching(/^Content-Length: \d+$/)]);
  });

  it('refuses at load a path no client can reach: without a leading /, or with a space, ? or #', async () => {
    for (const [path, shown] of [['live', '"live" does not start with /'], ['/a b/', '"/a b/" holds a space, ? or #, which a client sends encoded or not as part of the path']]) {
      await expect(ioServer({ path })).rejects.toThrow(`servers/live.yaml:4:9: socketio.path: ${shown}; write it as a URL path, such as /socket.io/.`);
    }
  });

  it('sends nothing in discard mode; manual sends what the panel pushes to every client', async () => {
    const { url, server } = await ioServer({ mode: 'manual' });
    const a = await client(url, 'websocket');
    const b = await client(url, 'polling');
    const gotA = once(a, 'news');
    const gotB = once(b, 'news');
    expect(server.pushEvent('{"headline":"x"}', 'news')).toBe(2);
    expect(await gotA).toEqual([{ headline: 'x' }]);
    expect(await gotB).toEqual([{ headline: 'x' }]);
    const quiet = await ioServer({ mode: 'discard' });
    const c = await client(quiet.url, 'websocket');
    await expect(c.timeout(200).emitWithAck('x', 1)).rejects.toThrow();
  });

  it('takes Socket.IO 2 clients too (Engine.IO 3): joined to / with the greeting, and echoed', async () => {
    const { url } = await ioServer({ greetingEvent: 'welcome', greetingArgs: '["v2"]' });
    // socket.io-client 2 speaks Engine.IO 3 long-polling: `<length>:<packet>` payloads, joined to / by the server.
    const open = await fetch(`${url}/socket.io/?EIO=3&transport=polling`);
    expect(open.status).toBe(200);
    const sid = /"sid":"([^"]+)"/.exec(await open.text())?.[1];
    expect(sid).toBeDefined();
    const poll = `${url}/socket.io/?EIO=3&transport=polling&sid=${sid}`;
    const greeting = '42["welcome","v2"]';
    expect(await (await fetch(poll)).text()).toBe(`2:40${greeting.length}:${greeting}`);
    const event = '42["ping me",1]';
    expect((await fetch(poll, { method: 'POST', body: `${event.length}:${event}`, headers: { 'content-type': 'text/plain;charset=UTF-8' } })).status).toBe(200);
    expect(await (await fetch(poll)).text()).toBe(`${event.length}:${event}`);
  });

  it('allows other origins only with cors', async () => {
    const open = await ioServer({ cors: true });
    const answer = await send(`${open.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: 'http://app.example' } });
    expect(answer.headers['access-control-allow-origin']).toBe('http://app.example');
    const closed = await ioServer({});
    const plain = await send(`${closed.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin: 'http://app.example' } });
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('without cors, refuses a page of another origin over the WebSocket transport too (browsers apply no CORS to WebSockets)', async () => {
    const { url, handle } = await ioServer({ greetingEvent: 'welcome', greetingArgs: '["hi"]' });
    const foreign = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin: 'http://evil.example' } });
    clients.push(foreign);
    const refused = await new Promise<string>((resolve) => {
      foreign.once('connect', () => resolve('connected'));
      foreign.once('connect_error', (error) => resolve(`refused: ${error.message}`));
    });
    expect(refused).toMatch(/^refused/);
    expect(handle.traffic.recent().some((r) => r.summary.includes('welcome'))).toBe(false);
    // The traffic log says why, and what to change.
    const refusal = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'error');
    expect([refusal?.level, refusal?.detail.preview]).toEqual(['warning', 'refused: a web page of another origin (http://evil.example); set socketio.cors: true to let pages of other origins in']);
    // Clients that are not web pages send no Origin; a page of the server's own origin is let in.
    await client(url, 'websocket');
    const own = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin: url } });
    clients.push(own);
    expect(await once(own, 'welcome')).toEqual(['hi']);
    // With cors: true, the page of another origin connects.
    const open = await ioServer({ cors: true, greetingEvent: 'welcome', greetingArgs: '["hi"]' });
    const allowed = connectClient(open.url, { transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: { origin: 'http://evil.example' } });
    clients.push(allowed);
    expect(await once(allowed, 'welcome')).toEqual(['hi']);
  });

  for (const transport of ['polling', 'websocket'] as const) {
    it(`runs over TLS through the shared HTTP/2 listener (${transport})`, async () => {
      const { url } = await ioServer({ greetingEvent: 'secure' }, [], { tls: { enabled: true } });
      expect(url).toMatch(/^https:/);
      const socket = connectClient(url, { transports: [transport], reconnection: false, forceNew: true, rejectUnauthorized: false });
      clients.push(socket);
      expect(await once(socket, 'secure')).toEqual([]);
      expect(await socket.timeout(5000).emitWithAck('x', 1)).toBe(1);
    });
  }

  it('sends a 9 MB greeting and a 9 MB reply (an event may render to 32 MB, spec 8.1) to a client that reads, over both transports; the bound on what waits unsent cut it off, blamed for not reading', async () => {
    const big = 'x'.repeat(9 * 1024 * 1024);
    const { url, handle } = await ioServer({ mode: 'rules', greetingEvent: 'hello', greetingArgs: '"{{big}}"', rules: [{ event: 'more', replyEvent: 'reply', replyArgs: '"{{big}}"', ack: true }] }, [{ key: 'big', value: big }]);
    for (const transport of ['websocket', 'polling'] as const) {
      const socket = connectClient(url, { transports: [transport], reconnection: false, forceNew: true });
      clients.push(socket);
      const [greeting] = await once<[string]>(socket, 'hello');
      expect(greeting.length).toBe(big.length);
      const replied = once<[string]>(socket, 'reply');
      const acked = new Promise<unknown[]>((resolve) => socket.emit('more', (...args: unknown[]) => resolve(args)));
      expect((await replied)[0]).toBe(big);
      expect(((await acked)[0] as string).length).toBe(big.length);
      socket.disconnect();
    }
    const closes = () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'close');
    await eventually(async () => closes().length === 2);
    expect(closes().map((r) => [r.level, r.detail.preview])).toEqual([
      ['info', 'client namespace disconnect'],
      ['info', 'client namespace disconnect'],
    ]);
  });

  it('disconnects a client that does not read what it is sent, instead of queuing without bound (raw Engine.IO over WebSocket)', async () => {
    const { server, handle } = await ioServer({});
    const raw = await rawEngineIo(server.port);
    raw.write(clientFrame('40')); // joins the namespace /
    await eventually(async () => (handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'connect'));
    raw.pause(); // never reads again
    // 64 KB events, each echoed: 64 MB at most, 10 s at most, until the server has closed it.
    const frame = clientFrame(`42["flood","${'a'.repeat(64 * 1024)}"]`);
    const closed = () => (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close');
    const until = Date.now() + 10_000;
    let sent = 0;
    while (closed() === undefined && sent < 1024 && Date.now() < until && !raw.destroyed) {
      if (!raw.write(frame)) await Promise.race([new Promise((r) => raw.once('drain', r)), new Promise((r) => setTimeout(r, 200))]);
      else await new Promise((r) => setImmediate(r));
      sent++;
    }
    const record = closed();
    // Closed after some 8 MB waited, on top of what the kernel's buffers hold: not after 64 MB.
    expect(sent).toBeLessThan(512);
    expect(record?.level).toBe('warning');
    expect(record?.detail.preview).toBe('forced close (more than 8 MB waited unsent: the client does not read what it is sent)');
    expect(server.openStreams()).toBe(0);
    raw.destroy();
  });

  it('answers one read of thousands of small events, each owed a 64 KB reply and ack, to a client that never reads, in bounded memory: the client is disconnected past 8 MB, the rest of the read dropped (ferry serve in a child, peak memory measured)', async () => {
    const data = await isolatedDataDir();
    const big = 'r'.repeat(64 * 1024);
    const root = await makeWorkspace({ servers: { live: { name: 'Live', kind: 'socketio', socketio: { mode: 'rules', rules: [{ event: '*', ack: true, replyEvent: 'big', replyArgs: JSON.stringify(big) }] } } } });
    const child = spawn(process.execPath, [path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js'), 'serve', '-w', root], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stdout += c));
    try {
      await eventually(async () => /http:\/\/127\.0\.0\.1:\d+/.test(stdout), 20_000);
      const port = Number(/http:\/\/127\.0\.0\.1:(\d+)/.exec(stdout)![1]);
      // A client that reads, first: what the server's memory is with one client answered.
      const reader = await client(`http://127.0.0.1:${port}`, 'websocket');
      expect(await reader.timeout(5000).emitWithAck('warm', 1)).toBe(big);
      const before = await peakMb(child.pid!);
      const raw = await rawEngineIo(port);
      raw.write(clientFrame('40'));
      await eventually(async () => (stdout.match(/ connect /g) ?? []).length >= 2, 5000);
      raw.pause(); // never reads again
      // 5,000 events in one write (75 KB: one or two reads of the server), each owed an ack and
      // an event of 64 KB: 640 MB if all their replies waited.
      raw.write(Buffer.concat(Array.from({ length: 5000 }, (_, i) => clientFrame(`42${i}["e",${i}]`))));
      await eventually(async () => stdout.includes('forced close (more than 8 MB waited unsent: the client does not read what it is sent)'), 10_000);
      const grown = (await peakMb(child.pid!)) - before;
      // The 8 MB bound and the garbage of the replies rendered up to it (some 40 MB): the rest of
      // the read is not answered once the client is gone (answering it peaked at 320 MB more).
      expect(grown).toBeLessThan(100);
      // The server goes on answering the client that reads.
      expect(await reader.timeout(5000).emitWithAck('after', 2)).toBe(big);
      raw.destroy();
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('shows an event name as sent only when short and printable: a long one is cut, control characters escaped', async () => {
    const { url, handle } = await ioServer({ mode: 'discard' });
    const socket = await client(url, 'websocket');
    socket.emit(`x\u001b[2J\nfake line`, 1);
    socket.emit('e'.repeat(100_000), 2);
    socket.emit('say', 3);
    const previews = () => (handle.traffic.recent() as MessageRecord[]).filter((r) => r.direction === 'in').map((r) => r.detail.preview);
    await eventually(async () => previews().length === 3);
    expect(previews()).toEqual(['"x\\u001b[2J\\nfake line" [1]', `"${'e'.repeat(120)}…" [2]`, 'say [3]']);
  });

  it('forgets a namespace when its last client leaves: a flood of joins to new names does not grow memory', async () => {
    const { url } = await ioServer({ mode: 'discard' });
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
    const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    let joined = 0;
    ws.on('message', (m) => void (String(m).startsWith('40/') && joined++));
    await new Promise((r) => ws.once('open', r));
    // Joins and leaves namespaces of new names, as fast as the server answers.
    const flood = async (from: number, count: number) => {
      const target = joined + count;
      for (let i = from; i < from + count; i++) ws.send(`40/n${i},`);
      await eventually(async () => joined === target, 10_000);
      for (let i = from; i < from + count; i++) ws.send(`41/n${i},`);
      await new Promise((r) => setTimeout(r, 300));
    };
    // Joined all at once here: past the limit of namespaces a connection keeps, a join is
    // disconnected, and leaving it then (a raw client, sending blindly) is a protocol error.
    SOCKETIO_LIMITS.namespacesPerConnection = 10_000;
    try {
      await flood(0, 1000); // fills the traffic log, which keeps its last 1,000 records
      const before = heap();
      await flood(10_000, 5000);
      // Each namespace kept held some 1.5 KB: 7.5 MB for these. The leaves are answered in their
      // own time (a busy machine takes more than the flood's 300 ms): the heap must come down to
      // the bound, and a namespace kept after its last client left never lets it.
      let grewMb = Infinity;
      await eventually(async () => {
        grewMb = (heap() - before) / 1024 / 1024;
        return grewMb < 2.5;
      }, 30_000).catch(() => undefined);
      expect(grewMb).toBeLessThan(2.5);
    } finally {
      SOCKETIO_LIMITS.namespacesPerConnection = 100;
      ws.close();
    }
  }, 90_000);

  it('keeps no reply whole in the traffic log: 1,000 records of 64 KB replies and events hold their previews, not 64 MB', async () => {
    const big = 'r'.repeat(64 * 1024);
    const { url, handle } = await ioServer({ mode: 'rules', rules: [{ event: '*', ack: true, replyArgs: JSON.stringify(big) }] });
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const heap = () => (gc(), gc(), process.memoryUsage().heapUsed);
    const socket = await client(url, 'websocket');
    const before = heap();
    for (let i = 0; i < 500; i++) expect(await socket.timeout(5000).emitWithAck('e', `${big}${i}`)).toBe(big);
    // 1,000 records: each event in and each ack out, 64 KB apiece.
    expect(handle.traffic.recent().length).toBeGreaterThanOrEqual(1000);
    expect((heap() - before) / 1024 / 1024).toBeLessThan(8);
  });

  it('keeps at most its limit of namespaces joined on one connection: a join past it is disconnected and recorded once, the others kept, one left makes room', async () => {
    SOCKETIO_LIMITS.namespacesPerConnection = 5;
    try {
      const { url, handle } = await ioServer({ mode: 'echo' });
      const ws = new WebSocket(`${url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
      const got: string[] = [];
      ws.on('message', (m) => void got.push(String(m)));
      await new Promise((r) => ws.once('open', r));
      try {
        for (let i = 0; i < 8; i++) ws.send(`40/n${i},`);
        const joined = () => got.filter((m) => m.startsWith('40/')).map((m) => m.slice(3, m.indexOf(',')));
        const left = () => got.filter((m) => m.startsWith('41/')).map((m) => m.slice(3, m.indexOf(',')));
        await eventually(async () => joined().length === 8 && left().length === 3);
        expect(left()).toEqual(['n5', 'n6', 'n7']);
        const refusals = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.preview.startsWith('refused'));
        expect(refusals.map((r) => [r.level, r.detail.peer, r.detail.preview])).toEqual([
          ['warning', '127.0.0.1 /n5', "refused: 5 namespaces are joined on this connection already, the server's limit; leave some first (later refusals on this connection are not recorded)"],
        ]);
        // The namespaces kept still answer; one left makes room for the next.
        ws.send('42/n4,["hi"]');
        await eventually(async () => got.includes('42/n4,["hi"]'));
        ws.send('41/n0,');
        await new Promise((r) => setTimeout(r, 100));
        ws.send('40/n9,');
        await eventually(async () => joined().includes('n9'));
        await new Promise((r) => setTimeout(r, 100));
        expect(left()).toEqual(['n5', 'n6', 'n7']);
      } finally {
        ws.close();
      }
    } finally {
      SOCKETIO_LIMITS.namespacesPerConnection = 100;
    }
  });

  it('keeps at most its limit of clients at once, long-polling sessions too (they hold no connection): a handshake past it is refused with why, recorded once, and one that leaves makes room', async () => {
    SOCKETIO_LIMITS.sessions = 3;
    try {
      const { url, handle, server } = await ioServer({});
      const base = `${url}/socket.io/?EIO=4&transport=polling`;
      const handshake = async () => {
        const answer = await fetch(base);
        return { status: answer.status, text: await answer.text() };
      };
      const sids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const { status, text } = await handshake();
        expect(status).toBe(200);
        sids.push(/"sid":"([^"]+)"/.exec(text)![1]!);
      }
      expect(server.openStreams()).toBe(3);
      const why = "3 Socket.IO clients are connected already, the server's limit; disconnect some, or spread the clients over a second server";
      expect(await handshake()).toEqual({ status: 403, text: JSON.stringify({ code: 4, message: why }) });
      // socket.io-client cannot connect either (its error names the transport only: the answer above says why).
      const refused = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true });
      clients.push(refused);
      expect((await once<[Error]>(refused, 'connect_error'))[0].message).toBe('websocket error');
      const records = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.preview.startsWith('refused'));
      expect(records.map((r) => [r.level, r.detail.preview])).toEqual([['warning', `refused: ${why} (later refusals until one is let in are not recorded)`]]);
      // A client that leaves (Engine.IO's close packet) makes room for the next.
      await fetch(`${base}&sid=${sids[0]}`, { method: 'POST', body: '1', headers: { 'content-type': 'text/plain;charset=UTF-8' } });
      await eventually(async () => server.openStreams() === 2);
      const next = await client(url, 'websocket');
      expect(next.connected).toBe(true);
    } finally {
      SOCKETIO_LIMITS.sessions = 4096;
    }
  });

  it('disconnects a client owed more than 1,024 delayed replies, and drops a disconnected client\'s replies at once', async () => {
    const { url, handle, server } = await ioServer({ mode: 'rules', rules: [{ event: '*', replyEvent: 'late', replyArgs: '"x"', delayMs: 60_000 }] });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    // A client that leaves with replies owed: they go with it, not 60 s later.
    const leaving = await client(url, 'websocket');
    for (let i = 0; i < 200; i++) leaving.emit('tick', i);
    await eventually(async () => timers() >= before + 200);
    leaving.disconnect();
    await eventually(async () => timers() <= before + 5);
    // Without a bound, each event a client sends faster than its replies fall due waits in memory.
    const flood = await client(url, 'websocket');
    const closed = () => (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close' && r.level === 'warning');
    for (let i = 0; i < 1100; i++) flood.emit('tick', 'a'.repeat(100));
    await eventually(async () => closed() !== undefined);
    expect(closed()!.level).toBe('warning');
    expect(closed()!.detail.preview).toBe('forced close (more than 1,024 delayed replies (or 16 MB of them) waited: the client sends faster than its replies fall due; lower delayMs)');
    expect(server.openStreams()).toBe(0);
    await eventually(async () => timers() <= before + 5);
  });

  it('drops the TCP connection at once when it disconnects a socket.io-client that does not read, not when the WebSocket close handshake times out 30 s later', async () => {
    const { server, handle, url } = await ioServer({});
    // The client's own TCP connection, held so the test can stop reading it (a client that hangs).
    const sockets: net.Socket[] = [];
    class Holding extends http.Agent {
      override createConnection(options: net.NetConnectOpts): net.Socket {
        const socket = net.connect(options);
        socket.on('error', () => {});
        sockets.push(socket);
        return socket;
      }
    }
    const socket = connectClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, agent: new Holding() } as unknown as Parameters<typeof connectClient>[1]);
    clients.push(socket);
    await once(socket, 'connect');
    expect(sockets).toHaveLength(1);
    const tcp = sockets[0]!;
    tcp.pause(); // never reads again
    const closed = () => (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close');
    // 64 KB events, each echoed: 32 MB at most, 10 s at most, until the server has closed it.
    const until = Date.now() + 10_000;
    for (let sent = 0; closed() === undefined && sent < 512 && Date.now() < until; sent++) {
      socket.emit('flood', 'a'.repeat(64 * 1024));
      await new Promise((r) => (tcp.writableLength > 1024 * 1024 ? setTimeout(r, 50) : setImmediate(r)));
    }
    expect(closed()?.detail.preview).toBe('forced close (more than 8 MB waited unsent: the client does not read what it is sent)');
    // The connection itself is gone within moments: it was left waiting for a close frame the
    // client could not read, up to ws's 30 s close timeout.
    await eventually(async () => server.openConnections() === 0, 3000);
    tcp.destroy();
  });

  it('disconnects a long-polling client that posts events but never polls for what it is sent', async () => {
    const { url, server, handle } = await ioServer({});
    const base = `${url}/socket.io/?EIO=4&transport=polling`;
    const sid = /"sid":"([^"]+)"/.exec(await (await fetch(base)).text())?.[1];
    expect(sid).toBeDefined();
    const post = (body: string) => fetch(`${base}&sid=${sid}`, { method: 'POST', body, headers: { 'content-type': 'text/plain;charset=UTF-8' } });
    expect((await post('40')).status).toBe(200);
    await eventually(async () => (handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'connect'));
    // Four 64 KB events a post, each echoed into the queue no poll takes: 64 posts (16 MB) at most.
    const event = `42["flood","${'a'.repeat(64 * 1024)}"]`;
    const body = [event, event, event, event].join('\x1e');
    const closed = () => (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close');
    for (let i = 0; i < 64 && closed() === undefined; i++) await post(body);
    expect(closed()?.detail.preview).toBe('forced close (more than 8 MB waited unsent: the client does not read what it is sent)');
    expect(server.openStreams()).toBe(0);
  });

  it('lets ferry serve exit at once on Ctrl-C while a long-polling client is connected, and tells the client', async () => {
    const data = await isolatedDataDir();
    const root = await makeWorkspace({ servers: { live: { name: 'Live', kind: 'socketio', socketio: {} } } });
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'support', 'run-ferry.ts'), 'serve', '-w', root], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (c) => (stdout += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    try {
      await eventually(async () => /http:\/\/127\.0\.0\.1:\d+/.test(stdout), 20_000);
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)![0];
      const socket = await client(url, 'polling');
      expect(await socket.timeout(5000).emitWithAck('x', 1)).toBe(1);
      // An idle client: its next poll waits at the server for something to send.
      await new Promise((r) => setTimeout(r, 500));
      const told = once<[string]>(socket, 'disconnect');
      const stopped = performance.now();
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      // A polling transport left closing kept a 30 s timer, and the process with it.
      expect(performance.now() - stopped).toBeLessThan(10_000);
      expect((await told)[0]).toBe('io server disconnect');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
