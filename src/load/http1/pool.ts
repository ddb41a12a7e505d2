/**
 * The load generator's plain-HTTP/1.1 client: a pool of `net.Socket` connections to one origin,
 * one request at a time on each (no pipelining), idle ones reused when keep-alive allows. It
 * exists because undici's per-request cost made the generator slower than the tools it is
 * measured against; TLS and HTTP/2 still go through undici.
 */
import net from 'node:net';
import { ResponseParser } from './response-parser.js';

/**
 * Sockets read into this one buffer (`onread`), not into a new Buffer per read through the
 * socket's stream: the parser reads each read before the next, and copies what it keeps. One
 * per thread (each generator worker has its own module instance).
 */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

export interface Answer {
  status: number;
  bodyBytes: number;
  headers: Record<string, string | string[]> | undefined;
  body: Buffer[] | undefined;
}

/** One request on the pool. `connection` is set while it is on one, so it can be cancelled. */
export interface Exchange {
  bytes: Buffer;
  /** A HEAD request: the answer has no body whatever its headers say. */
  head: boolean;
  /** Keep the answer's headers and body (captures read them). */
  collect: boolean;
  connection?: Connection;
  done(error: Error | undefined, answer: Answer | undefined): void;
}

/** The socket closed before the answer was complete. */
function closedEarly(): Error {
  return Object.assign(new Error('the server closed the connection before the answer was complete'), { code: 'ECONNRESET' });
}

export class Connection {
  private readonly socket: net.Socket;
  private readonly parser = new ResponseParser();
  private current: Exchange | undefined;
  private error: Error | undefined;
  /** Answers completed on this connection (a reused one may meet the server's idle close). */
  private answered = 0;
  private received = false;
  private closed = false;

  constructor(private readonly pool: Http1Pool) {
    this.socket = net.connect({ host: pool.host, port: pool.port, noDelay: true, onread: { buffer: READ_BUFFER, callback: (size) => this.onData(READ_BUFFER, size) } });
    this.socket.on('error', (error) => (this.error ??= error));
    this.socket.on('close', () => this.onClose());
  }

  send(exchange: Exchange): void {
    this.current = exchange;
    exchange.connection = this;
    this.received = false;
    this.parser.reset(exchange.head, exchange.collect);
    this.socket.write(exchange.bytes);
  }

  /** Ends the exchange now (timeout, Ctrl-C): the connection cannot be reused. */
  cancel(exchange: Exchange, reason: Error): void {
    if (this.current !== exchange) return;
    this.current = undefined;
    this.drop();
    exchange.done(reason, undefined);
  }

  drop(): void {
    this.closed = true;
    this.pool.forget(this);
    this.socket.destroy();
  }

  /** `size` bytes were read into the shared `buffer`. Returns true: go on reading. */
  private onData(buffer: Buffer, size: number): boolean {
    const exchange = this.current;
    // Bytes nobody asked for: the connection's framing cannot be trusted any more.
    if (!exchange) {
      this.drop();
      return true;
    }
    this.received = true;
    let end: number;
    try {
      end = this.parser.execute(buffer, size);
      if (end >= 0 && end < size) throw Object.assign(new Error('bytes after the end of the answer'), { code: 'FERRY_BAD_RESPONSE' });
    } catch (error) {
      this.current = undefined;
      this.drop();
      exchange.done(error as Error, undefined);
      return true;
    }
    if (end >= 0) this.complete(exchange);
    return true;
  }

  private complete(exchange: Exchange): void {
    const p = this.parser;
    const answer: Answer = { status: p.status, bodyBytes: p.bodyBytes, headers: p.headers, body: p.body };
    this.current = undefined;
    this.answered++;
    if (p.keepAlive && this.pool.keepAlive && !this.closed) this.pool.release(this);
    else this.drop();
    exchange.done(undefined, answer);
  }

  private onClose(): void {
    this.closed = true;
    this.pool.forget(this);
    const exchange = this.current;
    if (!exchange) return;
    this.current = undefined;
    if (!this.error && this.parser.endsWithClose()) return this.complete(exchange);
    // A kept connection the server closed while idle, before any byte of the answer: send
    // again once on a new connection, as browsers do (the request never reached a handler).
    if (this.answered > 0 && !this.received && !this.pool.stopped) return this.pool.send(exchange, true);
    exchange.done(this.error ?? closedEarly(), undefined);
  }
}

export class Http1Pool {
  private readonly idle: Connection[] = [];
  private readonly all = new Set<Connection>();
  stopped = false;

  constructor(
    readonly host: string,
    readonly port: number,
    readonly keepAlive: boolean,
  ) {}

  /** `fresh`: not on an idle connection (a retry after the server closed one). */
  send(exchange: Exchange, fresh = false): void {
    const connection = (!fresh && this.idle.pop()) || this.open();
    connection.send(exchange);
  }

  release(connection: Connection): void {
    this.idle.push(connection);
  }

  forget(connection: Connection): void {
    this.all.delete(connection);
    const at = this.idle.indexOf(connection);
    if (at >= 0) this.idle.splice(at, 1);
  }

  destroy(): void {
    this.stopped = true;
    for (const connection of [...this.all]) connection.drop();
  }

  private open(): Connection {
    const connection = new Connection(this);
    this.all.add(connection);
    return connection;
  }
}
