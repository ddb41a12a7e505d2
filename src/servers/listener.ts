/**
 * The shared HTTP listener, the socket side of every kind with transport `sharedHttp`: plain
 * HTTP/1.1, or with TLS HTTP/2 and HTTP/1.1 on one port (ALPN picks). It keeps track of its
 * connections so that stopping really stops: open keep-alive connections, hung requests, event
 * streams and upgraded sockets are closed, not waited for; and it keeps at most
 * CONNECTION_CAPS.sharedHttp of them, each of HTTP/2 at most CONNECTION_CAPS.http2Streams
 * streams at once (connection-cap.ts), and closes those idle too long (idle-connections.ts). Own-socket kinds return the same
 * `Listener` shape and word their bind errors with `bindFailure` (as a ServerError: `bindError`).
 */
import http, { type IncomingMessage } from 'node:http';
import http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import { CONNECTION_CAPS, capConnections } from './connection-cap.js';
import { ServerError } from './errors.js';
import { closeIdleConnections, IDLE_TIMINGS } from './idle-connections.js';
import { answerable, type AnyRequest, type AnyResponse, firstHeader, plainTextHeaders, rawPlainTextAnswer } from './http-types.js';
import type { TlsMaterial } from './tls.js';

/** A bound server socket, whichever kind made it. */
export interface Listener {
  /** The bound URL, always with 127.0.0.1 (e.g. `http://127.0.0.1:4010`, `tcp://127.0.0.1:9000`). */
  readonly url: string;
  readonly port: number;
  connections(): number;
  /** Stops accepting, destroys open connections; resolves when the port is free. */
  close(): Promise<void>;
}

export interface ListenOptions {
  host: string;
  port: number;
  tls: TlsMaterial | undefined;
  handler: (req: AnyRequest, res: AnyResponse) => void;
  /** HTTP/1.1 upgrades (WebSocket, Socket.IO); without it Node hands them to `handler`. */
  upgrade?: UpgradeHandler;
  /** For messages: the server file. */
  file: string;
  /** Told of each request refused for a foreign Host (see `loopbackNamesOnly`), so the traffic log shows it. */
  onRefused?: (refused: RefusedRequest) => void;
  /** Told of connections closed past the cap (a burst as one call and a count, connection-cap.ts), so the traffic log shows them. */
  onRefusedConnection?: (peer: string, preview: string) => void;
}

/** A request the DNS-rebinding guard refused, as the traffic log records it. */
export interface RefusedRequest {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** The Host it was addressed to. */
  host: string;
  status: number;
  /** `performance.now()` when it arrived. */
  start: number;
  bytesOut: number;
}

export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

export async function listen(options: ListenOptions): Promise<Listener> {
  const sockets = new Set<Socket>();
  const handler = options.host === '127.0.0.1' ? loopbackNamesOnly(options.handler, options.onRefused) : options.handler;
  let server: http.Server | http2.Http2SecureServer;
  if (options.tls) {
    server = http2.createSecureServer({ cert: options.tls.cert, key: options.tls.key, allowHTTP1: true, settings: { maxConcurrentStreams: CONNECTION_CAPS.http2Streams } }, handler);
    closeIdleConnections(server);
  } else {
    server = http.createServer({ keepAliveTimeout: IDLE_TIMINGS.http1Ms }, handler);
  }
  const max = CONNECTION_CAPS.sharedHttp;
  const why = `${max.toLocaleString('en-US')} connections are open already, the server's limit; close some (a load test: fewer users or a lower maxInFlight), or spread the clients over a second server`;
  capConnections(server, max, why, options.onRefusedConnection ?? (() => {}));
  // The raw TCP socket, for both kinds (TLS wraps it later); destroying it ends everything on it.
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    // Read now, so Node keeps it: a client that resets the connection right after asking to
    // upgrade has no remote address any more when the upgrade is handled (it was logged `?:0`).
    if (options.upgrade) void socket.remoteAddress;
    socket.once('close', () => sockets.delete(socket));
  });
  if (options.upgrade) {
    // The upgraded socket is the connection tracked above, so close() ends it too.
    server.on('upgrade', options.host === '127.0.0.1' ? loopbackUpgradesOnly(options.upgrade, options.onRefused) : options.upgrade);
  }
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      reject(bindError(error, options));
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen({ host: options.host, port: options.port, exclusive: true });
  });
  server.on('error', () => {}); // after listening, socket errors belong to their connections

  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const url = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    connections: () => sockets.size,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const ends = [...sockets].map((socket) => new Promise<void>((resolve) => {
          socket.once('close', () => resolve());
          socket.destroy();
        }));
        await Promise.all([closed, ...ends]);
      })();
      return closing;
    },
  };
}

/** Names of this computer a request to a server on 127.0.0.1 may be addressed to (port optional). */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.localhost)\.?(?::\d{1,5})?$/i;

