/** Load tests (spec 2.12): plan, engine over worker threads, HDR histograms, thresholds, results that merge. */
export { runLoadTest, type LoadRunOptions } from './run.js';
export { planLoadTest, planNotices, loadTestNotices, LoadInputError, type LoadPlan } from './plan.js';
export { mergeResults, missingSegments, readResultFile, parseResult, MergeError } from './merge.js';
export { RESULT_FORMAT, RESULT_VERSION, type LoadResult, type TargetResult, type SeriesPoint } from './result.js';
export { parseStages, StageError, type Stage } from './stages.js';
export { parseSegment, SegmentError, type Segment } from './segment.js';
export { defaultWorkers } from './engine.js';
export { readLoadHistory, renameLoadHistory, keptResultFile, LOAD_HISTORY_LIMIT, LOAD_RESULTS_KEPT, type LoadHistoryEntry } from './history.js';
export { summaryText, liveLine } from './summary.js';
export type { LiveView, LiveTotals, LivePoint } from './live.js';
export type { ThresholdVerdict } from './thresholds.js';
