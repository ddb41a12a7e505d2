/**
 * One generator (one worker thread): sends its share of the test with undici pools, one per
 * origin, and counts. Open model: request k starts at its scheduled time whatever the answers
 * do, and its latency is measured from that time (coordinated omission corrected). Closed model:
 * each user sends, waits for the answer, thinks, sends again. Every loop ends with the stages.
 */
import net from 'node:net';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import { buildConnector, Pool } from 'undici';
import { headerTextOfLatin1, watchingHttp2 } from '../protocols/http/header-text.js';
import type { CaptureReader } from './captures.js';
import { filler, type Lookup } from './fill.js';
import { encodeHistogram, newHistogram, type Histogram } from './histogram.js';
import { BusyPoll } from './busy-poll.js';
import { Http1Call, sendUndici, type AfterRequest, type HopRequest, type InFlight } from './calls.js';
import { LoadTimeout } from './errors.js';
import { Http1Pool } from './http1/pool.js';
import { requestBytes } from './http1/request-bytes.js';
import { Picker } from './picker.js';
import { Places } from './places.js';
import { shareOf } from './segment.js';
import { signRedirect, signSend } from './sign-each.js';
import { arrivalTime, nextUsersChange, totalSeconds, usersAt } from './stages.js';
import { CaptureTimeLimitError, noErrors, type Counters, reasonOf, type ErrorKind, type GeneratorConfig, type SecondCounts, type TargetCounts, type WorkerMessage, type WireSigning, type WireTarget } from './wire.js';

/** After the last stage, requests still in flight get this long (or the timeout) before they are cancelled. */
const GRACE_MS = 10_000;
/** Most open-model starts (or closed-model users started) in one turn of the event loop, so answers are still read when far behind. */
const STARTS_PER_TURN = 2_000;

type TargetStats = Counters<Histogram>;

/** How often in-flight requests are checked against their deadline (timeouts are this precise). */
const SWEEP_MS = 10;

interface Second {
  count: number;
  errors: number;
  dropped: number;
  histogram: Histogram;
}

