/**
 * The load-test panel (docs/app.md, "Load tests"): the files of loadtests/ with an editor, a run
 * with live charts (a point per second from the live channel), the summary and threshold
 * verdicts at the end, the runs kept on this computer with a side-by-side comparison of two, and
 * result files opened (one, or several segments merged as `ferry load merge` merges them). The open
 * test's file changed on disk is read again: taken at once without edits, the conflict bar at
 * once with them.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { LivePoint, LoadHistoryEntry, LoadResultView, LoadRunView, LoadTestFile, LoadTestList } from '../shared/api.js';
import { api, ApiFailure, stableJson } from './api.js';
import { useDraftNotices } from './draft-notices.js';
import { ConflictBar } from './ConflictBar.js';
import { useLeaveGuard } from './guarded-close.js';
import { useDiskReread } from './disk-reread.js';
import { useLatest } from './latest.js';
import { CompareCharts, fromLive, fromResult, RunCharts } from './LoadChart.js';
import { LoadEditor } from './LoadEditor.js';
import { onLoadEvent } from './load-events.js';
import { CompareTable, historyLabel, LoadNotices, LoadSummary } from './LoadSummary.js';
import './load.css';
import { saveOnCtrlS } from './save-shortcut.js';
import { useEditorSave } from './save-answer.js';
import { shownName } from '../../support/shown-name.js';

interface RunState {
  view: LoadRunView;
  points: LivePoint[];
  result?: LoadResultView;
  kept?: string;
  failed?: string;
  stopping?: boolean;
}

type Shown =
  | { type: 'result'; title: string; result: LoadResultView; notices?: string[] }
  | { type: 'compare'; labels: [string, string]; a: LoadResultView; b: LoadResultView };

/** Live points drawn at most: an hour of seconds (the server keeps as many). */
const POINTS_DRAWN = 3600;

