/**
 * Collection runs (spec 1.8, 2.7): one request, a folder, or the whole workspace in tree order,
 * for each iteration (data-file rows become variables), with bail, delay, `setNextRequest` and
 * `skipRequest`. One connection pool, cookie jar, script engine and document cache per run; the
 * data folder is read once at the start and written once at the end.
 */
import { performance } from 'node:perf_hooks';
import { AllowedPrograms, programPolicy, readSettings, WorkspaceData, type AppSettings } from '../appdata/index.js';
import { CookieStore, HttpAgents, type HostLookup } from '../protocols/index.js';
import { loadVariableSnapshot, type PreparedSettings } from '../request/index.js';
import { formatWarning, type Workspace } from '../workspace/index.js';
import { contractDocuments, ScriptHost, type RunContext } from './context.js';
import { resolveEnvironment } from './environment.js';
import { RunError } from './errors.js';
import type { Reporter, RequestResult, RunEvent, RunSummary } from './events.js';
import { selectRequests, type RunItem } from './select.js';
import { sendItem } from './send.js';
import { RunVariables } from './variables.js';

export { RunError } from './errors.js';

export interface RunOptions {
  workspace: Workspace;
  /** Request paths or folders under `requests/`; none = the whole workspace. */
  paths?: readonly string[];
  /** Environment id (file name) or display name; default: the active environment on this computer. */
  environment?: string;
  /** `--var key=value`: win over every other definition. */
  vars?: ReadonlyMap<string, string>;
  /** Default: the number of data rows, else 1. */
  iterations?: number;
  /** Data-file rows, one per iteration (later iterations reuse the last row). */
  data?: ReadonlyArray<Record<string, string>>;
  bail?: boolean;
  /** Pause between requests. */
  delayMs?: number;
  /** Overrides every request's timeout. */
  timeoutMs?: number;
  /** Turns TLS verification off for every request. */
  insecure?: boolean;
  /** Body files outside the workspace may be sent (else the application setting decides). */
  allowFilesOutside?: boolean;
  /** Programs not yet allowed on this computer may start, and are added to its allow-list (`--allow-programs`). */
  allowPrograms?: boolean;
  reporters?: readonly Reporter[];
  onAuthorizeUrl?: (url: string) => void;
  signal?: AbortSignal;
  /** This computer's data for the workspace; `false` for none (nothing read or written). Default: the data folder. */
  dataFolder?: WorkspaceData | false;
  /** Application settings; default: read from the data folder. */
  settings?: AppSettings;
  /** How host names are resolved; default: this computer's resolver. */
  lookup?: HostLookup;
}

export interface RunOutcome {
  summary: RunSummary;
  results: RequestResult[];
  bailed: boolean;
}

/** Most sends in one iteration, so `setNextRequest` loops end. */
const MAX_STEPS_PER_ITERATION = 100_000;

