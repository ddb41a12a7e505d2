/**
 * Which web pages may open a server's WebSocket (the plain WebSocket server and Socket.IO's
 * WebSocket transport). Browsers hold WebSockets to no CORS: without a check, any page the user
 * visits could connect to a server on this computer and read what it sends. Browsers always send
 * the page's `Origin` on a WebSocket handshake; clients that are not web pages (Ferry, Postman,
 * wscat, websocat, `ws` and socket.io-client in Node) send none. So, unless the server's `cors`
 * lets every origin in, a handshake is taken without an Origin or from a page of the server's own
 * origin only, and refused otherwise.
 */
import type { IncomingMessage } from 'node:http';

/**
 * True when a request comes from no web page (no `Origin`) or from a page of this server's own
 * origin (the same host and port as it was sent to).
 */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === String(req.headers[':authority'] ?? req.headers.host ?? '').toLowerCase();
  } catch {
    return false;
  }
}

/** The traffic log's warning for a refused page: its origin, and the setting that lets it in. */
export function otherOriginRefused(req: IncomingMessage, section: 'websocket' | 'socketio'): string {
  return `refused: a web page of another origin (${String(req.headers.origin).slice(0, 100)}); set ${section}.cors: true to let pages of other origins in`;
}
