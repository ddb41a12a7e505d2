/**
 * The settings of a folder (`_folder.yaml`, spec 2.9) or, for the collection root (`folder`
 * ''), of the workspace file (2.2): the auth, headers, scripts and docs its requests inherit,
 * edited with the request editor's own parts. Saved with Save (Ctrl/Cmd+S); closing with edits
 * asks first; a file changed since it was read shows the conflict bar, as every editor does.
 * `diskChanges` moves when workspace files change on disk (git, an editor): the file is read
 * again, and taken at once unless the dialog holds edits, which then meet the conflict bar
 * (disk-reread.ts, as the other editors).
 */
import { useId, useRef, useState } from 'react';
import type { EditedSettings, SettingsView, TokenResponse } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import { AuthEditor } from './AuthEditor.js';
import { ConflictBar } from './ConflictBar.js';
import { Modal } from './Modal.js';
import { useGuardedClose } from './guarded-close.js';
import { useDiskReread } from './disk-reread.js';
import { KeyValueTable } from './KeyValueTable.js';
import { CodeEditor } from './LazyCodeEditor.js';
import { DocsEditor } from './RequestEditor.js';
import { TabList, tabPanel } from './TabList.js';
import { saveOnCtrlS } from './save-shortcut.js';
import { TYPED_SINCE_SAVE, useEditorSave } from './save-answer.js';
import { shownName } from '../../support/shown-name.js';

const TABS = ['Auth', 'Headers', 'Scripts', 'Docs'] as const;
/** Spec 7.1: the tab exists only for folders imported from a document. */
const IMPORTED_TABS = [...TABS, 'API spec'] as const;
type Tab = (typeof IMPORTED_TABS)[number];
type Auth = { type: string; [field: string]: unknown };

/** Scripts with neither part: none at all, so the file gets no empty `scripts:`. */
function withScript(scripts: EditedSettings['scripts'], part: 'preRequest' | 'postResponse', text: string): EditedSettings['scripts'] {
  const next = { ...scripts, [part]: text || undefined };
  return next.preRequest === undefined && next.postResponse === undefined ? undefined : next;
}

