/**
 * The server editor (spec 2.11): a form for the fields every kind has (name, kind, host, port, TLS,
 * autoStart, the Markdown notes `docs`) and the kind's own section (routes, rules, records, tools, events, the relay's
 * target…) as YAML. Saving sends both to the app's server, which checks them with the format's
 * schema and writes the file through the workspace writer; a refusal comes back with its place
 * (a line of the YAML, or a field of the form) and nothing is written. The hint above the YAML
 * is the kind's own (`GET /api/server-kinds`). `diskChanges` moves when workspace files change on
 * disk (git, an editor, another tab): the file is read again, and taken at once unless the editor
 * holds edits, which then meet the conflict bar at once, not only when Save is refused.
 */
import { lazy, Suspense, useRef, useState } from 'react';
import type { ServerEditorView, ServerEditProblem, ServerFile } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import { ConflictBar } from './ConflictBar.js';
import type { YamlProblem } from './YamlEditor.js';
import { Modal } from './Modal.js';
import { useGuardedClose } from './guarded-close.js';
import { useDiskReread } from './disk-reread.js';
import type { ServerKinds } from './server-kinds.js';
import { saveOnCtrlS } from './save-shortcut.js';
import { TYPED_SINCE_SAVE, useEditorSave } from './save-answer.js';
import { shownName } from '../../support/shown-name.js';
import { DocsEditor } from './RequestEditor.js';

// CodeMirror loads when an editor is first shown, not with the page (page-usable time, issue 19).
const YamlEditor = lazy(() => import('./YamlEditor.js').then((m) => ({ default: m.YamlEditor })));

type Common = Pick<ServerFile, 'name' | 'kind' | 'host' | 'port' | 'autoStart'> & { tls: boolean; certPath: string; keyPath: string; docs: string };

const commonOf = (v: ServerEditorView): Common => ({
  name: v.server.name, kind: v.server.kind, host: v.server.host, port: v.server.port, autoStart: v.server.autoStart,
  tls: v.server.tls?.enabled === true, certPath: v.server.tls?.certPath ?? '', keyPath: v.server.tls?.keyPath ?? '', docs: v.server.docs ?? '',
});

