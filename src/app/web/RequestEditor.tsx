/**
 * The request editor, for every kind: name, kind, method (as the kind reads it), URL, params,
 * headers, body, auth, settings, scripts, docs, and the kind's own options (spec 2.8) drawn from
 * the format's declaration (`GET /api/kinds`, kinds.ts): no kind is named here.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { api } from './api.js';
import { useDraftNotices } from './draft-notices.js';
import type { InheritedAuthView, KindView, RequestFile } from '../shared/api.js';
import { AuthEditor, type GetTokenCall } from './AuthEditor.js';
import { BodyEditor } from './BodyEditor.js';
import { CodeEditor } from './LazyCodeEditor.js';
import { KeyValueTable, type Row } from './KeyValueTable.js';
import { paramFields, paramRows, pathParamNames } from './url-params.js';
import { KindOptions } from './KindOptions.js';
import { TabList, tabPanel } from './TabList.js';
import { urlPlaceholder, useKinds, useSettingsFields, withKind } from './kinds.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const TABS = ['Options', 'Params', 'Headers', 'Body', 'Auth', 'Settings', 'Scripts', 'Docs'] as const;
type Tab = (typeof TABS)[number];

interface Props {
  request: RequestFile;
  /** The request's file under `requests/`, named in its notices. */
  path?: string | null;
  onChange: (request: RequestFile) => void;
  onSend: () => void;
  onCancel: () => void;
  /** OAuth 2.0 "get token" without sending. */
  onGetToken?: GetTokenCall;
  sending: boolean;
  /** The workspace's and the active environment's variable names; null until they have been read. */
  variableNames: readonly string[] | null;
  /** Moves when workspace files change on disk: what `inherit` auth gives is asked for again. */
  diskChanges?: number;
  /** Opens a folder's settings (`''`: the workspace's), from the auth an `inherit` gets. */
  onOpenSettings?: (folder: string) => void;
}

/** The kind's requests, for a sentence: `TCP requests`. */
function kindsOf(view: KindView): string {
  return `${view.noun.replace(/^an? /, '')}s`;
}

/** What a kind that sends only some auth does with it (KindRules.sendsAuth), said where the auth is edited. */
function kindAuthNote(view: KindView): string {
  const kinds = kindsOf(view);
  return view.sendsAuth === 'basic'
    ? `Only Basic auth is sent by ${kinds} (the user name and password of CONNECT); another type set here fails the send. An inherited auth of another type is left out.`
    : `No auth is sent by ${kinds}: an auth set here fails the send, and an inherited one is left out.`;
}

/**
 * `{{names}}` in these texts that neither the workspace nor the active environment defines
 * (dynamic values, `{{$uuid}}`, are always there): sent as written unless a script or a data
 * file sets them, which is rarely what was meant (a typo, the wrong environment).
 */
function undefinedNames(texts: string[], known: readonly string[]): string[] {
  const names = texts.flatMap((text) => [...text.matchAll(/\{\{\s*([^{}\s]+)\s*\}\}/g)].map((m) => m[1]!));
  return [...new Set(names)].filter((name) => !name.startsWith('$') && !known.includes(name));
}

