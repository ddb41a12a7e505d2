/**
 * What the live display shows (about once a second): totals so far and the last full second,
 * gathered from the workers' per-second counts. Old seconds are forgotten: memory stays flat.
 */
import { decodeHistogram, newHistogram, type Histogram } from './histogram.js';
import type { SecondCounts } from './wire.js';

export interface LiveView {
  elapsedSeconds: number;
  plannedSeconds: number;
  count: number;
  errors: number;
  dropped: number;
  /** Requests that ended in the last full second. */
  rps: number;
  /** p95 of the last full second, ms; null when it had no answers. */
  p95: number | null;
  active: number;
}

export class LiveTotals {
  private count = 0;
  private errors = 0;
  private dropped = 0;
  private readonly active = new Map<number, number>();
  private readonly recent = new Map<number, { count: number; histogram: Histogram }>();

  /** Epoch ms; set when the workers start the schedule. */
  startAt = Number.POSITIVE_INFINITY;

  constructor(private readonly plannedSeconds: number) {}

  add(seconds: readonly SecondCounts[], active: number, worker: number): void {
    this.active.set(worker, active);
    for (const s of seconds) {
      this.count += s.count;
      this.errors += s.errors;
      this.dropped += s.dropped;
      let slot = this.recent.get(s.second);
      if (!slot) this.recent.set(s.second, (slot = { count: 0, histogram: newHistogram() }));
      slot.count += s.count;
      const h = decodeHistogram(s.histogram);
      slot.histogram.add(h);
      h.destroy();
    }
    // Keep the last few seconds only.
    const keys = [...this.recent.keys()].sort((a, b) => b - a);
    for (const key of keys.slice(3)) {
      this.recent.get(key)!.histogram.destroy();
      this.recent.delete(key);
    }
  }

  view(now = Date.now()): LiveView {
    const last = this.recent.get(Math.floor(now / 1000) - 1) ?? this.recent.get(Math.max(0, ...this.recent.keys()));
    return {
      elapsedSeconds: Math.max(0, Math.min(this.plannedSeconds, (now - this.startAt) / 1000)),
      plannedSeconds: this.plannedSeconds,
      count: this.count,
      errors: this.errors,
      dropped: this.dropped,
      rps: last?.count ?? 0,
      p95: last && last.histogram.totalCount > 0 ? Math.round(last.histogram.getValueAtPercentile(95)) / 1000 : null,
      active: [...this.active.values()].reduce((a, b) => a + b, 0),
    };
  }
}
