/**
 * Latency histograms (HdrHistogram, µs, 3 significant digits): memory stays flat however many
 * samples, and two histograms add exactly, so results of many workers and machines merge.
 */
import hdr, { type Histogram } from 'hdr-histogram-js';

export type { Histogram };

/** For recording on the hot path: 32-bit buckets record ~6× faster than packed ones. */
export function newHistogram(): Histogram {
  return hdr.build({ numberOfSignificantValueDigits: 3, autoResize: true, bitBucketSize: 32, useWebAssembly: false });
}

/** For adding up decoded histograms: packed buckets stay small while sparse; counts are the same. */
export function newSumHistogram(): Histogram {
  return hdr.build({ numberOfSignificantValueDigits: 3, autoResize: true, bitBucketSize: 'packed', useWebAssembly: false });
}

/** The standard compressed form (HdrHistogram V2 encoding, zlib, base64), as other HdrHistogram tools read it. */
export function encodeHistogram(histogram: Histogram): string {
  return hdr.encodeIntoCompressedBase64(histogram);
}

export function decodeHistogram(text: string): Histogram {
  const decoded = hdr.decodeFromCompressedBase64(text, 'packed', false);
  // Decoded histograms do not grow on their own; copy into one that does before adding to it.
  const out = newSumHistogram();
  out.add(decoded);
  decoded.destroy();
  return out;
}

export interface LatencyStats {
  /** Milliseconds, to the µs. */
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
  avg: number;
  min: number;
}

const ms = (us: number) => Math.round(us) / 1000;

export function latencyStats(histogram: Histogram): LatencyStats | undefined {
  if (histogram.totalCount === 0) return undefined;
  return {
    p50: ms(histogram.getValueAtPercentile(50)),
    p90: ms(histogram.getValueAtPercentile(90)),
    p95: ms(histogram.getValueAtPercentile(95)),
    p99: ms(histogram.getValueAtPercentile(99)),
    p999: ms(histogram.getValueAtPercentile(99.9)),
    max: ms(histogram.maxValue),
    avg: ms(histogram.mean),
    min: ms(histogram.minNonZeroValue === Number.MAX_SAFE_INTEGER ? 0 : histogram.minNonZeroValue),
  };
}
