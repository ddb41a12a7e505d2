/**
 * The load engine over real sockets on 127.0.0.1: both models and their ramps, think time,
 * weights, captures, data rows, keep-alive, timeouts, dropped starts, coordinated omission.
 * Runs are short (1–3 s) and on one worker unless the test is about workers; the machine is
 * shared, so rates are checked within wide, stated tolerances and counts exactly where the
 * schedule makes them exact.
 */
import { promises as fs } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { markerFor } from '../../src/load/fill.js';
import { Generator } from '../../src/load/generator.js';
import { decodeHistogram } from '../../src/load/histogram.js';
import { planNotices, runLoadTest, summaryText, type LoadRunOptions } from '../../src/load/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { packageVersion } from '../../src/support/package-root.js';
import { startTargetServer, type TargetServer } from './target-server.js';
import { testCertificate } from '../support/servers/peers.js';
import { tempDir } from '../support/temp.js';

let server: TargetServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(loadtest: Record<string, unknown>, requests: Record<string, string>, extra: Record<string, unknown> = {}) {
  server = await startTargetServer();
  const targets = Object.keys(requests).map((name) => ({ request: `${name}.yaml` }));
  const files: Record<string, unknown> = { 'loadtests/t.yaml': { name: 'T', targets, ...loadtest }, ...extra };
  for (const [name, url] of Object.entries(requests)) files[`requests/${name}.yaml`] = { name, method: 'GET', url: `${server.url}${url}` };
  const { ws, data } = await openedWorkspace(files);
  const run = (more: Partial<LoadRunOptions> = {}) => runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1, ...more });
  return { ws, data, run, server };
}

describe('open model (arrivalRate)', () => {
  it('starts requests on schedule: a ramp to 100/s over 2 s sends exactly 100, a quarter in the first second', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 2, target: 100 }] }, { A: '/a' });
    const result = await run({ workers: 2 });
    // A generator that falls behind past the last stage drops what is still due (counted, never
    // sent late): on a loaded machine a few of the last starts may be dropped, never lost.
    expect(result.overall.count + result.overall.dropped).toBe(100);
    expect(result.overall.count).toBeGreaterThanOrEqual(90);
    expect(server.byPath.get('/a')).toBe(result.overall.count);
    expect(result.workers).toBe(2);
    const start = Date.parse(result.startedAt);
    const firstSecond = server.seen.filter((s) => s.at < start + 1000).length;
    // Tolerance: 25 due in the first second; the shared machine may shift a few across the edge.
    expect(firstSecond).toBeGreaterThanOrEqual(15);
    expect(firstSecond).toBeLessThanOrEqual(40);
  });

  it('a first stage too short to measure (durationSecs: 1e-320) is a step: the test sends its 10 requests and ends', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 1e-320, target: 20 }, { durationSecs: 0.5, target: 20 }] }, { A: '/a' });
    // A schedule that never ends at such a stage runs into the test's own timeout.
    const result = await run();
    expect(result.overall.count + result.overall.dropped).toBe(10);
    expect(server.byPath.get('/a')).toBe(result.overall.count);
  });

  it('drops starts beyond maxInFlight and counts them, never queues them', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', maxInFlight: 5, stages: [{ durationSecs: 0, target: 40 }, { durationSecs: 1, target: 40 }] }, { Slow: '/slow?delay=1500' });
    const result = await run();
    expect(result.overall.count).toBe(5);
    expect(result.overall.dropped).toBe(35);
    expect(server.byPath.get('/slow')).toBe(5);
  });

  it('measures latency from the scheduled start: a one-second stall shows in p99 (coordinated omission)', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 0, target: 50 }, { durationSecs: 3, target: 50 }] }, { A: '/a' });
    // From the 60th request (about 1.2 s into the schedule) the server holds everything for one second.
    server.stallAtRequest = 60;
    server.stallMs = 1000;
    const result = await run();
    expect(result.overall.count + result.overall.dropped).toBe(150);
    expect(result.overall.count).toBeGreaterThanOrEqual(140);
    // About 50 of 150 requests waited 0–1000 ms: p99 is well above 500 ms.
    expect(result.overall.latencyMs!.p99).toBeGreaterThanOrEqual(500);
  });
});

