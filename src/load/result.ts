/**
 * The result of a load test (docs/load.md, "The result file"): a versioned JSON shape holding
 * counters and encoded histograms, so that results of segments merge exactly (histograms added,
 * counters summed, seconds on the test's timeline: merge.ts) and thresholds judge the merged whole.
 */
import { decodeHistogram, encodeHistogram, latencyStats, newHistogram, type Histogram, type LatencyStats } from './histogram.js';
import { ERROR_KINDS, noErrors, type Counters, type ErrorKind, type ErrorReasons, type SecondCounts, type TargetCounts } from './wire.js';
import type { ThresholdRule, ThresholdVerdict } from './verdict.js';

export const RESULT_FORMAT = 'ferry-load-result';
export const RESULT_VERSION = 1;

export interface TargetResult {
  /** Request path under requests/, or `*` for all targets together. */
  request: string;
  count: number;
  rps: number;
  errors: Record<ErrorKind, number> & { total: number };
  /** Percent of requests that failed (any error kind). */
  errorRate: number;
  /** The first error of each kind but status, as it said (`connect ECONNREFUSED 127.0.0.1:8080`); absent in files of older Ferry. */
  errorReasons: ErrorReasons;
  statuses: Record<string, number>;
  dropped: number;
  bytesSent: number;
  bytesReceived: number;
  /** Null when nothing was measured. */
  latencyMs: LatencyStats | null;
  /** HdrHistogram of latencies in µs, compressed base64 (V2 encoding). */
  histogram: string;
}

export interface SeriesPoint {
  /** Epoch seconds: requests that ended in this second. */
  second: number;
  count: number;
  errors: number;
  dropped: number;
  /** Users (closed model) or requests in flight (open model). */
  active: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
  histogram: string;
}

export interface LoadResult {
  format: typeof RESULT_FORMAT;
  version: typeof RESULT_VERSION;
  loadTest: { id: string; name: string; model: 'virtualUsers' | 'arrivalRate' };
  /** Which parts this holds: `[1]` of 1 for a whole run; merged results list every part. */
  segments: { parts: number[]; of: number };
  workers: number;
  startedAt: string;
  endedAt: string;
  plannedSeconds: number;
  durationSeconds: number;
  interrupted: boolean;
  overall: TargetResult;
  targets: TargetResult[];
  series: SeriesPoint[];
  thresholds: ThresholdRule[];
  verdicts: ThresholdVerdict[];
  passed: boolean;
}

type Sum = Counters<Histogram>;

function emptySum(): Sum {
  return { count: 0, errors: noErrors(), errorReasons: {}, statuses: {}, dropped: 0, bytesSent: 0, bytesReceived: 0, histogram: newHistogram() };
}

function addInto(sum: Sum, part: Pick<TargetCounts, 'count' | 'errors' | 'statuses' | 'dropped' | 'bytesSent' | 'bytesReceived'> & { errorReasons?: ErrorReasons }, histogram: Histogram): void {
  sum.count += part.count;
  for (const kind of ERROR_KINDS) sum.errors[kind] += part.errors[kind] ?? 0;
  // The first reason of each kind stays (a merged file of an older Ferry has none).
  for (const [kind, reason] of Object.entries(part.errorReasons ?? {}) as Array<[keyof ErrorReasons, string]>) sum.errorReasons[kind] ??= reason;
  for (const [status, n] of Object.entries(part.statuses)) sum.statuses[status] = (sum.statuses[status] ?? 0) + n;
  sum.dropped += part.dropped;
  sum.bytesSent += part.bytesSent;
  sum.bytesReceived += part.bytesReceived;
  sum.histogram.add(histogram);
}

function targetResult(request: string, sum: Sum, seconds: number): TargetResult {
  const total = ERROR_KINDS.reduce((n, k) => n + sum.errors[k], 0);
  return {
    request,
    count: sum.count,
    rps: seconds > 0 ? round(sum.count / seconds) : 0,
    errors: { ...sum.errors, total },
    // Three significant digits below 1%: one error in 300,000 requests is 0.000333%, not 0.
    errorRate: sum.count > 0 ? roundFine((100 * total) / sum.count) : 0,
    // In the kinds' order, whichever came first: the same file for the same outcome.
    errorReasons: Object.fromEntries(ERROR_KINDS.flatMap((k) => (k !== 'status' && sum.errorReasons[k] !== undefined ? [[k, sum.errorReasons[k]]] : []))),
    statuses: sum.statuses,
    dropped: sum.dropped,
    bytesSent: sum.bytesSent,
    bytesReceived: sum.bytesReceived,
    latencyMs: latencyStats(sum.histogram) ?? null,
    histogram: encodeHistogram(sum.histogram),
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Adds per-target counters (from workers or from result files) and per-second counts. */
export function combine(
  parts: Array<Array<Pick<TargetCounts, 'request' | 'count' | 'errors' | 'statuses' | 'dropped' | 'bytesSent' | 'bytesReceived' | 'histogram'> & { errorReasons?: ErrorReasons }>>,
  seconds: Array<Pick<SecondCounts, 'second' | 'count' | 'errors' | 'dropped' | 'active' | 'histogram'>>,
  durationSeconds: number,
): { overall: TargetResult; targets: TargetResult[]; series: SeriesPoint[] } {
  const byTarget = new Map<string, Sum>();
  const overall = emptySum();
  for (const part of parts) {
    for (const counts of part) {
      let sum = byTarget.get(counts.request);
      if (!sum) byTarget.set(counts.request, (sum = emptySum()));
      const histogram = decodeHistogram(counts.histogram);
      addInto(sum, counts, histogram);
      addInto(overall, counts, histogram);
      histogram.destroy();
    }
  }
  const bySecond = new Map<number, { count: number; errors: number; dropped: number; active: number; histogram: Histogram }>();
  for (const s of seconds) {
    let point = bySecond.get(s.second);
    if (!point) bySecond.set(s.second, (point = { count: 0, errors: 0, dropped: 0, active: 0, histogram: newHistogram() }));
    point.count += s.count;
    point.errors += s.errors;
    point.dropped += s.dropped;
    point.active += s.active;
    const histogram = decodeHistogram(s.histogram);
    point.histogram.add(histogram);
    histogram.destroy();
  }
  const series = [...bySecond]
    .sort((a, b) => a[0] - b[0])
    .map(([second, p]) => {
      const stats = latencyStats(p.histogram);
      const point: SeriesPoint = { second, count: p.count, errors: p.errors, dropped: p.dropped, active: p.active, p50: stats?.p50 ?? null, p95: stats?.p95 ?? null, p99: stats?.p99 ?? null, histogram: encodeHistogram(p.histogram) };
      p.histogram.destroy();
      return point;
    });
  const targets = [...byTarget].map(([request, sum]) => targetResult(request, sum, durationSeconds));
  return { overall: targetResult('*', overall, durationSeconds), targets, series };
}

/** `digits` decimals, or as many significant digits for a value below 1 (0.000333, not 0). */
export function roundFine(n: number, digits = 3): number {
  if (n === 0 || !Number.isFinite(n)) return n;
  if (Math.abs(n) >= 1) return Number(n.toFixed(digits));
  return Number(n.toPrecision(digits));
}
