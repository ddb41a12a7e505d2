/**
 * The live points (`LiveTotals`): a second becomes a point only once every worker has reported
 * it, in order, with quiet seconds as zero points; the totals and the terminal's line read the
 * same numbers; and the history keeps whole result files for the last runs only.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { encodeHistogram, newHistogram } from '../../src/load/histogram.js';
import { addLoadHistory, LOAD_RESULTS_KEPT, readLoadHistory } from '../../src/load/history.js';
import { LiveTotals, type LivePoint } from '../../src/load/live.js';
import { liveLine } from '../../src/load/summary.js';
import type { LoadResult } from '../../src/load/result.js';
import type { SecondCounts } from '../../src/load/wire.js';
import { tempDir } from '../support/temp.js';

function second(at: number, latenciesMs: number[], extra: Partial<SecondCounts> = {}): SecondCounts {
  const h = newHistogram();
  for (const ms of latenciesMs) h.recordValue(ms * 1000);
  const out = { second: at, count: latenciesMs.length, errors: 0, dropped: 0, active: 0, histogram: encodeHistogram(h), ...extra };
  h.destroy();
  return out;
}

describe('LiveTotals', () => {
  const T0 = 1_700_000_000; // epoch seconds

  it('makes a point of a second only when every worker has reported it, in order, quiet seconds as zeros', () => {
    const live = new LiveTotals(5);
    const points: LivePoint[] = [];
    live.onPoint((p) => points.push(p));
    live.start(T0 * 1000 + 200, 2);
    // Worker 0 reports seconds T0 and T0+1; worker 1 has not reported yet: nothing is final.
    live.add([second(T0, [10, 20]), second(T0 + 1, [30])], 1, 0, T0 + 2);
    expect(points).toEqual([]);
    // Worker 1 reports T0 only: T0 is final (both workers), T0+1 not yet.
    live.add([second(T0, [40])], 2, 1, T0 + 1);
    expect(points.map((p) => [p.second, p.count])).toEqual([[T0, 3]]);
    expect(points[0]).toMatchObject({ elapsedSeconds: 0.8, active: 3, errors: 0, dropped: 0 });
    expect(points[0]!.p50).toBeCloseTo(20, 1);
    expect(points[0]!.p99).toBeCloseTo(40, 1);
    // Worker 1 again, a second later, with nothing in T0+1 and a drop in T0+2.
    live.add([second(T0 + 2, [], { dropped: 4, errors: 0 })], 2, 1, T0 + 3);
    expect(points.map((p) => [p.second, p.count])).toEqual([[T0, 3], [T0 + 1, 1]]);
    // Both done: every second left becomes a point, a quiet one included.
    live.add([second(T0 + 4, [5], { errors: 1 })], 0, 0, Number.POSITIVE_INFINITY);
    live.add([], 0, 1, Number.POSITIVE_INFINITY);
    expect(points.map((p) => [p.second, p.count, p.dropped, p.errors])).toEqual([[T0, 3, 0, 0], [T0 + 1, 1, 0, 0], [T0 + 2, 0, 4, 0], [T0 + 3, 0, 0, 0], [T0 + 4, 1, 0, 1]]);
    expect(points[3]!.p95).toBeNull();
  });

  it('a clock step of hours makes at most 600 empty points, the totals kept', () => {
    const live = new LiveTotals(5);
    let made = 0;
    live.onPoint(() => made++);
    live.start(T0 * 1000, 1);
    live.add([second(T0, [1])], 1, 0, T0 + 1);
    live.add([second(T0 + 5 * 3600, [2, 2])], 1, 0, T0 + 5 * 3600 + 1);
    expect(made).toBe(1 + 600);
    expect(live.view().count).toBe(3);
  });

  it('the terminal line shows the last point and the totals', () => {
    const live = new LiveTotals(10);
    live.start(T0 * 1000, 1);
    live.add([second(T0, [10, 10, 10]), second(T0 + 1, [50, 50])], 7, 0, T0 + 2);
    const view = live.view(T0 * 1000 + 2500);
    expect(view).toMatchObject({ count: 5, rps: 2, active: 7, errors: 0, dropped: 0, elapsedSeconds: 2.5 });
    expect(view.p95).toBeCloseTo(50, 1);
    expect(liveLine(view, 'virtualUsers')).toMatch(/^0:02 \/ 0:10 \[#+-+\] 2 req\/s {2}p95 50\.0 ms {2}errors 0 {2}users 7 {2}dropped 0$/);
  });
});

describe('the run history', () => {
  it(`keeps every run's line and the whole result of the last ${LOAD_RESULTS_KEPT} only`, async () => {
    const dir = await tempDir();
    process.env.FERRY_DATA_DIR = dir;
    const data = new WorkspaceData('history-test', path.join(dir, 'ws'));
    const result = (n: number) => ({ loadTest: { id: 't', name: 'T', model: 'virtualUsers' }, startedAt: new Date(n * 1000).toISOString(), durationSeconds: 1, overall: { count: n, rps: n, errorRate: 0, latencyMs: null }, passed: true, interrupted: false, segments: { parts: [1], of: 1 } }) as unknown as LoadResult;
    const names: string[] = [];
    for (let n = 1; n <= LOAD_RESULTS_KEPT + 3; n++) names.push((await addLoadHistory(data, result(n))).result!);
    const history = await readLoadHistory(data);
    expect(history).toHaveLength(LOAD_RESULTS_KEPT + 3);
    expect(history.slice(0, 3).every((e) => e.result === undefined)).toBe(true);
    expect(history.slice(3).map((e) => e.result)).toEqual(names.slice(3));
    const files = (await fs.readdir(path.join(data.dir, 'load-results'))).sort();
    expect(files).toEqual(names.slice(3).sort());
    const last = JSON.parse(await fs.readFile(path.join(data.dir, 'load-results', names.at(-1)!), 'utf8')) as LoadResult;
    expect(last.overall.count).toBe(LOAD_RESULTS_KEPT + 3);
  });
});
