/**
 * Collection runs (spec 1.8, 2.7): one request, a folder, or the whole workspace in tree order,
 * for each iteration (data-file rows become variables), with bail, delay, `setNextRequest` and
 * `skipRequest`. One connection pool, cookie jar, script engine and document cache per run; the
 * data folder is read once at the start and written once at the end. `runItems` is the loop,
 * over a context `runRequests` opens for one run or a `Session` keeps across many.
 */
import { performance } from 'node:perf_hooks';
import { formatWarning, isUnreadableRequestsFolder } from '../workspace/index.js';
import type { RunContext } from './context.js';
import type { Face } from '../request/index.js';
import { commandArg } from '../support/terminal-text.js';
import { RunError } from './errors.js';
import type { Reporter, RequestResult, RunEvent, RunSummary } from './events.js';
import { closeRunContext, openRunContext, saveRunContext, type ContextOptions } from './open-context.js';
import { selectRequests, warningsOfRun, type Entry, type RunItem } from '../workspace/index.js';
import { unknownFieldsWarning } from '../model/index.js';
import { pause, sendItem } from './send.js';
import { captureResponse } from './response-capture.js';
import { boundResult } from './result-limits.js';
import type { VariableValues } from '../scripts/index.js';
import type { DataRow } from '../variables/index.js';

export { RunError } from './errors.js';

/** How one run goes: its iterations and data rows, bail, delay, reporters, cancel. */
export interface RunPlan {
  /** Default: the number of data rows, else 1. */
  iterations?: number;
  /** Data-file rows, one per iteration (later iterations reuse the last row). */
  data?: ReadonlyArray<DataRow>;
  bail?: boolean;
  /** Pause between requests. */
  delayMs?: number;
  reporters?: readonly Reporter[];
  /** Stops the run; aborted with a `RunStop`, the reports say what stopped it. */
  signal?: AbortSignal;
  /**
   * Keep every result in `RunOutcome.results` (default true). `ferry run` and the app say
   * false: results stream to the reporters, so memory does not grow with the run's length.
   */
  keepResults?: boolean;
  /** Keep each response's headers and body (cut at `maxBodyBytes`) in its result, for reporters that show them. */
  responses?: { maxBodyBytes: number };
}

export interface RunOptions extends ContextOptions, RunPlan {
  /** Request paths or folders under `requests/`; none = the whole workspace. */
  paths?: readonly string[];
}

export interface RunOutcome {
  summary: RunSummary;
  /** Every result, in order; empty when the plan said `keepResults: false`. */
  results: RequestResult[];
  bailed: boolean;
  /** Stopped by its signal (Ctrl-C, the app's Stop, an agent's cancel). */
  interrupted: boolean;
}

/**
 * The reason a face gives when it stops a run (`controller.abort(new RunStop('SIGTERM'))`), so the
 * reports say what stopped it; a stop without one is said as Ctrl-C's.
 */
export class RunStop extends Error {
  override name = 'AbortError';
  constructor(readonly by: string) {
    super('the request was cancelled.');
  }
}

/** Most sends in one iteration, so `setNextRequest` loops end. */
const MAX_STEPS_PER_ITERATION = 100_000;

/** A whole run in a context of its own, opened here and closed at its end. */
export async function runRequests(options: RunOptions): Promise<RunOutcome> {
  const items = selectRequests(options.workspace.tree, options.paths ?? []);
  const iterations = iterationCount(options);
  const ctx = await openRunContext(options, iterations, options.signal);
  return runItems(ctx, items, options, () => Promise.all([saveRunContext(ctx), closeRunContext(ctx)]).then(([problems]) => problems));
}

/** The iterations a plan asks for: `iterations`, else one per data row, else 1. */
export function iterationCount(plan: RunPlan): number {
  const iterations = plan.iterations ?? Math.max(plan.data?.length ?? 0, 1);
  if (!Number.isInteger(iterations) || iterations < 1) throw new RunError(`iterations must be a whole number of 1 or more, not ${iterations}.`);
  return iterations;
}

