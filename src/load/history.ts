/**
 * Load runs kept in the data folder (bounded): a short line per run (the last 100), and the
 * whole result file of the last 20 runs in `load-results/`, so the app can show a past run's
 * charts and compare two runs. Both the CLI and the app keep them (`runLoadTest` does).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { JsonStore, type WorkspaceData } from '../appdata/index.js';
import { writeFileAtomic } from '../support/atomic-write.js';
import type { LoadResult } from './result.js';
import { makeDirs } from '../support/make-dirs.js';

export const LOAD_HISTORY_LIMIT = 100;
/** Whole result files kept (histograms included: a 10-minute run is about 200 KB). */
export const LOAD_RESULTS_KEPT = 20;
const RESULTS_DIR = 'load-results';
/** The names this module gives kept results; anything else is refused when read. */
const RESULT_NAME = /^run-\d{13}-[0-9a-f]{8}\.json$/;

export interface LoadHistoryEntry {
  id: string;
  startedAt: string;
  durationSeconds: number;
  count: number;
  rps: number;
  errorRate: number;
  p95: number | null;
  p99: number | null;
  passed: boolean;
  interrupted: boolean;
  segments: LoadResult['segments'];
  /** What `ferry load` said before the run (requests whose scripts were not run, fields the file has that load tests do not): `planNotices`. */
  notices?: string[];
  /** The kept result file under the data folder's load-results/ (the last 20 runs have one). */
  result?: string;
}

function store(data: WorkspaceData): JsonStore<LoadHistoryEntry[]> {
  return new JsonStore(path.join(data.dir, 'load-history.json'), () => [], 'the list of past load test runs starts empty again (their result files are kept)');
}

export async function addLoadHistory(data: WorkspaceData, result: LoadResult, notices: string[] = []): Promise<LoadHistoryEntry> {
  const dir = path.join(data.dir, RESULTS_DIR);
  await makeDirs(dir, 0o700);
  const name = `run-${Date.now()}-${randomBytes(4).toString('hex')}.json`;
  await writeFileAtomic(path.join(dir, name), `${JSON.stringify(result, null, 2)}\n`, 0o600);
  const entry: LoadHistoryEntry = {
    id: result.loadTest.id,
    startedAt: result.startedAt,
    durationSeconds: result.durationSeconds,
    count: result.overall.count,
    rps: result.overall.rps,
    errorRate: result.overall.errorRate,
    p95: result.overall.latencyMs?.p95 ?? null,
    p99: result.overall.latencyMs?.p99 ?? null,
    passed: result.passed,
    interrupted: result.interrupted,
    segments: result.segments,
    ...(notices.length ? { notices } : {}),
    result: name,
  };
  const dropped = await store(data).update((list) => {
    list.push(entry);
    list.splice(0, Math.max(0, list.length - LOAD_HISTORY_LIMIT));
    // Older runs keep their line; their result file goes.
    const withFile = list.filter((e) => e.result !== undefined);
    const old = withFile.slice(0, Math.max(0, withFile.length - LOAD_RESULTS_KEPT));
    const names = old.map((e) => e.result!);
    for (const e of old) delete e.result;
    return names;
  });
  await Promise.all(dropped.map((n) => fs.rm(path.join(dir, n), { force: true })));
  return entry;
}

/** Load test `from` was renamed to `to` (its file with its name): its past runs are listed under `to`. */
export async function renameLoadHistory(data: WorkspaceData, from: string, to: string): Promise<void> {
  await store(data).update((list) => {
    for (const entry of list) if (entry.id === from) entry.id = to;
  });
}

export async function readLoadHistory(data: WorkspaceData): Promise<LoadHistoryEntry[]> {
  return store(data).read();
}

/** The path of a kept result file by its name in the history; undefined for a name this module did not give. */
export function keptResultFile(data: WorkspaceData, name: string): string | undefined {
  return RESULT_NAME.test(name) ? path.join(data.dir, RESULTS_DIR, name) : undefined;
}
