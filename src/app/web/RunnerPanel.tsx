/** A collection run: iterations, live progress from the live channel, the results table with a failed-only filter, JSON export. */
import { useState } from 'react';
import type { RequestResult, RunSummary } from '../shared/api.js';

export interface RunView {
  runId: string;
  folder: string;
  position: number;
  total: number;
  current: string;
  results: RequestResult[];
  summary: RunSummary | null;
  warnings: string[];
}

export function RunnerPanel({ run, onStart, onClose, onCancel }: { run: RunView | null; onStart: (iterations: number) => void; onClose: () => void; onCancel: () => void }) {
  const [iterations, setIterations] = useState(1);
  const [failedOnly, setFailedOnly] = useState(false);
  const shown = (run?.results ?? []).filter((r) => !failedOnly || !r.passed);
  const exportJson = () => {
    const blob = new Blob([JSON.stringify({ version: 1, summary: run?.summary, results: run?.results }, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'ferry-run.json';
    a.click();
  };
  return (
    <section className="runner" aria-label="Runner">
      <header>
        <h3>Run {run?.folder || 'workspace'}</h3>
        <label className="inline">Iterations<input type="number" min={1} value={iterations} onChange={(e) => setIterations(Math.max(1, Number(e.target.value) || 1))} /></label>
        {run && !run.summary ? <button onClick={onCancel}>Stop</button> : <button className="primary" onClick={() => onStart(iterations)}>Run</button>}
        <label className="check"><input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} /> Failed only</label>
        {run?.summary && <button onClick={exportJson}>Export JSON</button>}
        <button className="icon" aria-label="Close runner" onClick={onClose}>×</button>
      </header>
      {run && !run.summary && (
        <div className="progress" data-testid="run-progress">
          <progress max={run.total || 1} value={run.position} /> {run.position}/{run.total} {run.current}
        </div>
      )}
      {run?.summary && (
        <p className={run.summary.failedRequests ? 'bad' : 'ok'} data-testid="run-summary">
          {run.summary.requests} requests, {run.summary.failedRequests} failed; {run.summary.tests} tests, {run.summary.failedTests} failed; {run.summary.durationMs} ms
        </p>
      )}
      {run?.warnings.map((w, i) => <p key={i} className="error">{w}</p>)}
      <table className="plain results" aria-label="Run results">
        <thead><tr><th /><th>Request</th><th>Status</th><th>Time</th><th>Tests</th></tr></thead>
        <tbody>
          {shown.map((r, i) => (
            <tr key={i} className={r.passed ? 'pass' : 'fail'}>
              <td>{r.skipped ? '○' : r.passed ? '✓' : '✗'}</td>
              <td>{r.method} {r.name}{r.error && <div className="error small">{r.error}</div>}</td>
              <td>{r.status ?? '—'}</td>
              <td>{r.durationMs} ms</td>
              <td>{r.tests.filter((t) => t.passed).length}/{r.tests.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
