/** Import (spec 4.1): a file (chosen or dropped), pasted text (a collection, a document, a cURL command) or a URL; what will be created is shown before writing. */
import { useState } from 'react';
import type { ImportDone, ImportPreview, UnsavedImport } from '../shared/api.js';
import { api } from './api.js';
import { Modal } from './Modal.js';
import { useGuardedClose } from './guarded-close.js';
import { shownName } from '../../support/shown-name.js';

/**
 * A chosen file's text as `ferry import` reads a file (importers/detect.ts decodeText): UTF-8, or
 * UTF-16 with a byte order mark (environment exports from Windows). `File.text()` reads UTF-8
 * only, so a UTF-16 export came to the server as binary garbage and was refused.
 */
function fileText(bytes: Uint8Array): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  return new TextDecoder(encoding).decode(bytes); // the byte order mark is dropped
}

export function ImportDialog({ folders, initialInto = '', onClose, onDone, onOpenUnsaved }: { folders: string[]; initialInto?: string; onClose: () => void; onDone: (done: ImportDone) => void; onOpenUnsaved: (opened: UnsavedImport) => void }) {
  const [tab, setTab] = useState<'file' | 'paste' | 'url'>('paste');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [text, setText] = useState('');
  const [url, setUrl] = useState('');
  const [into, setInto] = useState(initialInto);
  const [baseUrl, setBaseUrl] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [done, setDone] = useState<ImportDone | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = () => ({ ...(tab === 'url' ? { url } : tab === 'file' ? { text: file?.text ?? '', fileName: file?.name } : { text }), into, ...(baseUrl ? { baseUrl } : {}) });
  const readFile = (chosen: File | undefined) => {
    if (!chosen) return;
    setPreview(null);
    void chosen.arrayBuffer().then((bytes) => setFile({ name: chosen.name, text: fileText(new Uint8Array(bytes)) }));
  };
  const run = async <T,>(work: () => Promise<T>) => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (e) {
      setError((e as Error).message);
      return undefined;
    } finally {
      setBusy(false);
    }
  };

  /** Typed or pasted text, a chosen file or a URL not imported yet: closing asks before dropping it. */
  const entered = !done && (text.trim() !== '' || file !== null || url.trim() !== '');
  /** A click beside the dialog, ×, or Esc: with something entered, only when the user says to discard it. */
  const close = useGuardedClose(entered, 'Discard what you entered to import? (Cancel to keep it.)', onClose);

  return (
    <Modal label="Import" className="wide" onClose={close}>
      {done ? (
        <div className="import-done" data-testid="import-done">
          <p>Imported <b>{shownName(done.name)}</b>: {done.requests} requests, {done.folders} folders, {done.environments} environments, {done.variables} workspace variables.</p>
          {done.notes.length > 0 && <ul className="notes">{done.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>}
          <button className="primary" onClick={onClose}>Done</button>
        </div>
      ) : (
        <>
          <nav className="tabs" role="group" aria-label="Import from">
            <button className={tab === 'file' ? 'on' : ''} aria-pressed={tab === 'file'} onClick={() => { setTab('file'); setPreview(null); }}>File</button>
            <button className={tab === 'paste' ? 'on' : ''} aria-pressed={tab === 'paste'} onClick={() => { setTab('paste'); setPreview(null); }}>Paste (cURL, collection, OpenAPI)</button>
            <button className={tab === 'url' ? 'on' : ''} aria-pressed={tab === 'url'} onClick={() => { setTab('url'); setPreview(null); }}>OpenAPI URL</button>
          </nav>
          {tab === 'file' ? (
            <label className="drop-zone" onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); readFile(e.dataTransfer.files[0]); }}>
              <input type="file" aria-label="Import file" onChange={(e) => readFile(e.target.files?.[0])} />
              <span className="muted">{file ? `${file.name} (${file.text.length.toLocaleString()} characters)` : 'Choose or drop a collection or environment export, an OpenAPI/Swagger document (JSON or YAML) or a saved cURL command.'}</span>
            </label>
          ) : tab === 'paste' ? (
            <textarea aria-label="Import text" rows={10} placeholder="curl https://api.example.com/users -H 'Accept: application/json'" value={text} onChange={(e) => { setText(e.target.value); setPreview(null); }} />
          ) : (
            <input aria-label="Import URL" placeholder="https://example.com/openapi.yaml" value={url} onChange={(e) => { setUrl(e.target.value); setPreview(null); }} />
          )}
          <div className="form-grid">
            <label>Import into<select aria-label="Import into" value={into} onChange={(e) => setInto(e.target.value)}>{['', ...folders].map((f) => <option key={f} value={f}>{f || '(workspace root)'}</option>)}</select></label>
            <label>Base URL (OpenAPI without servers)<input value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} /></label>
          </div>
          {error && <p className="error">{error}</p>}
          {preview && (
            <div className="preview-list" data-testid="import-preview">
              <p>{preview.kind}: <b>{shownName(preview.name)}</b> — {preview.requests} requests, {preview.folders} folders, {preview.environments} environments, {preview.variables} variables will be created:</p>
              <ul>{preview.items.map((item, i) => <li key={i}>{item}</li>)}</ul>
              {preview.notes.length > 0 && <ul className="notes">{preview.notes.map((n, i) => <li key={i}>{n}</li>)}</ul>}
            </div>
          )}
          <footer>
            <button disabled={busy} onClick={() => void run(() => api.post<ImportPreview>('/api/import/preview', input())).then((p) => p && setPreview(p))}>Preview</button>
            {/* A pasted cURL command opens as a new unsaved request (spec 4.1); a file's goes straight into the collection. */}
            {preview?.kind === 'curl' && tab === 'paste' ? (
              <button className="primary" disabled={busy} onClick={() => void run(() => api.post<UnsavedImport>('/api/import/curl', input())).then((u) => u && onOpenUnsaved(u))}>Open as new request</button>
            ) : (
              <button className="primary" disabled={busy || !preview} onClick={() => void run(() => api.post<ImportDone>('/api/import', input())).then((d) => { if (d) { setDone(d); onDone(d); } })}>Import</button>
            )}
          </footer>
        </>
      )}
    </Modal>
  );
}
