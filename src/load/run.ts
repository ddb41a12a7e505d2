/**
 * `runLoadTest`: the callable API behind `ferry load` (and the app): plan, run the engine, build
 * the result, judge thresholds, keep the run in the history. Ctrl-C (the signal) gives the
 * partial result, marked interrupted.
 */
import { runEngine } from './engine.js';
import { addLoadHistory, type LoadHistoryEntry } from './history.js';
import { LiveTotals } from './live.js';
import { CaptureTimeLimitError } from './wire.js';
import { LoadInputError, planLoadTest, planNotices, type LoadPlan, type PlanOptions } from './plan.js';
import { combine, RESULT_FORMAT, RESULT_VERSION, type LoadResult } from './result.js';
import { judge } from './thresholds.js';

export interface LoadRunOptions extends PlanOptions {
  workers?: number;
  signal?: AbortSignal;
  /** Called once the plan is checked, before anything is sent (to say which requests' scripts are not run). */
  onPlan?: (plan: LoadPlan) => void;
  /** Live totals and per-second points (`live.onPoint`), as the workers report seconds: the CLI's live line and the app's charts. */
  onLive?: (live: LiveTotals) => void;
  /** The run's line in the history, once kept with its result file (with `data` only). */
  onKept?: (entry: LoadHistoryEntry) => void;
}

export async function runLoadTest(options: LoadRunOptions): Promise<LoadResult> {
  const plan = await planLoadTest(options);
  options.onPlan?.(plan);
  const live = new LiveTotals(plan.plannedSeconds);
  options.onLive?.(live);
  const workers = options.workers;
  let outcome;
  try {
    outcome = await runEngine({
      config: plan.config,
      onStart: (at, count) => live.start(at, count),
      ...(workers !== undefined ? { workers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onSeconds: (seconds, active, worker, before) => live.add(seconds, active, worker, before),
    });
  } catch (error) {
    // A capture's pattern stopped by its time limit: the file's problem, named as the plan names others.
    if (error instanceof CaptureTimeLimitError) throw new LoadInputError(`${plan.file}: ${error.message}`);
    throw error;
  }
  const startAt = outcome.startedAt || Date.now();
  const endedAt = Math.max(outcome.endedAt, startAt);
  const durationSeconds = Math.max(0.001, (endedAt - startAt) / 1000);
  // A whole run's rate is over the planned length; an interrupted one over what it lasted.
  const interrupted = options.signal?.aborted === true;
  const rateSeconds = interrupted ? durationSeconds : plan.plannedSeconds;
  const { overall, targets, series } = combine(outcome.targets, outcome.seconds, rateSeconds);
  const verdicts = judge(plan.thresholds, overall, targets, rateSeconds);
  const segment = plan.config.segment;
  const result: LoadResult = {
    format: RESULT_FORMAT,
    version: RESULT_VERSION,
    loadTest: { id: plan.id, name: plan.test.name, model: plan.test.model },
    segments: { parts: [segment.index + 1], of: segment.count },
    workers: outcome.workers,
    startedAt: new Date(startAt).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
    plannedSeconds: plan.plannedSeconds,
    durationSeconds: round(durationSeconds),
    interrupted,
    overall,
    targets,
    series,
    thresholds: plan.thresholds,
    verdicts,
    passed: !interrupted && verdicts.every((v) => v.passed),
  };
  // A history that cannot be written (a full disk) does not lose the result the caller prints.
  if (options.data) await addLoadHistory(options.data, result, planNotices(plan)).then(options.onKept, () => {});
  return result;
}

const round = (n: number) => Math.round(n * 1000) / 1000;
