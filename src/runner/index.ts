/** Single sends and collection runs, and their reporters (spec 1.8, 2.7, 7.1). */
export { runRequests, runItems, iterationCount, summarize, RunTally, RunStop, type RunOptions, type RunPlan, type RunOutcome } from './run.js';
export { openRunContext, openHttpAgents, saveRunContext, closeRunContext, type ContextOptions } from './open-context.js';
export { UrlNetwork, withUrlNetwork } from './url-network.js';
export type { Outgoing, RunContext, SendGuard } from './context.js';
export { sendItem, fetchItemToken, type SendOutcome, type SendInfo } from './send.js';
export { connectItem, ConnectError, type ConnectedItem } from './connect.js';
export { describeItem, DescribeError } from './describe.js';
export { selectRequests, SelectError, type RunItem } from '../workspace/index.js';
export type { Reporter, RequestResult, RunEvent, RunSummary, TestOutcome } from './events.js';
export { CliReporter, type TextSink } from './reporters/cli.js';
export { ProgressReporter } from './reporters/progress.js';
export { JsonReporter, jsonReport, type JsonReport } from './reporters/json.js';
export { JunitReporter } from './reporters/junit.js';
export { HtmlReporter, escapeHtml } from './reporters/html.js';
export { REPORTERS, REPORTER_NAMES, createReporter, isReporterName, type ReporterName, type ReportSink, type ReportOptions } from './reporters/index.js';
export { captureResponse, REPORT_BODY_BYTES, type CapturedResponse } from './response-capture.js';
export { prepareReportFile, prepareWorkspaceReportFile, removeEmptyFolders, writeReportFile, ReportFileWriter, ReportFileError, ReportFolder } from './report-file.js';
export { RunError } from './errors.js';
// Lives in src/variables/; re-exported for `cli/serve.ts`, which another change rewrites.
export { resolveEnvironment } from '../variables/index.js';
export { loadCookies, saveCookies } from './cookies.js';
