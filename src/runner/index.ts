/** Single sends and collection runs, and their reporters (spec 1.8, 2.7, 7.1). */
export { runRequests, summarize, type RunOptions, type RunOutcome } from './run.js';
export { selectRequests, SelectError, type RunItem } from './select.js';
export type { Reporter, RequestResult, RunEvent, RunSummary, TestOutcome } from './events.js';
export { CliReporter, type TextSink } from './reporters/cli.js';
export { ProgressReporter } from './reporters/progress.js';
export { StatusLine, type RawSink } from './reporters/status-line.js';
export { JsonReporter, jsonReport, type JsonReport } from './reporters/json.js';
export { JunitReporter, junitXml } from './reporters/junit.js';
export { RunError } from './errors.js';
// Lives in src/variables/; re-exported for `cli/serve.ts`, which another change rewrites.
export { resolveEnvironment } from '../variables/index.js';
export { exportSavedRequest, type ExportSavedOptions } from './export.js';
