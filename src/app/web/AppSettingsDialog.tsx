/**
 * This computer's application settings (`ferry config`): every setting with its value, what it
 * takes and its default. A change is saved when the field is left (Enter, a click elsewhere), one
 * setting at a time, through the same setter as `ferry config set`; a refused value stays in its
 * field with the refusal beside it. Closing with a value typed and not saved asks first, as the
 * app's other editors do (guarded-close.ts). `diskChanges` moves when the settings file changes
 * (`ferry config set` in a terminal): the settings are read again (disk-reread.ts, as the other
 * editors), every field not typed in shows the new value, and a setting typed in and not saved
 * whose value changed meets the conflict bar. A save carries the setting's value as the dialog
 * last read it: changed in the file meanwhile (before the watcher said so), the save is refused
 * (409), nothing is written, and the bar offers the file's value beside what was sent.
 */
import { useRef, useState } from 'react';
import type { AppSettingView, AppSettingsView } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import { ConflictBar } from './ConflictBar.js';
import { Modal } from './Modal.js';
import { useGuardedClose } from './guarded-close.js';
import { useDiskReread } from './disk-reread.js';
import { EditorSaves, savesOfAll } from './save-answer.js';

/** `text` by key, of the settings in `keys` only. */
const only = (text: Record<string, string>, keys: readonly string[]) => Object.fromEntries(Object.entries(text).filter(([key]) => keys.includes(key)));
const textOf = (settings: AppSettingView[], key: string) => settings.find((s) => s.key === key)?.text;

