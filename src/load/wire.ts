/**
 * What the main thread and the generator workers say to each other. Plain data only (structured
 * clone); histograms travel in their encoded form, a capture's failure as its message.
 */
import type { RepeatSigning } from '../request/prepared.js';
import type { Stage } from './stages.js';
import type { Segment } from './segment.js';
import type { ConnectionOptions } from 'node:tls';

export interface Capture {
  variable: string;
  from: 'json' | 'header' | 'regex';
  path: string;
}

/** A prepared target; `{{name}}` values that change per request stand as markers (fill.ts). */
export interface WireTarget {
  request: string;
  weight: number;
  method: string;
  url: string;
  headers: Array<[string, string]>;
  /** Request body bytes, or text when it holds markers. */
  body?: Uint8Array | string;
  captures: Capture[];
  /** A signing auth type: the request above is unsigned, and each send is signed afresh (sign-each.ts). */
  sign?: WireSigning;
  /** Headers besides Authorization that carry credentials (an API key's): dropped on a redirect to another origin, as a run drops them. */
  credentialHeaders?: string[];
}

/** The signing of a target, and how its signer reads the body (a form's fields are part of an OAuth 1.0 signature). */
export interface WireSigning extends RepeatSigning {
  bodySource: 'json' | 'text' | 'xml' | 'formUrlencoded' | 'graphql' | 'binary';
  bodyIsText: boolean;
  /** The headers the signature adds (lowercase): a redirect's hop within the origin is signed again without them, and never carries them to another origin. */
  added: string[];
}

export interface GeneratorConfig {
  targets: WireTarget[];
  model: 'virtualUsers' | 'arrivalRate';
  stages: Stage[];
  thinkTimeMs: number;
  /** This generator's share of the file's maxInFlight. */
  maxInFlight: number;
  keepAlive: boolean;
  /** 0 = no limit. */
  timeoutMs: number;
  http2: boolean;
  /** httpVersion http2, as a run's sends: http:// targets speak HTTP/2 at once (prior knowledge, h2c), TLS offers h2 alone. */
  http2Only?: boolean;
  verifyTls: boolean;
  /** The application settings followRedirects and maxRedirects, as a run follows redirects (absent: not followed). */
  followRedirects?: boolean;
  maxRedirects?: number;
  /** This computer's caFiles and client certificates (the settings), as a run uses them. */
  tls?: WireTls;
  /** Data rows of this generator's segment. */
  rows: Array<Record<string, string>>;
  /** The segment of the whole test, then this worker within it. */
  segment: Segment;
  worker: Segment;
  /**
   * How many of the workers send at the start (the first ones): the closed model's users and
   * the data rows are shared among these; more may join later (MainMessage `workers`).
   */
  activeWorkers: number;
  /** Marker prefix and the names the markers stand for. */
  marker: string;
  names: string[];
  /** Per name (as `names`): its value when a send has none (the environment's or workspace's), or null. */
  defaults?: Array<string | null>;
}

export type ErrorKind = 'status' | 'timeout' | 'refused' | 'reset' | 'tls' | 'other';
/**
 * Most bytes of one answer's body kept for its target's captures (the 50 MB a YAML file or a
 * decoded body may have elsewhere): past it, the body captures find nothing (header captures still
 * read), so an endless or huge answer cannot fill the generator thread's memory.
 */
export const CAPTURED_BODY_MAX_BYTES = 50 * 1024 * 1024;

export const ERROR_KINDS: readonly ErrorKind[] = ['status', 'timeout', 'refused', 'reset', 'tls', 'other'];
export type ErrorReasons = Partial<Record<Exclude<ErrorKind, 'status'>, string>>;

/** The longest reason kept: enough for a system error and its address, never a whole answer. */
const REASON_CHARS = 200;

/** An error's text as a reason: its message (or code), cut short. */
export function reasonOf(error: unknown): string {
  const e = error as { message?: unknown; code?: unknown } | undefined;
  const text = typeof e?.message === 'string' && e.message ? e.message : typeof e?.code === 'string' ? e.code : String(error);
  return text.length > REASON_CHARS ? `${text.slice(0, REASON_CHARS - 1)}…` : text;
}

/** What is counted per target: on a generator with a live histogram, in messages with it encoded. */
export interface Counters<H> {
  count: number;
  errors: Record<ErrorKind, number>;
  /** Why: the first error of each kind but status (`connect ECONNREFUSED 127.0.0.1:8080`). */
  errorReasons: ErrorReasons;
  statuses: Record<string, number>;
  dropped: number;
  bytesSent: number;
  bytesReceived: number;
  /** Latencies (µs). */
  histogram: H;
}

/** Counters of one target on one generator, the histogram encoded. */
export interface TargetCounts extends Counters<string> {
  request: string;
}

/** One wall-clock second: requests that ended in it (drops: that were due in it). */
export interface SecondCounts {
  /** Epoch seconds. */
  second: number;
  count: number;
  errors: number;
  dropped: number;
  /** Users (closed model) or requests in flight (open model) at the end of the second. */
  active: number;
  histogram: string;
}

export type WorkerMessage =
  | { type: 'ready' }
  /** `before` (epoch seconds): every second before it has now been reported by this worker. */
  /** `spunMs`: time the worker's event loop spent busy polling so far (busy-poll.ts), not work. */
  | { type: 'seconds'; seconds: SecondCounts[]; active: number; before: number; spunMs: number }
  | { type: 'done'; targets: TargetCounts[]; seconds: SecondCounts[]; endedAt: number }
  /** After `workers`: this worker's users are down to its new share (none of them is on two threads). */
  | { type: 'shared' }
  /** `capture`: a capture stopped the test (CaptureTimeLimitError): the workspace's doing, said as it is. */
  | { type: 'failed'; message: string; capture?: true };

/**
 * `workers`: `active` workers now share the users. Sent first to the workers already sending
 * (they shrink to their share and answer `shared`), then to the ones joining.
 */
export type MainMessage = { type: 'stop' } | { type: 'start'; startAt: number } | { type: 'workers'; active: number };

export function noErrors(): Record<ErrorKind, number> {
  return { status: 0, timeout: 0, refused: 0, reset: 0, tls: 0, other: 0 };
}

/**
 * TLS options of a load test's HTTPS connections, worked out when it is planned: the CAs of the
 * caFiles setting for every origin, and per target origin its client certificate as well.
 */
export interface WireTls {
  ca?: string[];
  byOrigin: Record<string, ConnectionOptions>;
}

/**
 * A `regex` capture that needs backtracking (a backreference, a lookaround) ran past its time
 * limit on an answer: the generator stops the test with this message, as trying it on every
 * answer would hold the thread a second each time.
 */
export class CaptureTimeLimitError extends Error {
  override name = 'CaptureTimeLimitError';
}