export function RequestEditor({ request, path, onChange, onSend, onCancel, onGetToken, sending, variableNames: namesRead, diskChanges = 0, onOpenSettings }: Props) {
  const variableNames = namesRead ?? [];
  const [tab, setTab] = useState<Tab>('Params');
  const panel = useId();
  const notices = useRequestNotices(request, path);
  const kinds = useKinds();
  const view = kinds[request.kind];
  const methods = view?.methodChoices ?? METHODS;
  // The kind's option section (spec 2.8), when it has one: its own tab, first.
  const optionKey = view?.options as keyof RequestFile | undefined;
  const tabs = TABS.filter((t) => t !== 'Options' || view?.fields);
  const shownTab: Tab = tabs.includes(tab) ? tab : 'Params';
  const inherited = useInheritedAuth(path, shownTab === 'Auth' && request.auth.type === 'inherit', diskChanges);
  const set = (patch: Partial<RequestFile>) => onChange({ ...request, ...patch });
  // The table as last set here: a switched-off row keeps its place (paramRows). Not keyed by the
  // path, which a rename changes; only rows equal in key, value and description are placed by it.
  const shownParams = useRef<Row[]>([]);
  const params = paramRows(request.url, request.disabledParams, request.paramDescriptions, shownParams.current);
  const setParams = (rows: Row[]) => {
    shownParams.current = rows;
    set(paramFields(request.url, rows));
  };
  const pathNames = pathParamNames(request.url);
  const pathRows = pathNames.map((key) => request.pathParams.find((p) => p.key === key) ?? { key, value: '', enabled: true, description: '' });
  const unknown = namesRead === null ? [] : undefinedNames([request.url, ...request.headers.filter((h) => h.enabled).flatMap((h) => [h.key, h.value]), ...pathRows.map((p) => p.value)], namesRead);
  const counts: Partial<Record<Tab, number>> = {
    Params: params.length,
    Headers: request.headers.length,
  };
  return (
    <section className="editor" aria-label="Request editor">
      <div className="name-row">
        <input className="request-name" aria-label="Request name" value={request.name} onChange={(e) => set({ name: e.target.value })} />
        <select className="kind-badge" aria-label="Kind" title="The request's kind: what it sends and which options it has" value={request.kind} onChange={(e) => onChange(withKind(request, e.target.value, kinds))}>
          {[...new Set([...Object.keys(kinds), request.kind])].map((k) => <option key={k} value={k}>{k}</option>)}
        </select>
      </div>
      <div className="url-row">
        {view?.method === 'none' ? null : view?.method === 'text' && !view.methodChoices ? (
          <input className="method-text" aria-label="Method" placeholder="package.Service/Method" spellCheck={false} value={request.method} onChange={(e) => set({ method: e.target.value })} />
        ) : (
          <select aria-label="Method" value={request.method.toUpperCase()} onChange={(e) => set({ method: e.target.value })}>
            {[...new Set([...methods, request.method.toUpperCase()])].map((m) => <option key={m}>{m}</option>)}
          </select>
        )}
        <input
          className="url"
          aria-label="URL"
          placeholder={urlPlaceholder(view)}
          value={request.url}
          spellCheck={false}
          onChange={(e) => set({ url: e.target.value })}
        />
        {sending ? (
          <button className="primary danger" onClick={onCancel}>Cancel</button>
        ) : (
          <button className="primary" onClick={onSend} title="Send (Ctrl+Enter)">Send</button>
        )}
      </div>
      {unknown.length > 0 && (
        <p className="warn var-hint" role="status" data-testid="undefined-variables">
          Not defined in the workspace or the active environment: {unknown.map((n) => `{{${n}}}`).join(', ')}. Sent as written unless a script or a data file sets {unknown.length > 1 ? 'them' : 'it'}.
        </p>
      )}
      {notices.length > 0 && (
        <p className="warn var-hint" role="status" data-testid="request-notices">{notices.join(' ')}</p>
      )}
      <TabList label="Parts of the request" tabs={tabs} current={shownTab} onPick={setTab} badge={(t) => (counts[t] ? <small> {counts[t]}</small> : null)} panel={panel} />
      <div className="tab-body" {...tabPanel(panel, shownTab)}>
        {shownTab === 'Options' && optionKey && view?.fields && (
          <KindOptions name={String(optionKey)} fields={view.fields} value={request[optionKey] as Record<string, unknown> | undefined} onChange={(section) => set({ [optionKey]: section } as Partial<RequestFile>)} />
        )}
        {shownTab === 'Params' && (
          <>
            <KeyValueTable label="Query parameter" rows={params} onChange={setParams} />
            {pathRows.length > 0 && (
              <>
                <h4>Path parameters</h4>
                <KeyValueTable label="Path parameter" fixedKeys rows={pathRows} onChange={(rows) => set({ pathParams: rows })} />
              </>
            )}
          </>
        )}
        {shownTab === 'Headers' && view?.sendsHeaders === false && <p className="muted" data-testid="kind-headers-note">{`No headers are sent by ${kindsOf(view)}: rows here are kept in the file, for when the request is switched back to a kind that sends them.`}</p>}
        {shownTab === 'Headers' && <KeyValueTable label="Header" rows={request.headers} onChange={(rows) => set({ headers: rows })} />}
        {shownTab === 'Body' && <BodyEditor body={request.body} onChange={(body) => set({ body })} variableNames={variableNames} url={request.url} headers={request.headers} />}
        {shownTab === 'Auth' && view?.sendsAuth && <p className="muted" data-testid="kind-auth-note">{kindAuthNote(view)}</p>}
        {shownTab === 'Auth' && <AuthEditor key={path} auth={request.auth as { type: string; [k: string]: unknown }} onChange={(auth) => set({ auth: auth as RequestFile['auth'] })} onGetToken={onGetToken} inherited={inherited} onOpenSettings={onOpenSettings} />}
        {shownTab === 'Settings' && <SettingsEditor request={request} onChange={onChange} />}
        {shownTab === 'Scripts' && (
          <div className="scripts">
            <h4>Pre-request</h4>
            <CodeEditor label="Pre-request script" language="javascript" value={request.scripts?.preRequest ?? ''} onChange={(v) => set({ scripts: { ...request.scripts, preRequest: v || undefined } })} />
            <h4>Post-response (tests)</h4>
            <CodeEditor label="Post-response script" language="javascript" value={request.scripts?.postResponse ?? ''} onChange={(v) => set({ scripts: { ...request.scripts, postResponse: v || undefined } })} />
          </div>
        )}
        {shownTab === 'Docs' && <DocsEditor text={request.docs ?? ''} onChange={(docs) => set({ docs: docs || undefined })} />}
      </div>
    </section>
  );
}

