/**
 * How Ferry reads an answer's header fields, over HTTP/1.1 and HTTP/2 alike: each field on its own
 * in wire order (a repeated one kept twice), each value's bytes as UTF-8. One rule for `ferry run`
 * (pm.response.headers, reports, the app) and load-test captures, so a header captured under load
 * is the value a run of the same request shows, whichever protocol the server answered in.
 *
 * HTTP/2: undici builds an answer's headers from Node's header object, where a repeated field is
 * joined with ", " (or only its first kept, for content-type, location…) and each value was read
 * as Latin-1 and then written out again as UTF-8, so `é` sent as UTF-8 arrived as `Ã©`. Node's
 * `response` event also carries the list itself, which undici does not pass on: a connector that
 * hands undici an h2 socket watches it (`watchHttp2`, `watchingHttp2`), and a dispatch handler's
 * onHeaders / onResponseStart takes the list with `takeHttp2Answer(status)`.
 */
import type net from 'node:net';

/** A value's bytes as UTF-8, a byte that is not UTF-8 read as U+FFFD. */
export function headerText(value: Buffer | string): string {
  return typeof value === 'string' ? value : value.toString('utf8');
}

/**
 * The same, from a value that holds each byte as one Latin-1 character (undici's parsed headers,
 * the load test's HTTP/1.1 client, Node's HTTP/2 header lists). ASCII reads the same either way,
 * so most values are not copied.
 */
export function headerTextOfLatin1(value: string): string {
  return /[^\x00-\x7f]/.test(value) ? headerText(Buffer.from(value, 'latin1')) : value;
}

/**
 * An HTTP/2 answer's header list as Node received it (name, value, name, value…; values Latin-1)
 * as the fields an HTTP/1.1 answer gives: each field on its own in wire order, a repeated one
 * kept twice (Node's header object joins it with ", " or keeps only the first), the pseudo-headers
 * (`:status`) left out. Values stay Latin-1, for the reader's own rule above.
 */
function http2Fields(raw: readonly string[]): Array<[string, string]> {
  const fields: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!raw[i]!.startsWith(':')) fields.push([raw[i]!, raw[i + 1]!]);
  }
  return fields;
}

/** The answer whose `response` event is being emitted: set only while its listeners (undici's) run. */
let answering: { status: number; raw: string[] } | undefined;

interface AnsweringStream {
  emit(event: string | symbol, ...args: unknown[]): boolean;
}

interface RequestingSession {
  request(this: RequestingSession, ...args: unknown[]): AnsweringStream;
}

/**
 * undici's ClientHttp2Session of this socket: undici marks the socket with it (its symbol
 * `http2Session`) before it adds its own socket listeners, so it is there when they are added.
 */
function sessionOf(socket: net.Socket): RequestingSession | undefined {
  for (const key of Object.getOwnPropertySymbols(socket)) {
    if (key.description !== 'http2Session') continue;
    const value = (socket as unknown as Record<symbol, unknown>)[key];
    if (value && typeof (value as RequestingSession).request === 'function') return value as RequestingSession;
  }
  return undefined;
}

/**
 * Keeps each answer's header list of the HTTP/2 session undici opens on `socket` (call it for a
 * socket that negotiated h2, before handing it to undici). Each request's stream holds the list
 * out while it emits `response` to undici's listener, which hands the answer to the handler.
 */
export function watchHttp2(socket: net.Socket): void {
  const found = () => {
    const session = sessionOf(socket);
    if (!session) return;
    socket.off('newListener', found);
    const request = session.request;
    session.request = function (this: RequestingSession, ...args: unknown[]) {
      const stream = request.apply(this, args);
      // The list is there for exactly the time undici's own `response` listener runs (it calls the handler).
      const emit = stream.emit;
      stream.emit = function (this: AnsweringStream, event: string | symbol, ...rest: unknown[]) {
        if (event !== 'response' || !Array.isArray(rest[2])) return emit.call(this, event, ...rest);
        const raw = rest[2] as string[];
        const outer = answering;
        answering = { status: Number(raw[raw.indexOf(':status') + 1]), raw };
        try {
          return emit.call(this, event, ...rest);
        } finally {
          answering = outer;
        }
      };
      return stream;
    };
  };
  socket.on('newListener', found);
  socket.once('close', () => socket.off('newListener', found));
}

/**
 * The fields of the HTTP/2 answer undici is handing over now (`status`: the status it gives),
 * Latin-1 values as `http2Fields` gives them; undefined for an HTTP/1.1 answer or one not watched.
 */
export function takeHttp2Answer(status: number): Array<[string, string]> | undefined {
  return answering && answering.status === status ? http2Fields(answering.raw) : undefined;
}

type Connect<S extends net.Socket> = (options: never, callback: (error: Error | null, socket: S | null) => void) => unknown;

/** An undici connector whose sockets that speak h2 (by ALPN, or marked so for prior knowledge) are watched. */
export function watchingHttp2<S extends net.Socket>(connect: Connect<S>): Connect<S> {
  return (options, callback) =>
    connect(options, (error, socket) => {
      if (socket && (socket as S & { alpnProtocol?: string | false }).alpnProtocol === 'h2') watchHttp2(socket);
      callback(error, socket);
    });
}
