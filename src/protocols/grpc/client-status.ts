/**
 * Statuses grpc-js makes up on the client side when no grpc-status came from the server: a
 * connection cut (`14 UNAVAILABLE: Connection dropped`), a stream reset or ended without trailers
 * (`13 INTERNAL: Received RST_STREAM…`), headers past its limits (`8 RESOURCE_EXHAUSTED:
 * Bandwidth exhausted…`), its own deadline. They read as if the server had said them. grpc-js
 * does not tell its statuses apart from the server's, so they are known by its own details texts
 * (grpc-js 1.14's subchannel-call.js, resolving-call.js) on a status without trailers, which a
 * status it makes up never has. The code stays grpc-js's (`pm.response.code`); the words say
 * the client ended the call, why, and what to do.
 */
import type * as grpc from '@grpc/grpc-js';
import { statusLabel, statusName } from './status.js';

/** HTTP/2 error codes by number (RFC 9113, section 7), for a reset grpc-js names by number only. */
const H2_ERRORS = ['NO_ERROR', 'PROTOCOL_ERROR', 'INTERNAL_ERROR', 'FLOW_CONTROL_ERROR', 'SETTINGS_TIMEOUT', 'STREAM_CLOSED', 'FRAME_SIZE_ERROR', 'REFUSED_STREAM', 'CANCEL', 'COMPRESSION_ERROR', 'CONNECT_ERROR', 'ENHANCE_YOUR_CALM', 'INADEQUATE_SECURITY', 'HTTP_1_1_REQUIRED'];

/** What the words need to know of the call. */
export interface CallWhere {
  host: string;
  timeoutMs: number;
  /** How many metadata entries the call sent (grpc-js's own headers come on top). */
  sentEntries?: number;
  /** Whether the call had a deadline, which grpc-js sends as grpc-timeout (a live call has none). */
  deadline?: boolean;
  /** Whether grpc-js sent grpc-encoding, compressing its messages (compression.ts `sendsEncoding`). */
  compressed?: boolean;
}

/** Header fields an HTTP/2 peer built on Node or nghttp2 takes by default (maxHeaderListPairs); past them it resets the stream. */
const MAX_HEADER_FIELDS = 128;

/** Headers grpc-js (1.14) sends on every call besides its metadata: :method, :scheme, :path, :authority, te, content-type, user-agent, grpc-accept-encoding, accept-encoding. */
const OWN_HEADERS = 9;

/** The header fields the call sent in all: its metadata, grpc-js's own, grpc-timeout with a deadline, grpc-encoding when compressed. */
function headersSent({ sentEntries = 0, deadline, compressed }: CallWhere): number {
  return sentEntries + OWN_HEADERS + (deadline ? 1 : 0) + (compressed ? 1 : 0);
}

/** What happened and what to do, for one of grpc-js's texts (matched whole). */
type Reading = [RegExp, (match: RegExpExecArray, where: CallWhere, code: number) => string];

const CHECK_LOG = "check the server's log (or that of a proxy before it)";

/** grpc-js's words when the call's own deadline (settings.timeoutMs) ended it. */
const DEADLINE_EXCEEDED_BY_CLIENT = /^Deadline exceeded after /;

