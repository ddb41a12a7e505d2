/**
 * The load-test panel's routes (spec 2.12; docs/app.md): the files of loadtests/ read, checked
 * by the format's own schema and saved under the workspace lock; runs through `runLoadTest`,
 * as `ferry load` runs them, one at a time, with a point per second on the live channel; the
 * run history and its kept result files; result files (`ferry load merge` output) opened.
 */
import { promises as fs } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { readSettings } from '../../appdata/index.js';
import {
  keptResultFile, LoadInputError, loadTestNotices, mergeResults, MergeError, parseResult, parseStages, planNotices, readLoadHistory, renameLoadHistory, runLoadTest, StageError,
  type LivePoint, type LoadResult,
} from '../../load/index.js';
import { formatFieldPath, parseResource, type LoadTestFile } from '../../model/index.js';
import { requestKind } from '../../protocols/index.js';
import { createEntry, deleteEntry, formatWarning, LOADTESTS_DIR, saveEntry, unreadEntryFiles, walkRequests } from '../../workspace/index.js';
import type { LoadEvent, LoadResultView, LoadRunView, LoadTestItem, LoadTestList } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { checkFileHolds } from './save-base.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import type { WorkspaceState } from './workspace-state.js';
import { writing } from './routes-workspace.js';

/** Points a run keeps for a page that opens later: an hour of seconds; the result file has them all. */
const POINTS_KEPT = 3600;
/** Result files opened at once (merged): as many as segments one would run by hand. */
const OPEN_FILES_LIMIT = 64;

/** The result without its encoded histograms: what the page draws and tabulates. */
export function resultView(result: LoadResult): LoadResultView {
  const strip = <T extends { histogram: string }>({ histogram: _h, ...rest }: T) => rest;
  return { ...result, overall: strip(result.overall), targets: result.targets.map(strip), series: result.series.map(strip) };
}

/** An id from the page: a file name of loadtests/, never a path. */
function idOf(value: string): string {
  if (value === '' || /[/\\]/.test(value) || value.startsWith('.') || value.length > 200) {
    throw new ApiError(400, `"${value.slice(0, 80)}" is not a load test id: give its file name under ${LOADTESTS_DIR}/ without .yaml.`);
  }
  return value;
}

/** The load test as the page sent it, checked against the format (never written when it would not read back). */
function loadTestFrom(body: unknown): LoadTestFile {
  const parsed = parseResource('loadtest', (body as { loadTest?: unknown } | null)?.loadTest);
  if (!parsed.ok) {
    const p = parsed.problems[0]!;
    throw new ApiError(400, `The load test is not valid: ${formatFieldPath(p.path) || 'loadTest'}: ${p.message}. Nothing was saved.`);
  }
  return parsed.value;
}

interface Running {
  view: LoadRunView;
  controller: AbortController;
  done: Promise<void>;
}

export class AppLoadRuns {
  private running: Running | undefined;

  constructor(private readonly state: WorkspaceState, private readonly live: LiveChannel) {}

  current(): LoadRunView | null {
    return this.running?.view ?? null;
  }

