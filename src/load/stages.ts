/**
 * Stages (spec 2.12): linear ramps of users or requests per second, from 0 at the start; the test
 * lasts their total. Arrival times of the open model come from the integral of the rate, so the
 * k-th request of a run starts at the same moment on every machine and in every worker.
 */
import { MAX_TIMER_MS } from '../model/constants.js';
import type { FieldPlace } from './field-place.js';

export interface Stage {
  durationSecs: number;
  target: number;
}

export class StageError extends Error {
  override name = 'StageError';
}

export function totalSeconds(stages: readonly Stage[]): number {
  return stages.reduce((sum, s) => sum + s.durationSecs, 0);
}

/** Users or requests per second at `t` seconds from the start (after the end: the last target). */
export function valueAt(stages: readonly Stage[], t: number): number {
  let from = 0;
  let start = 0;
  for (const stage of stages) {
    if (t < start + stage.durationSecs) return from + ((stage.target - from) * (t - start)) / stage.durationSecs;
    from = stage.target;
    start += stage.durationSecs;
  }
  return from;
}

/**
 * Users the closed model runs at `t`: the ramp's value rounded up. A ramp from 0 starts its first
 * user at once and the n-th as soon as the ramp passes n - 1 (0 to 3 over 3 s: at 0, 1, 2 s);
 * going down, a user leaves when the ramp falls to the count below it, as k6's VUs leave; a
 * stage that ends at N leaves N. Rounded down (k6's rule going up, from its default of 1 user at
 * the start), a ramp from 0 to 1 started its user at its very end, so it sent nothing.
 */
export function usersAt(stages: readonly Stage[], t: number): number {
  return roundedUp(valueAt(stages, t));
}

function roundedUp(value: number): number {
  // The ramp's arithmetic can land a hair above a whole number it should equal (1.0000000000000002).
  return Math.max(0, Math.ceil(value - 1e-9 * Math.max(1, value)));
}

/**
 * The time (seconds from the start, after `t` or `t` itself) at which usersAt may next change:
 * where the ramp reaches the next whole number, or the stage's end (a step may follow). Infinity
 * after the last stage.
 */
export function nextUsersChange(stages: readonly Stage[], t: number): number {
  let from = 0;
  let start = 0;
  for (const stage of stages) {
    const end = start + stage.durationSecs;
    if (t < end) {
      const value = from + ((stage.target - from) * (t - start)) / stage.durationSecs;
      const count = roundedUp(value);
      // Up: more once the ramp passes the current count; down: fewer once it falls to count - 1.
      const next = stage.target > from ? count : stage.target < from ? count - 1 : undefined;
      if (next === undefined) return end;
      const at = start + ((next - from) * stage.durationSecs) / (stage.target - from);
      return Math.min(end, Math.max(t, at));
    }
    from = stage.target;
    start = end;
  }
  return Infinity;
}

/** Users the closed model ever runs at once, or requests the open model sends in all: what segments share. */
export function wholeCount(stages: readonly Stage[], model: 'virtualUsers' | 'arrivalRate'): number {
  if (model === 'virtualUsers') return roundedUp(Math.max(0, ...stages.map((s) => s.target)));
  // Request k is sent when k < the area under the rate (arrivalTime).
  return Math.max(0, Math.ceil(arrivalsBy(stages, totalSeconds(stages)) - 1e-9));
}

/** Requests started by `t` seconds in the open model: the integral of the rate. */
export function arrivalsBy(stages: readonly Stage[], t: number): number {
  let from = 0;
  let start = 0;
  let sum = 0;
  for (const stage of stages) {
    const d = stage.durationSecs;
    if (t <= start) break;
    // A step (durationSecs 0) adds nothing but sets where the next stage starts from.
    const upTo = Math.min(t - start, d);
    if (upTo > 0) sum += from * upTo + ((stage.target - from) * upTo * upTo) / (2 * d);
    from = stage.target;
    start += d;
  }
  return sum;
}

/**
 * When the k-th request (from 0) starts, in seconds from the start; undefined when the stages end
 * first. Solves `arrivalsBy(t) = k` stage by stage (a quadratic on a ramp).
 */
export function arrivalTime(stages: readonly Stage[], k: number): number | undefined {
  let from = 0;
  let start = 0;
  let before = 0;
  for (const stage of stages) {
    const d = stage.durationSecs;
    // The ramp's area, not from·d + slope·d²/2: a stage as short as 1e-320 s made the slope
    // Infinity and this NaN, so every start was due at once and the test never ended.
    const inStage = (d * (from + stage.target)) / 2;
    if (d > 0 && k < before + inStage - 1e-9) {
      const need = k - before;
      const slope = (stage.target - from) / d;
      // from·x + slope·x²/2 = need
      const x = Math.abs(slope) < 1e-12 ? need / from : (-from + Math.sqrt(Math.max(0, from * from + 2 * slope * need))) / slope;
      return start + Math.min(d, Math.max(0, x || 0));
    }
    before += inStage;
    from = stage.target;
    start += d;
  }
  return undefined;
}

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/**
 * `--stages "30s:50,1m30s:50"`: durations with a unit (ms, s, m, h), several in a row as k6 and
 * Go write them (`1m30s`, `1h5m`), and targets.
 */