/** `hidden`: closed, but kept (the app keeps the panel once opened, so closing it loses no draft and no run in progress). */
/** `diskChanges` moves when workspace files change on disk (git, an editor): the open panel reads its list again. */
export function LoadPanel({ onClose, hidden = false, diskChanges = 0 }: { onClose: () => void; hidden?: boolean; diskChanges?: number }) {
  const [list, setList] = useState<LoadTestList | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [saved, setSaved] = useState<LoadTestFile | null>(null);
  const [draft, setDraft] = useState<LoadTestFile | null>(null);
  /**
   * The error on screen; `forConflict` when it is the save's refusal for the conflict (409): it says
   * why, so the bar says nothing of its own. One state, so any other error put in its place (a list
   * that did not read, a run that did not start) gives the bar its words back.
   */
  const [shownError, setShownError] = useState<{ message: string; forConflict: boolean } | null>(null);
  const error = shownError?.message ?? null;
  const setError = useCallback((message: string | null) => setShownError(message === null ? null : { message, forConflict: false }), []);
  /** The file's version after a save was refused (changed on disk since it was read): taken, or saved over. */
  const [conflict, setConflict] = useState<LoadTestFile | null>(null);
  const [run, setRun] = useState<RunState | null>(null);
  const [history, setHistory] = useState<LoadHistoryEntry[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [shown, setShown] = useState<Shown | null>(null);
  const [busy, setBusy] = useState(false);
  /** What a run of the draft would say before it runs (scripts not run, fields load tests do not have), as the user edits. */
  const runRef = useRef<RunState | null>(null);
  runRef.current = run;
  const dirty = draft !== null && saved !== null && stableJson(draft) !== stableJson(saved);
  /** Save's answer keeps what was typed while it was on its way (save-answer.ts). */
  const saves = useEditorSave(draft);
  const sendSave = saves.save;
  // Kept while the panel is closed, but not past the page: leaving it asks first.
  useLeaveGuard(dirty);
  /** Opening another load test replaces the draft: with unsaved edits, only when the user says so. */
  const leaveDraft = () => !dirty || window.confirm(`Discard your unsaved changes to "${shownName(saved?.name ?? selected)}"? (Cancel, then Save to keep them.)`);

  // Asked on changes on disk, after a save, a create or a delete and when a run ends: an older
  // read answering last listed a load test deleted since, or drew a run over the newer one.
  const lists = useLatest();
  const histories = useLatest();
  const loadList = useCallback(async () => {
    const newest = lists.ask();
    try {
      const next = await api.get<LoadTestList>('/api/loadtests');
      if (!newest()) return;
      setList(next);
      // A run started elsewhere (another page) or before this panel opened: draw what it has.
      if (next.running && runRef.current?.view.runId !== next.running.runId) setRun({ view: next.running, points: next.running.points });
    } catch (e) {
      if (newest()) setError((e as Error).message);
    }
  }, []);

  // Another load test opened meanwhile: its runs, not the one's opened before.
  const loadHistory = useCallback(async (id: string | null) => {
    const newest = histories.ask();
    if (!id) return setHistory([]);
    const entries = await api.get<LoadHistoryEntry[]>(`/api/load/history?id=${encodeURIComponent(id)}`).catch(() => []);
    if (newest()) setHistory(entries);
  }, []);

  /**
   * Opens load test `id`: its file is read by the panel's reads of it (useDiskReread below), so a
   * change while that first read is on its way is read and shown, and of two picked in a row the
   * first answering last is dropped. Until it answers nothing of the one open before is shown.
   */
  const open = useCallback((id: string) => {
    setSelected(id);
    setSaved(null);
    setDraft(null);
    setError(null);
    setConflict(null);
    setShown(null);
    setPicked([]);
    void loadHistory(id);
  }, [loadHistory]);

  useEffect(() => {
    // Shown again, or files changed on disk while shown: files may have come or gone meanwhile.
    if (!hidden) void loadList();
  }, [hidden, diskChanges]);

  useDiskReread(diskChanges, saves, {
    openKey: () => selected ?? undefined,
    read: async () => (await api.get<{ loadTest: LoadTestFile }>(`/api/loadtest?id=${encodeURIComponent(selected!)}`)).loadTest,
    // The first read too (and the read under a new id after a rename); its failure is said until a read of the file succeeds.
    failed: (e) => setError(e.message),
    same: (loadTest) => saved !== null && stableJson(loadTest) === stableJson(saved),
    edited: () => dirty,
    // A refused save's message, if any, stays beside the bar: the bar's own words only stand in for a refusal of this conflict.
    conflict: (loadTest) => setConflict(loadTest),
    take: (loadTest) => {
      // The first read of it: a failure said before (a file that did not parse, fixed since) no longer holds.
      if (saved === null) setError(null);
      setSaved(loadTest);
      setDraft(loadTest);
    },
  }, hidden);

  // Asked again as the draft changes (and when files change on disk: a request may have gained a script); nothing runs.
  const draftNotices = useDraftNotices('/api/loadtest/notices', selected && draft && !hidden ? { id: selected, loadTest: draft } : undefined, [selected, draft, hidden, diskChanges]);

  useEffect(() => {
    return onLoadEvent(({ runId, event }) => {
      if (event.type === 'start') {
        setRun((current) => (current?.view.runId === runId ? { ...current, view: { ...event.run, points: [] } } : { view: event.run, points: [] }));
        return;
      }
      setRun((current) => {
        if (!current || current.view.runId !== runId) return current;
        if (event.type === 'point') return { ...current, points: [...current.points, event.point].slice(-POINTS_DRAWN) };
        if (event.type === 'end') return { ...current, result: event.result, ...(event.kept ? { kept: event.kept } : {}), stopping: false };
        return { ...current, failed: event.message, stopping: false };
      });
      if (event.type === 'end' || event.type === 'failed') {
        void loadList();
        void loadHistory(runRef.current?.view.id ?? null);
      }
    });
  }, []);

  /** Saves the draft over `base`, the version read: the server refuses it (409) when the file changed since. */
  const save = async (base = saved): Promise<boolean> => {
    if (!selected || !draft) return false;
    setError(null);
    setConflict(null);
    try {
      const answer = await sendSave<{ id: string; loadTest: LoadTestFile }>(
        // After a save it follows: that answer's file (its id, after a rename) is the one written over.
        (loadTest, after) => api.put<{ id: string; loadTest: LoadTestFile }>('/api/loadtest', after
          ? { id: after.id, base: after.loadTest, loadTest }
          : { id: selected, ...(base ? { base } : {}), loadTest }),
        (answer, typedSince) => {
          setSaved(answer.loadTest);
          if (!typedSince) setDraft(answer.loadTest);
        },
      );
      // Save pressed while a save was on its way, with nothing typed since: that save wrote it.
      if (!answer) return true;
      // Renamed: its file, so its id, follows the name (2.1.4), and its past runs with it.
      if (answer.id !== selected) {
        setSelected(answer.id);
        void loadHistory(answer.id);
      }
      void loadList();
      return true;
    } catch (e) {
      const file = e instanceof ApiFailure ? (e.body as { loadTest?: LoadTestFile } | undefined)?.loadTest : undefined;
      if (file) setConflict(file);
      setShownError({ message: (e as Error).message, forConflict: file !== undefined });
      return false;
    }
  };

  const create = async () => {
    const name = prompt('Load test name');
    if (!name) return;
    try {
      const { id } = await api.post<{ id: string }>('/api/loadtest', { name });
      await loadList();
      open(id);
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const remove = async () => {
    if (!selected || !confirm(`Delete the load test "${selected}" (loadtests/${selected}.yaml)?`)) return;
    try {
      await api.post('/api/loadtest/delete', { id: selected });
      setSelected(null);
      setSaved(null);
      setDraft(null);
      await loadList();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const start = async () => {
    if (!selected) return;
    if (dirty && !(await save())) return;
    setError(null);
    setShown(null);
    // The last run's charts and summary go: what shows next is the new run.
    setRun(null);
    setBusy(true);
    try {
      const view = await api.post<LoadRunView>('/api/load/run', { id: selected });
      setRun((current) => (current?.view.runId === view.runId ? current : { view, points: view.points }));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const stop = async () => {
    const current = runRef.current;
    if (!current) return;
    setRun({ ...current, stopping: true });
    await api.post('/api/load/stop', { runId: current.view.runId }).catch((e: Error) => setError(e.message));
  };

  const showKept = async (entry: LoadHistoryEntry) => {
    if (!entry.result) return;
    try {
      const result = await api.get<LoadResultView>(`/api/load/result?name=${encodeURIComponent(entry.result)}`);
      setShown({ type: 'result', title: `Run of ${historyLabel(entry)}`, result, ...(entry.notices ? { notices: entry.notices } : {}) });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const compare = async () => {
    const [first, second] = picked.map((name) => history.find((h) => h.result === name)!).sort((x, y) => Date.parse(x.startedAt) - Date.parse(y.startedAt));
    if (!first || !second) return;
    try {
      const [a, b] = await Promise.all([first, second].map((h) => api.get<LoadResultView>(`/api/load/result?name=${encodeURIComponent(h.result!)}`)));
      setShown({ type: 'compare', labels: [historyLabel(first), historyLabel(second)], a: a!, b: b! });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  /** Result files from disk: one is shown as it is; several are the segments of one test, merged. */
  const openFiles = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setError(null);
    try {
      const read = await Promise.all([...files].map(async (f) => ({ name: f.name, text: await f.text() })));
      const result = await api.post<LoadResultView>('/api/load/open', { files: read });
      setShown({ type: 'result', title: read.length === 1 ? `Opened ${shownName(read[0]!.name)}` : `Merged ${read.map((f) => shownName(f.name)).join(', ')}`, result });
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const running = run !== null && !run.result && !run.failed;
  const last = run?.points.at(-1);
  const errors = run?.points.reduce((n, p) => n + p.errors, 0) ?? 0;
  const dropped = run?.points.reduce((n, p) => n + p.dropped, 0) ?? 0;
  const broken = list?.loadTests.find((t) => t.id === selected)?.error;

  return (
    <section
      className="runner load-panel"
      aria-label="Load tests"
      hidden={hidden}
      onKeyDown={saveOnCtrlS(() => dirty && void save())}
    >
      <header>
        <h3>Load tests</h3>
        <span className="spacer" />
        <label className="file-open">
          Open result file…
          <input type="file" accept=".json,application/json" multiple aria-label="Open result file" onChange={(e) => { void openFiles(e.target.files); e.target.value = ''; }} />
        </label>
        <button className="icon" aria-label="Close load tests" onClick={onClose}>×</button>
      </header>
      <div className="load-body">
        <nav className="load-list">
          <ul aria-label="Load test list">
            {list?.loadTests.map((t) => (
              <li key={t.id} className={`${t.id === selected ? 'on' : ''} ${t.error ? 'warn' : ''}`} data-loadtest={t.id} onClick={() => { if (t.id !== selected && leaveDraft()) open(t.id); }} title={t.error ?? `loadtests/${t.id}.yaml`}>
                {t.error ? '⚠ ' : ''}{shownName(t.name)} <small className="muted">{t.error ? 'does not parse' : `${t.targets} target${t.targets === 1 ? '' : 's'}`}</small>
              </li>
            ))}
          </ul>
          {list?.loadTests.length === 0 && <p className="muted small">No load tests: add one with New (it is saved as loadtests/NAME.yaml).</p>}
          <button onClick={() => { if (leaveDraft()) void create(); }}>New load test</button>
        </nav>
        <div className="load-main">
          {error && <p className="error" role="alert">{error}</p>}
          {conflict && (
            <ConflictBar
              file={conflict}
              message={shownError?.forConflict ? undefined : `loadtests/${selected}.yaml changed on disk while you were editing it.`}
              setBase={setSaved}
              show={(file) => { setDraft(file); setError(null); }}
              save={(file) => void save(file)}
              clear={() => setConflict(null)}
            />
          )}
          {broken && <p className="muted">Fix loadtests/{selected}.yaml in an editor; it shows here once it parses.</p>}
          {draft && selected && (
            <details open className="load-edit">
              <summary>
                <b>{shownName(saved?.name ?? selected)}</b> <span className="muted">loadtests/{selected}.yaml{dirty ? ' · unsaved changes' : ''}</span>
              </summary>
              <LoadNotices notices={draftNotices} label="Notices of this load test" />
              <LoadEditor test={draft} requests={list?.requests ?? []} onChange={setDraft} />
              <div className="load-actions">
                <button className="primary" disabled={!dirty} onClick={() => void save()}>Save</button>
                <button disabled={!dirty} onClick={() => setDraft(saved)}>Revert</button>
                <button className="danger" onClick={() => void remove()}>Delete</button>
              </div>
            </details>
          )}
          {selected && !broken && (
            <div className="load-actions">
              <button className="primary" disabled={running || busy || !draft} onClick={() => void start()}>{dirty ? 'Save and run' : 'Run'}</button>
              {running && <button className="danger" disabled={run?.stopping} onClick={() => void stop()}>{run?.stopping ? 'Stopping…' : 'Stop'}</button>}
            </div>
          )}
          {run && !shown && (
            <div className="load-run" data-testid="load-run" data-state={running ? 'running' : run.result ? 'done' : 'failed'} data-run-id={run.view.runId}>
              <h4>{shownName(run.view.name)} {running ? <span className="muted">running…</span> : null}</h4>
              <p className="load-status" data-testid="load-status">
                {last ? `${Math.min(last.elapsedSeconds, run.view.plannedSeconds).toFixed(0)} / ${run.view.plannedSeconds} s` : `0 / ${run.view.plannedSeconds} s`}
                {' · '}{last?.count ?? 0} req/s · p95 {last?.p95 == null ? '-' : `${last.p95.toFixed(1)} ms`} · errors {errors} · {run.view.model === 'arrivalRate' ? 'in flight' : 'users'} {last?.active ?? 0} · dropped {dropped}
              </p>
              <LoadNotices notices={run.view.notices} />
              <RunCharts points={run.result ? fromResult(run.result) : fromLive(run.points)} model={run.view.model} />
              {run.failed && <p className="error" role="alert">{run.failed}</p>}
              {run.result && <LoadSummary result={run.result} />}
            </div>
          )}
          {shown?.type === 'result' && (
            <div className="load-run" data-testid="load-shown">
              <button className="small" onClick={() => setShown(null)}>← back</button>
              <LoadNotices notices={shown.notices} />
              <RunCharts points={fromResult(shown.result)} model={shown.result.loadTest.model} prefix="shown" />
              <LoadSummary result={shown.result} title={shown.title} />
            </div>
          )}
          {shown?.type === 'compare' && (
            <div className="load-run" data-testid="load-compare">
              <button className="small" onClick={() => setShown(null)}>← back</button>
              <h4>A: {shown.labels[0]} · B: {shown.labels[1]}</h4>
              <CompareTable a={shown.a} b={shown.b} labels={shown.labels} />
              <CompareCharts a={fromResult(shown.a)} b={fromResult(shown.b)} />
              <div className="side-by-side">
                <LoadSummary result={shown.a} title={`A: ${shown.labels[0]}`} />
                <LoadSummary result={shown.b} title={`B: ${shown.labels[1]}`} />
              </div>
            </div>
          )}
          {selected && (
            <div className="load-history">
              <h4>Runs on this computer <small className="muted">the last 100; the last 20 keep their whole result. Tick two to compare.</small></h4>
              <table className="plain load-table" aria-label="Load test runs">
                <thead><tr><th /><th>started</th><th>duration</th><th>requests</th><th>req/s</th><th>errors</th><th>p95</th><th>p99</th><th>verdict</th><th /></tr></thead>
                <tbody>
                  {history.map((h, i) => (
                    <tr key={`${h.startedAt}-${i}`} data-history={i}>
                      <td>{h.result && <input type="checkbox" aria-label={`Compare run ${i + 1}`} checked={picked.includes(h.result)} onChange={(e) => setPicked((p) => (e.target.checked ? [...p, h.result!].slice(-2) : p.filter((x) => x !== h.result)))} />}</td>
                      <td>{historyLabel(h)}{h.notices?.length ? <span className="load-notice-mark" title={h.notices.join('\n')} aria-label={`Notices: ${h.notices.join(' ')}`}> ⚠</span> : null}</td>
                      <td className="num">{h.durationSeconds.toFixed(1)} s</td>
                      <td className="num">{h.count}</td>
                      <td className="num">{h.rps.toFixed(1)}</td>
                      <td className="num">{h.errorRate.toFixed(2)}%</td>
                      <td className="num">{h.p95 === null ? '-' : h.p95.toFixed(1)}</td>
                      <td className="num">{h.p99 === null ? '-' : h.p99.toFixed(1)}</td>
                      <td className={h.passed ? 'ok' : 'bad'}>{h.passed ? 'passed' : h.interrupted ? 'interrupted' : 'failed'}</td>
                      <td>{h.result ? <button className="small" onClick={() => void showKept(h)}>Open</button> : <span className="muted small">summary only</span>}</td>
                    </tr>
                  ))}
                  {history.length === 0 && <tr><td colSpan={10} className="muted">No runs yet (runs of ferry load on this computer show here too).</td></tr>}
                </tbody>
              </table>
              <button disabled={picked.length !== 2} onClick={() => void compare()}>Compare the two ticked runs</button>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
