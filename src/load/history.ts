/**
 * Load runs kept in the data folder (bounded): a short line per run for the app and `ferry`,
 * never the histograms (those are in the result files the user asks for).
 */
import path from 'node:path';
import { JsonStore, type WorkspaceData } from '../appdata/index.js';
import type { LoadResult } from './result.js';

export const LOAD_HISTORY_LIMIT = 100;

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
}

function store(data: WorkspaceData): JsonStore<LoadHistoryEntry[]> {
  return new JsonStore(path.join(data.dir, 'load-history.json'), () => []);
}

export async function addLoadHistory(data: WorkspaceData, result: LoadResult): Promise<void> {
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
  };
  await store(data).update((list) => {
    list.push(entry);
    list.splice(0, Math.max(0, list.length - LOAD_HISTORY_LIMIT));
  });
}

export async function readLoadHistory(data: WorkspaceData): Promise<LoadHistoryEntry[]> {
  return store(data).read();
}
