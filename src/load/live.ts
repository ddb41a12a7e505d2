/**
 * The live numbers of a run, from the workers' per-second counts: totals so far, and one point
 * per wall-clock second once every worker has reported that second (so a point is final, never
 * revised). The terminal's live line (`view()`) and the app's charts (`onPoint`) read the same
 * points. Seconds are forgotten once their point is out: memory stays flat however long the run.
 */
import { decodeHistogram, newSumHistogram, type Histogram } from './histogram.js';
import type { SeriesPoint } from './result.js';
import type { SecondCounts } from './wire.js';

export interface LiveView {
  elapsedSeconds: number;
  plannedSeconds: number;
  count: number;
  errors: number;
  dropped: number;
  /** Requests that ended in the last complete second. */
  rps: number;
  /** p95 of the last complete second, ms; null when it had no answers. */
  p95: number | null;
  active: number;
}

/** One complete wall-clock second of a run, as the live charts draw it: the result's series point without its histogram. */
export interface LivePoint extends Omit<SeriesPoint, 'histogram'> {
  /** Seconds from the schedule's start to the end of this second. */
  elapsedSeconds: number;
}

/** Most points made at once (a clock step, a worker far behind): older seconds stay in the totals only. */
const MAX_GAP_SECONDS = 600;

interface Slot {
  count: number;
  errors: number;
  dropped: number;
  histogram: Histogram;
}

export class LiveTotals {
  private count = 0;
  private errors = 0;
  private dropped = 0;
  private readonly active = new Map<number, number>();
  /** Per worker: every second before this (epoch seconds) is reported. */
  private readonly reported = new Map<number, number>();
  private readonly pending = new Map<number, Slot>();
  private readonly listeners = new Set<(point: LivePoint) => void>();
  private workers = 1;
  /** The next second to make a point of. */
  private next = Number.POSITIVE_INFINITY;
  private last: LivePoint | undefined;

  /** Epoch ms; set when the workers start the schedule. */
  startAt = Number.POSITIVE_INFINITY;

  constructor(readonly plannedSeconds: number) {}

  /** The schedule starts at `at` (epoch ms) on `workers` generator threads. */
  start(at: number, workers: number): void {
    this.startAt = at;
    this.workers = Math.max(1, workers);
    this.next = Math.floor(at / 1000);
  }

  /** Calls `listener` with each complete second, in order; returns the unsubscribe. */
  onPoint(listener: (point: LivePoint) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Seconds from one worker, with its current users or in-flight requests; `before` (epoch
   * seconds): that worker has now reported every second before it (Infinity when it is done).
   */
  add(seconds: readonly SecondCounts[], active: number, worker: number, before = Number.NEGATIVE_INFINITY): void {
    this.active.set(worker, active);
    this.reported.set(worker, Math.max(this.reported.get(worker) ?? Number.NEGATIVE_INFINITY, before));
    for (const s of seconds) {
      this.count += s.count;
      this.errors += s.errors;
      this.dropped += s.dropped;
      // A second whose point is out already (a clock step): counted in the totals only.
      if (s.second < this.next) continue;
      let slot = this.pending.get(s.second);
      if (!slot) this.pending.set(s.second, (slot = { count: 0, errors: 0, dropped: 0, histogram: newSumHistogram() }));
      slot.count += s.count;
      slot.errors += s.errors;
      slot.dropped += s.dropped;
      const h = decodeHistogram(s.histogram);
      slot.histogram.add(h);
      h.destroy();
    }
    this.emit();
  }

  /** Makes the points of the seconds every worker has reported. */
  private emit(): void {
    if (!Number.isFinite(this.next)) return;
    let complete = Number.POSITIVE_INFINITY;
    for (let w = 0; w < this.workers; w++) complete = Math.min(complete, this.reported.get(w) ?? Number.NEGATIVE_INFINITY);
    // All done: up to the last second anything ended in.
    if (complete === Number.POSITIVE_INFINITY) complete = Math.max(this.next - 1, ...this.pending.keys()) + 1;
    const active = [...this.active.values()].reduce((a, b) => a + b, 0);
    // A clock stepped forward by hours must not make hours of empty points: skip to the last few.
    if (complete - this.next > MAX_GAP_SECONDS) {
      const from = complete - MAX_GAP_SECONDS;
      for (const [second, slot] of this.pending) {
        if (second < from) {
          slot.histogram.destroy();
          this.pending.delete(second);
        }
      }
      this.next = from;
    }
    for (; this.next < complete; this.next++) {
      const slot = this.pending.get(this.next);
      this.pending.delete(this.next);
      const h = slot?.histogram;
      const at = (p: number) => (h && h.totalCount > 0 ? Math.round(h.getValueAtPercentile(p)) / 1000 : null);
      const point: LivePoint = {
        second: this.next,
        elapsedSeconds: Math.max(0, Math.round(((this.next + 1) * 1000 - this.startAt) / 100) / 10),
        count: slot?.count ?? 0,
        errors: slot?.errors ?? 0,
        dropped: slot?.dropped ?? 0,
        active,
        p50: at(50),
        p95: at(95),
        p99: at(99),
      };
      h?.destroy();
      this.last = point;
      for (const listener of this.listeners) listener(point);
    }
  }

  view(now = Date.now()): LiveView {
    return {
      elapsedSeconds: Math.max(0, Math.min(this.plannedSeconds, (now - this.startAt) / 1000)),
      plannedSeconds: this.plannedSeconds,
      count: this.count,
      errors: this.errors,
      dropped: this.dropped,
      rps: this.last?.count ?? 0,
      p95: this.last?.p95 ?? null,
      active: [...this.active.values()].reduce((a, b) => a + b, 0),
    };
  }
}
