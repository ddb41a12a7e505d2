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

/** What an exchange learns of its answer: the connection's parser, read before the next request resets it. */
export interface Answer {
  readonly status: number;
  readonly bodyBytes: number;
  readonly headers: Record<string, string | string[]> | undefined;
  readonly body: Buffer[] | undefined;
  /** A redirect's Location, when the exchange follows redirects. */
  readonly location?: string | undefined;
}

/** One request on the pool. `connection` is set while it is on one, so it can be cancelled. */
export interface Exchange {
  bytes: Buffer;
  /** A HEAD request: the answer has no body whatever its headers say. */
  head: boolean;
  /** Keep the answer's headers and body (captures read them). */
  collect: boolean;
  /** Read a redirect's Location (the application setting followRedirects). */
  follow?: boolean;
  /** performance.now() ms after which the pool's sweep times it out (Infinity: never). */
  deadline: number;
  connection?: Connection;
  done(error: Error | undefined, answer: Answer | undefined): void;
  /** The deadline passed (sweep): the exchange ends itself with a timeout. */
  timeOut(): void;
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

  /** The exchange on this connection, if one is in flight. */
  get exchange(): Exchange | undefined {
    return this.current;
  }

  send(exchange: Exchange): void {
    this.current = exchange;
    exchange.connection = this;
    this.received = false;
    this.parser.reset(exchange.head, exchange.collect, exchange.follow === true);
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
    this.current = undefined;
    this.answered++;
    if (p.keepAlive && this.pool.keepAlive && !this.closed) this.pool.release(this);
    else this.drop();
    // The parser is the answer (no object per request): done() reads it before any next send.
    exchange.done(undefined, p);
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

  /**
   * Times out the exchanges past their deadline: one sweep over the connections every few ms
   * instead of a timer (or a set entry) per request.
   */
  sweep(now: number): void {
    for (const connection of [...this.all]) {
      const exchange = connection.exchange;
      if (exchange && exchange.deadline <= now) exchange.timeOut();
    }
  }

  /** Cancels every exchange in flight (Ctrl-C, end of the grace time); each ends with `reason`. */
  cancelAll(reason: Error): void {
    for (const connection of [...this.all]) {
      const exchange = connection.exchange;
      if (exchange) connection.cancel(exchange, reason);
    }
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
