/**
 * The `autoStart` rule (spec 2.11) said out loud when the app opens: servers marked autoStart whose
 * configuration this computer has not started or saved before were not started by themselves;
 * the notice says so and offers to start each one (which remembers it for next time).
 */
import { useEffect, useState } from 'react';
import type { ServerView } from '../shared/api.js';
import { api } from './api.js';
import { shownName } from '../../support/shown-name.js';

export function AutoStartNotice({ onStarted }: { onStarted?: () => void }) {
  const [waiting, setWaiting] = useState<ServerView[]>([]);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<ServerView[]>('/api/servers').then((rows) => setWaiting(rows.filter((r) => r.waiting && !r.running)), () => undefined);
  }, []);
  if (waiting.length === 0) return null;
  const start = async (server: ServerView) => {
    setError(null);
    try {
      const rows = await api.post<ServerView[]>('/api/servers/start', { id: server.id });
      setWaiting(rows.filter((r) => r.waiting && !r.running));
      onStarted?.();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <div className="autostart-notice" role="region" aria-label="Servers not started">
      {waiting.map((s) => (
        <p key={s.id}>
          <b>{shownName(s.name)}</b> ({s.kind}) was not started by itself: {s.waiting}{' '}
          <button onClick={() => void start(s)} aria-label={`Start ${shownName(s.name)} now`}>Start it now</button>
        </p>
      ))}
      {error && <p className="error" role="alert">{error}</p>}
      <button className="icon" aria-label="Dismiss" onClick={() => setWaiting([])}>×</button>
    </div>
  );
}
