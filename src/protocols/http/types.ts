/** The HTTP client's shapes, shared by the client (http.ts) and one exchange (http-exchange.ts). */
import type { CookieStore } from './cookie-jar.js';
import type { HttpAgents } from './http-agents.js';

export interface HttpTimings {
  /** 0 when the connection was reused or the host is an IP address. */
  dnsMs: number;
  connectMs: number;
  tlsMs: number;
  /** From the start of the send to the first byte of the final response. */
  firstByteMs: number;
  totalMs: number;
}

export interface HttpResult {
  status: number;
  statusText: string;
  /** `1.1` or `2`. */
  httpVersion: string;
  /** In wire order; repeated names are separate entries. */
  headers: [string, string][];
  /**
   * The request headers of the last hop as sent, those the client added included (User-Agent,
   * Accept, Accept-Encoding, and as undici wrote them Host over HTTP/1.1, Connection and
   * Content-Length, then Cookie with the jar's), in Postman's order rather than the wire's: what
   * post-response scripts see (sent-head.ts); `true` third marks those the client added.
   */
  sentHeaders: [name: string, value: string, system?: true][];
  /** The body after Content-Encoding was undone (when `decompress` is on). */
  body: Uint8Array;
  /** Bytes of the body as received (before decoding). */
  bodySize: number;
  headersSize: number;
  /** headersSize + bodySize. */
  size: number;
  /** The URL of the final response (after redirects). */
  url: string;
  redirects: Array<{ url: string; status: number }>;
  remoteAddress?: string;
  remotePort?: number;
  timings: HttpTimings;
}

export interface HttpSendContext {
  agents: HttpAgents;
  /** The cookie jar; without one no cookies are sent or kept. */
  cookies?: CookieStore;
  /** Cancels the send. */
  signal?: AbortSignal;
  /**
   * Most megabytes (MiB) of response body read, as received and as decoded; 0 = no limit. The
   * application setting `maxResponseMb`; without it, its default.
   */
  maxResponseMb?: number;
  /**
   * Called with each response's status and headers (redirects and auth challenges too): a reader
   * returned reads that body as it arrives and may end it early (SSE requests). Throwing an
   * SendError fails the send with it.
   */
  streamBody?: (status: number, headers: readonly [string, string][], url: URL) => StreamReader | undefined;
}

/**
 * Reads a body as it arrives and may end reading early; the bytes kept until then become the
 * body. The whole-request timeout stops once a reader takes over: the reader sets its own limit.
 */
export interface StreamReader {
  /** Called once reading starts, with the function that ends reading now (for a time limit). */
  start(finish: () => void): void;
  /** One chunk as received: how many of its bytes to keep when reading ends with it, or undefined to go on. */
  feed(chunk: Buffer): number | undefined;
  /**
   * A live connection's reader: it takes every chunk itself, so none is kept for the body and the
   * response size limit does not apply (the stream is open until someone closes it).
   */
  discards?: boolean;
}

