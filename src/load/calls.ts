/**
 * One request in flight, on either client: Ferry's HTTP/1.1 client for plain HTTP, undici for
 * TLS and HTTP/2. Each can be timed out by the generator's sweep or cancelled on Ctrl-C, and
 * reports its end to the generator, which counts it.
 */
import type { Dispatcher, Pool } from 'undici';
import { takeHttp2Answer } from '../protocols/http/header-text.js';
import { errorKind, LoadTimeout } from './errors.js';
import type { Answer, Connection, Exchange } from './http1/pool.js';
import { CAPTURED_BODY_MAX_BYTES, type ErrorKind, type GeneratorConfig } from './wire.js';

export interface InFlight {
  readonly index: number;
  readonly vars: Map<string, string>;
  /** When the request was due (performance.now ms): latencies count from here. */
  readonly scheduled: number;
  readonly deadline: number;
  abort(reason: Error): void;
  timeOut(): void;
}

/** A request as sent, kept by a call that may be redirected: the next hop starts from it. */
export interface HopRequest {
  url: URL;
  method: string;
  /** Flat [name, value, name, value…]. */
  headers: string[];
  body: Uint8Array | undefined;
  /** A signed target's: fills its auth's values for this send (data row, captures), to sign a hop again. */
  fill?: (text: string) => string;
}

/** What a call needs of its generator. */
export interface CallOwner {
  readonly config: GeneratorConfig;
  readonly stopped: boolean;
  /** Keeps an undici request's handle for the timeout sweep and Ctrl-C until untrack() (HTTP/1.1 calls are found on their connections). */
  track(call: InFlight): void;
  untrack(call: InFlight): void;
  settle(call: InFlight, kind: ErrorKind | undefined, status: number, received: number, headers: Record<string, string | string[] | undefined> | undefined, chunks: Buffer[] | undefined, error?: Error): void;
  /**
   * A redirect answer (`location` read): true when its next hop went out under the same request
   * (the call ends without being counted; `after` goes with the hop), an Error when the redirect
   * cannot be followed (counted as `other`), false when the answer ends the request.
   */
  redirect(call: InFlight, request: HopRequest | undefined, hops: number, status: number, location: string, received: number, after: AfterRequest): boolean | Error;
}

const deadlineOf = (config: GeneratorConfig, scheduled: number) => (config.timeoutMs > 0 ? scheduled + config.timeoutMs : Number.POSITIVE_INFINITY);
const timeoutError = (config: GeneratorConfig) => new LoadTimeout(`no answer within ${config.timeoutMs} ms`);

/** Called once a request has been counted: the closed model's user goes on from here (no promise per request). */
export type AfterRequest = () => void;

/** A request on the HTTP/1.1 client: exchange and in-flight handle in one object (no closures per request). */
export class Http1Call implements Exchange, InFlight {
  connection?: Connection;
  timedOut = false;
  readonly deadline: number;
  readonly head: boolean;
  readonly collect: boolean;
  readonly follow: boolean;

  /** `request`: what was sent, kept when redirects are followed (undefined: the target's own, unchanged); `hops`: redirects followed before it. */
  constructor(
    private readonly owner: CallOwner,
    readonly index: number,
    readonly vars: Map<string, string>,
    readonly scheduled: number,
    readonly bytes: Buffer,
    private readonly after: AfterRequest,
    private readonly request?: HopRequest,
    private readonly hops = 0,
  ) {
    const target = owner.config.targets[index]!;
    this.deadline = deadlineOf(owner.config, scheduled);
    this.head = target.method === 'HEAD';
    this.collect = target.captures.length > 0;
    this.follow = owner.config.followRedirects === true;
  }

  done(error: Error | undefined, answer: Answer | undefined): void {
    const status = answer?.status ?? 0;
    if (!error && answer?.location !== undefined) {
      const followed = this.owner.redirect(this, this.request, this.hops, status, answer.location, answer.bodyBytes, this.after);
      if (followed === true) return;
      if (followed) error = followed;
    }
    const kind = error ? (this.timedOut ? 'timeout' : errorKind(error)) : status >= 400 ? 'status' : undefined;
    this.owner.settle(this, kind, status, answer?.bodyBytes ?? 0, answer?.headers, answer?.body, error);
    this.after();
  }

