/**
 * The load-test panel's shapes (spec 2.12; docs/app.md, "Load tests"): types only, the core's
 * own types reused. Results reach the page without their encoded histograms (the kept result
 * file has them).
 */
import type { LivePoint, LoadHistoryEntry, LoadResult, SeriesPoint, TargetResult } from '../../load/index.js';
import type { LoadTestFile } from '../../model/index.js';
import type { Warning } from '../../workspace/types.js';

export type { LivePoint, LoadHistoryEntry, LoadTestFile };

/** One row of the load-test list: a file of loadtests/, or why it cannot be used. */
export interface LoadTestItem {
  id: string;
  name: string;
  model: LoadTestFile['model'];
  targets: number;
  /** The file does not parse or is not valid: why (the sidebar's warning). */
  error?: string;
  /** Why the file was not read, where its warning says (`ferry ls --json`'s code: a pipe, a subfolder…). */
  errorCode?: Warning['code'];
}

/** The list, the HTTP requests a target may name, and the run in progress. */
export interface LoadTestList {
  loadTests: LoadTestItem[];
  /** Paths under requests/ of the HTTP requests (load tests send those only). */
  requests: string[];
  running: LoadRunView | null;
}

export type TargetResultView = Omit<TargetResult, 'histogram'>;
export type SeriesPointView = Omit<SeriesPoint, 'histogram'>;

/** A result as the page shows it: the result file without its histograms. */
export type LoadResultView = Omit<LoadResult, 'overall' | 'targets' | 'series'> & {
  overall: TargetResultView;
  targets: TargetResultView[];
  series: SeriesPointView[];
};

/** A run started in the app; `points` so far (a page that opens later draws them). */
export interface LoadRunView {
  runId: string;
  id: string;
  name: string;
  model: LoadTestFile['model'];
  plannedSeconds: number;
  /** What `ferry load` says on stderr before it runs, in its words (without `ferry: `): requests whose scripts are not run, fields the file has that load tests do not. */
  notices: string[];
  points: LivePoint[];
}

export type LoadEvent =
  | { type: 'start'; run: LoadRunView }
  | { type: 'point'; point: LivePoint }
  /** `kept`: the result file's name in the history (open it with GET /api/load/result). */
  | { type: 'end'; result: LoadResultView; kept?: string }
  | { type: 'failed'; message: string };