/** True when a Host header names this computer (127.0.0.1, localhost, [::1], a name under .localhost; port optional). */
export function isLoopbackName(host: string): boolean {
  return LOOPBACK_HOST.test(host);
}

/**
 * DNS rebinding: a web page can point its own host name at 127.0.0.1 and then read this server's
 * answers (and, through a proxy fallback, its backend's) as same-origin. Browsers send the page's
 * name as Host, so a server on 127.0.0.1 answers only loopback names; one on 0.0.0.0 is reached
 * by other names on purpose. A request without Host (HTTP/1.0) is let through: no browser sends one.
 * (Exported for bench/mock.ts, which measures a request's cost without sockets.)
 */
export function loopbackNamesOnly(handler: (req: AnyRequest, res: AnyResponse) => void, onRefused?: (refused: RefusedRequest) => void): (req: AnyRequest, res: AnyResponse) => void {
  // A keep-alive connection sends the same Host on every request: the name checked once per
  // connection (and again only when it changes) keeps the pattern off the hot path.
  const approved = new WeakMap<object, string>();
  return (req, res) => {
    // HTTP/1.1: from the raw headers, so that `req.headers` is not built for every request.
    const host = req.httpVersionMajor === 2 ? (req.headers[':authority'] ?? req.headers.host) : firstHeader(req, 'host');
    if (host === undefined || approved.get(req.socket) === host) return handler(req, res);
    if (LOOPBACK_HOST.test(String(host))) {
      if (typeof host === 'string') approved.set(req.socket, host);
      return handler(req, res);
    }
    const start = performance.now();
    const text = notLoopbackText(host);
    const out = answerable(res);
    out.writeHead(403, plainTextHeaders(text));
    out.end(text);
    onRefused?.({ method: req.method ?? 'GET', path: req.url ?? '/', host: String(host), status: 403, start, bytesOut: Buffer.byteLength(text) });
  };
}

/** The same check for upgrades: a page's WebSocket is as much a rebinding reader as its fetch. */
function loopbackUpgradesOnly(upgrade: UpgradeHandler, onRefused?: (refused: RefusedRequest) => void): UpgradeHandler {
  return (req, socket, head) => {
    const host = req.headers.host;
    if (host === undefined || LOOPBACK_HOST.test(host)) return upgrade(req, socket, head);
    const start = performance.now();
    const text = notLoopbackText(host);
    refuseUpgrade(socket, text);
    onRefused?.({ method: req.method ?? 'GET', path: req.url ?? '/', host, status: 403, start, bytesOut: Buffer.byteLength(text) });
  };
}

/** Answers an upgrade request 403 with `text` (what was refused and what to do), and closes its connection. */
export function refuseUpgrade(socket: Duplex, text: string): void {
  socket.end(rawPlainTextAnswer('403 Forbidden', text));
}

/** Why a request for another name is refused, and the two ways out (a proxy in front of the server, mostly nginx's `proxy_set_header Host $host`, needs the first). */
function notLoopbackText(host: string | string[]): string {
  return `Ferry's server on 127.0.0.1 only answers requests addressed to 127.0.0.1, localhost, [::1] or a name under .localhost (this one was for ${JSON.stringify(String(host).slice(0, 100))}): a web page could otherwise read it through DNS rebinding. A reverse proxy on this computer can address it as localhost (nginx: proxy_set_header Host localhost;), or set host: 0.0.0.0 in the server file to answer other names (other devices can then reach it too).\n`;
}

/** The ServerError of a port that could not be bound: `bindFailure`'s message, and the system code. */
export function bindError(error: NodeJS.ErrnoException, options: { host: string; port: number; file: string }): ServerError {
  const failure = new ServerError(bindFailure(error, options));
  if (error.code !== undefined) failure.code = error.code;
  return failure;
}

/** A port taken by another server of the workspace started at the same time (not "another program"). */
export function takenBySibling(options: { host: string; port: number; file: string }, otherFile: string): string {
  return `${options.file}: port ${options.port} on ${options.host} is already taken by ${otherFile} of this workspace, started with it. Give one of them another port (0 = any free port).`;
}

/** Why a port could not be bound, naming the server file and what to do (every kind words it so). */
export function bindFailure(error: NodeJS.ErrnoException, options: { host: string; port: number; file: string }): string {
  const where = `${options.host}:${options.port}`;
  switch (error.code) {
    case 'EADDRINUSE':
      return `${options.file}: port ${options.port} on ${options.host} is already in use by another program. Stop that program, or set another port (0 = any free port).`;
    case 'EACCES':
    case 'EPERM':
      return `${options.file}: not allowed to listen on ${where}${options.port < 1024 ? ' (ports below 1024 need administrator rights)' : ''}. Use a port from 1024 up, or 0 for any free port.`;
    case 'EADDRNOTAVAIL':
      return `${options.file}: this computer has no address ${options.host} to listen on.`;
    default:
      return `${options.file}: cannot listen on ${where}: ${error.message}`;
  }
}