  abort(reason: Error): void {
    this.connection?.cancel(this, reason);
  }

  timeOut(): void {
    if (this.timedOut) return;
    this.timedOut = true;
    this.connection?.cancel(this, timeoutError(this.owner.config));
  }
}

/** Sends one request with undici (TLS, HTTP/2) and returns its in-flight handle. */
export function sendUndici(
  owner: CallOwner,
  pool: Pool,
  index: number,
  vars: Map<string, string>,
  scheduled: number,
  request: { url: URL; headers: string[]; body: Uint8Array | undefined; method?: string; fill?: (text: string) => string },
  after: AfterRequest,
  hops = 0,
): InFlight {
  const target = owner.config.targets[index]!;
  const method = request.method ?? target.method;
  let status = 0;
  let received = 0;
  let answerHeaders: Record<string, string | string[] | undefined> = {};
  let chunks: Buffer[] | undefined = target.captures.length > 0 ? [] : undefined;
  let timedOut = false;
  let controller: Dispatcher.DispatchController | undefined;
  const handle: InFlight = {
    index,
    vars,
    scheduled,
    deadline: deadlineOf(owner.config, scheduled),
    abort: (reason) => (controller ? controller.abort(reason) : undefined),
    timeOut: () => {
      if (timedOut) return;
      timedOut = true;
      controller?.abort(timeoutError(owner.config));
    },
  };
  const finish = (kind: ErrorKind | undefined, error?: Error) => {
    owner.untrack(handle);
    owner.settle(handle, kind, status, received, answerHeaders, chunks, error);
    after();
  };
  const handler: Dispatcher.DispatchHandler = {
    onRequestStart: (c) => {
      controller = c;
      if (timedOut) c.abort(timeoutError(owner.config));
      else if (owner.stopped) c.abort(new Error('stopped'));
    },
    onResponseStart: (_c, statusCode, responseHeaders) => {
      status = statusCode;
      // An HTTP/2 answer: its fields as sent (undici's object joins a repeated one), Latin-1 as undici gives HTTP/1.1's.
      const h2 = takeHttp2Answer(statusCode);
      answerHeaders = h2 ? fieldRecord(h2) : responseHeaders;
    },
    onResponseData: (_c, chunk) => {
      received += chunk.length;
      // Past the bound the body is let go: body captures find nothing, header captures still read.
      if (chunks) {
        if (received > CAPTURED_BODY_MAX_BYTES) chunks = undefined;
        else chunks.push(chunk);
      }
    },
    onResponseEnd: () => {
      const location = owner.config.followRedirects && status >= 300 && status < 400 ? answerHeaders.location : undefined;
      if (location !== undefined) {
        owner.untrack(handle);
        const followed = owner.redirect(handle, { ...request, method }, hops, status, Array.isArray(location) ? location[0]! : location, received, after);
        if (followed === true) return;
        if (followed) return finish('other', followed);
      }
      finish(status >= 400 ? 'status' : undefined);
    },
    onResponseError: (_c, error) => {
      status = 0;
      finish(timedOut ? 'timeout' : errorKind(error), error);
    },
  };
  owner.track(handle);
  try {
    pool.dispatch(
      {
        path: request.url.pathname + request.url.search,
        method: method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body as Buffer | undefined,
        reset: !owner.config.keepAlive,
        headersTimeout: 0,
        bodyTimeout: 0,
      },
      handler,
    );
  } catch (error) {
    finish(errorKind(error), error as Error);
  }
  return handle;
}

/** Fields as undici's header object holds HTTP/1.1 ones: lower-case names, a repeated one as a list. */
function fieldRecord(fields: Array<[string, string]>): Record<string, string | string[]> {
  // No prototype: a header named `__proto__` is a name like any other.
  const out = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of fields) {
    const lower = name.toLowerCase();
    const had = out[lower];
    if (had === undefined) out[lower] = value;
    else if (Array.isArray(had)) had.push(value);
    else out[lower] = [had, value];
  }
  return out;
}