/**
 * Runs `items` in `ctx` (whose `iterations` and `signal` are this run's), emitting the run's
 * events. `save` is called once the sends are over, before the `end` event; it returns what
 * could not be saved, reported as warnings.
 */
export async function runItems(ctx: RunContext, items: readonly RunItem[], plan: RunPlan, save: () => Promise<string[]>): Promise<RunOutcome> {
  const { workspace, iterations } = ctx;
  // requests/ itself could not be read: a run of nothing would pass, so it does not start.
  const unreadable = workspace.warnings.find(isUnreadableRequestsFolder);
  if (unreadable) throw new RunError(`${unreadable.message} Nothing was run.`);
  const rows = plan.data ?? [];
  const reporters = plan.reporters ?? [];
  const mask = ctx.variables.mask;
  const emit = (event: RunEvent) => {
    if (event.type === 'warning') event = { ...event, message: mask.text(event.message) };
    for (const reporter of reporters) reporter.onEvent(event);
  };
  const started = performance.now();
  const environment = ctx.variables.snapshot.environment;
  emit({
    type: 'start',
    workspace: workspace.file.name || workspace.root,
    ...(environment ? { environment: environment.name } : {}),
    requestCount: items.length,
    iterations,
    startedAt: new Date().toISOString(),
  });
  // Only the problems of the files this run reads; the rest are counted, and listed elsewhere.
  const { own, others } = warningsOfRun(workspace.warnings, items);
  for (const warning of own) emit({ type: 'warning', message: formatWarning(warning) });
  if (others > 0) emit({ type: 'warning', message: `${others} other file problem${others === 1 ? '' : 's'}: run \`ferry ls --problems\` to see ${others === 1 ? 'it' : 'them'}.` });
  // Misspelt fields (`hedaers:`) are kept but do nothing: said once per file the run reads, and the run goes on.
  const environmentId = ctx.variables.snapshot.environmentId;
  const environmentFile = environmentId ? workspace.environments.find((e) => e.id === environmentId) : undefined;
  for (const message of unknownFieldsOfRun(items, environmentFile)) emit({ type: 'warning', message });
  // The requests' texts are scanned once, and only when a warning needs them.
  let scanned: Placeholders | undefined;
  const placeholders = () => (scanned ??= placeholdersOfRun(ctx, items));
  const unset = unsetSecretsWarning(ctx, placeholders, rows);
  if (unset) emit({ type: 'warning', message: unset.message });
  // The rows this run's iterations read (fewer than the file's with -n).
  const nulled = nulledSecretsWarning(ctx, placeholders, rows.slice(0, iterations), unset?.keys ?? []);
  if (nulled) emit({ type: 'warning', message: nulled });
  const noEnvironment = noEnvironmentWarning(ctx, placeholders, rows);
  if (noEnvironment) emit({ type: 'warning', message: noEnvironment });

  const results: RequestResult[] = [];
  // pm.variables.set values: the whole run's, across requests and iterations (as in Postman).
  const locals: VariableValues = {};
  const keep = plan.keepResults !== false;
  const tally = new RunTally();
  let bailed = false;
  // The iterations begun: fewer than asked when --bail or Ctrl-C ended the run early.
  let begun = 0;
  try {
    outer: for (let iteration = 0; iteration < iterations; iteration++) {
      if (ctx.signal?.aborted) break;
      begun = iteration + 1;
      ctx.variables.iterationData = rows.length ? { ...rows[Math.min(iteration, rows.length - 1)]! } : {};
      if (iterations > 1) emit({ type: 'iteration', iteration, iterations });
      let index = 0;
      for (let step = 0; index < items.length; step++) {
        if (step >= MAX_STEPS_PER_ITERATION) {
          emit({ type: 'warning', message: `iteration ${iteration + 1} stopped after ${MAX_STEPS_PER_ITERATION} sends: setNextRequest keeps looping.` });
          break;
        }
        if (ctx.signal?.aborted) break outer;
        if (tally.requests > 0 && plan.delayMs) {
          // Ctrl-C ends the pause at once: the next request is not sent.
          await pause(plan.delayMs, ctx.signal);
          if (ctx.signal?.aborted) break outer;
        }
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
        const outcome = await sendItem(item, ctx, { iteration, iterationCount: iterations, locals });
        if (plan.responses && outcome.response) outcome.result.response = captureResponse(outcome.response, plan.responses.maxBodyBytes);
        mask.result(outcome.result); // secret values stay out of reports, scripts' console lines included
        boundResult(outcome.result); // a test named after a 2 MB answer is cut, in every report alike
        if (keep) results.push(outcome.result);
        tally.add(outcome.result);
        emit({ type: 'request', result: outcome.result });
        if (plan.bail && !outcome.result.passed) {
          bailed = true;
          break outer;
        }
        if (outcome.nextRequest === null) break;
        if (typeof outcome.nextRequest === 'string') {
          const next = findNext(items, outcome.nextRequest);
          if (next < 0) {
            // As in Postman: a name no request has ends the iteration, as null does.
            emit({ type: 'warning', message: `setNextRequest("${outcome.nextRequest}") in ${item.node.path} names no request of this run, so the iteration ended there (as Postman does).` });
            break;
          }
          index = next;
        } else index++;
      }
    }
  } finally {
    for (const message of await save()) emit({ type: 'warning', message });
  }

  const summary = tally.summary(begun, performance.now() - started);
  const interrupted = ctx.signal?.aborted === true;
  const reason: unknown = ctx.signal?.reason;
  emit({ type: 'end', summary, bailed, interrupted, ...(interrupted ? { stoppedBy: reason instanceof RunStop ? reason.by : 'Ctrl-C' } : {}) });
  // Each report is finished even when another could not be written (the first failure is thrown after).
  let unwritten: unknown;
  for (const reporter of reporters) {
    try {
      await reporter.finish?.();
    } catch (error) {
      unwritten ??= error;
    }
  }
  if (unwritten) throw unwritten;
  return { summary, results, bailed, interrupted };
}

