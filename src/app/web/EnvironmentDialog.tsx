/**
 * The variable editor, for an environment (`id`) or, without one, the workspace's own variables
 * (ferry.yaml): variables with enabled and secret; secret values are typed here, stored on this
 * computer, never shown again. An environment's name is edited here too (a rename renames its
 * file), and it can be deleted; NewEnvironmentDialog adds one, empty or as a copy.
 * `diskChanges` moves when workspace files change on disk (git, an editor, another tab): the file
 * is read again, and taken at once unless the dialog holds edits, which then meet the conflict bar.
 */
import { useCallback, useState } from 'react';
import type { EnvironmentVariableView } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import { ConflictBar } from './ConflictBar.js';
import { Modal } from './Modal.js';
import { useGuardedClose } from './guarded-close.js';
import { useDiskReread } from './disk-reread.js';
import { saveOnCtrlS } from './save-shortcut.js';
import { TYPED_SINCE_SAVE, useEditorSave } from './save-answer.js';
import { shownName } from '../../support/shown-name.js';

/** What GET and PUT answer: `id` and `mark` for an environment (not for the workspace's variables). */
type VariablesRead = { id?: string; name: string; variables: EnvironmentVariableView[]; mark?: unknown };

const variablesUrl = (id: string | undefined) => (id === undefined ? '/api/workspace/variables' : `/api/environment/variables?id=${encodeURIComponent(id)}`);

