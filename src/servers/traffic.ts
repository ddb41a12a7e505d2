/**
 * The traffic log: one record per request, kept in a bounded ring buffer and handed to listeners
 * in batches after the answer is sent. Adding a record costs one array store on the hot path;
 * nothing is formatted or written until a listener asks, and then off the request's tick.
 */
import { performance } from 'node:perf_hooks';
import type { ServerKind } from '../model/index.js';
import type { TrafficRecord } from './types.js';

export const DEFAULT_TRAFFIC_CAPACITY = 1000;

/**
 * Gets each batch of new records, and how many records came in since the last batch but are not in
 * it (more than `capacity` in one tick), in all and by server kind: a face says so ("N requests
 * not shown", "N DNS queries not shown"), never drops them silently.
 */
export type TrafficListener = (records: readonly TrafficRecord[], dropped: number, droppedByKind: Readonly<Partial<Record<ServerKind, number>>>) => void;

const NONE: Readonly<Partial<Record<ServerKind, number>>> = Object.freeze({});

export class TrafficLog {
  /** Records handed to listeners per batch at most (and kept for `recent()` unless told otherwise). */
  readonly capacity: number;
  /** Records kept for `recent()`. */
  readonly kept: number;
  readonly #ring: (TrafficRecord | undefined)[];
  /** Total records ever added; the next one goes to `#added % kept`. */
  #added = 0;
  readonly #listeners = new Set<TrafficListener>();
  #pending: TrafficRecord[] = [];
  /** Records that went past `#pending`'s bound since the last flush. */
  #dropped = 0;
  /** `#dropped` by the kind of server the records came from. */
  #droppedByKind: Partial<Record<ServerKind, number>> = NONE;
  #scheduled = false;

  /**
   * `kept`: 0 when nothing reads `recent()` (`ferry serve`). Records kept outlive the young
   * generation's collections and are copied and promoted to the old one: at thousands of requests
   * a second, keeping 1,000 cost the server ~20% more CPU per request (bench/mock.ts).
   */
  constructor(capacity = DEFAULT_TRAFFIC_CAPACITY, kept = capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new Error(`traffic log capacity must be a whole number of 1 or more, got ${capacity}`);
    if (!Number.isInteger(kept) || kept < 0) throw new Error(`records kept by the traffic log must be a whole number of 0 or more, got ${kept}`);
    this.capacity = capacity;
    this.kept = kept;
    this.#ring = new Array(kept);
  }

  add(record: TrafficRecord): void {
    if (this.kept > 0) this.#ring[this.#added % this.kept] = record;
    this.#added++;
    if (this.#listeners.size === 0) return;
    // Bounded too: a listener slower than the traffic sees the newest `capacity` records.
    if (this.#pending.length >= this.capacity) {
      const old = this.#pending.shift()!;
      this.#dropped++;
      if (this.#droppedByKind === NONE) this.#droppedByKind = {};
      this.#droppedByKind[old.kind] = (this.#droppedByKind[old.kind] ?? 0) + 1;
    }
    this.#pending.push(record);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#flush);
    }
  }

  /** Records still held, oldest first (at most `kept`). */
  recent(): TrafficRecord[] {
    const count = Math.min(this.#added, this.kept);
    const out: TrafficRecord[] = [];
    for (let i = this.#added - count; i < this.#added; i++) out.push(this.#ring[i % this.kept]!);
    return out;
  }

  /** Records ever added (including those the ring has dropped). */
  get total(): number {
    return this.#added;
  }

  /** Calls `listener` with each batch of new records; returns the function that unsubscribes. */
  subscribe(listener: TrafficListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    const batch = this.#pending;
    const dropped = this.#dropped;
    const droppedByKind = this.#droppedByKind;
    this.#pending = [];
    this.#dropped = 0;
    this.#droppedByKind = NONE;
    for (const listener of this.#listeners) {
      try {
        listener(batch, dropped, droppedByKind);
      } catch {
        // A face's bug must not take the server down; the records stay in the ring.
      }
    }
  };
}

/** A record as plain fields, summary included, for faces that copy or spread it (`{ ...record }` would miss a worded-when-read summary). */
export function plainRecord<Detail>(record: TrafficRecord<Detail>): TrafficRecord<Detail> {
  return record.toJSON !== undefined ? record.toJSON() : record;
}

/** Wall-clock offset of `performance.now()`, re-read at most once a second (the clocks may drift). */
let clockOffset = Date.now() - performance.now();
let offsetReadAt = performance.now();

/**
 * Epoch milliseconds of a `performance.now()` reading taken in the last moments (a request's
 * arrival): one clock read per request instead of two.
 */
export function epochMsOf(monotonicMs: number): number {
  if (monotonicMs - offsetReadAt > 1000 || monotonicMs < offsetReadAt) {
    const now = performance.now();
    clockOffset = Date.now() - now;
    offsetReadAt = now;
  }
  return Math.round(monotonicMs + clockOffset);
}
