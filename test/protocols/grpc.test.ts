/** gRPC requests against a real grpc-js server on loopback: the four call types, metadata, deadlines, TLS, statuses, reflection. */
import { constants as fsConstants, promises as fs } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp.js';
import { testCertificate } from '../support/servers/index.js';
import { requestSchema, workspaceSchema } from '../../src/model/index.js';
import { prepareRequest } from '../../src/request/index.js';
import { hawkCheck, oauth1Check } from '../support/auth-checks.js';
import { HttpAgents, requestKind, type ProtocolResult } from '../../src/protocols/index.js';
import { captureResponse } from '../../src/runner/index.js';
import { startGrpcPeer, type GrpcPeer } from './grpc-peer.js';
import { describeKindCases, sendFailure, sendWith } from './kind-cases.js';

const grpcKind = requestKind('grpc');
const PROTO = { protoFiles: ['test/fixtures/grpc/echo.proto'] };

function send(fields: Record<string, unknown>, signal?: AbortSignal, agents?: HttpAgents): Promise<ProtocolResult> {
  return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', settings: { timeoutMs: 5000 }, ...fields }), signal, agents ? { agents } : {});
}

const json = (result: ProtocolResult) => JSON.parse(Buffer.from(result.body).toString('utf8')) as Record<string, unknown>;

describeKindCases({
  module: grpcKind,
  urlFor: (port, secure) => `${secure ? 'grpcs' : 'grpc'}://127.0.0.1:${port}`,
  wrongScheme: 'http://127.0.0.1:1/',
  fields: { method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"tls"}' } },
  waitsForHandshake: true,
  startTls: () => startGrpcPeer({ tls: true }),
});

