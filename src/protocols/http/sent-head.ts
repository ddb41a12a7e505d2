/**
 * The head of a request as undici wrote it, and the headers post-response scripts see as sent
 * (`pm.request.headers`, the legacy `request.headers`): undici adds Host, Connection and
 * Content-Length itself, so those are read from what it wrote rather than worked out again.
 *
 * undici publishes each request's head on the diagnostics channel `undici:client:sendHeaders`
 * as it writes it, in the same synchronous step as the request's `onConnect` (HTTP/1.1 and
 * HTTP/2 alike), so the head published after an exchange's `onConnect` is that exchange's. Over
 * HTTP/1.1 the published text lacks the Content-Length line, which undici appends in the socket
 * write that follows at once: it is read from that write.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The header lines of one request head as written (HTTP/2: its pseudo-headers too), filled when undici writes it. */
export interface SentHead {
  lines?: [string, string][];
}

let awaiting: { method: string; target: string; head: SentHead } | undefined;
let subscribed = false;

/**
 * Call from an exchange's `onConnect`: the head undici writes next for `method` and `target`
 * (path and query; a proxy's absolute form ends with it) goes into the returned object.
 */
export function expectHead(method: string, target: string): SentHead {
  if (!subscribed) {
    diagnostics.subscribe('undici:client:sendHeaders', onHead);
    subscribed = true;
  }
  const mine = { method, target, head: {} };
  awaiting = mine;
  // The head follows onConnect in the same step; an exchange aborted in between leaves nothing waiting.
  queueMicrotask(() => {
    if (awaiting === mine) awaiting = undefined;
  });
  return mine.head;
}

function onHead(message: unknown): void {
  const want = awaiting;
  awaiting = undefined;
  if (!want) return;
  // A subscriber that throws would crash the process: a head not read leaves the headers as handed over.
  try {
    const { request, headers: text, socket } = message as { request: { method?: string; path?: string }; headers: string; socket: Socket };
    if (request.method !== want.method || !String(request.path).endsWith(want.target)) return;
    const http1 = text.startsWith(`${request.method} `);
    want.head.lines = headLines(text, http1);
    if (http1) readNextWrite(socket, text, want.head.lines);
  } catch {
    want.head.lines = undefined;
  }
}

/** `name: value` lines of a head (the request line of an HTTP/1.1 head left out). */
function headLines(text: string, skipFirst: boolean): [string, string][] {
  const out: [string, string][] = [];
  const lines = text.split('\r\n');
  for (let i = skipFirst ? 1 : 0; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':', line.startsWith(':') ? 1 : 0);
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 1).trim()]);
  }
  return out;
}

/** The lines undici appends to `text` in the socket's next write (Content-Length), added to `lines`. */
function readNextWrite(socket: Socket, text: string, lines: [string, string][]): void {
  const own = Object.getOwnPropertyDescriptor(socket, 'write');
  const write = socket.write;
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    if (own) Object.defineProperty(socket, 'write', own);
    else delete (socket as { write?: unknown }).write;
  };
  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    restore();
    if (typeof chunk === 'string' && chunk.startsWith(text)) lines.push(...headLines(chunk.slice(text.length), false));
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Socket['write'];
  // undici writes the head in the same step; should it not, the socket is left as it was.
  queueMicrotask(restore);
}

/** Postman lists the headers a client adds in this order (then any other undici wrote, then Cookie). */
const ADDED_ORDER = ['user-agent', 'accept', 'host', 'accept-encoding', 'connection', 'content-length'];
const rank = (name: string) => {
  const lower = name.toLowerCase();
  if (lower === 'cookie') return ADDED_ORDER.length + 1;
  const at = ADDED_ORDER.indexOf(lower);
  return at < 0 ? ADDED_ORDER.length : at;
};

/** `content-length` as Postman writes it, `Content-Length`. */
const titleCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());

/** A header as sent: name, value, and `true` when the client added it rather than the request (Postman's `system`). */
export type SentHeader = [name: string, value: string, system?: true];

/**
 * The headers of a request as sent, for post-response scripts, in Postman's order: the request's
 * own (`handed`, as given to undici), then those the client added — its defaults (`defaults`:
 * names of handed headers that Ferry added, User-Agent…), the lines undici wrote itself (Host over
 * HTTP/1.1, Connection, Content-Length: read from `head`, names in Postman's case) and the Cookie
 * line, each marked as added. A Cookie header of the request's own is in `handed`, in its place,
 * with the jar's cookies joined to it (`cookie.inPlace`), marked as Postman marks it; else the
 * jar's Cookie line comes last. HTTP/2's pseudo-headers and a proxy's credentials are left out.
 * Without a head read, only what was handed over is listed.
 */
export function headersSent(handed: readonly [string, string][], defaults: ReadonlySet<string>, head: SentHead, cookie: { value: string; inPlace: boolean }): SentHeader[] {
  const given = new Set(handed.map(([name]) => name.toLowerCase()));
  const own: SentHeader[] = handed.filter(([name]) => !defaults.has(name.toLowerCase())).map(([name, value]) =>
    // Postman marks the request's Cookie header as its own (it writes the line the jar's cookies join).
    (cookie.inPlace && name.toLowerCase() === 'cookie' ? [name, value, true] : [name, value]));
  const added: SentHeader[] = handed.filter(([name]) => defaults.has(name.toLowerCase())).map(([name, value]) => [name, value, true]);
  for (const [name, value] of head.lines ?? []) {
    const lower = name.toLowerCase();
    if (!given.has(lower) && !name.startsWith(':') && lower !== 'cookie' && lower !== 'proxy-authorization') added.push([titleCase(name), value, true]);
  }
  if (cookie.value && !cookie.inPlace) added.push(['Cookie', cookie.value, true]);
  // A stable sort: headers of one rank keep their order.
  added.sort((a, b) => rank(a[0]) - rank(b[0]));
  return [...own, ...added];
}
