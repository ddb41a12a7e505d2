/**
 * Busy polling for a generator thread whose answers come faster than a thread wakes up. Against
 * a server on the same machine, answers arrive every 20–30 µs; a generator that handles each in
 * less than that runs dry between them and sleeps in the kernel (measured: ~300 sleeps per 1,000
 * requests, against ~30 for autocannon, which is slower per request and never catches up). Each
 * sleep costs a wake-up: the server's write pays for it, and the next request waits for it.
 *
 * So while answers come at least every SPIN_MS on average, the thread looks for the next one
 * without sleeping (an immediate keeps the event loop's poll from blocking) for up to SPIN_MS
 * after the last; then it sleeps as usual. Slower traffic (a remote server, think time) never
 * spins, and a spin costs at most SPIN_MS per answer. A spinning event loop never blocks, so it
 * looks fully busy: `spunMs` is the time spent spinning, which the engine does not count as busy
 * when it decides whether more threads should join.
 */
import { performance } from 'node:perf_hooks';

/** How long after an answer the thread keeps looking for the next one (ms). */
const SPIN_MS = 0.05;
/** Weight of the newest gap in the running average of the gaps between answers. */
const GAP_WEIGHT = 1 / 16;

export class BusyPoll {
  private lastAt = Number.NEGATIVE_INFINITY;
  /** Running average of the time between answers (ms). */
  private gapMs = Number.POSITIVE_INFINITY;
  #spinning = false;
  /** When the spin last looked (performance.now ms). */
  private lookedAt = 0;
  /** Time spent spinning with nothing to do, in all (ms). */
  spunMs = 0;

  /** Whether the thread is looking for answers without sleeping now. */
  get spinning(): boolean {
    return this.#spinning;
  }

  /** An answer was counted at `now` (performance.now ms). */
  answered(now: number): void {
    const gap = now - this.lastAt;
    this.lastAt = now;
    this.gapMs = Number.isFinite(this.gapMs) ? this.gapMs + (gap - this.gapMs) * GAP_WEIGHT : gap;
    if (!this.#spinning && this.gapMs < SPIN_MS) {
      this.#spinning = true;
      this.lookedAt = now;
      setImmediate(this.spin);
    }
  }

  private readonly spin = (): void => {
    const now = performance.now();
    // No answer since the last look: the turn in between was spent looking.
    if (this.lastAt <= this.lookedAt) this.spunMs += now - this.lookedAt;
    this.lookedAt = now;
    if (now - this.lastAt < SPIN_MS) setImmediate(this.spin);
    else this.#spinning = false;
  };
}