describe('gRPC', () => {
  let peer: GrpcPeer;
  beforeAll(async () => {
    peer = await startGrpcPeer();
  });
  afterAll(() => peer.close());

  it('unary: the JSON message, metadata from headers and auth, int64 as strings, enums by name, headers and trailers', async () => {
    const result = await send({
      url: peer.url,
      method: 'ferry.test.Echo/Say',
      grpc: PROTO,
      headers: [{ key: 'x-token', value: 'abc' }, { key: 'x-raw-bin', value: Buffer.from([1, 2, 3]).toString('base64') }],
      auth: { type: 'bearer', token: 't0k' },
      body: { type: 'json', text: '{"text":"ann","big":"9007199254740993","mood":"GRUMPY","inner":{"level":2},"tags":["a"]}' },
    });
    expect(result.outcome).toEqual({ status: 0, text: 'OK', ok: true, label: '0 OK', message: '' });
    expect(json(result)).toEqual({ text: 'hello ann', big: '9007199254740993', mood: 'GRUMPY', index: 0 });
    expect(result.headers).toContainEqual(['x-echo-auth', 'Bearer t0k']);
    expect(result.headers).toContainEqual(['x-echo-token', 'abc']);
    expect(result.headers).toContainEqual(['x-raw-bin', Buffer.from([1, 2, 3]).toString('base64')]);
    expect(result.detail?.trailers).toContainEqual(['x-trailer', 'done']);
    expect(result.trailers).toContainEqual(['x-trailer', 'done']); // pm.response.trailers
    expect(result.detail?.callType).toBe('unary');
    expect(peer.seen.at(-1)?.get('content-type')).toEqual([]);
  });

  it('a -bin metadata value that is not base64 fails the request naming the key (Node would decode it to other bytes without a word)', async () => {
    const error = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, headers: [{ key: 'X-Raw-Bin', value: 'not base64!' }], body: { type: 'json', text: '{}' } }));
    expect(error.message).toBe('metadata X-Raw-Bin ends in -bin, so its value is binary written as base64, and "not base64!" is not base64; encode the bytes as base64 (or drop -bin from the key for text).');
    // URL-safe base64 and missing padding are base64 too.
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, headers: [{ key: 'x-raw-bin', value: '-_8' }], body: { type: 'json', text: '{}' } });
    expect(result.headers).toContainEqual(['x-raw-bin', Buffer.from([0xfb, 0xff]).toString('base64')]);
  });

  it('metadata refused before sending leaves no channel open behind it (each stayed in grpc-js\'s registry, the app growing with every refusal)', async () => {
    // grpc-js's own list of open channels (channelz), the only place a channel left open shows.
    const { getChannelzHandlers } = (await import('@grpc/grpc-js/build/src/channelz.js')) as unknown as { getChannelzHandlers(): { GetTopChannels(call: object, callback: (error: unknown, value: { channel: Array<{ data: { target: string } }> }) => void): void } };
    const open = () => new Promise<number>((resolve) => getChannelzHandlers().GetTopChannels({ request: { start_channel_id: 0, max_results: 100_000 } }, (_error, value) => resolve(value.channel.filter((c) => c.data.target.endsWith(`:${peer.port}`)).length)));
    const before = await open();
    for (const method of ['ferry.test.Echo/Say', 'ferry.test.Echo/Count']) {
      const error = await sendFailure(send({ url: peer.url, method, grpc: PROTO, headers: [{ key: 'x-who', value: 'Jos\u00e9' }], body: { type: 'json', text: '{}' } }));
      expect(error.message).toMatch(/^metadata x-who cannot be sent/);
    }
    expect(await open()).toBe(before);
  });

  it('a query in the URL (query params, an API key sent in the query) cannot go over gRPC: refused naming it, not dropped without a word', async () => {
    const keyed = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, auth: { type: 'apiKey', key: 'api_key', value: 's3cret', location: 'query' }, body: { type: 'json', text: '{}' } }));
    expect(keyed.message).toBe('a gRPC request has no query string, so the URL\'s query (api_key) cannot be sent; send it as metadata: a header, or the API key with location header.');
    expect(keyed.message).not.toContain('s3cret');
    const params = await sendFailure(send({ url: `${peer.url}/?a=1&b=2`, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' } }));
    expect(params.message).toContain("the URL's query (a, b) cannot be sent");
  });

  it('reports (-v, --report-bodies) show the answer as its JSON, not as a binary application/grpc body', async () => {
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"ann"}' } });
    expect(result.headers).toContainEqual(['content-type', 'application/grpc+proto']);
    const captured = captureResponse(result, 64 * 1024);
    expect(captured.binary).toBeUndefined();
    expect(JSON.parse(captured.body ?? '')).toMatchObject({ text: 'hello ann' });
    expect(captured.bodyType).toBe('application/json');
  });

  it('a map field is a JSON object of entries; an array or a scalar there is named', async () => {
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"m","labels":{"a":1,"b":2}}' } });
    expect(result.outcome).toEqual({ status: 0, text: 'OK', ok: true, label: '0 OK', message: '' });
    expect(json(result)).toMatchObject({ text: 'hello m (labels a=1,b=2)' });
    await expect(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"labels":[1]}' } })).rejects.toThrow('the message field labels is a map: give a JSON object.');
    await expect(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"labels":"a=1"}' } })).rejects.toThrow('the message field labels is a map: give a JSON object.');
  });

  it('a non-OK status is an answer with its code, name, message and trailers', async () => {
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"x","fail_with":true}' } });
    // The server's message is in the status as reports show it (as grpcurl prints Code and Message); the reason is gRPC's, not HTTP's 400 rule.
    expect(result.outcome).toEqual({ status: 5, text: 'NOT_FOUND', ok: false, label: '5 NOT_FOUND: no greeting for x', message: 'no greeting for x', rule: 'a gRPC request without tests fails unless its status is 0 OK' });
    expect(result.detail?.statusMessage).toBe('no greeting for x');
    expect(result.detail?.trailers).toContainEqual(['x-why', 'no such greeting']);
  });

  it('rich error details (grpc-status-details-bin, google.rpc.Status) are shown decoded, as grpcurl shows them', async () => {
    const definition = protoLoader.loadSync(path.resolve('test/fixtures/grpc/echo.proto'), { includeDirs: [path.resolve('test/fixtures/grpc')] });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
    // The server side's Status, encoded by hand (protobuf wire format: field tag, length, bytes).
    const field = (id: number, bytes: Uint8Array | string) => {
      const body = typeof bytes === 'string' ? Buffer.from(bytes) : Buffer.from(bytes);
      return Buffer.concat([Buffer.from([(id << 3) | 2, body.length]), body]);
    };
    const any = (typeUrl: string, value: Uint8Array) => field(3, Buffer.concat([field(1, typeUrl), field(2, value)]));
    const packed = field(1, Buffer.concat([field(1, 'text'), field(2, 'must not be empty')])); // BadRequest.fieldViolations[0]
    const retry = field(1, Buffer.from([0x08, 5, 0x10, 0x80, 0x84, 0xaf, 0x5f])); // RetryInfo.retryDelay: 5 s, 200,000,000 ns
    const bin = Buffer.concat([Buffer.from([0x08, 3]), field(2, 'bad greeting'), any('type.googleapis.com/google.rpc.BadRequest', packed), any('type.googleapis.com/google.rpc.RetryInfo', retry), any('type.googleapis.com/acme.Unknown', Buffer.from([8, 1]))]);
    const server = new grpc.Server();
    server.addService(loaded.ferry.test.Echo.service, {
      Say: (_call: unknown, callback: grpc.sendUnaryData<unknown>) => {
        const trailers = new grpc.Metadata();
        trailers.set('grpc-status-details-bin', bin);
        callback({ code: grpc.status.INVALID_ARGUMENT, details: 'bad greeting', metadata: trailers });
      },
    });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    try {
      const result = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' } });
      expect(result.outcome).toMatchObject({ status: 3, text: 'INVALID_ARGUMENT', ok: false });
      const details = [
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'text', description: 'must not be empty' }] },
        // Well-known types inside a detail in their proto3 JSON forms too.
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '5.200s' },
        // A type Ferry does not know keeps its bytes, as base64.
        { '@type': 'type.googleapis.com/acme.Unknown', value: 'CAE=' },
      ];
      expect(result.detail?.statusDetails).toEqual(details);
      expect(result.outcome.label).toBe('3 INVALID_ARGUMENT: bad greeting');
      expect(result.outcome.rule).toBe(`details ${JSON.stringify(details)}; a gRPC request without tests fails unless its status is 0 OK`);
    } finally {
      server.forceShutdown();
    }
  });

  it('server streaming reads by settings.stream; a stream the server ends stops as closed', async () => {
    const capped = await send({ url: peer.url, method: 'ferry.test.Echo/Count', grpc: PROTO, body: { type: 'json', text: '{"endless":true}' }, settings: { timeoutMs: 5000, stream: { maxEvents: 3 } } });
    expect(capped.outcome.ok).toBe(true);
    expect(capped.stream).toEqual({ events: 3, stoppedBy: 'maxEvents' });
    expect(capped.messages?.filter((m) => m.direction === 'received').map((m) => JSON.parse(m.text).text)).toEqual(['n0', 'n1', 'n2']);
    expect(json(capped)).toMatchObject({ text: 'n0', big: '9007199254740993', mood: 'GRUMPY' });
    const ended = await send({ url: peer.url, method: 'ferry.test.Echo/Count', grpc: PROTO, body: { type: 'json', text: '{"count":2}' } });
    expect(ended.stream).toEqual({ events: 2, stoppedBy: 'closed' });
    expect(ended.outcome.text).toBe('OK');
  });

  it('an endless stream without any other limit (stream maxEvents 0, timeoutMs 0; no deadline) is cut at maxResponseMb, as SSE streams are (it read forever)', async () => {
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'ferry.test.Echo/Count', grpc: PROTO, body: { type: 'json', text: '{"endless":true}' }, settings: { timeoutMs: 0, stream: { maxEvents: 0, timeoutMs: 0 } } });
    const error = await sendFailure(sendWith(grpcKind, request, undefined, { maxResponseMb: 1 }));
    expect(error.kind).toBe('tooLarge');
    expect(error.message).toBe('the messages of the answer add up to more than 1 MB (maxResponseMb), so Ferry stopped reading the stream; raise the limit with ferry config set maxResponseMb N, or 0 for no limit, or stop the stream sooner with settings.stream (maxEvents, timeoutMs).');
  }, 20_000);

  it('client streaming and bidirectional: a JSON array is sent as messages in order', async () => {
    const collected = await send({ url: peer.url, method: 'ferry.test.Echo/Collect', grpc: PROTO, body: { type: 'json', text: '[{"text":"a"},{"text":"b"},{"text":"c"}]' } });
    expect(json(collected)).toMatchObject({ text: 'a+b+c', index: 3 });
    const chat = await send({ url: peer.url, method: 'ferry.test.Echo/Chat', grpc: PROTO, body: { type: 'json', text: '[{"text":"a"},{"text":"b"}]' } });
    expect(chat.messages?.map((m) => [m.direction, JSON.parse(m.text).text])).toEqual([['sent', 'a'], ['sent', 'b'], ['received', 'hello a'], ['received', 'hello b']]);
    expect(chat.stream?.stoppedBy).toBe('closed');
  });

  it('settings.timeoutMs is the deadline: a slow method answers DEADLINE_EXCEEDED', async () => {
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Slow', grpc: PROTO, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 300 } });
    expect(result.outcome).toMatchObject({ status: 4, text: 'DEADLINE_EXCEEDED', ok: false });
    // Ferry's client ended the call at the deadline, not the server: said so (client-status.ts).
    expect(result.outcome.label).toMatch(/^4 DEADLINE_EXCEEDED: Ferry's gRPC client ended the call, as the server sent no status: no status came from 127\.0\.0\.1:\d+ within settings\.timeoutMs \(300 ms\)/);
    expect(result.outcome.rule).toBe('a gRPC request without tests fails unless its status is 0 OK');
  });

  it('without protoFiles the descriptors come from server reflection', async () => {
    const result = await send({ url: peer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text":"r"}' } });
    expect(json(result).text).toBe('hello r');
    // Reflection's descriptors encode a map as entries; the message still gives it as a JSON object.
    const mapped = await send({ url: peer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text":"r","labels":{"x":7}}' } });
    expect(json(mapped).text).toBe('hello r (labels x=7)');
    await expect(send({ url: peer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"labels":{"x":"seven"}}' } })).rejects.toThrow('the message field labels.x.value is a number (int32), not "seven".');
    const unknown = await sendFailure(send({ url: peer.url, method: 'ferry.test.Nope/Say', body: { type: 'json', text: '{}' } }));
    expect(unknown.message).toContain('ferry.test.Echo');
  });

  it('numbers and enums are held to proto3 JSON, not truncated, wrapped or zeroed without a word (1.5 was sent as 1, 2^40 in an int32 as 0, an unknown enum name as 0)', async () => {
    const refused: Array<[string, string]> = [
      ['{"inner":{"level":1.5}}', 'the message field inner.level is a whole number (int32), not 1.5.'],
      ['{"inner":{"level":1099511627776}}', 'the message field inner.level is an int32 (from -2147483648 to 2147483647), not 1099511627776.'],
      ['{"big":"99999999999999999999"}', 'the message field big is an int64 (from -9223372036854775808 to 9223372036854775807), not "99999999999999999999".'],
      ['{"big":9007199254740993}', 'the message field big is a whole number (int64) written as a string when past 2^53 (a JSON number there keeps only about 16 digits), not 9007199254740992.'],
      ['{"big":"1e3"}', 'the message field big is a whole number (int64) written in digits, not "1e3".'],
      ['{"big":"0x10"}', 'the message field big is a number (int64), not "0x10".'],
      ['{"mood":"SAD"}', 'the message field mood is one of Mood\'s names (MOOD_UNSPECIFIED, HAPPY, GRUMPY) or a number, not "SAD".'],
      ['{"mood":1.5}', 'the message field mood is an enum (Mood): a name or a whole number within int32, not 1.5.'],
    ];
    for (const [text, why] of refused) {
      const error = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text } }));
      expect(error.message).toBe(why);
    }
    // What proto3 JSON takes still goes: 64-bit integers as strings of digits (past 2^53 exact), 32-bit ones as strings, enum numbers.
    const sent = await send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"n","big":"9007199254740993","inner":{"level":"-7"},"mood":2}' } });
    expect(json(sent)).toMatchObject({ text: 'hello n', big: '9007199254740993', mood: 'GRUMPY' });
  });

  it('the usual mix-ups are one line saying what to change: grpc:// to a TLS server, grpcs:// to a plaintext one, a server that is not HTTP/2', async () => {
    const secure = await startGrpcPeer({ tls: true });
    const http1 = http.createServer((_req, res) => res.end('not gRPC'));
    await new Promise<void>((resolve) => http1.listen(0, '127.0.0.1', resolve));
    const http1Port = (http1.address() as AddressInfo).port;
    const fields = { method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3000 } };
    try {
      const plainToTls = await sendFailure(send({ ...fields, url: secure.url.replace('grpcs:', 'grpc:') }));
      expect(plainToTls.message).toBe(`127.0.0.1:${secure.port} closed the connection before HTTP/2 was set up; if it is a TLS server, use grpcs:// instead of grpc://.`);
      const tlsToPlain = await sendFailure(send({ ...fields, url: peer.url.replace('grpc:', 'grpcs:') }));
      expect(tlsToPlain.message).toBe(`TLS error with 127.0.0.1:${peer.url.split(':').at(-1)}: the server does not answer TLS (wrong version number); for a plaintext gRPC server use grpc:// instead of grpcs://.`);
      const notHttp2 = await sendFailure(send({ ...fields, url: `grpc://127.0.0.1:${http1Port}` }));
      expect(notHttp2.message).toBe(`127.0.0.1:${http1Port} does not speak HTTP/2 (Protocol error), which gRPC runs over: is it a gRPC server, and the port right?`);
    } finally {
      await secure.close();
      http1.close();
    }
  });

  it('grpcs:// to an IP address sends no TLS server name (RFC 6066; grpc-js sent it and Node warned DEP0123 on stderr mid-run), a host name still goes', async () => {
    const names: (string | undefined)[] = [];
    const server = tls.createServer({ ...(await testCertificate()), ALPNProtocols: ['h2'] }, (socket) => {
      names.push((socket as tls.TLSSocket & { servername?: string | false }).servername || undefined);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const warnings: string[] = [];
    const onWarning = (warning: Error & { code?: string }) => warnings.push(warning.code ?? warning.message);
    process.on('warning', onWarning);
    try {
      const fields = { method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3000, verifyTls: false } };
      await sendFailure(send({ ...fields, url: `grpcs://127.0.0.1:${port}` }));
      await sendFailure(send({ ...fields, url: `grpcs://localhost:${port}` }));
      expect(names).toEqual([undefined, 'localhost']);
      expect(warnings).not.toContain('DEP0123');
    } finally {
      process.off('warning', onWarning);
      server.close();
    }
  });

  it('a server without reflection: one line saying to list proto files', async () => {
    const bare = await startGrpcPeer({ reflection: false });
    try {
      const error = await sendFailure(send({ url: bare.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{}' } }));
      expect(error.message).toContain('does not support reflection');
      expect(error.message).toContain('grpc.protoFiles');
    } finally {
      await bare.close();
    }
  });

  it('an answer message past maxResponseMb fails the request naming the setting (not a RESOURCE_EXHAUSTED the server never sent); a server refusing a message too large for it stays its answer', async () => {
    const definition = protoLoader.loadSync(path.resolve('test/fixtures/grpc/echo.proto'), { includeDirs: [path.resolve('test/fixtures/grpc')] });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
    const server = new grpc.Server();
    const big = 'x'.repeat(2 * 1024 * 1024);
    server.addService(loaded.ferry.test.Echo.service, {
      Count: (call: grpc.ServerWritableStream<unknown, unknown>) => {
        call.write({ text: big });
        call.end();
      },
      Say: (call: grpc.ServerUnaryCall<{ text?: string }, unknown>, callback: grpc.sendUnaryData<unknown>) => callback(null, { text: String(call.request.text?.length) }),
    });
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    const url = `grpc://127.0.0.1:${port}`;
    const sendLimited = (fields: Record<string, unknown>) => sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, grpc: PROTO, settings: { timeoutMs: 5000 }, ...fields }), undefined, { maxResponseMb: 1 });
    try {
      const error = await sendFailure(sendLimited({ method: 'ferry.test.Echo/Count', body: { type: 'json', text: '{"count":1}' } }));
      expect(error.kind).toBe('tooLarge');
      expect(error.message).toMatch(/^a message of the answer is larger than 1 MB \(maxResponseMb; \d+ bytes\), so Ferry did not read it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit\.$/);
      // The server's own limit (4 MB by default) refusing the request's message is the server's answer.
      const refused = await sendLimited({ method: 'ferry.test.Echo/Say', body: { type: 'json', text: JSON.stringify({ text: 'y'.repeat(5 * 1024 * 1024) }) } });
      expect(refused.outcome).toMatchObject({ status: 8, text: 'RESOURCE_EXHAUSTED', ok: false });
    } finally {
      server.forceShutdown();
    }
  });

  it('bad input is one clear line each: unknown method, a field that does not exist, a proto that does not compile, a file outside', async () => {
    const method = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Shout', grpc: PROTO }));
    expect(method.message).toMatch(/no method Shout.*Say, Count, Collect, Chat, Slow/);
    const field = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"txt":"x"}' } }));
    expect(field.message).toContain('"txt"');
    expect(field.message).toContain('text');
    const typed = await sendFailure(send({ url: peer.url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"inner":{"level":"high"}}' } }));
    expect(typed.message).toContain('inner.level');
    const broken = await sendFailure(send({ url: peer.url, method: 'broken.X/Y', grpc: { protoFiles: ['test/fixtures/grpc/broken.proto'] } }));
    expect(broken.message).toMatch(/broken\.proto.*line 5/);
    const outside = await sendFailure(send({ url: peer.url, method: 'a.B/C', grpc: { protoFiles: ['../elsewhere.proto'] } }));
    expect(outside.message).toContain('outside the workspace');
    // A folder where a .proto file belongs: named, with where folders go (not EISDIR).
    const folder = await sendFailure(send({ url: peer.url, method: 'a.B/C', grpc: { protoFiles: ['test/fixtures/grpc'] } }));
    expect(folder.message).toBe('grpc.protoFiles test/fixtures/grpc is a folder, not a .proto file: list the .proto files in grpc.protoFiles; folders to look up imports in go in grpc.importPaths.');
    for (const error of [method, field, typed, broken, outside, folder]) expect(error.message).not.toContain('\n');
  });

  it('protoFiles are relative to the workspace folder or absolute (2.8); one outside the folder only when files outside are allowed', async () => {
    const say = { url: peer.url, method: 'ferry.test.Echo/Say', body: { type: 'json', text: '{"text":"abs"}' } };
    const request = (file: string) => requestSchema.parse({ name: 'g', kind: 'grpc', settings: { timeoutMs: 5000 }, ...say, grpc: { protoFiles: [file] } });
    // Absolute, inside the workspace folder (the tests' workspace is the repository).
    const inside = await sendWith(grpcKind, request(path.resolve('test/fixtures/grpc/echo.proto')));
    expect(json(inside)).toMatchObject({ text: 'hello abs' });
    // Absolute, outside it: refused, then read once allowed.
    const elsewhere = await tempDir();
    await fs.cp('test/fixtures/grpc', elsewhere, { recursive: true }); // echo.proto and what it imports
    const outsideFile = path.join(elsewhere, 'echo.proto');
    expect((await sendFailure(sendWith(grpcKind, request(outsideFile)))).message).toBe(
      `grpc.protoFiles ${outsideFile} lies outside the workspace folder; Ferry reads such files only when allowed (ferry run --allow-files-outside, or the setting filesOutsideWorkspace).`,
    );
    expect(json(await sendWith(grpcKind, request(outsideFile), undefined, { allowFilesOutside: true }))).toMatchObject({ text: 'hello abs' });
  });

  it('an import found nowhere is named with the file importing it and the folders searched, before compiling (no Node warning, no one guessed path)', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'protos', 'inc'), { recursive: true });
    await fs.writeFile(path.join(root, 'protos', 'a.proto'), 'syntax = "proto3";\npackage a;\nimport "other.proto";\nimport "google/protobuf/empty.proto";\nservice S { rpc M (a.O) returns (a.O); }\n');
    await fs.writeFile(path.join(root, 'protos', 'inc', 'other.proto'), 'syntax = "proto3";\npackage a;\nimport "deeper/gone.proto";\nmessage O { string y = 1; }\n');
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'a.S/M', grpc: { protoFiles: ['protos/a.proto'], importPaths: ['protos/inc'] }, settings: { timeoutMs: 5000 } });
      const error = await sendFailure(sendWith(grpcKind, request, undefined, { workspaceRoot: root }));
      expect(error.message).toBe('the import "deeper/gone.proto" in protos/inc/other.proto was found in none of protos/, protos/inc/ (the proto files\' folders, then grpc.importPaths); add the folder that holds deeper/gone.proto to grpc.importPaths.');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('proto files importing each other in a cycle (or themselves) are refused naming the cycle, as protoc refuses them (protobufjs compiled them)', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'protos', 'inc'), { recursive: true });
    await fs.writeFile(path.join(root, 'protos', 'a.proto'), 'syntax = "proto3";\npackage c;\nimport "inc/b.proto";\nservice S { rpc M (A) returns (B); }\nmessage A { string x = 1; }\n');
    await fs.writeFile(path.join(root, 'protos', 'inc', 'b.proto'), 'syntax = "proto3";\npackage c;\nimport "a.proto";\nmessage B { A a = 1; }\n');
    await fs.writeFile(path.join(root, 'protos', 'self.proto'), 'syntax = "proto3";\npackage c;\nimport "self.proto";\nmessage C { string x = 1; }\n');
    // Reached twice without a cycle (a diamond) is fine.
    await fs.writeFile(path.join(root, 'protos', 'top.proto'), 'syntax = "proto3";\npackage d;\nimport "left.proto";\nimport "right.proto";\nservice S { rpc M (L) returns (R); }\n');
    await fs.writeFile(path.join(root, 'protos', 'left.proto'), 'syntax = "proto3";\npackage d;\nimport "base.proto";\nmessage L { Base b = 1; }\n');
    await fs.writeFile(path.join(root, 'protos', 'right.proto'), 'syntax = "proto3";\npackage d;\nimport "base.proto";\nmessage R { Base b = 1; }\n');
    await fs.writeFile(path.join(root, 'protos', 'base.proto'), 'syntax = "proto3";\npackage d;\nmessage Base { string x = 1; }\n');
    const sendFile = (file: string, method = 'c.S/M') => sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method, grpc: { protoFiles: [file], importPaths: ['protos'] }, settings: { timeoutMs: 5000 } }), undefined, { workspaceRoot: root });
    expect((await sendFailure(sendFile('protos/a.proto'))).message).toBe('the proto files import each other in a cycle (protos/a.proto → protos/inc/b.proto → protos/a.proto), which protoc refuses too; move what they share into a file each of them imports.');
    expect((await sendFailure(sendFile('protos/self.proto'))).message).toBe('the proto files import each other in a cycle (protos/self.proto → protos/self.proto), which protoc refuses too; move what they share into a file each of them imports.');
    // The diamond compiles; the test peer has no d.S, so the call itself is the server's UNIMPLEMENTED.
    expect((await sendFile('protos/top.proto', 'd.S/M')).outcome).toMatchObject({ status: 12 });
  });

  it('a proto file using a type defined nowhere fails the request naming the file (protobufjs threw it uncaught, ending the process, and the send never settled)', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ok.proto'), 'syntax = "proto3";\npackage u;\nmessage Fine { string x = 1; }\n');
    await fs.writeFile(path.join(root, 'typo.proto'), 'syntax = "proto3";\npackage u;\nmessage A { Nope x = 1; }\nservice S { rpc M (A) returns (A); }\n');
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'u.S/M', grpc: { protoFiles: ['ok.proto', 'typo.proto'] }, settings: { timeoutMs: 5000 } });
    const uncaught: Error[] = [];
    const onUncaught = (error: Error) => uncaught.push(error);
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      const error = await Promise.race([sendFailure(sendWith(grpcKind, request, undefined, { workspaceRoot: root })), new Promise<Error>((resolve) => setTimeout(() => resolve(new Error('the send never settled')), 3000))]);
      expect(error.message).toBe("the proto files do not compile: typo.proto: no such Type or Enum 'Nope' in Type .u.A.");
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
  });

  it('field numbers protoc refuses are refused, naming the field (protobufjs compiled 0, 99999999999 and 19000, and sent tags no server reads)', async () => {
    const root = await tempDir();
    const sendProto = async (fields: string) => {
      await fs.writeFile(path.join(root, 'n.proto'), `syntax = "proto3";\npackage n;\nmessage A { ${fields} }\nservice S { rpc M (A) returns (A); }\n`);
      return sendFailure(sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'n.S/M', grpc: { protoFiles: ['n.proto'] }, settings: { timeoutMs: 5000 } }), undefined, { workspaceRoot: root }));
    };
    const rule = "which protoc refuses: field numbers run from 1 to 536870911, without 19000 to 19999 (protobuf's own); renumber the field.";
    expect((await sendProto('string x = 0;')).message).toBe(`the proto files give field x of n.A the number 0, ${rule}`);
    expect((await sendProto('string x = 1; int64 big = 99999999999;')).message).toBe(`the proto files give field big of n.A the number 99999999999, ${rule}`);
    expect((await sendProto('string x = 19000;')).message).toBe(`the proto files give field x of n.A the number 19000, ${rule}`);
    expect((await sendProto('string x = 1; message B { int32 y = 536870912; }')).message).toBe(`the proto files give field y of n.A.B the number 536870912, ${rule}`);
  });

  it('a named pipe, a device or a huge file as a proto file (or an import) is refused before it is read (a pipe blocked the send for ever)', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'protos'));
    const pipe = path.join(root, 'protos', 'pipe.proto');
    execFileSync('mkfifo', [pipe]);
    await fs.writeFile(path.join(root, 'protos', 'a.proto'), 'syntax = "proto3";\npackage a;\nimport "pipe.proto";\n');
    // Sparse: 40 MB long, nothing on disk.
    await fs.writeFile(path.join(root, 'protos', 'huge.proto'), '');
    await fs.truncate(path.join(root, 'protos', 'huge.proto'), 40 * 1024 * 1024);
    const sendFile = (file: string) => sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'a.S/M', grpc: { protoFiles: [file] }, settings: { timeoutMs: 5000 } }), undefined, { workspaceRoot: root, allowFilesOutside: true });
    try {
      const notRegular = 'is not a regular file (a named pipe, a device or a socket), so it is not read; list .proto files only.';
      expect((await sendFailure(sendFile('protos/pipe.proto'))).message).toBe(`grpc.protoFiles protos/pipe.proto ${notRegular}`);
      expect((await sendFailure(sendFile('protos/a.proto'))).message).toBe(`the import protos/pipe.proto of protos/a.proto ${notRegular}`);
      expect((await sendFailure(sendFile('/dev/zero'))).message).toBe(`grpc.protoFiles /dev/zero ${notRegular}`);
      expect((await sendFailure(sendFile('protos/huge.proto'))).message).toBe("grpc.protoFiles protos/huge.proto is 40 MB, past the 32 MB Ferry reads of one .proto file, so it is not read; check that it is one.");
    } finally {
      // A read stuck on the pipe (the bug) is let go, so the test run ends.
      const writer = await fs.open(pipe, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK).catch(() => undefined);
      await writer?.close();
    }
  }, 15_000);

  it('proto files and what they import stay inside the workspace, reached without links: refused before they are read', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'secret.proto'), 'TOP-SECRET-TOKEN\n');
    await fs.mkdir(path.join(root, 'protos'));
    const cases: Array<[string, string, RegExp]> = [
      ['absolute.proto', 'syntax = "proto3";\nimport "/etc/hostname";\n', /the import "\/etc\/hostname" in protos\/absolute\.proto lies outside the workspace folder/],
      ['relative.proto', `syntax = "proto3";\nimport public '${path.relative(path.join(root, 'protos'), path.join(outside, 'secret.proto'))}';\n`, /the import ".*secret\.proto" in protos\/relative\.proto lies outside the workspace folder/],
    ];
    // Written as protobufjs reads it but not as a plain `import "x";`: comments, adjacent strings, escapes.
    const secret = path.relative(path.join(root, 'protos'), path.join(outside, 'secret.proto'));
    const cut = secret.indexOf('secret');
    for (const [name, statement] of [
      ['comment.proto', `import /* weak */ "${secret}";`],
      ['line-comment.proto', `import // the shared types\n  public "${secret}";`],
      ['joined.proto', `import "${secret.slice(0, cut)}" 'secret.proto';`],
      // protobufjs drops an unknown escape: `\q` reads as nothing.
      ['escaped.proto', `import "${secret.slice(0, cut)}sec\\qret.proto";`],
    ] as const) {
      cases.push([name, `syntax = "proto3";\n${statement}\n`, new RegExp(`the import ".*secret\\.proto" in protos/${name.replace('.', '\\.')} lies outside the workspace folder`)]);
    }
    for (const [name, text] of cases) await fs.writeFile(path.join(root, 'protos', name), text);
    await fs.symlink(path.join(outside, 'secret.proto'), path.join(root, 'protos', 'link.proto'));
    await fs.writeFile(path.join(root, 'protos', 'via-link.proto'), 'syntax = "proto3";\nimport "link.proto";\n');
    cases.push(['link.proto', '', /grpc\.protoFiles protos\/link\.proto cannot be used: protos\/link\.proto is a symbolic link/]);
    cases.push(['via-link.proto', '', /the import "link\.proto" in protos\/via-link\.proto cannot be used: protos\/link\.proto is a symbolic link/]);
    for (const [name, , message] of cases) {
      const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: peer.url, method: 'a.B/C', grpc: { protoFiles: [`protos/${name}`] }, settings: { timeoutMs: 5000 } });
      const error = await sendFailure(sendWith(grpcKind, request, undefined, { workspaceRoot: root }));
      expect(error.message, name).toMatch(message);
      expect(error.message).not.toContain('TOP-SECRET-TOKEN');
      expect(error.message).not.toContain('illegal token');
    }
  });
});

