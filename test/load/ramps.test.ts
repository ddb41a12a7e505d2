/**
 * Stages at their edges, over real sockets on 127.0.0.1: a ramp from 0 starts its first user at
 * once and the n-th as the ramp passes n - 1; a stage of length 0 is a step; a ramp down to 0 lets
 * every user go and a ramp up again starts new ones; open-model stages at 0 and at fractional
 * rates. Users are told apart by the token each one's login captured (tok-1 is the first user to
 * start); timing is asserted by counts and order, and by "not before" bounds only (a busy machine
 * can delay a start, never advance it).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runLoadTest, type LoadRunOptions } from '../../src/load/index.js';
import { openedWorkspace } from '../runner/workspace.js';
import { startTargetServer, type TargetServer } from './target-server.js';

let server: TargetServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Each user logs in once (its first request), then sends its token in every later request. */
const perUser = [
  { request: 'Login.yaml', weight: 1, captures: [{ variable: 'token', path: 'data.token' }] },
  { request: 'Use.yaml', weight: 100_000 },
];

async function setup(loadtest: Record<string, unknown>) {
  server = await startTargetServer();
  const files: Record<string, unknown> = {
    'loadtests/t.yaml': { name: 'T', targets: [{ request: 'A.yaml' }], ...loadtest },
    'requests/A.yaml': { name: 'A', method: 'GET', url: `${server.url}/a` },
    'requests/Login.yaml': { name: 'Login', method: 'GET', url: `${server.url}/login` },
    'requests/Use.yaml': { name: 'Use', method: 'GET', url: `${server.url}/use/{{token}}` },
  };
  const { ws, data } = await openedWorkspace(files);
  const run = (more: Partial<LoadRunOptions> = {}) => runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS, workers: 1, ...more });
  return { run, server };
}

/** The server's requests as user tokens in arrival order: `login` for a login, else the token used. */
function byUser(target: TargetServer): string[] {
  return target.seen.filter((s) => s.path === '/login' || s.path.startsWith('/use/')).map((s) => (s.path === '/login' ? 'login' : s.path.slice('/use/'.length)));
}

