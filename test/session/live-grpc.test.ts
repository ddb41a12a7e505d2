/**
 * Live gRPC calls through the session API (issue 26) against a real @grpc/grpc-js server on
 * 127.0.0.1 (test/protocols/grpc-peer.ts, by reflection): a bidirectional echo message by
 * message, a client stream joined on End, a server stream started on connect; and the refusals
 * (invalid JSON, a field of the wrong type, send after End, unary and unknown methods), an
 * answer past maxResponseMb, and messages compressed by the request's grpc-encoding. Answers no
 * grpc-js server sends come from node:http2 peers (a Content-Type other than gRPC's, a malformed
 * message, statuses a send rewords, a header-field limit), each ended in the words a send has.
 */
import { readFile } from 'node:fs/promises';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { parseResource, type RequestFile } from '../../src/model/index.js';
import type { ConnectionEnd, StreamMessage } from '../../src/protocols/index.js';
import { Session } from '../../src/session/index.js';
import { ECHO_PROTO, startGrpcPeer, type GrpcPeer } from '../protocols/grpc-peer.js';
import { startFrameRelay } from '../protocols/grpc-frames.js';
import { startHeaderLimitPeer, startHeaderLimitRelay } from '../protocols/grpc-header-limit.js';
import { openedWorkspace } from '../runner/workspace.js';

const closers: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function setup(): Promise<{ peer: GrpcPeer; s: Session }> {
  const peer = await startGrpcPeer();
  closers.push(() => peer.close());
  const request = (method: string, text = '') => ({ name: method, kind: 'grpc', url: peer.url, method: `ferry.test.Echo/${method}`, headers: [{ key: 'x-token', value: 'live' }], ...(text ? { body: { type: 'json', text } } : {}) });
  const { ws, data } = await openedWorkspace({
    'requests/Chat.yaml': request('Chat'),
    'requests/Collect.yaml': request('Collect'),
    'requests/Count.yaml': request('Count', '{"count": 3}'),
    'requests/Say.yaml': request('Say'),
    'requests/Nope.yaml': request('Nope'),
  });
  const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
  closers.push(() => void s.close());
  return { peer, s };
}

