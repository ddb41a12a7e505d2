/**
 * The app's one screen: sidebar, request editor, response viewer, runner, dialogs. Edits are
 * saved to the request's file as the user types (debounced); edits made outside the app arrive
 * over the live channel and replace the editor's content, or, when the user has unsaved edits
 * of the same request, show a conflict to resolve: nothing is lost either way.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { EDITOR_SHARE, LOCK_WAIT_NOTICE_START, SIDEBAR_WIDTH, type AppView, type SplitLayout } from '../shared/api.js';
import type { ImportDone, LiveEvent, RequestFile, SendResponse, StreamMessage, TokenResponse, UnsavedImport, TrafficView, TreeItem, WorkspaceInfo } from '../shared/api.js';
import { api, ApiFailure, connectLive, stableJson } from './api.js';
import { takeInitialLast, takeInitialView, takeInitialWorkspace } from './boot.js';
import { fetchWorkspace, parentOf } from './tree.js';
import { CodeDialog } from './CodeDialog.js';
import { CommandPalette, type PaletteCommand } from './CommandPalette.js';
import { CookiesDialog } from './CookiesDialog.js';
import { modalDialogOpen } from './dialog-focus.js';
import { EnvironmentDialog, NewEnvironmentDialog } from './EnvironmentDialog.js';
import { HistoryDialog } from './HistoryDialog.js';
import { ImportDialog } from './ImportDialog.js';
import { publishLoadEvent } from './load-events.js';
import { dismissLockWait, lockWaitOver, lockWaitSaid, useLockWait } from './lock-wait.js';
import { newId, onSignIn, openSignIn, publishAuthorizeEvent } from './sign-in.js';
import { LivePanel, publishConnectionEvent } from './LivePanel.js';
import { RequestEditor } from './RequestEditor.js';
import { ResponseViewer } from './ResponseViewer.js';
import { RunnerPanel, type DataFile, type RunView } from './RunnerPanel.js';
import { ServersPanel, TRAFFIC_SHOWN } from './ServersPanel.js';
import { AutoStartNotice } from './AutoStartNotice.js';
import { CatalogPicker } from './CatalogPicker.js';
import { ConflictBar } from './ConflictBar.js';
// graphql-js is loaded only for requests with a GraphQL body.
// The load panel (uPlot) loads when first opened: the page is usable sooner.
const LoadPanel = lazy(() => import('./LoadPanel.js').then((m) => ({ default: m.LoadPanel })));
const GraphqlSchemaPanel = lazy(() => import('./GraphqlSchemaPanel.js').then((m) => ({ default: m.GraphqlSchemaPanel })));
import { SettingsDialog } from './SettingsDialog.js';
import { AppSettingsDialog } from './AppSettingsDialog.js';
import { Sidebar, type SidebarActions } from './Sidebar.js';
import { Splitter } from './Splitter.js';
import { WorkSplit } from './WorkSplit.js';
import { useLatest } from './latest.js';
import { UpdateSpecDialog } from './UpdateSpecDialog.js';
import { shownName } from '../../support/shown-name.js';

const SAVE_DELAY_MS = 400;
/** A save refused because another Ferry process held the workspace's write lock is tried again after this long. */
const BUSY_RETRY_MS = 3000;
/** What the sidebar leaves to the editor and response at least: a narrow window narrows the widest sidebar. */
const WORK_MIN_WIDTH = 420;

/** The widest the sidebar may be in a window `windowWidth` wide. */
function widestSidebar(windowWidth: number): number {
  return Math.max(SIDEBAR_WIDTH.min, Math.min(SIDEBAR_WIDTH.max, windowWidth - WORK_MIN_WIDTH));
}

function folders(item: TreeItem, out: string[] = []): string[] {
  if (item.type === 'folder') {
    if (item.path) out.push(item.path);
    for (const child of item.children) folders(child, out);
  }
  return out;
}

/** Shown while a send or a run waits for the user to sign in at the OAuth 2.0 provider (authorization code). */
const SIGN_IN_NOTICE = 'OAuth 2.0: sign in in the window that opened; the request goes on when the provider sends you back (Cancel or Stop stops waiting).';