export function parseStages(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const part of text.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^((?:\d+(?:\.\d+)?(?:ms|s|m|h))+):(\d+(?:\.\d+)?)$/.exec(part);
    if (!match) throw new StageError(`--stages: "${part}" is not DURATION:TARGET (for example 30s:50, 1m:100 or 1m30s:100).`);
    let durationSecs = 0;
    for (const [, amount, unit] of match[1]!.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) durationSecs += Number(amount) * UNITS[unit!]!;
    stages.push({ durationSecs, target: Number(match[2]) });
  }
  if (stages.length === 0) throw new StageError('--stages is empty; give DURATION:TARGET items, for example "30s:50,1m:50".');
  return stages;
}

/**
 * Most users, and most requests per second, one machine (one segment) runs. Users start in one
 * turn of the generator's loop; 100 million blocked it for minutes, Ctrl-C included. Each user
 * holds a connection, so this is also about what one machine's open files allow.
 */
export const MAX_USERS = 100_000;
export const MAX_RATE = 1_000_000;
/** The longest test, as the format's other time fields (Node's timers): about 24.8 days. */
export const MAX_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

/** The shortest test: Node's timers count whole milliseconds, so a shorter one ends before its first start. */
export const MIN_SECONDS = 0.001;


/**
 * Stages of a file or of `--stages`: a test needs a length and something to send, and no more
 * than `machines` machines (segments) run. `at` places a field (the file's line); by default
 * each message starts with `where`.
 */
export function checkStages(stages: readonly Stage[], where: string, model: 'virtualUsers' | 'arrivalRate' = 'virtualUsers', machines = 1, at: FieldPlace = () => where): void {
  if (stages.length === 0) throw new StageError(`${at(['stages'])}: stages is empty; add items with durationSecs and target (for example durationSecs: 30, target: 10).`);
  const [most, unit] = model === 'arrivalRate' ? [MAX_RATE, 'requests per second'] : [MAX_USERS, 'users'];
  stages.forEach((s, i) => {
    if (!Number.isFinite(s.durationSecs) || s.durationSecs < 0) throw new StageError(`${at(['stages', i, 'durationSecs'])}: stages[${i}].durationSecs must be 0 or more.`);
    if (!Number.isFinite(s.target) || s.target < 0) throw new StageError(`${at(['stages', i, 'target'])}: stages[${i}].target must be 0 or more.`);
    if (s.target > most * machines) {
      const who = machines === 1 ? `one machine runs (at most ${most} ${unit})` : `${machines} machines run (at most ${most} ${unit} each)`;
      throw new StageError(`${at(['stages', i, 'target'])}: stages[${i}].target: ${s.target} ${unit} is more than ${who}; lower it, or split the test over machines with --segment i/n and join the parts with ferry load merge.`);
    }
  });
  const total = totalSeconds(stages);
  if (total <= 0) throw new StageError(`${at(['stages'])}: stages last 0 seconds in total; give at least one stage a durationSecs above 0.`);
  if (total < MIN_SECONDS) throw new StageError(`${at(['stages'])}: stages last ${total} s in total, too short to send anything (at least ${MIN_SECONDS} s, one millisecond); durationSecs is in seconds (0.5 is half a second).`);
  if (total > MAX_SECONDS) throw new StageError(`${at(['stages'])}: stages last ${total} s in total, longer than a load test may run (at most ${MAX_SECONDS} s, about 24 days); did you mean milliseconds? durationSecs is in seconds.`);
  if (stages.every((s) => s.target === 0)) throw new StageError(`${at(['stages'])}: every stage has target 0, so nothing would be sent.`);
  // Something is sent only while a stage lasts with users (or a rate) above 0 at one of its ends:
  // a step (durationSecs 0) to a target after the last stage that lasts is over as it begins.
  let from = 0;
  const sends = stages.some((s) => {
    const lasts = s.durationSecs > 0 && (from > 0 || s.target > 0);
    from = s.target;
    return lasts;
  });
  if (!sends) {
    const i = stages.findIndex((s) => s.target > 0);
    const what = model === 'arrivalRate' ? 'the rate is' : 'the users are';
    throw new StageError(`${at(['stages', i])}: nothing would be sent: ${what} above 0 only for an instant (stages[${i}] steps to ${stages[i]!.target} with durationSecs 0, and no stage that lasts follows it above 0); give a stage after it a durationSecs above 0 (for example durationSecs: 30, target: ${stages[i]!.target}).`);
  }
}