function SettingsEditor({ request, onChange }: { request: RequestFile; onChange: (r: RequestFile) => void }) {
  const s = request.settings ?? {};
  const fields = useSettingsFields();
  const set = (patch: Record<string, unknown>) => {
    const next = { ...s, ...patch } as Record<string, unknown>;
    for (const k of Object.keys(next)) if (next[k] === undefined) delete next[k];
    onChange({ ...request, settings: Object.keys(next).length ? (next as RequestFile['settings']) : undefined });
  };
  const tri = (value: boolean | undefined) => (value === undefined ? 'default' : value ? 'on' : 'off');
  const fromTri = (text: string) => (text === 'default' ? undefined : text === 'on');
  const num = (text: string) => (text.trim() === '' ? undefined : Math.max(0, Math.floor(Number(text)) || 0));
  return (
    <div className="form-grid">
      <label>Timeout (ms, 0 = none)<input type="number" min={0} value={s.timeoutMs ?? ''} placeholder="app setting" onChange={(e) => set({ timeoutMs: num(e.target.value) })} /></label>
      <label>Follow redirects<select value={tri(s.followRedirects)} onChange={(e) => set({ followRedirects: fromTri(e.target.value) })}><option>default</option><option>on</option><option>off</option></select></label>
      <label>Max redirects<input type="number" min={0} value={s.maxRedirects ?? ''} placeholder="app setting" onChange={(e) => set({ maxRedirects: num(e.target.value) })} /></label>
      <label>Verify TLS<select value={tri(s.verifyTls)} onChange={(e) => set({ verifyTls: fromTri(e.target.value) })}><option>default</option><option>on</option><option>off</option></select></label>
      <label>HTTP version<select value={s.httpVersion ?? 'default'} onChange={(e) => set({ httpVersion: e.target.value === 'default' ? undefined : e.target.value })}>{['default', 'auto', 'http1', 'http2', 'http3'].map((v) => <option key={v}>{v}</option>)}</select></label>
      <label>Decompress<select value={tri(s.decompress)} onChange={(e) => set({ decompress: fromTri(e.target.value) })}><option>default</option><option>on</option><option>off</option></select></label>
      <label>Proxy<select value={s.proxy === false ? 'direct' : 'default'} onChange={(e) => set({ proxy: e.target.value === 'direct' ? false : undefined })}><option value="default">app setting</option><option value="direct">direct (no proxy)</option></select></label>
      {fields && (
        <>
          <div className="settings-section">
            <h4>Stream <small className="muted">when a send or a run stops reading a stream (SSE, WebSocket, MQTT…): an event name, most events, time limit</small></h4>
            <KindOptions name="stream" fields={fields.stream} value={s.stream as Record<string, unknown> | undefined} onChange={(v) => set({ stream: v })} />
          </div>
          <div className="settings-section">
            <h4>
              <label className="check"><input type="checkbox" aria-label="Repeat" checked={s.repeat !== undefined} onChange={(e) => set({ repeat: e.target.checked ? {} : undefined })} /> Repeat</label>
              <small className="muted"> collection runs send it again until the condition holds (empty: until its tests pass)</small>
            </h4>
            {s.repeat && <KindOptions name="repeat" fields={fields.repeat} value={s.repeat as Record<string, unknown>} onChange={(v) => set({ repeat: v })} />}
          </div>
        </>
      )}
    </div>
  );
}

