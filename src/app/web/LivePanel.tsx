/**
 * A request of a streaming kind kept open (issue 26): connect / disconnect, the composer (format
 * and text; the kind's own fields such as event and ack, or topic, QoS and retain; its live
 * operations such as subscribe), the message list (both ways, time, size, search, JSON and XML
 * pretty and highlighted (MessageText.tsx), binary as hex) and "Save as draft". What the composer
 * offers comes from the server's kind table (`/api/connections/kinds`): no kind is named here.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import type { ComposerField, ConnectionEnd, ConnectionView, LiveEvent, LiveKindView, OutgoingMessage, RequestFile, StreamMessage } from '../shared/api.js';
import { api } from './api.js';
import { MessageText, SCROLLING_LIST } from './MessageText.js';
import { humanSize } from './ResponseViewer.js';
import { BASE64_RULE, compactBase64 } from '../../support/base64-text.js';

/** Messages the page keeps per connection (the newest). */
const SHOWN = 1000;

type ConnectionEvent = Extract<LiveEvent, { type: 'connectionMessages' | 'connectionEnded' }>;
const listeners = new Set<(event: ConnectionEvent) => void>();

/** App.tsx hands the live channel's connection events here; the open panel takes its own. */
export function publishConnectionEvent(event: LiveEvent): event is ConnectionEvent {
  if (event.type !== 'connectionMessages' && event.type !== 'connectionEnded') return false;
  for (const listener of listeners) listener(event);
  return true;
}

let kindsPromise: Promise<Record<string, LiveKindView>> | undefined;
function liveKinds(): Promise<Record<string, LiveKindView>> {
  kindsPromise ??= api.get<Record<string, LiveKindView>>('/api/connections/kinds').catch((error: unknown) => {
    kindsPromise = undefined;
    throw error;
  });
  return kindsPromise;
}

/** A message with its place in the connection (1 = the first; the server counts every message, kept or not). */
interface Placed {
  pos: number;
  message: StreamMessage;
}

/** Messages whose last one is at place `upTo` (those before it, or skipped, come before). */
function placed(messages: StreamMessage[], upTo: number): Placed[] {
  return messages.map((message, i) => ({ pos: upTo - messages.length + 1 + i, message }));
}

/**
 * `list` with the messages of `incoming` it does not have yet, in the connection's order, the
 * newest `SHOWN`: the early messages read after Connect and the live channel's first batch may
 * hold the same ones, in either order.
 */
function merged(list: Placed[], incoming: Placed[]): Placed[] {
  const known = new Set(list.map((p) => p.pos));
  const added = incoming.filter((p) => !known.has(p.pos));
  if (added.length === 0) return list;
  const all = [...list, ...added];
  if (list.length > 0 && added[0]!.pos < list[list.length - 1]!.pos) all.sort((a, b) => a.pos - b.pos);
  return all.slice(-SHOWN);
}