function findNext(items: readonly RunItem[], wanted: string): number {
  const lower = wanted.toLowerCase();
  const byPath = items.findIndex((i) => i.node.path.toLowerCase() === lower || i.node.path.toLowerCase() === `${lower}.yaml`);
  if (byPath >= 0) return byPath;
  return items.findIndex((i) => i.node.type === 'request' && i.node.request.name === wanted);
}


export function summarize(results: readonly RequestResult[], iterations: number, durationMs: number): RunSummary {
  const tally = new RunTally();
  for (const r of results) tally.add(r);
  return tally.summary(iterations, durationMs);
}

/** The summary's counts, kept as results arrive so no result needs to be kept for them. */
export class RunTally {
  requests = 0;
  failedRequests = 0;
  skippedRequests = 0;
  tests = 0;
  failedTests = 0;

  add(r: RequestResult): void {
    this.requests++;
    if (!r.passed) this.failedRequests++;
    if (r.skipped) this.skippedRequests++;
    for (const t of r.tests) {
      if (t.skipped) continue;
      this.tests++;
      if (!t.passed) this.failedTests++;
    }
  }

  summary(iterations: number, durationMs: number): RunSummary {
    const { requests, failedRequests, skippedRequests, tests, failedTests } = this;
    return { requests, failedRequests, skippedRequests, tests, failedTests, durationMs: Math.round(durationMs), iterations };
  }
}

/**
 * The `{{name}}` placeholders of the run's requests, the folders above them and ferry.yaml, and
 * whether a script of the run may set a name (quoted in its text: `pm.environment.set('token',
 * …)` after a login), which then has a value by the time it is sent.
 */
interface Placeholders {
  used: Set<string>;
  scripted: (key: string) => boolean;
  setByScript: (key: string) => boolean;
}

