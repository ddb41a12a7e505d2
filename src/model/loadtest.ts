/** A load test, `loadtests/<id>.yaml` (spec 2.12). */
import { z } from 'zod';
import { describe, flag, integer, list, number, oneOf, section, text } from './declare.js';
import { MAX_TIMER_MS } from './constants.js';
import { appSettingSchema } from './app-settings.js';

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
  metric: oneOf(['p50', 'p90', 'p95', 'p99', 'p999', 'avg', 'max', 'errorRate', 'rps']),
  // Said with the quotes YAML needs: `op: >` unquoted reads as an empty block of text.
  op: z.enum(['<', '<=', '>', '>='], { error: (issue) => `expected one of <, <=, >, >= (quoted in YAML: op: ">"), got ${describe(issue.input)}` }),
  // k6 users write the unit (`300ms`, `1%`): said how to write the limit instead.
  value: z.number({ error: (issue) => `expected a number without its unit (${unitless(issue.input)}: latencies are in ms, errorRate in percent, rps in requests per second), got ${describe(issue.input)}` }),
  target: text().optional(),
  enabled: flag().default(true),
});

/** `300, not 300ms` for a limit written with its unit; the same shape with an example otherwise. */
function unitless(input: unknown): string {
  const match = typeof input === 'string' ? /^\s*(-?\d+(?:\.\d+)?)\s*[^\d\s].*$/.exec(input) : null;
  return match ? `${match[1]}, not ${String(input).trim()}` : '300, not 300ms';
}

export const loadTestSchema = section({
  name: text(),
  seq: number().default(0),
  targets: list(loadTargetSchema).default([]),
  model: oneOf(['virtualUsers', 'arrivalRate']).default('virtualUsers'),
  stages: list(section({ durationSecs: number().min(0), target: number().min(0) })).default([]),
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
