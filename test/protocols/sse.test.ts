/**
 * SSE requests (settings.stream) against real servers on 127.0.0.1: Ferry's own SSE server, and a
 * raw Node server for what it never does (closing early, CRLF framing, errors, other content
 * types, compression, endless streams, several events in one write).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { HttpAgents, SendError } from '../../src/protocols/http/http.js';
import { sendSse, withStreamHeaders } from '../../src/protocols/sse/sse.js';
import { DEFAULT_STREAM, type StreamSettings } from '../../src/protocols/stream/messages.js';
import type { PreparedRequest, PreparedSettings } from '../../src/request/prepared.js';
import { makeWorkspace, serve } from '../servers/helpers.js';
import { preparedRequest } from './prepared.js';

const MB = 1024 * 1024;

function req(url: string, headers: { name: string; value: string }[] = [], settings: Partial<PreparedSettings> = {}): PreparedRequest {
  return withStreamHeaders(preparedRequest(url, { headers }, settings));
}
const stream = (s: Partial<StreamSettings>): StreamSettings => ({ ...DEFAULT_STREAM, ...s });
const text = (body: Uint8Array) => Buffer.from(body).toString('utf8');

const BURST = 'data: 1\n\ndata: 2\n\nevent: done\ndata: 3\n\ndata: 4\n\n';
const CRLF = 'event: tick\r\ndata: a\r\n\r\nevent: done\r\ndata: b\r\n\r\ndata: c\r\n\r\n';
const seenHeaders: http.IncomingHttpHeaders[] = [];
const endless = { written: 0, closed: Promise.resolve() };
let raw: http.Server;
let rawUrl = '';
let agents: HttpAgents;

function route(req: http.IncomingMessage, res: http.ServerResponse): void {
  seenHeaders.push(req.headers);
  const url = new URL(req.url ?? '/', 'http://x');
  const eventStream = { 'content-type': 'text/event-stream; charset=utf-8' };
  switch (url.pathname) {
    case '/burst':
      res.writeHead(200, eventStream).write(BURST);
      return; // stays open: only Ferry stopping ends it
    case '/crlf':
      res.writeHead(200, eventStream).write(CRLF);
      return;
    case '/two-then-close':
      res.writeHead(200, eventStream);
      res.write('data: one\n\n');
      setTimeout(() => res.end('event: last\ndata: two\n\n'), 20);
      return;
    case '/split':
      // One event in pieces that cut a multi-byte character and the line ends apart.
      res.writeHead(200, eventStream);
      res.write(Buffer.from('data: caf\xc3', 'latin1'));
      setTimeout(() => res.write(Buffer.from('\xa9\n', 'latin1')), 10);
      setTimeout(() => res.write('\ndata: next\n\n'), 20);
      return;
    case '/quiet':
      res.writeHead(200, eventStream).flushHeaders();
      return;
    case '/not-found':
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such stream"}');
      return;
    case '/error-stream':
      res.writeHead(503, eventStream).end('data: busy\n\n');
      return;
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"events":false}');
      return;
    case '/gzip':
      res.writeHead(200, { ...eventStream, 'content-encoding': 'gzip' }).end(zlib.gzipSync('data: x\n\n'));
      return;
    case '/redirect':
      res.writeHead(302, { location: '/burst' }).end();
      return;
    case '/no-headers':
      return; // never answers
    case '/endless': {
      res.writeHead(200, eventStream);
      const event = Buffer.from(`data: ${'e'.repeat(64 * 1024)}\n\n`);
      let done!: () => void;
      endless.written = 0;
      endless.closed = new Promise<void>((resolve) => (done = resolve));
      const pump = () => {
        while (endless.written < 64 * MB) {
          endless.written += event.length;
          if (!res.write(event)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => done());
      return pump();
    }
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  raw = http.createServer(route);
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  rawUrl = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  raw.closeAllConnections();
  await new Promise<void>((resolve) => raw.close(() => resolve()));
});

const fail = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('the send succeeded');
    },
    (error: unknown) => error as SendError,
  );

describe('SSE requests against a raw server', () => {
  it('stop after maxEvents: the body ends with the last event read, even when more came in the same write', async () => {
    const r = await sendSse(req(`${rawUrl}/burst`), stream({ maxEvents: 2 }), { agents });
    expect(r.status).toBe(200);
    expect(r.stream).toEqual({ events: 2, stoppedBy: 'maxEvents' });
    expect(text(r.body)).toBe('data: 1\n\ndata: 2\n\n');
    expect(r.bodySize).toBe(r.body.length);
  });

  it('stop at the named event; unnamed events are called message', async () => {
    const named = await sendSse(req(`${rawUrl}/burst`), stream({ event: 'done' }), { agents });
    expect(named.stream).toEqual({ events: 3, stoppedBy: 'event' });
    expect(text(named.body)).toBe('data: 1\n\ndata: 2\n\nevent: done\ndata: 3\n\n');
    const message = await sendSse(req(`${rawUrl}/burst`), stream({ event: 'message' }), { agents });
    expect(message.stream).toEqual({ events: 1, stoppedBy: 'event' });
    expect(text(message.body)).toBe('data: 1\n\n');
  });

  it('CRLF line ends: the cut keeps the whole blank line', async () => {
    const r = await sendSse(req(`${rawUrl}/crlf`), stream({ event: 'done' }), { agents });
    expect(r.stream).toEqual({ events: 2, stoppedBy: 'event' });
    expect(text(r.body)).toBe('event: tick\r\ndata: a\r\n\r\nevent: done\r\ndata: b\r\n\r\n');
  });

  it('the server closing the stream early is a normal end with the events read', async () => {
    const r = await sendSse(req(`${rawUrl}/two-then-close`), stream({ maxEvents: 10 }), { agents });
    expect(r.stream).toEqual({ events: 2, stoppedBy: 'closed' });
    expect(text(r.body)).toBe('data: one\n\nevent: last\ndata: two\n\n');
  });

  it('the time limit ends reading normally, also with no event at all', async () => {
    const r = await sendSse(req(`${rawUrl}/quiet`), stream({ timeoutMs: 100, maxEvents: 0 }), { agents });
    expect(r.status).toBe(200);
    expect(r.stream).toEqual({ events: 0, stoppedBy: 'timeout' });
    expect(r.body.length).toBe(0);
    expect(r.timings.totalMs).toBeGreaterThanOrEqual(90);
  });

  it('the time limit of the stream wins over a shorter settings.timeoutMs once the stream is open', async () => {
    const r = await sendSse(req(`${rawUrl}/quiet`, [], { timeoutMs: 300 }), stream({ timeoutMs: 1200 }), { agents });
    expect(r.stream).toEqual({ events: 0, stoppedBy: 'timeout' });
  });

  it('events split across chunks, even inside a character, are read whole', async () => {
    const r = await sendSse(req(`${rawUrl}/split`), stream({ maxEvents: 1 }), { agents });
    expect(r.stream).toEqual({ events: 1, stoppedBy: 'maxEvents' });
    expect(text(r.body)).toBe('data: café\n\n');
  });

  it('sends Accept: text/event-stream and Accept-Encoding: identity unless the request sets them', async () => {
    seenHeaders.length = 0;
    await sendSse(req(`${rawUrl}/burst`), stream({ maxEvents: 1 }), { agents });
    await sendSse(req(`${rawUrl}/burst`, [{ name: 'accept', value: 'text/event-stream, */*' }]), stream({ maxEvents: 1 }), { agents });
    expect(seenHeaders.map((h) => [h.accept, h['accept-encoding']])).toEqual([
      ['text/event-stream', 'identity'],
      ['text/event-stream, */*', 'identity'],
    ]);
  });

  it('follows a redirect to the stream', async () => {
    const r = await sendSse(req(`${rawUrl}/redirect`), stream({ maxEvents: 1 }), { agents });
    expect(r.redirects).toHaveLength(1);
    expect(r.stream?.events).toBe(1);
  });

  it('non-2xx answers and other content types are read as HTTP bodies, without events', async () => {
    const notFound = await sendSse(req(`${rawUrl}/not-found`), undefined, { agents });
    expect([notFound.status, text(notFound.body), notFound.stream]).toEqual([404, '{"error":"no such stream"}', undefined]);
    const busy = await sendSse(req(`${rawUrl}/error-stream`), undefined, { agents });
    expect([busy.status, text(busy.body), busy.stream]).toEqual([503, 'data: busy\n\n', undefined]);
    const json = await sendSse(req(`${rawUrl}/json`), undefined, { agents });
    expect([json.status, text(json.body), json.stream]).toEqual([200, '{"events":false}', undefined]);
  });

  it('a compressed event stream fails with a message saying why', async () => {
    const error = await fail(sendSse(req(`${rawUrl}/gzip`, [{ name: 'Accept-Encoding', value: 'gzip' }]), undefined, { agents }));
    expect(error).toBeInstanceOf(SendError);
    expect(error.message).toMatch(/compressed the event stream \(Content-Encoding: gzip\); Ferry reads event streams uncompressed only/);
  });

  it('maxResponseMb cuts an endless stream with the size-limit message', async () => {
    const error = await fail(sendSse(req(`${rawUrl}/endless`), stream({ maxEvents: 0, timeoutMs: 0 }), { agents, maxResponseMb: 1 }));
    expect(error.kind).toBe('tooLarge');
    expect(error.message).toMatch(/larger than 1 MB \(maxResponseMb\)/);
    await endless.closed;
    expect(endless.written).toBeLessThan(32 * MB);
  });

  it('no response headers within settings.timeoutMs fails as for HTTP', async () => {
    const error = await fail(sendSse(req(`${rawUrl}/no-headers`, [], { timeoutMs: 100 }), undefined, { agents }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/timed out after 100 ms/);
  });

  it('cancel ends an open stream with the cancel message', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await fail(sendSse(req(`${rawUrl}/quiet`), stream({ timeoutMs: 5_000 }), { agents, signal: controller.signal }));
    expect(error.message).toBe('the request was cancelled.');
  });

  it('a ws:// URL is refused with a message naming SSE', async () => {
    const error = await fail(sendSse(req('ws://127.0.0.1:1/events'), undefined, { agents }));
    expect(error.message).toBe('an SSE request needs an http:// or https:// URL, not ws://.');
  });
});

