/**
 * The load generator's own HTTP/1.1 client: the response parser fed in every split, and the
 * pool over real sockets on 127.0.0.1 against raw servers that answer in pieces, badly, late,
 * or close: Content-Length, chunked, read-until-close, keep-alive and close, errors by kind.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorKind, LoadTimeout } from '../../src/load/errors.js';
import { Http1Pool, type Answer, type Exchange } from '../../src/load/http1/pool.js';
import { requestBytes } from '../../src/load/http1/request-bytes.js';
import { BadResponse, ResponseParser } from '../../src/load/http1/response-parser.js';

/** Feeds `text` in pieces of `size` bytes; returns the parser and where the answer ended. */
function parse(text: string | Buffer, size: number, opts: { head?: boolean; collect?: boolean } = {}) {
  const p = new ResponseParser();
  p.reset(opts.head ?? false, opts.collect ?? true);
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'latin1');
  for (let i = 0; i < bytes.length; i += size) {
    const piece = bytes.subarray(i, i + size);
    const end = p.execute(piece);
    if (end >= 0) return { p, end: i + end, body: Buffer.concat(p.body ?? []).toString() };
  }
  return { p, end: -1, body: Buffer.concat(p.body ?? []).toString() };
}

const SIZES = [1, 2, 3, 7, 1000];

describe('response parser', () => {
  it('reads Content-Length bodies whatever the split', () => {
    const text = 'HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: 1\r\nx-a: 2\r\n\r\nhello world';
    for (const size of SIZES) {
      const { p, end, body } = parse(text, size);
      expect([p.status, end, body, p.bodyBytes, p.keepAlive]).toEqual([200, text.length, 'hello world', 11, true]);
      expect(p.headers!['x-a']).toEqual(['1', '2']);
    }
  });

  it('decodes chunked bodies with extensions and trailers, whatever the split', () => {
    const text = 'HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n';
    for (const size of SIZES) {
      const { p, end, body } = parse(text, size);
      expect([p.status, end, body, p.bodyBytes]).toEqual([201, text.length, 'hello world', 11]);
    }
  });

  it('knows answers without a body: HEAD, 204, 304, and skips 100 Continue', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n';
    expect(parse(head, 3, { head: true }).end).toBe(head.length);
    expect(parse('HTTP/1.1 204 No Content\r\n\r\n', 1).p.status).toBe(204);
    const notModified = 'HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n';
    expect(parse(notModified, 5).end).toBe(notModified.length);
    const text = 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok';
    for (const size of SIZES) expect(parse(text, size)).toMatchObject({ end: text.length, body: 'ok', p: { status: 200 } });
  });

  it('reads a body without length until the connection closes, and says the connection closes', () => {
    const p = new ResponseParser();
    p.reset(false, true);
    expect(p.execute(Buffer.from('HTTP/1.1 200 OK\r\n\r\nsome'))).toBe(-1);
    expect(p.execute(Buffer.from(' more'))).toBe(-1);
    expect(p.endsWithClose()).toBe(true);
    expect([p.bodyBytes, p.keepAlive]).toEqual([9, false]);
  });

  it('follows Connection: close and HTTP/1.0 keep-alive rules', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', 4).p.keepAlive).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n', 4).p.keepAlive).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n', 4).p.keepAlive).toBe(true);
  });

  it('reads framing headers in any case and spacing, and skips the others unread', () => {
    const text = 'HTTP/1.1 200 OK\r\ncOnTeNt-LeNgTh:\t 3 \r\nX-Skipped: \x01anything\r\nCONNECTION:  Keep-Alive , Close\r\n\r\nabc';
    for (const size of SIZES) {
      const { p, end, body } = parse(text, size, { collect: false });
      expect([p.status, end, p.bodyBytes, p.keepAlive, body]).toEqual([200, text.length, 3, false, '']);
    }
    const kept = parse('HTTP/1.1 404 Not Found\r\nX-Id:  a b  \r\nContent-Length: 0\r\n\r\n', 1000).p;
    expect([kept.status, kept.headers]).toEqual([404, { 'x-id': 'a b', 'content-length': '0' }]);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent Length: 1\r\n\r\na', 1000, { collect: false })).toThrow(/bad header name/);
    expect(() => parse('HTTP/1.1 200 OK\r\nContent-Length: 1\x002\r\n\r\na', 1000, { collect: false })).toThrow(BadResponse);
    expect(() => parse('HTTP/1.1 200 OK\r\n Content-Length: 1\r\n\r\na', 1000, { collect: false })).toThrow(/bad header line/);
  });

  it('reads only the first `end` bytes of a reused read buffer', () => {
    // The socket reads into one buffer: what lies past this read's end is an older read's.
    const buffer = Buffer.alloc(200, 'x');
    const answer = 'HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody';
    buffer.write('HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\n\r\n\r\nHTTP/1.1 500', 0, 'latin1');
    const p = new ResponseParser();
    p.reset(false, true);
    // The head is cut after "Content-Length: 4\r\n": the stale blank line past it must not end the head.
    const cut = answer.indexOf('\r\n\r\n') + 2;
    expect(p.execute(buffer, cut)).toBe(-1);
    buffer.write(answer.slice(cut), 0, 'latin1');
    expect(p.execute(buffer, answer.length - cut)).toBe(answer.length - cut);
    // Kept body bytes are copies: the buffer's next read does not change them.
    buffer.fill('z');
    expect([p.status, Buffer.concat(p.body!).toString()]).toEqual([200, 'body']);
  });

  it('refuses bad answers, and stays bounded', () => {
    const bad = [
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 abc OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
    ];
    for (const text of bad) for (const size of [1, 1000]) expect(() => parse(text, size), text).toThrow(BadResponse);
    // A head that never ends, a chunk-size line that never ends: refused, not kept.
    expect(() => parse(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`, 4096)).toThrow(/head too large/);
    expect(() => parse(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'1'.repeat(9000)}`, 512)).toThrow(BadResponse);
    expect(errorKind(new BadResponse('x'))).toBe('other');
  });
});