describe('virtual users on a ramp', () => {
  it('a ramp from 0 to 1 user over 1 s sends requests (the user starts at once, not when the ramp ends)', async () => {
    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 50, stages: [{ durationSecs: 1, target: 1 }] });
    const result = await run();
    // One user, 1 s, a pause of 50 ms after each answer: about 20 requests; before, none.
    expect(result.overall.count).toBeGreaterThanOrEqual(5);
    expect(server.byPath.get('/a')).toBe(result.overall.count);
    expect(result.overall.errors.total).toBe(0);
  });

  it('0 to 3 users over 3 s starts them at about 0, 1 and 2 s: each later user sends less, and each starts after the earlier ones sent a while', async () => {
    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 100, targets: perUser, stages: [{ durationSecs: 3, target: 3 }] });
    const result = await run();
    expect(result.overall.errors.total).toBe(0);
    expect(server.byPath.get('/login')).toBe(3);
    const order = byUser(server);
    // The first user starts the test; the second logs in about 1 s later, the third about 2 s later.
    expect(order[0]).toBe('login');
    const logins = order.flatMap((what, i) => (what === 'login' ? [i] : []));
    const sent = (token: string) => order.filter((what) => what === token).length;
    // About 10 requests a second per user (100 ms pause): user 1 sent several before user 2 came, and so on.
    expect(order.slice(0, logins[1]).filter((what) => what === 'tok-1').length).toBeGreaterThanOrEqual(3);
    expect(order.slice(logins[1], logins[2]).filter((what) => what === 'tok-2').length).toBeGreaterThanOrEqual(3);
    // Three seconds, two and one of sending: the third user (the one a ramp rounded down never started) sent too.
    expect(sent('tok-1')).toBeGreaterThan(sent('tok-2'));
    expect(sent('tok-2')).toBeGreaterThan(sent('tok-3'));
    expect(sent('tok-3')).toBeGreaterThanOrEqual(1);
    // Nothing sent before the test started.
    expect(server.seen[0]!.at).toBeGreaterThanOrEqual(Date.parse(result.startedAt));
  });

  it('a stage that ends at N users leaves N for the next stage, and a stage of length 0 is a step', async () => {
    // 0 → 2 over 0.4 s, held 0.6 s; then a step to 4, held 0.6 s: four users in all, none replaced.
    const { run, server } = await setup({
      model: 'virtualUsers',
      thinkTimeMs: 50,
      targets: perUser,
      stages: [{ durationSecs: 0.4, target: 2 }, { durationSecs: 0.6, target: 2 }, { durationSecs: 0, target: 4 }, { durationSecs: 0.6, target: 4 }],
    });
    const result = await run();
    expect(result.overall.errors.total).toBe(0);
    expect(server.byPath.get('/login')).toBe(4);
    const order = byUser(server);
    // The two users of the ramp send until the end, alongside the two of the step.
    const last = (token: string) => order.lastIndexOf(token);
    const thirdLogin = order.flatMap((what, i) => (what === 'login' ? [i] : []))[2]!;
    for (const token of ['tok-1', 'tok-2']) expect(last(token)).toBeGreaterThan(thirdLogin);
    for (const token of ['tok-3', 'tok-4']) expect(order.filter((what) => what === token).length).toBeGreaterThanOrEqual(2);
    // The step came after a second of the first stages: nothing of the third user before then.
    const start = Date.parse(result.startedAt);
    const thirdAt = server.seen.filter((s) => s.path === '/login')[2]!.at;
    expect(thirdAt - start).toBeGreaterThanOrEqual(950);
  });

  it('a first stage of length 0 starts its users at once; a stage at 0 users before a step sends nothing until the step', async () => {
    const step = await setup({ model: 'virtualUsers', thinkTimeMs: 100_000, stages: [{ durationSecs: 0, target: 3 }, { durationSecs: 0.5, target: 3 }] });
    expect((await step.run()).overall.count).toBe(3);
    await step.server.close();

    const { run, server } = await setup({ model: 'virtualUsers', thinkTimeMs: 50, stages: [{ durationSecs: 0.6, target: 0 }, { durationSecs: 0, target: 2 }, { durationSecs: 0.4, target: 2 }] });
    const result = await run();
    expect(result.overall.count).toBeGreaterThanOrEqual(2);
    expect(server.seen[0]!.at - Date.parse(result.startedAt)).toBeGreaterThanOrEqual(550);
  });

  it('a ramp down to 0 lets every user go; the ramp up after it starts new users', async () => {
    const { run, server } = await setup({
      model: 'virtualUsers',
      thinkTimeMs: 50,
      targets: perUser,
      stages: [
        { durationSecs: 0, target: 2 },
        { durationSecs: 0.4, target: 2 },
        { durationSecs: 0.4, target: 0 },
        { durationSecs: 0.5, target: 0 },
        { durationSecs: 0.4, target: 2 },
      ],
    });
    const result = await run();
    expect(result.overall.errors.total).toBe(0);
    // Two users, both gone at 0; two new ones on the way up (each logs in afresh).
    expect(server.byPath.get('/login')).toBe(4);
    const order = byUser(server);
    const thirdLogin = order.flatMap((what, i) => (what === 'login' ? [i] : []))[2]!;
    expect(order.slice(thirdLogin).filter((what) => what === 'tok-1' || what === 'tok-2')).toEqual([]);
    expect(order.slice(thirdLogin).filter((what) => what === 'tok-3').length).toBeGreaterThanOrEqual(1);
  });
});

describe('arrival rate at 0 and at fractional rates', () => {
  it('a stage at 0 requests per second sends nothing; the step after it sends on schedule', async () => {
    const { run, server } = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 0.5, target: 0 }, { durationSecs: 0, target: 20 }, { durationSecs: 0.5, target: 20 }] });
    const result = await run();
    expect(result.overall.count + result.overall.dropped).toBe(10);
    expect(server.byPath.get('/a')).toBe(result.overall.count);
    expect(server.seen[0]!.at - Date.parse(result.startedAt)).toBeGreaterThanOrEqual(450);
  });

  it('a fractional rate sends request k when the arrivals reach k: 2.5/s for 1 s sends 3 (at 0, 0.4, 0.8 s); 0 to 1/s over 1 s sends 1', async () => {
    const steady = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 0, target: 2.5 }, { durationSecs: 1, target: 2.5 }] });
    const result = await steady.run();
    expect(result.overall.count + result.overall.dropped).toBe(3);
    const start = Date.parse(result.startedAt);
    // Not before their times (a busy machine may send late, never early).
    const at = steady.server.seen.map((s) => s.at - start);
    expect(at[1]).toBeGreaterThanOrEqual(350);
    expect(at[2]).toBeGreaterThanOrEqual(750);
    await steady.server.close();

    const ramp = await setup({ model: 'arrivalRate', stages: [{ durationSecs: 1, target: 1 }] });
    expect((await ramp.run()).overall.count).toBe(1);
  });
});
