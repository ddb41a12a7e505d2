/**
 * The traffic record of one HTTP exchange, for the kinds on the shared listener that answer
 * requests (the mock, SSE): the method, path and status go in `detail`, and the summary and note
 * are worded here once so `ferry serve` prints them alike for every such kind.
 */
import type { ServerKind } from '../model/index.js';
import { writeUtf8 } from './format.js';
import { epochMsOf } from './traffic.js';
import type { TrafficRecord } from './types.js';

/** What happened besides an ordinary answer. */
export type HttpExchangeNote = 'error' | 'reset' | 'hang' | 'proxy' | 'notFound' | 'preflight' | 'stream' | 'aborted' | 'stopped' | 'proxyError' | 'invalid' | 'foreignHost';

export interface HttpExchangeDetail {
  method: string;
  /** Path and query as sent. */
  path: string;
  /** The matched route's name (or `METHOD path` when it has none); empty when no route matched. */
  route: string;
  /** Status sent; 0 when none was (reset, hang, client gone). */
  status: number;
  note?: HttpExchangeNote;
  /** `foreignHost`: the Host the refused request was addressed to. */
  host?: string;
  /** `invalid`: what the request got wrong against the mock's OpenAPI document, one line each. */
  problems?: string[];
}

export type HttpExchangeRecord = TrafficRecord<HttpExchangeDetail>;

const NOTES: Record<HttpExchangeNote, string> = {
  error: 'fault: error',
  reset: 'fault: reset',
  hang: 'fault: hang, client gave up',
  proxy: 'proxied',
  proxyError: 'proxy failed',
  notFound: 'no route',
  preflight: 'CORS preflight',
  stream: 'event stream closed',
  aborted: 'client left before the answer',
  stopped: 'the server stopped before the answer',
  invalid: 'request does not match the API spec',
  foreignHost: 'refused: addressed to another host name',
};

/**
 * The record of an exchange that began at `start` (a `performance.now()` reading) and ends now.
 * Positional arguments keep the hot path free of an options object.
 */
export function httpExchangeRecord(
  kind: ServerKind,
  server: string,
  start: number,
  durationMs: number,
  detail: HttpExchangeDetail,
  bytesIn: number,
  bytesOut: number,
): HttpExchangeRecord {
  return new HttpExchange(kind, server, epochMsOf(start), durationMs, detail, bytesIn, bytesOut);
}

/**
 * An exchange's record as plain fields; its summary (`200 GET /users/42 → Get user`) is worded
 * only when read. `ferry serve` writes it as bytes from the fields (`writeSummary`) and keeps no
 * record, so a busy server makes no summary string per request. `toJSON` gives the record with its
 * summary, fields in the order faces and `--json` have always shown them.
 */
class HttpExchange implements HttpExchangeRecord {
  readonly kind: ServerKind;
  readonly server: string;
  readonly time: number;
  readonly direction = 'exchange' as const;
  readonly level: HttpExchangeRecord['level'];
  readonly durationMs: number;
  readonly bytesIn: number;
  readonly bytesOut: number;
  readonly detail: HttpExchangeDetail;
  /** Set only when there is one, so that a record without a note has no `note` key. */
  declare readonly note?: string;
  #summary: string | undefined;

  constructor(kind: ServerKind, server: string, time: number, durationMs: number, detail: HttpExchangeDetail, bytesIn: number, bytesOut: number) {
    const status = detail.status;
    this.kind = kind;
    this.server = server;
    this.time = time;
    this.level = status === 0 || status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info';
    this.durationMs = durationMs;
    this.bytesIn = bytesIn;
    this.bytesOut = bytesOut;
    this.detail = detail;
    if (detail.note !== undefined) (this as { note?: string }).note = NOTES[detail.note];
  }

  get summary(): string {
    if (this.#summary === undefined) {
      const { status, method, path, route } = this.detail;
      this.#summary = `${statusText(status)} ${method} ${path}${route !== '' ? `${ROUTE_ARROW}${route}` : ''}`;
    }
    return this.#summary;
  }

  /** UTF-16 units of the summary (what `summary.length` would be), without wording it. */
  summaryLength(): number {
    const { status, method, path, route } = this.detail;
    return statusText(status).length + 2 + method.length + path.length + (route !== '' ? ROUTE_ARROW.length + route.length : 0);
  }

  /** Writes the summary as UTF-8 into `out` from `at` (room for `summaryLength() * 3` bytes); returns where it ends. */
  writeSummary(out: Buffer, at: number): number {
    const { status, method, path, route } = this.detail;
    if (status === last.status && method === last.method && path === last.path && route === last.route) {
      // The same summary as the last record's (a client polling one URL, a load test): its bytes
      // are kept from the second time on.
      if (last.bytes === undefined) {
        const end = this.#writeSummary(out, at);
        last.bytes = Buffer.from(out.subarray(at, end));
        return end;
      }
      out.set(last.bytes, at);
      return at + last.bytes.length;
    }
    last.status = status;
    last.method = method;
    last.path = path;
    last.route = route;
    last.bytes = undefined;
    return this.#writeSummary(out, at);
  }

  #writeSummary(out: Buffer, at: number): number {
    const { status, method, path, route } = this.detail;
    at = writeUtf8(statusText(status), out, at);
    out[at++] = 0x20;
    at = writeUtf8(method, out, at);
    out[at++] = 0x20;
    at = writeUtf8(path, out, at);
    if (route === '') return at;
    out.set(ROUTE_ARROW_BYTES, at);
    return writeUtf8(route, out, at + ROUTE_ARROW_BYTES.length);
  }

  toJSON(): HttpExchangeRecord {
    const { kind, server, time, direction, summary, level, durationMs, bytesIn, bytesOut, detail } = this;
    const plain: HttpExchangeRecord = { kind, server, time, direction, summary, level, durationMs, bytesIn, bytesOut, detail };
    if (this.note !== undefined) plain.note = this.note;
    return plain;
  }
}

/** The last summary written, and its bytes once a second record had the same. */
const last: { status: number; method: string; path: string; route: string; bytes: Buffer | undefined } = { status: -1, method: '', path: '', route: '', bytes: undefined };

/** The summary's parts, worded once for its text, its length and its bytes: the status (`---` when none was sent) and the arrow to the route. */
function statusText(status: number): string {
  return status === 0 ? '---' : String(status);
}
const ROUTE_ARROW = ' → ';
const ROUTE_ARROW_BYTES = Buffer.from(ROUTE_ARROW, 'utf8');
