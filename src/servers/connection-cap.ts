/**
 * How many connections a local server keeps at once. Without a cap a flood (a client opening
 * connections in a loop and never closing them, a load test past its means) grows the memory and
 * open files of `ferry serve` without bound, and once the process runs out of files no server of
 * it can accept anyone. Node's `server.maxConnections` closes a connection past the cap as it is
 * accepted: checked once per connection, nothing on a request's path. The refusals are recorded
 * as the relay started doing: the first of a burst at once, with its peer, and the rest counted
 * into one record a second, so a flood neither prints a line per connection nor pushes everything
 * else out of the traffic log.
 */
import type net from 'node:net';

/**
 * The caps of a server's port (a test lowers them, as it does HELD_TIMINGS; read when the port
 * is bound). The relay's own, 256 clients, is MAX_RELAYED_CLIENTS (each client holds two sockets).
 */
export const CONNECTION_CAPS = {
  /**
   * The port the HTTP kinds share (mock, SSE, WebSocket, Socket.IO, MCP): above the 1,000
   * requests in flight of a default `ferry load` test (one connection each), with room for a
   * closed-model test of a few thousand users.
   */
  sharedHttp: 4096,
  /** A raw TCP server (no `ferry load` test speaks it): nginx's `worker_connections 1024`. */
  tcp: 1024,
  /**
   * A DNS server's TCP side: clients come over TCP only for answers too big for UDP, and close
   * after them (the idle time closes the rest); BIND's `tcp-clients` default is 150.
   */
  dnsTcp: 150,
  /**
   * Streams at once on one HTTP/2 connection of the shared port (SETTINGS_MAX_CONCURRENT_STREAMS):
   * Node allows 2³²−1, so one connection held thousands of event streams past the cap above.
   * nginx's `http2_max_concurrent_streams` default; undici (`ferry load`) keeps to what it is told.
   */
  http2Streams: 128,
};

/**
 * A connection silent this long is probed (TCP keepalive), so one whose peer vanished without
 * closing (a cable pulled, a laptop asleep, a VM gone) is closed by the system and frees its
 * place under the cap, instead of holding it until `ferry serve` stops. The probes cost nothing
 * while data flows; the system's own delay is 2 hours.
 */
export const KEEPALIVE_DELAY_MS = 60_000;

/** Turns on keepalive probes for `socket` (accepted, or one a server opens to its target). */
export function probeWhenSilent(socket: net.Socket): void {
  socket.setKeepAlive(true, KEEPALIVE_DELAY_MS);
}

/** Refusals after the first of a burst are counted into one record per this interval. */
const SUMMARY_MS = 1000;

/**
 * Caps `server` at `max` open connections, each probed when silent (KEEPALIVE_DELAY_MS) so a
 * dead peer's place comes back. `record(peer, preview)` is told of refusals, worded
 * `refused: ${why}` for the first of a burst and `refused 41 more: ${why}` (peer `clients`) for the
 * rest, once a second; what is still counted when the server closes is recorded then.
 */
export function capConnections(server: net.Server, max: number, why: string, record: (peer: string, preview: string) => void): void {
  server.maxConnections = max;
  // Once per accepted connection (the raw socket, under TLS too), nothing per request.
  server.on('connection', probeWhenSilent);
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const flush = (): boolean => {
    const count = since;
    since = 0;
    if (count > 0) record('clients', `refused ${count.toLocaleString('en-US')} more: ${why}`);
    return count > 0;
  };
  // A second without refusals ends the burst: the next one is recorded at once again.
  const summarize = () => void (timer = flush() ? setTimeout(summarize, SUMMARY_MS).unref() : undefined);
  server.on('drop', (data?: net.DropArgument) => {
    if (timer !== undefined) return void since++;
    record(data ? `${data.remoteAddress}:${data.remotePort}` : 'a client', `refused: ${why}`);
    timer = setTimeout(summarize, SUMMARY_MS).unref();
  });
  server.once('close', () => {
    clearTimeout(timer);
    flush();
  });
}
