/** The SSE server seen by a real client, events parsed by eventsource-parser. */
import http from 'node:http';
import net from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { frameEvent } from '../../src/servers/kinds/sse/sse-frame.js';
import { eventually, exchanges, makeWorkspace, serve } from './helpers.js';

interface Received {
  events: (EventSourceMessage & { at: number })[];
  raw: string;
  headers: http.IncomingHttpHeaders;
  close(): void;
  ended: Promise<void>;
}

/** Opens a stream and collects events until `count` arrived (then resolves; the stream stays open). */
function open(url: string, count: number, headers: Record<string, string> = {}): Promise<Received> {
  return new Promise((resolve, reject) => {
    const events: Received['events'] = [];
    let raw = '';
    let settle: () => void = () => {};
    const ended = new Promise<void>((r) => (settle = r));
    const req = http.get(url, { agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const received: Received = { events, get raw() { return raw; }, headers: res.headers, close: () => req.destroy(), ended };
      const parser = createParser({
        onEvent(event) {
          events.push({ ...event, at: performance.now() });
          if (events.length === count) resolve(received);
        },
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += chunk;
        parser.feed(chunk);
      });
      res.on('end', settle);
      res.on('close', settle);
      if (count === 0) resolve(received);
    });
    req.on('error', (e) => (events.length >= count ? settle() : reject(e)));
    setTimeout(() => reject(new Error(`only ${events.length} of ${count} events arrived`)), 5000).unref();
  });
}

async function sse(sseSection: Record<string, unknown>, variables: { key: string; value: string }[] = []) {
  const root = await makeWorkspace({ variables, servers: { events: { name: 'Events', kind: 'sse', sse: sseSection } } });
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures[0]!.message);
  return { handle, server: handle.servers[0]!, url: handle.servers[0]!.url };
}