export function App() {
  const [info, setInfo] = useState<WorkspaceInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [draft, setDraft] = useState<RequestFile | null>(null);
  const [conflict, setConflict] = useState<RequestFile | null>(null);
  const [answer, setAnswer] = useState<SendResponse | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const lockWait = useLockWait();
  /** The notice shown goes: the wait of a write for another process's lock, when one is said, else the notice. */
  const closeNotice = useCallback(() => (lockWait ? dismissLockWait() : setNotice(null)), [lockWait]);
  const [dialog, setDialog] = useState<{ type: 'code'; path: string; request?: RequestFile } | { type: 'import'; into?: string } | { type: 'environment'; id: string } | { type: 'newEnvironment' } | { type: 'cookies' } | { type: 'variables' } | { type: 'history' } | { type: 'update'; folder: string } | { type: 'settings'; folder: string } | { type: 'appSettings' } | null>(null);
  const [runner, setRunner] = useState<{ folder: string } | null>(null);
  const [run, setRun] = useState<RunView | null>(null);
  const [connected, setConnected] = useState(false);
  const [serversOpen, setServersOpen] = useState(false);
  const [loadOpen, setLoadOpen] = useState(false);
  /** Once opened, the load panel stays mounted (hidden when closed): closing it keeps its draft and run. */
  const loadKept = useRef(false);
  if (loadOpen) loadKept.current = true;
  const [traffic, setTraffic] = useState<TrafficView[]>([]);
  /** Counts the workspace's changes on disk (the live channel's `changed`): the servers and load panels read their lists again. */
  const [diskChanges, setDiskChanges] = useState(0);
  /** Moves when a server started or failed on its own (its file saved after a failed start): the servers panel reads its list again. */
  const [serverChanges, setServerChanges] = useState(0);
  /** Moves when this computer's settings file changed (`ferry config set` in a terminal): Application settings reads them again. */
  const [appSettingsChanges, setAppSettingsChanges] = useState(0);
  /** Messages of the send in flight (SSE events), shown as they arrive. */
  const [liveMessages, setLiveMessages] = useState<StreamMessage[]>([]);
  const [variableNames, setVariableNames] = useState<string[] | null>(null);
  // Before the kept look arrives: the theme this browser kept for this port (earlier versions kept it there), else the system's.
  const [theme, setTheme] = useState<'light' | 'dark'>(() => (localStorage.getItem('ferry.theme') as 'light' | 'dark' | null) ?? (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'));
  /** The look kept on this computer has been read (or could not be: the defaults then). */
  const [viewRead, setViewRead] = useState(false);
  const [sidebarWidth, setSidebarWidth] = useState<number>(SIDEBAR_WIDTH.initial);
  const [editorShare, setEditorShare] = useState<number>(EDITOR_SHARE.initial);
  const [splitLayout, setSplitLayout] = useState<SplitLayout>('side-by-side');
  const [windowWidth, setWindowWidth] = useState(() => window.innerWidth);

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
  const sendId = useRef<string | null>(null);
  /** An environment switch in flight: a send waits for it, so it uses the environment picked. */
  const switching = useRef<Promise<unknown>>(Promise.resolve());
  /**
   * The environment picked while its switch is on its way: a workspace read that started before
   * the server switched (a file change's) answers with the one before, and must not put it back
   * (✎ then opened the previous environment).
   */
  const pickedEnvironment = useRef<{ id: string | null } | null>(null);
  /** A request being opened (picked in the tree, the palette, History): a send waits for it, so it sends the request picked. */
  const opening = useRef<Promise<unknown>>(Promise.resolve());
  /** The requests picked: only the newest pick's file goes into the editor. */
  const openedPicks = useLatest();
  /** The open request's reads on changes on disk: an older one answering last would put back the file before the latest change. */
  const externalReads = useLatest();
  const runRef = useRef<RunView | null>(null);
  /** A conflict on screen: until the user picks a side, a newer file version updates it, never the editor. */
  const conflictRef = useRef<RequestFile | null>(null);
  selectedRef.current = selected;
  draftRef.current = draft;
  conflictRef.current = conflict;
  runRef.current = run;

  /** The tree's reads (and the variable names read beside it): changes on disk in a row fetch it again each time, and only the newest read is shown. */
  const workspaceReads = useLatest();
  /**
   * The live channel's count of changes it said: when the tree shown was read (`WorkspaceInfo.changes`)
   * and when the page (re)joined it (the `joined` event). Joined with more, the page missed a
   * change said between its read and its joining (the first read starts before the channel opens).
   */
  const changesSaid = useRef<{ tree?: number; joined?: number }>({});
  /** What the page does on a `changed` it missed (set below, once onLive exists). */
  const missedChange = useRef<() => void>(() => undefined);
  const checkMissed = useCallback(() => {
    const { tree, joined } = changesSaid.current;
    if (tree === undefined || joined === undefined || tree >= joined) return;
    changesSaid.current.joined = undefined;
    missedChange.current();
  }, []);
  const loadWorkspace = useCallback(async () => {
    const newest = workspaceReads.ask();
    try {
      // The names are not needed to show the page: they arrive beside the tree, not after it.
      void api.get<{ names: string[] }>('/api/variables').then((v) => newest() && setVariableNames(v.names), () => undefined);
      const next = await (takeInitialWorkspace() ?? fetchWorkspace());
      // An older read answering last would put back a tree from before the latest change.
      if (!newest()) return;
      const picked = pickedEnvironment.current;
      setInfo(picked ? { ...next, activeEnvironment: picked.id } : next);
      setLoadError(null);
      changesSaid.current.tree = next.changes;
      checkMissed();
    } catch (e) {
      if (newest()) setLoadError((e as Error).message);
    }
  }, []);

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
        setNotice((shown) => (saved.notices ? saved.notices.join(' ') : shown?.startsWith('Not saved:') ? null : shown));
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
      setAnswer(null);
      setSendError(null);
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

  const onLive = useCallback((event: LiveEvent) => {
    if (event.type === 'joined') {
      changesSaid.current.joined = event.changes;
      return checkMissed();
    }
    if (event.type === 'changed') {
      void loadWorkspace();
      setDiskChanges((n) => n + 1);
      const path = selectedRef.current;
      if (path && event.paths.some((p) => p === `requests/${path}` || p === '' || !p.includes('.'))) void checkExternal();
      return;
    }
    if (event.type === 'traffic') {
      setTraffic((rows) => [...rows, ...event.records].slice(-TRAFFIC_SHOWN));
      return;
    }
    if (event.type === 'notice') {
      // A write waiting for another process's lock: said until the server says it is over (lock-wait.ts), over any other notice.
      if (event.message.startsWith(LOCK_WAIT_NOTICE_START)) return lockWaitSaid(event.message);
      setNotice(event.message);
      return;
    }
    if (event.type === 'lockWaitOver') return lockWaitOver();
    if (event.type === 'load') return publishLoadEvent(event);
    if (event.type === 'authorize') {
      // A request of the run in progress waits for the user to sign in at the provider.
      if (runRef.current?.runId !== event.id) return publishAuthorizeEvent(event);
      openSignIn(event.url);
      return setNotice(SIGN_IN_NOTICE);
    }
    if (event.type === 'servers') return setServerChanges((n) => n + 1);
    if (event.type === 'appSettings') return setAppSettingsChanges((n) => n + 1);
    if (publishConnectionEvent(event)) return;
    if (event.type === 'message') {
      if (event.sendId === sendId.current) setLiveMessages((list) => (list.length >= 1000 ? list : [...list, event.message]));
      return;
    }
    const current = runRef.current;
    if (!current || current.runId !== event.runId) return;
    const e = event.event;
    const next: RunView = { ...current };
    if (e.type === 'start') next.total = e.requestCount * e.iterations;
    if (e.type === 'sending') next.current = e.name;
    if (e.type === 'request') {
      next.results = [...current.results, e.result];
      next.position = next.results.length;
    }
    if (e.type === 'warning') next.warnings = [...current.warnings, e.message];
    if (e.type === 'end') {
      next.summary = e.summary;
      setNotice((shown) => (shown === SIGN_IN_NOTICE ? null : shown));
    }
    runRef.current = next;
    setRun(next);
  }, [loadWorkspace, checkExternal]);
  // A change missed while not joined is taken as any change: anything may have changed, the open request too.
  missedChange.current = () => onLive({ type: 'changed', paths: [''] });

  useEffect(() => {
    // The tree and the last request load side by side: the page is usable when both are there.
    void loadWorkspace();
    // The request last opened, unless the user opened another meanwhile.
    void takeInitialLast()?.then((last) => {
      if (last.path && last.request && !selectedRef.current) void openRequest(last.path, true, last.request);
    }, () => undefined);
    return connectLive((e) => onLive(e), (on) => {
      // Dropped, the channel may miss the end of a wait it said: not said on.
      if (!on) dismissLockWait();
      setConnected(on);
    });
  }, []);

  useEffect(() => {
    void (takeInitialView() ?? api.get<AppView>('/api/view')).then((view) => {
      if (view.theme) setTheme(view.theme);
      if (view.sidebarWidth) setSidebarWidth(view.sidebarWidth);
      if (view.editorShare) setEditorShare(view.editorShare);
      if (view.splitLayout) setSplitLayout(view.splitLayout);
    }, () => undefined).finally(() => setViewRead(true));
    const onResize = () => setWindowWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  /** Keeps a change of the look on this computer (the data folder: the page's own storage is lost with the port). */
  const keepView = (change: AppView) => {
    api.put<AppView>('/api/view', change).catch((e: Error) => setNotice(`Not kept for the next start: ${e.message}`));
  };
  const pickLayout = (next: SplitLayout) => {
    setSplitLayout(next);
    keepView({ splitLayout: next });
  };
  const pickTheme = (next: 'light' | 'dark') => {
    setTheme(next);
    keepView({ theme: next });
  };

  const send = useCallback(async () => {
    if (sendId.current) return;
    const id = newId();
    sendId.current = id;
    await switching.current;
    await opening.current;
    const request = draftRef.current;
    const path = selectedRef.current;
    if (!request || !path) {
      sendId.current = null;
      return;
    }
    setSending(true);
    setSendError(null);
    setLiveMessages([]);
    // OAuth 2.0 authorization code: the send waits for the user to sign in at the provider.
    const stopSignIn = onSignIn(id, (url) => {
      openSignIn(url);
      setNotice(SIGN_IN_NOTICE);
    });
    try {
      const answer = await api.post<SendResponse>('/api/send', { id, path, request });
      // The answer belongs to the request sent: another one shown meanwhile keeps its own (empty) view.
      if (selectedRef.current === path) setAnswer(answer);
    } catch (e) {
      if (selectedRef.current === path) setSendError((e as Error).message);
    } finally {
      stopSignIn();
      // Signed in (or not): the notice has done its job.
      setNotice((shown) => (shown === SIGN_IN_NOTICE ? null : shown));
      sendId.current = null;
      setSending(false);
    }
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
    setAnswer(null);
    setSendError(null);
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

  // "Get token": the OAuth 2.0 token of what the editor holds, fetched as a send would, nothing sent.
  const getToken = useCallback((id: string, signal: AbortSignal) => api.post<TokenResponse>('/api/oauth2/token', { id, path: selectedRef.current, request: draftRef.current }, signal), []);

  const cancel = useCallback(() => {
    if (sendId.current) void api.post('/api/cancel', { id: sendId.current });
  }, []);

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

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key === 'Enter') {
        if (modalDialogOpen()) return; // a dialog holds the keyboard: the request behind it is not sent
        e.preventDefault();
        void send();
      } else if (mod && e.key.toLowerCase() === 's') {
        // Taken already by what has the focus: a dialog's or the load panel's own Save.
        if (e.defaultPrevented) return;
        e.preventDefault();
        void (unsavedRef.current ? saveUnsaved() : saveNow());
      } else if (e.key === 'Escape' && !e.defaultPrevented) {
        setDialog(null); // the open dialog closes, as its × does
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [send, saveNow, saveUnsaved]);

  const startRun = async (iterations: number | undefined, data: DataFile | undefined) => {
    if (!runner) return;
    await saveNow();
    const runId = newId();
    const view: RunView = { runId, folder: runner.folder, position: 0, total: 0, current: '', results: [], summary: null, warnings: [] };
    runRef.current = view;
    setRun(view);
    try {
      // `Users/`: the folder, never a request `Users.yaml` beside it.
      await api.post('/api/run', { runId, paths: runner.folder ? [`${runner.folder}/`] : [], iterations, data });
    } catch (e) {
      setRun({ ...view, warnings: [(e as Error).message], summary: { requests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, failedTests: 0, durationMs: 0, iterations: iterations ?? 0 } });
    }
  };

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

  const actions: SidebarActions = {
    select: (path) => void openRequest(path),
    newRequest: async (folder) => {
      try {
        const { path } = await api.post<{ path: string }>('/api/request', { folder, name: 'New request' });
        await loadWorkspace();
        await openRequest(path);
      } catch (e) {
        setNotice((e as Error).message);
      }
    },
    newFolder: async (parent) => {
      const name = prompt('Folder name');
      if (!name) return;
      await api.post('/api/folder', { parent, name }).catch((e: Error) => setNotice(e.message));
      await loadWorkspace();
    },
    duplicate: async (path) => {
      await saveNow();
      try {
        const { request } = await api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(path)}`);
        const created = await api.post<{ path: string }>('/api/request', { folder: parentOf(path), request: { ...request, name: `${request.name} copy` } });
        await loadWorkspace();
        await openRequest(created.path);
      } catch (e) {
        setNotice((e as Error).message);
        await loadWorkspace();
      }
    },
    remove: async (item) => {
      // Named as the tree shows it; the question says which file or directory goes.
      if (!confirm(item.type === 'folder'
        ? `Delete folder "${shownName(item.name)}" and everything in it? Its directory requests/${shownName(item.path)}/ is removed.`
        : `Delete request "${shownName(item.type === 'request' ? item.name : item.path.split('/').at(-1)!)}"? Its file requests/${shownName(item.path)} is removed.`)) return;
      const inIt = (open: string | null): open is string => open !== null && (open === item.path || (item.type === 'folder' && open.startsWith(`${item.path}/`)));
      const open = selectedRef.current;
      // A save of the open request on its way is refused as no longer there, which is not said (the user said OK).
      if (inIt(open)) deletedOpen.current = open;
      const deleted = (async () => {
        try {
          // Tracked as a move is: the watcher's report of the file gone is this delete, not one made outside the app.
          await tracked(api.del(`/api/${item.type === 'folder' ? 'folder' : 'request'}?path=${encodeURIComponent(item.path)}`));
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
      await loadWorkspace();
    },
    move: async (path, folder, isFolder = false) => {
      await saveNow();
      try {
        await moveItem(path, folder, isFolder);
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    place: async (path, isFolder, target) => {
      await saveNow();
      try {
        const moved = await moveItem(path, parentOf(target.path), isFolder);
        await api.post('/api/tree/place', { path: moved, before: target.path });
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    renameFolder: async (path, shown) => {
      const name = prompt('New folder name', shown);
      if (!name) return;
      await saveNow();
      try {
        await tracked(api.post<{ path: string; notices?: string[] }>('/api/folder/rename', { path, name }).then((renamed) => {
          followMove(path, renamed.path);
          if (renamed.notices) setNotice(renamed.notices.join(' '));
        }));
      } catch (e) {
        setNotice((e as Error).message);
      }
      await loadWorkspace();
    },
    run: (folder) => {
      setRunner({ folder });
      setRun(null);
    },
    // An unsaved request (cURL, a file deleted elsewhere) has no file to read: the editor's version goes along.
    copyAsCode: (path) => void saveNow().then(() => setDialog({ type: 'code', path, ...(unsavedRef.current && path === selectedRef.current && draftRef.current ? { request: draftRef.current } : {}) })),
    updateFromSpec: (folder) => void saveNow().then(() => setDialog({ type: 'update', folder })),
    importInto: (folder) => setDialog({ type: 'import', into: folder }),
    settings: (folder) => setDialog({ type: 'settings', folder }),
  };

  /** The environment picked (top bar or palette): shown at once; the editor (✎) and sends use it, not the one the last read reported. */
  const switchEnvironment = (id: string | null) => {
    const picked = { id };
    pickedEnvironment.current = picked;
    setInfo((current) => (current ? { ...current, activeEnvironment: id } : current));
    switching.current = api.post('/api/environment', id ? { id } : {}).then(loadWorkspace, (err: Error) => setNotice(err.message)).finally(() => {
      if (pickedEnvironment.current === picked) pickedEnvironment.current = null;
    });
  };

  /** The command palette's actions (Ctrl/Cmd+K), with their shortcuts. */
  const commands: PaletteCommand[] = [
    { label: 'New request', run: () => actions.newRequest(selected ? parentOf(selected) : '') },
    { label: 'New folder', run: () => actions.newFolder('') },
    ...(selected ? [{ label: 'Send', shortcut: 'Ctrl+Enter', run: () => void send() }, { label: 'Save', shortcut: 'Ctrl+S', run: () => void saveNow() }, { label: 'Copy as code', run: () => actions.copyAsCode(selected) }] : []),
    { label: 'Import…', run: () => setDialog({ type: 'import' }) },
    { label: 'Edit workspace variables', run: () => setDialog({ type: 'variables' }) },
    { label: 'Workspace settings (auth, headers, scripts)', run: () => actions.settings('') },
    { label: 'Run all requests', run: () => actions.run('') },
    { label: 'History', run: () => setDialog({ type: 'history' }) },
    { label: 'Cookies', run: () => setDialog({ type: 'cookies' }) },
    { label: 'Application settings (this computer: timeouts, TLS, proxy, files outside the workspace)', run: () => setDialog({ type: 'appSettings' }) },
    { label: 'Servers', run: () => setServersOpen(true) },
    ...(info?.activeEnvironment ? [{ label: 'Edit environment', run: () => setDialog({ type: 'environment', id: info.activeEnvironment! }) }] : []),
    { label: 'New environment', run: () => setDialog({ type: 'newEnvironment' }) },
    { label: theme === 'dark' ? 'Light theme' : 'Dark theme', run: () => pickTheme(theme === 'dark' ? 'light' : 'dark') },
    { label: splitLayout === 'stacked' ? 'Answer beside the request' : 'Answer below the request', run: () => pickLayout(splitLayout === 'stacked' ? 'side-by-side' : 'stacked') },
  ];

  if (loadError && !info) return <div className="fatal"><h2>Ferry</h2><p>{loadError}</p></div>;
  if (!info || !viewRead) return <div className="fatal"><p>Loading…</p></div>;
  const widest = widestSidebar(windowWidth);
  return (
    <div className="app">
      <header className="topbar">
        <strong className="ws-name" title={shownName(info.root)}>{shownName(info.name)}</strong>
        <select
          aria-label="Environment"
          value={info.activeEnvironment ?? ''}
          onChange={(e) => switchEnvironment(e.target.value || null)}
        >
          <option value="">No environment</option>
          {info.environments.map((env) => <option key={env.id} value={env.id}>{shownName(env.name)}</option>)}
        </select>
        {info.activeEnvironment && <button aria-label="Edit environment" title="Edit the environment: its name and variables" onClick={() => setDialog({ type: 'environment', id: info.activeEnvironment! })}>✎</button>}
        <button aria-label="New environment" title="Add an environment, empty or a copy" onClick={() => setDialog({ type: 'newEnvironment' })}>+</button>
        <button aria-label="Workspace variables" title="The workspace's own variables (ferry.yaml)" onClick={() => setDialog({ type: 'variables' })}>{'{ }'}</button>
        <button onClick={() => setDialog({ type: 'import' })}>Import</button>
        <button onClick={() => actions.run('')}>Run all</button>
        {selected && <button onClick={() => actions.copyAsCode(selected)}>Copy as code</button>}
        <button onClick={() => setDialog({ type: 'cookies' })}>Cookies</button>
        <button onClick={() => setDialog({ type: 'history' })}>History</button>
        <button aria-pressed={serversOpen} onClick={() => setServersOpen(!serversOpen)}>Servers</button>
        <button aria-pressed={loadOpen} onClick={() => setLoadOpen(!loadOpen)}>Load tests</button>
        <span className="spacer" />
        <button aria-label="Application settings" title="This computer's settings: timeouts, TLS, proxy, files outside the workspace (ferry config)" onClick={() => setDialog({ type: 'appSettings' })}>⚙</button>
        {/* Not by colour alone: a hollow dot while reconnecting, and words for screen readers. */}
        <span className={`live ${connected ? 'on' : ''}`} role="status" aria-label={connected ? 'Live updates: on' : 'Live updates: reconnecting…'} title={connected ? 'Live: file changes show at once' : 'Reconnecting…'}>{connected ? '●' : '○'}</span>
        <button aria-label="Answer below the request" aria-pressed={splitLayout === 'stacked'} title="The answer below the request (stacked) or beside it" onClick={() => pickLayout(splitLayout === 'stacked' ? 'side-by-side' : 'stacked')}>{splitLayout === 'stacked' ? '⬓' : '◨'}</button>
        <button aria-label="Toggle theme" onClick={() => pickTheme(theme === 'dark' ? 'light' : 'dark')}>{theme === 'dark' ? '☀' : '☾'}</button>
      </header>
      {loadError && <div className="notice" role="alert">{loadError}</div>}
      {(lockWait ?? notice) && (
        // Closed by a click on it, or by its × (a button: the keyboard reaches it too). A write's wait for another process's lock first, while it lasts.
        <div className="notice" role="alert" onClick={closeNotice}>
          {lockWait ?? notice} <button className="icon notice-close" aria-label="Close the notice" title="Close" onClick={closeNotice}>×</button>
        </div>
      )}
      <AutoStartNotice />
      {info.warnings.length > 0 && <details className="warnings"><summary>{info.warnings.length} file warning(s)</summary><ul>{info.warnings.map((w, i) => <li key={i}>{w}</li>)}</ul></details>}
      <div className="main">
        <Sidebar tree={info.tree} selected={selected} actions={actions} id="sidebar" width={Math.min(sidebarWidth, widest)} />
        <Splitter
          controls="sidebar"
          label="Sidebar width"
          size={Math.min(sidebarWidth, widest)}
          min={SIDEBAR_WIDTH.min}
          max={widest}
          initial={SIDEBAR_WIDTH.initial}
          step={SIDEBAR_WIDTH.step}
          onMove={setSidebarWidth}
          onDone={(width) => keepView({ sidebarWidth: width })}
        />
        <main className="work">
          {conflict && draft && (
            <ConflictBar
              file={conflict}
              message="This request changed on disk while you were editing it."
              setBase={(file) => { onDisk.current = stableJson(file); }}
              show={(file) => {
                clearTimeout(saveTimer.current);
                saveTimer.current = undefined;
                draftRef.current = file;
                setDraft(file);
                // The edit a refusal was about is dropped: its "Not saved" no longer holds, and leaving has nothing to ask.
                saveRefused.current = null;
                waitsForLock.current = false;
                setNotice((shown) => (shown?.startsWith('Not saved:') ? null : shown));
              }}
              save={() => { edit(draftRef.current!); void saveNow(); }}
              clear={() => setConflict(conflictRef.current = null)}
            />
          )}
          {draft && selected ? (
            <div className="split">
              {unsaved && (
                <div className="notice unsaved-bar" role="status" data-testid="unsaved-bar">
                  {unsaved.gone
                    ? `This request's file was deleted or moved outside the app; your version is kept here, unsaved: Save (Ctrl+S) writes it again${unsaved.folder ? ` into ${unsaved.folder}` : ''}.`
                    : `Unsaved request (not written yet${unsaved.folder ? `; it goes into ${unsaved.folder}` : ''}): Send works; Save (Ctrl+S) writes it.`}
                  <button className="primary" onClick={() => void saveUnsaved()}>Save</button>
                </div>
              )}
              <WorkSplit
                layout={splitLayout}
                share={editorShare}
                onMove={setEditorShare}
                onDone={(share) => keepView({ editorShare: share })}
                editor={(
                  <>
                    <RequestEditor request={draft} path={selected} onChange={edit} onSend={() => void send()} onCancel={cancel} onGetToken={getToken} sending={sending} variableNames={variableNames} diskChanges={diskChanges} onOpenSettings={actions.settings} />
                    <CatalogPicker request={draft} path={selected} onChange={edit} />
                    {draft.body.type === 'graphql' && <Suspense fallback={null}><GraphqlSchemaPanel request={draft} path={selected} /></Suspense>}
                  </>
                )}
                answer={<ResponseViewer answer={answer} sending={sending} error={sendError} liveMessages={liveMessages} />}
              />
            </div>
          ) : (
            <div className="empty-state">
              <h2>{shownName(info.name)}</h2>
              <p>Pick a request in the sidebar, create one with +, or import a collection, an OpenAPI document or a cURL command.</p>
              <button className="primary" onClick={() => actions.importInto('')}>Import…</button>
            </div>
          )}
          {loadKept.current && <Suspense fallback={null}><LoadPanel hidden={!loadOpen} diskChanges={diskChanges} onClose={() => setLoadOpen(false)} /></Suspense>}
          {draft && selected && <LivePanel request={draft} path={selected} onChange={edit} />}
          {serversOpen && <ServersPanel traffic={traffic} onTraffic={setTraffic} diskChanges={diskChanges + serverChanges} onClose={() => setServersOpen(false)} />}
          {runner && <RunnerPanel run={run} onStart={(n, data) => void startRun(n, data)} onCancel={() => run && void api.post('/api/cancel', { id: run.runId })} onClose={() => setRunner(null)} />}
        </main>
      </div>
      {dialog?.type === 'cookies' && <CookiesDialog onClose={() => setDialog(null)} />}
      {dialog?.type === 'appSettings' && <AppSettingsDialog diskChanges={appSettingsChanges} onClose={() => setDialog(null)} />}
      {dialog?.type === 'variables' && <EnvironmentDialog diskChanges={diskChanges} onClose={() => setDialog(null)} onSaved={() => void loadWorkspace()} />}
      {dialog?.type === 'history' && <HistoryDialog onClose={() => setDialog(null)} onOpenRequest={(path) => void openRequest(path)} />}
      {dialog?.type === 'settings' && <SettingsDialog key={dialog.folder} folder={dialog.folder} diskChanges={diskChanges} onClose={() => setDialog(null)} onSaved={() => void loadWorkspace()} />}
      {dialog?.type === 'update' && <UpdateSpecDialog folder={dialog.folder} onClose={() => setDialog(null)} onDone={() => void loadWorkspace()} />}
      <CommandPalette tree={info.tree} environments={info.environments} commands={commands} targets={{ openRequest: (path) => void openRequest(path), runFolder: actions.run, switchEnvironment }} />
      {dialog?.type === 'code' && <CodeDialog path={dialog.path} request={dialog.request} onClose={() => setDialog(null)} />}
      {dialog?.type === 'environment' && <EnvironmentDialog key={dialog.id} id={dialog.id} diskChanges={diskChanges} onClose={() => setDialog(null)} onSaved={() => void loadWorkspace()} />}
      {dialog?.type === 'newEnvironment' && (
        <NewEnvironmentDialog
          environments={info.environments}
          onClose={() => setDialog(null)}
          // The new one becomes the active one, and opens in the editor.
          onCreated={(id) => { switchEnvironment(id); setDialog({ type: 'environment', id }); }}
        />
      )}
      {dialog?.type === 'import' && <ImportDialog folders={folders(info.tree)} initialInto={dialog.into} onClose={() => setDialog(null)} onDone={(_d: ImportDone) => void loadWorkspace()} onOpenUnsaved={(opened) => { setDialog(null); void openUnsaved(opened); }} />}
    </div>
  );
}