export async function runRequests(options: RunOptions): Promise<RunOutcome> {
  const { workspace } = options;
  const items = selectRequests(workspace.tree, options.paths ?? []);
  const data = options.dataFolder === false ? undefined : options.dataFolder ?? new WorkspaceData(workspace.id, workspace.root);
  const settings = options.settings ?? (await readSettings());
  const environmentId = await resolveEnvironment(workspace, options.environment, data);
  const rows = options.data ?? [];
  const iterations = options.iterations ?? Math.max(rows.length, 1);
  if (!Number.isInteger(iterations) || iterations < 1) throw new RunError(`iterations must be a whole number of 1 or more, not ${iterations}.`);

  const overrides: Partial<PreparedSettings> = {};
  if (options.timeoutMs !== undefined) overrides.timeoutMs = options.timeoutMs;
  if (options.insecure) overrides.verifyTls = false;

  const [snapshot, cookies] = await Promise.all([
    loadVariableSnapshot(workspace, data, environmentId),
    CookieStore.open(data?.cookieJarFile),
  ]);
  const ctx: RunContext = {
    workspace,
    data,
    settings,
    overrides,
    allowFilesOutside: options.allowFilesOutside ?? settings.filesOutsideWorkspace,
    programs: programPolicy(data ? new AllowedPrograms(workspace.id, workspace.root) : undefined, options.allowPrograms === true),
    agents: new HttpAgents({ lookup: options.lookup }),
    cookies,
    variables: new RunVariables(snapshot, options.vars ?? new Map()),
    scripts: new ScriptHost({ timeoutMs: settings.scriptTimeoutMs, memoryBytes: settings.scriptMemoryMb * 1024 * 1024 }),
    contract: contractDocuments(workspace.root),
    oauthTokens: new Map(),
    onAuthorizeUrl: options.onAuthorizeUrl,
    history: [],
    iterations,
    signal: options.signal,
  };

  const reporters = options.reporters ?? [];
  const mask = ctx.variables.mask;
  const emit = (event: RunEvent) => {
    if (event.type === 'warning') event = { ...event, message: mask.text(event.message) };
    for (const reporter of reporters) reporter.onEvent(event);
  };
  const started = performance.now();
  emit({
    type: 'start',
    workspace: workspace.file.name || workspace.root,
    ...(snapshot.environment ? { environment: snapshot.environment.name } : {}),
    requestCount: items.length,
    iterations,
    startedAt: new Date().toISOString(),
  });
  for (const warning of workspace.warnings) emit({ type: 'warning', message: formatWarning(warning) });

  const results: RequestResult[] = [];
  let bailed = false;
  try {
    outer: for (let iteration = 0; iteration < iterations; iteration++) {
      ctx.variables.iterationData = rows.length ? { ...rows[Math.min(iteration, rows.length - 1)]! } : {};
      if (iterations > 1) emit({ type: 'iteration', iteration, iterations });
      let index = 0;
      for (let step = 0; index < items.length; step++) {
        if (step >= MAX_STEPS_PER_ITERATION) {
          emit({ type: 'warning', message: `iteration ${iteration + 1} stopped after ${MAX_STEPS_PER_ITERATION} sends: setNextRequest keeps looping.` });
          break;
        }
        if (options.signal?.aborted) break outer;
        if (results.length > 0 && options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
        const item = items[index]!;
        emit({
          type: 'sending',
          path: item.node.path,
          name: item.node.type === 'request' ? item.node.request.name : item.node.path,
          position: index + 1,
          total: items.length,
          iteration,
          iterations,
        });
        const outcome = await sendItem(item, ctx, { iteration, iterationCount: iterations });
        mask.result(outcome.result); // secret values stay out of reports, scripts' console lines included
        results.push(outcome.result);
        emit({ type: 'request', result: outcome.result });
        if (options.bail && !outcome.result.passed) {
          bailed = true;
          break outer;
        }
        if (outcome.nextRequest === null) break;
        if (typeof outcome.nextRequest === 'string') {
          const next = findNext(items, outcome.nextRequest);
          if (next < 0) {
            emit({ type: 'warning', message: `setNextRequest("${outcome.nextRequest}") in ${item.node.path} names no request of this run; the run went on in order.` });
            index++;
          } else index = next;
        } else index++;
      }
    }
  } finally {
    const saved = await Promise.allSettled([
      ctx.agents.close(),
      ctx.scripts.dispose(),
      cookies.save(),
      ctx.variables.persist(data),
      data?.addHistory(...ctx.history.map((entry) => mask.history(entry))),
    ]);
    // A data folder that cannot be written must not pass silently: the next run would miss these.
    const what = ['', '', 'the cookies', "the values scripts set", 'the history'];
    saved.forEach((outcome, i) => {
      if (outcome.status === 'rejected' && what[i]) {
        emit({ type: 'warning', message: `${what[i]} of this run could not be saved in the data folder: ${(outcome.reason as Error)?.message ?? String(outcome.reason)}` });
      }
    });
  }

  const summary = summarize(results, iterations, performance.now() - started);
  emit({ type: 'end', summary, results, bailed });
  for (const reporter of reporters) await reporter.finish?.();
  return { summary, results, bailed };
}

function findNext(items: readonly RunItem[], wanted: string): number {
  const lower = wanted.toLowerCase();
  const byPath = items.findIndex((i) => i.node.path.toLowerCase() === lower || i.node.path.toLowerCase() === `${lower}.yaml`);
  if (byPath >= 0) return byPath;
  return items.findIndex((i) => i.node.type === 'request' && i.node.request.name === wanted);
}


export function summarize(results: readonly RequestResult[], iterations: number, durationMs: number): RunSummary {
  let tests = 0;
  let failedTests = 0;
  for (const r of results) {
    for (const t of r.tests) {
      if (t.skipped) continue;
      tests++;
      if (!t.passed) failedTests++;
    }
  }
  return {
    requests: results.length,
    failedRequests: results.filter((r) => !r.passed).length,
    skippedRequests: results.filter((r) => r.skipped).length,
    tests,
    failedTests,
    durationMs: Math.round(durationMs),
    iterations,
  };
}
