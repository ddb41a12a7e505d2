/**
 * The server load tests talk to (127.0.0.1, port 0): counts requests per path and connections,
 * keeps what the last requests carried, and can stall once or answer slowly; `/hostile` answers
 * the text a backtracking regular expression stalls on; `/redirect?to=…&status=…` points elsewhere.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';

export interface Seen {
  method: string;
  path: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  at: number;
  /** The request body as text, once it has been read. */
  body: string;
}

export interface TargetServer {
  url: string;
  connections: number;
  byPath: Map<string, number>;
  /** The first 5,000 requests. */
  seen: Seen[];
  /** Requests that arrive before this time (epoch ms) are held until then. */
  stallUntil: number;
  /** Stall `stallMs` from the arrival of this request (1-based count), so a stall lands inside the traffic whatever the start-up took. */
  stallAtRequest?: number;
  stallMs?: number;
  /** The first request to each of these paths is held this many ms (one user's request, found by a captured value in its path). */
  holdFirst: Map<string, number>;
  close(): Promise<void>;
}

export async function startTargetServer(): Promise<TargetServer> {
  let tokens = 0;
  const state: Omit<TargetServer, 'url' | 'close'> = { connections: 0, byPath: new Map(), seen: [], stallUntil: 0, holdFirst: new Map() };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    state.byPath.set(url.pathname, (state.byPath.get(url.pathname) ?? 0) + 1);
    const seen: Seen = { method: req.method ?? '', path: url.pathname, url: req.url ?? '', headers: req.headers, at: Date.now(), body: '' };
    if (state.seen.length < 5000) state.seen.push(seen);
    if (state.stallAtRequest !== undefined && state.seen.length === state.stallAtRequest) state.stallUntil = Date.now() + (state.stallMs ?? 1000);
    const answer = () => {
      if (url.pathname === '/login') {
        const n = ++tokens;
        res.setHeader('x-id', `id-${n}`);
        res.setHeader('content-type', 'application/json');
        // ?nullfrom=N: from the N-th login on, the token is null (an API with none to give).
        const nullFrom = Number(url.searchParams.get('nullfrom') ?? Infinity);
        const json = JSON.stringify({ data: { token: n >= nullFrom ? null : `tok-${n}` } });
        // ?encode=gzip or br: the answer compressed, with its Content-Encoding.
        const encode = url.searchParams.get('encode');
        if (encode === 'gzip' || encode === 'br') {
          res.setHeader('content-encoding', encode);
          return res.end(encode === 'gzip' ? zlib.gzipSync(json) : zlib.brotliCompressSync(json));
        }
        return res.end(json);
      }
      if (url.pathname === '/hostile') {
        // ?n=: n times "a" then "b", what a catastrophic pattern such as (a+)+$ backtracks on.
        return res.end(`${'a'.repeat(Number(url.searchParams.get('n') ?? 30_000))}b`);
      }
      if (url.pathname === '/redirect') {
        // ?to=: where it points (a path or a whole URL; `self`: back to itself, a loop); ?status= the redirect's code (default 302).
        const to = url.searchParams.get('to') ?? '/a';
        res.statusCode = Number(url.searchParams.get('status') ?? 302);
        res.setHeader('location', to === 'self' ? (req.url ?? '/') : to);
        return res.end('moved');
      }
      if (url.pathname === '/fail') {
        res.statusCode = 500;
        return res.end('no');
      }
      res.end('ok');
    };
    const delay = Number(url.searchParams.get('delay') ?? 0);
    const stall = state.stallUntil - Date.now();
    const held = state.holdFirst.get(url.pathname) ?? 0;
    state.holdFirst.delete(url.pathname);
    const wait = Math.max(delay, stall, held);
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (seen.body += chunk));
    req.on('end', () => (wait > 0 ? setTimeout(answer, wait) : answer()));
  });
  server.on('connection', () => state.connections++);
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  }) as TargetServer;
}
