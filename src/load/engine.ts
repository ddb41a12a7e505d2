/**
 * The engine's main-thread half: starts one generator worker per core (or `--workers N`), hands
 * each its stripe of the test, gathers their per-second counts for the live display, and their
 * final counts. Ctrl-C (the signal) stops every worker at once.
 *
 * By default the closed model's users start on one worker, and more workers join only while the
 * ones sending are busy (see Spread): a generator thread that waits for the server adds nothing
 * but CPU taken from a server on the same machine.
 */
import { availableParallelism, cpus } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { shareOf } from './segment.js';
import { CaptureTimeLimitError, type GeneratorConfig, type SecondCounts, type TargetCounts, type WorkerMessage } from './wire.js';
import { workerFile } from './worker-file.js';

export interface EngineOutcome {
  /** Per worker, per target. */
  targets: TargetCounts[][];
  /** Workers that sent requests (the first ones; the others stayed idle). */
  workers: number;
  seconds: SecondCounts[];
  /** When the schedule started (epoch ms), once every worker was up. */
  startedAt: number;
  endedAt: number;
}

export interface EngineOptions {
  /** The whole generator config but the worker stripe and its maxInFlight share. */
  config: Omit<GeneratorConfig, 'worker' | 'activeWorkers'>;
  /** Called when every worker is up, just before the schedule starts (epoch ms), with how many there are. */
  onStart?: (startAt: number, workers: number) => void;
  workers?: number;
  signal?: AbortSignal;
  /**
   * Seconds that ended, from any worker, with the worker's current users or in-flight requests;
   * `before` (epoch seconds): that worker has reported every second before it (Infinity at its end).
   */
  onSeconds?: (seconds: SecondCounts[], active: number, worker: number, before: number) => void;
}

const START_DELAY_MS = 50;
/** How often the sending workers' event-loop use is looked at. */
const SPREAD_EVERY_MS = 1000;
/**
 * A worker busy this share of the time or more, BUSY_LOOKS looks in a row, needs help: more
 * workers join. Measured on 2 cores against a local server: a worker waiting for a Node server
 * 0.3–0.4, one driving nginx 0.55–0.8 (bench/README.md); two looks ride over a spike.
 */
const BUSY = 0.6;
const BUSY_LOOKS = 2;
/**
 * A joining worker needs this share of a core idle on the machine (every process counted), or
 * it only takes CPU from the server or from other programs. Estimated on 2 cores from the
 * measured CPU per request (bench/README.md, load generator, session 8): one worker driving a
 * local Node server as fast as it answers leaves about 0.3 core idle, one driving nginx about
 * 0.6; a machine busy with other work, none.
 */
const IDLE_PER_WORKER = 0.45;

/** Idle time of the whole machine so far, all cores (ms); undefined when the system does not say. */
export function machineIdleMs(): number | undefined {
  const all = cpus();
  if (all.length === 0) return undefined;
  let idle = 0;
  for (const cpu of all) idle += cpu.times.idle;
  return idle;
}

/**
 * Whether more workers should join: every sending worker's event loop was busy at least BUSY of
 * the time, and the machine had enough idle cores for the joining ones (`idleCores` undefined:
 * not known, the workers' use decides alone).
 */
export function needsMoreWorkers(busyShares: readonly number[], idleCores: number | undefined, joining: number): boolean {
  if (joining <= 0 || !busyShares.every((share) => share >= BUSY)) return false;
  return idleCores === undefined || idleCores >= IDLE_PER_WORKER * joining;
}

export function defaultWorkers(): number {
  return availableParallelism();
}

/**
 * Spreads the closed model's users over more workers while every sending worker is busy and
 * the machine has idle cores for more (needsMoreWorkers, BUSY_LOOKS looks in a row): the number
 * sending doubles, up to all.
 * Workers whose share shrinks answer `shared` once down to it; the joining ones start after.
 */