/** The answers a run follows when followRedirects is on (src/protocols/http/http.ts). */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers a redirect to another origin does not carry (with the target's credential headers), as a run drops them. */
const CROSS_ORIGIN_DROPPED = ['authorization', 'proxy-authorization', 'cookie'];
/** Headers of a body that a redirect continuing as GET leaves out. */
const BODY_HEADER = /^content-(type|length|encoding|language|location)$/i;

/** The open model's requests: nobody waits for them. */
const NOTHING_AFTER: AfterRequest = () => {};

export class Generator {
  private readonly pools = new Map<string, Pool>();
  /** Plain-HTTP origins (host:port) go through Ferry's own HTTP/1.1 client; TLS and HTTP/2 through undici. */
  private readonly http1 = new Map<string, Http1Pool>();
  /** Per target: its pool and bytes, when nothing in it changes per request. */
  private readonly prepared: Array<{ pool: Http1Pool; bytes: Buffer } | undefined> = [];
  private readonly stats: TargetStats[];
  /** Per target: its captures, compiled once when the run starts (undefined when it has none). */
  private captures: Array<CaptureReader | undefined> = [];
  private readonly seconds = new Map<number, Second>();
  /** performance.now() is counted from here (epoch ms); seconds are keyed by the epoch second. */
  private readonly timeOrigin = performance.timeOrigin;
  /** The second record() last wrote to and its bounds (performance.now ms): most requests end in it. */
  private current: Second | undefined;
  private currentFrom = 0;
  private currentUntil = 0;
  /** When record() last counted a request (performance.now ms): a user without think time sends its next one from there. */
  private countedAt = 0;
  /** Keeps the thread awake between answers that come faster than it wakes up. */
  private readonly busyPoll = new BusyPoll();
  private readonly fill: ReturnType<typeof filler>;
  private startPerf = 0;
  private endPerf = 0;
  private inFlight = 0;
  private users = 0;
  /** The closed model's users' places: each user its own, so a ramp down lets exactly the extra ones go. */
  private readonly places = new Places();
  /** Users whose think time runs past the test's end: they leave when it ends. */
  private thinkingPastEnd = 0;
  /** The closed model's stages are over: a user whose pause outlasts the test leaves at once. */
  private usersEnded = false;
  /** Called when the last user of the closed model has left. */
  private noUsersLeft?: () => void;
  private rowCounter = 0;
  /** Workers sharing the users and rows now (config.activeWorkers, then more: share()). */
  private active: number;
  /** This worker is shrinking to a smaller share: it says `shared` once it is down to it. */
  private shrinking = false;
  stopped = false;
  /** Stopped by Ctrl-C: what is cancelled then is not counted (a request cut at the end of the grace time is: a timeout). */
  private interrupted = false;
  private ended = false;
  /** What stopped the test from inside (a capture past its time limit): run() throws it. */
  private failure: Error | undefined;
  /**
   * undici requests in flight: cancelled on Ctrl-C, timed out by one sweep (not a timer per
   * request). HTTP/1.1 requests are found on their pool's connections instead.
   */
  private readonly controllers = new Set<InFlight>();
  private readonly parsed: URL[] = [];
  private wake?: () => void;
  /** The timeout sweep: started with the first request, so a worker with no users never wakes for it. */
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    readonly config: GeneratorConfig,
    private readonly post: (message: WorkerMessage) => void,
  ) {
    this.stats = config.targets.map(() => ({ count: 0, errors: noErrors(), errorReasons: {}, statuses: {}, dropped: 0, bytesSent: 0, bytesReceived: 0, histogram: newHistogram() }));
    this.fill = filler(config.marker, config.names, config.defaults);
    this.active = config.activeWorkers;
  }

  /**
   * From now on `active` workers share the users and rows. A worker whose share shrinks lets
   * users go after their current request and says `shared` once it is down to its share; only
   * then do the joining workers start theirs (engine.ts), so no user is counted twice.
   */
  share(active: number): void {
    if (active <= this.active) return;
    const had = this.config.worker.index < this.active;
    this.active = active;
    if (had && this.config.model === 'virtualUsers' && this.users > this.wantedUsers(performance.now())) this.shrinking = true;
    else if (had) this.post({ type: 'shared' });
  }

  /** Runs the schedule from `startAt` (epoch ms), the same moment in every worker. */
  async run(startAt: number): Promise<void> {
    if (this.config.targets.some((t) => t.captures.length > 0)) {
      // Captures read compressed answers decoded, with the HTTP client's decoder, loaded only by a
      // test that captures.
      const { decodeBody } = await import('../support/content-coding.js');
      // As the decoder: the captures and their regex engine (re2js) load only in a test that captures.
      const { captureReader } = await import('./captures.js');
      this.captures = this.config.targets.map((t) => (t.captures.length > 0 ? captureReader(t.captures, decodeBody) : undefined));
    }
    this.startPerf = startAt - this.timeOrigin;
    this.endPerf = this.startPerf + totalSeconds(this.config.stages) * 1000;
    const flusher = setInterval(() => this.flush(false), 1000);
    try {
      await sleep(Math.max(0, this.startPerf - performance.now()));
      if (!this.stopped) await (this.config.model === 'arrivalRate' ? this.open() : this.closed());
    } finally {
      clearInterval(flusher);
      if (this.sweeper) clearInterval(this.sweeper);
      this.ended = true;
      for (const pool of this.http1.values()) pool.destroy();
      await Promise.all([...this.pools.values()].map((p) => p.destroy().catch(() => {})));
    }
    if (this.failure) throw this.failure;
    this.post({ type: 'done', targets: this.finalCounts(), seconds: this.flush(true), endedAt: Date.now() });
  }

  /** Ctrl-C: cancel what is in flight now; those requests are not counted. */
  stop(): void {
    this.interrupted = true;
    this.stopped = true;
    this.cancelInFlight(new Error('stopped'));
    this.wake?.();
  }

  private cancelInFlight(reason: Error): void {
    for (const controller of this.controllers) controller.abort(reason);
    for (const pool of this.http1.values()) pool.cancelAll(reason);
  }

  private async open(): Promise<void> {
    const { segment, worker, stages } = this.config;
    const picker = new Picker(this.config.targets.map((t) => t.weight));
    const vars = new Map<string, string>();
    // This generator's requests: k = segment.index + segment.count·(worker.index + worker.count·j).
    let j = 0;
    const kOf = (n: number) => segment.index + segment.count * (worker.index + worker.count * n);
    // Request k sends the k-th target of the whole test's sequence, so any split sends the same mix.
    let picked = -1;
    let last = 0;
    const targetOf = (k: number) => {
      for (; picked < k; picked++) last = picker.next();
      return last;
    };
    await new Promise<void>((resolve) => {
      const tick = () => {
        if (this.stopped) return resolve();
        const now = performance.now();
        for (let started = 0; started < STARTS_PER_TURN; started++) {
          const t = arrivalTime(stages, kOf(j));
          if (t === undefined) return resolve();
          const due = this.startPerf + t * 1000;
          if (due > now) return void setTimeout(tick, Math.min(due - now, 50));
          const target = targetOf(kOf(j));
          j++;
          // Beyond maxInFlight, or still due when the stages are over (a generator that fell
          // behind): dropped and counted, never queued. A queue would hide the overload, and
          // sending late would make the test outlast its stages.
          if (this.inFlight >= this.config.maxInFlight || now >= this.endPerf) {
            this.stats[target]!.dropped++;
            this.second(now).dropped++;
            continue;
          }
          this.send(target, vars, due, NOTHING_AFTER);
        }
        setImmediate(tick);
      };
      tick();
    });
    await this.drain();
  }

  private async closed(): Promise<void> {
    while (!this.stopped && performance.now() < this.endPerf) {
      const want = this.wantedUsers(performance.now());
      // At most STARTS_PER_TURN users start in one turn, so answers and Ctrl-C are heard between.
      for (let started = 0; this.users < want && started < STARTS_PER_TURN; started++) {
        this.users++;
        this.user(this.places.take());
      }
      const behind = this.users < want;
      // Users above the wanted number leave after their current request (user()). Awake when the
      // stages next want another number of users, so each starts on time, not on the next 100 ms.
      const now = performance.now();
      const change = this.startPerf + nextUsersChange(this.config.stages, (now - this.startPerf) / 1000) * 1000;
      await Promise.race([behind ? new Promise<void>((r) => setImmediate(r)) : sleep(Math.min(100, Math.max(1, Math.min(change, this.endPerf) - now))), new Promise<void>((r) => (this.wake = r))]);
    }
    this.usersEnded = true;
    for (; this.thinkingPastEnd > 0; this.thinkingPastEnd--) this.userLeft();
    await this.drain(this.users === 0 ? undefined : new Promise<void>((r) => (this.noUsersLeft = r)));
  }

  /** This generator's share of the users the stages want at `now` (performance.now ms); none while it is not active. */
  private wantedUsers(now: number): number {
    const { segment, worker, stages } = this.config;
    if (worker.index >= this.active) return 0;
    return shareOf(shareOf(usersAt(stages, (now - this.startPerf) / 1000), segment), { index: worker.index, count: this.active });
  }

  /**
   * One user of the closed model: sends, waits for the answer, thinks, sends again, until the
   * stages end or want fewer users. Driven by the request's end (a callback), not a promise and
   * an await per request: this loop is the generator's hot path.
   */
  private user(index: number): void {
    const picker = new Picker(this.config.targets.map((t) => t.weight));
    const vars = new Map<string, string>();
    const thinkTimeMs = this.config.thinkTimeMs;
    const next = (now: number) => {
      if (index >= this.wantedUsers(now)) return this.userLeft(index);
      sendAt(now);
    };
    const sendAt = (now: number) => {
      if (this.stopped || now >= this.endPerf) return this.userLeft(index);
      this.send(picker.next(), vars, now, answered);
    };
    const afterThinking = () => next(performance.now());
    const answered = () => {
      if (thinkTimeMs > 0 && !this.stopped) {
        // A pause that outlasts the test ends the user with the test, without a timer: one cut to
        // the time left could fire a little before the end by performance.now() and send once more,
        // or leave early enough for closed() to start a new user in its place.
        // An answer that comes once the stages are over (a slow server) leaves at once: closed()
        // has already let go of the users thinking then, and would wait out the grace time.
        if (thinkTimeMs >= this.endPerf - performance.now()) {
          if (this.usersEnded) this.userLeft(index);
          else this.thinkingPastEnd++;
        } else setTimeout(afterThinking, thinkTimeMs);
      }
      // Without think time the next request starts when this one was counted: one clock read per request.
      else next(this.countedAt);
    };
    sendAt(performance.now());
  }

  /** A user left, giving back its place (none for those let go when the stages end: no one takes one then). */
  private userLeft(place?: number): void {
    if (place !== undefined) this.places.give(place);
    if (--this.users === 0) this.noUsersLeft?.();
    if (this.shrinking && this.users <= this.wantedUsers(performance.now())) {
      this.shrinking = false;
      this.post({ type: 'shared' });
    }
  }

  /** Waits for what is in flight after the last stage, within the grace time. */
  private async drain(users?: Promise<unknown>): Promise<void> {
    const grace = this.config.timeoutMs > 0 ? Math.min(this.config.timeoutMs + 100, GRACE_MS) : GRACE_MS;
    const settled = users ?? new Promise<void>((resolve) => {
      const check = () => (this.inFlight === 0 || this.stopped ? resolve() : setTimeout(check, 5));
      check();
    });
    await Promise.race([settled, sleep(grace), new Promise<void>((r) => (this.wake = r))]);
    this.stopped = true;
    // Still unanswered: counted as timeouts, as wrk and a client's own timeout would (they are
    // not lost from the result); after Ctrl-C, settle() counts none of them.
    this.cancelInFlight(new LoadTimeout(`no answer by the end of the grace time, ${grace / 1000} s after the last stage`));
    // undici reports an aborted request on a later turn: counted before the generator ends.
    for (let turn = 0; turn < 10 && this.controllers.size > 0; turn++) await new Promise<void>((r) => setImmediate(r));
  }

  private sweep(): void {
    const now = performance.now();
    for (const request of this.controllers) if (request.deadline <= now) request.timeOut();
    for (const pool of this.http1.values()) pool.sweep(now);
  }

  /** Sends one request; `after` runs once it is counted, never before send() returns. */
  private send(index: number, vars: Map<string, string>, scheduled: number, after: AfterRequest): void {
    if (!this.sweeper && this.config.timeoutMs > 0 && !this.ended) this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    const target = this.config.targets[index]!;
    const stats = this.stats[index]!;
    const rows = this.config.rows;
    const row = rows.length > 0 ? rows[(this.config.worker.index + this.active * this.rowCounter++) % rows.length] : undefined;
    // Plain HTTP without per-request values: the bytes were serialized once.
    const ready = this.prepared[index];
    if (ready) {
      stats.bytesSent += (target.body as Uint8Array | undefined)?.byteLength ?? 0;
      return this.sendHttp1(index, ready.pool, ready.bytes, vars, scheduled, after);
    }
    const lookup: Lookup = (name) => vars.get(name) ?? row?.[name];
    let url: URL;
    let headers: string[];
    let body: Buffer | Uint8Array | undefined;
    try {
      // A URL without per-request values is parsed once per target.
      url = target.url.includes(this.config.marker) ? new URL(this.fill(target.url, lookup, 'url')) : (this.parsed[index] ??= new URL(target.url));
      headers = [];
      for (const [name, value] of target.headers) headers.push(name, this.fill(value, lookup, 'text'));
      body = typeof target.body === 'string' ? Buffer.from(this.fill(target.body, lookup, 'text')) : target.body;
    } catch (error) {
      this.record(stats, scheduled, 'other', `the request could not be built: ${reasonOf(error)}`);
      // Not synchronously: a user whose every request fails at once must not recurse.
      return void setImmediate(after);
    }
    if (target.sign) return this.sendSigned(index, target.sign, url, headers, body, lookup, vars, scheduled, after);
    this.transmit(index, url, headers, body, vars, scheduled, after);
  }

  /**
   * A target whose auth signs requests: this send signed afresh (its own nonce, time and signature),
   * then sent. Counted in flight while it is signed, so the end of the test waits for it.
   */
  private sendSigned(index: number, signing: WireSigning, url: URL, headers: string[], body: Uint8Array | undefined, lookup: Lookup, vars: Map<string, string>, scheduled: number, after: AfterRequest): void {
    this.inFlight++;
    const fill = (text: string) => this.fill(text, lookup, 'text');
    signSend(signing, this.config.targets[index]!.method, url, headers, body, fill).then(
      (signed) => {
        this.inFlight--;
        if (this.ended || this.stopped) return void setImmediate(after);
        this.transmit(index, signed.url, signed.headers, signed.body, vars, scheduled, after, undefined, 0, fill);
      },
      (error: unknown) => {
        this.inFlight--;
        if (!this.ended) this.record(this.stats[index]!, scheduled, 'other', `the request could not be signed: ${reasonOf(error)}`);
        // Not from the promise's callback: a user whose every signing fails must let timers run.
        setImmediate(after);
      },
    );
  }

  /**
   * Sends a filled request: through Ferry's HTTP/1.1 client (plain HTTP) or undici. `method` and
   * `hops` differ from the target's for a redirect's next hop; `fill` fills a signed target's auth
   * for this send, kept to sign a redirect's hop again.
   */
  private transmit(index: number, url: URL, headers: string[], body: Uint8Array | undefined, vars: Map<string, string>, scheduled: number, after: AfterRequest, method = this.config.targets[index]!.method, hops = 0, fill?: (text: string) => string): void {
    const target = this.config.targets[index]!;
    const stats = this.stats[index]!;
    let bytes: Buffer | undefined;
    try {
      // Plain HTTP/1.1 through Ferry's client; HTTP/2 over http:// (h2c) through undici.
      if (url.protocol === 'http:' && !this.config.http2Only) bytes = requestBytes(method, url, headers, body, this.config.keepAlive);
    } catch (error) {
      this.record(stats, scheduled, 'other', `the request could not be built: ${reasonOf(error)}`);
      return void setImmediate(after);
    }
    stats.bytesSent += body?.byteLength ?? 0;
    if (bytes) {
      const pool = this.http1For(url);
      if (hops === 0 && this.isStatic(target)) this.prepared[index] = { pool, bytes };
      // What was sent is kept only when a redirect may need it (the target's own is found again otherwise).
      const sent = this.config.followRedirects === true && (hops > 0 || this.prepared[index] === undefined) ? { url, method, headers, body, fill } : undefined;
      return this.sendHttp1(index, pool, bytes, vars, scheduled, after, sent, hops);
    }
    this.inFlight++;
    // undici may fail a request inside dispatch() (a header it refuses): then `after` waits for
    // the next turn, so a user whose every request fails at once does not recurse.
    let returned = false;
    let endedEarly = false;
    sendUndici(this, this.poolFor(url.origin), index, vars, scheduled, { url, headers, body, method, fill }, () => (returned ? after() : (endedEarly = true)), hops);
    returned = true;
    if (endedEarly) setImmediate(after);
  }

  /** Whether a target's request is the same every time (nothing filled per request). */
  private isStatic(target: WireTarget): boolean {
    const marker = this.config.marker;
    return target.sign === undefined && !target.url.includes(marker) && typeof target.body !== 'string' && target.headers.every(([, value]) => !value.includes(marker));
  }

  track(call: InFlight): void {
    this.controllers.add(call);
  }

  untrack(call: InFlight): void {
    this.controllers.delete(call);
  }

  /** A request ended (calls.ts): counts it (unless the run was stopped under it) and applies the target's captures. */
  settle(call: InFlight, kind: ErrorKind | undefined, status: number, received: number, headers: Record<string, string | string[] | undefined> | undefined, chunks: Buffer[] | undefined, error?: Error): void {
    const { index, vars, scheduled } = call;
    const stats = this.stats[index]!;
    this.inFlight--;
    if (this.ended || (this.interrupted && kind !== undefined && kind !== 'status')) return;
    stats.bytesReceived += received;
    if (status > 0) stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    this.record(stats, scheduled, kind, error);
    const captures = this.captures[index];
    if (captures && (kind === undefined || kind === 'status')) {
      try {
        // No chunks: a body past CAPTURED_BODY_MAX_BYTES, let go; its header captures still read.
        for (const [variable, value] of captures(headers ?? {}, chunks && Buffer.concat(chunks))) vars.set(variable, value);
      } catch (error) {
        if (!(error instanceof CaptureTimeLimitError)) throw error;
        this.failure ??= new CaptureTimeLimitError(`target ${this.config.targets[index]!.request}, ${error.message}`);
        this.stop();
      }
    }
  }

  private sendHttp1(index: number, pool: Http1Pool, bytes: Buffer, vars: Map<string, string>, scheduled: number, after: AfterRequest, sent?: HopRequest, hops = 0): void {
    this.inFlight++;
    pool.send(new Http1Call(this, index, vars, scheduled, bytes, after, sent, hops));
  }

  /**
   * A redirect answer, followed as the application settings say (followRedirects, maxRedirects)
   * and as a run follows it: the next hop goes out under the same request, whose latency still
   * runs from its scheduled start (its timeout covers the whole chain) and whose status is the
   * last answer's. 303, and 301/302 after POST, continue as GET without the body; Authorization,
   * Cookie and the target's credential headers never go to another origin. A signed target's hop
   * within the origin is signed again for its own method and URL, as a run signs it.
   */
  redirect(call: InFlight, request: HopRequest | undefined, hops: number, status: number, location: string, received: number, after: AfterRequest): boolean | Error {
    if (!this.config.followRedirects || !REDIRECTS.has(status) || this.stopped || this.ended) return false;
    const target = this.config.targets[call.index]!;
    // A target sent as it is in the file: what it sent is the target itself.
    const from = request ?? { url: (this.parsed[call.index] ??= new URL(target.url)), method: target.method, headers: target.headers.flat(), body: target.body as Uint8Array | undefined };
    // Its bytes as UTF-8, as a run reads them: held as Latin-1, /café went to /caf%C3%83%C2%A9.
    location = headerTextOfLatin1(location);
    const maxRedirects = this.config.maxRedirects ?? 0;
    if (hops >= maxRedirects) return new Error(`stopped after ${hops} redirect${hops === 1 ? '' : 's'} (maxRedirects is ${maxRedirects}); the last one pointed to ${location}`);
    let next: URL;
    try {
      next = new URL(location, from.url);
    } catch {
      return new Error(`${from.url.host} redirected to "${location}", which is not a valid URL`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') return new Error(`${from.url.host} redirected to ${next.href}; only http and https redirects are followed`);
    let { method, headers, body } = from;
    if (status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST') {
      method = 'GET';
      body = undefined;
      headers = headers.filter((_, i, all) => !BODY_HEADER.test(all[i - (i % 2)]!));
    }
    if (next.origin !== from.url.origin) {
      const dropped = new Set([...CROSS_ORIGIN_DROPPED, ...[...(target.credentialHeaders ?? []), ...(target.sign?.added ?? [])].map((h) => h.toLowerCase())]);
      headers = headers.filter((_, i, all) => !dropped.has(all[i - (i % 2)]!.toLowerCase()));
    }
    // A Host header of the file named the first origin: the next one names its own.
    headers = headers.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== 'host');
    this.inFlight--;
    this.stats[call.index]!.bytesReceived += received;
    if (target.sign && next.origin === from.url.origin) this.signHopThenSend(call, target.sign, next, headers, body, after, method, hops + 1, from.fill ?? ((text) => text));
    else this.transmit(call.index, next, headers, body, call.vars, call.scheduled, after, method, hops + 1, from.fill);
    return true;
  }

  /** A signed target's redirect within the origin: the hop signed again, then sent (counted in flight while it is signed, as sendSigned()). */
  private signHopThenSend(call: InFlight, signing: WireSigning, url: URL, headers: string[], body: Uint8Array | undefined, after: AfterRequest, method: string, hops: number, fill: (text: string) => string): void {
    this.inFlight++;
    signRedirect(signing, method, url, headers, body, fill).then(
      (signed) => {
        this.inFlight--;
        if (this.ended || this.stopped) return void setImmediate(after);
        this.transmit(call.index, signed.url, signed.headers, signed.body, call.vars, call.scheduled, after, method, hops, fill);
      },
      (error: unknown) => {
        this.inFlight--;
        if (!this.ended) this.record(this.stats[call.index]!, call.scheduled, 'other', reasonOf(error));
        setImmediate(after);
      },
    );
  }


  /** Counts a request that ended; `reason` says why it failed (kept for the first of its kind). */
  private record(stats: TargetStats, scheduled: number, kind: ErrorKind | undefined, reason?: Error | string): void {
    const now = performance.now();
    this.countedAt = now;
    this.busyPoll.answered(now);
    const us = Math.max(1, Math.round((now - scheduled) * 1000));
    stats.count++;
    stats.histogram.recordValue(us);
    if (kind) {
      stats.errors[kind]++;
      if (kind !== 'status' && reason !== undefined && stats.errorReasons[kind] === undefined) stats.errorReasons[kind] = typeof reason === 'string' ? reason : reasonOf(reason);
    }
    const second = this.second(now);
    second.count++;
    if (kind) second.errors++;
    second.histogram.recordValue(us);
  }

  private second(now: number): Second {
    if (this.current && now >= this.currentFrom && now < this.currentUntil) return this.current;
    const key = Math.floor((this.timeOrigin + now) / 1000);
    let second = this.seconds.get(key);
    if (!second) this.seconds.set(key, (second = { count: 0, errors: 0, dropped: 0, histogram: newHistogram() }));
    this.current = second;
    this.currentFrom = key * 1000 - this.timeOrigin;
    this.currentUntil = (key + 1) * 1000 - this.timeOrigin;
    return second;
  }

  /** Posts the seconds that are over (all of them at the end) and forgets them: memory stays flat. */
  private flush(all: boolean): SecondCounts[] {
    // The clock record() keys seconds by, so a second posted as over gets nothing more.
    const current = Math.floor((this.timeOrigin + performance.now()) / 1000);
    const out: SecondCounts[] = [];
    const active = this.config.model === 'arrivalRate' ? this.inFlight : this.users;
    for (const [key, s] of [...this.seconds].sort((a, b) => a[0] - b[0])) {
      if (!all && key >= current) continue;
      out.push({ second: key, count: s.count, errors: s.errors, dropped: s.dropped, active, histogram: encodeHistogram(s.histogram) });
      s.histogram.destroy();
      this.seconds.delete(key);
      // record() must not write to a second posted as over (its bounds may differ by a rounding).
      if (s === this.current) this.current = undefined;
    }
    if (!all) this.post({ type: 'seconds', seconds: out, active, before: current, spunMs: this.busyPoll.spunMs });
    return out;
  }

  private finalCounts(): TargetCounts[] {
    return this.config.targets.map((t: WireTarget, i) => {
      const s = this.stats[i]!;
      return { request: t.request, count: s.count, errors: s.errors, errorReasons: s.errorReasons, statuses: s.statuses, dropped: s.dropped, bytesSent: s.bytesSent, bytesReceived: s.bytesReceived, histogram: encodeHistogram(s.histogram) };
    });
  }

  private http1For(url: URL): Http1Pool {
    let pool = this.http1.get(url.host);
    if (!pool) {
      // URL keeps IPv6 hosts in brackets; net.connect wants them bare.
      pool = new Http1Pool(url.hostname.replace(/^\[(.*)\]$/, '$1'), Number(url.port || 80), this.config.keepAlive);
      this.http1.set(url.host, pool);
    }
    return pool;
  }

  private poolFor(origin: string): Pool {
    let pool = this.pools.get(origin);
    if (!pool) {
      const tlsOptions = { rejectUnauthorized: this.config.verifyTls, ...(this.config.tls?.byOrigin[origin] ?? (this.config.tls?.ca ? { ca: this.config.tls.ca } : {})) };
      pool = new Pool(origin, {
        connections: null,
        pipelining: 1,
        allowH2: this.config.http2,
        // httpVersion http2, as a run's connector (http-agents.ts): HTTP/2 at once over a plain socket
        // (prior knowledge; undici speaks h2 on a socket that says it negotiated it), h2 alone over TLS.
        // Over TLS, the CAs of the caFiles setting and the host's client certificate, as a run's sends use them.
        // Watched for HTTP/2 answers' header lists (header-text.ts): undici's own joins repeated fields.
        connect: watchingHttp2(origin.startsWith('http:') ? h2cConnect : this.config.http2Only ? h2TlsConnect(tlsOptions) : (buildConnector({ ...tlsOptions, allowH2: this.config.http2 }) as never)) as never,
      });
      this.pools.set(origin, pool);
    }
    return pool;
  }
}

/** undici's connector for cleartext HTTP/2 with prior knowledge. */
function h2cConnect(options: { hostname: string; port: string }, callback: (error: Error | null, socket: net.Socket | null) => void): void {
  const socket = net.connect({ host: options.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(options.port || 80), noDelay: true });
  (socket as net.Socket & { alpnProtocol?: string }).alpnProtocol = 'h2';
  let done = false;
  socket.once('connect', () => {
    if (!done) (done = true), callback(null, socket);
  });
  socket.once('error', (error) => {
    if (!done) (done = true), callback(error, null);
  });
}

/** undici's connector for httpVersion http2 over TLS: the handshake offers h2 alone; a server that picks none is refused, saying so. */
function h2TlsConnect(options: tls.ConnectionOptions) {
  return (target: { hostname: string; port: string; servername?: string }, callback: (error: Error | null, socket: tls.TLSSocket | null) => void): void => {
    const host = target.hostname.replace(/^\[(.*)\]$/, '$1');
    const port = Number(target.port || 443);
    const socket = tls.connect({ ...options, host, port, servername: target.servername || (net.isIP(host) ? undefined : host), ALPNProtocols: ['h2'] });
    socket.setNoDelay(true);
    let done = false;
    const noH2 = (code: string) => Object.assign(new Error(`${host}:${port} does not speak HTTP/2: its TLS handshake offered no h2 protocol (httpVersion http2; use auto or http1)`), { code });
    socket.once('secureConnect', () => {
      if (done) return;
      done = true;
      if (socket.alpnProtocol === 'h2') return callback(null, socket);
      socket.destroy();
      callback(noH2('ERR_SSL_NO_APPLICATION_PROTOCOL'), null);
    });
    socket.once('error', (error: Error & { code?: string }) => {
      if (done) return;
      done = true;
      // A server that speaks no h2 may end the handshake with an alert instead: said the same way.
      callback(/NO_APPLICATION_PROTOCOL/i.test(error.code ?? '') || /no application protocol/i.test(error.message) ? noH2(error.code ?? 'ERR_SSL_NO_APPLICATION_PROTOCOL') : error, null);
    });
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