  /**
   * Plans the test (every refusal of `ferry load` comes back here as a 400, nothing sent), then
   * runs it in the background: points and the end arrive on the live channel.
   */
  async start(id: string, options: { stages?: string; workers?: number }): Promise<LoadRunView> {
    if (this.running) throw new ApiError(409, `The load test "${this.running.view.id}" is running: stop it or wait for its end (one load test runs at a time).`);
    let stages;
    try {
      stages = options.stages ? parseStages(options.stages) : undefined;
    } catch (error) {
      if (error instanceof StageError) throw new ApiError(400, error.message);
      throw error;
    }
    const runId = randomUUID();
    const controller = new AbortController();
    const publish = (event: LoadEvent) => this.live.publish({ type: 'load', runId, event });
    // Taken now, so a second start while this one plans is refused too.
    const slot: Running = { view: { runId, id, name: id, model: 'virtualUsers', plannedSeconds: 0, notices: [], points: [] }, controller, done: Promise.resolve() };
    this.running = slot;
    let planned!: () => void;
    const plannedOrFailed = new Promise<void>((resolve) => (planned = resolve));
    let kept: string | undefined;
    const run = (async () => {
      // Read from disk, not only the watcher's copy (what sends and runs use): a Start commits
      // minutes of traffic to what the files say now, and a file saved in an editor just before
      // reaches the watcher's copy only after its gathering (80-500 ms): the old stages or target
      // would run. Through reloadAfterOwnWrites, not a plain reload: the app's own saves not yet
      // reported (the editor's Save just before Start) stay the app's, so the watcher's report of
      // them reads the workspace no second time.
      await this.state.reloadAfterOwnWrites([]);
      const settings = await readSettings();
      return runLoadTest({
        workspace: this.state.workspace,
        id,
        data: this.state.data,
        settings,
        face: 'app',
        signal: controller.signal,
        ...(stages ? { stages } : {}),
        ...(options.workers !== undefined ? { workers: options.workers } : {}),
        onPlan: (plan) => {
          slot.view = { runId, id, name: plan.test.name, model: plan.test.model, plannedSeconds: plan.plannedSeconds, notices: planNotices(plan), points: [] };
          publish({ type: 'start', run: slot.view });
          planned();
        },
        onLive: (totals) => {
          totals.onPoint((point: LivePoint) => {
            const points = slot.view.points;
            points.push(point);
            if (points.length > POINTS_KEPT) points.splice(0, points.length - POINTS_KEPT);
            publish({ type: 'point', point });
          });
        },
        onKept: (entry) => (kept = entry.result),
      });
    })();
    slot.done = run.then(
      (result) => publish({ type: 'end', result: resultView(result), ...(kept ? { kept } : {}) }),
      (error: unknown) => {
        if (!(error instanceof LoadInputError)) publish({ type: 'failed', message: `The load test stopped: ${(error as Error).message}` });
      },
    ).finally(() => {
      if (this.running === slot) this.running = undefined;
    });
    // Planning refused: the page gets the message as the answer, nothing was sent.
    const refused = await Promise.race([plannedOrFailed.then(() => undefined), run.then(() => undefined, (error: unknown) => error)]);
    if (refused instanceof LoadInputError) {
      await slot.done;
      throw new ApiError(400, refused.message);
    }
    if (refused) throw refused;
    return slot.view;
  }

  stop(runId: string): boolean {
    if (this.running?.view.runId !== runId) return false;
    this.running.controller.abort();
    return true;
  }

  /** The app closes: the run stops as Ctrl-C stops `ferry load` (its partial result is kept). */
  async close(): Promise<void> {
    const running = this.running;
    running?.controller.abort();
    await running?.done;
  }
}

