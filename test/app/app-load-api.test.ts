/**
 * The load-test panel's API on real sockets: load test files listed, read, saved (checked by
 * the format's schema, under the workspace lock, comments kept) and refused when wrong; runs of
 * a real HTTP server on 127.0.0.1 with a point per second on the live channel, one at a time,
 * stopped; the history and its kept result files; result files opened and merged. Runs are
 * short (1–2 s, one worker, few users).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { LiveEvent, LoadEvent, LoadHistoryEntry, LoadResultView, LoadRunView, LoadTestFile, LoadTestList } from '../../src/app/shared/api.js';
import { runLoadTest, type LoadResult } from '../../src/load/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startTargetServer, type TargetServer } from '../load/target-server.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { ApiClient, until } from './api-client.js';

const SMOKE = `# Smoke test: kept comment
name: Smoke
targets:
  - request: Hello.yaml
    weight: 2 # the weight's comment
stages:
  - { durationSecs: 2, target: 2 }
thresholds:
  - { metric: errorRate, op: "<", value: 1 }
`;

const loadEvents = (events: LiveEvent[], runId: string): LoadEvent[] => events.flatMap((e) => (e.type === 'load' && e.runId === runId ? [e.event] : []));

describe('ferry app API: load tests', () => {
  let ws: TempWorkspace;
  let target: TargetServer;
  let app: AppServer;
  let client: ApiClient;
  const file = (p: string) => path.join(ws.root, p);

  beforeAll(async () => {
    target = await startTargetServer();
    ws = await makeWorkspace({
      'requests/Hello.yaml': { name: 'Hello', url: `${target.url}/hello` },
      'requests/Slow.yaml': { name: 'Slow', url: `${target.url}/slow?delay=200` },
      'requests/Socket.yaml': { name: 'Socket', kind: 'websocket', url: 'ws://127.0.0.1:1/' },
      'loadtests/smoke.yaml': SMOKE,
      'loadtests/long.yaml': { name: 'Long', targets: [{ request: 'Slow.yaml' }], stages: [{ durationSecs: 20, target: 2 }] },
      'loadtests/missing.yaml': { name: 'Missing', targets: [{ request: 'Nope.yaml' }], stages: [{ durationSecs: 1, target: 1 }] },
      'loadtests/socket.yaml': { name: 'Socket', targets: [{ request: 'Socket.yaml' }], stages: [{ durationSecs: 1, target: 1 }] },
      'loadtests/broken.yaml': 'name: [unclosed\n',
    });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    client = new ApiClient(app.port);
    await client.login(app.token);
  });

  afterAll(async () => {
    await app.close();
    await target.close();
    await ws.cleanup();
  });

  describe('files', () => {
    it('lists every load test (a broken one with its parse error) and the HTTP requests a target may name', async () => {
      const { status, body } = await client.call('GET', '/api/loadtests');
      expect(status).toBe(200);
      const list = body as LoadTestList;
      expect(list.loadTests.map((t) => t.id).sort()).toEqual(['broken', 'long', 'missing', 'smoke', 'socket']);
      expect(list.loadTests.find((t) => t.id === 'smoke')).toMatchObject({ name: 'Smoke', model: 'virtualUsers', targets: 1 });
      expect(list.loadTests.find((t) => t.id === 'broken')?.error).toMatch(/loadtests\/broken\.yaml/);
      expect(list.requests.sort()).toEqual(['Hello.yaml', 'Slow.yaml']);
      expect(list.running).toBeNull();
    });

    it('reads one with the defaults filled; refuses an unknown id (404), a hostile id and a broken file (400)', async () => {
      const read = await client.call('GET', '/api/loadtest?id=smoke');
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: 'smoke', loadTest: { name: 'Smoke', model: 'virtualUsers', maxInFlight: 1000, keepAlive: true, targets: [{ request: 'Hello.yaml', weight: 2, enabled: true, captures: [] }] } });
      const unknown = await client.call('GET', '/api/loadtest?id=nope');
      expect(unknown.status).toBe(404);
      expect((unknown.body as { error: string }).error).toBe('No load test "nope" (loadtests/nope.yaml does not exist).');
      for (const id of ['../ferry', '.hidden', '', 'a/b']) {
        const hostile = await client.call('GET', `/api/loadtest?id=${encodeURIComponent(id)}`);
        expect(hostile.status).toBe(400);
        expect((hostile.body as { error: string }).error).toMatch(/is not a load test id/);
      }
      const broken = await client.call('GET', '/api/loadtest?id=broken');
      expect(broken.status).toBe(400);
      expect((broken.body as { error: string }).error).toMatch(/^loadtests\/broken\.yaml:2:1: YAML syntax error/);
    });

    it('saves through the format: a wrong value is refused with its field and nothing is written; a good one keeps the comments', async () => {
      const before = await fs.readFile(file('loadtests/smoke.yaml'), 'utf8');
      const { loadTest } = (await client.call('GET', '/api/loadtest?id=smoke')).body as { loadTest: Record<string, unknown> & { targets: Array<Record<string, unknown>> } };
      const bad = [
        { ...loadTest, targets: [{ ...loadTest.targets[0], weight: -1 }] },
        { ...loadTest, model: 'spiky' },
        { ...loadTest, stages: [{ durationSecs: 'ten', target: 1 }] },
        { ...loadTest, thresholds: [{ metric: 'p95', op: '=>', value: 1 }] },
        { ...loadTest, targets: 'all' },
      ];
      const messages = [];
      for (const value of bad) {
        const answer = await client.call('PUT', '/api/loadtest', { id: 'smoke', loadTest: value });
        expect(answer.status).toBe(400);
        messages.push((answer.body as { error: string }).error);
      }
      expect(messages[0]).toBe('The load test is not valid: targets[0].weight: must be 0 or more. Nothing was saved.');
      expect(messages[1]).toMatch(/^The load test is not valid: model: /);
      expect(messages[2]).toMatch(/^The load test is not valid: stages\[0\]\.durationSecs: /);
      expect(messages[3]).toMatch(/^The load test is not valid: thresholds\[0\]\.op: /);
      expect(messages[4]).toMatch(/^The load test is not valid: targets: /);
      expect(await fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toBe(before);

      const missing = await client.call('PUT', '/api/loadtest', { id: 'nope', loadTest });
      expect(missing.status).toBe(404);
      const broken = await client.call('PUT', '/api/loadtest', { id: 'broken', loadTest });
      expect(broken.status).toBe(400);
      expect(await fs.readFile(file('loadtests/broken.yaml'), 'utf8')).toBe('name: [unclosed\n');

      const good = await client.call('PUT', '/api/loadtest', { id: 'smoke', loadTest: { ...loadTest, targets: [{ ...loadTest.targets[0], weight: 3 }] } });
      expect(good.status).toBe(200);
      const after = await fs.readFile(file('loadtests/smoke.yaml'), 'utf8');
      expect(after).toBe(before.replace('weight: 2 #', 'weight: 3 #'));
    });

    it('a save carries the version the page read: an edit made outside meanwhile is a 409 with the file\'s version, never overwritten', async () => {
      const { loadTest } = (await client.call('GET', '/api/loadtest?id=long')).body as { loadTest: Record<string, unknown> };
      // Another editor changes the file before the app has read the folder again.
      const outside = 'name: Long\ntargets:\n  - request: Slow.yaml\nstages:\n  - durationSecs: 30\n    target: 4\n';
      await fs.writeFile(file('loadtests/long.yaml'), outside);
      // Mine: the stages as the page read them (later tests run this load test as it was).
      const mine = { ...loadTest, stages: [{ durationSecs: 20, target: 2 }] };
      const refused = await client.call('PUT', '/api/loadtest', { id: 'long', base: loadTest, loadTest: mine });
      expect(refused.status).toBe(409);
      expect((refused.body as { error: string }).error).toBe('loadtests/long.yaml changed on disk since the app read it; nothing was saved.');
      expect((refused.body as { loadTest: { stages: unknown[] } }).loadTest.stages).toEqual([{ durationSecs: 30, target: 4 }]);
      expect(await fs.readFile(file('loadtests/long.yaml'), 'utf8')).toBe(outside);
      // Saved over the version the refusal gave: written.
      const saved = await client.call('PUT', '/api/loadtest', { id: 'long', base: (refused.body as { loadTest: unknown }).loadTest, loadTest: mine });
      expect(saved.status).toBe(200);
      expect(await fs.readFile(file('loadtests/long.yaml'), 'utf8')).toContain('durationSecs: 20');
    });

    it('creates a new load test from a name, and deletes it', async () => {
      const created = await client.call('POST', '/api/loadtest', { name: 'Checkout peak' });
      expect(created.status).toBe(200);
      const { id } = created.body as { id: string };
      const text = await fs.readFile(file(`loadtests/${id}.yaml`), 'utf8');
      expect(text).toContain('name: Checkout peak');
      expect(text).toContain('durationSecs: 10');
      const nameless = await client.call('POST', '/api/loadtest', { name: '' });
      expect(nameless.status).toBe(400);
      expect((await client.call('POST', '/api/loadtest', { name: 'x'.repeat(201) })).status).toBe(400);
      expect((await client.call('POST', '/api/loadtest', { name: 7 })).status).toBe(400);
      // A name that looks like a path makes a file name inside loadtests/, never outside it.
      const hostile = await client.call('POST', '/api/loadtest', { name: '../../evil' });
      expect(hostile.status).toBe(200);
      const hostileId = (hostile.body as { id: string }).id;
      expect(hostileId).not.toMatch(/[/\\]|^\./);
      expect(await fs.readFile(file(`loadtests/${hostileId}.yaml`), 'utf8')).toContain("name: ../../evil");
      expect((await client.call('POST', '/api/loadtest/delete', { id: hostileId })).status).toBe(200);
      const removed = await client.call('POST', '/api/loadtest/delete', { id });
      expect(removed.status).toBe(200);
      await expect(fs.stat(file(`loadtests/${id}.yaml`))).rejects.toThrow(/ENOENT/);
    });
  });

  describe('runs', () => {
    it('refuses, before sending anything, an unknown test, a broken file, a missing or non-HTTP target, bad stages', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ id: 'nope' }, /^No load test "nope"\. Load tests here: .*smoke/],
        [{ id: 'broken' }, /^Load test "broken" cannot be used: loadtests\/broken\.yaml/],
        [{ id: 'missing' }, /targets\[0\]\.request: there is no request "Nope\.yaml"/],
        [{ id: 'socket' }, /Socket\.yaml is a WebSocket request; load tests send HTTP requests only/i],
        [{ id: 'smoke', stages: '10 seconds' }, /--stages: "10 seconds" is not DURATION:TARGET/],
        [{ id: 'smoke', workers: 0 }, /"workers" must be a whole number/],
        [{}, /"id" is missing/],
      ];
      const sentBefore = target.byPath.get('/hello') ?? 0;
      for (const [body, message] of cases) {
        const answer = await client.call('POST', '/api/load/run', body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect((answer.body as { error: string }).error).toMatch(message);
      }
      expect(target.byPath.get('/hello') ?? 0).toBe(sentBefore);
      expect(((await client.call('GET', '/api/loadtests')).body as LoadTestList).running).toBeNull();
    });

    it('runs: a point per second on the live channel while it runs, then the result, kept in the history; a second run meanwhile is refused', async () => {
      const live = await client.live();
      const started = await client.call('POST', '/api/load/run', { id: 'smoke', workers: 1 });
      expect(started.status).toBe(200);
      const run = started.body as LoadRunView;
      expect(run).toMatchObject({ id: 'smoke', name: 'Smoke', model: 'virtualUsers', plannedSeconds: 2, notices: [] });

      const again = await client.call('POST', '/api/load/run', { id: 'long', workers: 1 });
      expect(again.status).toBe(409);
      expect((again.body as { error: string }).error).toBe('The load test "smoke" is running: stop it or wait for its end (one load test runs at a time).');
      const listed = (await client.call('GET', '/api/loadtests')).body as LoadTestList;
      expect(listed.running?.runId).toBe(run.runId);
      expect((await client.call('POST', '/api/loadtest/delete', { id: 'smoke' })).status).toBe(409);

      const end = await until('the end of the run', () => loadEvents(live.events, run.runId).find((e) => e.type === 'end'), 20_000);
      const events = loadEvents(live.events, run.runId);
      const points = events.flatMap((e) => (e.type === 'point' ? [e.point] : []));
      // Points come before the end, one per second, in order, and add up to the result.
      expect(events[0]?.type).toBe('start');
      expect(events.at(-1)?.type).toBe('end');
      expect(points.length).toBeGreaterThanOrEqual(2);
      expect(points.map((p) => p.second)).toEqual(points.map((_, i) => points[0]!.second + i));
      const endIndex = live.events.findIndex((e) => e.type === 'load' && e.event.type === 'end');
      const firstPoint = live.events.findIndex((e) => e.type === 'load' && e.event.type === 'point');
      // Points reach the page while the run goes on, not all with its end (no timing bound: a loaded machine batches them).
      expect(firstPoint).toBeGreaterThanOrEqual(0);
      expect(firstPoint).toBeLessThan(endIndex);
      expect(live.times[firstPoint]!).toBeLessThanOrEqual(live.times[endIndex]!);
      if (end.type !== 'end') throw new Error('not the end');
      const result = end.result;
      expect(result.overall.count).toBeGreaterThan(0);
      expect(points.reduce((n, p) => n + p.count, 0)).toBe(result.overall.count);
      // The same seconds as the result's series: a second the series has not ended no request.
      const bySecond = new Map(result.series.map((s) => [s.second, s.count]));
      for (const p of points) expect(p.count).toBe(bySecond.get(p.second) ?? 0);
      expect([...bySecond.keys()].every((second) => points.some((p) => p.second === second))).toBe(true);
      expect(result.overall).not.toHaveProperty('histogram');
      expect(result.verdicts).toMatchObject([{ metric: 'errorRate', passed: true }]);
      expect(result.passed).toBe(true);
      expect(end.kept).toMatch(/^run-\d{13}-[0-9a-f]{8}\.json$/);

      // The whole result (histograms too) is kept in the data folder, and the history names it.
      const history = (await client.call('GET', '/api/load/history?id=smoke')).body as LoadHistoryEntry[];
      expect(history[0]).toMatchObject({ id: 'smoke', count: result.overall.count, passed: true, result: end.kept });
      const data = new WorkspaceData(app.state.workspace.id, ws.root);
      const kept = JSON.parse(await fs.readFile(path.join(data.dir, 'load-results', end.kept!), 'utf8')) as LoadResult;
      expect(kept.overall.histogram).toMatch(/^[A-Za-z0-9+/=]+$/);
      expect(kept.overall.count).toBe(result.overall.count);
      const fetched = await client.call('GET', `/api/load/result?name=${end.kept}`);
      expect(fetched.body as LoadResultView).toEqual(result);
      live.close();
    }, 30_000);

    it('says the same notices for the editor\'s load test, saved or not, before any run: nothing is planned or sent', async () => {
      await ws.write('requests/Scripted.yaml', { name: 'Scripted', url: `${target.url}/hello`, scripts: { preRequest: 'ferry.variables.set("n", "1");' } });
      await ws.write('loadtests/typos.yaml', { name: 'Typos', targets: [{ request: 'Scripted.yaml', weigth: 3 }], stages: [{ durationSecs: 2, target: 4 }], thinkTime: 100 });
      await app.state.reload();
      const sentBefore = target.seen.length;
      const historyBefore = ((await client.call('GET', '/api/load/history')).body as LoadHistoryEntry[]).length;
      const { loadTest } = (await client.call('GET', '/api/loadtest?id=typos')).body as { loadTest: LoadTestFile };
      const said = await client.call('POST', '/api/loadtest/notices', { id: 'typos', loadTest });
      expect(said.status).toBe(200);
      expect(said.body).toEqual({ notices: [
        'load tests do not run scripts; not run for: Scripted.yaml.',
        'loadtests/typos.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?), thinkTime (did you mean thinkTimeMs?).',
      ] });
      // An edit not saved: the target moved to a request without scripts, the typo still there.
      const edited = { ...loadTest, targets: loadTest.targets.map((t) => ({ ...t, request: 'Hello.yaml' })) };
      expect((await client.call('POST', '/api/loadtest/notices', { id: 'typos', loadTest: edited })).body).toEqual({ notices: [
        'loadtests/typos.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?), thinkTime (did you mean thinkTimeMs?).',
      ] });
      // A target not sent (off) has no script notice; nothing to say is an empty list.
      const smoke = ((await client.call('GET', '/api/loadtest?id=smoke')).body as { loadTest: LoadTestFile }).loadTest;
      expect((await client.call('POST', '/api/loadtest/notices', { id: 'typos', loadTest: { ...loadTest, targets: loadTest.targets.map((t) => ({ ...t, enabled: false })) } })).body).toMatchObject({ notices: [expect.stringMatching(/^loadtests\/typos\.yaml: fields/)] });
      expect((await client.call('POST', '/api/loadtest/notices', { id: 'smoke', loadTest: smoke })).body).toEqual({ notices: [] });
      // Nothing was run or sent for any of these.
      expect(target.seen.length).toBe(sentBefore);
      expect(((await client.call('GET', '/api/load/history')).body as LoadHistoryEntry[]).length).toBe(historyBefore);
      expect(((await client.call('GET', '/api/loadtests')).body as LoadTestList).running).toBeNull();
    });

    it('says what ferry load says before it runs, in its words: with the run from its start, to a page that opens later, and in the history line', async () => {
      await ws.write('requests/Scripted.yaml', { name: 'Scripted', url: `${target.url}/hello`, scripts: { preRequest: 'ferry.variables.set("n", "1");' } });
      await ws.write('loadtests/typos.yaml', { name: 'Typos', targets: [{ request: 'Scripted.yaml', weigth: 3 }], stages: [{ durationSecs: 2, target: 4 }], thinkTime: 100 });
      const words = [
        'load tests do not run scripts; not run for: Scripted.yaml.',
        'loadtests/typos.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?), thinkTime (did you mean thinkTimeMs?).',
      ];
      const live = await client.live();
      const started = await client.call('POST', '/api/load/run', { id: 'typos', workers: 1 });
      expect(started.status).toBe(200);
      const run = started.body as LoadRunView;
      expect(run.notices).toEqual(words);
      const start = loadEvents(live.events, run.runId).find((e) => e.type === 'start');
      expect(start?.type === 'start' && start.run.notices).toEqual(words);
      // A page that opens while it runs gets them with the run in progress.
      expect(((await client.call('GET', '/api/loadtests')).body as LoadTestList).running?.notices).toEqual(words);
      const end = await until('the end of the run', () => loadEvents(live.events, run.runId).find((e) => e.type === 'end'), 20_000);
      // The test still runs (its typos and the scripts aside).
      expect(end.type === 'end' && end.result.overall.count).toBeGreaterThan(0);
      const history = (await client.call('GET', '/api/load/history?id=typos')).body as LoadHistoryEntry[];
      expect(history[0]).toMatchObject({ id: 'typos', notices: words, result: end.type === 'end' ? end.kept : '' });
      // A test with nothing to say has no notices, in the run and in its line.
      const smoke = (await client.call('GET', '/api/load/history?id=smoke')).body as LoadHistoryEntry[];
      expect(smoke[0]).not.toHaveProperty('notices');
      live.close();
      await fs.rm(file('loadtests/typos.yaml'));
      await fs.rm(file('requests/Scripted.yaml'));
    }, 30_000);

    it('stops a run at once: the partial result is marked interrupted and kept', async () => {
      const live = await client.live();
      const run = (await client.call('POST', '/api/load/run', { id: 'long', workers: 1 })).body as LoadRunView;
      await until('a first point', () => loadEvents(live.events, run.runId).find((e) => e.type === 'point'), 10_000);
      const stopped = await client.call('POST', '/api/load/stop', { runId: run.runId });
      expect(stopped.body).toEqual({ stopped: true });
      // The test plans 20 s: a stop that does not end it fails this 10 s wait, and the result says interrupted.
      const end = await until('the end', () => loadEvents(live.events, run.runId).find((e) => e.type === 'end'), 10_000);
      expect(end.type === 'end' && end.result).toMatchObject({ interrupted: true, passed: false });
      expect((await client.call('POST', '/api/load/stop', { runId: run.runId })).body).toEqual({ stopped: false });
      const history = (await client.call('GET', '/api/load/history?id=long')).body as LoadHistoryEntry[];
      expect(history[0]).toMatchObject({ interrupted: true, passed: false });
      live.close();
    }, 30_000);

    it('renaming a load test renames its file, so its id (2.1.4): its past runs follow; not while it runs', async () => {
      const { loadTest } = (await client.call('GET', '/api/loadtest?id=long')).body as { loadTest: LoadTestFile };
      const runs = ((await client.call('GET', '/api/load/history?id=long')).body as LoadHistoryEntry[]).length;
      expect(runs).toBeGreaterThan(0);
      const live = await client.live();
      const run = (await client.call('POST', '/api/load/run', { id: 'long', workers: 1 })).body as LoadRunView;
      const refused = await client.call('PUT', '/api/loadtest', { id: 'long', loadTest: { ...loadTest, name: 'Long haul' } });
      expect(refused.status).toBe(409);
      expect((refused.body as { error: string }).error).toBe('The load test "long" is running: stop it or wait for its end, then rename it (its name names its file and its runs).');
      // Saved while it runs without a new name: taken, as before.
      expect((await client.call('PUT', '/api/loadtest', { id: 'long', loadTest })).status).toBe(200);
      await client.call('POST', '/api/load/stop', { runId: run.runId });
      await until('the end', () => loadEvents(live.events, run.runId).find((e) => e.type === 'end'), 10_000);
      live.close();

      const renamed = await client.call('PUT', '/api/loadtest', { id: 'long', loadTest: { ...loadTest, name: 'Long haul' } });
      expect(renamed.status, renamed.text).toBe(200);
      expect(renamed.body).toMatchObject({ id: 'Long haul', loadTest: { name: 'Long haul' } });
      expect((await fs.readdir(file('loadtests'))).filter((n) => n.startsWith('long') || n.startsWith('Long'))).toEqual(['Long haul.yaml']);
      expect(((await client.call('GET', '/api/load/history?id=Long%20haul')).body as LoadHistoryEntry[]).length).toBe(runs + 1);
      expect((await client.call('GET', '/api/load/history?id=long')).body).toEqual([]);
      expect((await client.call('GET', '/api/loadtests')).body as LoadTestList).toMatchObject({ loadTests: expect.arrayContaining([expect.objectContaining({ id: 'Long haul', name: 'Long haul' })]) });
      expect((await client.call('GET', '/api/loadtest?id=long')).status).toBe(404);
    }, 30_000);
  });

  describe('Start reads the files as they are', () => {
    it('runs a load test edited by hand just before Start; a save in the app just before costs one read, not another when the watcher reports it', async () => {
      const live = await client.live();
      const ended = (runId: string) => until('the end of the run', () => loadEvents(live.events, runId).find((e) => e.type === 'end'), 20_000);
      // Edited outside the app and started at once, before the watcher's report: the edit runs.
      await fs.writeFile(file('loadtests/quick.yaml'), 'name: Quick\ntargets:\n  - request: Hello.yaml\nstages:\n  - { durationSecs: 0.5, target: 1 }\n');
      const byHand = (await client.call('POST', '/api/load/run', { id: 'quick', workers: 1 })).body as LoadRunView;
      expect(byHand).toMatchObject({ name: 'Quick', plannedSeconds: 0.5 });
      await ended(byHand.runId);
      await until('the watcher to report loadtests/quick.yaml', () => live.events.some((e) => e.type === 'changed' && e.paths.includes('loadtests/quick.yaml')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await app.state.fresh();
      // Saved in the app, started at once: the save's read and the Start's, and no more.
      const { loadTest } = (await client.call('GET', '/api/loadtest?id=quick')).body as { loadTest: LoadTestFile };
      const reads = app.state.reads;
      const from = live.events.length;
      const put = await client.call('PUT', '/api/loadtest', { id: 'quick', base: loadTest, loadTest: { ...loadTest, stages: [{ durationSecs: 0.4, target: 1 }] } });
      expect(put.status).toBe(200);
      const saved = (await client.call('POST', '/api/load/run', { id: 'quick', workers: 1 })).body as LoadRunView;
      expect(saved).toMatchObject({ name: 'Quick', plannedSeconds: 0.4 });
      await ended(saved.runId);
      await until('the watcher to report the save', () => live.events.slice(from).some((e) => e.type === 'changed' && e.paths.includes('loadtests/quick.yaml')));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await app.state.fresh();
      expect(app.state.reads).toBe(reads + 2);
      live.close();
      await fs.rm(file('loadtests/quick.yaml'));
    }, 30_000);
  });

  describe('result files', () => {
    it('refuses a name that is not a kept result (400) and one no longer kept (404)', async () => {
      expect((await client.call('GET', '/api/load/result?name=../../secrets.json')).status).toBe(400);
      expect((await client.call('GET', '/api/load/result?name=load-history.json')).status).toBe(400);
      expect((await client.call('GET', '/api/load/result?name=run-1000000000000-deadbeef.json')).status).toBe(404);
    });

    it('opens one result file, merges the segments of one test, refuses what is not a result', async () => {
      const opened = await openWorkspace(ws.root);
      const [a, b] = await Promise.all([1, 2].map((i) => runLoadTest({ workspace: opened, id: 'smoke', settings: DEFAULT_SETTINGS, workers: 1, stages: [{ durationSecs: 1, target: 1 }], segment: { index: i - 1, count: 2 } })));
      const one = await client.call('POST', '/api/load/open', { files: [{ name: 'part-1.json', text: JSON.stringify(a) }] });
      expect(one.status).toBe(200);
      expect(one.body).toMatchObject({ segments: { parts: [1], of: 2 }, overall: { count: a!.overall.count } });
      const merged = await client.call('POST', '/api/load/open', { files: [{ name: 'part-1.json', text: JSON.stringify(a) }, { name: 'part-2.json', text: JSON.stringify(b) }] });
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({ segments: { parts: [1, 2], of: 2 }, workers: 2, overall: { count: a!.overall.count + b!.overall.count } });

      const refusals: Array<[unknown, RegExp]> = [
        [{ files: [{ name: 'x.json', text: '{"format": "ferry-load-result"' }] }, /^x\.json: is not valid JSON/],
        [{ files: [{ name: 'x.json', text: '[1,2]' }] }, /^x\.json: is not a Ferry load result/],
        [{ files: [{ name: 'x.json', text: JSON.stringify({ ...a, version: 2 }) }] }, /^x\.json: is a version 2 load result; this Ferry reads version 1/],
        [{ files: [{ name: 'x.json', text: JSON.stringify({ ...a, series: 'none' }) }] }, /^x\.json: the result has no valid "series"/],
        [{ files: [{ name: 'a.json', text: JSON.stringify(a) }, { name: 'a2.json', text: JSON.stringify(a) }] }, /segment 1\/2 is in more than one file/],
        // Segments judged by different thresholds (the test edited between them): named by the files the page read.
        [{ files: [{ name: 'part-1.json', text: JSON.stringify(a) }, { name: 'part-2.json', text: JSON.stringify({ ...b, thresholds: [{ metric: 'p99', op: '<', value: 1, enabled: true }] }) }] }, /^the files judge different thresholds \(part-1\.json \(segment 1\/2\): [^;]+; part-2\.json \(segment 2\/2\): p99 < 1ms\)/],
        [{ files: [] }, /"files" must be a list/],
        [{ files: [{ name: 'x.json' }] }, /"text" is missing/],
      ];
      for (const [body, message] of refusals) {
        const answer = await client.call('POST', '/api/load/open', body);
        expect(answer.status).toBe(400);
        expect((answer.body as { error: string }).error).toMatch(message);
      }
    }, 30_000);
  });
});
