/**
 * Statuses grpc-js makes up on the client side (client-status.ts) are told apart from the
 * server's: the code stays, the words say Ferry's client ended the call, why and what to do.
 * A real grpc-js server where it can be made to misbehave (too many metadata entries, a shutdown
 * mid-call); a node:http2 server writing bytes where it cannot (no trailers, a refused stream),
 * or counting a call's header fields at the usual limit of 128 (grpc-header-limit.ts), in
 * front of a real grpc-js server or not.
 */
import http2 from 'node:http2';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { afterEach, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, type ProtocolResult } from '../../src/protocols/index.js';
import { ECHO_PROTO, startGrpcPeer } from './grpc-peer.js';
import { startHeaderLimitPeer, startHeaderLimitRelay } from './grpc-header-limit.js';
import { sendWith } from './kind-cases.js';

const grpcKind = requestKind('grpc');
const BY_CLIENT = "Ferry's gRPC client ended the call, as the server sent no status: ";

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

function say(url: string, timeoutMs = 3000): Promise<ProtocolResult> {
  return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['test/fixtures/grpc/echo.proto'] }, body: { type: 'json', text: '{"text":"x"}' }, settings: { timeoutMs } }));
}

/** A grpc-js server whose Say is `handler`. */
async function grpcServer(handler: grpc.handleUnaryCall<unknown, unknown>): Promise<{ url: string; server: grpc.Server }> {
  const definition = protoLoader.loadSync(ECHO_PROTO, { includeDirs: ['test/fixtures/grpc'] });
  const Echo = (grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } }).ferry.test.Echo;
  const server = new grpc.Server();
  server.addService(Echo.service, { Say: handler });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  closers.push(() => server.forceShutdown());
  return { url: `grpc://127.0.0.1:${port}`, server };
}

/** A node:http2 server answering each call with `answer`. */
async function rawPeer(answer: (stream: http2.ServerHttp2Stream) => void): Promise<string> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const HI = Buffer.from([0, 0, 0, 0, 4, 0x0a, 0x02, 0x68, 0x69]);
const host = (url: string) => url.slice('grpc://'.length);