export function AppSettingsDialog({ diskChanges, onClose }: { diskChanges: number; onClose: () => void }) {
  const [view, setView] = useState<AppSettingsView | null>(null);
  /** Text typed and not saved yet, by key. */
  const [typed, setTyped] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  /** The text of each save on its way, by key. */
  const [sending, setSending] = useState<Record<string, string>>({});
  /**
   * Fields whose text is not the stored value and is not being saved (typed, or refused): Esc
   * drops it, so it asks. A click on Close leaves the field first, which saves it (the rule above),
   * unless its setting changed on disk meanwhile (the conflict below).
   */
  const unsaved = view ? view.settings.filter((s) => typed[s.key] !== undefined && typed[s.key] !== s.text && sending[s.key] !== typed[s.key]).map((s) => s.key) : [];
  const close = useGuardedClose(unsaved.length > 0, `Discard what you typed and did not save (${unsaved.join(', ')})? (Cancel, then press Enter in its field to save it.)`, onClose);

  /**
   * One save at a time for each setting, the rule of the other editors (save-answer.ts): Enter
   * then Tab sends once; a value asked for while a save is on its way is sent after it.
   */
  const wanted = useRef<Record<string, string>>({});
  const saves = useRef(new Map<string, EditorSaves<string>>()).current;
  const savesOf = (key: string) => saves.get(key) ?? saves.set(key, new EditorSaves(() => wanted.current[key]!)).get(key)!;
  /** One file for them all: a read of it asked before or during any setting's save is dropped (its answer says what the file holds). */
  const allSaves = useRef(savesOfAll(() => saves.values())).current;

  /**
   * The file's value of each setting typed in and not saved that changed on disk meanwhile; the
   * bar offers it while the field still holds what was typed (saved or escaped, it goes).
   */
  const [conflict, setConflict] = useState<Record<string, string>>({});
  const clashing = only(conflict, unsaved);
  /**
   * The text each setting's save wrote, until the file is next read (the read asked for a change
   * reported while the save was on its way, which waits for its answer, or the first one after):
   * that read holding another value is another writer's change over the save, a conflict.
   */
  const lastSaved = useRef<Record<string, string>>({});
  /** lastSaved as the read being compared found it. */
  const savedBefore = useRef<Record<string, string>>({});
  /**
   * The settings as the file holds them now: every field not typed in shows them; a typed value
   * left there whose setting changed is a conflict (one setting is saved at a time, so a change of
   * another beside it is no conflict).
   */
  const follow = (read: AppSettingsView) => {
    const changed = view ? unsaved.filter((key) => textOf(read.settings, key) !== textOf(view.settings, key) && textOf(read.settings, key) !== typed[key]) : [];
    // Saved, and the file holds another value now: the field shows what was saved again, the bar
    // the file's (taken silently, the value saved would be gone without a word).
    const saved = savedBefore.current;
    savedBefore.current = {};
    const overwritten = Object.keys(saved).filter((key) => !unsaved.includes(key) && textOf(read.settings, key) !== saved[key]);
    const fileOf = (keys: string[]) => Object.fromEntries(keys.map((key) => [key, textOf(read.settings, key)!]));
    setView(read);
    setError(null);
    // Text typed that is the stored value (nothing to save) would hide the file's new one.
    setTyped((t) => ({ ...only(t, unsaved), ...only(saved, overwritten) }));
    setConflict((c) => ({ ...only(c, unsaved), ...fileOf(changed), ...fileOf(overwritten) }));
  };
  useDiskReread(diskChanges, allSaves, {
    openKey: () => 'app-settings',
    read: () => api.get<AppSettingsView>('/api/app-settings'),
    // The first read too: one answering after a read for a change made since is dropped.
    failed: (e) => setError(e.message),
    seen: () => {
      savedBefore.current = lastSaved.current;
      lastSaved.current = {};
    },
    same: (read) => view !== null && stableJson(read.settings) === stableJson(view.settings),
    edited: () => unsaved.length > 0,
    conflict: follow,
    take: follow,
  });

  const save = async (setting: AppSettingView, text: string) => {
    const saving = savesOf(setting.key);
    // Saving (Enter, Keep mine) or leaving the stored value is the user's choice over a change on disk.
    setConflict(({ [setting.key]: _, ...rest }) => rest);
    // The stored value, unless a save on its way changes it.
    if (text === setting.text && !saving.saving.current) {
      setTyped(({ [setting.key]: _, ...rest }) => rest);
      return;
    }
    // The field as this save found it: the text sent, or what Use the default replaces (a switch
    // or a list is shown and saved in one go, so its text is the one sent).
    const found = setting.type === 'flag' || setting.type === 'choice' ? text : typed[setting.key];
    wanted.current[setting.key] = text;
    setSending((s) => ({ ...s, [setting.key]: text }));
    try {
      // The setting as this dialog last read it (or as the save this one follows left it): the
      // server refuses the save (409) when the file holds another value now.
      const send = (sent: string, after: AppSettingsView | undefined) =>
        api.put<AppSettingsView>('/api/app-settings', { key: setting.key, text: sent, base: after ? textOf(after.settings, setting.key) : setting.text });
      const answer = await saving.save(send, (answer) => {
        setView(answer);
        lastSaved.current[setting.key] = textOf(answer.settings, setting.key)!;
      });
      // Asked for while a save of the same text was on its way: that save said it all.
      if (!answer) return;
      // Saved on Enter, the field may have been typed on while this save was on its way: that text
      // stays, to be saved when the field is left (the rule of the other editors, save-answer.ts).
      setTyped(({ [setting.key]: now, ...rest }) => (now === found ? rest : { ...rest, [setting.key]: now! }));
      setProblems(({ [setting.key]: _, ...rest }) => rest);
      setSaved(setting.key);
    } catch (e) {
      const file = e instanceof ApiFailure ? (e.body as Partial<AppSettingsView> | undefined)?.settings : undefined;
      const now = file ? textOf(file, setting.key) : undefined;
      if (file && now !== undefined) {
        // Changed since read (ferry config set, another window): the field keeps what was sent,
        // the bar offers the file's value, and the refusal stays beside the field.
        setView((v) => (v ? { ...v, settings: file } : v));
        setTyped((t) => ({ ...t, [setting.key]: t[setting.key] ?? text }));
        setConflict((c) => ({ ...c, [setting.key]: now }));
      } else if (setting.type === 'flag' || setting.type === 'choice') {
        // A refused switch or choice shows the stored value again; typed text stays to be corrected.
        setTyped(({ [setting.key]: _, ...rest }) => rest);
      }
      setProblems((p) => ({ ...p, [setting.key]: (e as Error).message }));
      setSaved(null);
    } finally {
      setSending(({ [setting.key]: was, ...rest }) => (was === text ? rest : { ...rest, [setting.key]: was! }));
    }
  };

  return (
    <Modal label="Application settings" className="wide" onClose={close}>
      <p className="muted">
        This computer&apos;s settings, for every workspace (as <code>ferry config</code> shows and sets them). A request&apos;s
        own settings override the ones marked “per request” for that request.{view && <> Kept in <code>{view.file}</code>.</>}
      </p>
      {!view && !error && <p className="muted">Loading…</p>}
      {view && (
        <table className="plain app-settings" aria-label="Application settings">
          <thead><tr><th>Setting</th><th>Value</th><th>Takes</th></tr></thead>
          <tbody>
            {view.settings.map((s) => {
              const text = typed[s.key] ?? s.text;
              const problem = problems[s.key];
              const id = `app-setting-${s.key}`;
              return (
                <tr key={s.key}>
                  <td><label htmlFor={id}>{s.key}</label>{s.perRequest && <small className="muted"> per request</small>}</td>
                  <td>
                    <SettingField
                      id={id} setting={s} text={text} invalid={problem !== undefined} onType={(t) => setTyped((p) => ({ ...p, [s.key]: t }))} onSave={(t) => void save(s, t)}
                      // Changed on disk while typed in: leaving the field (for the bar's buttons, or Close) is no choice; Enter or the bar is.
                      saveOnLeave={!(s.key in clashing)}
                    />
                    {problem && <p className="error" role="alert" id={`${id}-problem`}>{problem}</p>}
                  </td>
                  <td className="muted">
                    {s.takes}. Default: <code>{s.defaultText}</code>
                    {text !== s.defaultText && <> <button className="link" onClick={() => void save(s, s.defaultText)}>Use the default</button></>}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {error && <p className="error" role="alert">{error}</p>}
      {Object.keys(clashing).length > 0 && (
        <ConflictBar
          file={clashing}
          message={`${Object.keys(clashing).join(', ')} changed on disk while you were editing ${Object.keys(clashing).length === 1 ? 'it' : 'them'}.`}
          // The dialog shows the file's values already (taken when read or refused), and a
          // setting's save is checked against the value shown: there is no base of its own to move.
          setBase={() => undefined}
          show={(file) => {
            const drop = (by: Record<string, string>) => Object.fromEntries(Object.entries(by).filter(([key]) => !(key in file)));
            setTyped(drop);
            setProblems(drop);
          }}
          save={(file) => {
            for (const setting of view?.settings ?? []) if (setting.key in file) void save(setting, typed[setting.key]!);
          }}
          clear={() => setConflict({})}
        />
      )}
      <p className="muted" role="status">{saved ? `${saved} saved.` : ''}</p>
      <footer><button onClick={close}>Close</button></footer>
    </Modal>
  );
}

/** A checkbox for on/off, a list for a choice, a text field otherwise (saved on Enter, and when left unless `saveOnLeave` is false). */
function SettingField({ id, setting, text, invalid, onType, onSave, saveOnLeave }: {
  id: string; setting: AppSettingView; text: string; invalid: boolean; onType: (text: string) => void; onSave: (text: string) => void; saveOnLeave: boolean;
}) {
  if (setting.type === 'flag') {
    // Shown at once, saved at once (a refusal puts the stored value back).
    const flip = (checked: boolean) => { onType(String(checked)); onSave(String(checked)); };
    return <input id={id} type="checkbox" checked={text === 'true'} onChange={(e) => flip(e.target.checked)} />;
  }
  if (setting.type === 'choice') {
    return (
      <select id={id} value={text} onChange={(e) => { onType(e.target.value); onSave(e.target.value); }}>
        {setting.choices!.map((c) => <option key={c} value={c}>{c}</option>)}
      </select>
    );
  }
  return (
    <input
      id={id} type="text" value={text} spellCheck={false} aria-invalid={invalid} aria-describedby={invalid ? `${id}-problem` : undefined}
      inputMode={setting.type === 'wholeNumber' ? 'numeric' : undefined}
      onChange={(e) => onType(e.target.value)}
      onBlur={(e) => { if (saveOnLeave) onSave(e.target.value); }}
      onKeyDown={(e) => { if (e.key === 'Enter') onSave((e.target as HTMLInputElement).value); }}
    />
  );
}
