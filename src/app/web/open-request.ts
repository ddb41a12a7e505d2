/**
 * The open request in the editor: what it holds (the draft) and what its file last held, opening
 * one, saving edits to its file as the user types (debounced), following it when it moves, taking
 * a change made on disk or offering it (the conflict bar), keeping one whose file went away, and
 * closing it when it is deleted. App.tsx draws it; the sidebar's actions (sidebar-actions.ts) use it.
 */
import { useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { RequestFile, UnsavedImport } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import type { ConflictSides } from './ConflictBar.js';
import { useLatest } from './latest.js';
import { parentOf } from './tree.js';

const SAVE_DELAY_MS = 400;
/** A save refused because another Ferry process held the workspace's write lock is tried again after this long. */
const BUSY_RETRY_MS = 3000;

export interface OpenRequestNeeds {
  setNotice: Dispatch<SetStateAction<string | null>>;
  /** Reads the tree again (after an unsaved request is written). */
  loadWorkspace: () => Promise<void>;
  /** Another request opened: the answer shown was the one before's. */
  clearAnswer: () => void;
}

export type OpenRequest = ReturnType<typeof useOpenRequest>;

export function useOpenRequest({ setNotice, loadWorkspace, clearAnswer }: OpenRequestNeeds) {

  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<RequestFile | null>(null);
  const [conflict, setConflict] = useState<RequestFile | null>(null);
  // What the event handlers need now, not at the render that made them.
  const selectedRef = useRef<string | null>(null);
  const draftRef = useRef<RequestFile | null>(null);
  const onDisk = useRef('');
  const saveTimer = useRef<number | undefined>(undefined);
  /**
   * The open request is not written yet (cURL "Open as new request"), or its file went away
   * outside the app (`gone`): edits are not saved until Save; its folder.
   */
  const unsavedRef = useRef<{ folder: string; gone?: boolean } | null>(null);
  const [unsaved, setUnsaved] = useState<{ folder: string; gone?: boolean } | null>(null);
  const saving = useRef<Promise<unknown>>(Promise.resolve());
  /** The editor's last save was refused because another Ferry process held the workspace's write lock: it is tried again, and kept when switching away unless the user says otherwise. */
  const waitsForLock = useRef(false);
  /** Why the editor's last save was refused for its content (an empty name): the edit is kept, and leaving it asks first. */
  const saveRefused = useRef<string | null>(null);
  /**
   * The open request deleted from the sidebar (itself, or its folder): a save of it still on its way
   * is refused as no longer there, which the user knows (they said OK), so it is not said.
   */
  const deletedOpen = useRef<string | null>(null);
  /** A move, rename or delete of the app's own in flight: a file missing meanwhile is that, not a deletion outside the app. */
  const moving = useRef<Promise<unknown>>(Promise.resolve());
  /** A request being opened (picked in the tree, the palette, History): a send waits for it, so it sends the request picked. */
  const opening = useRef<Promise<unknown>>(Promise.resolve());
  /** The requests picked: only the newest pick's file goes into the editor. */
  const openedPicks = useLatest();
  /** The open request's reads on changes on disk: an older one answering last would put back the file before the latest change. */
  const externalReads = useLatest();
  /** A conflict on screen: until the user picks a side, a newer file version updates it, never the editor. */
  const conflictRef = useRef<RequestFile | null>(null);
  selectedRef.current = selected;
  draftRef.current = draft;
  conflictRef.current = conflict;

  /** The open request's file went away outside the app: the editor keeps it as an unsaved request (Save writes it again), rather than writing it back unasked. */
  const keepGone = useCallback((path: string) => {
    unsavedRef.current = { folder: parentOf(path), gone: true };
    setUnsaved(unsavedRef.current);
    onDisk.current = '';
  }, []);

  /**
   * The open request `from` was moved or renamed in another tab (a 404's `movedTo`): the editor
   * goes with it, to `to`, as read now. Edits not saved yet (`pending`) stay and are saved there,
   * taking its new name unless they renamed it too.
   */
  const followMoved = useCallback(async (from: string, to: string, pending: boolean): Promise<boolean> => {
    let remote: RequestFile;
    try {
      remote = (await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(to)}`)).request;
    } catch {
      return false;
    }
    if (selectedRef.current !== from) return true;
    const before = onDisk.current ? JSON.parse(onDisk.current) as RequestFile : undefined;
    onDisk.current = stableJson(remote);
    selectedRef.current = to;
    setSelected(to);
    keepLast(to);
    const draft = draftRef.current;
    const next = pending && draft ? (before && draft.name === before.name ? { ...draft, name: remote.name } : draft) : remote;
    draftRef.current = next;
    setDraft(next);
    return true;
  }, []);

  /** Kept on this computer for the next start (per workspace); not worth a notice when it fails. */
  const keepLast = useCallback((path: string) => {
    void api.put('/api/request/last', { path }).catch(() => undefined);
  }, []);

  /** Writes the editor's request now (the debounced save, or before an action that reads the file). */
  const saveNow = useCallback((): Promise<unknown> => {
    if (saveTimer.current === undefined) return saving.current;
    clearTimeout(saveTimer.current);
    saveTimer.current = undefined;
    saving.current = saving.current.then(async () => {
      // Read when this save's turn comes: an earlier save may have renamed the file.
      const request = draftRef.current;
      const path = selectedRef.current;
      if (!request || !path) return;
      if (unsavedRef.current) return; // the file went away meanwhile: only Save writes it again
      // A read of the file asked before this save answers with what it held before it: dropped.
      externalReads.ask();
      try {
        // `base`: what the page last read, so a file written meanwhile (git, an editor, another tab) is not overwritten.
        const base = onDisk.current ? JSON.parse(onDisk.current) as RequestFile : undefined;
        const saved = await api.put<{ path: string; request: RequestFile; notices?: string[] }>('/api/request', { path, request, base });
        onDisk.current = stableJson(saved.request);
        waitsForLock.current = false;
        saveRefused.current = null;
        // A refusal of an earlier save (an empty name, another process's lock) no longer holds: saying it now would be wrong.
        setNotice((shown) => (shown?.startsWith('Not saved:') ? null : shown));
        if (saved.notices) setNotice(saved.notices.join(' '));
        if (saved.path !== path && selectedRef.current === path) {
          selectedRef.current = saved.path;
          setSelected(saved.path);
          keepLast(saved.path);
        }
      } catch (e) {
        const refused = e instanceof ApiFailure ? e.body as { gone?: boolean; busy?: boolean; request?: RequestFile; movedTo?: string } | undefined : undefined;
        if (refused?.gone && deletedOpen.current === path) return;
        if (refused?.request && selectedRef.current === path) setConflict(conflictRef.current = refused.request);
        else if (refused?.movedTo && selectedRef.current === path && await followMoved(path, refused.movedTo, true)) {
          // Saved again where it is now (unless the user has left it meanwhile).
          if (saveTimer.current === undefined && selectedRef.current === refused.movedTo) saveTimer.current = window.setTimeout(() => void saveNow(), 0);
        } else if (refused?.gone && selectedRef.current === path) keepGone(path);
        else if (refused?.busy && selectedRef.current === path) {
          // Another Ferry process kept writing: the edit stays in the editor and is saved again shortly (Ctrl+S: now).
          setNotice(`Not saved: ${(e as Error).message} Your edit stays in the editor; the app tries again in ${BUSY_RETRY_MS / 1000} s (Ctrl+S: now).`);
          waitsForLock.current = true;
          if (saveTimer.current === undefined) saveTimer.current = window.setTimeout(() => void saveNow(), BUSY_RETRY_MS);
        } else {
          setNotice(`Not saved: ${(e as Error).message}`);
          if (selectedRef.current === path) saveRefused.current = (e as Error).message;
        }
      }
    });
    return saving.current;
  }, []);

  /** `read`: the request's content when already read (the last one, fetched with the page). */
  const openRequest = useCallback((path: string, quiet = false, read?: RequestFile): Promise<void> => {
    const opened = openNow(path, quiet, read);
    opening.current = opened.catch(() => undefined);
    return opened;
  }, []);

  const openNow = async (path: string, quiet: boolean, read: RequestFile | undefined): Promise<void> => {
    // Leaving an unsaved request loses it (it was never a file): only when the user says so.
    if (unsavedRef.current && !window.confirm(`${unsavedRef.current.gone ? 'The open request\'s file was deleted or moved outside the app and' : 'The request opened from cURL'} is not saved. Discard it? (Cancel, then Save to keep it.)`)) return;
    // Switching quickly: an earlier pick whose file answers later must not replace the last one.
    const newest = openedPicks.ask();
    await saveNow();
    // The deleted request's saves have answered: a later refusal is news.
    deletedOpen.current = null;
    // Its save waits for another Ferry process: opening another request would drop the edit.
    if (waitsForLock.current && !window.confirm(`Your edit of ${selectedRef.current} is not saved yet: another Ferry process is writing to the workspace. Discard the edit and open ${path}? (Cancel keeps it; the app saves it once the other process is done.)`)) return;
    if (waitsForLock.current) {
      clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
      waitsForLock.current = false;
    }
    // Refused for what it holds (an empty name): opening another request would drop it silently.
    if (saveRefused.current && !window.confirm(`Your edit of ${selectedRef.current} is not saved: ${saveRefused.current} Discard it and open ${path}? (Cancel keeps it: fix it, and it is saved as you type.)`)) return;
    saveRefused.current = null;
    unsavedRef.current = null;
    setUnsaved(null);
    try {
      const { request } = read ? { request: read } : await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(path)}`);
      if (!newest()) return;
      onDisk.current = stableJson(request);
      selectedRef.current = path;
      // Now, not at the next render: a send waiting for this open reads it.
      draftRef.current = request;
      setSelected(path);
      setDraft(request);
      setConflict(null);
      clearAnswer();
      if (!read) keepLast(path);
    } catch (e) {
      if (!quiet && newest()) setNotice((e as Error).message);
    }
  };

  const edit = useCallback((next: RequestFile) => {
    setDraft(next);
    draftRef.current = next;
    if (unsavedRef.current) return; // written by Save, not as the user types
    if (saveTimer.current !== undefined) clearTimeout(saveTimer.current);
    // While a save is pending, an external change of this request is a conflict, not a silent replace.
    saveTimer.current = window.setTimeout(() => void saveNow(), SAVE_DELAY_MS);
  }, [saveNow]);

  /** The open request's file changed on disk: take it, unless it is our own save or the user has edits in flight. */
  const checkExternal = useCallback(async () => {
    await saving.current;
    await moving.current;
    const path = selectedRef.current;
    if (!path || unsavedRef.current) return;
    const newest = externalReads.ask();
    let remote: RequestFile;
    try {
      remote = (await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(path)}`)).request;
      if (!newest()) return;
    } catch (e) {
      if (!newest()) return;
      await moving.current; // the app's own move may have started since: the editor follows it instead
      const refused = e instanceof ApiFailure ? e.body as { gone?: boolean; movedTo?: string } | undefined : undefined;
      if (!refused?.gone || selectedRef.current !== path || unsavedRef.current) return;
      // Moved or renamed in another tab: followed, with edits still waiting for their save.
      if (refused.movedTo && await followMoved(path, refused.movedTo, saveTimer.current !== undefined)) return;
      keepGone(path);
      return;
    }
    if (stableJson(remote) === onDisk.current || selectedRef.current !== path) return;
    // An edit refused for what it holds (an empty name) is an edit too: the bar offers the file's version, it is not dropped unasked.
    if (saveTimer.current !== undefined || conflictRef.current || saveRefused.current !== null) {
      setConflict(conflictRef.current = remote);
      return;
    }
    onDisk.current = stableJson(remote);
    setDraft(remote);
  }, []);

  /** cURL "Open as new request": an unsaved tab; Send works on it, Save writes it as a new request file. */
  const openUnsaved = useCallback(async (opened: UnsavedImport) => {
    await saveNow();
    unsavedRef.current = { folder: opened.folder };
    setUnsaved({ folder: opened.folder });
    onDisk.current = '';
    selectedRef.current = opened.path;
    draftRef.current = opened.request;
    setSelected(opened.path);
    setDraft(opened.request);
    setConflict(null);
    clearAnswer();
  }, [saveNow]);

  const saveUnsaved = useCallback(async () => {
    const where = unsavedRef.current;
    const request = draftRef.current;
    if (!where || !request) return;
    try {
      const { path } = await api.post<{ path: string }>('/api/request', { folder: where.folder, request });
      const written = (await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(path)}`)).request;
      if (unsavedRef.current !== where) return; // another request opened meanwhile (its Discard confirmed)
      // The editor goes on as the new file's, without being read again: what was typed while this
      // save was on its way stays, and is saved as the user types from now on (save-answer.ts).
      unsavedRef.current = null;
      setUnsaved(null);
      onDisk.current = stableJson(written);
      selectedRef.current = path;
      setSelected(path);
      keepLast(path);
      if (draftRef.current === request) {
        draftRef.current = written;
        setDraft(written);
      } else if (draftRef.current) edit(draftRef.current);
      await loadWorkspace();
    } catch (e) {
      setNotice(`Not saved: ${(e as Error).message}`);
    }
  }, [loadWorkspace, edit]);

  useEffect(() => {
    // Closing or reloading the page within the save delay, or with an unsaved request open, would
    // lose the edits: the pending save starts now, and the browser asks before leaving.
    const onLeave = (e: BeforeUnloadEvent) => {
      if (saveTimer.current === undefined && !unsavedRef.current && !saveRefused.current) return;
      void saveNow();
      e.preventDefault();
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, [saveNow]);

  /** The open request moved (itself, or a folder above it): the editor follows it. */
  const followMove = (from: string, to: string) => {
    const open = selectedRef.current;
    if (!open || from === to) return;
    const next = open === from ? to : open.startsWith(`${from}/`) ? `${to}${open.slice(from.length)}` : undefined;
    if (!next) return;
    selectedRef.current = next;
    setSelected(next);
    keepLast(next);
  };

  /** A move or delete of the app's own: the file watcher's report of it must not read as the open request deleted outside the app. */
  const tracked = <T,>(move: Promise<T>): Promise<T> => {
    moving.current = move.catch(() => undefined);
    return move;
  };

  /** Moves a request or folder into `folder` (nothing when it is there already); returns its path after. */
  const moveItem = (path: string, folder: string, isFolder: boolean): Promise<string> => tracked((async () => {
    if (parentOf(path) === folder) return path;
    const moved = isFolder
      ? await api.post<{ path: string; notices?: string[] }>('/api/folder/move', { path, parent: folder })
      : await api.post<{ path: string; notices?: string[] }>('/api/request/move', { path, folder });
    followMove(path, moved.path);
    // What the move could not do (a load test that does not parse, left naming the old path).
    if (moved.notices) setNotice(moved.notices.join(' '));
    return moved.path;
  })());

  /**
   * Deletes with `del` the item `inIt` says the open request is in (itself, or its folder). The
   * editor stays until the delete has answered, and then closes; refused, it stays with its edit.
   */
  const removeWith = async (inIt: (open: string | null) => open is string, del: () => Promise<unknown>): Promise<void> => {
    const open = selectedRef.current;
    // A save of the open request on its way is refused as no longer there, which is not said (the user said OK).
    if (inIt(open)) deletedOpen.current = open;
    const deleted = (async () => {
      try {
        // Tracked as a move is: the watcher's report of the file gone is this delete, not one made outside the app.
        await tracked(del());
      } catch (e) {
        // Refused (a folder that allows no removal): the open request stays, its edit with it, saved as usual.
        if (deletedOpen.current === open) deletedOpen.current = null;
        setNotice(`Not deleted: ${(e as Error).message}`);
        return;
      }
      if (!inIt(selectedRef.current)) return;
      clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
      deletedOpen.current = selectedRef.current;
      // Now, not at the next render (as an open does). What was said or kept of its edit goes with
      // it: a refused edit's "Not saved" and its question on leaving, a wait for another process's lock.
      selectedRef.current = null;
      draftRef.current = null;
      onDisk.current = '';
      saveRefused.current = null;
      waitsForLock.current = false;
      unsavedRef.current = null;
      setUnsaved(null);
      setNotice((shown) => (shown?.startsWith('Not saved:') ? null : shown));
      setConflict(conflictRef.current = null);
      setSelected(null);
      setDraft(null);
    })();
    // The editor stays until the delete has answered; saves asked meanwhile wait for it: deleted,
    // they find the editor closed and write nothing back; refused, they write the edit.
    saving.current = saving.current.then(() => deleted);
    await deleted;
  };

  /** The conflict bar's two sides for the open request. */
  const conflictSides: ConflictSides<RequestFile> = {
    setBase: (file) => { onDisk.current = stableJson(file); },
    show: (file) => {
      clearTimeout(saveTimer.current);
      saveTimer.current = undefined;
      draftRef.current = file;
      setDraft(file);
      // The edit a refusal was about is dropped: its "Not saved" no longer holds, and leaving has nothing to ask.
      saveRefused.current = null;
      waitsForLock.current = false;
      setNotice((shown) => (shown?.startsWith('Not saved:') ? null : shown));
    },
    save: () => { edit(draftRef.current!); void saveNow(); },
    clear: () => setConflict(conflictRef.current = null),
  };

  return {
    selected, draft, conflict, unsaved, conflictSides,
    selectedRef, draftRef, unsavedRef, opening, moving, saving,
    saveNow, openRequest, edit, checkExternal, openUnsaved, saveUnsaved, followMove, tracked, moveItem, removeWith,
  };
}
