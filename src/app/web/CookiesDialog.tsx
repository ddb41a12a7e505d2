/** The cookie jar of this workspace on this computer: every cookie the next sends carry, each deletable. */
import { useEffect, useState } from 'react';
import type { CookieInfo } from '../shared/api.js';
import { api } from './api.js';
import { Modal } from './Modal.js';

export function CookiesDialog({ onClose }: { onClose: () => void }) {
  const [cookies, setCookies] = useState<CookieInfo[] | null>(null);
  const [filter, setFilter] = useState('');
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.get<CookieInfo[]>('/api/cookies').then(setCookies, (e: Error) => setError(e.message));
  }, []);
  const remove = async (body: unknown) => {
    try {
      setCookies(await api.post<CookieInfo[]>('/api/cookies/delete', body));
      setError(null);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const needle = filter.trim().toLowerCase();
  const shown = (cookies ?? []).filter((c) => !needle || `${c.domain} ${c.name}`.toLowerCase().includes(needle));
  return (
    <Modal label="Cookies" className="wide" onClose={onClose}>
      <input type="search" placeholder="Filter by domain or name" aria-label="Filter cookies" value={filter} onChange={(e) => setFilter(e.target.value)} />
      {cookies === null && !error && <p className="muted">Loading…</p>}
      {cookies?.length === 0 && <p className="muted">No cookies: sends keep the cookies servers set, here on this computer.</p>}
      {shown.length > 0 && (
        <table className="plain" aria-label="Cookie jar">
          <thead><tr><th>Domain</th><th>Path</th><th>Name</th><th>Value</th><th>Expires</th><th>Flags</th><th /></tr></thead>
          <tbody>
            {shown.map((c) => (
              <tr key={`${c.domain} ${c.path} ${c.name}`}>
                <td>{c.domain}</td><td>{c.path}</td><td><b>{c.name}</b></td>
                <td className="cookie-value" title={c.value}>{c.value}</td>
                <td>{c.expires ? new Date(c.expires).toLocaleString() : 'session'}</td>
                <td className="muted">{[c.secure && 'Secure', c.httpOnly && 'HttpOnly', c.sameSite].filter(Boolean).join(' ')}</td>
                <td><button className="icon" aria-label={`Delete cookie ${c.name}`} onClick={() => void remove({ domain: c.domain, path: c.path, name: c.name })}>×</button></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      <footer>{(cookies?.length ?? 0) > 0 && <button className="danger" onClick={() => confirm('Delete every cookie of this workspace?') && void remove({ all: true })}>Delete all</button>}<button onClick={onClose}>Close</button></footer>
    </Modal>
  );
}
