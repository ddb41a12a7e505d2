/**
 * The text a person reads: the live line (about once a second on a terminal) and the summary
 * table per target and overall with the threshold verdicts. Colour is the caller's choice.
 */
import type { LiveView } from './live.js';
import type { LoadResult, TargetResult } from './result.js';
import { verdictText } from './thresholds.js';

export interface Paint {
  green(text: string): string;
  red(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const plain: Paint = { green: (t) => t, red: (t) => t, bold: (t) => t, dim: (t) => t };

export function liveLine(view: LiveView, model: 'virtualUsers' | 'arrivalRate', width = 20): string {
  const done = view.plannedSeconds > 0 ? view.elapsedSeconds / view.plannedSeconds : 0;
  const filled = Math.round(Math.min(1, done) * width);
  const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
  const p95 = view.p95 === null ? '-' : `${view.p95.toFixed(1)} ms`;
  const active = model === 'arrivalRate' ? `in flight ${view.active}` : `users ${view.active}`;
  return `${clock(view.elapsedSeconds)} / ${clock(view.plannedSeconds)} ${bar} ${view.rps} req/s  p95 ${p95}  errors ${view.errors}  ${active}  dropped ${view.dropped}`;
}

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** `errors: timeout 4 (no answer within 200 ms), refused 2 (connect ECONNREFUSED …)`: each kind with its first reason; undefined without errors. */
export function errorsLine(t: Pick<TargetResult, 'errors' | 'errorReasons'>): string | undefined {
  const kinds = (Object.entries(t.errors) as Array<[keyof TargetResult['errors'], number]>).filter(([k, n]) => k !== 'total' && n > 0);
  if (kinds.length === 0) return undefined;
  const reasons: Partial<Record<string, string>> = t.errorReasons ?? {};
  return `errors: ${kinds.map(([k, n]) => `${k === 'status' ? 'status ≥ 400' : k} ${n}${reasons[k] ? ` (${reasons[k]})` : ''}`).join(', ')}`;
}

export function summaryText(result: LoadResult, paint: Paint = plain): string {
  const head = ['target', 'requests', 'req/s', 'errors', 'dropped', 'p50', 'p90', 'p95', 'p99', 'p99.9', 'max', 'avg'];
  const row = (t: TargetResult, label: string) => {
    const l = t.latencyMs;
    const ms = (n: number | undefined) => (n === undefined ? '-' : `${n.toFixed(1)}`);
    return [label, String(t.count), t.rps.toFixed(1), t.errors.total ? `${t.errors.total} (${t.errorRate.toFixed(2)}%)` : '0', String(t.dropped), ms(l?.p50), ms(l?.p90), ms(l?.p95), ms(l?.p99), ms(l?.p999), ms(l?.max), ms(l?.avg)];
  };
  const rows = [head, ...result.targets.map((t) => row(t, t.request)), row(result.overall, 'all')];
  const widths = head.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  const out: string[] = [];
  const parts = result.segments.of > 1 ? ` (segments ${result.segments.parts.join(', ')} of ${result.segments.of})` : '';
  out.push(paint.bold(`Load test ${result.loadTest.id}${parts}: ${result.durationSeconds.toFixed(1)} s, ${result.workers} worker${result.workers === 1 ? '' : 's'}${result.interrupted ? ', interrupted (partial result)' : ''}`));
  out.push(paint.dim(`${line(head)}   latency in ms`));
  for (const r of rows.slice(1)) out.push(line(r));
  const errors = errorsLine(result.overall);
  if (errors) out.push(errors);
  const statuses = Object.entries(result.overall.statuses);
  if (statuses.length) out.push(`status codes: ${statuses.map(([s, n]) => `${s} × ${n}`).join(', ')}`);
  if (result.verdicts.length) {
    out.push('thresholds:');
    for (const v of result.verdicts) {
      const text = `  ${verdictText(v)}`;
      out.push(v.passed ? paint.green(text) : paint.red(text));
    }
  }
  const failed = result.verdicts.filter((v) => !v.passed).length;
  if (result.interrupted) out.push(paint.red('Interrupted: the result is partial.'));
  else if (failed) out.push(paint.red(`${failed} threshold${failed === 1 ? '' : 's'} failed.`));
  else out.push(paint.green(result.verdicts.length ? 'All thresholds passed.' : 'Done (no thresholds).'));
  return out.join('\n');
}