describe('closed model (virtualUsers)', () => {
  it('each user waits for the answer and thinks before sending again', async () => {
    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 200, stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 1.5, target: 2 }] }, { A: '/a' });
    const result = await run();
    // Two users, 1.5 s, at least 200 ms between sends (at 0, 200 … 1400 ms): at most 2 × 8; at least a few each.
    expect(result.overall.count).toBeGreaterThanOrEqual(4);
    expect(result.overall.count).toBeLessThanOrEqual(16);
    expect(server.byPath.get('/a')).toBe(result.overall.count);
  });

  it('a pause that outlasts the test sends nothing more: three users thinking 100 s send three requests', async () => {
    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 100_000, stages: [{ durationSecs: 0, target: 3 }, { durationSecs: 1, target: 3 }] }, { A: '/a' });
    for (let round = 1; round <= 3; round++) {
      const result = await run();
      expect(result.overall.count).toBe(3);
      expect(server.byPath.get('/a')).toBe(3 * round);
    }
  });

  it('a user with think time whose answer comes after the end leaves then: the test ends with its last answer, not 10 s of grace later', async () => {
    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 100, stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 0.5, target: 2 }] }, { Slow: '/slow?delay=1200' });
    const result = await run();
    expect(result.overall.count).toBe(2);
    expect(server.byPath.get('/slow')).toBe(2);
    // The answers come at about 1.2 s; the grace time (10 s) waited out runs into the test's 8 s timeout.
    expect(result.durationSeconds).toBeGreaterThanOrEqual(1.1);
  }, 8_000);

  it('ramps users: more users late in the ramp than early', async () => {
    const { run } = await setup({ model: 'virtualUsers', thinkTimeMs: 100, stages: [{ durationSecs: 2, target: 6 }] }, { A: '/a' });
    const result = await run();
    const series = result.series.filter((s) => s.count > 0);
    expect(series.length).toBeGreaterThanOrEqual(2);
    // Tolerance: the last full second sends more than the first (users 0→3 then 3→6).
    expect(series.at(-1)!.count + series.at(-2)!.count).toBeGreaterThan(series[0]!.count);
  });

  it('a ramp down then up never gives two users the same place: a user still finishing its request keeps its own, the newcomer takes a free one', async () => {
    // Users start 0.2 s apart (login order is user order: tok-1 is user 0, tok-3 user 2), each
    // logs in once (weight 1, then Use 1000 times) and sends its token. At 1 s the test wants 1
    // user: user 1 leaves at its next answer, user 2's first Use is held by the server until
    // 2.2 s, so it is still there when the test wants 3 again at 1.8 s. The newcomer must take
    // place 1, the free one: given place 2 (the count of users), two users held it, and at 2.4 s
    // (2 wanted) both left, and one more user logged in to make up for the second.
    const { run, server } = await setup(
      {
        model: 'virtualUsers',
        thinkTimeMs: 50,
        stages: [
          { durationSecs: 0.6, target: 3 },
          { durationSecs: 0.4, target: 3 },
          { durationSecs: 0, target: 1 },
          { durationSecs: 0.8, target: 1 },
          { durationSecs: 0, target: 3 },
          { durationSecs: 0.6, target: 3 },
          { durationSecs: 0, target: 2 },
          { durationSecs: 0.6, target: 2 },
        ],
        targets: [
          { request: 'Login.yaml', weight: 1, captures: [{ variable: 'token', path: 'data.token' }] },
          { request: 'Use.yaml', weight: 1000 },
        ],
      },
      { Login: '/login', Use: '/use/{{token}}' },
    );
    server.holdFirst.set('/use/tok-3', 1600);
    const result = await run();
    expect(result.overall.errors.total).toBe(0);
    // Three users, one more at 1.8 s; none at 2.4 s, where one user (place 2) leaves.
    expect(server.byPath.get('/login')).toBe(4);
    const start = Date.parse(result.startedAt);
    const late = new Set(server.seen.filter((s) => s.path.startsWith('/use/') && s.at > start + 2600).map((s) => s.path));
    expect(late).toEqual(new Set(['/use/tok-1', '/use/tok-4']));
  });

  it('follows weights (0 is never sent; a disabled target neither) and passes captures to later targets of the same user', async () => {
    const { run, server } = await setup(
      {
        model: 'virtualUsers',
        thinkTimeMs: 50,
        stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 1, target: 1 }],
        targets: [
          { request: 'Login.yaml', weight: 1, captures: [{ variable: 'token', path: 'data.token' }, { variable: 'uid', from: 'header', path: 'x-id' }] },
          { request: 'Use.yaml', weight: 3 },
          { request: 'Never.yaml', weight: 0 },
          { request: 'Off.yaml', weight: 5, enabled: false },
        ],
      },
      { Login: '/login', Use: '/use/{{uid}}?t={{token}}', Never: '/never', Off: '/off' },
    );
    const result = await run();
    expect(server.byPath.get('/never')).toBeUndefined();
    expect(server.byPath.get('/off')).toBeUndefined();
    const uses = server.seen.filter((s) => s.path.startsWith('/use/'));
    expect(uses.length).toBeGreaterThan(0);
    const logins = server.byPath.get('/login')!;
    expect(Math.abs(uses.length - 3 * logins)).toBeLessThanOrEqual(3);
    // Every use carries the values of the login before it.
    for (const use of uses) expect(use.url).toMatch(/^\/use\/id-\d+\?t=tok-\d+$/);
    expect(result.targets.map((t) => t.request)).toEqual(['Login.yaml', 'Use.yaml']);
  });

  it('a JSON capture whose value is null captures nothing: the variable keeps the value it had, never the text "null"', async () => {
    const { run, server } = await setup(
      {
        model: 'virtualUsers',
        thinkTimeMs: 50,
        stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.6, target: 1 }],
        targets: [{ request: 'Login.yaml', captures: [{ variable: 'token', path: 'data.token' }] }, { request: 'Use.yaml' }],
      },
      // The first login gives tok-1; every later one answers {"data":{"token":null}}.
      { Login: '/login?nullfrom=2', Use: '/use/{{token}}' },
    );
    await run();
    expect(server.byPath.get('/login')).toBeGreaterThanOrEqual(2);
    const uses = server.seen.filter((s) => s.path.startsWith('/use/')).map((s) => s.url);
    expect(uses.length).toBeGreaterThanOrEqual(2);
    expect(new Set(uses)).toEqual(new Set(['/use/tok-1']));
  });

  it('a captured or data-row variable that has no value yet (no answer captured it, a row without that column) is the environment\'s, as in a run', async () => {
    const env = { 'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', value: 'env-token' }, { key: 'b', value: 'env-b' }] } };
    const captured = await setup(
      {
        model: 'virtualUsers',
        thinkTimeMs: 20,
        stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.5, target: 1 }],
        targets: [{ request: 'Use.yaml' }, { request: 'Login.yaml', captures: [{ variable: 'token', path: 'data.token' }] }],
      },
      { Use: '/use/{{token}}', Login: '/login' },
      env,
    );
    await captured.run({ environment: 'local' });
    const uses = captured.server.seen.filter((s) => s.path.startsWith('/use/')).map((s) => s.path);
    expect(uses.length).toBeGreaterThanOrEqual(2);
    // Before the first login the environment's token; then each login's own.
    expect(uses[0]).toBe('/use/env-token');
    for (const use of uses.slice(1)) expect(use).toMatch(/^\/use\/tok-\d+$/);
    await captured.server.close();

    // JSON rows need not have the same keys: a column only later rows have is theirs, the environment's elsewhere.
    const rows = await setup(
      { model: 'arrivalRate', dataFile: 'rows.json', stages: [{ durationSecs: 0, target: 20 }, { durationSecs: 0.2, target: 20 }] },
      { A: '/row/{{a}}/{{b}}' },
      { ...env, 'rows.json': JSON.stringify([{ a: '1' }, { a: '2', b: 'x' }]) },
    );
    const result = await rows.run({ environment: 'local' });
    expect(result.overall.count).toBe(4);
    expect(rows.server.seen.map((s) => s.path).sort()).toEqual(['/row/1/env-b', '/row/1/env-b', '/row/2/x', '/row/2/x']);
    await rows.server.close();

    // A value that is not text is filled as its JSON text (docs/load.md's decision; `ferry run` fills Newman's String()).
    const typed = await setup(
      { model: 'arrivalRate', dataFile: 'rows.json', stages: [{ durationSecs: 0, target: 20 }, { durationSecs: 0.2, target: 20 }] },
      { A: '/typed/{{o}}/{{l}}/{{n}}/{{z}}' },
      { ...env, 'rows.json': JSON.stringify([{ o: { k: 1 }, l: [1, 'two'], n: 5, z: null }]) },
    );
    expect((await typed.run({ environment: 'local' })).overall.count).toBe(4);
    expect(new Set(typed.server.seen.map((s) => decodeURIComponent(s.path)))).toEqual(new Set(['/typed/{"k":1}/[1,"two"]/5/null']));
  });

  for (const encoding of ['gzip', 'br'] as const) {
    it(`captures read a ${encoding} answer decoded by its Content-Encoding, as k6 reads it`, async () => {
      const { run, server } = await setup(
        {
          model: 'virtualUsers',
          thinkTimeMs: 50,
          stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.5, target: 1 }],
          targets: [
            { request: 'Login.yaml', captures: [{ variable: 'token', path: 'data.token' }, { variable: 'again', from: 'regex', path: '"token":"(tok-\\d+)"' }] },
            { request: 'Use.yaml' },
          ],
        },
        { Login: `/login?encode=${encoding}`, Use: '/use/{{token}}/{{again}}' },
      );
      await run();
      const uses = server.seen.filter((s) => s.path.startsWith('/use/'));
      expect(uses.length).toBeGreaterThan(0);
      for (const use of uses) expect(use.url).toMatch(/^\/use\/(tok-\d+)\/\1$/);
    });
  }

  it('compiles a regex capture once for the generator, not at every answer', async () => {
    server = await startTargetServer();
    const pattern = '"token":"(tok-\\d+)"';
    const marker = 'ferrytest';
    // Counts the patterns built with this capture's source (regex literals elsewhere do not go through the constructor).
    let compiled = 0;
    const Real = RegExp;
    vi.stubGlobal('RegExp', new Proxy(Real, { construct: (target, args: unknown[], newTarget) => ((args[0] === pattern && compiled++), Reflect.construct(target, args, newTarget)) }));
    const messages: Array<{ type: string }> = [];
    try {
      // In this thread (a worker's RegExp cannot be counted): one user, login then use, for 0.6 s.
      const generator = new Generator({
        targets: [
          { request: 'Login.yaml', weight: 1, method: 'GET', url: `${server.url}/login`, headers: [], captures: [{ variable: 'token', from: 'regex', path: pattern }] },
          { request: 'Use.yaml', weight: 1, method: 'GET', url: `${server.url}/use/${markerFor(marker, 0)}`, headers: [], captures: [] },
        ],
        model: 'virtualUsers', stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.6, target: 1 }], thinkTimeMs: 0, maxInFlight: 1000, keepAlive: true,
        timeoutMs: 10_000, http2: false, verifyTls: true, rows: [], segment: { index: 0, count: 1 }, worker: { index: 0, count: 1 }, activeWorkers: 1, marker, names: ['token'],
      }, (m) => messages.push(m));
      await generator.run(Date.now() + 20);
    } finally {
      vi.unstubAllGlobals();
    }
    const logins = server.byPath.get('/login') ?? 0;
    expect(logins).toBeGreaterThan(2);
    expect(compiled).toBe(1);
    // The compiled pattern still captures each answer's own value.
    const uses = server.seen.filter((s) => s.path.startsWith('/use/'));
    expect(uses.length).toBeGreaterThan(0);
    for (const use of uses) expect(use.url).toMatch(/^\/use\/tok-\d+$/);
    expect(messages.at(-1)?.type).toBe('done');
  });
});

