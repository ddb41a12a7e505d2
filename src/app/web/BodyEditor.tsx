/** Every body type of spec 2.5; the data of each type is kept, only `type` decides what is sent. */
import type { RequestFile } from '../shared/api.js';
import type { Language } from './CodeEditor.js';
import { CodeEditor } from './LazyCodeEditor.js';
import { KeyValueTable } from './KeyValueTable.js';
import { useGraphqlSchema } from './graphql-schemas.js';

type Body = RequestFile['body'];
const TYPES = ['none', 'json', 'text', 'xml', 'formUrlencoded', 'multipart', 'binary', 'graphql'] as const;

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

/** `url` picks the GraphQL schema the schema panel read for it (query completion and lint). */
export function BodyEditor({ body, onChange, variableNames, url = '' }: { body: Body; onChange: (b: Body) => void; variableNames: readonly string[]; url?: string }) {
  const schema = useGraphqlSchema(url);
  const set = (patch: Partial<Body>) => onChange({ ...body, ...patch });
  const graphql = body.graphql ?? { query: '', variables: '', operationName: '' };
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
            <label className="inline">Content-Type<input aria-label="Content type" value={body.contentType} onChange={(e) => set({ contentType: e.target.value })} /></label>
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
        <label className="inline">File (relative to the workspace folder)<input aria-label="Body file" value={body.file ?? ''} onChange={(e) => set({ file: e.target.value || undefined })} /></label>
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
