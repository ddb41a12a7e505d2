/**
 * Latency histograms (HdrHistogram, µs, 3 significant digits): memory stays flat however many
 * samples, and two histograms add exactly, so results of many workers and machines merge.
 */
import zlib from 'node:zlib';
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

/**
 * Most bytes a histogram's compressed form may inflate to. A real one (3 significant digits, µs up
 * to the longest test) is at most about 500 KB inflated; a result file is read from elsewhere
 * (`ferry load merge`, the app's Open result file…), and 1 MB of zlib can inflate to 1 GB.
 */
const MAX_INFLATED_BYTES = 4 * 1024 * 1024;

/** Throws when `text` is not the compressed form or inflates past MAX_INFLATED_BYTES (inflating stops there). */
function checkInflatedSize(text: string): void {
  // The V2 compressed form: a cookie (4 bytes), the length of the zlib data (4), the zlib data.
  const bytes = Buffer.from(text.trim(), 'base64');
  if (bytes.length < 8) throw new Error('not a compressed histogram');
  const length = Math.max(0, bytes.readInt32BE(4));
  zlib.inflateSync(bytes.subarray(8, 8 + length), { maxOutputLength: MAX_INFLATED_BYTES });
}

export function decodeHistogram(text: string): Histogram {
  checkInflatedSize(text);
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
