/**
 * The engine's main-thread half: starts one generator worker per core (or `--workers N`), hands
 * each its stripe of the test, gathers their per-second counts for the live display, and their
 * final counts. Ctrl-C (the signal) stops every worker at once.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { shareOf } from './segment.js';
import type { GeneratorConfig, SecondCounts, TargetCounts, WorkerMessage } from './wire.js';
import { workerFile } from './worker-file.js';

export interface EngineOutcome {
  /** Per worker, per target. */
  targets: TargetCounts[][];
  seconds: SecondCounts[];
  /** When the schedule started (epoch ms), once every worker was up. */
  startedAt: number;
  endedAt: number;
}

export interface EngineOptions {
  /** The whole generator config but the worker stripe and its maxInFlight share. */
  config: Omit<GeneratorConfig, 'worker'>;
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

export function defaultWorkers(): number {
  return availableParallelism();
}

export async function runEngine(options: EngineOptions): Promise<EngineOutcome> {
  const count = Math.max(1, options.workers ?? defaultWorkers());
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
        const config: GeneratorConfig = { ...options.config, worker, maxInFlight: Math.max(1, shareOf(options.config.maxInFlight, worker)) };
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
            } else if (message.type === 'seconds') {
              seconds.push(...message.seconds);
              options.onSeconds?.(message.seconds, message.active, index, message.before);
            }
            else if (message.type === 'failed') reject(new Error(`load generator ${index + 1} failed: ${message.message}`));
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
    options.signal?.removeEventListener('abort', stop);
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { targets: outcomes, seconds, startedAt, endedAt };
}