function placeholdersOfRun(ctx: RunContext, items: readonly RunItem[]): Placeholders {
  const used = new Set<string>();
  const seen = new Set<unknown>();
  const texts: string[] = [];
  const scan = (value: unknown) => {
    if (seen.has(value)) return;
    seen.add(value);
    const text = JSON.stringify(value ?? null);
    texts.push(text);
    for (const match of text.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)) used.add(match[1]!);
  };
  scan(ctx.workspace.file);
  for (const item of items) {
    for (const folder of item.folders) scan(folder.settings);
    if (item.node.type === 'request') scan(item.node.request);
  }
  const all = texts.join('\n');
  const quotes = `(?:'|\\\\"|\`)`;
  return {
    used,
    scripted: (key) => [`'${key}'`, `\\"${key}\\"`, `\`${key}\``].some((quoted) => all.includes(quoted)),
    // Set, not only read: `pm.environment.set('userId', …)`, `postman.setEnvironmentVariable("userId", …)`.
    setByScript: (key) => new RegExp(`(?:\\.set|set\\w*Variable)\\(\\s*${quotes}${key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}${quotes}`).test(all),
  };
}

/**
 * Secret variables the run's requests use (`{{name}}` in a request, a folder above it or
 * ferry.yaml) that have no value here: said once, before anything is sent, since they go out as
 * written. A CI machine has no secret store: `--var` gives them there. Worked out only when some
 * secret has no value (nothing is read otherwise). A name a script of the run may set is left out.
 */
function unsetSecretsWarning(ctx: RunContext, placeholders: () => Placeholders, rows: readonly DataRow[]): { message: string; keys: string[] } | undefined {
  const missing = ctx.variables.secretsWithoutValue(rows);
  if (missing.length === 0) return undefined;
  const { used, scripted } = placeholders();
  const named = missing.filter((m) => used.has(m.key) && !scripted(m.key));
  if (named.length === 0) return undefined;
  const { environment, environmentId } = ctx.variables.snapshot;
  const one = named.length === 1;
  const list = named.map((m) => `${m.key} (${m.scope === 'environment' ? `environment ${environment?.name ?? environmentId}` : 'ferry.yaml'})`).join(', ');
  const env = named.some((m) => m.scope === 'environment') && environmentId ? ` (-e ${commandArg(environmentId)} for the environment's)` : '';
  // What to do, in the words of whoever shows the warning (the app has no -e or --var).
  const todo: Record<Face, string> = {
    cli: `Set ${one ? 'it' : 'each'} with \`ferry secret set NAME\`${env}, or give ${one ? 'it' : 'them'} with --var NAME=VALUE (in CI, from a secret of the CI system).`,
    app: `Type ${one ? 'its value' : 'their values'} in the variables dialog ({ } for ferry.yaml's, ✎ beside the environment for an environment's): kept on this computer, never in the file.`,
    agent: `Ask the user to set ${one ? 'it' : 'them'} (\`ferry secret set NAME\`, or the app's variables dialog), or give ${one ? 'it' : 'them'} in the tool's variables.`,
  };
  const message = `secret variable${one ? '' : 's'} with no value on this computer, sent as written ({{${named[0]!.key}}}): ${list}. ${todo[ctx.face ?? 'cli']}`;
  return { message, keys: named.map((m) => m.key) };
}

/**
 * Secret variables the run's requests use that data rows give `null`: in those iterations the
 * placeholder goes out as written, the value this computer holds not used (a null hides every
 * value of its name, as in Newman). Said once before anything is sent; names the warning above
 * already gave (`said`: no value to hide) and names a script of the run sets are left out.
 */
