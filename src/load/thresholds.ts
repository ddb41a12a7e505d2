/**
 * Thresholds (spec 2.12): a rule over a metric of one target or of all, judged on the result.
 * A metric with no samples fails, with that reason: a rule that cannot be checked has not passed.
 */
import type { TargetResult } from './result.js';
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

export function judge(rules: readonly ThresholdRule[], overall: TargetResult, targets: readonly TargetResult[]): ThresholdVerdict[] {
  return rules
    .filter((rule) => rule.enabled)
    .map((rule) => {
      const base = { rule: ruleText(rule), metric: rule.metric, op: rule.op, limit: rule.value, ...(rule.target ? { target: rule.target } : {}) };
      const of = rule.target === undefined ? overall : targets.find((t) => t.request === rule.target);
      if (!of || of.count === 0) {
        return { ...base, measured: null, passed: false, reason: `no samples${rule.target ? ` for ${rule.target}` : ''}: nothing was measured, so the rule cannot pass` };
      }
      const measured = measure(rule.metric, of);
      return { ...base, measured, passed: compare(measured, rule.op, rule.value) };
    });
}

function measure(metric: ThresholdRule['metric'], of: TargetResult): number {
  if (metric === 'errorRate') return of.errorRate;
  if (metric === 'rps') return of.rps;
  return of.latencyMs![metric];
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