export function SettingsDialog({ folder, diskChanges, onClose, onSaved }: { folder: string; diskChanges: number; onClose: () => void; onSaved: () => void }) {
  const url = folder ? `/api/folder/settings?path=${encodeURIComponent(folder)}` : '/api/workspace/settings';
  const [view, setView] = useState<SettingsView | null>(null);
  const [settings, setSettings] = useState<EditedSettings | null>(null);
  /** The settings as the file held them when read: sent with a save, which is refused (409) when the file changed since. */
  const [base, setBase] = useState<EditedSettings | null>(null);
  /** What was read (or last taken from the file): anything else is lost by closing, so closing asks first. */
  const [loaded, setLoaded] = useState('');
  /** The file's settings after a refused save: the user takes them or saves theirs over them. */
  const [conflict, setConflict] = useState<EditedSettings | null>(null);
  /** The error on screen is the save's refusal for this conflict: it says why, so the bar says nothing of its own. */
  const [refusedForConflict, setRefusedForConflict] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [tab, setTab] = useState<Tab>('Auth');
  /** The switch Check responses against the spec (`openapi.validate`, 7.1), as shown, and as read. */
  const [validate, setValidate] = useState(true);
  const [loadedValidate, setLoadedValidate] = useState(true);
  const panel = useId();
  const takeValidate = (read: SettingsView) => {
    setValidate(read.openapi?.validate !== false);
    setLoadedValidate(read.openapi?.validate !== false);
  };
  const edited = settings !== null && (stableJson(settings) !== loaded || validate !== loadedValidate);
  /** Saved, but the user typed on while the save was on its way: the dialog stays open with those edits. */
  const [savedNote, setSavedNote] = useState<string | null>(null);
  /** Save's answer keeps what was typed while it was on its way (save-answer.ts). */
  const saves = useEditorSave({ settings, validate });
  const sendSave = saves.save;
  /** The file's view as last read: Take the file's version takes its switch too. */
  const lastRead = useRef<SettingsView | null>(null);
  useDiskReread(diskChanges, saves, {
    // Read even before a first read succeeded (the file did not parse, and may now).
    openKey: () => url,
    read: () => api.get<SettingsView>(url),
    // The first read too: one answering after a read for a change made since is dropped.
    failed: (e) => setError(e.message),
    seen: (read) => {
      setView(read);
      lastRead.current = read;
      // The switch not flipped here shows the file's value (git or an editor may change it alone).
      if (validate === loadedValidate) takeValidate(read);
    },
    same: (read) => base !== null && stableJson(read.settings) === stableJson(base),
    edited: () => base !== null && edited,
    // A refused save's message, if any, stays (as in the variables dialogs): it says why nothing
    // was saved, and the bar's own words only stand in for it when there is none.
    conflict: (read) => setConflict(read.settings),
    // Nothing typed (or nothing read yet: the first read): the file's version.
    take: (read) => {
      takeValidate(read);
      setSettings(read.settings);
      setBase(read.settings);
      setLoaded(stableJson(read.settings));
      setError(null);
    },
  });
  const close = useGuardedClose(edited, 'Discard your changes to these settings? (Cancel, then Save to keep them.)', onClose);
  const set = (patch: Partial<EditedSettings>) => setSettings((s) => (s ? { ...s, ...patch } : s));
  const save = async (over = base) => {
    if (!settings) return;
    try {
      setConflict(null);
      setRefusedForConflict(false);
      setSavedNote(null);
      let closes = true;
      const answer = await sendSave<{ settings: EditedSettings; openapi?: SettingsView['openapi'] }>((sent, after) => {
        // After a save it follows: that answer's settings are the base, and its switch the file's.
        const fileValidate = after ? after.openapi?.validate !== false : loadedValidate;
        const base = after ? after.settings : over;
        // The switch goes only when flipped: the file's value is kept otherwise.
        const flipped = view?.openapi?.spec && sent.validate !== fileValidate ? { validate: sent.validate } : {};
        return api.put<{ settings: EditedSettings; openapi?: SettingsView['openapi'] }>(folder ? '/api/folder/settings' : '/api/workspace/settings', { ...(folder ? { path: folder } : {}), settings: sent.settings, ...(base ? { base } : {}), ...flipped });
      }, (answer, typedSince, sent, sentNext) => {
        if (!typedSince) return;
        // Typed on while it was saved: the dialog stays open with those edits, over the file's new version.
        closes = false;
        setBase(answer.settings);
        setLoaded(stableJson(sent.settings));
        setLoadedValidate(answer.openapi?.validate !== false);
        setError(null);
        setSavedNote(sentNext ? null : `Saved. ${TYPED_SINCE_SAVE}`);
      });
      // Save pressed while a save was on its way, with nothing typed since: that save wrote it.
      if (!answer) return;
      onSaved();
      if (closes) onClose();
    } catch (e) {
      const changed = e instanceof ApiFailure ? (e.body as { settings?: EditedSettings } | undefined)?.settings : undefined;
      if (changed) setConflict(changed);
      setRefusedForConflict(changed !== undefined);
      setError((e as Error).message);
    }
  };
  // The token of the auth as edited (saved or not), cached under the key a request inheriting it looks up.
  const getToken = (id: string, signal: AbortSignal) => api.post<TokenResponse>('/api/oauth2/token', { id, folder, auth: settings?.auth }, signal);
  const title = folder ? 'Folder settings' : 'Workspace settings';
  return (
    <Modal
      label={title}
      title={<>{title}{view && <>: {shownName(view.name)} <small className="muted"><code>{shownName(view.file)}</code></small></>}</>}
      className="wide settings-dialog"
      onClose={close}
      onKeyDown={saveOnCtrlS(() => void save())}
    >
      <p className="muted">
        {folder
          ? 'Requests inside inherit these: the auth when theirs is inherit, the headers unless an inner folder or the request sets the same one; the scripts run before theirs (after the workspace\'s and outer folders\').'
          : 'Every request inherits these: the auth when it and its folders are inherit, the headers unless a folder or the request sets the same one; the scripts run first, before the folders\' and the request\'s own.'}
      </p>
      {view && view.notices.length > 0 && <p className="warn" role="status" data-testid="settings-notices">{view.notices.join(' ')}</p>}
      {settings && (
        <>
          <TabList label="Parts of the settings" tabs={view?.openapi ? IMPORTED_TABS : TABS} current={tab} onPick={setTab} badge={(t) => (t === 'Headers' && settings.headers.length ? <small> {settings.headers.length}</small> : null)} panel={panel} />
          <div className="tab-body" {...tabPanel(panel, tab)}>
            {tab === 'Auth' && <AuthEditor auth={settings.auth as Auth} onChange={(auth) => set({ auth: auth as EditedSettings['auth'] })} onGetToken={getToken} noInherit={!folder} />}
            {tab === 'Headers' && <KeyValueTable label="Header" rows={settings.headers} onChange={(rows) => set({ headers: rows })} />}
            {tab === 'Scripts' && (
              <div className="scripts">
                <h4>Pre-request</h4>
                <CodeEditor label="Pre-request script" language="javascript" value={settings.scripts?.preRequest ?? ''} onChange={(v) => set({ scripts: withScript(settings.scripts, 'preRequest', v) })} />
                <h4>Post-response (tests)</h4>
                <CodeEditor label="Post-response script" language="javascript" value={settings.scripts?.postResponse ?? ''} onChange={(v) => set({ scripts: withScript(settings.scripts, 'postResponse', v) })} />
              </div>
            )}
            {tab === 'Docs' && <DocsEditor text={settings.docs ?? ''} onChange={(docs) => set({ docs: docs || undefined })} />}
            {tab === 'API spec' && view?.openapi && (
              <div className="api-spec" data-testid="settings-openapi">
                <p className="muted">
                  Imported from an OpenAPI document{view.openapi.spec ? <> kept as <code>{view.openapi.spec}</code></> : null}
                  {view.openapi.source ? <> (from <code>{view.openapi.source}</code>)</> : null}. The import owns the link: Update from API spec changes it.
                </p>
                {view.openapi.spec ? (
                  <>
                    <label className="switch">
                      <input type="checkbox" role="switch" checked={validate} onChange={(e) => setValidate(e.target.checked)} /> Check responses against the spec
                    </label>
                    <p className="muted">
                      {validate
                        ? 'Every send of a request inside adds the test Matches the API spec.'
                        : 'Off: requests inside get no Matches the API spec test. The document stays linked, and Update from API spec keeps working.'}
                      {' '}There is no switch for a single request.
                    </p>
                  </>
                ) : (
                  <p className="muted">No document is kept for this folder, so there is nothing to check responses against.</p>
                )}
              </div>
            )}
          </div>
        </>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      {savedNote && !error && <p className="ok" role="status">{savedNote}</p>}
      {conflict && (
        <ConflictBar
          file={conflict}
          message={error && refusedForConflict ? undefined : 'These settings changed on disk while you were editing them.'}
          setBase={setBase}
          show={(file) => { setSettings(file); setLoaded(stableJson(file)); setError(null); if (lastRead.current) takeValidate(lastRead.current); }}
          save={(file) => void save(file)}
          clear={() => setConflict(null)}
        />
      )}
      <footer>
        <button onClick={close}>Cancel</button>
        <button className="primary" disabled={!settings} onClick={() => void save()}>Save</button>
      </footer>
    </Modal>
  );
}
