/**
 * The traffic record of one HTTP exchange, for the kinds on the shared listener that answer
 * requests (the mock, SSE): the method, path and status go in `detail`, and the summary and note
 * are worded here once so `ferry serve` prints them alike for every such kind.
 */
import type { ServerKind } from '../model/index.js';
import { epochMsOf } from './traffic.js';
import type { TrafficRecord } from './types.js';

/** What happened besides an ordinary answer. */
export type HttpExchangeNote = 'error' | 'reset' | 'hang' | 'proxy' | 'notFound' | 'preflight' | 'stream' | 'aborted' | 'proxyError' | 'invalid' | 'foreignHost';

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
  const { status } = detail;
  const record: HttpExchangeRecord = {
    kind,
    server,
    time: epochMsOf(start),
    direction: 'exchange',
    summary: `${status === 0 ? '---' : status} ${detail.method} ${detail.path}${detail.route !== '' ? ` → ${detail.route}` : ''}`,
    level: status === 0 || status >= 500 ? 'error' : status >= 400 ? 'warning' : 'info',
    durationMs,
    bytesIn,
    bytesOut,
    detail,
  };
  if (detail.note !== undefined) record.note = NOTES[detail.note];
  return record;
}