export function loadRoutes(state: WorkspaceState, runs: AppLoadRuns): Routes {
  const root = () => state.workspace.root;
  const find = (id: string) => {
    const entry = state.workspace.loadtests.find((e) => e.id === id);
    if (entry) return entry;
    const broken = unreadEntryFiles(state.workspace, 'loadtest').get(id);
    if (broken) throw new ApiError(400, formatWarning(broken));
    throw new ApiError(404, `No load test "${id}" (${LOADTESTS_DIR}/${id}.yaml does not exist).`);
  };
  return {
    'GET /api/loadtests': async () => {
      const ws = state.workspace;
      const loadTests: LoadTestItem[] = ws.loadtests.map((e) => ({ id: e.id, name: e.value.name, model: e.value.model, targets: e.value.targets.length }));
      // Files that do not parse are listed with their error, as in the sidebar.
      for (const [id, warning] of unreadEntryFiles(ws, 'loadtest', true)) {
        loadTests.push({ id, name: id, model: 'virtualUsers', targets: 0, error: formatWarning(warning), ...(warning.code ? { errorCode: warning.code } : {}) });
      }
      const requests = [...walkRequests(ws.tree)].filter((r) => requestKind(r.node.request.kind).kind === 'http').map((r) => r.node.path);
      const list: LoadTestList = { loadTests, requests, running: runs.current() };
      return list;
    },

    'GET /api/loadtest': async ({ query }) => {
      const entry = find(idOf(query.get('id') ?? ''));
      return { id: entry.id, loadTest: entry.value };
    },

    /**
     * Saves an edited load test in place (comments and unknown fields kept). A new name renames its
     * file, so its id (2.1.4): its past runs follow; not while it runs (the run is kept under the id it started with).
     */
    'PUT /api/loadtest': async ({ body, page }) => {
      const id = idOf(field(body, 'id'));
      const loadTest = loadTestFrom(body);
      const entry = find(id);
      if (entry.value.name !== loadTest.name && runs.current()?.id === id) {
        throw new ApiError(409, `The load test "${id}" is running: stop it or wait for its end, then rename it (its name names its file and its runs).`);
      }
      // `base`: the load test as the page last read it. When the file no longer holds it (an
      // editor or git changed it before the watcher's reload), nothing is written: 409 with the
      // file's version, as a request save does.
      const base = (body as { base?: unknown }).base;
      const savedId = await writing(state, async () => {
        if (base !== undefined) await checkFileHolds('loadtest', root(), `${LOADTESTS_DIR}/${id}.yaml`, loadTestFrom({ loadTest: base }), (current) => ({ loadTest: current }));
        return saveEntry(root(), 'loadtest', id, loadTest);
      }, page);
      if (savedId !== id) await renameLoadHistory(state.data, id, savedId);
      // Unchanged since, the watcher's report of this write reads nothing again.
      await state.reloadAfterOwnWrites(savedId === id ? [`${LOADTESTS_DIR}/${id}.yaml`] : [`${LOADTESTS_DIR}/${id}.yaml`, `${LOADTESTS_DIR}/${savedId}.yaml`]);
      return { id: savedId, loadTest };
    },

    /**
     * What a run of the editor's load test (saved or not) would say before it runs (scripts not
     * run, fields load tests do not have), worked out as the user edits: nothing planned or sent.
     */
    'POST /api/loadtest/notices': async ({ body }) => {
      const entry = find(idOf(field(body, 'id')));
      return { notices: loadTestNotices(state.workspace, loadTestFrom(body), entry.file) };
    },

    /** A new load test named `name`: one 10-second stage of 5 users, targets to add. */
    'POST /api/loadtest': async ({ body, page }) => {
      const loadTest = loadTestFrom({ loadTest: { name: field(body, 'name'), stages: [{ durationSecs: 10, target: 5 }] } });
      const id = await writing(state, () => createEntry(root(), 'loadtest', loadTest), page);
      // The folder too: the first load test's save creates it.
      await state.reloadAfterOwnWrites([LOADTESTS_DIR, `${LOADTESTS_DIR}/${id}.yaml`]);
      return { id, loadTest };
    },

    /** A POST, not a DELETE: the guard asks every state-changing call for a JSON body. */
    'POST /api/loadtest/delete': async ({ body, page }) => {
      const id = idOf(field(body, 'id'));
      if (runs.current()?.id === id) throw new ApiError(409, `The load test "${id}" is running: stop it first.`);
      find(id);
      await writing(state, () => deleteEntry(root(), 'loadtest', id), page);
      await state.reloadAfterOwnWrites([`${LOADTESTS_DIR}/${id}.yaml`]);
      return {};
    },

    /** Starts a run (`stages`: an optional quick-try override, as `ferry load --stages`); 409 while one runs. */
    'POST /api/load/run': async ({ body }) => {
      const id = idOf(field(body, 'id'));
      const workers = (body as { workers?: unknown }).workers;
      if (workers !== undefined && (typeof workers !== 'number' || !Number.isInteger(workers) || workers < 1 || workers > 64)) {
        throw new ApiError(400, '"workers" must be a whole number from 1 to 64.');
      }
      const stages = optionalField(body, 'stages');
      return runs.start(id, { ...(stages ? { stages } : {}), ...(workers !== undefined ? { workers: workers as number } : {}) });
    },

    /** Stops the run as Ctrl-C does: requests in flight cancelled, the partial result kept (`interrupted`). */
    'POST /api/load/stop': async ({ body }) => ({ stopped: runs.stop(field(body, 'runId')) }),

    /** The runs of this workspace (of one test with `id`), newest first: CLI and app runs alike. */
    'GET /api/load/history': async ({ query }) => {
      const id = query.get('id');
      const all = await readLoadHistory(state.data);
      return all.filter((e) => !id || e.id === id).reverse();
    },

    /** A kept result (the last 20 runs keep theirs), by its name in the history. */
    'GET /api/load/result': async ({ query }) => {
      const name = query.get('name') ?? '';
      const file = keptResultFile(state.data, name);
      if (!file) throw new ApiError(400, `"${name.slice(0, 80)}" is not the name of a kept load result (see GET /api/load/history).`);
      let text: string;
      try {
        text = await fs.readFile(file, 'utf8');
      } catch {
        throw new ApiError(404, `The result ${name} is no longer kept (the last 20 runs keep theirs).`);
      }
      try {
        return resultView(parseResult(text, name));
      } catch (error) {
        if (error instanceof MergeError) throw new ApiError(400, error.message);
        throw error;
      }
    },

    /** Result files the page read (`files`: name and text): one is shown as it is, several are merged as `ferry load merge` merges them. */
    'POST /api/load/open': async ({ body }) => {
      const files = (body as { files?: unknown }).files;
      if (!Array.isArray(files) || files.length === 0) throw new ApiError(400, '"files" must be a list of { name, text } (the result files to open).');
      if (files.length > OPEN_FILES_LIMIT) throw new ApiError(400, `Open at most ${OPEN_FILES_LIMIT} result files at once.`);
      try {
        const results = files.map((f) => parseResult(field(f, 'text'), field(f, 'name')));
        return resultView(results.length === 1 ? results[0]! : mergeResults(results, files.map((f) => field(f, 'name'))));
      } catch (error) {
        if (error instanceof MergeError) throw new ApiError(400, error.message);
        throw error;
      }
    },
  };
}
