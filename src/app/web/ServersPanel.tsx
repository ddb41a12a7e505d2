/** The servers panel: the workspace's servers (every kind) with start/stop, and the live traffic table (newest first). */
import { useEffect, useState } from 'react';
import type { ServerView, TrafficView } from '../shared/api.js';
import { api } from './api.js';
import { humanSize } from './ResponseViewer.js';

/** Rows shown; the server keeps as many in its log. */
export const TRAFFIC_SHOWN = 500;

export function ServersPanel({ traffic, onTraffic, onClose }: { traffic: TrafficView[]; onTraffic: (rows: TrafficView[]) => void; onClose: () => void }) {
  const [servers, setServers] = useState<ServerView[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [only, setOnly] = useState('');

  useEffect(() => {
    api.get<ServerView[]>('/api/servers').then(setServers, (e: Error) => setError(e.message));
    api.get<TrafficView[]>('/api/servers/traffic').then(onTraffic, () => undefined);
  }, []);

  const toggle = async (server: ServerView) => {
    setBusy(server.id);
    setError(null);
    try {
      setServers(await api.post<ServerView[]>(`/api/servers/${server.running ? 'stop' : 'start'}`, { id: server.id }));
    } catch (e) {
      setError((e as Error).message);
      api.get<ServerView[]>('/api/servers').then(setServers, () => undefined);
    } finally {
      setBusy(null);
    }
  };

  const shown = traffic.filter((t) => !only || t.server === only).slice(-TRAFFIC_SHOWN).reverse();
  return (
    <section className="runner servers" aria-label="Servers">
      <header>
        <h3>Servers</h3>
        <span className="spacer" />
        <button className="icon" aria-label="Close servers" onClick={onClose}>×</button>
      </header>
      {servers === null && !error && <p className="muted">Loading…</p>}
      {servers?.length === 0 && <p className="muted">This workspace has no servers: add a file under <code>servers/</code> (see <code>ferry serve --help</code>).</p>}
      <table className="plain" aria-label="Server list">
        <tbody>
          {servers?.map((s) => (
            <tr key={s.id} data-server={s.id}>
              <td><span className={s.running ? 'ok' : 'muted'}>{s.running ? '●' : '○'}</span></td>
              <td><b>{s.name}</b> <span className="muted">{s.kind}</span></td>
              <td>{s.error ? <span className="error">{s.error}</span> : s.running ? <span data-testid={`server-url-${s.id}`}>{s.url}</span> : <span className="muted">{s.host}:{s.port || 'any free port'}</span>}</td>
              <td>{s.running && <span className="muted">{s.connections} open</span>}</td>
              <td>
                {!s.error && (
                  <button disabled={busy === s.id} aria-label={`${s.running ? 'Stop' : 'Start'} ${s.name}`} onClick={() => void toggle(s)}>
                    {s.running ? 'Stop' : 'Start'}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {error && <p className="error" role="alert">{error}</p>}
      <header>
        <h3>Traffic</h3>
        <select aria-label="Traffic of" value={only} onChange={(e) => setOnly(e.target.value)}>
          <option value="">All servers</option>
          {servers?.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </select>
        <button onClick={() => onTraffic([])}>Clear</button>
      </header>
      <table className="plain results" aria-label="Traffic">
        <thead><tr><th>Time</th><th>Server</th><th>What</th><th>Took</th><th>In / out</th></tr></thead>
        <tbody>
          {shown.map((t, i) => (
            <tr key={`${t.time}-${i}`} className={t.level === 'error' ? 'fail' : t.level === 'warning' ? 'warn' : ''}>
              <td>{new Date(t.time).toLocaleTimeString()}</td>
              <td>{t.server}</td>
              <td>{t.direction === 'in' ? '→ ' : t.direction === 'out' ? '← ' : ''}{t.summary}{t.note && <span className="muted"> ({t.note})</span>}</td>
              <td>{t.durationMs} ms</td>
              <td>{humanSize(t.bytesIn)} / {humanSize(t.bytesOut)}</td>
            </tr>
          ))}
          {shown.length === 0 && <tr><td colSpan={5} className="muted">No traffic yet: start a server and send it a request.</td></tr>}
        </tbody>
      </table>
    </section>
  );
}