describe('SSE server', () => {
  it('frames names, ids and multi-line data as the standard says', () => {
    expect(frameEvent('', '', 'one')).toBe('data: one\n\n');
    expect(frameEvent('update', '7', 'a\nb\r\nc\rd')).toBe('event: update\nid: 7\ndata: a\ndata: b\ndata: c\ndata: d\n\n');
    expect(frameEvent('x\ny', 'i\r\nd', '')).toBe('event: xy\nid: id\ndata: \n\n');
    expect(frameEvent('', '', 'trailing\n')).toBe('data: trailing\ndata: \n\n');
  });

  it('sends the events in order, rendered from the request that opened the stream', async () => {
    const { url } = await sse(
      {
        events: [
          { data: 'hello {{request.query.name}}' },
          { event: 'update', id: '{{request.headers.x-id}}-1', data: '{"user":"{{request.query.name}}",\n"env":"{{stage}}"}' },
          { event: 'multi', data: 'line one\r\nline two\n\nline four' },
          { event: '{{stage}}', data: '{{request.body}}|{{request.params.x}}|{{request.method}} {{request.path}}|{{$uuid}}' },
        ],
      },
      [{ key: 'stage', value: 'dev' }],
    );
    const got = await open(`${url}/stream/path?name=Ada%20L`, 4, { 'x-id': 'abc' });
    got.close();
    expect(got.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(got.headers['cache-control']).toBe('no-cache');
    expect(got.events.map((e) => e.event)).toEqual([undefined, 'update', 'multi', '{{stage}}']); // empty name = message; names not templated
    expect(got.events[0]!.data).toBe('hello Ada L');
    expect(got.events[1]!.id).toBe('abc-1');
    expect(JSON.parse(got.events[1]!.data)).toEqual({ user: 'Ada L', env: 'dev' });
    expect(got.events[2]!.data).toBe('line one\nline two\n\nline four');
    expect(got.events[3]!.data).toMatch(/^\|\|GET \/stream\/path\|[0-9a-f-]{36}$/);
  });

  it('waits intervalMs between events and starts over when repeat is on', async () => {
    const { url } = await sse({ events: [{ data: 'a' }, { data: 'b' }, { data: 'c' }], intervalMs: 40, repeat: true });
    // Measured from before the request: the 7th event comes 6 pauses after the stream opened, and a
    // late reader only makes it later (gaps between single events would shrink when a busy client
    // reads two at once, so they are not compared). Half of it leaves room for timers that fire
    // early by the event loop's clock; all at once would be ~0 ms.
    const opened = performance.now();
    const got = await open(url, 7);
    got.close();
    expect(got.events.map((e) => e.data).join('')).toBe('abcabca');
    expect(got.events[6]!.at - opened).toBeGreaterThanOrEqual((6 * 40) / 2);
  });

  it('without repeat, all events go at once and the stream stays open', async () => {
    const { url, server } = await sse({ events: [{ data: '1' }, { data: '2' }] });
    const got = await open(url, 2);
    await new Promise((r) => setTimeout(r, 100));
    expect(got.events).toHaveLength(2);
    expect(server.openStreams()).toBe(1);
    got.close();
  });

  it('cleans up closed streams and logs each one', async () => {
    const { url, server, handle } = await sse({ events: [{ data: 'x' }], intervalMs: 20, repeat: true });
    const clients = await Promise.all([open(url, 2), open(url, 2), open(url, 2)]);
    expect(server.openStreams()).toBe(3);
    for (const c of clients) c.close();
    await eventually(async () => server.openStreams() === 0 && server.openConnections() === 0);
    await eventually(async () => exchanges(handle).filter((r) => r.detail.note === 'stream').length === 3);
    const record = exchanges(handle).find((r) => r.detail.note === 'stream')!;
    expect(record.bytesOut).toBeGreaterThanOrEqual(2 * 'data: x\n\n'.length);
    expect(record.detail.status).toBe(200);
    expect(record).toMatchObject({ kind: 'sse', direction: 'exchange', summary: expect.stringMatching(/^200 GET \//), note: 'event stream closed' });
  });

  it('closes a stream whose client does not read what the panel sends, once 8 MB wait for it; others still get it', async () => {
    const { url, server } = await sse({ events: [] });
    const port = Number(new URL(url).port);
    const raw = net.connect(port, '127.0.0.1');
    raw.on('error', () => {});
    raw.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n');
    raw.pause(); // never reads
    await eventually(async () => server.openStreams() === 1);
    const big = 'x'.repeat(1024 * 1024);
    const counts: number[] = [];
    try {
      // 64 MB in all without a bound; the kernel's buffers take a few of them.
      for (let i = 0; i < 64 && !counts.includes(0); i++) {
        counts.push(server.pushEvent(big));
        await new Promise((r) => setImmediate(r));
      }
      expect(counts).toContain(0);
      expect(counts.length).toBeLessThan(40);
      await eventually(async () => server.openStreams() === 0);
      const reader = open(url, 1);
      await eventually(async () => server.openStreams() === 1);
      expect(server.pushEvent('still here')).toBe(1);
      expect((await reader).events[0]!.data).toBe('still here');
    } finally {
      raw.destroy();
    }
  });

  it('pushEvent sends to every open stream, rendered from each client\'s own request', async () => {
    const { url, server } = await sse({ events: [] }, [{ key: 'stage', value: 'dev' }]);
    const ada = open(`${url}/?user=Ada`, 1);
    const bob = open(`${url}/?user=Bob`, 1);
    await eventually(async () => server.openStreams() === 2);
    expect(server.pushEvent('hi {{request.query.user}} on {{stage}}\nsecond line', 'note')).toBe(2);
    const [a, b] = await Promise.all([ada, bob]);
    a.close();
    b.close();
    expect(a.events[0]).toMatchObject({ event: 'note', data: 'hi Ada on dev\nsecond line' });
    expect(b.events[0]).toMatchObject({ event: 'note', data: 'hi Bob on dev\nsecond line' });
  });

  it('sends its header names as the HTTP mock does, in canonical case (Content-Type), read from the raw head', async () => {
    const { url, handle } = await sse({ events: [{ data: 'x' }] });
    const target = new URL(url);
    // The stream stays open: the head is read up to its blank line, then the socket is closed.
    const head = await new Promise<string[]>((resolve, reject) => {
      const socket = net.connect(Number(target.port), target.hostname);
      let text = '';
      socket.setTimeout(5000, () => socket.destroy(new Error('no answer head in 5 s')));
      socket.on('connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`));
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.destroy();
        resolve(text.slice(0, end).split('\r\n').filter((line) => !/^date:/i.test(line)));
      });
      socket.on('error', reject);
    });
    await handle.stop();
    expect(head).toEqual([
      'HTTP/1.1 200 OK',
      'Content-Type: text/event-stream; charset=utf-8',
      'Cache-Control: no-cache',
      'X-Accel-Buffering: no',
      'Access-Control-Allow-Origin: *',
      'Connection: keep-alive',
      'Transfer-Encoding: chunked',
    ]);
  });

  it('stopping the server ends open streams', async () => {
    const { url, handle } = await sse({ events: [{ data: 'x' }], intervalMs: 30, repeat: true });
    const got = await open(url, 1);
    await handle.stop();
    await got.ended;
    expect(handle.servers[0]!.openStreams()).toBe(0);
  });
});