function requestFile(data: Record<string, unknown>): RequestFile {
  const parsed = parseResource('request', data);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

function recorder() {
  const messages: StreamMessage[] = [];
  let end: ConnectionEnd | undefined;
  return {
    messages,
    get end() {
      return end;
    },
    onMessage: (m: StreamMessage) => void messages.push(m),
    onEnd: (e: ConnectionEnd) => void (end = e),
    received: () => messages.filter((m) => m.direction === 'received' && !m.event),
    labelled: (event: string) => messages.filter((m) => m.event === event),
    async until(check: () => boolean, what: string): Promise<void> {
      const deadline = Date.now() + 5000;
      while (!check()) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; messages: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

/** A gRPC message frame: the compressed flag, the length, the payload. */
function frame(payload: Buffer, compressed = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = compressed;
  head.writeUInt32BE(payload.length, 1);
  return Buffer.concat([head, payload]);
}

/** SayReply { text: "hi" } as protobuf. */
const HI = Buffer.from([0x0a, 0x02, 0x68, 0x69]);

/** A node:http2 server answering each call with `answer` (bytes no grpc-js server sends). */
async function rawPeer(answer: (stream: http2.ServerHttp2Stream) => void): Promise<number> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => void server.close());
  return (server.address() as AddressInfo).port;
}

/** A session whose requests (by name: method, port, body) call echo.proto's methods from the proto files, no reflection. */
async function protoSession(requests: Record<string, { method: string; port: number; body?: string; headers?: Array<{ key: string; value: string }> }>): Promise<Session> {
  const files: Record<string, unknown> = {
    'protos/echo.proto': await readFile(ECHO_PROTO, 'utf8'),
    'protos/common/kinds.proto': await readFile('test/fixtures/grpc/common/kinds.proto', 'utf8'),
  };
  for (const [name, { method, port, body, headers }] of Object.entries(requests)) {
    files[`requests/${name}.yaml`] = { name, kind: 'grpc', url: `grpc://127.0.0.1:${port}`, method: `ferry.test.Echo/${method}`, grpc: { protoFiles: ['protos/echo.proto'] }, ...(headers ? { headers } : {}), ...(body ? { body: { type: 'json', text: body } } : {}) };
  }
  const { ws, data } = await openedWorkspace(files);
  const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
  closers.push(() => void s.close());
  return s;
}

describe('live gRPC calls (Session.connect)', () => {
  it('bidi: each send is one message, answered one by one; End half-closes and the status ends the call', async () => {
    const { peer, s } = await setup();
    const r = recorder();
    const opened = await s.connect('Chat', r);
    expect(opened).toMatchObject({ kind: 'grpc', info: { detail: { service: 'ferry.test.Echo', method: 'Chat', callType: 'bidiStreaming' } } });
    await s.sendMessage(opened.id, { format: 'json', text: '{"text": "a"}' });
    await r.until(() => r.received().length === 1, 'the first echo');
    expect(JSON.parse(r.received()[0]!.text)).toMatchObject({ text: 'hello a', index: 0 });
    await s.sendMessage(opened.id, { format: 'json', text: '{"text": "b", "mood": "GRUMPY"}' });
    await r.until(() => r.received().length === 2, 'the second echo');
    expect(JSON.parse(r.received()[1]!.text)).toMatchObject({ text: 'hello b', mood: 'GRUMPY', index: 1 });
    expect(r.labelled('headers').map((m) => JSON.parse(m.text))[0]).toContainEqual(['x-echo-token', 'live']);
    expect(peer.seen.at(-1)!.get('x-token')).toEqual(['live']);

    // Bad input is refused and the call stays open.
    await expect(s.sendMessage(opened.id, { format: 'json', text: '{nope' })).rejects.toThrow(/^the message is not valid JSON \(.*\); a gRPC message is a JSON object of the request type's fields\.$/);
    await expect(s.sendMessage(opened.id, { format: 'json', text: '{"text": 5}' })).rejects.toThrow('the message field text is a string, not 5.');
    await expect(s.sendMessage(opened.id, { format: 'json', text: '{"colour": "red"}' })).rejects.toThrow(/has a field "colour" that SayRequest does not have/);
    await expect(s.sendMessage(opened.id, { format: 'hex', text: '00' })).rejects.toThrow('a gRPC message is JSON (the request type\'s fields), not hex; choose the json format.');
    await expect(s.callOperation(opened.id, 'subscribe', {})).rejects.toThrow('the gRPC call to ferry.test.Echo/Chat has no operation "subscribe" (it has: end).');
    await s.sendMessage(opened.id, { format: 'json', text: '{"text": "c"}' });
    await r.until(() => r.received().length === 3, 'the third echo');

    await s.callOperation(opened.id, 'end', {});
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'peer', message: 'the server ended the call: 0 OK' });
    expect(r.labelled('status').map((m) => m.text)).toEqual(['0 OK']);
    expect(r.messages.filter((m) => m.direction === 'sent').map((m) => m.event ?? JSON.parse(m.text).text)).toEqual(['a', 'b', 'c', 'end']);
    expect(s.connections()).toEqual([]);
  });

  it('client stream: messages sent one by one, the answer on End; send after End is refused', async () => {
    const { s } = await setup();
    const r = recorder();
    const opened = await s.connect('Collect', r);
    for (const text of ['x', 'y', 'z']) await s.sendMessage(opened.id, { format: 'json', text: JSON.stringify({ text }) });
    await s.callOperation(opened.id, 'end', {});
    await expect(s.sendMessage(opened.id, { format: 'json', text: '{"text": "late"}' })).rejects.toThrow(/half-closed \(End\), so the message was not sent; connect again to send more\.|No open connection/);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.received().map((m) => JSON.parse(m.text))).toEqual([expect.objectContaining({ text: 'x+y+z', index: 3 })]);
    expect(r.end).toEqual({ by: 'peer', message: 'the server ended the call: 0 OK' });
  });

  it('send after End, while the call is still open, names the half-close', async () => {
    const { s } = await setup();
    const r = recorder();
    // Chat ends only once the server sees the half-close; this refusal comes first, synchronously.
    const opened = await s.connect('Chat', r);
    const ended = s.callOperation(opened.id, 'end', {});
    const late = s.sendMessage(opened.id, { format: 'json', text: '{}' });
    await ended;
    await expect(late).rejects.toThrow('the call to ferry.test.Echo/Chat was half-closed (End), so the message was not sent; connect again to send more.');
    await r.until(() => r.end !== undefined, 'the end');
  });

  it('server stream: the request message is sent on connect; nothing more can be sent', async () => {
    const { s } = await setup();
    const r = recorder();
    const opened = await s.connect('Count', r);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.messages.filter((m) => m.direction === 'sent').map((m) => m.text)).toEqual(['{"count":3}']);
    expect(r.received().map((m) => JSON.parse(m.text).text)).toEqual(['n0', 'n1', 'n2']);
    expect(r.end).toEqual({ by: 'peer', message: 'the server ended the call: 0 OK' });
    expect(opened.info.detail).toMatchObject({ callType: 'serverStreaming' });
  });

  it('closing by the client cancels the call', async () => {
    const { s } = await setup();
    const r = recorder();
    const opened = await s.connect('Chat', r);
    await s.disconnect(opened.id);
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end).toEqual({ by: 'client', message: 'closed by you' });
  });

  it('refuses unary and unknown methods, and a server that is not there', async () => {
    const { s } = await setup();
    await expect(s.connect('Say', recorder())).rejects.toThrow('ferry.test.Echo/Say is a unary method (one message each way): there is no stream to keep open; use Send.');
    await expect(s.connect('Nope', recorder())).rejects.toThrow('ferry.test.Echo has no method Nope; it has: Say, Count, Collect, Chat, Slow.');
    const down = await s.connect({ request: requestFile({ name: 'down', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: 'ferry.test.Echo/Chat' }), path: 'Down.yaml' }, recorder()).catch((e: Error) => e);
    expect(down).toBeInstanceOf(Error);
    expect((down as Error).message).toBe('connection refused by 127.0.0.1:1: nothing is listening there. Is the server running, and is the port right?');
  });

  it('with proto files (no reflection), a port with nothing listening fails the connect with one line', async () => {
    const { ws, data } = await openedWorkspace({
      'protos/echo.proto': await readFile('test/fixtures/grpc/echo.proto', 'utf8'),
      'protos/common/kinds.proto': await readFile('test/fixtures/grpc/common/kinds.proto', 'utf8'),
      'requests/Chat.yaml': { name: 'Chat', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: 'ferry.test.Echo/Chat', grpc: { protoFiles: ['protos/echo.proto'] } },
    });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    closers.push(() => void s.close());
    await expect(s.connect('Chat', recorder())).rejects.toThrow('connection refused by 127.0.0.1:1: nothing is listening there. Is the server running, and is the port right?');
    expect(s.connections()).toEqual([]);
  });

  it('a client stream answered with two messages ends saying the server broke gRPC (it read as a status 12 UNIMPLEMENTED the server never sent)', async () => {
    // A raw HTTP/2 peer: two SayReply messages, the stream kept open.
    const server = http2.createServer();
    server.on('stream', (stream) => {
      stream.on('error', () => {});
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      const hi = Buffer.from([0, 0, 0, 0, 4, 0x0a, 0x02, 0x68, 0x69]);
      stream.write(Buffer.concat([hi, hi]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => void server.close());
    const { ws, data } = await openedWorkspace({
      'protos/echo.proto': await readFile('test/fixtures/grpc/echo.proto', 'utf8'),
      'protos/common/kinds.proto': await readFile('test/fixtures/grpc/common/kinds.proto', 'utf8'),
      'requests/Collect.yaml': { name: 'Collect', kind: 'grpc', url: `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`, method: 'ferry.test.Echo/Collect', grpc: { protoFiles: ['protos/echo.proto'] } },
    });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    closers.push(() => void s.close());
    const r = recorder();
    const opened = await s.connect('Collect', r);
    await s.sendMessage(opened.id, { format: 'json', text: '{"text": "a"}' });
    await r.until(() => r.end !== undefined, 'the end');
    const why = 'the server answered the client-streaming call ferry.test.Echo/Collect with more than one message; a client-streaming call answers with exactly one, so the server broke the gRPC protocol';
    expect(r.end).toEqual({ by: 'peer', message: why });
    expect(r.labelled('status').map((m) => m.text)).toEqual([why]);
    expect(r.received().map((m) => JSON.parse(m.text))).toEqual([expect.objectContaining({ text: 'hi' })]);
  });

  it('the server going away ends the call with its status, by the peer', async () => {
    const { peer, s } = await setup();
    const r = recorder();
    await s.connect('Chat', r);
    await peer.close();
    await r.until(() => r.end !== undefined, 'the end');
    expect(r.end!.by).toBe('peer');
    expect(r.end!.message).toMatch(/^the server ended the call: \d+ [A-Z_]+/);
    expect(r.labelled('status')).toHaveLength(1);
  });

  it('a message of the answer past maxResponseMb ends the call with the words a send has (it read as the server\'s 8 RESOURCE_EXHAUSTED), compressed or not', async () => {
    // A grpc-js server whose stream answers 2 MB, and a node:http2 one whose 2 MB are gzipped (grpc-js's server never compresses).
    const definition = protoLoader.loadSync(ECHO_PROTO, { includeDirs: [path.dirname(ECHO_PROTO)] });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
    const big = new grpc.Server();
    big.addService(loaded.ferry.test.Echo.service, {
      Count: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        call.write({ text: 'x'.repeat(2 * 1024 * 1024) });
        call.end();
      },
    });
    const bigPort = await new Promise<number>((resolve, reject) => big.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    closers.push(() => big.forceShutdown());
    const gzipped = http2.createServer();
    gzipped.on('stream', (stream) => {
      stream.on('error', () => {});
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      // SayReply { text: 2 MB of "a" }: some 2 KB gzipped.
      const message = zlib.gzipSync(Buffer.concat([Buffer.from([0x0a, 0x80, 0x80, 0x80, 0x01]), Buffer.alloc(2 * 1024 * 1024, 'a')]));
      const prefix = Buffer.alloc(5);
      prefix.writeUInt8(1, 0);
      prefix.writeUInt32BE(message.length, 1);
      stream.end(Buffer.concat([prefix, message]));
    });
    await new Promise<void>((resolve) => gzipped.listen(0, '127.0.0.1', resolve));
    closers.push(() => void gzipped.close());
    const count = (port: number) => ({ name: 'Count', kind: 'grpc', url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Count', grpc: { protoFiles: ['protos/echo.proto'] }, body: { type: 'json', text: '{"count": 1}' } });
    const { ws, data } = await openedWorkspace({
      'protos/echo.proto': await readFile(ECHO_PROTO, 'utf8'),
      'protos/common/kinds.proto': await readFile('test/fixtures/grpc/common/kinds.proto', 'utf8'),
      'requests/Big.yaml': { ...count(bigPort), name: 'Big' },
      'requests/Gzipped.yaml': { ...count((gzipped.address() as AddressInfo).port), name: 'Gzipped' },
    });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: { ...DEFAULT_SETTINGS, maxResponseMb: 1 } });
    closers.push(() => void s.close());
    for (const [name, words] of [
      ['Big', /^a message of the answer is larger than 1 MB \(maxResponseMb; \d+ bytes\), so Ferry did not read it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit\.$/],
      ['Gzipped', /^a message of the answer, once decompressed \(the server compressed it\), is larger than 1 MB \(maxResponseMb\), so Ferry stopped decompressing it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit\.$/],
    ] as const) {
      const r = recorder();
      await s.connect(name, r);
      await r.until(() => r.end !== undefined, `the end of ${name}`);
      expect(r.end!.by).toBe('error');
      expect(r.end!.message).toMatch(words);
      expect(r.received()).toEqual([]);
      expect(r.labelled('status')).toEqual([]);
    }
  });

  it('grpc-encoding: gzip compresses each message sent on a live call, as a send does; the server reads them', async () => {
    const peer = await startGrpcPeer();
    closers.push(() => peer.close());
    const relay = await startFrameRelay(peer.port);
    closers.push(() => relay.close());
    const { ws, data } = await openedWorkspace({
      'requests/Chat.yaml': { name: 'Chat', kind: 'grpc', url: relay.url, method: 'ferry.test.Echo/Chat', headers: [{ key: 'grpc-encoding', value: 'gzip' }] },
    });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    closers.push(() => void s.close());
    const r = recorder();
    const opened = await s.connect('Chat', r);
    const before = relay.messages.length; // reflection's calls came first
    for (const text of ['one', 'two']) await s.sendMessage(opened.id, { format: 'json', text: JSON.stringify({ text }) });
    await r.until(() => r.received().length === 2, 'the echoes');
    expect(r.received().map((m) => JSON.parse(m.text).text)).toEqual(['hello one', 'hello two']);
    const sent = relay.messages.slice(before);
    const sayRequest = grpc.loadPackageDefinition(protoLoader.loadSync(ECHO_PROTO, { includeDirs: [path.dirname(ECHO_PROTO)] })) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
    const decode = (bytes: Buffer) => (sayRequest.ferry.test.Echo.service.Chat!.requestDeserialize(bytes) as { text: string }).text;
    expect(sent.map((m) => [m.compressed, decode(zlib.gunzipSync(m.payload))])).toEqual([[true, 'one'], [true, 'two']]);
    await s.disconnect(opened.id);
  });

  it('a grpc-encoding Ferry cannot compress with refuses the connect, naming it', async () => {
    const { ws, data } = await openedWorkspace({
      'requests/Chat.yaml': { name: 'Chat', kind: 'grpc', url: 'grpc://127.0.0.1:1', method: 'ferry.test.Echo/Chat', headers: [{ key: 'grpc-encoding', value: 'snappy' }] },
    });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    closers.push(() => void s.close());
    await expect(s.connect('Chat', recorder())).rejects.toThrow('metadata grpc-encoding is "snappy", which Ferry cannot compress with: it sends a gRPC request\'s messages compressed with gzip or deflate, or uncompressed with identity; set grpc-encoding to one of those, or remove the header.');
    expect(s.connections()).toEqual([]);
  });

  it('an answer that is not gRPC (another Content-Type) ends the call with the words a send has, at its head, so without the HTTP status grpc-js keeps to itself (it read as a message past maxResponseMb, or as HTTP 502 mapped to a status)', async () => {
    const text = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.end('hello');
    });
    const page = await rawPeer((stream) => {
      stream.respond({ ':status': 502, 'content-type': 'text/html' });
      stream.end('<h1>Bad gateway</h1>');
    });
    const s = await protoSession({ Text: { method: 'Chat', port: text }, Page: { method: 'Count', port: page, body: '{"count": 1}' } });
    for (const [name, words] of [
      ['Text', `127.0.0.1:${text} answered with Content-Type text/plain, not application/grpc: is it a gRPC server, and the port right?`],
      ['Page', `127.0.0.1:${page} answered with Content-Type text/html, not application/grpc: is it a gRPC server, and the port right?`],
    ] as const) {
      const r = recorder();
      await s.connect(name, r);
      await r.until(() => r.end !== undefined, `the end of ${name}`);
      expect(r.end).toEqual({ by: 'error', message: words });
      expect(r.received()).toEqual([]);
      expect(r.labelled('status')).toEqual([]);
    }
    expect(s.connections()).toEqual([]);
  });

  it('an answer whose head is not gRPC (200, text/html) and whose body never ends ends the call at its head, with the words a send has, closing the stream (it stayed open until Disconnect)', async () => {
    const streams: http2.ServerHttp2Stream[] = [];
    // A page that is never finished: the head, a few bytes (fewer than a frame's prefix), then nothing.
    const port = await rawPeer((stream) => {
      streams.push(stream);
      stream.respond({ ':status': 200, 'content-type': 'text/html; charset=utf-8' });
      stream.write('<!');
    });
    const s = await protoSession({ Chat: { method: 'Chat', port }, Count: { method: 'Count', port, body: '{"count": 1}' } });
    for (const name of ['Chat', 'Count']) {
      const r = recorder();
      await s.connect(name, r);
      await r.until(() => r.end !== undefined, `the end of ${name}`);
      expect(r.end).toEqual({ by: 'error', message: `127.0.0.1:${port} answered with Content-Type text/html; charset=utf-8, not application/grpc: is it a gRPC server, and the port right?` });
      expect(r.labelled('headers').map((m) => JSON.parse(m.text) as string[][])).toEqual([expect.arrayContaining([['content-type', 'text/html; charset=utf-8']])]);
      expect(r.received()).toEqual([]);
      expect(r.labelled('status')).toEqual([]);
    }
    expect(s.connections()).toEqual([]);
    // The server sees each call's stream closed (the client cancelled it), none left open.
    expect(streams).toHaveLength(2);
    await expect.poll(() => streams.filter((stream) => !stream.closed).length).toBe(0);
  });

  it('a message of the answer that is not a valid message of the response type ends the call with the words a send has (it read as 13 INTERNAL from the server), naming which one in a stream', async () => {
    // Count: a good message, then one whose text says 5 bytes where 1 is left; Chat: a varint where a string goes.
    const count = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.concat([frame(HI), frame(Buffer.from([0x0a, 0x05, 0x68]))]));
    });
    const chat = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(frame(Buffer.from([0x08, 0x00])));
    });
    const s = await protoSession({ Count: { method: 'Count', port: count, body: '{"count": 2}' }, Chat: { method: 'Chat', port: chat } });
    const r = recorder();
    await s.connect('Count', r);
    await r.until(() => r.end !== undefined, 'the end of Count');
    expect(r.end).toEqual({ by: 'error', message: 'message 2 of the answer of ferry.test.Echo/Count is not a valid SayReply message: field text (1) says it is 5 bytes long, but 1 byte is left where it starts (byte 2); the server sent a malformed message.' });
    expect(r.received().map((m) => JSON.parse(m.text))).toEqual([expect.objectContaining({ text: 'hi' })]);
    expect(r.labelled('status')).toEqual([]);

    const c = recorder();
    const opened = await s.connect('Chat', c);
    await s.sendMessage(opened.id, { format: 'json', text: '{"text": "a"}' });
    await c.until(() => c.end !== undefined, 'the end of Chat');
    expect(c.end).toEqual({ by: 'error', message: 'message 1 of the answer of ferry.test.Echo/Chat is not a valid SayReply message: field text (1) is a string but came as a varint (wire type 0); the server sent a malformed message.' });
    expect(c.received()).toEqual([]);
    expect(s.connections()).toEqual([]);
  });

  it('a stream reset for too many header fields blames the request only past the limit, counting the headers a live call adds (no grpc-timeout: it has no deadline; grpc-encoding when compressed)', async () => {
    const peer = await startHeaderLimitPeer();
    closers.push(() => peer.close());
    const host = `127.0.0.1:${peer.port}`;
    const entries = (n: number, costly = false) => Array.from({ length: n }, (_, i) => (costly && i === 0 ? { key: 'x-costly', value: 'yes' } : { key: `x-h${i}`, value: 'v' }));
    const gzip = { key: 'grpc-encoding', value: 'gzip' };
    const s = await protoSession({
      Costly: { method: 'Chat', port: peer.port, headers: entries(119, true) },
      Many: { method: 'Chat', port: peer.port, headers: entries(120) },
      Gzipped: { method: 'Chat', port: peer.port, headers: [...entries(119), gzip] },
      Fits: { method: 'Chat', port: peer.port, headers: [...entries(118), gzip] },
    });
    const reset = `8 RESOURCE_EXHAUSTED: Ferry's gRPC client ended the call, as the server sent no status: the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): `;
    const tooMany = (n: number) => `${reset}the request sent ${n} metadata entries, and ${host} takes at most 128 header fields in all (the usual HTTP/2 limit); send fewer headers`;
    for (const [name, end] of [
      // 119 entries are 128 fields without a deadline: the reset is not the request's (counted as 129 before).
      ['Costly', `${reset}the answer's headers or trailers from ${host} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries`],
      ['Many', tooMany(120)],
      ['Gzipped', tooMany(119)],
      ['Fits', 'the server ended the call: 0 OK'],
    ] as const) {
      const r = recorder();
      await s.connect(name, r);
      await r.until(() => r.end !== undefined, `the end of ${name}`);
      expect(r.end).toEqual({ by: 'peer', message: end });
    }
    expect(peer.fields).toEqual([128, 129, 129, 128]);
  });

  it("after server reflection, a live call's count leaves out grpc-encoding when grpc-js no longer sends it (the server's answers take identity only)", async () => {
    const peer = await startGrpcPeer({ acceptEncoding: 'identity' });
    closers.push(() => peer.close());
    const chat = '/ferry.test.Echo/Chat';
    const relay = await startHeaderLimitRelay(peer.port, chat);
    closers.push(() => relay.close());
    // 119 entries, gzip: reflection's first call 130 fields (grpc-encoding, and grpc-timeout: reflection has timeoutMs), the method's 128 (no deadline, no grpc-encoding).
    const headers = [{ key: 'x-costly', value: 'yes' }, ...Array.from({ length: 118 }, (_, i) => ({ key: `x-h${i}`, value: 'v' })), { key: 'grpc-encoding', value: 'gzip' }];
    const { ws, data } = await openedWorkspace({ 'requests/Chat.yaml': { name: 'Chat', kind: 'grpc', url: relay.url, method: 'ferry.test.Echo/Chat', headers } });
    const s = await Session.open({ workspace: ws, dataFolder: data, settings: DEFAULT_SETTINGS });
    closers.push(() => void s.close());
    const r = recorder();
    await s.connect('Chat', r);
    await r.until(() => r.end !== undefined, 'the end of Chat');
    const host = relay.url.slice('grpc://'.length);
    expect(r.end).toEqual({ by: 'peer', message: `8 RESOURCE_EXHAUSTED: Ferry's gRPC client ended the call, as the server sent no status: the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the answer's headers or trailers from ${host} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries` });
    expect(relay.calls[0]!.names).toContain('grpc-encoding');
    expect(relay.calls[0]!.names).toHaveLength(130);
    const sent = relay.calls.filter((c) => c.path === chat).map((c) => c.names);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain('grpc-encoding');
    expect(sent[0]).toHaveLength(128);
  });

  it('statuses a send rewords are reworded the same on a live call: a message marked compressed without an encoding, a grpc-status that is not a number, a client stream ended OK without its answer', async () => {
    /** Answers gRPC's headers, `body`, then the trailers of status `status`, once the client half-closes. */
    const answer = (body: Buffer, status = '0') =>
      rawPeer((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': status }));
        stream.resume();
        stream.on('end', () => stream.end(body));
      });
    const s = await protoSession({
      Compressed: { method: 'Count', port: await answer(frame(HI, 1)), body: '{"count": 1}' },
      NotAStatus: { method: 'Count', port: await answer(frame(HI), 'abc'), body: '{"count": 1}' },
      Empty: { method: 'Collect', port: await answer(Buffer.alloc(0)) },
    });
    for (const [name, status] of [
      ['Compressed', "13 INTERNAL: the server's message is marked compressed and could not be decompressed"],
      ['NotAStatus', "2 UNKNOWN: the server's grpc-status is not a status code"],
      ['Empty', '13 INTERNAL: the server ended the call with status OK but sent no whole message; a unary or client-streaming call answers with exactly one'],
    ] as const) {
      const r = recorder();
      const opened = await s.connect(name, r);
      if (name === 'Empty') await s.callOperation(opened.id, 'end', {});
      await r.until(() => r.end !== undefined, `the end of ${name}`);
      expect(r.labelled('status').map((m) => m.text)).toEqual([status]);
      expect(r.end).toEqual({ by: 'peer', message: `the server ended the call: ${status}` });
    }
  });
});
