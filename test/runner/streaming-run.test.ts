/**
 * `ferry run -r json` on a small workspace with one WebSocket, one Socket.IO and one MQTT request
 * against real peers on 127.0.0.1 (a `ws` server, a `socket.io` server, aedes): pre-request
 * scripts, `pm.response.messages` in post-response tests, the JSON report's `messages` and
 * `stream`, a bad request failing with one line while the run goes on, and `ferry ls`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { jsonReport, reportedMessage } from '../../src/runner/reporters/json.js';
import { startAedes, type Broker } from '../protocols/mqtt-brokers.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace } from './workspace.js';

let wsServer: http.Server;
let ioServer: http.Server;
let io: Server;
let broker: Broker;
const port = (server: http.Server) => (server.address() as AddressInfo).port;

beforeAll(async () => {
  wsServer = http.createServer();
  new WebSocketServer({ server: wsServer }).on('connection', (socket, req) => {
    if (req.url === '/bye') {
      socket.send('bye soon');
      socket.close(4001, 'go away');
      return;
    }
    socket.on('message', (data) => socket.send(`echo: ${data.toString()}`));
    socket.send(JSON.stringify({ hello: 'ws' }));
  });
  ioServer = http.createServer();
  io = new Server(ioServer);
  io.on('connection', (socket) => socket.on('add', (a: number, b: number, ack: (sum: number) => void) => ack(a + b)));
  await Promise.all([wsServer, ioServer].map((s) => new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))));
  broker = await startAedes();
});
afterAll(async () => {
  await broker.close();
  io.close();
  for (const server of [wsServer, ioServer]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

describe('ferry run with WebSocket, Socket.IO and MQTT requests', () => {
  it('runs each kind with scripts over pm.response.messages; the JSON report carries messages and stream', async () => {
    const temp = await makeWorkspace({
      'environments/local.yaml': { name: 'local', variables: [{ key: 'who', value: 'ferry' }] },
      'requests/1 socket.yaml': {
        name: 'socket',
        kind: 'websocket',
        url: `ws://127.0.0.1:${port(wsServer)}/`,
        body: { type: 'text', text: 'hi {{who}}' },
        settings: { stream: { maxEvents: 2 } },
        scripts: {
          preRequest: "pm.request.headers.add({ key: 'X-From', value: 'script' });",
          postResponse: [
            "const got = pm.response.messages.filter((m) => m.direction === 'received');",
            "pm.test('greeting then echo', () => {",
            "  pm.expect(got[0].json().hello).to.equal('ws');",
            "  pm.expect(got[1].text).to.equal('echo: hi ferry');",
            "  pm.expect(pm.response.text()).to.equal(got.map((m) => m.text).join('\\n'));",
            '});',
          ].join('\n'),
        },
      },
      'requests/2 io.yaml': {
        name: 'io',
        kind: 'socketio',
        url: `http://127.0.0.1:${port(ioServer)}/`,
        socketio: { event: 'add', ack: true },
        body: { type: 'json', text: '[2, 3]' },
        settings: { stream: { event: 'ack' } },
        scripts: { postResponse: "pm.test('sum acknowledged', () => pm.expect(pm.response.messages.find((m) => m.event === 'ack').args).to.eql([5]));" },
      },
      'requests/3 mqtt.yaml': {
        name: 'mqtt',
        kind: 'mqtt',
        url: broker.url,
        mqtt: { subscriptions: [{ topic: 'ferry/run/#', qos: 1 }], topic: 'ferry/run/{{who}}', qos: 1 },
        body: { type: 'json', text: '{"t": 21.5}' },
        settings: { stream: { event: 'ferry/run/ferry' } },
        scripts: { postResponse: "pm.test('temperature read back', () => { const m = pm.response.messages.find((x) => x.direction === 'received'); pm.expect(m.topic).to.equal('ferry/run/ferry'); pm.expect(m.json().t).to.equal(21.5); });" },
      },
      'requests/4 broken.yaml': { name: 'broken', kind: 'socketio', url: `http://127.0.0.1:${port(ioServer)}/`, socketio: { auth: '{not json' } },
    });
    try {
      process.env.FERRY_DATA_DIR = temp.dataDir;
      const result = await ferry(['-w', temp.root, 'run', '-e', 'local', '-r', 'json']);
      if (!result.stdout.trim()) throw new Error(`no report: ${result.stderr}`);
      const report = JSON.parse(result.stdout);
      const byName = (name: string) => report.results.find((r: { name: string }) => r.name === name);
      const [ws, sio, mqtt, broken] = ['socket', 'io', 'mqtt', 'broken'].map(byName);
      expect(ws).toMatchObject({ kind: 'websocket', status: 101, passed: true, stream: { events: 2, stoppedBy: 'maxEvents' }, tests: [{ name: 'greeting then echo', passed: true }] });
      expect(ws.messages.map((m: { direction: string; text: string }) => [m.direction, m.text])).toEqual([['sent', 'hi ferry'], ['received', '{"hello":"ws"}'], ['received', 'echo: hi ferry']]);
      expect(sio).toMatchObject({ kind: 'socketio', passed: true, stream: { stoppedBy: 'event' }, tests: [{ name: 'sum acknowledged', passed: true }] });
      expect(mqtt).toMatchObject({ kind: 'mqtt', status: 0, passed: true, stream: { events: 1, stoppedBy: 'event' }, tests: [{ name: 'temperature read back', passed: true }] });
      expect(mqtt.messages[1]).toMatchObject({ direction: 'received', topic: 'ferry/run/ferry', qos: 1, retain: false });
      expect(broken.passed).toBe(false);
      expect(broken.error).toMatch(/^requests\/4 broken\.yaml: socketio\.auth is not valid JSON/);
      expect(broken.error).not.toContain('\n');
      expect(result.code).toBe(1);

      const listed = await ferry(['-w', temp.root, 'ls']);
      expect(listed.stdout).toMatch(/websocket/);
      expect(listed.stdout).toMatch(/socketio/);
      expect(listed.stdout).toMatch(/mqtt/);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('a stream the server closed', () => {
  it('says how the peer closed it (the WebSocket close code and reason) on the terminal and in the JSON report', async () => {
    const temp = await makeWorkspace({ 'requests/bye.yaml': { name: 'bye', kind: 'websocket', url: `ws://127.0.0.1:${port(wsServer)}/bye` } });
    try {
      process.env.FERRY_DATA_DIR = temp.dataDir;
      const json = await ferry(['-w', temp.root, 'run', '-r', 'json']);
      expect(JSON.parse(json.stdout).results[0]).toMatchObject({ passed: true, stream: { events: 1, stoppedBy: 'closed', closedWith: 'close code 4001 "go away"' }, detail: { closeCode: 4001, closeReason: 'go away' } });
      const { stdout } = await ferry(['-w', temp.root, 'run']);
      expect(stdout).toMatch(/ws:\/\/127\.0\.0\.1:\d+\/bye 101 Switching Protocols [^\n]* · 1 event, stream closed by the server \(close code 4001 "go away"\)\n/);
    } finally {
      await temp.cleanup();
    }
  });
});

describe('the JSON report', () => {
  it('cuts each message text at 64 KB with a mark', () => {
    const long = 'é'.repeat(40_000); // 80,000 bytes
    const cut = reportedMessage({ direction: 'received', timeMs: 1, text: long });
    expect(cut.cut).toBe(true);
    expect(cut.text).toMatch(/… \[cut at 64 KB; 80000 bytes in all\]$/);
    expect(Buffer.byteLength(cut.text.split('…')[0]!)).toBeLessThanOrEqual(64 * 1024);
    expect(reportedMessage({ direction: 'sent', timeMs: 0, text: 'short' })).toEqual({ direction: 'sent', timeMs: 0, text: 'short' });
    const report = jsonReport(undefined, {
      bailed: false,
      summary: { requests: 1, failedRequests: 0, skippedRequests: 0, tests: 0, failedTests: 0, durationMs: 1, iterations: 1 },
      results: [{ path: 'a.yaml', name: 'a', kind: 'websocket', folder: '', folderNames: [], method: '', url: 'ws://x', durationMs: 1, iteration: 0, tests: [], passed: true, console: [], startedAt: '', messages: [{ direction: 'received', timeMs: 1, text: long }] }],
    });
    expect(report.results[0]!.messages![0]!.cut).toBe(true);
  });
});
