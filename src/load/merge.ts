/**
 * `ferry load merge`: result files of the segments of one test combined exactly (histograms
 * added, counters summed, seconds aligned on the test's timeline), thresholds judged on the whole.
 */
import { promises as fs } from 'node:fs';
import { thresholdSchema } from '../model/index.js';
import { decodeHistogram } from './histogram.js';
import { combine, RESULT_FORMAT, RESULT_VERSION, type LoadResult } from './result.js';
import { ERROR_KINDS } from './wire.js';
import { fileProblemReason } from '../support/system-error.js';
import { judge, ruleText } from './thresholds.js';

export class MergeError extends Error {
  override name = 'MergeError';
}

export async function readResultFile(file: string): Promise<LoadResult> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new MergeError(`${file} cannot be read (${fileProblemReason(error)}); give the result files that \`ferry load --out-json\` wrote.`);
  }
  return parseResult(text, file);
}

/** A result file's text (`label` names it in messages): checked to be a version 1 result with its parts in place. */
export function parseResult(text: string, label: string): LoadResult {
  let data: Partial<LoadResult>;
  try {
    data = JSON.parse(text) as Partial<LoadResult>;
  } catch (error) {
    throw new MergeError(`${label}: is not valid JSON (${(error as Error).message}).`);
  }
  if (data === null || typeof data !== 'object' || data.format !== RESULT_FORMAT) throw new MergeError(`${label}: is not a Ferry load result (write one with ferry load ID --out-json FILE).`);
  if (data.version !== RESULT_VERSION) throw new MergeError(`${label}: is a version ${String(data.version)} load result; this Ferry reads version ${RESULT_VERSION}.`);
  const missing = (['loadTest', 'segments', 'overall'] as const).find((k) => typeof data[k] !== 'object' || data[k] === null)
    ?? (['targets', 'series', 'thresholds', 'verdicts'] as const).find((k) => !Array.isArray(data[k]));
  const invalid = missing ?? invalidPart(data as LoadResult);
  if (invalid) throw new MergeError(`${label}: the result has no valid "${invalid}"; write it again with ferry load ID --out-json FILE.`);
  return data as LoadResult;
}

const isCount = (n: unknown) => typeof n === 'number' && Number.isFinite(n) && n >= 0;

/** Whether a histogram of a result file decodes (a damaged one made the merge throw a stack trace). */
function readable(histogram: unknown): boolean {
  if (typeof histogram !== 'string') return false;
  try {
    decodeHistogram(histogram).destroy();
    return true;
  } catch {
    return false;
  }
}

/** The first part of a result file the merge reads and cannot use, as a field path; undefined when all are usable. */
function invalidPart(result: LoadResult): string | undefined {
  const { parts, of } = result.segments;
  if (!Number.isInteger(of) || of < 1 || !Array.isArray(parts) || parts.length === 0 || parts.some((p) => !Number.isInteger(p) || p < 1 || p > of)) return 'segments';
  if (typeof result.loadTest.id !== 'string') return 'loadTest';
  for (const field of ['startedAt', 'endedAt'] as const) if (typeof result[field] !== 'string' || Number.isNaN(Date.parse(result[field]))) return field;
  for (const field of ['plannedSeconds', 'workers'] as const) if (!isCount(result[field])) return field;
  for (const [i, t] of result.targets.entries()) {
    const at = `targets[${i}]`;
    if (t === null || typeof t !== 'object') return at;
    if (typeof t.request !== 'string') return `${at}.request`;
    for (const field of ['count', 'dropped', 'bytesSent', 'bytesReceived'] as const) if (!isCount(t[field])) return `${at}.${field}`;
    if (t.errors === null || typeof t.errors !== 'object' || ERROR_KINDS.some((k) => t.errors[k] !== undefined && !isCount(t.errors[k]))) return `${at}.errors`;
    if (t.errorReasons !== undefined && (t.errorReasons === null || typeof t.errorReasons !== 'object' || !Object.values(t.errorReasons).every((r) => typeof r === 'string'))) return `${at}.errorReasons`;
    if (t.statuses === null || typeof t.statuses !== 'object' || !Object.values(t.statuses).every(isCount)) return `${at}.statuses`;
    if (!readable(t.histogram)) return `${at}.histogram`;
  }
  for (const [i, point] of result.series.entries()) {
    const at = `series[${i}]`;
    if (point === null || typeof point !== 'object') return at;
    for (const field of ['second', 'count', 'errors', 'dropped', 'active'] as const) if (!isCount(point[field])) return `${at}.${field}`;
    if (!readable(point.histogram)) return `${at}.histogram`;
  }
  const rule = result.thresholds.findIndex((r) => !thresholdSchema.safeParse(r).success);
  return rule >= 0 ? `thresholds[${rule}]` : undefined;
}

