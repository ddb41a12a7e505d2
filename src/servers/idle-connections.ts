/**
 * How long the shared HTTP port keeps a connection with nothing to do. HTTP/1.1 gets Node's
 * keep-alive time (5 s), with TLS too (Node's HTTPS-and-HTTP/2 server has none: its HTTP/1.1
 * connections stayed open until the client left). An HTTP/2 connection with no stream open is
 * closed after IDLE_TIMINGS.http2Ms with a GOAWAY (requests a client sends meanwhile are refused
 * as retryable, REFUSED_STREAM): Node closes none, so an idle client held its place under the
 * connection cap until `ferry serve` stopped. A connection with a stream open, however silent (an
 * event stream, a delayed answer, a `hang` fault), is never closed for it.
 */
import type { Http2SecureServer, ServerHttp2Session } from 'node:http2';

/** The times (a test lowers them, as it does CONNECTION_CAPS; read when a connection goes idle). */
export const IDLE_TIMINGS = {
  /** An HTTP/1.1 connection between requests: Node's default for plain HTTP. */
  http1Ms: 5_000,
  /** An HTTP/2 connection with no stream open: clients keep them for reuse, longer than HTTP/1.1's (nginx's keepalive_timeout is 75 s). */
  http2Ms: 60_000,
};

/**
 * Gives the HTTPS-and-HTTP/2 `server` the idle times: its HTTP/1.1 connections Node's keep-alive
 * time, its HTTP/2 ones a timer each, started whenever no stream is open.
 */
export function closeIdleConnections(server: Http2SecureServer): void {
  // Node reads it for the HTTP/1.1 connections this server hands to its HTTP/1.1 side (allowHTTP1).
  (server as unknown as { keepAliveTimeout: number }).keepAliveTimeout = IDLE_TIMINGS.http1Ms;
  server.on('session', (session: ServerHttp2Session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const idle = () => {
      timer = setTimeout(() => {
        if (open === 0 && !session.closed && !session.destroyed) session.close();
      }, IDLE_TIMINGS.http2Ms).unref();
    };
    session.on('stream', (stream) => {
      open++;
      clearTimeout(timer);
      stream.once('close', () => {
        if (--open === 0 && !session.closed) idle();
      });
    });
    session.once('close', () => clearTimeout(timer));
    idle();
  });
}
