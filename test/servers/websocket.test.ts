/** The WebSocket server against the `ws` client on 127.0.0.1 (and Chromium, for a web page's origin). */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { browserMissing, launchBrowser } from '../app/browser.js';
import type { MessageRecord } from '../../src/servers/kinds/messages/traffic.js';
import { formatTrafficLine } from '../../src/servers/format.js';
import { eventually, makeWorkspace, rawHead, send, serve } from './helpers.js';
import { connect } from './kinds/ws-client.js';
import { floodUntilStalled, webSocketOffer } from '../support/servers/flood.js';
import { HELD_TIMINGS } from '../../src/servers/kinds/pending-timers.js';

async function wsServer(websocket: Record<string, unknown>, extra: Record<string, unknown> = {}, variables: { key: string; value: string }[] = []) {
  const root = await makeWorkspace({ variables, servers: { chat: { name: 'Chat', kind: 'websocket', websocket, ...extra } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  const server = handle.servers[0]!;
  return { handle, server, url: server.url.replace(/^http/, 'ws'), root };
}

describe('WebSocket server', () => {
  it('echoes text as text and binary as binary, after a greeting with variables', async () => {
    const { url, handle } = await wsServer({ greeting: 'hi {{who}} {{$randomInt}}' }, {}, [{ key: 'who', value: 'Ada' }]);
    const c = await connect(`${url}/chat`);
    const [greeting] = await c.next(1);
    expect(greeting!.data).toMatch(/^hi Ada \d+$/);
    c.ws.send('hello {{who}}');
    c.ws.send(Buffer.from([0xde, 0xad, 0x00]), { binary: true });
    const got = await c.next(3);
    expect(got[1]).toEqual({ data: 'hello {{who}}', binary: false });
    expect(got[2]).toEqual({ data: 'dead00', binary: true });
    c.ws.close(1000);
    await c.closed;
    await eventually(async () => handle.traffic.recent().some((r) => r.summary.includes('close')));
    const records = handle.traffic.recent() as MessageRecord[];
    // An echoed message is one record (both sizes, note "echoed"), not two.
    expect(records.map((r) => [r.direction, r.detail.event, r.note])).toEqual([
      ['exchange', 'connect', undefined], ['out', 'message', undefined], ['in', 'message', 'echoed'], ['in', 'message', 'echoed'], ['exchange', 'close', undefined],
    ]);
    expect(records[2]!.summary).toMatch(/^← 127\.0\.0\.1:\d+ "hello \{\{who\}\}"$/);
    expect([records[2]!.bytesIn, records[2]!.bytesOut]).toEqual([13, 13]);
    expect(records[3]!.detail.preview).toBe('de ad 00');
    expect(formatTrafficLine(records[4]!)).toMatch(/chat ↔ 127\.0\.0\.1:\d+ close code 1000 [\d.]+ ms ↑16 B ↓\d+ B$/);
  });

  it('answers with the first enabled matching rule: contains (default), exact, regex, any; {{message}}, delayMs', async () => {
    const { url } = await wsServer({
      mode: 'rules',
      rules: [
        { pattern: 'ping', reply: 'disabled', enabled: false },
        { pattern: 'ping', reply: 'pong to {{message}} in {{stage}}' },
        { match: 'exact', pattern: 'hello', reply: 'exactly hello' },
        { match: 'regex', pattern: '^order-(\\d+)$', reply: 'order ok', delayMs: 150 },
        { match: 'any', reply: 'fallback' },
      ],
    }, {}, [{ key: 'stage', value: 'dev' }]);
    const c = await connect(url);
    c.ws.send('say ping\r\n');
    await c.next(1);
    c.ws.send('hello');
    await c.next(2);
    const sent = performance.now();
    c.ws.send('order-42');
    await c.next(3);
    expect(performance.now() - sent).toBeGreaterThanOrEqual(140);
    c.ws.send('hello!');
    const got = await c.next(4);
    expect(got.map((m) => m.data)).toEqual(['pong to say ping in dev', 'exactly hello', 'order ok', 'fallback']);
  });

  it('appends lineEnding (2.11, for WebSocket, TCP and UDP servers) to text rule replies, the greeting and panel sends; echoes stay as they came', async () => {
    const { url, server } = await wsServer({
      mode: 'rules', lineEnding: 'crLf', greeting: 'hi',
      rules: [{ match: 'exact', pattern: 'ping', reply: 'pong {{message}}' }],
    });
    const c = await connect(url);
    c.ws.send('ping');
    await eventually(async () => server.openStreams() === 1);
    const got = await c.next(2);
    expect(server.pushEvent('from the panel')).toBe(1);
    await c.next(3);
    expect(got.map((m) => m.data)).toEqual(['hi\r\n', 'pong ping\r\n', 'from the panel\r\n']);
    const echo = await wsServer({ lineEnding: 'lf' });
    const e = await connect(echo.url);
    e.ws.send('as sent');
    expect((await e.next(1)).map((m) => m.data)).toEqual(['as sent']);
    const none = await wsServer({ mode: 'rules', rules: [{ match: 'any', reply: 'plain' }] });
    const n = await connect(none.url);
    n.ws.send('x');
    expect((await n.next(1)).map((m) => m.data)).toEqual(['plain']);
  });

  it('sends nothing back in discard and manual modes; manual sends what the panel pushes', async () => {
    const { url, server } = await wsServer({ mode: 'manual', rules: [{ match: 'any', reply: 'no' }] });
    const a = await connect(url);
    const b = await connect(url);
    a.ws.send('anyone?');
    await eventually(async () => server.openStreams() === 2);
    expect(server.pushEvent('from the panel')).toBe(2);
    expect((await a.next(1))[0]!.data).toBe('from the panel');
    expect((await b.next(1))[0]!.data).toBe('from the panel');
    await new Promise((r) => setTimeout(r, 50));
    expect(a.received).toHaveLength(1);
  });

  it("records the client's close reason, and why the server closed a client that sent a message over 16 MB", async () => {
    const { url, handle } = await wsServer({ mode: 'discard' });
    const polite = await connect(`${url}/a`);
    polite.ws.close(4002, 'bye now');
    await polite.closed;
    const big = await connect(`${url}/b`);
    big.ws.on('error', () => {});
    big.ws.send(Buffer.alloc(16 * 1024 * 1024 + 1), { binary: true });
    expect((await big.closed).code).toBe(1009);
    await eventually(async () => handle.traffic.recent().filter((r) => r.summary.includes('close')).length === 2);
    const closes = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'close').map((r) => r.detail.preview);
    expect(closes).toEqual(['code 4002 "bye now"', expect.stringMatching(/^code \d+ \(closed with 1009: a message over 16 MB\)$/)]);
  });

  it('stops reading from a client that does not read its echo, instead of buffering without bound', async () => {
    const { url, server } = await wsServer({});
    const c = await connect(url);
    c.ws.pause(); // reads nothing more from the server
    const message = Buffer.alloc(1024 * 1024, 0x61);
    // Sends 1 MB at a time while the server takes it: 64 MB at most, 5 s at most. A message the
    // server does not take within 500 ms means it stopped reading.
    const { taken, stalled } = await floodUntilStalled(webSocketOffer(c.ws, message, true), 64, 5000);
    expect(stalled).toBe(true);
    // The kernel's buffers on both sides and one message's worth in the server; nothing more.
    expect(taken).toBeLessThan(32);
    expect(server.openStreams()).toBe(1);
    // Reading again, the client gets every echo, in order.
    c.ws.resume();
    await c.next(taken + 1);
    expect(c.received.every((m) => m.binary && m.data.length === 2 * message.length)).toBe(true);
    c.ws.terminate();
  });

  it('stops reading from a client whose delayed replies pile up (16 MB), and drops a closed client\'s replies at once', async () => {
    // Each 1 MB message is owed a reply holding it for 60 s: reading on without a bound would keep
    // every message the client sends in memory until then.
    const { url, server } = await wsServer({ mode: 'rules', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
    const c = await connect(url);
    const message = 'a'.repeat(1024 * 1024);
    const { taken, stalled } = await floodUntilStalled(webSocketOffer(c.ws, message, false), 96, 8000);
    expect(stalled).toBe(true);
    // 16 MB of replies owed, and the kernel's buffers on both sides.
    expect(taken).toBeLessThan(48);
    expect(server.openStreams()).toBe(1);
    c.ws.terminate();
    // A client that closes with replies owed (one the server still reads): they go with it, not 60 s later.
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const other = await connect(url);
    for (let i = 0; i < 200; i++) other.ws.send('x');
    await eventually(async () => timers() >= before + 200);
    other.ws.close();
    await eventually(async () => timers() <= before);
  });

  it('owes a client at most 1,024 delayed replies within one read too: the messages past them wait, and are answered as the first go', async () => {
    const { url, server } = await wsServer({ mode: 'rules', rules: [{ match: 'any', reply: 'late', delayMs: 1000 }] });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const c = await connect(url);
    const before = timers();
    // The most replies owed at once: the timers waiting, sampled while the test runs.
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, timers() - before - 1)), 5);
    // 2,000 small messages sent at once: one or two reads of the server, each owed a reply 1 s later.
    for (let i = 0; i < 2000; i++) c.ws.send('a');
    await c.next(2000);
    clearInterval(sampler);
    expect(most).toBeGreaterThan(900);
    expect(most).toBeLessThanOrEqual(1024 + 5);
    expect(c.received.every((m) => m.data === 'late')).toBe(true);
    expect(server.openStreams()).toBe(1);
    c.ws.terminate();
  });

  it('answers the messages of one read as the client reads the replies: small messages owed a big reply do not pile up unsent', async () => {
    const { url, handle } = await wsServer({ mode: 'rules', rules: [{ match: 'any', reply: 'r'.repeat(64 * 1024) }] });
    const c = await connect(url);
    c.ws.pause(); // reads nothing, for now
    let replies = 0;
    handle.traffic.subscribe((records) => (replies += records.filter((r) => r.direction === 'out').length));
    // 2,000 one-byte messages, each owed 64 KB: 128 MB that would all wait in memory at once.
    for (let i = 0; i < 2000; i++) c.ws.send('a');
    await eventually(async () => replies > 0);
    await new Promise((r) => setTimeout(r, 300));
    // The 1 MB the server lets wait and the kernel's buffers, not 2,000 replies.
    expect(replies).toBeLessThan(200);
    c.ws.resume();
    await c.next(2000); // every reply, once read
    // A client that leaves before its messages are answered: its close record counts them.
    const other = await connect(url);
    other.ws.pause();
    for (let i = 0; i < 2000; i++) other.ws.send('a');
    await new Promise((r) => setTimeout(r, 300));
    other.ws.terminate();
    await eventually(async () => (handle.traffic.recent() as MessageRecord[]).some((r) => r.detail.event === 'close' && r.level === 'warning'));
    const close = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close' && r.level === 'warning')!;
    expect(close.detail.preview).toMatch(/^code 1006 \([\d,]+ messages read and not answered: the client left before the replies ahead of them had gone\)$/);
    c.ws.terminate();
  });

  it('closes a held client (not read, its delayed replies piled up) when nothing goes out for the held time: it may have left unseen', async () => {
    HELD_TIMINGS.idleMs = 500;
    try {
      const { url, server, handle } = await wsServer({ mode: 'rules', rules: [{ match: 'any', reply: '{{message}}', delayMs: 60_000 }] });
      const c = await connect(url);
      const { stalled } = await floodUntilStalled(webSocketOffer(c.ws, 'a'.repeat(1024 * 1024), false), 96, 8000);
      expect(stalled).toBe(true);
      // The client leaves; not read, the server cannot see it go, so only the held time frees its
      // replies, not the 60 s of their delay.
      c.ws.terminate();
      await eventually(async () => server.openStreams() === 0, 3000);
      const close = (handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'close')!;
      expect(close.detail.preview).toMatch(/^code 1006 \(not read \(\d+ delayed replies owed\) and nothing sent for 0\.5 s: closed by the server, its replies dropped\)$/);
      expect(close.level).toBe('warning');
    } finally {
      HELD_TIMINGS.idleMs = 30_000;
    }
  });

  it("records the client's address, not ?:0, for a connection it resets right after asking to upgrade", async () => {
    const { server, handle } = await wsServer({ mode: 'echo' });
    const records = () => handle.traffic.recent() as MessageRecord[];
    for (let i = 0; i < 5; i++) {
      const raw = net.connect(server.port, '127.0.0.1');
      raw.on('error', () => {});
      await new Promise<void>((resolve) => raw.once('connect', () => resolve()));
      raw.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n', () => raw.resetAndDestroy());
      await eventually(async () => records().filter((r) => r.detail.event === 'close').length === i + 1);
    }
    const peers = records().map((r) => r.detail.peer);
    expect(peers).toHaveLength(10);
    for (const peer of peers) expect(peer).toMatch(/^127\.0\.0\.1:[1-9]\d*$/);
  });

  it('answers a plain HTTP request with 426', async () => {
    const { server } = await wsServer({});
    const answer = await send(server.url);
    expect(answer.status).toBe(426);
    // Header names as written, as the HTTP mock and the SSE server send theirs (not `content-type`).
    const head = await rawHead(server.url, '/');
    expect(head[0]).toBe('HTTP/1.1 426 Upgrade Required');
    expect(head.filter((line) => /^(content-type|upgrade|content-length):/i.test(line))).toEqual([
      'Content-Type: text/plain; charset=utf-8', 'Upgrade: websocket', `Content-Length: ${Buffer.byteLength(answer.body)}`,
    ]);
  });

  it('runs over TLS through the shared HTTP/2 listener (wss)', async () => {
    const { url } = await wsServer({ greeting: 'secure' }, { tls: { enabled: true } });
    expect(url).toMatch(/^wss:/);
    const c = await connect(url, { rejectUnauthorized: false });
    c.ws.send('over tls');
    expect((await c.next(2)).map((m) => m.data)).toEqual(['secure', 'over tls']);
  });

  it('closes clients with 1001 on stop, and the traffic line says so (not 1006)', async () => {
    const { url, handle } = await wsServer({});
    const c = await connect(url);
    await handle.stop();
    expect((await c.closed).code).toBe(1001);
    await eventually(async () => handle.traffic.recent().some((r) => r.summary.includes('close')));
    const close = handle.traffic.recent().find((r) => r.summary.includes('close')) as MessageRecord;
    expect(close.detail.preview).toBe('code 1001 server stopping (the server stopped)');
  });

  it('refuses a bad regex at load, naming the rule', async () => {
    const root = await makeWorkspace({ servers: { chat: { name: 'Chat', kind: 'websocket', websocket: { mode: 'rules', rules: [{ reply: 'a' }, { match: 'regex', pattern: '(unclosed' }] } } } });
    const handle = await serve(root);
    expect(handle.failures[0]!.message).toMatch(/servers\/chat\.yaml:\d+:\d+: websocket\.rules\[1\]: pattern "\(unclosed" is not a regular expression/);
  });

  it('is not stalled by a catastrophic pattern and input (linear-time regex)', async () => {
    const { url } = await wsServer({ mode: 'rules', rules: [{ match: 'regex', pattern: '^(a+)+$', reply: 'matched' }, { match: 'any', reply: 'no match' }] });
    const c = await connect(url);
    const started = performance.now();
    c.ws.send(`${'a'.repeat(50_000)}!`);
    c.ws.send('aaaa');
    const got = await c.next(2);
    expect(got.map((m) => m.data)).toEqual(['no match', 'matched']);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a handshake from a page of another origin unless cors: CLI clients (no Origin) and the own origin connect', async () => {
    const { url, handle, server } = await wsServer({ greeting: 'hi' });
    // What wscat, websocat and `ws` send: no Origin.
    const cli = await connect(url);
    expect((await cli.next(1))[0]!.data).toBe('hi');
    // A page of the server's own origin.
    const own = await connect(url, { origin: server.url });
    expect((await own.next(1))[0]!.data).toBe('hi');
    // A page anywhere else: 403, with what to do, and a warning in the traffic log.
    const refused = await connect(url, { origin: 'https://evil.example' }).then(() => 'connected', (error: Error) => error.message);
    expect(refused).toBe('Unexpected server response: 403');
    const head = await rawUpgrade(url, 'https://evil.example');
    expect(head).toMatch(/^HTTP\/1\.1 403 Forbidden\r\nContent-Type: text\/plain; charset=utf-8\r\nConnection: close\r\nContent-Length: \d+\r\n\r\n/);
    expect(head).toContain('refused: a web page of another origin (https://evil.example); set websocket.cors: true to let pages of other origins in');
    const warnings = (handle.traffic.recent() as MessageRecord[]).filter((r) => r.detail.event === 'error');
    expect(warnings.map((r) => [r.level, r.detail.preview])).toEqual([
      ['warning', 'refused: a web page of another origin (https://evil.example); set websocket.cors: true to let pages of other origins in'],
      ['warning', 'refused: a web page of another origin (https://evil.example); set websocket.cors: true to let pages of other origins in'],
    ]);
    expect(server.openStreams()).toBe(2);
    // With cors: true, the page of another origin connects.
    const open = await wsServer({ greeting: 'hi', cors: true });
    const page = await connect(open.url, { origin: 'https://app.example' });
    expect((await page.next(1))[0]!.data).toBe('hi');
  });

  it('in Chromium, a page of another origin cannot open the WebSocket without cors, and can with it', async (context) => {
    const missing = browserMissing();
    if (missing) return context.skip(missing);
    const closed = await wsServer({ greeting: 'hi' });
    const open = await wsServer({ greeting: 'hi', cors: true });
    // The page is served by another port of 127.0.0.1: another origin.
    const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>other origin</title>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const browser = await launchBrowser();
    try {
      const tab = await browser.newPage();
      await tab.goto(`http://127.0.0.1:${(page.address() as AddressInfo).port}/`);
      const attempt = (url: string) => tab.evaluate((target) => new Promise<string>((resolve) => {
        const ws = new WebSocket(target);
        const timer = setTimeout(() => resolve('no answer in 5 s'), 5000);
        ws.onmessage = (event) => (clearTimeout(timer), ws.close(), resolve(`message ${String(event.data)}`));
        ws.onerror = () => (clearTimeout(timer), resolve('error'));
      }), url);
      expect(await attempt(closed.url)).toBe('error');
      expect(await attempt(open.url)).toBe('message hi');
      const warning = (closed.handle.traffic.recent() as MessageRecord[]).find((r) => r.detail.event === 'error');
      expect(warning?.detail.preview).toBe(`refused: a web page of another origin (http://127.0.0.1:${(page.address() as AddressInfo).port}); set websocket.cors: true to let pages of other origins in`);
    } finally {
      await browser.close();
      await new Promise((resolve) => page.close(resolve));
    }
  }, 30_000);
});

/** The head and body of the answer to a WebSocket handshake sent with `origin`, as raw text. */
function rawUpgrade(url: string, origin: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => {
      socket.write(`GET / HTTP/1.1\r\nHost: ${hostname}:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nOrigin: ${origin}\r\n\r\n`);
    });
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer in 5 s')));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}