const READINGS: Reading[] = [
  [/^Connection dropped$/, (_, { host }) => `the connection to ${host} closed before the server sent a status; check whether the server crashed or was stopped, or a proxy between closed the connection, and send again`],
  [/^Received RST_STREAM with code (\d+) \(Call ended without gRPC status\)$/, (_, { host }) => `${host} ended the call's HTTP/2 stream without a grpc-status trailer (or sent headers larger than the client reads); ${CHECK_LOG}`],
  [/^Received RST_STREAM with code (\d+)(?: \(Internal server error\))?$/, (m, { host }) => `${host} reset the call's HTTP/2 stream (${h2Error(m[1]!)}) without a gRPC status; ${CHECK_LOG}`],
  [/^Received RST_STREAM with code \d+ triggered by internal client error: (.+)$/s, (m, { host }) => `the HTTP/2 connection to ${host} failed (${m[1]!.split('\n')[0]}); check that it is a gRPC server, and send again`],
  [/^Stream refused by server$/, (_, { host }) => `${host} refused the call's HTTP/2 stream (REFUSED_STREAM) before handling it; the server is busy or limits its concurrent calls: send again later`],
  [/^Call cancelled$/, (_, { host }) => `${host} cancelled the call's HTTP/2 stream (RST_STREAM CANCEL) without a gRPC status; ${CHECK_LOG}`],
  [
    /^Bandwidth exhausted or memory limit exceeded$/,
    (_, where) =>
      headersSent(where) > MAX_HEADER_FIELDS
        ? `the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the request sent ${where.sentEntries ?? 0} metadata entries, and ${where.host} takes at most ${MAX_HEADER_FIELDS} header fields in all (the usual HTTP/2 limit); send fewer headers`
        : `the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the answer's headers or trailers from ${where.host} are more than the client reads (at most ${MAX_HEADER_FIELDS} fields), or the server found the call too costly; have the server send fewer metadata entries`,
  ],
  [/^Protocol not secure enough$/, (_, { host }) => `${host} reset the call's HTTP/2 stream (INADEQUATE_SECURITY): the TLS connection is not secure enough for HTTP/2; check the server's TLS settings (TLS 1.2 or later, a strong cipher)`],
  [/^Received HTTP status code (\d+)$/, (m, { host }, code) => `${host} answered HTTP ${m[1]} without a grpc-status, so the status ${code} ${statusName(code)} is read from the HTTP status, as gRPC maps it; check the URL's host and port, and any proxy or gateway before the server`],
  [/^No status information received$/, (_, { host }) => `${host} sent trailers without a grpc-status; ${CHECK_LOG}`],
  [DEADLINE_EXCEEDED_BY_CLIENT, (_, { host, timeoutMs }) => `no status came from ${host} within settings.timeoutMs (${timeoutMs} ms), the call's deadline; raise settings.timeoutMs if the method is slow (0: no deadline)`],
  [/^(?:read|write) (ECONNRESET|ETIMEDOUT)$/, (m, { host }) => `the connection to ${host} was ${m[1] === 'ETIMEDOUT' ? 'timed out' : 'reset'} (${m[1]}) before the server sent a status; check whether the server crashed or a proxy between closed the connection, and send again`],
  [/^Write (?:error: |failed with error )(.+)$/s, (m, { host }) => `sending the call's messages to ${host} failed (${m[1]!.split('\n')[0]}); send again`],
];

/**
 * Why grpc-js, not the server, ended the call with `status`, in words (what, where, what to do);
 * undefined when the status is the server's.
 */
export function clientEnded(status: grpc.StatusObject, where: CallWhere): string | undefined {
  const details = status.details ?? '';
  for (const [pattern, reading] of READINGS) {
    const match = pattern.exec(details);
    if (!match) continue;
    // grpc-js's own statuses carry no trailers; only its reading of an HTTP status keeps the server's.
    if (!pattern.source.startsWith('^Received HTTP status') && status.metadata && Object.keys(status.metadata.getMap()).length > 0) return undefined;
    return `Ferry's gRPC client ended the call, as the server sent no status: ${reading(match, where, status.code)}`;
  }
  return undefined;
}

/** A call's status as reports show it: `5 NOT_FOUND: …` for the server's, Ferry's words for one grpc-js made up. */
export function endLabel(status: grpc.StatusObject, where: CallWhere): string {
  const byClient = clientEnded(status, where);
  return byClient ? `${status.code} ${statusName(status.code)}: ${byClient}` : statusLabel(status.code, status.details);
}

/** Whether the call's own deadline ended it (grpc-js's status, no trailers from the server), not the server. */
export function endedAtDeadline(status: grpc.StatusObject): boolean {
  const fromServer = status.metadata !== undefined && Object.keys(status.metadata.getMap()).length > 0;
  return status.code === 4 /* DEADLINE_EXCEEDED */ && DEADLINE_EXCEEDED_BY_CLIENT.test(status.details ?? '') && !fromServer;
}

/**
 * Whether grpc-js's words for a call's end say it reached the server (a connection dropped, a
 * stream reset or refused, an HTTP status), so it is an answer however the channel is now,
 * never "could not connect".
 */
export function reachedServer(details: string): boolean {
  return READINGS.some(([pattern]) => !pattern.source.startsWith('^Deadline') && pattern.test(details));
}

function h2Error(code: string): string {
  const name = H2_ERRORS[Number(code)];
  return name ? `RST_STREAM ${name}` : `RST_STREAM code ${code}`;
}