describe('request bytes', () => {
  it('serializes method, path, host, headers, length; framing is the client’s; CR/LF refused', () => {
    const url = new URL('http://127.0.0.1:8080/a/b?c=1');
    const text = requestBytes('POST', url, ['X-A', '1', 'Content-Length', '99', 'Connection', 'x'], Buffer.from('body'), false).toString();
    expect(text).toBe('POST /a/b?c=1 HTTP/1.1\r\nX-A: 1\r\nhost: 127.0.0.1:8080\r\nconnection: close\r\ncontent-length: 4\r\n\r\nbody');
    expect(requestBytes('GET', url, ['Host', 'h'], undefined, true).toString()).toBe('GET /a/b?c=1 HTTP/1.1\r\nHost: h\r\n\r\n');
    expect(() => requestBytes('GET', url, ['X', 'a\r\nEvil: 1'], undefined, true)).toThrow(/bad header/);
    expect(() => requestBytes('GET', url, ['X Y', 'a'], undefined, true)).toThrow(/bad header/);
  });
});

/** A raw TCP server: `answer` writes whatever it likes for each request head it reads. */
async function rawServer(answer: (socket: net.Socket, n: number) => void) {
  let connections = 0;
  let requests = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (d) => {
      buffered += d.toString('latin1');
      while (buffered.includes('\r\n\r\n')) {
        buffered = buffered.slice(buffered.indexOf('\r\n\r\n') + 4);
        answer(socket, ++requests);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  const close = () => new Promise<void>((r) => {
    for (const s of sockets) s.destroy();
    server.close(() => r());
  });
  return { port, close, stats: () => ({ connections, requests }) };
}

let cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup) await c();
  cleanup = [];
});

function exchange(pool: Http1Pool, keepAlive = true, collect = true): { ex: Exchange; result: Promise<{ error?: Error; answer?: Answer; body?: string }> } {
  const bytes = requestBytes('GET', new URL(`http://127.0.0.1:${pool.port}/x`), [], undefined, keepAlive);
  let ex!: Exchange;
  const result = new Promise<{ error?: Error; answer?: Answer; body?: string }>((resolve) => {
    // The answer is the connection's parser, valid while done() runs: copied here.
    const done = (error: Error | undefined, answer: Answer | undefined) => resolve({ error, answer: answer && { status: answer.status, bodyBytes: answer.bodyBytes, headers: answer.headers, body: answer.body }, body: answer?.body ? Buffer.concat(answer.body).toString() : undefined });
    ex = { bytes, head: false, collect, deadline: Number.POSITIVE_INFINITY, timeOut: () => {}, done };
  });
  pool.send(ex);
  return { ex, result };
}

async function withServer(answer: (socket: net.Socket, n: number) => void, keepAlive = true) {
  const server = await rawServer(answer);
  const pool = new Http1Pool('127.0.0.1', server.port, keepAlive);
  cleanup.push(() => pool.destroy(), server.close);
  return { server, pool };
}

