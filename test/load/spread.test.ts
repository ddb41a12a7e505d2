/**
 * Users spread over more generator workers during a run (closed model, default workers): the
 * workers already sending shrink to their share first and say so, then the joining ones start;
 * every request is counted once. Real sockets on 127.0.0.1; generators run in this thread.
 */
import { availableParallelism, cpus, uptime } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { machineIdleMs, needsMoreWorkers } from '../../src/load/engine.js';
import { Generator } from '../../src/load/generator.js';
import { runLoadTest } from '../../src/load/index.js';
import type { GeneratorConfig, WorkerMessage } from '../../src/load/wire.js';
import { openedWorkspace } from '../runner/workspace.js';
import { startTargetServer, type TargetServer } from './target-server.js';

let server: TargetServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited 20 s for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function config(url: string, worker: number): GeneratorConfig {
  return {
    targets: [{ request: 'r', weight: 1, method: 'GET', url, headers: [], captures: [] }],
    model: 'virtualUsers',
    stages: [{ durationSecs: 0, target: 4 }, { durationSecs: 3, target: 4 }],
    thinkTimeMs: 0,
    maxInFlight: 1000,
    keepAlive: true,
    timeoutMs: 10_000,
    http2: false,
    verifyTls: true,
    rows: [],
    segment: { index: 0, count: 1 },
    worker: { index: worker, count: 2 },
    activeWorkers: 1,
    marker: 'ferrymark',
    names: [],
  };
}

const doneCount = (messages: WorkerMessage[]) => messages.flatMap((m) => (m.type === 'done' ? m.targets.map((t) => t.count) : [])).reduce((a, b) => a + b, 0);

describe('spreading users over workers', () => {
  it('the sending worker shrinks to its share and says so; the joining one starts after; counts stay exact', async () => {
    server = await startTargetServer();
    const sent: WorkerMessage[] = [];
    const joined: WorkerMessage[] = [];
    // Different paths tell the server which generator sent what.
    const sending = new Generator(config(`${server.url}/sending`, 0), (m) => sent.push(m));
    const joining = new Generator(config(`${server.url}/joining`, 1), (m) => joined.push(m));
    const startAt = Date.now() + 20;
    const runs = Promise.all([sending.run(startAt), joining.run(startAt)]);

    await until(() => (server!.byPath.get('/sending') ?? 0) >= 5, 'the first requests');
    expect(server.byPath.get('/joining')).toBeUndefined(); // not active yet: none of the users
    sending.share(2);
    await until(() => sent.some((m) => m.type === 'shared'), '"shared"');
    const sharedAt = sent.findIndex((m) => m.type === 'shared');
    joining.share(2);
    await runs;

    expect(joined.some((m) => m.type === 'shared')).toBe(false);
    expect(server.byPath.get('/joining') ?? 0).toBeGreaterThan(0);
    // After "shared", the sending worker never had more than its share (2 of 4 users).
    for (const m of sent.slice(sharedAt)) if (m.type === 'seconds') expect(m.active).toBeLessThanOrEqual(2);
    expect(doneCount(sent)).toBe(server.byPath.get('/sending'));
    expect(doneCount(joined)).toBe(server.byPath.get('/joining'));
  });

  it('with the default workers, a closed-model run counts every request once, on however many workers it spread', async () => {
    server = await startTargetServer();
    const files = {
      'loadtests/t.yaml': { name: 'T', model: 'virtualUsers', targets: [{ request: 'A.yaml' }], stages: [{ durationSecs: 0, target: 10 }, { durationSecs: 2.5, target: 10 }] },
      'requests/A.yaml': { name: 'A', method: 'GET', url: `${server.url}/a` },
    };
    const { ws, data } = await openedWorkspace(files);
    const result = await runLoadTest({ workspace: ws, id: 't', data, settings: DEFAULT_SETTINGS });
    expect(result.overall.count).toBeGreaterThan(0);
    expect(result.overall.count).toBe(server.byPath.get('/a'));
    expect(result.workers).toBeGreaterThanOrEqual(1);
    expect(result.workers).toBeLessThanOrEqual(availableParallelism());
  });
});

describe('when more workers join', () => {
  it('only when every sending worker is busy and the machine has idle cores for the joining ones', () => {
    // A worker waiting for a local Node server: not busy, whatever the machine has idle.
    expect(needsMoreWorkers([0.35], 1.5, 1)).toBe(false);
    // Busy, but the cores are taken (the server beside it, other programs): a thread would only steal.
    expect(needsMoreWorkers([0.9], 0.1, 1)).toBe(false);
    expect(needsMoreWorkers([0.9], 0, 1)).toBe(false);
    // Busy beside a local Node server that takes a core (0.3 idle): none joins; beside nginx (0.6 idle)
    // one joins; two joining need more.
    expect(needsMoreWorkers([0.9], 0.3, 1)).toBe(false);
    expect(needsMoreWorkers([0.9], 0.6, 1)).toBe(true);
    expect(needsMoreWorkers([0.9, 0.8], 0.6, 2)).toBe(false);
    expect(needsMoreWorkers([0.9, 0.8], 1.2, 2)).toBe(true);
    // Every sending worker must be busy.
    expect(needsMoreWorkers([0.9, 0.4], 3, 2)).toBe(false);
    // Nobody left to join.
    expect(needsMoreWorkers([0.9], 2, 0)).toBe(false);
    // The system does not say what is idle: the workers' use decides.
    expect(needsMoreWorkers([0.9], undefined, 1)).toBe(true);
  });

  it('reads the machine\'s idle time from the system (all cores, ms)', () => {
    const idle = machineIdleMs();
    if (cpus().length === 0) return expect(idle).toBeUndefined();
    // Idle time since boot, summed over the cores: at most every core idle all along.
    expect(Number.isFinite(idle)).toBe(true);
    expect(idle).toBeGreaterThanOrEqual(0);
    expect(idle).toBeLessThanOrEqual((uptime() + 1) * 1000 * cpus().length);
  });
});

describe('a generator behind its schedule', () => {
  it('drops and counts the starts still due when the stages are over, instead of sending them late', async () => {
    server = await startTargetServer();
    const messages: WorkerMessage[] = [];
    // An open-model worker that begins 5 s late (a busy machine delayed its start message): its
    // 0.5 s of stages (20 starts) are long over, so nothing may be sent; before, all 20 went out.
    const behind = new Generator({ ...config(`${server.url}/late`, 0), model: 'arrivalRate', stages: [{ durationSecs: 0, target: 40 }, { durationSecs: 0.5, target: 40 }], worker: { index: 0, count: 1 } }, (m) => messages.push(m));
    await behind.run(Date.now() - 5_000);
    const done = messages.find((m) => m.type === 'done');
    expect(done?.type === 'done' && done.targets[0]).toMatchObject({ count: 0, dropped: 20 });
    expect(server.byPath.get('/late')).toBeUndefined();
  });
});