/** Ferry's SSE server on a free port (stopped after each test by the servers' helpers). */
async function ferrySse(tls = false): Promise<string> {
  const root = await makeWorkspace({
    servers: {
      events: {
        name: 'Events',
        kind: 'sse',
        ...(tls ? { tls: { enabled: true } } : {}),
        sse: { intervalMs: 20, repeat: true, events: [{ event: 'tick', data: 'one' }, { event: 'tick', data: 'two' }, { event: 'done', data: '{"n":3}', id: '3' }] },
      },
    },
  });
  const handle = await serve(root);
  return handle.servers[0]!.url;
}

describe("SSE requests against Ferry's SSE server", () => {
  it('reads events as they come and stops at the named one', async () => {
    const r = await sendSse(req(await ferrySse()), stream({ event: 'done' }), { agents });
    expect(r.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]).toMatch(/^text\/event-stream/);
    expect(r.stream).toEqual({ events: 3, stoppedBy: 'event' });
    expect(text(r.body)).toBe('event: tick\ndata: one\n\nevent: tick\ndata: two\n\nevent: done\nid: 3\ndata: {"n":3}\n\n');
  });

  it('stops at maxEvents across rounds of a repeating stream', async () => {
    const r = await sendSse(req(await ferrySse()), stream({ maxEvents: 4 }), { agents });
    expect(r.stream).toEqual({ events: 4, stoppedBy: 'maxEvents' });
    expect(text(r.body).match(/^data: /gm)).toHaveLength(4);
  });

  it('stops at the time limit with the events read by then', async () => {
    const r = await sendSse(req(await ferrySse()), stream({ maxEvents: 0, timeoutMs: 150 }), { agents });
    expect(r.stream?.stoppedBy).toBe('timeout');
    expect(r.stream!.events).toBeGreaterThan(0);
    expect(text(r.body).match(/^data: /gm)).toHaveLength(r.stream!.events);
  });

  it('over HTTP/2 (TLS, ALPN) stopping resets only the stream: a second read on the same session works', async () => {
    const url = await ferrySse(true);
    const h2 = (maxEvents: number) => sendSse(req(url, [], { verifyTls: false }), stream({ maxEvents }), { agents });
    const first = await h2(2);
    expect([first.httpVersion, first.stream]).toEqual(['2', { events: 2, stoppedBy: 'maxEvents' }]);
    const second = await h2(1);
    expect([second.httpVersion, second.stream]).toEqual(['2', { events: 1, stoppedBy: 'maxEvents' }]);
    expect(text(second.body)).toBe('event: tick\ndata: one\n\n');
  });
});
