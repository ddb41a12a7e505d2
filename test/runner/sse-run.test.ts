/**
 * `ferry run` with SSE requests: scripts and tests over the events read, the reports (cli, json,
 * junit), bad URLs, cancel, and the CLI end to end with Ferry's own SSE server (--start-servers).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { CliReporter, JsonReporter, JunitReporter, runRequests, type RunEvent, type RunOptions } from '../../src/runner/index.js';
import { ferry } from '../support/cli.js';
import { freePort } from '../support/servers/index.js';
import { makeWorkspace, openedWorkspace } from './workspace.js';

let raw: http.Server;
let base = '';

beforeAll(async () => {
  raw = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: price\ndata: {"p":1}\n\nevent: price\ndata: {"p":2}\n\nevent: end\ndata: bye\n\ndata: after\n\n');
      return; // left open
    }
    if (url.pathname === '/many') {
      // 101 events, then left open: only the default maxEvents (100) ends the read.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(Array.from({ length: 101 }, (_, i) => `data: ${i + 1}\n\n`).join(''));
      return;
    }
    if (url.pathname === '/quiet') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    if (url.pathname === '/close') return void res.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: a\n\n');
    if (url.pathname === '/gone') return void res.writeHead(410, { 'content-type': 'application/json' }).end('{"error":"gone"}');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
});
afterAll(async () => {
  raw.closeAllConnections();
  await new Promise<void>((resolve) => raw.close(() => resolve()));
});

async function run(files: Record<string, unknown>, options: Partial<RunOptions> = {}) {
  const s = await openedWorkspace(files);
  const events: RunEvent[] = [];
  const outcome = await runRequests({
    workspace: s.ws,
    dataFolder: s.data,
    settings: DEFAULT_SETTINGS,
    ...options,
    reporters: [{ onEvent: (e) => events.push(e) }, ...(options.reporters ?? [])],
  });
  return { ...outcome, events };
}

const EVENTS_TEST = `
const events = pm.response.text().split('\\n\\n').filter(Boolean);
pm.test('three events, the last named end', () => {
  pm.expect(pm.response.code).to.equal(200);
  pm.expect(events.length).to.equal(3);
  pm.expect(events[2]).to.include('event: end');
});
pm.test('prices rise', () => {
  const prices = events.filter((e) => e.startsWith('event: price')).map((e) => JSON.parse(e.split('data: ')[1]).p);
  pm.expect(prices).to.eql([1, 2]);
});
pm.environment.set('events', String(events.length));
`;

describe('ferry run with SSE requests', () => {
  it('runs scripts and tests over the events read; reports show the events like an HTTP request', async () => {
    let json = '';
    let xml = '';
    let cli = '';
    const { results, summary } = await run(
      {
        'requests/stream.yaml': {
          name: 'stream',
          kind: 'sse',
          url: `${base}/events`,
          settings: { stream: { event: 'end' } },
          scripts: { postResponse: EVENTS_TEST },
        },
        'requests/ws.yaml': { name: 'socket', kind: 'websocket', url: 'ws://127.0.0.1:1/', seq: 2 },
      },
      {
        reporters: [
          new JsonReporter((t) => void (json += t)),
          new JunitReporter((t) => void (xml += t)),
          new CliReporter({ write: (t) => void (cli += t), color: false }),
        ],
      },
    );
    expect(results[0]).toMatchObject({ kind: 'sse', method: 'GET', status: 200, passed: true, stream: { events: 3, stoppedBy: 'event' } });
    expect(results[0]!.tests).toEqual([
      { name: 'three events, the last named end', passed: true },
      { name: 'prices rise', passed: true },
    ]);
    expect(results[0]!.size).toBeGreaterThan(0);
    // Another streaming kind beside it: nothing listens there, so it fails with one line and the run goes on.
    expect(results[1]).toMatchObject({ kind: 'websocket', passed: false, error: expect.stringMatching(/^connection refused by 127\.0\.0\.1:1: /) });
    expect(summary).toMatchObject({ requests: 2, failedRequests: 1, tests: 2, failedTests: 0 });

    const report = JSON.parse(json);
    expect(report.results[0]).toMatchObject({ kind: 'sse', status: 200, stream: { events: 3, stoppedBy: 'event' }, passed: true });
    expect(report.results[1].stream).toBeUndefined();
    expect(xml).toMatch(/<testcase name="stream - three events, the last named end" classname="stream" time="\d+\.\d{3}"\/>/);
    expect(cli).toMatch(/✓ stream stream\.yaml\n {4}GET http:\/\/127\.0\.0\.1:\d+\/events 200 OK \d+ ms · [\d.]+ (B|kB) · 3 events, stopped at the named event\n/);
  });

  it('a failing test over the events fails the request', async () => {
    const { results } = await run({
      'requests/stream.yaml': {
        name: 'stream',
        kind: 'sse',
        url: `${base}/events`,
        settings: { stream: { maxEvents: 1 } },
        scripts: { postResponse: "pm.test('two events', () => pm.expect(pm.response.text().split('\\n\\n').filter(Boolean)).to.have.length(2));" },
      },
    });
    expect(results[0]).toMatchObject({ passed: false, stream: { events: 1, stoppedBy: 'maxEvents' } });
    expect(results[0]!.tests[0]).toMatchObject({ name: 'two events', passed: false });
  });

  it('without settings.stream a run stops at the default 100 events (spec 2.7, 8.1): the 100th is read, the 101st not', async () => {
    const { results } = await run({
      'requests/many.yaml': {
        name: 'many',
        kind: 'sse',
        url: `${base}/many`,
        scripts: { postResponse: "const read = pm.response.text().split('\\n\\n').filter(Boolean); pm.test('read', () => pm.expect([read.length, read.at(-1)]).to.eql([100, 'data: 100']));" },
      },
    });
    expect(results[0]).toMatchObject({ passed: true, status: 200, stream: { events: 100, stoppedBy: 'maxEvents' } });
    expect(results[0]!.tests).toEqual([expect.objectContaining({ name: 'read', passed: true })]);
  });

  it('the time limit is a normal end: no events and no tests still passes', async () => {
    const { results } = await run({
      'requests/quiet.yaml': { name: 'quiet', kind: 'sse', url: `${base}/quiet`, settings: { stream: { timeoutMs: 100 } } },
    });
    expect(results[0]).toMatchObject({ passed: true, status: 200, stream: { events: 0, stoppedBy: 'timeout' } });
    expect(results[0]!.error).toBeUndefined();
  });

  it('a non-2xx answer is read as a body for tests, and without tests fails on its status', async () => {
    const { results } = await run({
      'requests/1.yaml': { name: 'checked', seq: 1, kind: 'sse', url: `${base}/gone`, scripts: { postResponse: "pm.test('gone', () => { pm.response.to.have.status(410); pm.expect(pm.response.json().error).to.equal('gone'); });" } },
      'requests/2.yaml': { name: 'unchecked', seq: 2, kind: 'sse', url: `${base}/gone` },
    });
    expect(results[0]).toMatchObject({ status: 410, passed: true });
    expect(results[0]!.stream).toBeUndefined();
    expect(results[1]).toMatchObject({ status: 410, passed: false });
  });

  it('a settings.stream of the wrong shape fails its request naming file, line and field; an empty event name means none', async () => {
    const { results } = await run({
      'requests/1.yaml': { name: 'negative', seq: 1, kind: 'sse', url: `${base}/close`, settings: { stream: { maxEvents: -1 } } },
      'requests/2.yaml': { name: 'words', seq: 2, kind: 'sse', url: `${base}/close`, settings: { stream: { timeoutMs: 'soon' } } },
      'requests/3.yaml': { name: 'empty', seq: 3, kind: 'sse', url: `${base}/events`, settings: { stream: { event: '', maxEvents: 2 } } },
    });
    const byPath = Object.fromEntries(results.map((r) => [r.path, r]));
    expect(byPath['1.yaml']).toMatchObject({ passed: false, error: 'requests/1.yaml:7:16: settings.stream.maxEvents: must be at least 0 (fix the file to run it)' });
    expect(byPath['2.yaml']).toMatchObject({ passed: false, error: 'requests/2.yaml:7:16: settings.stream.timeoutMs: expected a number, got text "soon" (fix the file to run it)' });
    expect(byPath['3.yaml']).toMatchObject({ passed: true, stream: { events: 2, stoppedBy: 'maxEvents' } });
  });

  it('a ws:// URL fails the request with a message naming SSE and the file', async () => {
    const { results } = await run({ 'requests/bad.yaml': { name: 'bad', kind: 'sse', url: 'ws://127.0.0.1:1/events' } });
    expect(results[0]).toMatchObject({ passed: false, error: 'requests/bad.yaml: an SSE request needs an http:// or https:// URL, not ws://.' });
  });

  it('cancelling the run ends an open stream at once', async () => {
    const controller = new AbortController();
    const { results } = await run(
      { 'requests/quiet.yaml': { name: 'quiet', kind: 'sse', url: `${base}/quiet`, settings: { stream: { timeoutMs: 10_000, maxEvents: 0 } } } },
      {
        signal: controller.signal,
        reporters: [{ onEvent: (e) => void (e.type === 'sending' && setTimeout(() => controller.abort(), 50)) }],
      },
    );
    expect(results[0]).toMatchObject({ passed: false, error: 'the request was cancelled.' });
  });
});

describe('ferry run on the command line', () => {
  it("reads Ferry's own SSE server started with --start-servers; the JSON report carries the events", async () => {
    const port = await freePort();
    const temp = await makeWorkspace({
      'servers/events.yaml': {
        name: 'Events',
        kind: 'sse',
        port,
        autoStart: true,
        sse: { intervalMs: 10, repeat: true, events: [{ event: 'tick', data: 'one' }, { event: 'done', data: 'two' }] },
      },
      'requests/ticks.yaml': {
        name: 'ticks',
        kind: 'sse',
        url: `http://127.0.0.1:${port}/`,
        settings: { stream: { maxEvents: 3 } },
        scripts: { postResponse: "pm.test('3 data lines', () => pm.expect(pm.response.text().match(/^data: /gm).length).to.equal(3));" },
      },
    });
    try {
      process.env.FERRY_DATA_DIR = temp.dataDir;
      const result = await ferry(['-w', temp.root, 'run', '--start-servers', '-r', 'json']);
      expect(result.stderr).toMatch(/^Started server events at http:\/\/127\.0\.0\.1:\d+\n$/);
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout);
      expect(report.results[0]).toMatchObject({ kind: 'sse', status: 200, passed: true, stream: { events: 3, stoppedBy: 'maxEvents' }, tests: [{ name: '3 data lines', passed: true }] });

      const text = await ferry(['-w', temp.root, 'run', '--start-servers']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/ 200 OK \d+ ms · [\d.]+ (B|kB) · 3 events, stopped at maxEvents\n {4}✓ 3 data lines\n/);
    } finally {
      await temp.cleanup();
    }
  });
});
