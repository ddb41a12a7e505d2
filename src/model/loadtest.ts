/** A load test, `loadtests/<id>.yaml` (spec 2.12). */
import { z } from 'zod';
import { describe, flag, integer, list, number, oneOf, section, text } from './declare.js';
import { MAX_TIMER_MS } from './constants.js';
import { appSettingSchema } from './app-settings.js';
import { THRESHOLD_METRICS, THRESHOLD_OPS } from './threshold-names.js';

export const loadTargetSchema = section({
  request: text(),
  weight: number().min(0, { error: 'must be 0 or more' }).default(1),
  enabled: flag().default(true),
  captures: list(section({
    variable: text(),
    from: oneOf(['json', 'header', 'regex']).default('json'),
    path: text().default(''),
  })).default([]),
});

export const thresholdSchema = section({
  // k6 users write its names (`p(95)`, `http_req_failed`): said which one is meant.
  metric: z.enum(THRESHOLD_METRICS, { error: (issue) => `expected one of ${THRESHOLD_METRICS.join(', ')}, got ${describe(issue.input)}${k6Metric(issue.input)}` }),
  // Said with the quotes YAML needs: `op: >` unquoted reads as an empty block of text.
  op: z.enum(THRESHOLD_OPS, { error: (issue) => `expected one of ${THRESHOLD_OPS.join(', ')} (quoted in YAML: op: ">"), got ${describe(issue.input)}` }),
  // k6 users write the unit (`300ms`, `1%`): said how to write the limit instead.
  value: z.number({ error: (issue) => `expected a number without its unit (${unitless(issue.input)}: latencies are in ms, errorRate in percent, rps in requests per second), got ${describe(issue.input)}` }),
  target: text().optional(),
  enabled: flag().default(true),
});

/** The metric a k6 name means, said after the refusal: `p(95)` is p95, `http_req_failed` errorRate. */
function k6Metric(input: unknown): string {
  if (typeof input !== 'string') return '';
  const text = input.trim();
  const percentile = /^p\(\s*(50|90|95|99|99\.9)\s*\)$/.exec(text)?.[1];
  if (percentile) return ` (k6's p(${percentile}) is written p${percentile.replace('.', '')} here)`;
  const named: Record<string, string> = { http_req_failed: 'errorRate', http_reqs: 'rps', 'avg()': 'avg', 'max()': 'max', med: 'p50' };
  if (named[text]) return ` (k6's ${text} is ${named[text]} here)`;
  if (/^http_req_duration/.test(text)) return " (k6's http_req_duration is the latency metrics here: p50 … p999, avg, max, in ms)";
  return '';
}

/** `300, not 300ms` for a limit written with its unit; the same shape with an example otherwise. */
function unitless(input: unknown): string {
  const match = typeof input === 'string' ? /^\s*(-?\d+(?:\.\d+)?)\s*[^\d\s].*$/.exec(input) : null;
  return match ? `${match[1]}, not ${String(input).trim()}` : '300, not 300ms';
}

/**
 * A stage. k6 users write `duration: 30s` or `30s:10` (the form of --stages): said how to write
 * it here, as a threshold's limit with its unit is.
 */
const stageSchema = z.object({
  durationSecs: z.number({ error: (issue) => stageNumber(issue, 'a number of seconds', durationHint(issue.input)) }).min(0),
  target: z.number({ error: (issue) => stageNumber(issue, 'a number (users, or requests per second with model: arrivalRate)', typeof issue.input === 'string' ? ' (without quotes)' : '') }).min(0),
}, { error: (issue) => `expected a mapping such as { durationSecs: 30, target: 10 }${typeof issue.input === 'string' ? ' (the form 30s:10 is for --stages)' : ''}, got ${describe(issue.input)}` }).loose();

function stageNumber(issue: { code?: string; input?: unknown }, expected: string, hint: string): string {
  if (issue.code === 'too_small') return 'must be at least 0'; // as the format's other bounds say it
  return `expected ${expected}, got ${describe(issue.input)}${hint}`;
}

const SECONDS_PER: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** `(write 90: durationSecs is in seconds)` for "1m30s"; k6's `duration` named when the field is missing. */
function durationHint(input: unknown): string {
  if (input === undefined) return "; for example durationSecs: 30 (k6's duration: 30s is durationSecs: 30 here)";
  if (typeof input !== 'string' || !/^\s*(?:\d+(?:\.\d+)?(?:ms|s|m|h)\s*)+$/.test(input)) return '';
  let seconds = 0;
  for (const [, amount, unit] of input.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) seconds += Number(amount) * SECONDS_PER[unit!]!;
  return ` (write ${Math.round(seconds * 1000) / 1000}: durationSecs is in seconds)`;
}

export const loadTestSchema = section({
  name: text().default(''),
  seq: number().default(0),
  targets: list(loadTargetSchema).default([]),
  model: oneOf(['virtualUsers', 'arrivalRate']).default('virtualUsers'),
  stages: list(stageSchema).default([]),
  thinkTimeMs: integer(0, MAX_TIMER_MS).default(0),
  maxInFlight: integer(1).default(1000),
  keepAlive: flag().default(true),
  timeoutMs: appSettingSchema('timeoutMs').optional(),
  httpVersion: appSettingSchema('httpVersion').optional(),
  thresholds: list(thresholdSchema).default([]),
  dataFile: text().optional(),
  docs: text().optional(),
});
export type LoadTestFile = z.output<typeof loadTestSchema>;
