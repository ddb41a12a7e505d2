/**
 * `ferry load merge`: result files of the segments of one test combined exactly (histograms
 * added, counters summed, seconds aligned on the wall clock), thresholds judged on the whole.
 */
import { promises as fs } from 'node:fs';
import { combine, RESULT_FORMAT, RESULT_VERSION, type LoadResult } from './result.js';
import { fileProblemReason } from '../support/system-error.js';
import { judge } from './thresholds.js';

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
  if (missing) throw new MergeError(`${label}: the result has no valid "${missing}"; write it again with ferry load ID --out-json FILE.`);
  return data as LoadResult;
}

export function mergeResults(results: readonly LoadResult[]): LoadResult {
  if (results.length === 0) throw new MergeError('give the result files to merge.');
  const first = results[0]!;
  for (const r of results) {
    if (r.loadTest.id !== first.loadTest.id) throw new MergeError(`the files are of different load tests (${first.loadTest.id} and ${r.loadTest.id}); merge the segments of one test.`);
  }
  const parts = results.flatMap((r) => r.segments.parts);
  const twice = parts.find((p, i) => parts.indexOf(p) !== i);
  if (twice !== undefined) throw new MergeError(`segment ${twice}/${first.segments.of} is in more than one file; each segment is merged once.`);
  const starts = results.map((r) => Date.parse(r.startedAt));
  const ends = results.map((r) => Date.parse(r.endedAt));
  const interrupted = results.some((r) => r.interrupted);
  const durationSeconds = Math.max(0.001, (Math.max(...ends) - Math.min(...starts)) / 1000);
  const rateSeconds = interrupted ? durationSeconds : Math.max(...results.map((r) => r.plannedSeconds));
  const { overall, targets, series } = combine(
    results.map((r) => r.targets.map((t) => ({ ...t, errors: t.errors }))),
    results.flatMap((r) => r.series),
    rateSeconds,
  );
  const verdicts = judge(first.thresholds, overall, targets);
  return {
    ...first,
    segments: { parts: [...parts].sort((a, b) => a - b), of: first.segments.of },
    workers: results.reduce((n, r) => n + r.workers, 0),
    startedAt: new Date(Math.min(...starts)).toISOString(),
    endedAt: new Date(Math.max(...ends)).toISOString(),
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

/** The segment numbers (1-based) of `of` that `parts` lacks. */
export function missingSegments(parts: readonly number[], of: number): number[] {
  return Array.from({ length: of }, (_, i) => i + 1).filter((n) => !parts.includes(n));
}
