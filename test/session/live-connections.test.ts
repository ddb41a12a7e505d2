/**
 * Live connections through the session API (issue 26) against real peers on 127.0.0.1: a `ws`
 * echo server, a Socket.IO server, aedes, TCP and UDP echoes on node:net/dgram, an SSE server,
 * graphql-ws's `useServer`; and the refusals (bad messages, closed or unknown connections, kinds
 * without a live connection).
 */
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import mqtt from 'mqtt';
import { Server as SocketIoServer } from 'socket.io';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { parseResource, type RequestFile } from '../../src/model/index.js';
import type { ConnectionEnd, StreamMessage } from '../../src/protocols/index.js';
import { ConnectError } from '../../src/runner/index.js';
import { Session, UnknownConnectionError } from '../../src/session/index.js';
import { graphqlWsPeer } from '../protocols/graphql-peers.js';
import { startAedes } from '../protocols/mqtt-brokers.js';
import { openedWorkspace } from '../runner/workspace.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function requestFile(data: Record<string, unknown>): RequestFile {
  const parsed = parseResource('request', data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

async function listen(server: http.Server | net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function session(files: Record<string, unknown>, environment?: Record<string, string>, settings = DEFAULT_SETTINGS) {
  const env = environment ? { 'environments/local.yaml': { name: 'local', variables: Object.entries(environment).map(([key, value]) => ({ key, value })) } } : {};
  const { ws, data } = await openedWorkspace({ 'requests/F/_folder.yaml': { name: 'F', headers: [{ key: 'X-Folder', value: 'from-folder' }] }, ...env, ...files });
  const opened = await Session.open({ workspace: ws, dataFolder: data, settings, ...(environment ? { environment: 'local' } : {}) });
  closers.push(() => void opened.close());
  return opened;
}

/** Messages and the end of one connection, with a wait for the n-th received message. */
function recorder() {
  const messages: StreamMessage[] = [];
  let end: ConnectionEnd | undefined;
  const waiters: Array<() => void> = [];
  const poke = () => waiters.splice(0).forEach((w) => w());
  return {
    messages,
    get end() {
      return end;
    },
    onMessage: (m: StreamMessage) => {
      messages.push(m);
      poke();
    },
    onEnd: (e: ConnectionEnd) => {
      end = e;
      poke();
    },
    received: () => messages.filter((m) => m.direction === 'received'),
    async until(check: () => boolean, what: string, ms = 5000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(messages)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
    },
  };
}

async function wsEcho() {
  const server = http.createServer();
  const wss = new WebSocketServer({ server });
  const upgrades: http.IncomingHttpHeaders[] = [];
  wss.on('connection', (socket, req) => {
    upgrades.push(req.headers);
    socket.on('message', (data, isBinary) => {
      if (!isBinary && data.toString() === 'bye') return socket.close(4000, 'asked to');
      socket.send(data, { binary: isBinary });
    });
  });
  const port = await listen(server);
  closers.push(() => new Promise<void>((resolve) => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    server.close(() => resolve());
  }));
  return { url: `ws://127.0.0.1:${port}`, upgrades };
}

describe('live connections (Session.connect)', () => {
  it('WebSocket: prepared as a send (folder header, variables), text, JSON, hex and base64 both ways, closed by the client', async () => {
    const peer = await wsEcho();
    const s = await session({ 'requests/F/Echo.yaml': { name: 'Echo', kind: 'websocket', url: '{{base}}/echo', headers: [{ key: 'X-Token', value: '{{token}}' }] } }, { base: peer.url, token: 't-7' });
    const r = recorder();
    const opened = await s.connect('F/Echo', r);
    expect(opened).toMatchObject({ path: 'F/Echo.yaml', kind: 'websocket', url: `${peer.url}/echo` });
    expect(opened.info.headers.some(([name]) => name.toLowerCase() === 'sec-websocket-accept')).toBe(true);
    expect(peer.upgrades[0]).toMatchObject({ 'x-folder': 'from-folder', 'x-token': 't-7' });
    expect(s.connections().map((c) => c.id)).toEqual([opened.id]);

    await s.sendMessage(opened.id, { format: 'text', text: 'hello' });
    await s.sendMessage(opened.id, { format: 'json', text: '{"a": 1}' });
    await s.sendMessage(opened.id, { format: 'hex', text: '00 ff 10' });
    await s.sendMessage(opened.id, { format: 'base64', text: 'AAEC' });
    await r.until(() => r.received().length === 4, 'four echoes');
    expect(r.messages.filter((m) => m.direction === 'sent').map((m) => [m.text, m.binary ?? false])).toEqual([['hello', false], ['{"a": 1}', false], ['AP8Q', true], ['AAEC', true]]);
    expect(r.received().map((m) => [m.text, m.binary ?? false])).toEqual([['hello', false], ['{"a": 1}', false], ['AP8Q', true], ['AAEC', true]]);
    expect(r.messages.every((m, i) => i === 0 || m.timeMs >= r.messages[i - 1]!.timeMs)).toBe(true);

    await expect(s.sendMessage(opened.id, { format: 'hex', text: '0g' })).rejects.toThrow('the message is not valid hex: "0g" is not a byte pair');
    await expect(s.sendMessage(opened.id, { format: 'json', text: '{nope' })).rejects.toThrow(/^the message is not valid JSON \(.*\); fix it, or send it as text\.$/);
    await expect(s.sendMessage(opened.id, { format: 'base64', text: 'A' })).rejects.toThrow(/not valid base64/);
    await expect(s.sendMessage(opened.id, { format: 'yaml', text: 'x' })).rejects.toThrow('the message\'s format "yaml" is not one of text, json, hex, base64.');
    await expect(s.sendMessage(opened.id, { format: 'text', text: 42 })).rejects.toThrow('"text" must be a string');
    await expect(s.callOperation(opened.id, 'subscribe', { topic: 'x' })).rejects.toThrow(`the WebSocket connection to 127.0.0.1:${new URL(peer.url).port} has no operation "subscribe" (it has none).`);

    await s.disconnect(opened.id);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'client', message: 'closed by you' });
    expect(s.connections()).toEqual([]);
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'late' })).rejects.toThrow(UnknownConnectionError);
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'late' })).rejects.toThrow(/No open connection ".*": it was closed or never opened; connect again\./);
    await expect(s.disconnect('nope')).rejects.toThrow(UnknownConnectionError);
  });

  it('WebSocket: the server closing ends the connection with its close code; an unsaved request connects too', async () => {
    const peer = await wsEcho();
    const s = await session({});
    const r = recorder();
    const opened = await s.connect({ request: requestFile({ name: 'Draft', kind: 'websocket', url: peer.url }), path: 'F/Draft.yaml' }, r);
    expect(peer.upgrades[0]!['x-folder']).toBe('from-folder');
    await s.sendMessage(opened.id, { format: 'text', text: 'bye' });
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'peer', message: `127.0.0.1:${new URL(peer.url).port} closed the connection (close code 4000 "asked to")` });
  });

  it('Socket.IO: an event with JSON arguments and an acknowledgement; a missing event is refused', async () => {
    const server = http.createServer();
    const io = new SocketIoServer(server);
    io.on('connection', (socket) => {
      socket.emit('welcome', { hi: socket.handshake.headers['x-folder'] });
      socket.on('add', (a: number, b: number, ack?: (sum: number) => void) => ack?.(a + b));
      socket.on('shout', (text: string) => socket.emit('shouted', text.toUpperCase()));
    });
    const port = await listen(server);
    closers.push(() => new Promise<void>((resolve) => void io.close(() => resolve())));
    const s = await session({ 'requests/F/IO.yaml': { name: 'IO', kind: 'socketio', url: `http://127.0.0.1:${port}/` } });
    const r = recorder();
    const opened = await s.connect('F/IO.yaml', r);
    await r.until(() => r.received().length === 1, 'welcome');
    expect(r.received()[0]).toMatchObject({ event: 'welcome', args: [{ hi: 'from-folder' }] });
    await s.sendMessage(opened.id, { format: 'json', text: '[2, 3]', event: 'add', ack: true });
    await s.sendMessage(opened.id, { format: 'text', text: 'quiet', event: 'shout' });
    await r.until(() => r.received().length === 3, 'ack and shouted');
    expect(r.messages.filter((m) => m.direction === 'sent')).toMatchObject([{ event: 'add', args: [2, 3] }, { event: 'shout', args: ['quiet'] }]);
    expect(r.received().slice(1)).toMatchObject([{ event: 'ack', text: '5' }, { event: 'shouted', text: 'QUIET' }]);
    await expect(s.sendMessage(opened.id, { format: 'json', text: '1' })).rejects.toThrow('a Socket.IO message needs an event name; type one in Event.');
  });

  it('MQTT (aedes): the file’s subscriptions on connect, publish with QoS and retain, subscribe and unsubscribe live', async () => {
    const broker = await startAedes();
    closers.push(() => broker.close());
    const s = await session({ 'requests/Sensors.yaml': { name: 'Sensors', kind: 'mqtt', url: broker.url, mqtt: { subscriptions: [{ topic: 'sensors/#', qos: 1 }, { topic: 'off/#', enabled: false }] } } });
    const r = recorder();
    const opened = await s.connect('Sensors', r);
    expect(r.messages).toMatchObject([{ direction: 'sent', event: 'subscribe', topic: 'sensors/#', qos: 1 }]);
    await s.sendMessage(opened.id, { format: 'json', text: '{"t": 21}', topic: 'sensors/a', qos: 1, retain: false });
    await r.until(() => r.received().length === 1, 'own publish');
    expect(r.received()[0]).toMatchObject({ topic: 'sensors/a', text: '{"t": 21}', qos: 1 });

    expect(await s.callOperation(opened.id, 'subscribe', { topic: 'alerts/+', qos: 0 })).toEqual({ topic: 'alerts/+', qos: 0 });
    const other = await mqtt.connectAsync(broker.url);
    closers.push(() => void other.end(true));
    await other.publishAsync('alerts/fire', 'hot');
    await r.until(() => r.received().some((m) => m.topic === 'alerts/fire'), 'the other client’s publish');
    await s.callOperation(opened.id, 'unsubscribe', { topic: 'alerts/+' });
    await other.publishAsync('alerts/fire', 'again');
    await s.sendMessage(opened.id, { format: 'hex', text: 'ff fe', topic: 'sensors/bin' });
    await r.until(() => r.received().some((m) => m.topic === 'sensors/bin'), 'the binary publish');
    expect(r.received().filter((m) => m.topic === 'alerts/fire').map((m) => m.text)).toEqual(['hot']);
    expect(r.received().find((m) => m.topic === 'sensors/bin')).toMatchObject({ binary: true, text: '//4=' });
    expect(r.messages.filter((m) => m.direction === 'sent').map((m) => m.event ?? m.topic)).toEqual(['subscribe', 'sensors/a', 'subscribe', 'unsubscribe', 'sensors/bin']);

    await expect(s.sendMessage(opened.id, { format: 'text', text: 'x' })).rejects.toThrow('an MQTT message needs a topic to publish to; type one in Topic.');
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'x', topic: 'a/#' })).rejects.toThrow(/has a wildcard/);
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'x', topic: 'a', qos: 3 })).rejects.toThrow("the message's QoS must be 0, 1 or 2, not 3.");
    await expect(s.callOperation(opened.id, 'subscribe', {})).rejects.toThrow('subscribe needs "topic" (a non-empty string).');
    await expect(s.callOperation(opened.id, 'halfClose', {})).rejects.toThrow(/has no operation "halfClose" \(it has: subscribe, unsubscribe\)/);
  });

  it('TCP and UDP: echoes on node:net and node:dgram, framed by the request’s socket options', async () => {
    const tcp = net.createServer((socket) => socket.on('data', (chunk) => socket.write(chunk)));
    const tcpPort = await listen(tcp);
    closers.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
    const udp = dgram.createSocket('udp4');
    udp.on('message', (datagram, from) => udp.send(Buffer.concat([Buffer.from('echo:'), datagram]), from.port, from.address));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => udp.close(() => resolve())));
    const s = await session({
      'requests/Line.yaml': { name: 'Line', kind: 'tcp', url: `tcp://127.0.0.1:${tcpPort}`, socket: { framing: 'line', lineEnding: 'lf' } },
      'requests/Dgram.yaml': { name: 'Dgram', kind: 'udp', url: `udp://127.0.0.1:${udp.address().port}` },
    });
    const t = recorder();
    const line = await s.connect('Line', t);
    await s.sendMessage(line.id, { format: 'text', text: 'one' });
    await s.sendMessage(line.id, { format: 'text', text: 'two' });
    await t.until(() => t.received().length === 2, 'two lines');
    expect(t.received().map((m) => m.text)).toEqual(['one', 'two']);
    const u = recorder();
    const dgramConnection = await s.connect('Dgram', u);
    await s.sendMessage(dgramConnection.id, { format: 'hex', text: '6869' });
    await u.until(() => u.received().length === 1, 'the datagram');
    expect(u.received()[0]!.text).toBe('echo:hi');
    await s.disconnect(line.id);
    expect(t.end).toEqual({ by: 'client', message: 'closed by you' });
  });

  it('TCP: a line that never ends is cut at maxResponseMb, ending the connection with one line', async () => {
    const tcp = net.createServer((socket) => socket.on('data', () => socket.write(Buffer.alloc(1_500_000, 0x61))));
    const port = await listen(tcp);
    closers.push(() => new Promise<void>((resolve) => tcp.close(() => resolve())));
    const s = await session({ 'requests/Line.yaml': { name: 'Line', kind: 'tcp', url: `tcp://127.0.0.1:${port}`, socket: { framing: 'line' } } }, undefined, { ...DEFAULT_SETTINGS, maxResponseMb: 1 });
    const r = recorder();
    const opened = await s.connect('Line', r);
    await s.sendMessage(opened.id, { format: 'text', text: 'go' });
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'error', message: `127.0.0.1:${port} sent a message larger than 1 MB (maxResponseMb) without its end (socket.framing line), so Ferry closed the connection; check the framing, or raise the limit with ferry config set maxResponseMb N.` });
    expect(r.received()).toEqual([]);
  });

  it('SSE: events as they arrive, sending refused (it only receives), the server ending it', async () => {
    let push: ((text: string) => void) | undefined;
    let end: (() => void) | undefined;
    const server = http.createServer((req, res) => {
      if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/plain' }).end('no');
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: hello\ndata: first\n\n');
      push = (text) => res.write(`data: ${text}\n\n`);
      end = () => res.end();
    });
    const port = await listen(server);
    closers.push(() => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }));
    const s = await session({ 'requests/Feed.yaml': { name: 'Feed', kind: 'sse', url: `http://127.0.0.1:${port}/feed` }, 'requests/Missing.yaml': { name: 'Missing', kind: 'sse', url: `http://127.0.0.1:${port}/missing` } });
    const r = recorder();
    const opened = await s.connect('Feed', r);
    await r.until(() => r.received().length === 1, 'the first event');
    push!('second');
    await r.until(() => r.received().length === 2, 'the second event');
    expect(r.received().map((m) => [m.event, m.text])).toEqual([['hello', 'first'], [undefined, 'second']]);
    await expect(s.sendMessage(opened.id, { format: 'text', text: 'x' })).rejects.toThrow(`the event stream from 127.0.0.1:${port} only receives: there is nothing to send on it.`);
    end!();
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'peer', message: `127.0.0.1:${port} ended the event stream` });
    await expect(s.connect('Missing', recorder())).rejects.toThrow(`127.0.0.1:${port} answered HTTP 404 Not Found (text/plain) instead of an event stream; check the URL, the auth and the headers.`);
  });

  it('GraphQL subscription (graphql-ws useServer): results live until the server completes it', async () => {
    const peer = await graphqlWsPeer();
    closers.push(() => peer.close());
    const s = await session({
      'requests/Count.yaml': { name: 'Count', url: peer.url, method: 'POST', body: { type: 'graphql', graphql: { query: 'subscription { count(to: 3, delayMs: 20) }' } } },
      'requests/Hello.yaml': { name: 'Hello', url: peer.url, method: 'POST', body: { type: 'graphql', graphql: { query: '{ hello }' } } },
    });
    const r = recorder();
    await s.connect('Count', r);
    await r.until(() => r.end !== undefined, 'the completion');
    expect(r.received().map((m) => m.text)).toEqual([1, 2, 3].map((n) => JSON.stringify({ data: { count: n } })));
    expect(r.messages[0]).toMatchObject({ direction: 'sent', event: 'subscribe' });
    expect(r.end).toEqual({ by: 'peer', message: `${new URL(peer.url).host} completed the subscription` });
    await expect(s.connect('Hello', recorder())).rejects.toThrow('only an HTTP request whose body is a GraphQL subscription stays connected; send this request instead (or write a subscription operation in body.graphql.query).');
  });

  it('refuses kinds without a live connection, broken targets and refused connections with one line each; closing the session closes its connections', async () => {
    const peer = await wsEcho();
    const closed = net.createServer();
    const closedPort = await listen(closed);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const s = await session({
      'requests/Lookup.yaml': { name: 'Lookup', kind: 'dns', url: 'example.com', method: 'A' },
      'requests/Down.yaml': { name: 'Down', kind: 'websocket', url: `ws://127.0.0.1:${closedPort}` },
      'requests/Echo.yaml': { name: 'Echo', kind: 'websocket', url: peer.url },
    });
    await expect(s.connect('Lookup', recorder())).rejects.toThrow(ConnectError);
    await expect(s.connect('Lookup', recorder())).rejects.toThrow(/^dns requests have no live connection in this version of Ferry; send them instead \(live connections: http, sse, websocket, socketio, grpc, tcp, udp, mqtt, mcp\)\.$/);
    await expect(s.connect('Down', recorder())).rejects.toThrow(/refused|not listening/i);
    await expect(s.connect('Nowhere', recorder())).rejects.toThrow(/Nowhere/);
    const r = recorder();
    await s.connect('Echo', r);
    await s.close();
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end!.by).toBe('client');
  });
});
