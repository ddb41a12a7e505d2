/**
 * The app's one screen: sidebar, request editor, response viewer, runner, dialogs. Edits are
 * saved to the request's file as the user types (debounced); edits made outside the app arrive
 * over the live channel and replace the editor's content, or, when the user has unsaved edits
 * of the same request, show a conflict to resolve: nothing is lost either way. The open request's
 * editor (opening, saving, following, deleting) is open-request.ts; the sidebar's actions are
 * sidebar-actions.ts; this module holds the rest of the page's state and draws it.
 */
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { EDITOR_SHARE, LOCK_WAIT_NOTICE_START, SIDEBAR_WIDTH, type AppView, type SplitLayout } from '../shared/api.js';
import type { ImportDone, LiveEvent, RequestFile, SendResponse, StreamMessage, TokenResponse, TrafficView, TreeItem, WorkspaceInfo } from '../shared/api.js';
import { api, connectLive } from './api.js';
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
import { Sidebar } from './Sidebar.js';
import { sidebarActions } from './sidebar-actions.js';
import { useOpenRequest } from './open-request.js';
import { Splitter } from './Splitter.js';
import { WorkSplit } from './WorkSplit.js';
import { useLatest } from './latest.js';
import { UpdateSpecDialog } from './UpdateSpecDialog.js';
import { shownName } from '../../support/shown-name.js';
import { formatWarning } from '../../workspace/warning-text.js';
import { noticesAfter } from './notices.js';

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
  const [answer, setAnswer] = useState<SendResponse | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [notices, setNotices] = useState<string[]>([]);
  /** One notice said, or an updater of each shown (notices.ts): several stand at once. */
  const setNotice = useCallback<Dispatch<SetStateAction<string | null>>>((action) => setNotices((shown) => noticesAfter(shown, action)), []);
  const lockWait = useLockWait();
  /** That notice goes (its × or a click on it); the others stay. */
  const closeNotice = useCallback((closed: string) => setNotices((shown) => shown.filter((notice) => notice !== closed)), []);
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

  const sendId = useRef<string | null>(null);
  /** An environment switch in flight: a send waits for it, so it uses the environment picked. */
  const switching = useRef<Promise<unknown>>(Promise.resolve());
  /**
   * The environment picked while its switch is on its way: a workspace read that started before
   * the server switched (a file change's) answers with the one before, and must not put it back
   * (✎ then opened the previous environment).
   */
  const pickedEnvironment = useRef<{ id: string | null } | null>(null);
  const runRef = useRef<RunView | null>(null);
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

  const clearAnswer = useCallback(() => {
    setAnswer(null);
    setSendError(null);
  }, []);
  const editor = useOpenRequest({ setNotice, loadWorkspace, clearAnswer });
  const { selected, draft, conflict, unsaved, selectedRef, draftRef, unsavedRef, opening, saveNow, openRequest, edit, checkExternal, openUnsaved, saveUnsaved } = editor;


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


  // "Get token": the OAuth 2.0 token of what the editor holds, fetched as a send would, nothing sent.
  const getToken = useCallback((id: string, signal: AbortSignal) => api.post<TokenResponse>('/api/oauth2/token', { id, path: selectedRef.current, request: draftRef.current }, signal), []);

  const cancel = useCallback(() => {
    if (sendId.current) void api.post('/api/cancel', { id: sendId.current });
  }, []);


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



  const actions = sidebarActions({
    editor,
    setNotice,
    loadWorkspace,
    openDialog: setDialog,
    openRunner: (folder) => {
      setRunner({ folder });
      setRun(null);
    },
  });

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
      {/* Each closed by a click on it, or by its × (a button: the keyboard reaches it too). A write's wait for another process's lock first, while it lasts. */}
      {lockWait && (
        <div className="notice" role="alert" onClick={dismissLockWait}>
          {lockWait} <button className="icon notice-close" aria-label="Close the notice" title="Close" onClick={dismissLockWait}>×</button>
        </div>
      )}
      {notices.map((notice) => (
        <div key={notice} className="notice" role="alert" onClick={(e) => { e.stopPropagation(); closeNotice(notice); }}>
          {notice} <button className="icon notice-close" aria-label="Close the notice" title="Close" onClick={(e) => { e.stopPropagation(); closeNotice(notice); }}>×</button>
        </div>
      ))}
      <AutoStartNotice />
      {info.warnings.length > 0 && <details className="warnings"><summary>{info.warnings.length} file warning(s)</summary><ul>{info.warnings.map((w, i) => <li key={i}>{formatWarning(w)}</li>)}</ul></details>}
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
              {...editor.conflictSides}
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
