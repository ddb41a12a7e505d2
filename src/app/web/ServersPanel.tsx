/**
 * The servers panel: the workspace's servers (every kind) with start/stop, the editor, new
 * servers, the autoStart rule's notices, the live traffic table (newest first; a row opens to the
 * kind's own detail: a DNS answer's records, an MCP call, a relay's direction), and the send to
 * one client or all. What differs by kind (its name, its traffic's direction words, the send's
 * hints, the editor's section hint) comes from `GET /api/server-kinds`: no kind is named here.
 */
import { type Dispatch, Fragment, type SetStateAction, useEffect, useRef, useState } from 'react';
import type { ServerEditorView, ServerView, TrafficView } from '../shared/api.js';
import { api } from './api.js';
import { useLatest } from './latest.js';
import { humanSize } from './ResponseViewer.js';
import { ServerEditor } from './ServerEditor.js';
import { directionWords, useServerKinds } from './server-kinds.js';
import { TrafficSend } from './TrafficSend.js';
import { shownName } from '../../support/shown-name.js';

/** Rows shown; the server keeps as many in its log. */
export const TRAFFIC_SHOWN = 500;

/** The kind's own detail as label/value lines (lists one item a line), whatever the kind. */
function TrafficDetail({ detail }: { detail: unknown }) {
  if (detail === null || typeof detail !== 'object') return <span className="muted">No detail.</span>;
  return (
    <dl className="traffic-detail">
      {Object.entries(detail as Record<string, unknown>).map(([key, value]) => (
        <Fragment key={key}>
          <dt>{key}</dt>
          <dd>{Array.isArray(value) ? (value.length === 0 ? <span className="muted">none</span> : value.map((v, i) => <div key={i}><code>{typeof v === 'string' ? v : JSON.stringify(v)}</code></div>)) : <code>{typeof value === 'string' ? value : JSON.stringify(value)}</code>}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** `diskChanges` moves when workspace files change on disk (git, an editor): the list is read again. */
export function ServersPanel({ traffic, onTraffic, diskChanges, onClose }: { traffic: TrafficView[]; onTraffic: Dispatch<SetStateAction<TrafficView[]>>; diskChanges: number; onClose: () => void }) {
  const [servers, setServers] = useState<ServerView[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [only, setOnly] = useState('');
  const [editing, setEditing] = useState<string | null>(null);
  const [open, setOpen] = useState<TrafficView | null>(null);
  // The kinds (and the one picked at first) come from the app's server: the page names none.
  const kinds = useServerKinds();
  const [picked, setPicked] = useState('');
  const newKind = picked || kinds.newServer.picked;

  // The list comes from reads (a file changed, traffic) and from each Start/Stop's answer; their
  // answers can arrive out of order, and an older one would show a server just started as stopped
  // until something else asks again. Only the newest ask's answer is shown, and a read asked while
  // a Start or Stop is on its way is dropped (it may predate it): that Start or Stop reads again.
  const lists = useLatest();
  const toggling = useRef(0);
  const refresh = async () => {
    const newest = lists.ask();
    const during = toggling.current > 0;
    try {
      const list = await api.get<ServerView[]>('/api/servers');
      if (newest() && !during) setServers(list);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  useEffect(() => {
    void refresh();
    api.get<TrafficView[]>('/api/servers/traffic').then(onTraffic, () => undefined);
  }, []);

  // A server file added, changed or deleted outside the app: listed as it now is.
  const firstChanges = useRef(diskChanges);
  useEffect(() => {
    if (diskChanges !== firstChanges.current) void refresh();
  }, [diskChanges]);

  // Connection counts and clients move with the traffic (connects and closes are traffic too): both
  // are asked again after new records, at most twice a second (a busy mock logs thousands a second).
  const newest = traffic[traffic.length - 1];
  const [trafficTick, setTrafficTick] = useState(0);
  const lastAsked = useRef(0);
  useEffect(() => {
    if (newest === undefined) return;
    const timer = setTimeout(() => {
      lastAsked.current = Date.now();
      setTrafficTick((n) => n + 1);
      void refresh();
    }, Math.max(0, lastAsked.current + 500 - Date.now()));
    return () => clearTimeout(timer);
  }, [newest]);

  const toggle = async (server: ServerView) => {
    setBusy(server.id);
    setError(null);
    const newest = lists.ask();
    toggling.current++;
    let list: ServerView[] | undefined;
    try {
      list = await api.post<ServerView[]>(`/api/servers/${server.running ? 'stop' : 'start'}`, { id: server.id });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      toggling.current--;
      setBusy(null);
    }
    if (list) setServers(list);
    // Refused (the list may have changed), or other reads were asked meanwhile and dropped: the list as it is now.
    if (!list || !newest()) void refresh();
  };

  const create = async () => {
    if (!newKind) return;
    const label = kinds.byKind[newKind]?.label ?? newKind;
    const name = window.prompt(`Name of the new ${label} server`, `${label} server`);
    if (!name) return;
    setError(null);
    try {
      const made = await api.post<ServerEditorView>('/api/server', { name, kind: newKind });
      await refresh();
      setEditing(made.id);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  // Renamed with its file (2.1.4): its traffic so far, and the filter, follow it (the app's server
  // shows older records under the new id too, routes-servers.ts).
  const followRename = (from: string, to: string) => {
    onTraffic((rows) => rows.map((t) => (t.server === from ? { ...t, server: to } : t)));
    // The list under its new id at once (the list read again after the save brings the rest), so
    // that the filter's option is there and it does not read "All servers" meanwhile.
    setServers((list) => list?.map((s) => (s.id === from ? { ...s, id: to } : s)) ?? list);
    if (only === from) setOnly(to);
  };

  // The Server column says the server's name, as the list and the filter do (its id, the file name, on hover).
  const names = new Map(servers?.map((s) => [s.id, s.name]));
  const nameOf = (id: string) => shownName(names.get(id) ?? id);

  const shown = traffic.filter((t) => !only || t.server === only).slice(-TRAFFIC_SHOWN).reverse();
  return (
    <section className="runner servers" aria-label="Servers">
      <header>
        <h3>Servers</h3>
        <select aria-label="New server kind" value={newKind} onChange={(e) => setPicked(e.target.value)}>
          {kinds.newServer.kinds.map((k) => <option key={k} value={k}>{kinds.byKind[k]?.label ?? k}</option>)}
        </select>
        <button onClick={() => void create()}>+ Server</button>
        <span className="spacer" />
        <button className="icon" aria-label="Close servers" onClick={onClose}>×</button>
      </header>
      {servers === null && !error && <p className="muted">Loading…</p>}
      {servers?.length === 0 && <p className="muted">This workspace has no servers: add one with + Server, or a file under <code>servers/</code> (see <code>ferry serve --help</code>).</p>}
      {/* Spec 8.2: a running server reads variables at its start and when its file changes, not when they change. */}
      {servers?.some((s) => s.running) && (
        <p className="muted small" data-testid="servers-variables-note">
          Running servers fill <code>{'{{variables}}'}</code> as they were when each started or its file was last saved: after switching the environment or changing a variable, stop and start it.
        </p>
      )}
      <table className="plain" aria-label="Server list">
        <tbody>
          {servers?.map((s) => (
            <tr key={s.id} data-server={s.id}>
              <td><span className={s.running ? 'ok' : 'muted'}>{s.running ? '●' : '○'}</span></td>
              <td><b>{shownName(s.name)}</b> <span className="muted">{s.kind}</span>{s.autoStart && <span className="muted small" title="Starts with the workspace when this computer knows its configuration"> autoStart</span>}</td>
              <td>
                {s.error ? <span className="error">{s.error}</span> : s.running ? <span data-testid={`server-url-${s.id}`}>{s.url}</span> : <span className="muted">{s.host}:{s.port || 'any free port'}</span>}
                {s.waiting && !s.running && <div className="warn small" data-testid={`server-waiting-${s.id}`}>Not started by itself: {s.waiting}</div>}
                {s.startError && !s.running && <div className="error small">{s.startError}</div>}
              </td>
              <td>{s.running && <span className="muted" data-testid={`server-connections-${s.id}`}>{s.connections} open</span>}</td>
              <td>
                {!s.error && (
                  <button disabled={busy === s.id} aria-label={`${s.running ? 'Stop' : 'Start'} ${shownName(s.name)}`} onClick={() => void toggle(s)}>
                    {s.running ? 'Stop' : 'Start'}
                  </button>
                )}{' '}
                {!s.error && <button aria-label={`Edit ${shownName(s.name)}`} onClick={() => setEditing(s.id)}>Edit</button>}
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
          {servers?.map((s) => <option key={s.id} value={s.id}>{shownName(s.name)}</option>)}
        </select>
        <button onClick={() => onTraffic([])}>Clear</button>
      </header>
      {servers && <TrafficSend servers={servers} trafficTick={trafficTick} kinds={kinds} />}
      <table className="plain results" aria-label="Traffic">
        <thead><tr><th>Time</th><th>Server</th><th>Way</th><th>What</th><th>Took</th><th>In / out</th></tr></thead>
        <tbody>
          {shown.map((t, i) => (
            <Fragment key={`${t.time}-${i}`}>
              <tr className={`${t.level === 'error' ? 'fail' : t.level === 'warning' ? 'warn' : ''} clickable`} aria-expanded={open === t} onClick={() => setOpen(open === t ? null : t)}>
                <td>{new Date(t.time).toLocaleTimeString()}</td>
                <td title={t.server}>{nameOf(t.server)}</td>
                <td className="muted small">{directionWords(kinds, t.kind, t.direction)}</td>
                <td>{t.summary}{t.note && <span className="muted"> ({t.note})</span>}</td>
                <td>{Math.round(t.durationMs * 100) / 100} ms</td>
                <td>{humanSize(t.bytesIn)} / {humanSize(t.bytesOut)}</td>
              </tr>
              {open === t && <tr className="detail-row"><td colSpan={6}><TrafficDetail detail={t.detail} /></td></tr>}
            </Fragment>
          ))}
          {shown.length === 0 && <tr><td colSpan={6} className="muted">No traffic yet: start a server and send it a request.</td></tr>}
        </tbody>
      </table>
      {editing && <ServerEditor id={editing} kinds={kinds} diskChanges={diskChanges} onClose={() => setEditing(null)} onSaved={(saved) => { if (saved !== editing) followRename(editing, saved); setEditing(saved); void refresh(); }} />}
    </section>
  );
}