function bytesOf(message: StreamMessage): Uint8Array {
  if (!message.binary) return new TextEncoder().encode(message.text);
  const raw = atob(message.text);
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function hexOf(data: Uint8Array): string {
  return [...data.subarray(0, 4096)].map((b) => b.toString(16).padStart(2, '0')).join(' ') + (data.length > 4096 ? ' …' : '');
}

/**
 * One message of the list; drawn again only when it or Pretty changes (not for each batch that
 * arrives nor each key typed in the composer: a thousand messages are kept).
 */
const MessageRow = memo(function MessageRow({ message: m, pretty }: { message: StreamMessage; pretty: boolean }) {
  const data = useMemo(() => bytesOf(m), [m]);
  return (
    <li className={m.direction}>
      <span className="dir" title={m.direction}>{m.direction === 'sent' ? '↑' : '↓'}</span>
      <span className="muted time">{(m.timeMs / 1000).toFixed(3)} s</span>
      <span className="muted size">{humanSize(data.length)}</span>
      {m.event && <b className="event">{m.event}</b>}
      {m.topic && <span className="topic">{m.topic}{m.qos !== undefined ? ` · QoS ${m.qos}` : ''}{m.retain ? ' · retained' : ''}</span>}
      {m.properties && <span className="muted properties" title="MQTT 5 properties">{JSON.stringify(m.properties)}</span>}
      {m.binary ? <pre className="text">{hexOf(data)}</pre> : <MessageText text={m.text} bytes={data.length} pretty={pretty} />}
    </li>
  );
});

/** Whether this request connects: its kind has a composer, and (HTTP) its body is a GraphQL subscription. */
function connects(spec: LiveKindView | undefined, request: RequestFile): spec is LiveKindView {
  if (!spec) return false;
  if (spec.when === 'always') return true;
  return request.body.type === 'graphql' && /\bsubscription\b/.test(request.body.graphql?.query ?? '');
}

interface Composer {
  format: OutgoingMessage['format'];
  text: string;
  event: string;
  ack: boolean;
  topic: string;
  qos: number;
  retain: boolean;
  /** MCP operations: a tool or prompt name, its arguments (JSON text), a resource URI. */
  name: string;
  arguments: string;
  uri: string;
}

/** The composer starts from the request's draft: body.text and the kind's option section. */
function composerFrom(request: RequestFile, spec: LiveKindView): Composer {
  const section = (spec.options ? (request as unknown as Record<string, Record<string, unknown> | undefined>)[spec.options] : undefined) ?? {};
  const hex = section.encoding === 'hex';
  const format: Composer['format'] = hex && spec.formats.includes('hex') ? 'hex' : request.body.type === 'json' && spec.formats.includes('json') ? 'json' : (spec.formats[0] ?? 'text');
  return {
    format,
    text: request.body.text ?? '',
    event: typeof section.event === 'string' ? section.event : '',
    ack: section.ack === true,
    topic: typeof section.topic === 'string' ? section.topic : '',
    qos: typeof section.qos === 'number' ? section.qos : 0,
    retain: section.retain === true,
    name: typeof section.name === 'string' && section.call !== 'resource' ? section.name : '',
    arguments: typeof section.arguments === 'string' ? section.arguments : '',
    uri: typeof section.name === 'string' && section.call === 'resource' ? section.name : '',
  };
}

export function LivePanel({ request, path, onChange }: { request: RequestFile; path: string; onChange: (request: RequestFile) => void }) {
  const [kinds, setKinds] = useState<Record<string, LiveKindView> | null>(null);
  const [connection, setConnection] = useState<ConnectionView | null>(null);
  const [log, setLog] = useState<Placed[]>([]);
  const [skipped, setSkipped] = useState(0);
  const [ended, setEnded] = useState<ConnectionEnd | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [search, setSearch] = useState('');
  const [pretty, setPretty] = useState(true);
  const [composer, setComposer] = useState<Composer | null>(null);
  const connectionId = useRef<string | null>(null);
  /** The connect in progress: Cancel, or another request or kind, aborts it (its answer is then dropped). */
  const connecting = useRef<AbortController | null>(null);

  useEffect(() => {
    void liveKinds().then(setKinds, (e: Error) => setError(e.message));
  }, []);
  const spec = kinds?.[request.kind];
  const live = connects(spec, request);

  /** The composer as the request's draft last gave it: an edit in the editor reaches the fields it changes. */
  const fromDraft = useRef<Composer | null>(null);
  // Another request opened in the editor, or another kind chosen for it: the composer starts from
  // its draft; the connection is closed.
  useEffect(() => {
    fromDraft.current = live && spec ? composerFrom(request, spec) : null;
    setComposer(fromDraft.current);
    return () => {
      connecting.current?.abort();
      connecting.current = null;
      setBusy(false);
      const id = connectionId.current;
      connectionId.current = null;
      if (id) void api.post('/api/connections/close', { id }).catch(() => undefined);
      setConnection(null);
      setLog([]);
      setEnded(null);
      setError(null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, live, request.kind]);

  // The request's draft edited in the editor (Socket.IO's event in Options, the body…): the composer
  // takes the fields that changed there, and keeps what was typed in it for the others.
  const drafted = live && spec ? composerFrom(request, spec) : null;
  const draftedKey = JSON.stringify(drafted);
  useEffect(() => {
    const before = fromDraft.current;
    fromDraft.current = drafted;
    if (!drafted || !before) return;
    const changed = (Object.keys(drafted) as Array<keyof Composer>).filter((k) => drafted[k] !== before[k]);
    if (changed.length > 0) setComposer((c) => (c ? { ...c, ...Object.fromEntries(changed.map((k) => [k, drafted[k]])) } : c));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draftedKey]);

  useEffect(() => {
    const listener = (event: ConnectionEvent) => {
      if (event.connectionId !== connectionId.current) return;
      if (event.type === 'connectionMessages') {
        setLog((list) => merged(list, placed(event.messages, event.upTo)));
        if (event.skipped) setSkipped((n) => n + event.skipped);
      } else {
        setEnded(event.end);
      }
    };
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);

  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    if (!needle) return log;
    return log.filter(({ message: m }) => m.text.toLowerCase().includes(needle) || (m.event ?? '').toLowerCase().includes(needle) || (m.topic ?? '').toLowerCase().includes(needle));
  }, [log, search]);

  if (!live || !spec || !composer) return null;
  const open = connection !== null && ended === null;
  const has = (field: ComposerField) => spec.fields.includes(field);
  // Fields shown: those of send and those the operations take (MCP has operations only).
  const shows = (field: ComposerField) => has(field) || spec.operations.some((op) => op.params.includes(field));
  const set = (patch: Partial<Composer>) => setComposer({ ...composer, ...patch });

  const attempt = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const connect = async () => {
    const controller = new AbortController();
    connecting.current = controller;
    setBusy(true);
    setError(null);
    setLog([]);
    setSkipped(0);
    setEnded(null);
    try {
      const opened = await api.post<ConnectionView>('/api/connections', { path, request }, controller.signal);
      if (controller.signal.aborted) {
        // Given up while the answer was on its way: the connection is nobody's.
        void api.post('/api/connections/close', { id: opened.id }).catch(() => undefined);
        return;
      }
      connectionId.current = opened.id;
      setConnection(opened);
      // Messages that came before the id was known (a greeting) are in the server's list.
      const early = await api.get<{ messages: StreamMessage[]; upTo: number }>(`/api/connections/messages?id=${encodeURIComponent(opened.id)}`);
      setLog((list) => merged(list, placed(early.messages, early.upTo)));
      if (opened.ended) setEnded(opened.ended);
    } catch (e) {
      if (!controller.signal.aborted) setError((e as Error).message);
    } finally {
      if (connecting.current === controller) {
        connecting.current = null;
        setBusy(false);
      }
    }
  };
  const cancelConnect = () => connecting.current?.abort();
  const disconnect = () => attempt(async () => void (connection && (await api.post('/api/connections/close', { id: connection.id }))));
  const send = () =>
    attempt(async () => {
      const message: OutgoingMessage = {
        format: composer.format,
        text: composer.text,
        ...(has('event') ? { event: composer.event } : {}),
        ...(has('ack') ? { ack: composer.ack } : {}),
        ...(has('topic') ? { topic: composer.topic } : {}),
        ...(has('qos') ? { qos: composer.qos } : {}),
        ...(has('retain') ? { retain: composer.retain } : {}),
      };
      await api.post('/api/connections/send', { id: connection!.id, message });
    });
  const operate = (name: string, params: ComposerField[]) =>
    attempt(async () => {
      const values: Record<string, unknown> = { topic: composer.topic, qos: composer.qos, event: composer.event, name: composer.name, arguments: composer.arguments, uri: composer.uri };
      await api.post('/api/connections/call', { id: connection!.id, operation: name, params: Object.fromEntries(params.map((p) => [p, values[p]])) });
    });
  /** The composed message into the request: body.text (JSON or text body) and the kind's option section. */
  const saveDraft = () => {
    const binary = composer.format === 'hex' || composer.format === 'base64';
    let text = composer.text;
    // TCP and UDP keep bytes as hex pairs (`encoding: hex`): a Base64 message is kept as the same bytes in hex.
    if (spec.options === 'socket' && composer.format === 'base64') {
      const hex = base64AsHex(text);
      if (hex === undefined) return setError(`The message is not valid Base64 (${BASE64_RULE}), so no draft was saved; fix it, or pick another format.`);
      text = hex;
    }
    setError(null);
    const next = { ...request, body: { ...request.body, type: composer.format === 'json' ? 'json' : 'text', text } } as RequestFile;
    if (spec.options) {
      const record = next as unknown as Record<string, Record<string, unknown> | undefined>;
      const section = { ...(record[spec.options] ?? {}) };
      for (const field of spec.fields) section[field] = composer[field];
      // A hex draft is kept as hex pairs where the section reads body.text that way (`encoding`).
      if (spec.options === 'socket') section.encoding = binary ? 'hex' : 'text';
      record[spec.options] = section;
    }
    // The composer wrote this draft: it is not an edit for the composer to follow (a Base64 message
    // kept as hex pairs stays Base64 here).
    fromDraft.current = composerFrom(next, spec);
    onChange(next);
  };
  const canSaveHex = spec.options === 'socket';

  return (
    <section className="live-panel" aria-label="Live connection">
      <div className="live-bar">
        {open ? (
          <button onClick={() => void disconnect()} disabled={busy}>Disconnect</button>
        ) : (
          connecting.current ? (
            <button className="danger" onClick={cancelConnect} aria-label="Cancel connecting">Cancel</button>
          ) : (
            <button className="primary" onClick={() => void connect()} disabled={busy}>Connect</button>
          )
        )}
        <span className={`live-state ${open ? 'on' : ''}`} role="status">
          {open ? `Connected to ${connection!.url}` : ended ? `Ended: ${ended.message}` : busy ? 'Connecting…' : 'Not connected'}
        </span>
        <span className="spacer" />
        <input aria-label="Search messages" placeholder="Search messages" value={search} onChange={(e) => setSearch(e.target.value)} />
        <label title="JSON and XML messages indented and highlighted, as the response's Pretty view; off: as received"><input type="checkbox" checked={pretty} onChange={(e) => setPretty(e.target.checked)} /> Pretty</label>
      </div>
      {error && <div className="live-error" role="alert">{error}</div>}
      {(spec.formats.length > 0 || spec.operations.length > 0) && (
        <div className="composer">
          <div className="composer-fields">
            {spec.formats.length > 0 && (
              <select aria-label="Format" value={composer.format} onChange={(e) => set({ format: e.target.value as Composer['format'] })}>
                {spec.formats.map((f) => <option key={f} value={f}>{f === 'json' ? 'JSON' : f === 'hex' ? 'Hex' : f === 'base64' ? 'Base64' : 'Text'}</option>)}
              </select>
            )}
            {shows('name') && <input aria-label="Name" placeholder="Tool or prompt name" value={composer.name} onChange={(e) => set({ name: e.target.value })} />}
            {shows('arguments') && <input aria-label="Arguments" placeholder='Arguments (JSON object) {"a": 1}' value={composer.arguments} onChange={(e) => set({ arguments: e.target.value })} />}
            {shows('uri') && <input aria-label="URI" placeholder="Resource URI" value={composer.uri} onChange={(e) => set({ uri: e.target.value })} />}
            {has('event') && <input aria-label="Event" placeholder="Event" value={composer.event} onChange={(e) => set({ event: e.target.value })} />}
            {has('ack') && <label><input type="checkbox" aria-label="Ack" checked={composer.ack} onChange={(e) => set({ ack: e.target.checked })} /> Ack</label>}
            {has('topic') && <input aria-label="Topic" placeholder="Topic" value={composer.topic} onChange={(e) => set({ topic: e.target.value })} />}
            {has('qos') && (
              <select aria-label="QoS" value={composer.qos} onChange={(e) => set({ qos: Number(e.target.value) })}>
                {[0, 1, 2].map((q) => <option key={q} value={q}>QoS {q}</option>)}
              </select>
            )}
            {has('retain') && <label><input type="checkbox" aria-label="Retain" checked={composer.retain} onChange={(e) => set({ retain: e.target.checked })} /> Retain</label>}
            {spec.operations.map((op) => (
              <button key={op.name} disabled={!open || busy} onClick={() => void operate(op.name, op.params)}>{op.label}</button>
            ))}
          </div>
          {spec.formats.length > 0 && (<>
          <textarea
            aria-label="Message"
            rows={4}
            value={composer.text}
            placeholder={composer.format === 'hex' ? '48 65 6c 6c 6f' : composer.format === 'json' ? '{"type": "hello"}' : 'Message'}
            onChange={(e) => set({ text: e.target.value })}
            onKeyDown={(e) => {
              if (e.key !== 'Enter' || !(e.ctrlKey || e.metaKey)) return;
              // The composer's own Ctrl+Enter: not the page's "send the request".
              e.preventDefault();
              e.stopPropagation();
              if (open) void send();
            }}
          />
          <div className="composer-actions">
            <button className="primary" disabled={!open || busy} onClick={() => void send()}>Send</button>
            <button
              disabled={(composer.format === 'hex' || composer.format === 'base64') && !canSaveHex}
              title={(composer.format === 'hex' || composer.format === 'base64') && !canSaveHex ? 'This kind keeps its draft as text or JSON in body.text' : "Save the composed message into the request's body and options"}
              onClick={saveDraft}
            >
              Save as draft
            </button>
          </div>
          </>)}
        </div>
      )}
      <div className="live-count muted">
        {log.length} message{log.length === 1 ? '' : 's'}{skipped > 0 ? ` (${skipped} more not shown)` : ''}{search ? `, ${shown.length} matching` : ''}
      </div>
      <ol className="live-messages" aria-label="Messages" {...SCROLLING_LIST}>
        {/* Keyed by place: a message keeps its row (and its highlighting) as newer ones come and older ones go. */}
        {shown.map((p) => <MessageRow key={p.pos} message={p.message} pretty={pretty} />)}
      </ol>
    </section>
  );
}

/** A composer's Base64 as hex byte pairs (the bytes Ferry would send); undefined when it is not Base64. */
function base64AsHex(text: string): string | undefined {
  const compact = compactBase64(text);
  if (compact === undefined) return undefined;
  try {
    const binary = atob(compact.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, ''));
    return Array.from(binary, (c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join(' ');
  } catch {
    return undefined;
  }
}