/** `files`: the name of each result's file, as the user gave it, for messages (else each is named by its segment). */
export function mergeResults(results: readonly LoadResult[], files?: readonly string[]): LoadResult {
  if (results.length === 0) throw new MergeError('give the result files to merge.');
  const first = results[0]!;
  const segment = (r: LoadResult) => `segment ${r.segments.parts.join(', ')}/${r.segments.of}`;
  const named = (r: LoadResult) => {
    const file = files?.[results.indexOf(r)];
    return file === undefined ? segment(r) : `${file} (${segment(r)})`;
  };
  for (const r of results) {
    if (r.loadTest.id !== first.loadTest.id) throw new MergeError(`the files are of different load tests (${first.loadTest.id} and ${r.loadTest.id}); merge the segments of one test.`);
  }
  const split = results.find((r) => r.segments.of !== first.segments.of);
  if (split) throw new MergeError(`the files split the test differently (${named(first)} and ${named(split)}); merge the segments of one split, all written with the same --segment i/n count.`);
  // Stages of another length (one segment run with --stages): not parts of one test; the rates would be over the wrong length.
  const other = results.find((r) => r.plannedSeconds !== first.plannedSeconds);
  if (other) throw new MergeError(`the files ran stages of different lengths (${named(first)}: ${first.plannedSeconds} s, ${named(other)}: ${other.plannedSeconds} s); merge the segments of one run, all started with the same stages (the same --stages, or none).`);
  // Other thresholds (the load test file edited between segments): judging the whole by the first
  // file's would pass or fail it by rules another segment never had.
  const rules = (r: LoadResult) => r.thresholds.filter((rule) => rule.enabled).map(ruleText).sort();
  const judged = rules(first);
  const unlike = results.find((r) => rules(r).join('\n') !== judged.join('\n'));
  if (unlike) {
    const theirs = rules(unlike);
    const only = (mine: string[], others: string[]) => {
      const left = [...others];
      const rest = mine.filter((rule) => (left.includes(rule) ? (left.splice(left.indexOf(rule), 1), false) : true));
      return rest.length > 0 ? rest.join(', ') : 'not these';
    };
    throw new MergeError(`the files judge different thresholds (${named(first)}: ${only(judged, theirs)}; ${named(unlike)}: ${only(theirs, judged)}); merge the segments of one run, all started from the same load test file (its thresholds as they were then).`);
  }
  const parts = results.flatMap((r) => r.segments.parts);
  const twice = parts.find((p, i) => parts.indexOf(p) !== i);
  if (twice !== undefined) throw new MergeError(`segment ${twice}/${first.segments.of} is in more than one file; each segment is merged once.`);
  // One timeline, the test's: a segment's second k is the test's second k, from the first start
  // (as k6's execution segments share the test's time). Segments run one after another, or on
  // machines whose clocks differ, spread the series over their wall-clock span at a fraction of
  // the rate, beside a duration of that span and an rps over the planned length.
  const starts = results.map((r) => Date.parse(r.startedAt));
  const start = Math.min(...starts);
  const lengths = results.map((r, i) => Date.parse(r.endedAt) - starts[i]!);
  const interrupted = results.some((r) => r.interrupted);
  const durationSeconds = Math.max(0.001, Math.max(...lengths) / 1000);
  const rateSeconds = interrupted ? durationSeconds : Math.max(...results.map((r) => r.plannedSeconds));
  const { overall, targets, series } = combine(
    results.map((r) => r.targets.map((t) => ({ ...t, errors: t.errors }))),
    results.flatMap((r, i) => r.series.map((point) => ({ ...point, second: testSecond(point.second, starts[i]!, starts[i]! + lengths[i]!, start) }))),
    rateSeconds,
  );
  const verdicts = judge(first.thresholds, overall, targets, rateSeconds);
  return {
    ...first,
    segments: { parts: [...parts].sort((a, b) => a - b), of: first.segments.of },
    workers: results.reduce((n, r) => n + r.workers, 0),
    startedAt: new Date(start).toISOString(),
    endedAt: new Date(start + Math.max(...lengths)).toISOString(),
    plannedSeconds: Math.max(...results.map((r) => r.plannedSeconds)),
    durationSeconds: Math.round(durationSeconds * 1000) / 1000,
    interrupted,
    overall,
    targets,
    series,
    verdicts,
    // A merge that lacks a segment (a machine or pod that never reported) judged only part of the test.
    passed: !interrupted && missingSegments(parts, first.segments.of).length === 0 && verdicts.every((v) => v.passed),
  };
}

/**
 * The merged test's second (epoch seconds, from `testStart`) for a segment's point: the
 * requests that ended in epoch second `second` of a segment that ran from `from` to `to` (ms).
 * The part of that second the segment ran is moved by the segment's offset, and the test second
 * holding its middle takes it. Moving by the offset rounded to whole seconds ignored the phase
 * within a second: a segment started 1.6 s after the first, 0.7 s into its second, put its first
 * point a second before the test's start. The earliest segment's points stay where they are.
 */
export function testSecond(second: number, from: number, to: number, testStart: number): number {
  const begin = Math.max(second * 1000, from);
  const end = Math.max(begin, Math.min((second + 1) * 1000, to));
  return Math.floor(((begin + end) / 2 - (from - testStart)) / 1000);
}

/** The segment numbers (1-based) of `of` that `parts` lacks. */
export function missingSegments(parts: readonly number[], of: number): number[] {
  return Array.from({ length: of }, (_, i) => i + 1).filter((n) => !parts.includes(n));
}
