/**
 * DNS rebinding through the TCP relay. A web page can point its own name at 127.0.0.1 and then
 * reach a relay on this computer as its own origin, reading what the target answers. Raw TCP has
 * no Host, but a browser only speaks HTTP (fetch, WebSocket) there, and its HTTP/1 request names
 * the page's host. So the first bytes of a connection are looked at: when they are an HTTP/1
 * request head whose Host is not a name of this computer, the connection is refused; anything
 * else (another protocol, an HTTP client addressing localhost) is relayed as it came.
 */
import { isLoopbackName } from '../../listener.js';

/** The methods a web page can send; a connection starting otherwise is not a browser's. */
const BROWSER_METHODS = ['GET ', 'POST ', 'PUT ', 'DELETE ', 'HEAD ', 'OPTIONS ', 'PATCH '];
/** A head longer than this is refused rather than relayed unchecked (Node's own limit is 16 KB). */
export const MAX_HEAD_BYTES = 64 * 1024;

export type HeadVerdict =
  /** Not a browser's request to another name: relay everything so far, and stop looking. */
  | { pass: true }
  /** Could still be a browser's request head: hold the bytes until more come. */
  | { wait: true }
  /** A browser's request addressed to another name (or a head too long to check). */
  | { refuse: string };

/** What to do with the first bytes a client sent (everything so far). */
export function browserHeadVerdict(bytes: Buffer): HeadVerdict {
  const start = bytes.subarray(0, 8).toString('latin1');
  if (!BROWSER_METHODS.some((m) => start.startsWith(m))) {
    return BROWSER_METHODS.some((m) => m.startsWith(start)) ? { wait: true } : { pass: true };
  }
  const lineEnd = bytes.indexOf('\n');
  if (lineEnd === -1) return bytes.length > MAX_HEAD_BYTES ? { refuse: 'a request line over 64 KB' } : { wait: true };
  // `GET key` (Redis, memcached) is no HTTP request: only a request line ending in HTTP/1.x is.
  if (!/^[A-Z]+ \S+ HTTP\/1\.[01]\r?$/.test(bytes.subarray(0, lineEnd).toString('latin1'))) return { pass: true };
  const headEnd = bytes.indexOf('\r\n\r\n');
  const end = headEnd !== -1 ? headEnd : bytes.indexOf('\n\n');
  if (end === -1) return bytes.length > MAX_HEAD_BYTES ? { refuse: 'a request head over 64 KB' } : { wait: true };
  const host = /^host:[ \t]*([^\r\n]*?)[ \t]*\r?$/im.exec(bytes.subarray(0, end).toString('latin1'))?.[1];
  if (host === undefined || isLoopbackName(host)) return { pass: true };
  return { refuse: `an HTTP request addressed to ${JSON.stringify(host.slice(0, 100))}` };
}
