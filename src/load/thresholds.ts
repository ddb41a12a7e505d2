/**
 * Thresholds (spec 2.12): a rule over a metric of one target or of all, judged on the result.
 * A metric with no samples fails, with that reason: a rule that cannot be checked has not passed.
 */
import { roundFine, type TargetResult } from './result.js';
import type { ThresholdRule, ThresholdVerdict } from './verdict.js';

export type { ThresholdRule, ThresholdVerdict } from './verdict.js';

const UNIT: Record<ThresholdRule['metric'], string> = { p50: 'ms', p90: 'ms', p95: 'ms', p99: 'ms', p999: 'ms', avg: 'ms', max: 'ms', errorRate: '%', rps: 'req/s' };

/** A value of a metric with its unit: `300ms`, `1%`, `150 req/s`. */
function withUnit(metric: ThresholdRule['metric'], value: number): string {
  return `${value}${UNIT[metric] === 'req/s' ? ' req/s' : UNIT[metric]}`;
}

export function ruleText(rule: ThresholdRule): string {
  return `${rule.metric} ${rule.op} ${withUnit(rule.metric, rule.value)}${rule.target ? ` (${rule.target})` : ''}`;
}

/** A verdict as a person reads it (the terminal's summary, the app): the rule, then what was measured in the rule's unit. */
export function verdictText(v: ThresholdVerdict): string {
  const measured = v.measured === null ? 'no samples' : `measured ${withUnit(v.metric, v.measured)}`;
  return `${v.passed ? '✓' : '✗'} ${v.rule}: ${measured}${v.reason ? ` (${v.reason})` : ''}`;
}

/**
 * `seconds`: what the result's rates are over (the planned length; what an interrupted run
 * lasted). Rates are judged exact, from the counts: the result's figures are rounded to three
 * decimals, which made one error in 300,000 requests pass `errorRate <= 0`.
 */
export function judge(rules: readonly ThresholdRule[], overall: TargetResult, targets: readonly TargetResult[], seconds: number): ThresholdVerdict[] {
  return rules
    .filter((rule) => rule.enabled)
    .map((rule) => {
      const base = { rule: ruleText(rule), metric: rule.metric, op: rule.op, limit: rule.value, ...(rule.target ? { target: rule.target } : {}) };
      const of = rule.target === undefined ? overall : targets.find((t) => t.request === rule.target);
      // verdictText shows it after "no samples": the reason says why, once.
      if (!of) return { ...base, measured: null, passed: false, reason: `${rule.target} is not sent by this test: its weight is 0 or it is not enabled; the rule cannot pass` };
      if (of.count === 0) return { ...base, measured: null, passed: false, reason: `nothing was measured${rule.target ? ` for ${rule.target}` : ''}, so the rule cannot pass` };
      const exact = measure(rule.metric, of, seconds);
      const passed = compare(exact, rule.op, rule.value);
      return { ...base, measured: shown(exact, rule.op, rule.value, passed), passed };
    });
}

function measure(metric: ThresholdRule['metric'], of: TargetResult, seconds: number): number {
  if (metric === 'errorRate') return (100 * of.errors.total) / of.count;
  if (metric === 'rps') return seconds > 0 ? of.count / seconds : 0;
  return of.latencyMs![metric];
}

/**
 * The measured value as the verdict shows it: three decimals (three significant digits below 1,
 * so a small error rate is not shown as 0), with more digits when fewer would not tell it from
 * the limit the way the verdict did.
 */
function shown(exact: number, op: ThresholdRule['op'], limit: number, passed: boolean): number {
  for (let digits = 3; digits < 17; digits++) {
    const value = roundFine(exact, digits);
    if (compare(value, op, limit) === passed) return value;
  }
  return exact;
}

function compare(measured: number, op: ThresholdRule['op'], limit: number): boolean {
  switch (op) {
    case '<':
      return measured < limit;
    case '<=':
      return measured <= limit;
    case '>':
      return measured > limit;
    case '>=':
      return measured >= limit;
  }
}
