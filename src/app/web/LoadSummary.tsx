/**
 * A load result as `ferry load` prints it: per target and for all (requests, req/s, errors,
 * dropped, latency percentiles in ms), errors by kind, status codes, the threshold verdicts;
 * and two results side by side.
 */
import { errorsLine } from '../../load/summary.js';
import { verdictText } from '../../load/thresholds.js';
import type { LoadHistoryEntry, LoadResultView, TargetResultView } from '../shared/api.js';
import { shownName } from '../../support/shown-name.js';

const ms = (n: number | undefined | null) => (n === undefined || n === null ? '-' : n.toFixed(1));

function verdictLine(result: LoadResultView): { text: string; cls: string } {
  const failed = result.verdicts.filter((v) => !v.passed).length;
  if (result.interrupted) return { text: 'Interrupted: the result is partial.', cls: 'bad' };
  if (failed) return { text: `${failed} threshold${failed === 1 ? '' : 's'} failed.`, cls: 'bad' };
  return { text: result.verdicts.length ? 'All thresholds passed.' : 'Done (no thresholds).', cls: 'ok' };
}

function Row({ t, label }: { t: TargetResultView; label: string }) {
  const l = t.latencyMs;
  const cells: Array<[string, string]> = [
    ['count', String(t.count)], ['rps', t.rps.toFixed(1)], ['errors', t.errors.total ? `${t.errors.total} (${t.errorRate.toFixed(2)}%)` : '0'], ['dropped', String(t.dropped)],
    ['p50', ms(l?.p50)], ['p90', ms(l?.p90)], ['p95', ms(l?.p95)], ['p99', ms(l?.p99)], ['p999', ms(l?.p999)], ['max', ms(l?.max)], ['avg', ms(l?.avg)],
  ];
  const key = label === 'all' ? 'all' : label;
  return (
    <tr data-target={key}>
      <td>{label}</td>
      {cells.map(([name, value]) => <td key={name} className="num" data-field={name}>{value}</td>)}
    </tr>
  );
}

export function LoadSummary({ result, title }: { result: LoadResultView; title?: string }) {
  const verdict = verdictLine(result);
  const errors = errorsLine(result.overall);
  const statuses = Object.entries(result.overall.statuses);
  const parts = result.segments.of > 1 ? ` · segments ${result.segments.parts.join(', ')} of ${result.segments.of}` : '';
  return (
    <div className="load-summary" data-testid="load-summary" data-passed={result.passed}>
      <h4>{title ?? `Load test ${shownName(result.loadTest.name || result.loadTest.id)}`}</h4>
      <p className="muted small">
        {new Date(result.startedAt).toLocaleString()} · {result.durationSeconds.toFixed(1)} s of {result.plannedSeconds} s planned · {result.workers} worker{result.workers === 1 ? '' : 's'}{parts}
      </p>
      <table className="plain load-table">
        <thead>
          <tr><th>target</th><th>requests</th><th>req/s</th><th>errors</th><th>dropped</th><th>p50</th><th>p90</th><th>p95</th><th>p99</th><th>p99.9</th><th>max</th><th>avg</th></tr>
        </thead>
        <tbody>
          {result.targets.map((t) => <Row key={t.request} t={t} label={t.request} />)}
          <Row t={result.overall} label="all" />
        </tbody>
      </table>
      <p className="muted small">latency in ms, from the scheduled start</p>
      {errors && <p data-testid="load-errors">{errors}</p>}
      {statuses.length > 0 && <p data-testid="load-statuses">status codes: {statuses.map(([s, n]) => `${s} × ${n}`).join(', ')}</p>}
      {result.verdicts.length > 0 && (
        <ul className="verdicts" aria-label="Threshold verdicts">
          {result.verdicts.map((v, i) => (
            <li key={i} className={v.passed ? 'ok' : 'bad'} data-passed={v.passed}>
              {verdictText(v)}
            </li>
          ))}
        </ul>
      )}
      <p className={`verdict ${verdict.cls}`} data-testid="load-verdict">{verdict.text}</p>
    </div>
  );
}

/**
 * What `ferry load` says on stderr before it runs, in its words: requests whose scripts load
 * tests do not run, fields of the file that load tests do not have (with the field likely meant).
 * Shown with a run from its start, with a kept run opened from the history, and above the editor
 * as the draft changes (before any run).
 */
export function LoadNotices({ notices, label = 'Load test notices' }: { notices: readonly string[] | undefined; label?: string }) {
  if (!notices?.length) return null;
  return (
    <ul className="load-notices" data-testid="load-notices" aria-label={label}>
      {notices.map((notice, i) => <li key={i}>{notice}</li>)}
    </ul>
  );
}

/** Two runs side by side: the overall numbers of A and B and the change from A to B. */
export function CompareTable({ a, b, labels }: { a: LoadResultView; b: LoadResultView; labels: [string, string] }) {
  const rows: Array<[string, (r: LoadResultView) => number | null, boolean]> = [
    ['requests', (r) => r.overall.count, true],
    ['req/s', (r) => r.overall.rps, true],
    ['error rate %', (r) => r.overall.errorRate, false],
    ['dropped', (r) => r.overall.dropped, false],
    ['p50 ms', (r) => r.overall.latencyMs?.p50 ?? null, false],
    ['p95 ms', (r) => r.overall.latencyMs?.p95 ?? null, false],
    ['p99 ms', (r) => r.overall.latencyMs?.p99 ?? null, false],
    ['max ms', (r) => r.overall.latencyMs?.max ?? null, false],
    ['duration s', (r) => r.durationSeconds, true],
  ];
  const change = (x: number | null, y: number | null) => (x === null || y === null ? '-' : x === 0 ? (y === 0 ? '0%' : '-') : `${y >= x ? '+' : ''}${(((y - x) / x) * 100).toFixed(1)}%`);
  return (
    <table className="plain load-table" data-testid="compare-table">
      <thead><tr><th /><th>A: {labels[0]}</th><th>B: {labels[1]}</th><th>change</th></tr></thead>
      <tbody>
        {rows.map(([name, pick, higherIsBetter]) => {
          const x = pick(a);
          const y = pick(b);
          const better = x !== null && y !== null && y !== x ? (y > x) === higherIsBetter : undefined;
          return (
            <tr key={name} data-metric={name}>
              <td>{name}</td>
              <td className="num">{x === null ? '-' : String(x)}</td>
              <td className="num">{y === null ? '-' : String(y)}</td>
              <td className={`num ${better === undefined ? '' : better ? 'ok' : 'bad'}`}>{change(x, y)}</td>
            </tr>
          );
        })}
        <tr><td>verdict</td><td>{a.passed ? 'passed' : a.interrupted ? 'interrupted' : 'failed'}</td><td>{b.passed ? 'passed' : b.interrupted ? 'interrupted' : 'failed'}</td><td /></tr>
      </tbody>
    </table>
  );
}

export function historyLabel(entry: LoadHistoryEntry): string {
  return new Date(entry.startedAt).toLocaleString();
}