export function EnvironmentDialog({ id, diskChanges, onClose, onSaved }: { id?: string; diskChanges: number; onClose: () => void; onSaved: () => void }) {
  const [name, setName] = useState('');
  /** The name as the file has it: a different one typed is a rename on Save. */
  const [savedName, setSavedName] = useState('');
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [rows, setRows] = useState<EnvironmentVariableView[]>([]);
  /**
   * The error on screen; `forConflict` when it is the save's refusal for the conflict (409): it says
   * why, so the bar says nothing of its own. One state, so any other error put in its place (a read
   * that failed, a refused delete) gives the bar its words back, and clearing it clears the mark.
   */
  const [shownError, setShownError] = useState<{ message: string; forConflict: boolean } | null>(null);
  const error = shownError?.message ?? null;
  const setError = useCallback((message: string | null) => setShownError(message === null ? null : { message, forConflict: false }), []);
  /** The name and variables as read: anything else typed is lost by closing, so closing asks first. */
  const [loaded, setLoaded] = useState('');
  /** The variables as the file held them when read: sent with a save, which is refused (409) when the file changed since. */
  const [base, setBase] = useState<EnvironmentVariableView[]>([]);
  /** The file's variables after a refused save: the user takes them or saves theirs over them. */
  const [conflict, setConflict] = useState<EnvironmentVariableView[] | null>(null);
  /** The environment's id now: a rename on Save changes it, and a save tried again goes to the new one. */
  const [currentId, setCurrentId] = useState(id);
  /**
   * The record of environment renames and deletes when read: sent with a save or a rename, which
   * then follow a rename made meanwhile (another tab, `ferry env rename`) rather than find nothing.
   */
  const [mark, setMark] = useState<unknown>(undefined);
  /** Read again from where the environment is now (a rename on Save moves it). */
  const url = variablesUrl(currentId);
  /**
   * The file has been read: until then nothing is shown to edit (as in the other editors), so
   * nothing typed meets a first read that failed, or answers later, and is put over without a word.
   */
  const read = loaded !== '';
  const edited = read && JSON.stringify({ name, rows }) !== loaded;
  /** Saved, but the user typed on while the save was on its way: the dialog stays open with those edits. */
  const [savedNote, setSavedNote] = useState<string | null>(null);
  /** Save's answer keeps what was typed while it was on its way (save-answer.ts). */
  const saves = useEditorSave({ name, rows });
  const sendSave = saves.save;
  useDiskReread(diskChanges, saves, {
    openKey: () => url,
    read: () => api.get<VariablesRead>(url),
    // The first read too: one answering after a read for a change made since is dropped.
    failed: (e) => setError(e.message),
    same: (env) => loaded !== '' && stableJson(env.variables) === stableJson(base),
    edited: () => edited,
    // A refused save's message, if any, stays (as in the settings dialog): it says why nothing was
    // saved, and the bar's own words only stand in for a refusal of this conflict.
    conflict: (env) => setConflict(env.variables),
    // Nothing typed (or nothing read yet): the file's version. A failed first read's error, and a
    // refused save's conflict with its mark, no longer hold: the dialog shows the file as it is now.
    take: (env) => {
      setError(null);
      setConflict(null);
      // The record of renames as of this version: a save sent on it follows those made since.
      if (env.mark !== undefined) setMark(env.mark);
      setName(env.name);
      setSavedName(env.name);
      setRows(env.variables);
      setBase(env.variables);
      setLoaded(JSON.stringify({ name: env.name, rows: env.variables }));
    },
  });
  /** Cancel, a click beside the dialog, ×, or Esc: with edits, only when the user says to discard them. */
  const close = useGuardedClose(edited, 'Discard your changes to these variables? (Cancel, then Save to keep them.)', onClose);
  const shown = [...rows, { key: '', value: '', enabled: true, secret: false, stored: false }];
  const update = (i: number, patch: Partial<EnvironmentVariableView>) =>
    setRows(i === rows.length ? [...rows, { ...shown[i]!, ...patch }] : rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async (over = base) => {
    try {
      setConflict(null);
      // The conflict is gone with its bar: an error still shown is no longer its refusal.
      setShownError((shown) => shown && { ...shown, forConflict: false });
      setSavedNote(null);
      let closes = true;
      const answer = await sendSave<VariablesRead>((sent, after) => {
        // After a save it follows: that answer's variables are the base, its id and name where they are now.
        const base = after ? after.variables : over;
        if (currentId === undefined) return api.put<VariablesRead>('/api/workspace/variables', { base, variables: sent.rows });
        // A new name goes with the variables: the server renames and saves in one change, or
        // neither (a refused value must not leave the environment renamed without its edits).
        const renamed = sent.name === (after ? after.name : savedName) ? {} : { name: sent.name };
        return api.put<VariablesRead>('/api/environment/variables', { id: after?.id ?? currentId, base, variables: sent.rows, mark: after?.mark ?? mark, ...renamed });
      }, (answer, typedSince, sent, sentNext) => {
        if (answer.id !== undefined) setCurrentId(answer.id);
        setSavedName(answer.name);
        if (!typedSince) return;
        // Typed on while it was saved: the dialog stays open with those edits, over the file's new version.
        closes = false;
        setBase(answer.variables);
        if (answer.mark !== undefined) setMark(answer.mark);
        setLoaded(JSON.stringify({ name: sent.name, rows: sent.rows }));
        setError(null);
        setSavedNote(sentNext ? null : `Saved. ${TYPED_SINCE_SAVE}`);
      });
      // Save pressed while a save was on its way, with nothing typed since: that save wrote it.
      if (!answer) return;
      onSaved();
      if (closes) onClose();
    } catch (e) {
      const changed = e instanceof ApiFailure ? (e.body as { variables?: EnvironmentVariableView[] } | undefined)?.variables : undefined;
      if (changed) setConflict(changed);
      setShownError({ message: (e as Error).message, forConflict: changed !== undefined });
    }
  };
  const remove = async () => {
    try {
      await api.post('/api/environments/delete', { id: currentId });
      onSaved();
      onClose();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Modal
      label={id === undefined ? 'Workspace variables' : 'Environment'}
      title={id === undefined ? <>Workspace variables of {shownName(name)}</> : <>Environment {read && <input aria-label="Environment name" value={name} onChange={(e) => setName(e.target.value)} />}</>}
      className="wide"
      onClose={close}
      onKeyDown={saveOnCtrlS(() => void (read && save()))}
    >
      {read && <table className="kv" aria-label="Environment variables">
        <thead><tr><th /><th>Variable</th><th>Value</th><th>Secret</th><th /></tr></thead>
        <tbody>
          {shown.map((row, i) => (
            <tr key={i} className={row.enabled ? '' : 'off'}>
              <td>{i < rows.length && <input type="checkbox" aria-label={`Enabled ${i + 1}`} checked={row.enabled} onChange={(e) => update(i, { enabled: e.target.checked })} />}</td>
              <td><input aria-label={`Variable ${i + 1}`} value={row.key} onChange={(e) => update(i, { key: e.target.value })} /></td>
              <td>
                <input
                  aria-label={`Value ${i + 1}`}
                  type={row.secret ? 'password' : 'text'}
                  value={row.value}
                  placeholder={row.secret ? (row.stored ? '•••••• stored on this computer (type to replace)' : 'not set on this computer') : ''}
                  onChange={(e) => update(i, { value: e.target.value })}
                />
              </td>
              <td><input type="checkbox" aria-label={`Secret ${i + 1}`} checked={row.secret} onChange={(e) => update(i, { secret: e.target.checked })} /></td>
              <td>{i < rows.length && <button className="icon" aria-label={`Remove ${row.key}`} onClick={() => setRows(rows.filter((_, j) => j !== i))}>×</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>}
      {id === undefined && <p className="muted">Workspace variables apply in every environment; an environment's variable of the same name wins.</p>}
      <p className="muted">Secret values are kept encrypted on this computer (as <code>ferry secret set</code> does), never in the workspace files.</p>
      {error && <p className="error" role="alert">{error}</p>}
      {savedNote && !error && <p className="ok" role="status">{savedNote}</p>}
      {conflict && (
        <ConflictBar
          file={conflict}
          message={shownError?.forConflict ? undefined : 'These variables changed on disk while you were editing them.'}
          setBase={setBase}
          show={(file) => { setRows(file); setLoaded(JSON.stringify({ name, rows: file })); setError(null); }}
          save={(file) => void save(file)}
          clear={() => setConflict(null)}
        />
      )}
      <footer>
        {id !== undefined && (confirmingDelete
          ? <button className="danger" onClick={() => void remove()}>Delete “{savedName}” and its secret values</button>
          : <button onClick={() => setConfirmingDelete(true)}>Delete environment…</button>)}
        <span className="spacer" />
        <button onClick={close}>Cancel</button>{read && <button className="primary" onClick={() => void save()}>Save</button>}
      </footer>
    </Modal>
  );
}

/** Adds an environment: a name, and optionally another to copy (its variables and secret values). */
export function NewEnvironmentDialog({ environments, onClose, onCreated }: { environments: { id: string; name: string }[]; onClose: () => void; onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const [copyOf, setCopyOf] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A name typed (or a copy chosen) and not created is lost by closing: asked first, as every editor does.
  const close = useGuardedClose(name !== '' || copyOf !== '', `Discard the new environment${name ? ` “${shownName(name)}”` : ''}? It is not created yet. (Cancel, then Create to add it.)`, onClose);
  const create = async () => {
    try {
      const { id } = await api.post<{ id: string }>('/api/environments', copyOf ? { name, copyOf } : { name });
      onCreated(id);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <Modal label="New environment" onClose={close}>
      <label>Name <input aria-label="New environment name" autoFocus value={name} onChange={(e) => setName(e.target.value)} onKeyDown={(e) => e.key === 'Enter' && void create()} /></label>
      <label>
        Copy of{' '}
        <select aria-label="Copy of" value={copyOf} onChange={(e) => setCopyOf(e.target.value)}>
          <option value="">nothing (empty)</option>
          {environments.map((env) => <option key={env.id} value={env.id}>{shownName(env.name)}</option>)}
        </select>
      </label>
      <p className="muted">The file is environments/NAME.yaml. A copy gets the other's variables, and its secret values on this computer.</p>
      {error && <p className="error" role="alert">{error}</p>}
      <footer><button onClick={close}>Cancel</button><button className="primary" onClick={() => void create()}>Create</button></footer>
    </Modal>
  );
}