export function ServerEditor({ id, kinds, diskChanges, onClose, onSaved }: { id: string; kinds: ServerKinds; diskChanges: number; onClose: () => void; onSaved: (id: string) => void }) {
  const [view, setView] = useState<ServerEditorView | null>(null);
  const [common, setCommon] = useState<Common | null>(null);
  const [yamlText, setYamlText] = useState('');
  const [problem, setProblem] = useState<ServerEditProblem | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  /** The file's version after a save was refused (changed on disk since it was read): taken, or saved over. */
  const [conflict, setConflict] = useState<ServerEditorView | null>(null);
  /** The problem on screen is the save's refusal for this conflict (409): it says why, so the bar says nothing of its own. */
  const [refusedForConflict, setRefusedForConflict] = useState(false);
  /** Save's answer keeps what was typed while it was on its way (save-answer.ts). */
  const saves = useEditorSave({ common, yamlText });
  const sendSave = saves.save;

  /** The server as the file held it when last read (or as the user chose to overwrite it): a save is checked against it. */
  const base = useRef<ServerFile | undefined>(undefined);
  /** The file's version becomes the base; `edits`: and what the editor shows (not when the user typed on meanwhile). */
  const show = (v: ServerEditorView, edits = true) => {
    base.current = v.server;
    setView(v);
    if (!edits) return;
    setCommon(commonOf(v));
    setYamlText(v.sectionYaml);
  };

  const section = view && common ? view.sections[common.kind] ?? '' : '';
  /** Saves over `over`, the server as read: the app's server refuses it (409) when the file changed since. */
  const save = async (over = base.current) => {
    if (!view || !common) return;
    setProblem(null);
    setSaved(null);
    setWarning(null);
    setConflict(null);
    setRefusedForConflict(false);
    try {
      const done = await sendSave<ServerEditorView & { warning?: string }>((sent, after) => {
        const { tls, certPath, keyPath, ...rest } = sent.common!;
        // After a save it follows: that answer's file (its id, after a rename) is the one written over.
        const file = after ?? view;
        // Empty paths are left out: a self-signed certificate for localhost is used then (2.11).
        const server = { ...rest, tls: { ...file.server.tls, enabled: tls, certPath: certPath || undefined, keyPath: keyPath || undefined } };
        return api.put<ServerEditorView & { warning?: string }>('/api/server', { id: after?.id ?? id, server, sectionYaml: sent.yamlText, base: after ? after.server : over });
      }, (done, typedSince, _sent, sentNext) => {
        show(done, !typedSince);
        setSaved(`Saved ${done.file}.${typedSince && !sentNext ? ` ${TYPED_SINCE_SAVE}` : ''}`);
      });
      // Save pressed while a save was on its way, with nothing typed since: that save said it all.
      if (!done) return;
      if (done.warning) setWarning(`Saved, but it will not start like this: ${done.warning}`);
      // Renamed: the file, so the id, follows the name (2.1.4); the panel opens it under its new id
      // (read there as the same file: nothing changes).
      onSaved(done.id);
    } catch (e) {
      const body = e instanceof ApiFailure ? (e.body as (ServerEditProblem & { current?: ServerEditorView }) | undefined) : undefined;
      setProblem(body && typeof body.error === 'string' ? body : { error: (e as Error).message });
      if (body?.current) setConflict(body.current);
      setRefusedForConflict(body?.current !== undefined);
    }
  };
  const yamlProblem: YamlProblem | null = problem?.line !== undefined ? { line: problem.line, column: problem.column ?? 1, message: problem.error } : null;
  const fieldClass = (name: string) => (problem?.field === name ? 'invalid' : undefined);
  const set = (patch: Partial<Common>) => setCommon((c) => (c ? { ...c, ...patch } : c));
  /** Edits not saved yet (the form or the YAML differ from the file's): closing asks before dropping them. */
  const edited = view !== null && common !== null && (yamlText !== view.sectionYaml || JSON.stringify(common) !== JSON.stringify(commonOf(view)));
  // ×, Close, a click beside it and Esc (as the app's other dialogs) ask first when there are edits.
  const close = useGuardedClose(edited, 'Discard your changes to this server? (Cancel, then Save to keep them.)', onClose);

  useDiskReread(diskChanges, saves, {
    openKey: () => id,
    read: () => api.get<ServerEditorView>(`/api/server?id=${encodeURIComponent(id)}`),
    // The first read too (and the read under a new id): one answering after a read for a change made since is dropped.
    failed: (e) => setLoadError(e.message),
    same: (read) => stableJson(read.server) === stableJson(base.current),
    edited: () => edited,
    // A refused save's problem, if any, stays beside the bar: the bar's own words only stand in for a refusal of this conflict.
    conflict: (read) => setConflict(read),
    take: (read) => {
      show(read);
      setConflict(null);
      setProblem(null);
    },
  });

  return (
    <Modal label="Server editor" title={<>Server {view ? <code>{shownName(view.file)}</code> : shownName(id)}</>} className="wide" onClose={close} onKeyDown={saveOnCtrlS(() => void save())}>
      {loadError && <p className="error" role="alert">{loadError}</p>}
      {view && common && (
        <>
          <div className="form-grid">
            <label>Name<input aria-label="Server name" className={fieldClass('name')} value={common.name} onChange={(e) => set({ name: e.target.value })} /></label>
            <label>Kind
              <select aria-label="Server kind" className={fieldClass('kind')} value={common.kind} onChange={(e) => {
                const kind = e.target.value as ServerFile['kind'];
                // Another section: start it empty (the file keeps the other kinds' sections as they are).
                if (view.sections[kind] !== section) setYamlText('');
                set({ kind });
              }}>
                {Object.keys(view.sections).map((k) => <option key={k} value={k}>{k}</option>)}
              </select>
            </label>
            <label>Host
              <select aria-label="Server host" className={fieldClass('host')} value={common.host} onChange={(e) => set({ host: e.target.value as ServerFile['host'] })}>
                <option value="127.0.0.1">127.0.0.1 (this computer only)</option>
                <option value="0.0.0.0">0.0.0.0 (other devices too)</option>
              </select>
            </label>
            <label>Port (0 = any free port)<input aria-label="Server port" className={fieldClass('port')} type="number" min={0} max={65535} value={common.port} onChange={(e) => set({ port: e.target.value === '' ? 0 : Number(e.target.value) })} /></label>
            {/* TLS where the kind speaks it (2.11), or to switch off a TLS the file sets on a kind that refuses it. */}
            {(kinds.byKind[common.kind]?.tls || common.tls) && (
              <label className="check"><span><input type="checkbox" aria-label="TLS" checked={common.tls} onChange={(e) => set({ tls: e.target.checked })} /> TLS (self-signed for localhost without paths)</span></label>
            )}
            {common.tls && (
              <>
                <label>Certificate (PEM file; empty = self-signed)<input aria-label="TLS certificate file" className={fieldClass('tls')} value={common.certPath} placeholder="certs/server.crt" onChange={(e) => set({ certPath: e.target.value })} /></label>
                <label>Key (PEM file)<input aria-label="TLS key file" className={fieldClass('tls')} value={common.keyPath} placeholder="certs/server.key" onChange={(e) => set({ keyPath: e.target.value })} /></label>
              </>
            )}
            <label className="check"><span><input type="checkbox" aria-label="autoStart" checked={common.autoStart} onChange={(e) => set({ autoStart: e.target.checked })} /> Start with the workspace (autoStart)</span></label>
          </div>
          <p className="muted small"><b>{section}</b>: {kinds.byKind[common.kind]?.sectionHint ?? ''}</p>
          <Suspense fallback={<p className="muted">Loading the editor…</p>}>
            <YamlEditor label={`${section} section (YAML)`} value={yamlText} onChange={setYamlText} problem={yamlProblem} />
          </Suspense>
          {/* Empty notes are left out of the file (the server's API deletes an empty field). */}
          <h4>Docs (Markdown notes)</h4>
          <DocsEditor text={common.docs} onChange={(docs) => set({ docs })} />
        </>
      )}
      {problem && <p className="error" role="alert" data-testid="server-edit-error">{problem.error}</p>}
      {conflict && (
        <ConflictBar
          file={conflict}
          message={problem && refusedForConflict ? undefined : `${conflict.file} changed on disk while you were editing it.`}
          setBase={(file) => { base.current = file.server; }}
          show={(file) => { show(file); setProblem(null); }}
          save={(file) => void save(file.server)}
          clear={() => setConflict(null)}
        />
      )}
      {warning && <p className="warn" role="status">{warning}</p>}
      {saved && !problem && <p className="ok" role="status">{saved}</p>}
      <footer><button onClick={close}>Close</button><button className="primary" disabled={!view} onClick={() => void save()}>Save</button></footer>
    </Modal>
  );
}
