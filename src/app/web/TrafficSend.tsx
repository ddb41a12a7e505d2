/**
 * The traffic panel's send (spec 6.2, 8.2): a message to one client or all clients of a running
 * server that can send (the kinds whose `send` the app's server lists: WebSocket, Socket.IO, SSE,
 * TCP, UDP, the relay; their hints come with them). `{{variables}}` are filled by the app's server
 * as for requests; the page only types and picks.
 */
import { useEffect, useState } from 'react';
import type { ClientInfo, ServerSendDone, ServerView } from '../shared/api.js';
import { api } from './api.js';
import { useLatest } from './latest.js';
import type { ServerKinds } from './server-kinds.js';
import { shownName } from '../../support/shown-name.js';

/** `trafficTick` moves when new traffic has arrived (the panel throttles it): the clients are asked again. */
export function TrafficSend({ servers, trafficTick, kinds }: { servers: ServerView[]; trafficTick: number; kinds: ServerKinds }) {
  const senders = servers.filter((s) => s.running && s.sendForm);
  const [serverId, setServerId] = useState('');
  const [clients, setClients] = useState<ClientInfo[]>([]);
  const [to, setTo] = useState('');
  const [event, setEvent] = useState('');
  const [data, setData] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string; note?: string } | null>(null);
  const server = senders.find((s) => s.id === serverId) ?? senders[0];

  // Clients come and go: asked again when traffic arrives, and for the server picked. An older
  // answer shown last would offer clients gone since, or another server's.
  const reads = useLatest();
  useEffect(() => {
    const newest = reads.ask();
    if (!server) return setClients([]);
    api.get<ClientInfo[]>(`/api/servers/clients?id=${encodeURIComponent(server.id)}`).then((c) => newest() && setClients(c), () => newest() && setClients([]));
  }, [server?.id, trafficTick]);

  if (!server) return <p className="muted small">Start {kinds.senders ? `a ${kinds.senders} server` : 'a server'} to send to its clients from here.</p>;
  const form = server.sendForm!;
  const send = async () => {
    setOutcome(null);
    try {
      const done = await api.post<ServerSendDone>('/api/servers/send', { id: server.id, data, ...(to ? { to } : {}), ...(form.event && event ? { event } : {}) });
      setOutcome({ ok: true, text: `Sent to ${done.sent} client${done.sent === 1 ? '' : 's'}.`, ...(done.note ? { note: done.note } : {}) });
    } catch (e) {
      setOutcome({ ok: false, text: (e as Error).message });
    }
  };
  return (
    <div className="traffic-send" aria-label="Send to clients" role="group">
      <select aria-label="Send from server" value={server.id} onChange={(e) => { setServerId(e.target.value); setTo(''); }}>
        {senders.map((s) => <option key={s.id} value={s.id}>{shownName(s.name)} ({s.kind})</option>)}
      </select>
      <select aria-label="Send to" value={to} onChange={(e) => setTo(e.target.value)}>
        <option value="">All clients ({clients.length})</option>
        {clients.map((c) => <option key={c.id} value={c.id}>{c.label}</option>)}
        {to && !clients.some((c) => c.id === to) && <option value={to}>{to} (gone)</option>}
      </select>
      {form.event && <input aria-label="Event name" placeholder={kinds.byKind[server.kind]?.send?.eventPlaceholder ?? 'event'} value={event} onChange={(e) => setEvent(e.target.value)} />}
      <textarea
        aria-label="Message to send"
        rows={2}
        placeholder={form.hex ? 'hex byte pairs, e.g. 48 69 0a' : 'text; {{variables}} are filled as for requests'}
        value={data}
        onChange={(e) => setData(e.target.value)}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && e.key === 'Enter') void send();
        }}
      />
      {/* "Push", not "Send": the request editor's Send stays the one button of that name on the page. */}
      <button className="primary" title="Send the message to the chosen clients (Ctrl/Cmd+Enter)" onClick={() => void send()}>Push</button>
      {outcome && <span className={outcome.ok ? 'ok' : 'error'} role={outcome.ok ? 'status' : 'alert'}>{outcome.text}</span>}
      {outcome?.note && <span className="error" role="alert">{outcome.note}</span>}
    </div>
  );
}
