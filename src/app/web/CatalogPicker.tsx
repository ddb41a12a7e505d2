/**
 * The picker of what a request's target offers (issue 26): gRPC services and methods (picking one
 * sets the method and a JSON skeleton of its message), MCP tools, resources and prompts (picking
 * one sets the call and name; a form from its schema writes the arguments). Shown for the kinds
 * the server says have a list; a program this computer has not allowed is started only after the
 * user says so here (spec 5.4).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { CatalogEntry, KindCatalog, RequestFile } from '../shared/api.js';
import { api, ApiFailure } from './api.js';
import { formFields, formInputs, formValue, type FormInputs } from './schema-form.js';

type Kinds = Record<string, { options: string | null }>;
let kindsOnce: Promise<Kinds> | undefined;

interface Props {
  request: RequestFile;
  path: string;
  onChange: (request: RequestFile) => void;
}

interface Asked {
  message: string;
  token: string;
  program: { command: string; cwd: string; envNames: string[] };
}

export function CatalogPicker({ request, path, onChange }: Props) {
  const [kinds, setKinds] = useState<Kinds>({});
  const [catalog, setCatalog] = useState<KindCatalog | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [asked, setAsked] = useState<Asked | null>(null);
  const [picked, setPicked] = useState<CatalogEntry | null>(null);
  useEffect(() => {
    kindsOnce ??= api.get<Kinds>('/api/describe/kinds');
    void kindsOnce.then(setKinds, () => undefined);
  }, []);
  // The list being asked for: its answer belongs to the request it was asked for.
  const listing = useRef<AbortController | null>(null);
  // Another request, another list: one still being asked for is stopped (the server stops too),
  // and its answer or failure is not shown on this request's picker.
  useEffect(() => {
    listing.current?.abort();
    listing.current = null;
    setCatalog(null);
    setPicked(null);
    setError(null);
    setAsked(null);
    setLoading(false);
  }, [path, request.kind]);
  useEffect(() => () => listing.current?.abort(), []);
  const kind = kinds[request.kind];
  if (!kind) return null;

  const load = async () => {
    listing.current?.abort();
    const asking = new AbortController();
    listing.current = asking;
    setLoading(true);
    setError(null);
    setAsked(null);
    try {
      const answer = await api.post<KindCatalog>('/api/describe', { path, request }, asking.signal);
      if (!asking.signal.aborted) setCatalog(answer);
    } catch (e) {
      if (asking.signal.aborted) return;
      const body = (e as ApiFailure).body as { programToken?: string; program?: Asked['program'] } | undefined;
      if (body?.programToken && body.program) setAsked({ message: (e as Error).message, token: body.programToken, program: body.program });
      else setError((e as Error).message);
    } finally {
      if (listing.current === asking) {
        listing.current = null;
        setLoading(false);
      }
    }
  };
  const allow = async () => {
    if (!asked) return;
    try {
      await api.post('/api/programs/allow', { programToken: asked.token });
      await load();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const apply = (entry: CatalogEntry, patch: Record<string, unknown> = {}) => {
    const next: RequestFile = { ...request };
    if (entry.apply.method !== undefined) next.method = entry.apply.method;
    if (entry.apply.bodyText !== undefined) next.body = { ...request.body, type: request.body.type === 'none' ? 'text' : request.body.type, text: entry.apply.bodyText };
    const options = { ...(entry.apply.options ?? {}), ...patch };
    if (kind.options && Object.keys(options).length > 0) {
      const section = kind.options as keyof RequestFile;
      (next as Record<string, unknown>)[section] = { ...((request[section] as object | undefined) ?? {}), ...options };
    }
    onChange(next);
  };
  const groups = [...new Set(catalog?.entries.map((e) => e.group) ?? [])];
  return (
    <section className="catalog" aria-label="Methods and tools">
      <div className="catalog-head">
        <button onClick={() => void load()} disabled={loading}>{loading ? 'Listing…' : catalog ? 'Refresh list' : 'List methods and tools'}</button>
        {catalog && <span className="muted">{catalog.entries.length} from {catalog.source}</span>}
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {asked && (
        <div className="conflict" role="alertdialog" aria-label="Allow program">
          <p>This request starts a program that is not allowed on this computer yet:</p>
          <pre>{asked.program.command}</pre>
          <p className="muted">in {asked.program.cwd}{asked.program.envNames.length ? `, with env ${asked.program.envNames.join(', ')}` : ''}. Allow it only if you trust this workspace.</p>
          <button className="primary" onClick={() => void allow()}>Allow and start</button>
          <button onClick={() => setAsked(null)}>Don't start</button>
        </div>
      )}
      {catalog && (
        <div className="catalog-list">
          {groups.map((g) => (
            <div key={g}>
              <h4>{g}</h4>
              <ul>
                {catalog.entries.filter((e) => e.group === g).map((e) => (
                  <li key={e.name}>
                    <button className={picked === e ? 'on' : ''} title={e.description} onClick={() => { setPicked(e); apply(e); }}>
                      {e.name.slice(e.name.lastIndexOf('/') + 1) || e.name}
                    </button>
                    {e.note && <small className="muted"> {e.note}</small>}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
      {picked?.form && <SchemaForm key={picked.name} entry={picked} current={String(((request as Record<string, unknown>)[kind.options ?? ''] as Record<string, unknown> | undefined)?.[picked.form.option] ?? '')} onApply={(text) => apply(picked, { [picked.form!.option]: text })} />}
    </section>
  );
}

function SchemaForm({ entry, current, onApply }: { entry: CatalogEntry; current: string; onApply: (text: string) => void }) {
  const fields = useMemo(() => formFields(entry.form!.schema), [entry]);
  const [inputs, setInputs] = useState<FormInputs>(() => formInputs(fields, current));
  const [error, setError] = useState<string | null>(null);
  const set = (name: string, value: string | boolean) => setInputs({ ...inputs, [name]: value });
  const submit = () => {
    const read = formValue(fields, inputs);
    if ('error' in read) return setError(read.error);
    setError(null);
    onApply(JSON.stringify(read.value, null, 2));
  };
  return (
    <form className="schema-form" aria-label={`Arguments of ${entry.name}`} onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <h4>{entry.name}</h4>
      {entry.description && <p className="muted">{entry.description}</p>}
      {fields.length === 0 && <p className="muted">No arguments.</p>}
      {fields.map((f) => (
        <label key={f.name}>
          <span>{f.name}{f.required ? ' *' : ''} <small className="muted">{f.kind}</small></span>
          {f.kind === 'boolean' ? (
            <input type="checkbox" aria-label={f.name} checked={inputs[f.name] === true} onChange={(e) => set(f.name, e.target.checked)} />
          ) : f.kind === 'enum' ? (
            <select aria-label={f.name} value={String(inputs[f.name] ?? '')} onChange={(e) => set(f.name, e.target.value)}>
              <option value="">—</option>
              {f.options!.map((o) => <option key={o} value={o}>{o}</option>)}
            </select>
          ) : f.kind === 'json' ? (
            <textarea aria-label={f.name} rows={3} spellCheck={false} value={String(inputs[f.name] ?? '')} onChange={(e) => set(f.name, e.target.value)} />
          ) : (
            <input aria-label={f.name} inputMode={f.kind === 'string' ? undefined : 'decimal'} value={String(inputs[f.name] ?? '')} onChange={(e) => set(f.name, e.target.value)} />
          )}
          {f.description && <small className="muted">{f.description}</small>}
        </label>
      ))}
      {error && <p className="error" role="alert">{error}</p>}
      <button type="submit">Use these arguments</button>
    </form>
  );
}