describe('gRPC: statuses Ferry\'s client made up are worded as such', () => {
  it('too many metadata entries from a grpc-js server: 8 RESOURCE_EXHAUSTED, saying the client reset the stream and why', async () => {
    const { url } = await grpcServer((call, callback) => {
      const many = new grpc.Metadata();
      for (let i = 0; i < 200; i++) many.set(`x-h${i}`, 'v');
      call.sendMetadata(many);
      callback(null, { text: 'hi' });
    });
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 8, text: 'RESOURCE_EXHAUSTED', ok: false, message: '' });
    expect(result.outcome.label).toBe(
      `8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the answer's headers or trailers from ${host(url)} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries`,
    );
    expect(result.detail).toMatchObject({ status: 8, statusMessage: '' });
    expect(result.detail?.endedByClient).toMatch(/\(grpc-js: Bandwidth exhausted or memory limit exceeded\)$/);
  });

  it('too many metadata entries in the request: the grpc-js server resets the stream, and the words say it was the request\'s', async () => {
    const { url } = await grpcServer((_call, callback) => callback(null, { text: 'hi' }));
    const headers = Array.from({ length: 200 }, (_, i) => ({ key: `x-h${i}`, value: 'v' }));
    const result = await sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['test/fixtures/grpc/echo.proto'] }, headers, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3000 } }));
    expect(result.outcome.label).toBe(`8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the request sent 200 metadata entries, and ${host(url)} takes at most 128 header fields in all (the usual HTTP/2 limit); send fewer headers`);
  });

  it('at the exact limit, the header fields grpc-js adds are counted: grpc-encoding of a compressed call, grpc-timeout only with a deadline', async () => {
    // grpc-js sends 9 fields of its own, grpc-timeout with a deadline, grpc-encoding when compressing; the peer takes 128.
    const peer = await startHeaderLimitPeer();
    closers.push(() => peer.close());
    const url = `grpc://127.0.0.1:${peer.port}`;
    /** Say with `entries` metadata entries in all (x-costly among them when `costly`), grpc-encoding gzip when `gzip` (the channel's compression, not metadata). */
    const send = (entries: number, { gzip = false, costly = false, timeoutMs }: { gzip?: boolean; costly?: boolean; timeoutMs: number }) => {
      const headers = Array.from({ length: entries }, (_, i) => (costly && i === 0 ? { key: 'x-costly', value: 'yes' } : { key: `x-h${i}`, value: 'v' }));
      if (gzip) headers.push({ key: 'grpc-encoding', value: 'gzip' });
      return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: { protoFiles: ['test/fixtures/grpc/echo.proto'] }, headers, body: { type: 'json', text: '{}' }, settings: { timeoutMs } }));
    };
    const tooMany = (entries: number) => `8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the request sent ${entries} metadata entries, and ${host(url)} takes at most 128 header fields in all (the usual HTTP/2 limit); send fewer headers`;
    const notTheRequest = `8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): the answer's headers or trailers from ${host(url)} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries`;
    // Compressed, with a deadline: 117 entries are 128 fields and pass; 118 are 129, the request's fault (counted as 128 before, so blamed on the answer).
    expect((await send(117, { gzip: true, timeoutMs: 3000 })).outcome).toMatchObject({ status: 0, text: 'OK' });
    expect((await send(118, { gzip: true, timeoutMs: 3000 })).outcome.label).toBe(tooMany(118));
    // Without a deadline (timeoutMs 0), uncompressed: 119 entries are 128 fields, so a reset is not the request's (counted as 129 before); 120 are.
    expect((await send(119, { timeoutMs: 0 })).outcome).toMatchObject({ status: 0, text: 'OK' });
    expect((await send(119, { costly: true, timeoutMs: 0 })).outcome.label).toBe(notTheRequest);
    expect((await send(120, { timeoutMs: 0 })).outcome.label).toBe(tooMany(120));
    expect(peer.fields).toEqual([128, 129, 128, 128, 129]);
  });

  it("at the exact limit after server reflection, grpc-encoding is counted only when grpc-js still sends it: a server whose answers take no gzip (grpc-accept-encoding: identity) gets the method's call without it", async () => {
    const say = '/ferry.test.Echo/Say';
    /** Say by reflection through a relay counting its fields (the method's limited to 128) to a grpc-js server whose answers take `acceptEncoding`; gzip, a deadline, `entries` metadata entries. */
    const sendGzipped = async (acceptEncoding: string | undefined, entries: number, costly = false) => {
      const peer = await startGrpcPeer(acceptEncoding === undefined ? {} : { acceptEncoding });
      closers.push(() => void peer.close());
      const relay = await startHeaderLimitRelay(peer.port, say);
      closers.push(() => relay.close());
      const headers = Array.from({ length: entries }, (_, i) => (costly && i === 0 ? { key: 'x-costly', value: 'yes' } : { key: `x-h${i}`, value: 'v' }));
      const result = await sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url: relay.url, method: 'ferry.test.Echo/Say', headers: [...headers, { key: 'grpc-encoding', value: 'gzip' }], body: { type: 'json', text: '{}' }, settings: { timeoutMs: 5000 } }));
      const reflection = relay.calls.filter((c) => c.path !== say);
      const method = relay.calls.filter((c) => c.path === say);
      expect(reflection.length).toBeGreaterThan(0);
      expect(method).toHaveLength(1);
      return { result, relay, reflection, sent: method[0]!.names, host: host(relay.url) };
    };
    const words = (where: string, entries: number | undefined) =>
      `8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): ${
        entries === undefined
          ? `the answer's headers or trailers from ${where} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries`
          : `the request sent ${entries} metadata entries, and ${where} takes at most 128 header fields in all (the usual HTTP/2 limit); send fewer headers`
      }`;

    // The server takes identity only: reflection's first call carried grpc-encoding (129 fields), the method's none, so 118 entries are its 128.
    const fits = await sendGzipped('identity', 118);
    expect(fits.result.outcome).toMatchObject({ status: 0, text: 'OK' });
    expect(fits.reflection[0]!.names).toContain('grpc-encoding');
    expect(fits.reflection[0]!.names).toHaveLength(129);
    expect(fits.sent).not.toContain('grpc-encoding');
    expect(fits.sent).toContain('grpc-timeout');
    expect(fits.sent).toHaveLength(128);
    // So a reset of those 128 is not the request's (blamed on it before: counted as 129); 119 entries are 129 fields, the request's.
    const costly = await sendGzipped('identity', 118, true);
    expect(costly.sent).toHaveLength(128);
    expect(costly.result.outcome.label).toBe(words(costly.host, undefined));
    const many = await sendGzipped('identity', 119);
    expect(many.sent).toHaveLength(129);
    expect(many.result.outcome.label).toBe(words(many.host, 119));

    // grpc-js's own server takes gzip: the method's call keeps grpc-encoding, counted, so 117 entries are its 128 and 118 its 129.
    const kept = await sendGzipped(undefined, 117, true);
    expect(kept.sent).toContain('grpc-encoding');
    expect(kept.sent).toHaveLength(128);
    expect(kept.result.outcome.label).toBe(words(kept.host, undefined));
    const keptMany = await sendGzipped(undefined, 118);
    expect(keptMany.sent).toHaveLength(129);
    expect(keptMany.result.outcome.label).toBe(words(keptMany.host, 118));
  });

  it("a server-reflection call reset for too many header fields is worded as a method's call is (it was grpc-js's 'Bandwidth exhausted or memory limit exceeded'), counting grpc-encoding on reflection's first call", async () => {
    const peer = await startGrpcPeer();
    closers.push(() => void peer.close());
    // The limit on reflection's calls alone: the method's would pass.
    const relay = await startHeaderLimitRelay(peer.port, '/grpc.reflection.v1.ServerReflection/ServerReflectionInfo');
    closers.push(() => relay.close());
    const where = host(relay.url);
    /** Say by reflection with `entries` metadata entries (x-costly among them when `costly`), grpc-encoding gzip when `gzip`, a deadline. */
    const send = (entries: number, { gzip = false, costly = false } = {}) => {
      const headers = Array.from({ length: entries }, (_, i) => (costly && i === 0 ? { key: 'x-costly', value: 'yes' } : { key: `x-h${i}`, value: 'v' }));
      if (gzip) headers.push({ key: 'grpc-encoding', value: 'gzip' });
      const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: relay.url, method: 'ferry.test.Echo/Say', headers, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 5000 } });
      return sendWith(grpcKind, request).then(() => undefined, (e: unknown) => e as Error);
    };
    const reset = (why: string) => `server reflection failed: 8 RESOURCE_EXHAUSTED: ${BY_CLIENT}the call's HTTP/2 stream was reset (ENHANCE_YOUR_CALM): ${why}.`;
    const tooMany = (entries: number) => reset(`the request sent ${entries} metadata entries, and ${where} takes at most 128 header fields in all (the usual HTTP/2 limit); send fewer headers`);
    // 119 entries, 9 fields of grpc-js's own and grpc-timeout: 129, the request's.
    expect((await send(119))?.message).toBe(tooMany(119));
    // Compressed: reflection's first call carries grpc-encoding too, so 118 entries are 129.
    expect((await send(118, { gzip: true }))?.message).toBe(tooMany(118));
    // A few fields, reset all the same: not the request's.
    expect((await send(2, { costly: true }))?.message).toBe(reset(`the answer's headers or trailers from ${where} are more than the client reads (at most 128 fields), or the server found the call too costly; have the server send fewer metadata entries`));
    expect(relay.calls.map((c) => c.names.length)).toEqual([129, 129, 12]);
  });

  it('a grpc-js server shut down mid-call (it resets its streams, CANCEL): 1 CANCELLED, saying the server reset the stream', async () => {
    const { url, server } = await grpcServer(() => setTimeout(() => server.forceShutdown(), 100));
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 1, text: 'CANCELLED', ok: false, message: '' });
    expect(result.outcome.label).toBe(`1 CANCELLED: ${BY_CLIENT}${host(url)} cancelled the call's HTTP/2 stream (RST_STREAM CANCEL) without a gRPC status; check the server's log (or that of a proxy before it)`);
  });

  it('a connection cut after a message, before the trailers: 14 UNAVAILABLE, the connection closed before a status', async () => {
    const url = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(HI);
      setTimeout(() => stream.session?.destroy(), 50);
    });
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 14, text: 'UNAVAILABLE' });
    expect(result.outcome.label).toBe(`14 UNAVAILABLE: ${BY_CLIENT}the connection to ${host(url)} closed before the server sent a status; check whether the server crashed or was stopped, or a proxy between closed the connection, and send again`);
  });

  it('a connection cut before any answer is one too, not "could not connect" (the call had reached the server)', async () => {
    const url = await rawPeer((stream) => setTimeout(() => stream.session?.destroy(), 50));
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 14, text: 'UNAVAILABLE' });
    expect(result.outcome.label).toContain(`${BY_CLIENT}the connection to ${host(url)} closed before the server sent a status`);
  });

  it('a stream ended without trailers (a broken answer): 13 INTERNAL, saying no grpc-status came', async () => {
    const url = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.end(HI);
    });
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 13, text: 'INTERNAL', message: '' });
    expect(result.outcome.label).toBe(`13 INTERNAL: ${BY_CLIENT}${host(url)} ended the call's HTTP/2 stream without a grpc-status trailer (or sent headers larger than the client reads); check the server's log (or that of a proxy before it)`);
  });

  it('a refused stream and a cancelled one name the HTTP/2 reset', async () => {
    const refused = await rawPeer((stream) => stream.close(http2.constants.NGHTTP2_REFUSED_STREAM));
    expect((await say(refused)).outcome.label).toBe(`14 UNAVAILABLE: ${BY_CLIENT}${host(refused)} refused the call's HTTP/2 stream (REFUSED_STREAM) before handling it; the server is busy or limits its concurrent calls: send again later`);
    const cancelled = await rawPeer((stream) => stream.close(http2.constants.NGHTTP2_CANCEL));
    expect((await say(cancelled)).outcome.label).toBe(`1 CANCELLED: ${BY_CLIENT}${host(cancelled)} cancelled the call's HTTP/2 stream (RST_STREAM CANCEL) without a gRPC status; check the server's log (or that of a proxy before it)`);
  });

  it('an HTTP status without grpc-status: the status gRPC maps it to, saying where it came from', async () => {
    const url = await rawPeer((stream) => stream.respond({ ':status': 503, 'content-type': 'application/grpc' }, { endStream: true }));
    const result = await say(url);
    expect(result.outcome.label).toBe(`14 UNAVAILABLE: ${BY_CLIENT}${host(url)} answered HTTP 503 without a grpc-status, so the status 14 UNAVAILABLE is read from the HTTP status, as gRPC maps it; check the URL's host and port, and any proxy or gateway before the server`);
  });

  it("the client's deadline: 4 DEADLINE_EXCEEDED naming settings.timeoutMs", async () => {
    const url = await rawPeer((stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc' }));
    const result = await say(url, 300);
    expect(result.outcome.label).toBe(`4 DEADLINE_EXCEEDED: ${BY_CLIENT}no status came from ${host(url)} within settings.timeoutMs (300 ms), the call's deadline; raise settings.timeoutMs if the method is slow (0: no deadline)`);
  });

  it("a stream of answers the client's deadline ended stopped at the time limit, not closed by the server; the server's own DEADLINE_EXCEEDED closed it", async () => {
    // One message, then nothing until the deadline (a server stream that stalls). The deadline counts
    // from the call's start (proto load and connection too): 3 s, so a loaded machine still gets the message first.
    const stalls = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(HI);
    });
    const count = (url: string) => sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Count', grpc: { protoFiles: ['test/fixtures/grpc/echo.proto'] }, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3_000 } }));
    const stalled = await count(stalls);
    expect(stalled.outcome).toMatchObject({ status: 4, text: 'DEADLINE_EXCEEDED' });
    expect(stalled.stream).toEqual({ events: 1, stoppedBy: 'timeout' });
    // The same words from a server, with its trailers (as the test below): its status, so it closed the stream.
    const said = await rawPeer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '4', 'grpc-message': 'Deadline exceeded after 1s upstream', 'x-why': 'upstream' }));
      stream.end(HI);
    });
    const ended = await count(said);
    expect(ended.outcome).toMatchObject({ status: 4, message: 'Deadline exceeded after 1s upstream' });
    expect(ended.stream).toEqual({ events: 1, stoppedBy: 'closed' });
  });

  it("the same words sent by a server, with its trailers, stay the server's", async () => {
    const url = await rawPeer((stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '14', 'grpc-message': 'Connection dropped', 'x-why': 'upstream' }, { endStream: true }));
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 14, label: '14 UNAVAILABLE: Connection dropped', message: 'Connection dropped' });
    expect(result.detail?.endedByClient).toBeUndefined();
  });

  it("a grpc-js server's own DEADLINE_EXCEEDED or UNAVAILABLE without headers (trailers-only) is its answer, not a failure to connect", async () => {
    for (const code of [grpc.status.DEADLINE_EXCEEDED, grpc.status.UNAVAILABLE]) {
      const { url } = await grpcServer((_call, callback) => callback({ code, details: 'the backend is down' }));
      const result = await say(url);
      expect(result.outcome).toMatchObject({ status: code, ok: false, message: 'the backend is down' });
      expect(result.outcome.label).toBe(`${code} ${grpc.status[code]}: the backend is down`);
      expect(result.detail?.endedByClient).toBeUndefined();
    }
  });

  it('a grpc-js server slower than settings.timeoutMs (no headers before its answer): 4 DEADLINE_EXCEEDED as an answer, not "before the connection was ready"', async () => {
    const { url } = await grpcServer((_call, callback) => {
      const timer = setTimeout(() => callback(null, { text: 'late' }), 5000);
      closers.push(() => clearTimeout(timer));
    });
    const result = await say(url, 300);
    // grpc-js's server ends the call at the same deadline (it reads grpc-timeout), so either side's words may come first.
    expect(result.outcome).toMatchObject({ status: 4, text: 'DEADLINE_EXCEEDED', ok: false });
    expect(result.outcome.label).toMatch(/^4 DEADLINE_EXCEEDED: (Deadline exceeded|Ferry's gRPC client ended the call, as the server sent no status: no status came from .* within settings\.timeoutMs \(300 ms\))/);
  });

  it('a peer that accepts TCP and never speaks HTTP/2 still fails as not connected in time', async () => {
    const server = net.createServer((socket) => socket.on('error', () => {}));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const url = `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await expect(say(url, 300)).rejects.toThrow(`timed out after 300 ms (settings.timeoutMs) before the connection to ${host(url)} was ready.`);
  });
});
