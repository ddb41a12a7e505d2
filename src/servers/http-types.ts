/**
 * The parts of Node's request and response objects the server kinds use, common to HTTP/1.1
 * (`node:http`) and HTTP/2's compatibility API (`node:http2`), so one handler serves both.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type AnyRequest = IncomingMessage | Http2ServerRequest;
export type AnyResponse = ServerResponse | Http2ServerResponse;

export type HeaderValues = Record<string, string | string[]>;

/** The one call shape both response kinds accept. */
export interface Answerable {
  writeHead(status: number, headers?: HeaderValues): unknown;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
}

export function answerable(res: AnyResponse): Answerable {
  return res as unknown as Answerable;
}

/**
 * The headers of a short plain-text answer of Ferry's own (a refusal, "this is a WebSocket
 * server"), names written as the HTTP mock and the SSE server write theirs: `Content-Type`, not
 * `content-type` (HTTP/1.1 sends names as given; HTTP/2 lower-cases them all anyway).
 */
export function plainTextHeaders(text: string, extra: HeaderValues = {}): HeaderValues {
  return { 'Content-Type': 'text/plain; charset=utf-8', ...extra, 'Content-Length': String(Buffer.byteLength(text)) };
}

/** The same answer as raw HTTP/1.1 bytes, for a socket no HTTP server answers (a refused upgrade, the TCP relay), closing the connection. */
export function rawPlainTextAnswer(statusLine: string, text: string): string {
  const head = Object.entries(plainTextHeaders(text, { Connection: 'close' })).map(([name, value]) => `${name}: ${String(value)}\r\n`).join('');
  return `HTTP/1.1 ${statusLine}\r\n${head}\r\n${text}`;
}

/**
 * A request header's first value (`lowerName` in lower case), the value `req.headers[lowerName]`
 * holds for the headers a server reads (Host, Content-Length: Node keeps their first value), found
 * in the raw headers: Node builds `req.headers` when it is first read, an object and a lowered
 * name per header on every HTTP/1.1 request. HTTP/2 requests come with their headers object.
 */
export function firstHeader(req: AnyRequest, lowerName: string): string | undefined {
  if (req.httpVersionMajor === 2) {
    const value = req.headers[lowerName];
    return Array.isArray(value) ? value[0] : value;
  }
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === lowerName.length && (name === lowerName || name.toLowerCase() === lowerName)) return raw[i + 1];
  }
  return undefined;
}

/** True when the request may carry a body (a length above 0, or chunked). */
export function mayHaveBody(req: AnyRequest): boolean {
  const headers = req.headers;
  const length = headers['content-length'];
  if (length !== undefined) return length !== '0';
  if (headers['transfer-encoding'] !== undefined) return true;
  // HTTP/2 may send a body without either header; its stream tells us when it ended already.
  return req.httpVersionMajor === 2 && !(req as Http2ServerRequest).stream.endAfterHeaders;
}

/**
 * Before a second writeHead after a failed one: on HTTP/1.1 the first call already chose its
 * reason phrase ("OK"), which would otherwise go out with the new status ("500 OK"). HTTP/2 has
 * no reason phrase (and warns when one is touched).
 */
export function forgetStatusMessage(req: AnyRequest, res: AnyResponse): void {
  if (req.httpVersionMajor !== 2) (res as ServerResponse).statusMessage = '';
}

/** Destroys the client's connection at once (fault `reset`); on HTTP/2, the whole session. */
export function destroyConnection(req: AnyRequest): void {
  if (req.httpVersionMajor === 2) {
    (req as Http2ServerRequest).stream.session?.destroy();
  } else {
    req.socket.destroy();
  }
}
