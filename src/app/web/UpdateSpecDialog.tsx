/**
 * Update from API spec (spec 4.5) for a folder imported from an OpenAPI document: choose the new
 * version (where it was imported from, pre-filled; a URL; a file; pasted text), Preview changes
 * (nothing written): Added, Changed (the fields to update, and your edits that are kept: the
 * conflicts), No longer in the spec (kept, marked), new environment variables (a renamed path
 * parameter's with "your value of" the old one), the recorded source when it changes; then Update, Done.
 */
import { useEffect, useState } from 'react';
import type { UpdatePreview } from '../shared/api.js';
import { api } from './api.js';
import { Modal } from './Modal.js';
import { shownName } from '../../support/shown-name.js';

type Tab = 'known' | 'url' | 'file' | 'paste';

export function UpdateSpecDialog({ folder, onClose, onDone }: { folder: string; onClose: () => void; onDone: () => void }) {
  const [known, setKnown] = useState<{ name: string; source: string | null; problem?: string } | null>(null);
  const [tab, setTab] = useState<Tab>('known');
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState('');
  const [plan, setPlan] = useState<UpdatePreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api.get<{ name: string; source: string | null; problem?: string }>(`/api/update/source?folder=${encodeURIComponent(folder)}`).then((k) => {
      setKnown(k);
      if (!k.source) setTab('file');
    }, (e: Error) => setError(e.message));
  }, [folder]);

  const input = () => ({ folder, ...(tab === 'url' ? { url } : tab === 'file' ? { text, name: fileName } : tab === 'paste' ? { text } : {}) });
  const run = async (work: () => Promise<UpdatePreview>) => {
    setBusy(true);
    setError(null);
    try {
      setPlan(await work());
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const pickTab = (next: Tab) => { setTab(next); setPlan(null); };
  const readFile = (file: File | undefined) => {
    if (!file) return;
    setPlan(null);
    setFileName(file.name);
    void file.text().then(setText);
  };

  return (
    <Modal label="Update from API spec" title={<>Update “{shownName(known?.name ?? folder)}” from its API spec</>} className="wide" onClose={onClose}>
      {plan?.written ? null : (
        <>
          <nav className="tabs">
            {known?.source && <button className={tab === 'known' ? 'on' : ''} onClick={() => pickTab('known')}>Where it came from</button>}
            <button className={tab === 'url' ? 'on' : ''} onClick={() => pickTab('url')}>URL</button>
            <button className={tab === 'file' ? 'on' : ''} onClick={() => pickTab('file')}>File</button>
            <button className={tab === 'paste' ? 'on' : ''} onClick={() => pickTab('paste')}>Paste</button>
          </nav>
          {tab === 'known' && known?.source && <p>The new version is read from <code>{known.source}</code>, where the folder was imported from.</p>}
          {known && !known.source && known.problem && <p className="muted">{known.problem}</p>}
          {tab === 'url' && <input aria-label="Document URL" placeholder="https://example.com/openapi.yaml" value={url} onChange={(e) => { setUrl(e.target.value); setPlan(null); }} />}
          {tab === 'file' && (
            <label
              className="drop-zone"
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => { e.preventDefault(); readFile(e.dataTransfer.files[0]); }}
            >
              <input type="file" aria-label="Document file" accept=".json,.yaml,.yml,application/json,application/yaml" onChange={(e) => readFile(e.target.files?.[0])} />
              <span className="muted">{fileName ? `${fileName} (${text.length.toLocaleString()} characters)` : 'Choose or drop the new version of the document (JSON or YAML).'}</span>
            </label>
          )}
          {tab === 'paste' && <textarea aria-label="Document text" rows={8} placeholder="openapi: 3.0.3 …" value={text} onChange={(e) => { setText(e.target.value); setPlan(null); }} />}
        </>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      {plan && <Plan plan={plan} />}
      <footer>
        {plan?.written || plan?.upToDate ? (
          <button className="primary" onClick={() => { onDone(); onClose(); }}>Done</button>
        ) : (
          <>
            <button disabled={busy || (tab !== 'known' && tab !== 'url' && !text) || (tab === 'url' && !url)} onClick={() => void run(() => api.post<UpdatePreview>('/api/update/preview', input()))}>Preview changes</button>
            <button className="primary" disabled={busy || !plan} onClick={() => void run(() => api.post<UpdatePreview>('/api/update/apply', { planId: plan!.planId }))}>Update</button>
          </>
        )}
      </footer>
    </Modal>
  );
}

function Plan({ plan }: { plan: UpdatePreview }) {
  const conflicts = plan.changed.filter((c) => c.kept.length > 0).length + (plan.folderChange?.kept.length ? 1 : 0);
  return (
    <div className="update-plan preview-list" data-testid="update-plan">
      <p>
        {plan.written ? <b>Updated.</b> : <b>Preview (nothing written yet)</b>} from <code>{plan.from}</code>
        {!plan.upToDate && <> — {plan.added.length} added, {plan.changed.length + (plan.folderChange ? 1 : 0)} changed, {plan.removed.length} no longer in the spec, {conflicts} with your edits kept</>}
      </p>
      {plan.warnings.map((w, i) => <p key={i} className="warn">Warning: {w}</p>)}
      {plan.upToDate && <p>The folder already matches this version.</p>}
      {plan.added.length > 0 && (
        <><h4>Added ({plan.added.length})</h4><ul>{plan.added.map((r) => <li key={r.path} className="added">+ {r.operation} {r.name} <span className="muted">{r.path}</span></li>)}</ul></>
      )}
      {(plan.changed.length > 0 || plan.folderChange) && (
        <>
          <h4>Changed ({plan.changed.length + (plan.folderChange ? 1 : 0)})</h4>
          <ul>
            {plan.folderChange && <Change title={`folder settings of “${shownName(plan.name)}”`} update={plan.folderChange.update} kept={plan.folderChange.kept} />}
            {plan.changed.map((c) => (
              <Change key={c.path} title={`${c.operation} ${shownName(c.name)}`} path={c.path} update={c.update} kept={c.kept} restored={c.restored} documentName={c.documentName} />
            ))}
          </ul>
        </>
      )}
      {plan.removed.length > 0 && (
        <><h4>No longer in the spec (kept, marked) ({plan.removed.length})</h4><ul>{plan.removed.map((r) => <li key={r.path} className="removed">− {r.operation} {r.name} <span className="muted">{r.path}</span></li>)}</ul></>
      )}
      {plan.newVariables.length > 0 && (
        <><h4>New environment variables in “{plan.environment}”{plan.createsEnvironment ? ' (a new environment)' : ''}</h4><ul>{plan.newVariables.map((k) => <li key={k} className="added">+ {k}{plan.carriedVariables?.[k] !== undefined && <span className="muted"> (your value of {plan.carriedVariables[k]})</span>}</li>)}</ul></>
      )}
      {plan.updatedVariables.length > 0 && (
        <><h4>Environment variables updated in “{plan.environment}”</h4><ul>{plan.updatedVariables.map((k) => <li key={k}>~ {k}</li>)}</ul></>
      )}
      {plan.documentChanged && !plan.upToDate && <p className="muted">The kept document in specs/ is replaced by this version.</p>}
      {plan.source !== undefined && !plan.upToDate && <p className="muted" data-testid="update-source">The recorded source becomes <code>{plan.source}</code> (where the next update reads the new version).</p>}
      {plan.notes.length > 0 && <ul className="notes">{plan.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>}
    </div>
  );
}

function Change({ title, path, update, kept, restored, documentName }: { title: string; path?: string; update: string[]; kept: string[]; restored?: boolean; documentName?: string }) {
  return (
    <li>
      ~ {title} {path && <span className="muted">{path}</span>}
      {restored && <div className="added">back in the spec: the “no longer in the spec” mark is removed</div>}
      {documentName !== undefined && <div className="muted">the document now calls it “{documentName}”; the request keeps its name</div>}
      {update.length > 0 && <div>update: {update.join(', ')}</div>}
      {kept.length > 0 && <div className="kept" data-testid="kept">kept (your edits): {kept.join(', ')}</div>}
    </li>
  );
}