describe('requests and connections', () => {
  it('takes the next data row for each request, wrapping', async () => {
    const { run, server } = await setup(
      { model: 'arrivalRate', dataFile: 'rows.csv', stages: [{ durationSecs: 0, target: 30 }, { durationSecs: 0.5, target: 30 }] },
      { A: '/row/{{name}}/{{$randomInt}}' },
      { 'rows.csv': 'name\nann\nbob\ncy\n' },
    );
    const result = await run();
    expect(result.overall.count).toBe(15);
    // Rows in turn: 15 requests over 3 rows, 5 each (arrival order at the server may differ).
    const names = server.seen.map((s) => s.path.split('/')[2]);
    expect(['ann', 'bob', 'cy'].map((n) => names.filter((x) => x === n).length)).toEqual([5, 5, 5]);
    // {{$randomInt}} is new for each request, not fixed when the target was prepared.
    expect(new Set(server.seen.map((s) => s.path.split('/')[3])).size).toBeGreaterThan(3);
  });

  it('dataFile may be absolute (2.12): one outside the workspace folder is read once files outside are allowed', async () => {
    const elsewhere = await tempDir();
    const rows = path.join(elsewhere, 'rows.csv');
    await fs.writeFile(rows, 'name\nann\nbob\n');
    const { run, server } = await setup(
      { model: 'arrivalRate', dataFile: rows, stages: [{ durationSecs: 0, target: 20 }, { durationSecs: 0.2, target: 20 }] },
      { A: '/row/{{name}}' },
    );
    await expect(run()).rejects.toThrow(`loadtests/t.yaml: dataFile ${rows} lies outside the workspace folder. Move it into the workspace, or allow files outside it (ferry config set filesOutsideWorkspace true).`);
    expect(server.seen).toHaveLength(0);
    const result = await run({ settings: { ...DEFAULT_SETTINGS, filesOutsideWorkspace: true } });
    expect(result.overall.count).toBeGreaterThan(0);
    expect(new Set(server.seen.map((s) => s.path))).toEqual(new Set(['/row/ann', '/row/bob']));
  });

  it('sends the User-Agent and Accept a run of the request sends, and keeps the ones a request sets (spec 4.7)', async () => {
    server = await startTargetServer();
    const { ws, data } = await openedWorkspace({
      'loadtests/t.yaml': { name: 'T', targets: [{ request: 'Plain.yaml' }, { request: 'Own.yaml' }], model: 'arrivalRate', stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }] },
      'requests/Plain.yaml': { name: 'Plain', method: 'GET', url: `${server.url}/plain` },
      'requests/Own.yaml': { name: 'Own', method: 'GET', url: `${server.url}/own`, headers: [{ key: 'accept', value: 'application/json' }, { key: 'USER-AGENT', value: 'mine/1' }] },
    });
    const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
    expect(result.overall.count).toBe(server.seen.length);
    const plain = server.seen.filter((s) => s.path === '/plain');
    const own = server.seen.filter((s) => s.path === '/own');
    expect([plain.length > 0, own.length > 0]).toEqual([true, true]);
    for (const seen of plain) {
      expect(seen.headers['user-agent']).toBe(`Ferry/${packageVersion()}`);
      expect(seen.headers.accept).toBe('*/*');
      // Compressed answers only when the request asks for them (as k6).
      expect(seen.headers['accept-encoding']).toBeUndefined();
    }
    // The request's own values, once each (node joins a repeated Accept with ", ").
    for (const seen of own) expect([seen.headers['user-agent'], seen.headers.accept]).toEqual(['mine/1', 'application/json']);
  });

  it('reuses connections with keepAlive and opens one per request without it', async () => {
    const file = (keepAlive: boolean) => ({ model: 'virtualUsers', keepAlive, stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 1, target: 1 }] });
    const on = await setup(file(true), { A: '/a' });
    const kept = await on.run();
    expect(kept.overall.count).toBeGreaterThan(3);
    expect(on.server.byPath.get('/a')).toBe(kept.overall.count);
    // One user: its connection is reused (undici may open a spare while the first is being freed).
    expect(on.server.connections).toBeLessThanOrEqual(2);
    await on.server.close();
    const off = await setup(file(false), { A: '/a' });
    const closed = await off.run();
    expect(closed.overall.count).toBeGreaterThan(3);
    expect(off.server.connections).toBe(off.server.byPath.get('/a'));
  });

  it('counts timeouts and status errors by kind', async () => {
    const { run } = await setup(
      { model: 'virtualUsers', timeoutMs: 300, stages: [{ durationSecs: 0, target: 1 }, { durationSecs: 0.8, target: 1 }], targets: [{ request: 'Slow.yaml' }, { request: 'Fail.yaml' }] },
      { Slow: '/slow?delay=2000', Fail: '/fail' },
    );
    const result = await run();
    const slow = result.targets.find((t) => t.request === 'Slow.yaml')!;
    const fail = result.targets.find((t) => t.request === 'Fail.yaml')!;
    expect(slow.count).toBeGreaterThan(0);
    expect(slow.errors.timeout).toBe(slow.count);
    // Each kind says why, with its first error: what wrk and k6 print beside their counts.
    expect(slow.errorReasons).toEqual({ timeout: 'no answer within 300 ms' });
    // Each Fail request ends as a 500 — or, when the loaded machine delays even that answer past
    // the timeout (seen once in a full suite run), as a timeout; never as anything else.
    expect(fail.errors.status).toBeGreaterThan(0);
    expect(fail.errors.status + fail.errors.timeout).toBe(fail.count);
    expect(fail.statuses).toEqual({ 500: fail.errors.status });
    expect(result.overall.errorRate).toBe(100);
  });

  it('counts requests that cannot be sent (a data value with a line break in a header) and ends on time', async () => {
    server = await startTargetServer();
    const files = {
      'loadtests/t.yaml': { name: 'T', model: 'virtualUsers', dataFile: 'rows.json', targets: [{ request: 'A.yaml' }], stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 0.5, target: 2 }] },
      'requests/A.yaml': { name: 'A', method: 'GET', url: `${server.url}/a`, headers: [{ key: 'X-V', value: '{{v}}' }] },
      'rows.json': JSON.stringify([{ v: 'one\r\nEvil: 1' }]),
    };
    const { ws, data } = await openedWorkspace(files);
    const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
    // Each such request fails before it goes out: counted as `other`, nothing reaches the server.
    expect(result.overall.count).toBeGreaterThan(0);
    expect(result.overall.errors.other).toBe(result.overall.count);
    expect(result.overall.errorReasons.other).toMatch(/^the request could not be built: .*X-V/);
    expect(server.byPath.get('/a')).toBeUndefined();
    expect(decodeHistogram(result.overall.histogram).totalCount).toBe(result.overall.count);
  });

  it('counts requests undici refuses before sending (https, a header with a line break) and ends on time', async () => {
    const files = {
      'loadtests/t.yaml': { name: 'T', model: 'virtualUsers', dataFile: 'rows.json', targets: [{ request: 'A.yaml' }], stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 0.5, target: 2 }] },
      // Nothing listens there: the request must fail before any connection is tried.
      'requests/A.yaml': { name: 'A', method: 'GET', url: 'https://127.0.0.1:9/a', headers: [{ key: 'X-V', value: '{{v}}' }] },
      'rows.json': JSON.stringify([{ v: 'one\r\nEvil: 1' }]),
    };
    const { ws, data } = await openedWorkspace(files);
    const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
    expect(result.overall.count).toBeGreaterThan(0);
    expect(result.overall.errors.total).toBe(result.overall.count);
    expect(result.overall.errors.refused).toBe(0);
  });

  it('counts a request still unanswered when the grace time after the last stage ends as a timeout, not as nothing', async () => {
    // No timeout: the 10 s grace time after the stages is all the request gets (the run lasts ~10.5 s).
    const { run, server } = await setup({ model: 'arrivalRate', timeoutMs: 0, stages: [{ durationSecs: 0, target: 2 }, { durationSecs: 0.5, target: 2 }] }, { Stall: '/stall?delay=20000' });
    const result = await run();
    expect(server.byPath.get('/stall')).toBe(1);
    expect(result.overall.count).toBe(1);
    expect(result.overall.errors).toMatchObject({ total: 1, timeout: 1 });
    expect(result.overall.errorReasons.timeout).toMatch(/no answer by the end of the grace time, 10 s after the last stage/);
    expect(result.overall.latencyMs!.max).toBeGreaterThanOrEqual(9_500);
    expect(result.interrupted).toBe(false);
  }, 30_000);

  it('follows redirects as the application settings say (followRedirects, maxRedirects), as a run does: one request, timed to its last answer', async () => {
    const steady = [{ durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }];
    const { run, server } = await setup({ model: 'arrivalRate', stages: steady }, { R: '/redirect?to=/a', Loop: '/redirect?to=self' });
    // followRedirects on (the default): each request ends at /a with its 200; a loop stops at maxRedirects, an error of kind other.
    const followed = await run({ settings: { ...DEFAULT_SETTINGS, maxRedirects: 2 } });
    const [r, loop] = [followed.targets.find((t) => t.request === 'R.yaml')!, followed.targets.find((t) => t.request === 'Loop.yaml')!];
    expect(r.count + loop.count).toBe(5);
    expect(r.statuses).toEqual({ 200: r.count });
    expect(r.errors.total).toBe(0);
    expect(server.byPath.get('/a')).toBe(r.count);
    expect(loop.errors).toMatchObject({ total: loop.count, other: loop.count });
    expect(loop.errorReasons.other).toMatch(/^stopped after 2 redirects \(maxRedirects is 2\); the last one pointed to \/redirect\?to=self$/);
    // Each loop request: its first send and two redirects followed.
    expect(server.byPath.get('/redirect')).toBe(r.count + 3 * loop.count);
    expect(decodeHistogram(followed.overall.histogram).totalCount).toBe(5);
    // followRedirects off: the 302 is the answer.
    server.byPath.clear();
    const kept = await run({ settings: { ...DEFAULT_SETTINGS, followRedirects: false } });
    expect(kept.overall.statuses).toEqual({ 302: 5 });
    expect(server.byPath.get('/a')).toBeUndefined();
  });

  it('a redirect continues as a run continues it: 302 after POST as GET without the body, 307 with method and body; credentials never go to another origin', async () => {
    server = await startTargetServer();
    const other = server.url.replace('127.0.0.1', 'localhost');
    const post = (name: string, url: string) => ({ name, method: 'POST', url: `${server!.url}${url}`, headers: [{ key: 'Authorization', value: 'Bearer s3cret' }], body: { type: 'text', text: 'payload' } });
    const files = {
      'loadtests/t.yaml': { name: 'T', model: 'arrivalRate', targets: [{ request: 'Found.yaml' }, { request: 'Temporary.yaml' }, { request: 'Away.yaml' }, { request: 'Keyed.yaml' }], stages: [{ durationSecs: 0, target: 8 }, { durationSecs: 0.5, target: 8 }] },
      'requests/Found.yaml': post('Found', '/redirect?to=/found'),
      'requests/Temporary.yaml': post('Temporary', '/redirect?status=307&to=/temporary'),
      'requests/Away.yaml': post('Away', `/redirect?status=307&to=${encodeURIComponent(`${other}/away`)}`),
      // An API key's header is a credential as Authorization is: it stays with its origin.
      'requests/Keyed.yaml': { name: 'Keyed', method: 'GET', url: `${server.url}/redirect?to=${encodeURIComponent(`${other}/keyed`)}`, auth: { type: 'apiKey', key: 'X-Api-Key', value: 'k3y' } },
    };
    const { ws, data } = await openedWorkspace(files);
    const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
    expect(result.overall.statuses).toEqual({ 200: 4 });
    expect(server.seen.find((s) => s.path === '/redirect' && s.url.includes('keyed'))!.headers['x-api-key']).toBe('k3y');
    expect(server.seen.find((s) => s.path === '/keyed')!.headers['x-api-key']).toBeUndefined();
    const seen = (path: string) => server!.seen.find((s) => s.path === path)!;
    expect([seen('/found').headers['content-length'], seen('/found').body, seen('/found').headers.authorization]).toEqual([undefined, '', 'Bearer s3cret']);
    expect([seen('/temporary').body, seen('/temporary').headers.authorization]).toEqual(['payload', 'Bearer s3cret']);
    expect([seen('/away').body, seen('/away').headers.authorization, seen('/away').headers.host]).toEqual(['payload', undefined, new URL(other).host]);
  });

  it('follows redirects of HTTPS targets too (undici), to another scheme as well', async () => {
    server = await startTargetServer();
    const { key, cert } = await testCertificate();
    const plain = server.url;
    const tls = https.createServer({ key, cert }, (req, res) => {
      res.statusCode = req.url === '/end' ? 200 : 302;
      if (req.url === '/start') res.setHeader('location', '/end');
      if (req.url === '/away') res.setHeader('location', `${plain}/a`);
      res.end();
    });
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
      const files = {
        'loadtests/t.yaml': { name: 'T', model: 'arrivalRate', targets: [{ request: 'Start.yaml' }, { request: 'Away.yaml' }], stages: [{ durationSecs: 0, target: 8 }, { durationSecs: 0.5, target: 8 }] },
        'requests/Start.yaml': { name: 'Start', method: 'GET', url: `${origin}/start` },
        'requests/Away.yaml': { name: 'Away', method: 'GET', url: `${origin}/away` },
      };
      const { ws, data } = await openedWorkspace(files);
      const result = await runLoadTest({ workspace: ws, id: 't', data, settings: { ...DEFAULT_SETTINGS, verifyTls: false }, workers: 1 });
      expect(result.overall.statuses).toEqual({ 200: 4 });
      expect(server.byPath.get('/a')).toBe(2);
    } finally {
      tls.closeAllConnections();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
    }
  });

  it('timeoutMs left out is the application setting; 0 is no limit, whatever the setting (2.12)', async () => {
    const stages = [{ durationSecs: 0, target: 1 }, { durationSecs: 0.3, target: 1 }];
    const unset = await setup({ model: 'virtualUsers', stages }, { Slow: '/slow?delay=700' });
    const cut = (await unset.run({ settings: { ...DEFAULT_SETTINGS, timeoutMs: 200 } })).targets[0]!;
    expect(cut.errors.timeout).toBe(cut.count);
    expect(cut.errorReasons).toEqual({ timeout: 'no answer within 200 ms' });
    await server!.close();
    const unlimited = await setup({ model: 'virtualUsers', timeoutMs: 0, stages }, { Slow: '/slow?delay=700' });
    const answered = (await unlimited.run({ settings: { ...DEFAULT_SETTINGS, timeoutMs: 200 } })).targets[0]!;
    expect(answered.count).toBeGreaterThan(0);
    expect(answered.errors.total).toBe(0);
    expect(answered.statuses).toEqual({ 200: answered.count });
  });

  it('httpVersion http2 over http:// speaks HTTP/2 at once (prior knowledge), as a run does, not HTTP/1.1', async () => {
    // A server that speaks only cleartext HTTP/2 (h2c), as gRPC and many service meshes do.
    const h2c = http2.createServer();
    const versions: string[] = [];
    h2c.on('stream', (stream, headers) => {
      versions.push(`${headers[':method']} ${headers[':path']}`);
      stream.respond({ ':status': 200 });
      stream.end('ok');
    });
    await new Promise<void>((resolve) => h2c.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(h2c.address() as AddressInfo).port}/h2`;
      const files = {
        'loadtests/t.yaml': { name: 'T', model: 'arrivalRate', httpVersion: 'http2', targets: [{ request: 'H2.yaml' }], stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }] },
        // Without httpVersion, the application setting decides (2.12).
        'loadtests/u.yaml': { name: 'U', model: 'arrivalRate', targets: [{ request: 'H2.yaml' }], stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.5, target: 10 }] },
        'requests/H2.yaml': { name: 'H2', method: 'GET', url },
      };
      const { ws, data } = await openedWorkspace(files);
      const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1 });
      expect(result.overall.statuses).toEqual({ 200: 5 });
      expect(result.overall.errors.total).toBe(0);
      expect(versions).toEqual(Array(5).fill('GET /h2'));
      const bySetting = await runLoadTest({ workspace: ws, id: 'u', data, settings: { ...DEFAULT_SETTINGS, httpVersion: 'http2' }, workers: 1 });
      expect(bySetting.overall.statuses).toEqual({ 200: 5 });
      expect(versions).toHaveLength(10);
    } finally {
      await new Promise<void>((resolve) => h2c.close(() => resolve()));
    }
  });

  it('httpVersion http2 over TLS offers h2 alone, as a run does: a server without HTTP/2 is an error that says so, not a quiet HTTP/1.1 test', async () => {
    const { key, cert } = await testCertificate();
    const seen: string[] = [];
    const answer = (req: { httpVersion: string }, res: { end(text: string): void }) => {
      seen.push(req.httpVersion);
      res.end('ok');
    };
    const both = http2.createSecureServer({ key, cert, allowHTTP1: true }, answer);
    const only1 = https.createServer({ key, cert }, answer);
    await Promise.all([both, only1].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
    try {
      const origin = (s: typeof both | typeof only1) => `https://127.0.0.1:${(s.address() as AddressInfo).port}`;
      const files = {
        'loadtests/t.yaml': { name: 'T', model: 'arrivalRate', httpVersion: 'http2', targets: [{ request: 'Both.yaml' }, { request: 'Only1.yaml' }], stages: [{ durationSecs: 0, target: 8 }, { durationSecs: 0.5, target: 8 }] },
        'requests/Both.yaml': { name: 'Both', method: 'GET', url: `${origin(both)}/x` },
        'requests/Only1.yaml': { name: 'Only1', method: 'GET', url: `${origin(only1)}/x` },
      };
      const { ws, data } = await openedWorkspace(files);
      const result = await runLoadTest({ workspace: ws, id: 't', data, settings: { ...DEFAULT_SETTINGS, verifyTls: false }, workers: 1 });
      const [ok, refused] = [result.targets.find((t) => t.request === 'Both.yaml')!, result.targets.find((t) => t.request === 'Only1.yaml')!];
      expect(ok.statuses).toEqual({ 200: 2 });
      expect(seen).toEqual(['2.0', '2.0']);
      expect(refused.errors).toMatchObject({ total: 2, tls: 2 });
      expect(refused.errorReasons.tls).toMatch(/^127\.0\.0\.1:\d+ does not speak HTTP\/2: its TLS handshake offered no h2 protocol \(httpVersion http2; use auto or http1\)$/);
    } finally {
      for (const s of [both, only1]) s.close();
    }
  });

  it('says when a proxy setting would apply to a target: load tests send directly (a proxy would be measured too)', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 0.3, target: 10 }] }, { A: '/a', B: '/b' });
    const notices: string[] = [];
    // Loopback goes past a proxy unless noProxy opts in (<-loopback>), as for a run.
    const settings = { ...DEFAULT_SETTINGS, proxy: 'http://user:pw@proxy.example.test:3128', noProxy: ['<-loopback>'] };
    const result = await run({ settings, onPlan: (plan) => notices.push(...planNotices(plan)) });
    expect(notices).toEqual(['load tests send directly, not through the proxy (http://proxy.example.test:3128, from the proxy setting): A.yaml, B.yaml.']);
    expect(result.overall.count).toBe(3);
    expect(server.byPath.get('/a')! + server.byPath.get('/b')!).toBe(3);
    // Without a proxy that applies, nothing is said.
    notices.length = 0;
    await run({ settings: { ...settings, noProxy: [] }, onPlan: (plan) => notices.push(...planNotices(plan)) });
    expect(notices).toEqual([]);
  });

  it('counts connection refused', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 0, target: 20 }, { durationSecs: 0.5, target: 20 }] }, { A: '/a' });
    await server.close();
    const result = await run();
    // Ten arrivals (20/s for 0.5 s); on a busy machine the last may come due after the stage ended
    // and be dropped and counted as such (generator.ts): every one sent was refused.
    const sent = result.overall.count;
    expect(sent + result.overall.dropped).toBe(10);
    expect(sent).toBeGreaterThanOrEqual(8);
    expect(result.overall.errors.refused).toBe(sent);
    expect(decodeHistogram(result.overall.histogram).totalCount).toBe(sent);
    const port = new URL(server.url).port;
    expect(result.targets[0]!.errorReasons).toEqual({ refused: `connect ECONNREFUSED 127.0.0.1:${port}` });
    expect(summaryText(result)).toContain(`errors: refused ${sent} (connect ECONNREFUSED 127.0.0.1:${port})`);
  });
});