function nulledSecretsWarning(ctx: RunContext, placeholders: () => Placeholders, rows: readonly DataRow[], said: readonly string[]): string | undefined {
  const nulled = ctx.variables.secretsNulledByRows(rows).filter((m) => !said.includes(m.key));
  if (nulled.length === 0) return undefined;
  // A script reading the name changes nothing (the row still hides it there); one setting it may.
  const { used, setByScript } = placeholders();
  const named = nulled.filter((m) => used.has(m.key) && !setByScript(m.key));
  if (named.length === 0) return undefined;
  const one = named.length === 1;
  const list = named.map((m) => `${m.key} (${m.scope === 'environment' ? 'environment' : 'ferry.yaml'}; row${m.rows.length === 1 ? '' : 's'} ${rowList(m.rows)})`).join(', ');
  return (
    `data file rows give secret variable${one ? '' : 's'} null, sent as written there ({{${named[0]!.key}}}), the value on this computer not used (a null in a row hides every value of its name, as in Newman): ${list}. ` +
    `Leave ${one ? 'the name' : 'the names'} out of those rows to use the secret's value.`
  );
}

/** Row numbers, the first five and how many more. */
function rowList(rows: readonly number[]): string {
  return rows.length <= 5 ? rows.join(', ') : `${rows.slice(0, 5).join(', ')} and ${rows.length - 5} more`;
}

/**
 * With no environment chosen (no -e, none active), variables the run's requests use that only
 * environment files define: sent as written (`/users/{{userId}}`), so the run fails far from its
 * cause (a 404, "not valid JSON"). Said once before anything is sent, naming the environments
 * that define them; a name given another way (ferry.yaml, --var, a data row, a script) is not.
 */
function noEnvironmentWarning(ctx: RunContext, placeholders: () => Placeholders, rows: readonly DataRow[]): string | undefined {
  if (ctx.variables.snapshot.environmentId || ctx.workspace.environments.length === 0) return undefined;
  const definedIn = new Map<string, string[]>();
  for (const env of ctx.workspace.environments) {
    for (const v of env.value.variables ?? []) if (v.enabled !== false && !definedIn.get(v.key)?.includes(env.id)) definedIn.set(v.key, [...(definedIn.get(v.key) ?? []), env.id]);
  }
  const { used, setByScript } = placeholders();
  const named = [...used].filter((key) => definedIn.has(key) && !setByScript(key) && !ctx.variables.hasValueWithoutEnvironment(key, rows));
  if (named.length === 0) return undefined;
  const ids = [...new Set(named.flatMap((key) => definedIn.get(key)!))];
  const list = named.map((key) => `{{${key}}}`).join(', ');
  const arg = commandArg(ids[0]!);
  // What to do, in the words of whoever shows the warning.
  const todo: Record<Face, string> = {
    cli: `Choose one: -e ${arg} (\`ferry env use ${arg}\` makes it the default).`,
    app: 'Choose one in the environment menu.',
    agent: `Choose one: the tool's environment argument (${arg}), or ask the user which.`,
  };
  return `no environment chosen, and ${list} ${named.length === 1 ? 'is' : 'are'} defined only in environment${ids.length === 1 ? '' : 's'} ${ids.join(', ')}: sent as written. ${todo[ctx.face ?? 'cli']}`;
}

/**
 * Fields of the files a run reads that the format does not have (kept in the file, never read;
 * `docs/workspace.md`): one line per file — each request run, each `_folder.yaml` above one, and
 * the environment in use — naming the fields and what each likely meant. Worked out from what was
 * read for the run; no other file is read.
 */
function unknownFieldsOfRun(items: readonly RunItem[], environment?: Entry<unknown>): string[] {
  const lines: string[] = [];
  const seen = new Set<string>();
  const add = (kind: 'request' | 'folder' | 'environment', file: string, value: unknown) => {
    if (seen.has(file)) return;
    seen.add(file);
    const line = unknownFieldsWarning(kind, file, value);
    if (line) lines.push(line);
  };
  if (environment) add('environment', environment.file, environment.value);
  for (const item of items) {
    for (const folder of item.folders) if (folder.path) add('folder', `requests/${folder.path}/_folder.yaml`, folder.settings);
    if (item.node.type === 'request') add('request', `requests/${item.node.path}`, item.node.request);
  }
  return lines;
}
