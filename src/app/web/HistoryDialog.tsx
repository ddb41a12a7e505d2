/**
 * History: the sends of this computer, newest first (the app's and `ferry run`'s, as the data
 * folder keeps them), with a filter. Choosing one shows its result: the whole answer for the
 * app's recent sends, else what the history holds (status, time, URL, error).
 */
import { useEffect, useMemo, useState } from 'react';
import type { HistoryView, SendResponse } from '../shared/api.js';
import { api } from './api.js';
import { useLatest } from './latest.js';
import { Modal } from './Modal.js';
import { ResponseViewer } from './ResponseViewer.js';

function when(time: string): string {
  const date = new Date(time);
  return Number.isNaN(date.getTime()) ? time : date.toLocaleString();
}

export function HistoryDialog({ onClose, onOpenRequest }: { onClose: () => void; onOpenRequest: (path: string) => void }) {
  const [entries, setEntries] = useState<HistoryView[] | null>(null);
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<HistoryView | null>(null);
  const [answer, setAnswer] = useState<SendResponse | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api.get<{ entries: HistoryView[] }>('/api/history').then((h) => setEntries(h.entries), (e: Error) => setError(e.message));
  }, []);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (entries ?? []).filter((e) => !q || `${e.method} ${e.url} ${e.path ?? ''} ${e.status ?? ''} ${e.statusLabel ?? ''} ${e.error ?? ''}`.toLowerCase().includes(q)).slice(0, 500);
  }, [entries, filter]);

  // Another send picked while one's answer is read: the answer shown is the last picked's.
  const results = useLatest();
  const choose = (entry: HistoryView) => {
    const newest = results.ask();
    setChosen(entry);
    setAnswer(null);
    setError(null);
    if (entry.kept) api.get<SendResponse>(`/api/history/result?key=${encodeURIComponent(entry.key)}`).then((a) => newest() && setAnswer(a), (e: Error) => newest() && setError(e.message));
  };

  return (
    <Modal label="History" className="wide history" onClose={onClose}>
      {chosen ? (
        <div className="history-result" data-testid="history-result">
          <div className="history-tools">
            <button onClick={() => setChosen(null)}>← All sends</button>
            <span className="muted">{when(chosen.time)} · {chosen.method} {chosen.url}</span>
            <span className="spacer" />
            {chosen.path && <button onClick={() => { onOpenRequest(chosen.path!); onClose(); }}>Open the request</button>}
          </div>
          {chosen.kept ? (
            <ResponseViewer answer={answer} sending={!answer && !error} error={error} />
          ) : (
            <div className="history-summary" aria-label="Send summary">
              <p>
                {chosen.status !== undefined ? <b className={failedSend(chosen) ? 'bad' : undefined}>Status {chosen.statusLabel ?? chosen.status}</b> : <b className="bad">No answer</b>} in {chosen.durationMs} ms
                {chosen.error && <span className="error"> — {chosen.error}</span>}
              </p>
              <p className="muted">Only the app's last sends keep their whole answer (headers, body, tests); this one was sent earlier or by <code>ferry run</code>. Open the request and send it again to see it.</p>
            </div>
          )}
        </div>
      ) : (
        <>
          <input type="search" aria-label="Filter history" placeholder="Filter by method, URL, request, status" value={filter} autoFocus onChange={(e) => setFilter(e.target.value)} />
          {error && <p className="error">{error}</p>}
          {entries === null && !error && <p className="muted">Loading…</p>}
          {entries?.length === 0 && <p className="muted">No sends yet on this computer.</p>}
          {shown.length > 0 && (
            <table className="plain history-table" aria-label="Sends">
              <thead><tr><th>When</th><th>Request</th><th>Status</th><th>Time</th></tr></thead>
              <tbody>
                {shown.map((entry, i) => (
                  <tr
                    key={`${entry.key}-${i}`} tabIndex={0} className={failedSend(entry) ? 'fail' : ''}
                    onClick={() => choose(entry)} onKeyDown={(e) => e.key === 'Enter' && choose(entry)}
                  >
                    <td className="nowrap">{when(entry.time)}</td>
                    <td><b>{entry.method}</b> {entry.url}{entry.path && <div className="muted small">{entry.path}</div>}</td>
                    <td>{entry.statusLabel ?? entry.status ?? (entry.error ? 'error' : '')}{entry.kept && <span className="muted small" title="The whole answer is kept"> ●<span className="sr-only"> whole answer kept</span></span>}</td>
                    <td className="nowrap">{entry.durationMs} ms</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </Modal>
  );
}

/** A send that failed: no answer, or a status its kind fails (`ok`; entries of older versions have none: HTTP's 400 and above). */
function failedSend(entry: { error?: string; status?: number; ok?: boolean }): boolean {
  return entry.error !== undefined || (entry.status !== undefined && !(entry.ok ?? entry.status < 400));
}