/** Markdown notes: the text, and a plain preview (headings, lists, code) that never runs HTML. */
export function DocsEditor({ text, onChange }: { text: string; onChange: (t: string) => void }) {
  const [preview, setPreview] = useState(false);
  return (
    <div className="docs">
      <button onClick={() => setPreview(!preview)}>{preview ? 'Edit' : 'Preview'}</button>
      {preview ? (
        <div className="markdown">
          {text.split('\n').map((line, i) => {
            const heading = /^(#{1,6})\s+(.*)$/.exec(line);
            if (heading) return <strong key={i} className={`h${heading[1]!.length}`}>{heading[2]}</strong>;
            if (/^\s*[-*]\s+/.test(line)) return <li key={i}>{line.replace(/^\s*[-*]\s+/, '')}</li>;
            return <p key={i}>{line}</p>;
          })}
        </div>
      ) : (
        <textarea aria-label="Docs" value={text} onChange={(e) => onChange(e.target.value)} rows={12} />
      )}
    </div>
  );
}

/**
 * What `inherit` auth gives the request at `path` now (the server resolves it as a send does),
 * asked for while `wanted` (the Auth tab shows inherit) and again when files change on disk.
 */
function useInheritedAuth(path: string | null | undefined, wanted: boolean, diskChanges: number): InheritedAuthView | null {
  const [inherited, setInherited] = useState<InheritedAuthView | null>(null);
  useEffect(() => {
    if (!wanted || !path) {
      setInherited(null);
      return undefined;
    }
    let current = true;
    api.get<InheritedAuthView>(`/api/request/inherited-auth?path=${encodeURIComponent(path)}`).then(
      (view) => current && setInherited(view),
      () => current && setInherited(null), // its folder gone: the plain sentence says enough
    );
    return () => {
      current = false;
    };
  }, [path, wanted, diskChanges]);
  return inherited;
}

/**
 * What the file has that requests do not (a typo: `hedaers:`), as `ferry run` says it: asked for
 * again as the draft changes, once typing pauses. A draft the format refuses: Save says why.
 */
function useRequestNotices(request: RequestFile, path: string | null | undefined): string[] {
  return useDraftNotices('/api/request/notices', path ? { path, request } : undefined, [request, path]);
}