describe('gRPC well-known types in their proto3 JSON forms (as grpcurl and Postman write them)', () => {
  const WKT = { protoFiles: ['test/fixtures/grpc/wkt.proto'] };
  let server: grpc.Server;
  let url = '';
  /** What the server decoded, in protobufjs's message forms. */
  let got: Record<string, unknown> = {};
  beforeAll(async () => {
    const definition = protoLoader.loadSync(path.resolve('test/fixtures/grpc/wkt.proto'), { longs: String, enums: String, oneofs: true });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { wkt: { Types: grpc.ServiceClientConstructor } } };
    server = new grpc.Server();
    server.addService(loaded.ferry.wkt.Types.service, {
      Echo: (call: grpc.ServerUnaryCall<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        got = call.request;
        callback(null, call.request);
      },
    });
    new ReflectionService(definition).addToServer(server);
    const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
    url = `grpc://127.0.0.1:${port}`;
  });
  afterAll(() => server?.forceShutdown());

  const message = {
    when: '2024-01-02T03:04:05.5Z',
    took: '-1.25s',
    meta: { name: 'ann', n: 2, ok: true, none: null, list: [1, 'two', { three: 3 }] },
    maybe: 5,
    label: 'x',
    anyValue: [1, { a: 'b' }],
    history: ['1970-01-01T00:00:00Z', '2024-01-02T03:04:05.000000001+01:00'],
    laps: { first: '90s' },
    counts: { a: 1, b: 2 },
    // An Any is its type URL under "@type" and the packed message's fields (a well-known type's under "value"), as grpcurl writes it.
    detail: { '@type': 'type.googleapis.com/ferry.wkt.Note', text: 'hi', at: '2024-01-02T03:04:05Z' },
    details: [{ '@type': 'type.googleapis.com/google.protobuf.Duration', value: '1.500s' }],
    // proto3 JSON writes a double's NaN and infinities as strings, both ways.
    ratio: 'NaN',
  };

  for (const [how, grpcOptions] of [['proto files', WKT], ['reflection', {}]] as const) {
    it(`are sent and shown so (${how})`, async () => {
      const result = await send({ url, method: 'ferry.wkt.Types/Echo', grpc: grpcOptions, body: { type: 'json', text: JSON.stringify(message) } });
      expect(result.outcome.status).toBe(0);
      expect(got.when).toEqual({ seconds: '1704164645', nanos: 500_000_000 });
      expect(got.took).toEqual({ seconds: '-1', nanos: -250_000_000 });
      expect(got.maybe).toEqual({ value: 5 });
      expect(json(result)).toEqual({
        when: '2024-01-02T03:04:05.500Z',
        took: '-1.250s',
        meta: message.meta,
        maybe: 5,
        label: 'x',
        anyValue: [1, { a: 'b' }],
        history: ['1970-01-01T00:00:00Z', '2024-01-02T02:04:05.000000001Z'],
        // A map is a JSON object both ways, as grpcurl shows it, whichever the descriptors came from.
        laps: { first: '90s' },
        counts: { a: 1, b: 2 },
        detail: message.detail,
        details: message.details,
        ratio: 'NaN',
      });
      expect(got.ratio).toBeNaN();
      // The server got the Note packed (protobufjs names the field type_url).
      expect((got.detail as { type_url?: string }).type_url).toBe('type.googleapis.com/ferry.wkt.Note');
    });
  }

  it('the message forms still work; a value of neither form is named', async () => {
    const result = await send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"when":{"seconds":"60"},"maybe":{"value":7}}' } });
    expect(json(result)).toMatchObject({ when: '1970-01-01T00:01:00Z', maybe: 7 });
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"when":"yesterday"}' } })).rejects.toThrow(
      'the message field when is a timestamp (RFC 3339, such as "2024-01-02T03:04:05.5Z"), not "yesterday".',
    );
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"took":"90"}' } })).rejects.toThrow('field took is a duration');
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"meta":[1]}' } })).rejects.toThrow('field meta is a JSON object (google.protobuf.Struct)');
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"maybe":"five"}' } })).rejects.toThrow('field maybe.value is a number (int32)');
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"detail":{"@type":"type.googleapis.com/ferry.wkt.Nope","x":1}}' } })).rejects.toThrow(
      'the message field detail is an Any of type ferry.wkt.Nope, which the proto files (or reflection) do not define; list the .proto file that defines it in grpc.protoFiles.',
    );
    await expect(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: '{"detail":{"@type":"type.googleapis.com/ferry.wkt.Note","txt":"hi"}}' } })).rejects.toThrow(
      'has a field "detail.txt" that Note does not have; its fields are: text, at.',
    );
  });

  it('a message nested past protobuf\'s depth fails with one line (a Struct 5,000 deep overflowed the stack: a RangeError, not a message)', async () => {
    const nested = (depth: number) => `{"meta":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    for (const depth of [5000, 200_000]) {
      const error = await sendFailure(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: nested(depth) } }));
      expect(error.message).toBe("the message nests JSON deeper than 200 levels; a protobuf message nests at most 100 deep (protoc's limit, and protobufjs's), so it cannot be sent.");
    }
    // Just under the JSON limit, protobufjs's own limit names it.
    expect((await sendFailure(send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: nested(198) } }))).message).toBe('the message does not fit Stamped: maximum nesting depth exceeded.');
  });

  it('bytes are base64, standard or URL-safe as proto3 JSON has them; anything else is named (protobufjs refused URL-safe, naming no field)', async () => {
    const bytes = (value: string) => send({ url, method: 'ferry.wkt.Types/Echo', grpc: WKT, body: { type: 'json', text: JSON.stringify({ detail: { '@type': 'type.googleapis.com/google.protobuf.BytesValue', value } }) } });
    // 0xfb 0xff: "+/8" in standard base64, "-_8" URL-safe.
    for (const written of ['+/8=', '-_8', ' +/8 ']) expect(json(await bytes(written)).detail).toEqual({ '@type': 'type.googleapis.com/google.protobuf.BytesValue', value: '+/8=' });
    await expect(bytes('not base64!!')).rejects.toThrow('the message field detail.value.value is bytes written as base64 (letters, digits, + and / or - and _, then up to two =), not "not base64!!".');
  });
});

describe('gRPC auth signing', () => {
  // A grpc-js server that checks the signature of every call it gets (its own methods and server
  // reflection's) over what it received: the method (POST), the HTTP/2 path of the call, its
  // :authority and its metadata. Recomputed here by each scheme's specification with node:crypto,
  // never with the library Ferry signs with.
  let server: grpc.Server;
  let port = 0;
  const verdicts: string[] = [];
  const hawkNonces = new Set<string>();
  const AWS = { accessKey: 'AKIDEXAMPLE', secretKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', region: 'eu-west-1', service: 'grpcsvc' };
  const HAWK = { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256' };
  const OAUTH1 = { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts' };
  const hmac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text).digest();
  function awsCheck(path: string, metadata: grpc.Metadata, authority: string): boolean {
    const header = String(metadata.get('authorization')[0] ?? '');
    const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(header);
    if (!m) return false;
    const [, , date, region, service, signedHeaders, signature] = m as unknown as string[];
    const value = (name: string) => (name === 'host' ? authority : String(metadata.get(name)[0] ?? '').trim());
    const names = signedHeaders!.split(';');
    const canonical = ['POST', path, '', ...names.map((n) => `${n}:${value(n)}`), '', signedHeaders, value('x-amz-content-sha256')].join('\n');
    const amzDate = value('x-amz-date');
    const scope = `${date}/${region}/${service}/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${AWS.secretKey}`, date!), region!), service!), 'aws4_request');
    return names.includes('host') && createHmac('sha256', key).update(toSign).digest('hex') === signature;
  }
  /** The call's signature checked as a server checks it: over the path and the :authority it got. */
  function signatureOk(path: string, authority: string, metadata: grpc.Metadata): boolean {
    const auth = String(metadata.get('authorization')[0] ?? '');
    const received = { method: 'POST', target: path, host: authority, headers: { authorization: auth }, body: Buffer.alloc(0) };
    if (auth.startsWith('Hawk ')) {
      // A nonce seen before is a replay, as Hawk servers refuse it: each call needs its own.
      const { ok, attributes } = hawkCheck(received, Number(authority.split(':').at(-1)), { key: 'hawk-key', algorithm: 'sha256' });
      if (hawkNonces.has(attributes.nonce!)) return false;
      hawkNonces.add(attributes.nonce!);
      return ok;
    }
    if (auth.startsWith('OAuth ')) return oauth1Check(received, { consumerSecret: 'cs', tokenSecret: 'ts' }).ok;
    return awsCheck(path, metadata, authority);
  }
  // Every call, reflection's too, passes this gate first: a bad signature ends it UNAUTHENTICATED.
  const gate: grpc.ServerInterceptor = (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, pass) => {
            const ok = signatureOk(method.path, call.getHost(), metadata);
            verdicts.push(`${String(metadata.get('authorization')[0] ?? '').split(' ')[0]} ${method.path} ${ok}`);
            if (ok) pass(metadata);
            else call.sendStatus({ code: grpc.status.UNAUTHENTICATED, details: `bad signature for ${method.path} (authority ${call.getHost()})` });
          },
        }),
    });
  beforeAll(async () => {
    const definition = protoLoader.loadSync(path.resolve('test/fixtures/grpc/echo.proto'), { includeDirs: [path.resolve('test/fixtures/grpc')] });
    const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
    server = new grpc.Server({ interceptors: [gate] });
    server.addService(loaded.ferry.test.Echo.service, {
      Say: (_call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => callback(null, { text: 'signed' }),
    });
    new ReflectionService(definition).addToServer(server);
    port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
  });
  afterAll(() => server.forceShutdown());

  for (const [name, auth] of [['Hawk', HAWK], ['AWS Signature v4', { type: 'awsv4', ...AWS }], ['OAuth 1.0', OAUTH1]] as const) {
    it(`signs each call of a send for its own path with ${name}: server reflection's calls, then the method's`, async () => {
      verdicts.length = 0;
      const result = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', auth, body: { type: 'json', text: '{"text":"r"}' } });
      expect(result.outcome.label).toBe('0 OK');
      expect(json(result).text).toBe('signed');
      expect(verdicts.filter((v) => !v.endsWith(' true'))).toEqual([]);
      const paths = new Set(verdicts.map((v) => v.split(' ')[1]));
      expect(paths).toEqual(new Set(['/grpc.reflection.v1.ServerReflection/ServerReflectionInfo', '/ferry.test.Echo/Say']));
    });
  }

  it("lists the server's methods by reflection (the app's picker) with each call signed for reflection's path", async () => {
    verdicts.length = 0;
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: `grpc://127.0.0.1:${port}`, method: '', auth: HAWK, settings: { timeoutMs: 5000 } });
    const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: grpcKind, purpose: 'describe' });
    const agents = new HttpAgents();
    try {
      const catalog = await grpcKind.describe!(prepared, { agents, maxResponseMb: 50, workspaceRoot: process.cwd(), allowFilesOutside: false });
      expect(catalog.entries.map((e) => e.name)).toContain('ferry.test.Echo/Say');
    } finally {
      await agents.close();
    }
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((v) => v !== 'Hawk /grpc.reflection.v1.ServerReflection/ServerReflectionInfo true')).toEqual([]);
  });

  it('signs a call to a URL without a port for the :authority grpc-js sends with it (host:80), by AWS v4, Hawk and OAuth 1.0; a port typed as 80 too', async () => {
    // A CONNECT proxy (Ferry's proxy setting) carries calls to signed.example:80 to this server,
    // which gets the :authority as the client sent it.
    const asked: string[] = [];
    const sockets = new Set<net.Socket>();
    const proxy = http.createServer();
    proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
      asked.push(req.url ?? '');
      const upstream = net.connect(port, '127.0.0.1', () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket).pipe(upstream);
      });
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('error', () => [socket, upstream].forEach((end) => end.destroy()));
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      for (const url of ['grpc://signed.example', 'grpc://signed.example:80']) {
        for (const auth of [{ type: 'awsv4', ...AWS }, HAWK, OAUTH1]) {
          verdicts.length = 0;
          const result = await send({ url, method: 'ferry.test.Echo/Say', grpc: PROTO, auth, body: { type: 'json', text: '{}' } }, undefined, new HttpAgents({ proxy: { http: proxyUrl, https: proxyUrl, noProxy: [] } }));
          expect(result.outcome.label, `${url} ${auth.type}`).toBe('0 OK');
          expect(verdicts).toEqual([`${auth.type === 'hawk' ? 'Hawk' : auth.type === 'oauth1' ? 'OAuth' : 'AWS4-HMAC-SHA256'} /ferry.test.Echo/Say true`]);
        }
      }
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
    expect(new Set(asked)).toEqual(new Set(['signed.example:80']));
  });

  it('signs a call with Hawk over POST and the path the server gets (/package.Service/Method), which the server accepts', async () => {
    const result = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, auth: { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256' } });
    expect(result.outcome.ok).toBe(true);
    expect(verdicts.pop()).toBe('Hawk /ferry.test.Echo/Say true');
    // Written as package.Service.Method too: the path signed is still the call's.
    const dotted = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo.Say', grpc: PROTO, auth: { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256' } });
    expect(dotted.outcome.ok).toBe(true);
    // A method written by its lowerCamelCase name is called at the proto's path, and signed for that path.
    verdicts.length = 0;
    const camel = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/say', grpc: PROTO, auth: { type: 'hawk', authId: 'id', authKey: 'hawk-key', algorithm: 'sha256' } });
    expect(camel.outcome.label).toBe('0 OK');
    expect(verdicts).toEqual(['Hawk /ferry.test.Echo/Say true']);
  });

  it('signs a call with AWS Signature v4 over POST, the call path and the host the server gets', async () => {
    const result = await send({
      url: `grpc://127.0.0.1:${port}`,
      method: 'ferry.test.Echo/Say',
      grpc: PROTO,
      // The message goes as protobuf frames, not as the JSON written: its hash is left out of the signature.
      headers: [{ key: 'X-Amz-Content-Sha256', value: 'UNSIGNED-PAYLOAD' }],
      auth: { type: 'awsv4', ...AWS },
    });
    expect(result.outcome.ok).toBe(true);
    expect(verdicts.pop()).toBe('AWS4-HMAC-SHA256 /ferry.test.Echo/Say true');
  });

  it("signs a call with a JSON message by AWS v4 as sent: no body Content-Type (gRPC sends its own), UNSIGNED-PAYLOAD for the protobuf frames", async () => {
    const result = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, auth: { type: 'awsv4', ...AWS }, body: { type: 'json', text: '{"text":"aws"}' } });
    expect(result.outcome.ok).toBe(true);
    expect(verdicts.pop()).toBe('AWS4-HMAC-SHA256 /ferry.test.Echo/Say true');
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', auth: { type: 'awsv4', ...AWS }, body: { type: 'json', text: '{}' } });
    const prepared = await prepareRequest({ request, folders: [], workspace: { root: process.cwd(), file: workspaceSchema.parse({ version: 1 }) } }, { kind: grpcKind });
    expect(prepared.headers.find((h) => h.name.toLowerCase() === 'content-type')).toBeUndefined();
    expect(prepared.headers).toContainEqual({ name: 'X-Amz-Content-Sha256', value: 'UNSIGNED-PAYLOAD' });
  });

  it('signs a call with OAuth 1.0 (HMAC-SHA1) over POST and the call path the server gets', async () => {
    const result = await send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', token: 'tk', tokenSecret: 'ts' }, body: { type: 'json', text: '{"text":"o"}' } });
    expect(result.outcome.ok).toBe(true);
    expect(verdicts.pop()).toBe('OAuth /ferry.test.Echo/Say true');
  });

  it('refuses the body hashes of OAuth 1.0 and EdgeGrid on a call, whose bytes are made when sending, saying what to do', async () => {
    const call = { url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' } };
    await expect(send({ ...call, auth: { type: 'oauth1', consumerKey: 'ck', consumerSecret: 'cs', includeBodyHash: true } })).rejects.toThrow(
      'OAuth 1.0: includeBodyHash cannot hash the body of a gRPC request (the message is encoded when sending); turn includeBodyHash off for this request.',
    );
    await expect(send({ ...call, auth: { type: 'edgegrid', clientToken: 'c', clientSecret: 's', accessToken: 'a' } })).rejects.toThrow(
      'Akamai EdgeGrid: the body of a gRPC request cannot be signed (the message is encoded when sending, and EdgeGrid hashes POST bodies); use another auth type for it.',
    );
  });

  it("refuses Hawk's payload hash on a call, whose bytes are made when sending, saying what to do", async () => {
    await expect(send({ url: `grpc://127.0.0.1:${port}`, method: 'ferry.test.Echo/Say', grpc: PROTO, auth: { type: 'hawk', authId: 'id', authKey: 'hawk-key', includePayloadHash: true }, body: { type: 'json', text: '{}' } })).rejects.toThrow(
      'Hawk: includePayloadHash cannot hash the body of a gRPC request (the message is encoded when sending); turn it off for this request.',
    );
  });
});
