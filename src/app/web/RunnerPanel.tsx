/** A collection run: iterations and a data file, live progress from the live channel, the results table with a failed-only filter, JSON and JUnit export. */
import { useState } from 'react';
import { statusShown } from '../../runner/response.js';
import { api } from './api.js';
import type { RequestResult, RunSummary } from '../shared/api.js';
import { shownName } from '../../support/shown-name.js';

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

/** The run's data file as read in the page: its name (CSV or JSON by extension) and text; the server parses it. */
export interface DataFile {
  name: string;
  text: string;
}

/** Data files over this are refused here, before upload (the server's limit too). */
const MAX_DATA_BYTES = 50 * 1024 * 1024;

export function RunnerPanel({ run, onStart, onClose, onCancel }: { run: RunView | null; onStart: (iterations: number | undefined, data: DataFile | undefined) => void; onClose: () => void; onCancel: () => void }) {
  const [iterations, setIterations] = useState<number | ''>(1);
  const [data, setData] = useState<DataFile | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [failedOnly, setFailedOnly] = useState(false);
  const shown = (run?.results ?? []).filter((r) => !failedOnly || !r.passed);
  /** The report as `ferry run --reporter json|junit` writes it, saved as a download. */
  const exportReport = async (format: 'json' | 'junit') => {
    try {
      const report = await api.get<{ fileName: string; text: string }>(`/api/run/report?runId=${encodeURIComponent(run!.runId)}&format=${format}`);
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([report.text], { type: format === 'json' ? 'application/json' : 'application/xml' }));
      a.download = report.fileName;
      a.click();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const pickData = async (file: File | undefined) => {
    setError(null);
    if (!file) return setData(undefined);
    if (file.size > MAX_DATA_BYTES) return setError(`${file.name} is larger than 50 MB; a data file may hold at most 50 MB.`);
    setData({ name: file.name, text: await file.text() });
    // One iteration per row unless the user says otherwise.
    setIterations('');
  };
  return (
    <section className="runner" aria-label="Runner">
      <header>
        <h3>Run {run?.folder || 'workspace'}</h3>
        <label className="inline">Iterations<input type="number" min={1} value={iterations} placeholder={data ? 'one per row' : '1'} onChange={(e) => setIterations(e.target.value === '' ? '' : Math.max(1, Math.floor(Number(e.target.value)) || 1))} /></label>
        <label className="inline">Data file<input type="file" aria-label="Data file" accept=".csv,.json,text/csv,application/json" onChange={(e) => void pickData(e.target.files?.[0])} /></label>
        {run && !run.summary ? <button onClick={onCancel}>Stop</button> : <button className="primary" onClick={() => onStart(iterations === '' ? undefined : iterations, data)}>Run</button>}
        <label className="check"><input type="checkbox" checked={failedOnly} onChange={(e) => setFailedOnly(e.target.checked)} /> Failed only</label>
        {run?.summary && <button onClick={() => void exportReport('json')}>Export JSON</button>}
        {run?.summary && <button onClick={() => void exportReport('junit')}>Export JUnit</button>}
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
      {error && <p className="error" role="alert">{error}</p>}
      {run?.warnings.map((w, i) => <p key={i} className="error">{w}</p>)}
      <table className="plain results" aria-label="Run results">
        <thead><tr><th><span className="sr-only">Result</span></th><th>Request</th><th>Status</th><th>Time</th><th>Tests</th></tr></thead>
        <tbody>
          {shown.map((r, i) => (
            <tr key={i} className={r.passed ? 'pass' : 'fail'}>
              {/* The mark in words too: a screen reader reads ✗ as 'ballot x', and red is no signal to it. */}
              <td>{r.skipped ? '○' : r.passed ? '✓' : '✗'}<span className="sr-only"> {r.skipped ? 'skipped' : r.passed ? 'passed' : 'failed'}</span></td>
              <td>{r.iteration !== undefined && run && run.total > 0 && <span className="muted">#{r.iteration + 1} </span>}{r.method} {shownName(r.name)}{r.error && <div className="error small">{r.error}</div>}
                {r.messages && r.messages.length > 0 && (
                  <details className="run-messages">
                    <summary>{r.stream ? `${r.stream.events} received, stopped by ${r.stream.stoppedBy}` : `${r.messages.length} messages`}</summary>
                    <ol aria-label={`Messages of ${shownName(r.name)}`}>
                      {r.messages.slice(0, 200).map((m, j) => (
                        <li key={j} className={m.direction}>{m.direction === 'sent' ? '↑' : '↓'} {m.event && <b>{m.event} </b>}{m.topic && <span className="muted">{m.topic} </span>}<code>{m.binary ? '(binary)' : m.text.length > 200 ? `${m.text.slice(0, 200)}…` : m.text}</code></li>
                      ))}
                    </ol>
                  </details>
                )}
              </td>
              <td>{statusShown(r) || '—'}</td>
              <td>{r.durationMs} ms</td>
              <td>{r.tests.filter((t) => t.passed).length}/{r.tests.length}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