describe('HTTP/1.1 pool over sockets', () => {
  it('keeps one connection alive across answers sent in pieces (Content-Length and chunked)', async () => {
    const { server, pool } = await withServer((socket, n) => {
      const text = n % 2 ? 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello' : 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n';
      // Three bytes at a time, each write a moment after the last.
      const next = (at: number) => at < text.length && socket.write(text.slice(at, at + 3), () => setTimeout(() => next(at + 3), 1));
      next(0);
    });
    for (let i = 1; i <= 4; i++) {
      const { error, answer, body } = await exchange(pool).result;
      expect(error).toBeUndefined();
      expect([answer!.status, body]).toEqual([200, i % 2 ? 'hello' : 'abc']);
    }
    expect(server.stats()).toEqual({ connections: 1, requests: 4 });
  });

  it('opens a new connection when the answer says close, and one per request without keepAlive', async () => {
    const { server, pool } = await withServer((socket) => socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok'));
    for (let i = 0; i < 3; i++) expect((await exchange(pool).result).answer?.status).toBe(200);
    expect(server.stats()).toEqual({ connections: 3, requests: 3 });
    const off = await withServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'), false);
    for (let i = 0; i < 3; i++) expect((await exchange(off.pool, false).result).answer?.status).toBe(200);
    expect(off.server.stats()).toEqual({ connections: 3, requests: 3 });
  });

  it('keeps each answer\'s body whole while answers on other connections are read in between', async () => {
    // Each answer comes in two writes; the other connection's pieces are read in between, into
    // the same read buffer.
    const { pool } = await withServer((socket, n) => {
      const fill = n === 1 ? 'a' : 'b';
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n${fill.repeat(4)}`);
      setTimeout(() => socket.write(fill.toUpperCase().repeat(4)), 30);
    });
    const [first, second] = await Promise.all([exchange(pool).result, exchange(pool).result]);
    expect([first.body, second.body].sort()).toEqual(['aaaaAAAA', 'bbbbBBBB']);
  });

  it('reads a body until close', async () => {
    const { pool } = await withServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\n\r\npart one, ');
      setTimeout(() => socket.end('part two'), 20);
    });
    const { error, body, answer } = await exchange(pool).result;
    expect([error, body, answer?.bodyBytes]).toEqual([undefined, 'part one, part two', 18]);
  });

  it('turns bad answers, early closes and refused connections into counted error kinds', async () => {
    const bad = await withServer((socket) => socket.write('HTTP/1.1 2xx OK\r\n\r\n'));
    expect(errorKind((await exchange(bad.pool).result).error)).toBe('other');
    const extra = await withServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nabc'));
    expect(errorKind((await exchange(extra.pool).result).error)).toBe('other');
    const cut = await withServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(errorKind((await exchange(cut.pool).result).error)).toBe('reset');
    const gone = await rawServer(() => {});
    await gone.close();
    const refused = new Http1Pool('127.0.0.1', gone.port, true);
    cleanup.push(() => refused.destroy());
    expect(errorKind((await exchange(refused).result).error)).toBe('refused');
  });

  it('sends again once on a new connection when the server closed an idle kept one', async () => {
    const { server, pool } = await withServer((socket, n) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      // After the first answer the server drops the connection without saying so.
      if (n === 1) setTimeout(() => socket.destroy(), 5);
    });
    expect((await exchange(pool).result).answer?.status).toBe(200);
    await new Promise((r) => setTimeout(r, 30));
    const second = await exchange(pool).result;
    expect([second.error, second.answer?.status]).toEqual([undefined, 200]);
    expect(server.stats().connections).toBe(2);
  });

  it('cancels an exchange (timeout): the error is the reason given and the connection is dropped', async () => {
    const { pool } = await withServer(() => {});
    const { ex, result } = exchange(pool);
    setTimeout(() => ex.connection!.cancel(ex, new LoadTimeout('no answer within 50 ms')), 50);
    const { error } = await result;
    expect(errorKind(error)).toBe('timeout');
  });

  it('sweeps the exchanges past their deadline and cancels all in flight, found on their connections', async () => {
    const { pool } = await withServer(() => {});
    const late = exchange(pool);
    const early = exchange(pool);
    const other = exchange(pool);
    late.ex.deadline = 1_000;
    early.ex.deadline = 2_000;
    other.ex.deadline = 3_000;
    const timedOut: Exchange[] = [];
    for (const { ex } of [late, early, other]) {
      ex.timeOut = () => {
        timedOut.push(ex);
        ex.connection!.cancel(ex, new LoadTimeout('past its deadline'));
      };
    }
    pool.sweep(2_000);
    expect(timedOut).toEqual([late.ex, early.ex]);
    expect(errorKind((await late.result).error)).toBe('timeout');
    expect(errorKind((await early.result).error)).toBe('timeout');
    pool.cancelAll(new Error('stopped'));
    expect((await other.result).error?.message).toBe('stopped');
  });
});
