/**
 * Splitting one test into equal parts, exactly (`--segment i/n`, and workers within a machine).
 * Users and requests are dealt out in stripes: user u and request k go to part `u mod n`, so
 * the parts of any split add up to the whole test, never one more or one less.
 */
export interface Segment {
  /** 0-based. */
  index: number;
  count: number;
}

export class SegmentError extends Error {
  override name = 'SegmentError';
}

/** `--segment i/n`, with i from 1 to n as people count. */
export function parseSegment(text: string): Segment {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const i = Number(match?.[1]);
  const n = Number(match?.[2]);
  if (!match || n < 1 || i < 1 || i > n || n > 10_000) throw new SegmentError(`--segment takes i/n with 1 ≤ i ≤ n (for example 2/3), not "${text}".`);
  return { index: i - 1, count: n };
}

/** How many of `total` items (users, in-flight slots) part `index` of `count` takes. */
export function shareOf(total: number, part: Segment): number {
  const whole = Math.floor(total);
  return whole > part.index ? Math.ceil((whole - part.index) / part.count) : 0;
}

/** Whether the k-th item of the whole goes to this part. */
export function isMine(k: number, part: Segment): boolean {
  return k % part.count === part.index;
}

/** The k-th item of the whole as numbered within its part. */
export function localIndex(k: number, part: Segment): number {
  return Math.floor(k / part.count);
}

/** Data rows of this part: row r goes to part `r mod n` (all rows when there are fewer rows than parts). */
export function rowsOf<T>(rows: readonly T[], part: Segment): T[] {
  const mine = rows.filter((_, r) => r % part.count === part.index);
  return mine.length > 0 ? mine : [...rows];
}
