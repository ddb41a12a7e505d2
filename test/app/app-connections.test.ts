/**
 * The app's live connections at the HTTP level (issue 26), on real sockets: a `ws` echo server
 * and aedes. Open an unsaved or saved request, messages on the live channel with the connection
 * id, send, MQTT subscribe, close, the kept messages bounded, the connection surviving a
 * workspace reload, every connection closed with the app; and the refusals.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import type { ConnectionView, LiveEvent, StreamMessage } from '../../src/app/shared/api.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startAedes, type Broker } from '../protocols/mqtt-brokers.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';
import { until } from './api-client.js';

interface Answer {
  status: number;
  body: unknown;
}

async function call(app: AppServer, cookie: string, method: string, urlPath: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${app.port}${urlPath}`, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Echoes text frames; `flood N` answers with N numbered messages; records the close codes it sees. */
async function echoServer() {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const closes: number[] = [];
  wss.on('connection', (socket) => {
    socket.on('close', (code) => closes.push(code));
    socket.on('message', (data, isBinary) => {
      const text = data.toString();
      if (!isBinary && text.startsWith('flood ')) for (let i = 0; i < Number(text.slice(6)); i++) socket.send(`m${i}`);
      else socket.send(data, { binary: isBinary });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}`,
    closes,
    close: () => new Promise<void>((resolve) => {
      for (const c of wss.clients) c.terminate();
      wss.close();
      server.close(() => resolve());
    }),
  };
}

describe('ferry app: live connections', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let cookie: string;
  let echo: Awaited<ReturnType<typeof echoServer>>;
  let broker: Broker;
  let events: LiveEvent[];
  let channel: WebSocket;
  const api = (method: string, urlPath: string, body?: unknown) => call(app, cookie, method, urlPath, body);
  const messagesOf = (id: string): StreamMessage[] => events.flatMap((e) => (e.type === 'connectionMessages' && e.connectionId === id ? e.messages : []));

  beforeEach(async () => {
    echo = await echoServer();
    broker = await startAedes();
    ws = await makeWorkspace({
      'requests/Echo.yaml': { name: 'Echo', kind: 'websocket', url: '{{echo}}' },
      'requests/Sensors.yaml': { name: 'Sensors', kind: 'mqtt', url: broker.url },
      'requests/Lookup.yaml': { name: 'Lookup', kind: 'dns', url: 'example.com', method: 'A' },
      'requests/Runs/Ping.yaml': { name: 'Ping', kind: 'websocket', url: '{{echo}}', body: { type: 'text', text: 'ping' }, settings: { stream: { maxEvents: 1, timeoutMs: 3000 } } },
    }, { variables: [{ key: 'echo', value: echo.url }] });
    process.env.FERRY_DATA_DIR = ws.dataDir;
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() });
    const res = await fetch(`http://127.0.0.1:${app.port}/?token=${app.token}`, { redirect: 'manual' });
    cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    events = [];
    channel = new WebSocket(`ws://127.0.0.1:${app.port}/api/live`, { headers: { cookie } });
    channel.on('message', (data) => events.push(JSON.parse(String(data)) as LiveEvent));
    await new Promise<void>((resolve, reject) => {
      channel.once('open', () => resolve());
      channel.once('error', reject);
    });
  });

  afterEach(async () => {
    channel.close();
    await app.close();
    await echo.close();
    await broker.close();
    await ws.cleanup();
  });

  it('lists the kinds that connect with their composers, from the kind table', async () => {
    const kinds = (await api('GET', '/api/connections/kinds')).body as Record<string, { formats: string[]; fields: string[]; operations: Array<{ name: string }>; options?: string }>;
    expect(Object.keys(kinds).sort()).toEqual(['grpc', 'http', 'mcp', 'mqtt', 'socketio', 'sse', 'tcp', 'udp', 'websocket']);
    expect(kinds.websocket!.formats).toEqual(['text', 'json', 'hex', 'base64']);
    expect(kinds.mqtt).toMatchObject({ fields: ['topic', 'qos', 'retain'], options: 'mqtt' });
    expect(kinds.mqtt!.operations.map((o) => o.name)).toEqual(['subscribe', 'unsubscribe']);
    expect(kinds.sse!.formats).toEqual([]);
    // MCP: operations only (nothing free to send), with the composer fields they take.
    expect(kinds.mcp).toMatchObject({ formats: [], fields: [], options: 'mcp' });
    expect(kinds.mcp!.operations).toEqual([
      { name: 'listTools', label: 'List tools', params: [] },
      { name: 'callTool', label: 'Call tool', params: ['name', 'arguments'] },
      { name: 'listResources', label: 'List resources', params: [] },
      { name: 'readResource', label: 'Read resource', params: ['uri'] },
      { name: 'listPrompts', label: 'List prompts', params: [] },
      { name: 'getPrompt', label: 'Get prompt', params: ['name', 'arguments'] },
    ]);
  });

  it('WebSocket: opens a saved request, messages both ways on the live channel, survives a workspace reload, closes', async () => {
    const opened = await api('POST', '/api/connections', { path: 'Echo.yaml' });
    expect(opened.status).toBe(200);
    const view = opened.body as ConnectionView;
    expect(view).toMatchObject({ path: 'Echo.yaml', kind: 'websocket', url: `${echo.url}/`, messageCount: 0 });
    expect(((await api('GET', '/api/connections')).body as ConnectionView[]).map((c) => c.id)).toEqual([view.id]);

    expect((await api('POST', '/api/connections/send', { id: view.id, message: { format: 'text', text: 'hello' } })).status).toBe(200);
    await until('the echo', () => messagesOf(view.id).length === 2);
    expect(messagesOf(view.id).map((m) => [m.direction, m.text])).toEqual([['sent', 'hello'], ['received', 'hello']]);

    // A file changes (the app's own save, git…): the session is retired, the connection stays.
    await ws.write('requests/Other.yaml', { name: 'Other', url: 'http://127.0.0.1:9/' });
    await app.state.reload();
    await api('POST', '/api/connections/send', { id: view.id, message: { format: 'hex', text: 'ca fe' } });
    await until('the binary echo', () => messagesOf(view.id).length === 4);
    expect(messagesOf(view.id)[3]).toMatchObject({ direction: 'received', binary: true, text: Buffer.from([0xca, 0xfe]).toString('base64') });
    expect((await api('GET', `/api/connections/messages?id=${view.id}`)).body).toMatchObject({ messages: { length: 4 }, upTo: 4 });

    const closed = await api('POST', '/api/connections/close', { id: view.id });
    expect((closed.body as ConnectionView[])[0]!.ended).toEqual({ by: 'client', message: 'closed by you' });
    await until('the end event', () => events.find((e) => e.type === 'connectionEnded' && e.connectionId === view.id));
    await until('the server seeing the close', () => echo.closes.includes(1000));
    const late = await api('POST', '/api/connections/send', { id: view.id, message: { format: 'text', text: 'late' } });
    expect(late).toEqual({ status: 404, body: { error: `No open connection "${view.id}": it was closed or never opened; connect again.` } });
  });

  it('keeps the last 1,000 messages of a connection and counts all; the page gets them in batches', async () => {
    const view = (await api('POST', '/api/connections', { path: 'Flood.yaml', request: { name: 'Flood', kind: 'websocket', url: echo.url } })).body as ConnectionView;
    await api('POST', '/api/connections/send', { id: view.id, message: { format: 'text', text: 'flood 1500' } });
    await until('1,501 messages', () => ((events.filter((e) => e.type === 'connectionMessages' && e.connectionId === view.id).reduce((n, e) => n + (e.type === 'connectionMessages' ? e.messages.length + e.skipped : 0), 0)) === 1501));
    const { messages: kept, upTo } = (await api('GET', `/api/connections/messages?id=${view.id}`)).body as { messages: StreamMessage[]; upTo: number };
    expect(kept).toHaveLength(1000);
    expect(kept.at(-1)!.text).toBe('m1499');
    expect(upTo).toBe(1501);
    // Each batch says where its last message is, every message counted: the page places them by it.
    const batches = events.filter((e) => e.type === 'connectionMessages' && e.connectionId === view.id) as Array<{ messages: StreamMessage[]; skipped: number; upTo: number }>;
    expect(batches.at(-1)!.upTo).toBe(1501);
    batches.reduce((before, b) => (expect(b.upTo).toBe(before + b.skipped + b.messages.length), b.upTo), 0);
    expect(((await api('GET', '/api/connections')).body as ConnectionView[])[0]!.messageCount).toBe(1501);
    expect(events.filter((e) => e.type === 'connectionMessages').length).toBeLessThan(200);
  });

  it('MQTT: subscribe live, publish to it, unsubscribe', async () => {
    const view = (await api('POST', '/api/connections', { path: 'Sensors.yaml' })).body as ConnectionView;
    const subscribed = await api('POST', '/api/connections/call', { id: view.id, operation: 'subscribe', params: { topic: 'room/+', qos: 1 } });
    expect(subscribed).toEqual({ status: 200, body: { result: { topic: 'room/+', qos: 1 } } });
    await api('POST', '/api/connections/send', { id: view.id, message: { format: 'text', text: '21.5', topic: 'room/kitchen', qos: 1, retain: false } });
    await until('the publish back', () => messagesOf(view.id).some((m) => m.direction === 'received' && m.topic === 'room/kitchen'));
    expect(messagesOf(view.id).find((m) => m.direction === 'received')).toMatchObject({ topic: 'room/kitchen', text: '21.5', qos: 1 });
    expect((await api('POST', '/api/connections/call', { id: view.id, operation: 'unsubscribe', params: { topic: 'room/+' } })).status).toBe(200);
    expect(await api('POST', '/api/connections/call', { id: view.id, operation: 'subscribe', params: [] })).toEqual({ status: 400, body: { error: '"params" must be a JSON object.' } });
  });

  it('refuses bad input with one line: invalid hex, a missing message, an unknown id, a kind without connect, a refused peer', async () => {
    const view = (await api('POST', '/api/connections', { path: 'Echo.yaml' })).body as ConnectionView;
    expect(await api('POST', '/api/connections/send', { id: view.id, message: { format: 'hex', text: 'zz' } })).toEqual({ status: 400, body: { error: 'the message is not valid hex: "zz" is not a byte pair (two hex digits, such as 0a or FF; pairs are separated by spaces).' } });
    expect(await api('POST', '/api/connections/send', { id: view.id })).toEqual({ status: 400, body: { error: 'the message must be an object with "format" and "text".' } });
    expect(await api('POST', '/api/connections/send', { id: 'nope', message: { format: 'text', text: 'x' } })).toEqual({ status: 404, body: { error: 'No connection "nope" in this app (it was closed long ago or never opened); connect again.' } });
    expect(await api('POST', '/api/connections/close', {})).toEqual({ status: 400, body: { error: '"id" is missing (a string is expected).' } });
    const dns = await api('POST', '/api/connections', { path: 'Lookup.yaml' });
    expect(dns.status).toBe(400);
    expect((dns.body as { error: string }).error).toMatch(/^dns requests have no live connection in this version of Ferry; send them instead \(live connections: .*websocket.*\)\.$/);
    const refused = await api('POST', '/api/connections', { path: 'Down.yaml', request: { name: 'Down', kind: 'websocket', url: 'ws://127.0.0.1:9/' } });
    expect(refused.status).toBe(400);
    expect((refused.body as { error: string }).error).toMatch(/127\.0\.0\.1:9/);
    expect((await api('POST', '/api/connections', { path: 'Bad.yaml', request: { name: 'Bad', kind: 'telnet' } })).status).toBe(400);
  });

  it('a collection run reports a streaming request with its messages (the runner panel lists them)', async () => {
    const started = await api('POST', '/api/run', { paths: ['Runs'] });
    const runId = (started.body as { runId: string }).runId;
    const done = await until('the request result', () => events.find((e) => e.type === 'run' && e.runId === runId && e.event.type === 'request'));
    const result = done.type === 'run' && done.event.type === 'request' ? done.event.result : undefined;
    expect(result).toMatchObject({ name: 'Ping', kind: 'websocket', passed: true, stream: { events: 1, stoppedBy: 'maxEvents' } });
    expect(result!.messages!.map((m) => [m.direction, m.text])).toEqual([['sent', 'ping'], ['received', 'ping']]);
  });

  it('closing the app closes every connection it opened', async () => {
    await api('POST', '/api/connections', { path: 'Echo.yaml' });
    await api('POST', '/api/connections', { path: 'Echo2.yaml', request: { name: 'Echo2', kind: 'websocket', url: echo.url } });
    await app.close();
    await until('both closes', () => echo.closes.length === 2);
    expect(echo.closes).toEqual([1000, 1000]);
    app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: await tempDir() }); // for afterEach
  });
});
