/** Every body type of spec 2.5; the data of each type is kept, only `type` decides what is sent. */
import type { RequestFile } from '../shared/api.js';
import type { Language } from './CodeEditor.js';
import { CodeEditor } from './LazyCodeEditor.js';
import { KeyValueTable } from './KeyValueTable.js';
import { useGraphqlSchema } from './graphql-schemas.js';
import { useState } from 'react';

type Body = RequestFile['body'];
const TYPES = ['none', 'json', 'text', 'xml', 'formUrlencoded', 'multipart', 'binary', 'graphql'] as const;

/** The default of `contentType` (2.5): what a text body is sent as, and what a binary body treats as none chosen. */
const TEXT_DEFAULT = 'text/plain';
/** What a binary body without a chosen type is sent as (request/body.ts). */
const BINARY_DEFAULT = 'application/octet-stream';
/** Offered for a binary body (any other type may be typed). */
const FILE_TYPES = [BINARY_DEFAULT, 'application/pdf', 'application/zip', 'application/gzip', 'application/x-protobuf', 'application/json', 'application/xml', 'text/csv', 'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/svg+xml', 'audio/mpeg', 'video/mp4'];

/** The editor's highlighting: JSON and XML by type, a text body by its Content-Type (HTML, XML or JSON). */
function editorLanguage(body: Body): Language {
  if (body.type === 'json') return 'json';
  if (body.type === 'xml') return 'xml';
  const type = (body.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html') return 'html';
  if (/[/+]xml$/.test(type)) return 'xml';
  if (/[/+]json$/.test(type)) return 'json';
  return 'text';
}

/**
 * A binary body's Content-Type: `contentType`, which keeps its text-body default `text/plain`
 * when none is chosen (the file then omits it and the file goes out as octet-stream). Empty
 * here is that default; what is being typed stays shown even when it is `text/plain` itself.
 */
function BinaryContentType({ value, onChange }: { value: string; onChange: (contentType: string) => void }) {
  const [draft, setDraft] = useState('');
  const stored = (typed: string) => (typed.trim() === '' ? TEXT_DEFAULT : typed);
  const shown = stored(draft) === value ? draft : value === TEXT_DEFAULT ? '' : value;
  return (
    <>
      <label className="inline">Content-Type
        <input aria-label="File content type" list="body-file-types" placeholder={`${BINARY_DEFAULT} (default)`} value={shown} onChange={(e) => { setDraft(e.target.value); onChange(stored(e.target.value)); }} />
      </label>
      <datalist id="body-file-types">{FILE_TYPES.map((t) => <option key={t} value={t} />)}</datalist>
      {shown.trim().toLowerCase() === TEXT_DEFAULT && (
        <p className="warn small" data-testid="binary-text-plain">
          text/plain is this field's default, which a binary body sends as {BINARY_DEFAULT}: to send the file as text/plain, add a Content-Type header row (Headers tab).
        </p>
      )}
    </>
  );
}

/** `url` picks the GraphQL schema the schema panel read for it (query completion and lint); `headers` are the request's own rows. */
export function BodyEditor({ body, onChange, variableNames, url = '', headers = [] }: { body: Body; onChange: (b: Body) => void; variableNames: readonly string[]; url?: string; headers?: RequestFile['headers'] }) {
  const schema = useGraphqlSchema(url);
  const set = (patch: Partial<Body>) => onChange({ ...body, ...patch });
  const graphql = body.graphql ?? { query: '', variables: '', operationName: '' };
  // A Content-Type row of the request's own headers is sent instead of the body's (request/prepare.ts).
  const headerType = headers.find((h) => h.enabled !== false && h.key.trim().toLowerCase() === 'content-type');
  const headerNote = headerType && (
    <p className="muted small" data-testid="body-type-header">
      Sent with the Content-Type header row instead: <code>{headerType.value}</code> (Headers tab).
    </p>
  );
  return (
    <div className="body-editor">
      <label className="inline">
        Body
        <select aria-label="Body type" value={body.type} onChange={(e) => set({ type: e.target.value as Body['type'] })}>
          {TYPES.map((t) => <option key={t}>{t}</option>)}
        </select>
      </label>
      {(body.type === 'json' || body.type === 'text' || body.type === 'xml') && (
        <>
          {body.type === 'text' && (
            <>
              <label className="inline">Content-Type<input aria-label="Content type" value={body.contentType} onChange={(e) => set({ contentType: e.target.value })} /></label>
              {headerNote}
            </>
          )}
          <CodeEditor label="Body" language={editorLanguage(body)} value={body.text ?? ''} onChange={(text) => set({ text })} variableNames={variableNames} />
        </>
      )}
      {body.type === 'formUrlencoded' && <KeyValueTable label="Form field" rows={body.form} onChange={(form) => set({ form })} />}
      {body.type === 'multipart' && (
        <table className="kv" aria-label="Multipart parts">
          <thead><tr><th /><th>Key</th><th>Value or file path</th><th>File</th><th>Content-Type</th><th /></tr></thead>
          <tbody>
            {[...body.multipart, { key: '', value: '', file: false, enabled: true }].map((part, i) => {
              const isNew = i === body.multipart.length;
              const update = (patch: Partial<Body['multipart'][number]>) =>
                set({ multipart: isNew ? [...body.multipart, { ...part, ...patch }] : body.multipart.map((p, j) => (j === i ? { ...p, ...patch } : p)) });
              return (
                <tr key={i}>
                  <td>{!isNew && <input type="checkbox" aria-label={`Part ${i + 1} enabled`} checked={part.enabled} onChange={(e) => update({ enabled: e.target.checked })} />}</td>
                  <td><input value={part.key} placeholder="key" aria-label={`Part key ${i + 1}`} onChange={(e) => update({ key: e.target.value })} /></td>
                  <td><input value={part.value} placeholder={part.file ? 'path in the workspace' : 'value'} aria-label={`Part ${part.file ? 'file path' : 'value'} ${i + 1}`} onChange={(e) => update({ value: e.target.value })} /></td>
                  <td><input type="checkbox" aria-label={`Part ${i + 1} is a file`} checked={part.file} onChange={(e) => update({ file: e.target.checked })} /></td>
                  <td><input value={part.contentType ?? ''} placeholder="auto" aria-label={`Part content type ${i + 1}`} onChange={(e) => update({ contentType: e.target.value || undefined })} /></td>
                  <td>{!isNew && <button className="icon" title="Remove" aria-label={`Remove part ${part.key || i + 1}`} onClick={() => set({ multipart: body.multipart.filter((_, j) => j !== i) })}>×</button>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {body.type === 'binary' && (
        <>
          <label className="inline">File (relative to the workspace folder)<input aria-label="Body file" value={body.file ?? ''} onChange={(e) => set({ file: e.target.value || undefined })} /></label>
          <BinaryContentType value={body.contentType ?? TEXT_DEFAULT} onChange={(contentType) => set({ contentType })} />
          {headerNote}
        </>
      )}
      {body.type === 'graphql' && (
        <div className="graphql">
          <h4>Query</h4>
          <CodeEditor label="GraphQL query" language="graphql" graphqlSchema={schema} value={graphql.query} onChange={(query) => set({ graphql: { ...graphql, query } })} variableNames={variableNames} />
          <h4>Variables (JSON)</h4>
          <CodeEditor label="GraphQL variables" language="json" minHeight={80} value={graphql.variables} onChange={(variables) => set({ graphql: { ...graphql, variables } })} variableNames={variableNames} />
          <label className="inline">Operation name<input value={graphql.operationName} onChange={(e) => set({ graphql: { ...graphql, operationName: e.target.value } })} /></label>
          {(/\bsubscription\b/.test(graphql.query) || graphql.transport || graphql.subscriptionUrl || graphql.connectionParams) && (
            // Spec 2.5's subscription fields; shown once the query subscribes (or one is set). Empty = left out of the file.
            <fieldset className="graphql-subscription">
              <legend>Subscription</legend>
              <label className="inline">Transport
                <select aria-label="Subscription transport" value={graphql.transport ?? ''} onChange={(e) => set({ graphql: { ...graphql, transport: (e.target.value || undefined) as typeof graphql.transport } })}>
                  <option value="">websocket (graphql-transport-ws)</option>
                  <option value="websocketLegacy">websocketLegacy (subscriptions-transport-ws)</option>
                  <option value="sse">sse (GraphQL over SSE)</option>
                </select>
              </label>
              <label className="inline">Subscription URL<input aria-label="Subscription URL" placeholder="empty: the request's URL" value={graphql.subscriptionUrl ?? ''} onChange={(e) => set({ graphql: { ...graphql, subscriptionUrl: e.target.value || undefined } })} /></label>
              <label className="inline">Connection params (JSON)<input aria-label="Connection params" placeholder='{"authToken": "{{token}}"}' value={graphql.connectionParams ?? ''} onChange={(e) => set({ graphql: { ...graphql, connectionParams: e.target.value || undefined } })} /></label>
            </fieldset>
          )}
        </div>
      )}
    </div>
  );
}