class Spread {
  active = 1;
  private pending = 0;
  private waiting: number | undefined;
  private last: EventLoopUtilization[] = [];
  /** Per worker: busy-polling time reported so far, and at the last look (ms). */
  private readonly spun: number[];
  private spunLast: number[];
  private lastIdle = machineIdleMs();
  private lastAt = performance.now();
  private looked = false;
  /** Looks in a row at which every sending worker was busy. */
  private busyLooks = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly workers: Worker[]) {
    this.last = workers.map((w) => w.performance.eventLoopUtilization());
    this.spun = workers.map(() => 0);
    this.spunLast = workers.map(() => 0);
    this.timer = setInterval(() => this.look(), SPREAD_EVERY_MS);
    this.timer.unref();
  }

  /** A sending worker is down to its new share: once all are, the joining ones start. */
  shared(): void {
    if (this.waiting === undefined || --this.pending > 0) return;
    const active = this.waiting;
    this.waiting = undefined;
    for (let i = this.active; i < active; i++) this.workers[i]!.postMessage({ type: 'workers', active });
    this.active = active;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** A worker's busy-polling time so far: its loop was not working then. */
  reportSpin(worker: number, spunMs: number): void {
    this.spun[worker] = spunMs;
  }

  private look(): void {
    const now = this.workers.map((w) => w.performance.eventLoopUtilization());
    const idle = machineIdleMs();
    const at = performance.now();
    // Cores idle over the period, on the whole machine (a busy machine has none for a new thread).
    const idleCores = idle === undefined || this.lastIdle === undefined ? undefined : (idle - this.lastIdle) / Math.max(1, at - this.lastAt);
    const shares = now.slice(0, this.active).map((elu, i) => busyShare(elu, this.last[i]!, this.spun[i]! - this.spunLast[i]!));
    const joining = Math.min(this.workers.length, this.active * 2) - this.active;
    // The first period is the JIT's warm-up and opening connections: not the steady cost.
    const busy = this.looked && needsMoreWorkers(shares, idleCores, joining);
    this.looked = true;
    this.last = now;
    this.spunLast = [...this.spun];
    this.lastIdle = idle;
    this.lastAt = at;
    this.busyLooks = busy ? this.busyLooks + 1 : 0;
    if (this.busyLooks < BUSY_LOOKS || this.waiting !== undefined || this.active >= this.workers.length) return;
    this.busyLooks = 0;
    this.waiting = Math.min(this.workers.length, this.active * 2);
    this.pending = this.active;
    for (let i = 0; i < this.active; i++) this.workers[i]!.postMessage({ type: 'workers', active: this.waiting });
    if (this.waiting === this.workers.length) this.stop();
  }
}

/** The share of the time between two readings a worker's event loop was busy, busy polling (`spunMs`) not counted. */
export function busyShare(now: EventLoopUtilization, before: EventLoopUtilization, spunMs = 0): number {
  const idle = now.idle - before.idle;
  const active = now.active - before.active;
  const working = Math.max(0, active - spunMs);
  return idle + active > 0 ? working / (idle + active) : 0;
}

export async function runEngine(options: EngineOptions): Promise<EngineOutcome> {
  const count = Math.max(1, options.workers ?? defaultWorkers());
  // Users move between workers; arrivals of the open model are striped from the start.
  const spreading = options.workers === undefined && options.config.model === 'virtualUsers' && count > 1;
  let spread: Spread | undefined;
  const file = await workerFile();
  const outcomes: TargetCounts[][] = [];
  const seconds: SecondCounts[] = [];
  let endedAt = 0;
  let startedAt = 0;
  let ready = 0;
  const workers: Worker[] = [];
  const stop = () => workers.forEach((w) => w.postMessage({ type: 'stop' }));
  options.signal?.addEventListener('abort', stop, { once: true });
  try {
    await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const worker = { index, count };
        const config: GeneratorConfig = { ...options.config, worker, activeWorkers: spreading ? 1 : count, maxInFlight: Math.max(1, shareOf(options.config.maxInFlight, worker)) };
        const thread = new Worker(file, { workerData: config });
        workers.push(thread);
        return new Promise<void>((resolve, reject) => {
          let done = false;
          thread.on('message', (message: WorkerMessage) => {
            if (message.type === 'ready' && ++ready === count) {
              // Everyone is up: start together a little later, so the start message reaches all first.
              startedAt = Date.now() + START_DELAY_MS;
              options.onStart?.(startedAt, count);
              if (!options.signal?.aborted) workers.forEach((w) => w.postMessage({ type: 'start', startAt: startedAt }));
              else workers.forEach((w) => w.postMessage({ type: 'stop' }));
              if (spreading) spread = new Spread(workers);
            } else if (message.type === 'shared') {
              spread?.shared();
            } else if (message.type === 'seconds') {
              spread?.reportSpin(index, message.spunMs);
              seconds.push(...message.seconds);
              options.onSeconds?.(message.seconds, message.active, index, message.before);
            }
            else if (message.type === 'failed') reject(message.capture ? new CaptureTimeLimitError(message.message) : new Error(`load generator ${index + 1} failed: ${message.message}`));
            else if (message.type === 'done') {
              done = true;
              outcomes[index] = message.targets;
              seconds.push(...message.seconds);
              options.onSeconds?.(message.seconds, 0, index, Number.POSITIVE_INFINITY);
              endedAt = Math.max(endedAt, message.endedAt);
              resolve();
            }
          });
          thread.on('error', reject);
          thread.on('exit', (code) => (done ? resolve() : reject(new Error(`load generator ${index + 1} stopped (exit code ${code}) before it finished.`))));
        });
      }),
    );
  } finally {
    spread?.stop();
    options.signal?.removeEventListener('abort', stop);
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { targets: outcomes, workers: spread ? spread.active : count, seconds, startedAt, endedAt };
}
