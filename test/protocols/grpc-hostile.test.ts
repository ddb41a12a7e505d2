/**
 * gRPC requests against hostile peers: a raw HTTP/2 server on 127.0.0.1 (node:http2) answering
 * each call with bytes no grpc-js server would send — a message that is not protobuf, a frame
 * cut short, a compressed flag without an encoding, an answer that is not gRPC at all. Each must
 * end in one line or a status, never a crash or a pass.
 */
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { sendWith } from './kind-cases.js';

const grpcKind = requestKind('grpc');
const PROTO = { protoFiles: ['test/fixtures/grpc/echo.proto'] };

/** A gRPC message frame: the compressed flag, the length (as said, or the payload's), the payload. */
function frame(payload: Buffer, compressed = 0, said = payload.length): Buffer {
  const head = Buffer.alloc(5);
  head[0] = compressed;
  head.writeUInt32BE(said, 1);
  return Buffer.concat([head, payload]);
}

/** SayReply { text: "hi" } as protobuf. */
const HI = Buffer.from([0x0a, 0x02, 0x68, 0x69]);

/** Answers with gRPC's headers, `body`, then the trailers of status `status`. */
function grpcAnswer(body: Buffer, status = '0') {
  return (stream: http2.ServerHttp2Stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': status }));
    stream.end(body);
  };
}

const servers: http2.Http2Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function peer(answer: (stream: http2.ServerHttp2Stream) => void): Promise<string> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('error', () => {});
    answer(stream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `grpc://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function say(url: string): Promise<ProtocolResult> {
  return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{"text":"x"}' }, settings: { timeoutMs: 3000 } }));
}

describe('gRPC: hostile peers', () => {
  it('a message marked compressed without a grpc-encoding is status 13 INTERNAL saying so (grpc-js gave a status without code or details, and the run crashed on it)', async () => {
    const result = await say(await peer(grpcAnswer(frame(HI, 1))));
    expect(result.outcome).toMatchObject({ status: 13, text: 'INTERNAL', ok: false });
    expect(result.outcome.label).toBe("13 INTERNAL: the server's message is marked compressed and could not be decompressed");
  });

  it('a gzip-compressed answer (grpc-encoding: gzip) is read; one that inflates past maxResponseMb fails the request as past the limit, not as a RESOURCE_EXHAUSTED the server never sent', async () => {
    // grpc-js's server never compresses its answers, so the compressing server is node:http2's.
    const gzipped = (message: Buffer) => (stream: http2.ServerHttp2Stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-encoding': 'gzip' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(frame(zlib.gzipSync(message), 1));
    };
    const read = await say(await peer(gzipped(HI)));
    expect(read.outcome).toMatchObject({ status: 0, ok: true });
    expect(JSON.parse(Buffer.from(read.body).toString())).toMatchObject({ text: 'hi' });
    // SayReply { text: 2 MB of "a" }: some 2 KB gzipped.
    const text = Buffer.alloc(2 * 1024 * 1024, 'a');
    const bomb = Buffer.concat([Buffer.from([0x0a, 0x80, 0x80, 0x80, 0x01]), text]);
    const url = await peer(gzipped(bomb));
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Say', grpc: PROTO, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3000 } });
    const error = await sendWith(grpcKind, request, undefined, { maxResponseMb: 1 }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).kind).toBe('tooLarge');
    expect((error as SendError).message).toBe('a message of the answer, once decompressed (the server compressed it), is larger than 1 MB (maxResponseMb), so Ferry stopped decompressing it; raise the limit with ferry config set maxResponseMb N, or 0 for no limit.');
  });

  it('status OK without a message (none sent, or a frame cut short) is not an empty answer that passes: 13 INTERNAL, as grpc-js and grpcurl have it', async () => {
    for (const body of [Buffer.alloc(0), frame(HI, 0, 100)]) {
      const result = await say(await peer(grpcAnswer(body)));
      expect(result.outcome).toMatchObject({ status: 13, text: 'INTERNAL', ok: false });
      expect(result.outcome.label).toBe('13 INTERNAL: the server ended the call with status OK but sent no whole message; a unary or client-streaming call answers with exactly one');
    }
  });

  it('an answer that is not gRPC (HTTP 200, text/plain) is named so, not as a message past maxResponseMb (its text read as a length); with its HTTP status when its head ends it, as grpc-js gives that status only at the end', async () => {
    const url = await peer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'text/plain' });
      stream.end('hello');
    });
    const error = await say(url).then(() => undefined, (e: Error) => e);
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe(`${url.slice('grpc://'.length)} answered with Content-Type text/plain, not application/grpc: is it a gRPC server, and the port right?`);
    const page = await peer((stream) => {
      stream.respond({ ':status': 502, 'content-type': 'text/html' });
      stream.end('<h1>Bad gateway</h1>');
    });
    const gateway = await say(page).then(() => undefined, (e: Error) => e);
    // Ended at its head (a page may never end), before grpc-js reads the HTTP status.
    expect(gateway!.message).toBe(`${page.slice('grpc://'.length)} answered with Content-Type text/html, not application/grpc: is it a gRPC server, and the port right?`);
    const headOnly = await peer((stream) => stream.respond({ ':status': 502, 'content-type': 'text/html' }, { endStream: true }));
    const bare = await say(headOnly).then(() => undefined, (e: Error) => e);
    expect(bare!.message).toBe(`${headOnly.slice('grpc://'.length)} answered HTTP 502 with Content-Type text/html, not application/grpc: is it a gRPC server, and the port right?`);
  });

  it('an answer whose head is not gRPC (200, text/html) and whose body never ends fails the send at its head, with the same words and the stream closed; by reflection too (it waited for the deadline, forever without one)', async () => {
    const streams: http2.ServerHttp2Stream[] = [];
    // A page that is never finished: the head, a few bytes (fewer than a frame's prefix), then nothing.
    const url = await peer((stream) => {
      streams.push(stream);
      stream.respond({ ':status': 200, 'content-type': 'text/html; charset=utf-8' });
      stream.write('<!');
    });
    const words = `${url.slice('grpc://'.length)} answered with Content-Type text/html; charset=utf-8, not application/grpc: is it a gRPC server, and the port right?`;
    // No time limit (timeoutMs 0): a send waiting for the body's end would fail the test by its own timeout.
    for (const [method, grpc, body] of [
      ['ferry.test.Echo/Say', PROTO, '{"text":"x"}'],
      ['ferry.test.Echo/Count', PROTO, '{"count":1}'],
      ['ferry.test.Echo/Collect', PROTO, '[{"text":"x"}]'],
      ['ferry.test.Echo/Say', undefined, '{"text":"x"}'],
    ] as const) {
      const request = requestSchema.parse({ name: 'g', kind: 'grpc', url, method, ...(grpc ? { grpc } : {}), body: { type: 'json', text: body }, settings: { timeoutMs: 0 } });
      const error = await sendWith(grpcKind, request).then(() => undefined, (e: unknown) => e);
      expect(error, `${method}${grpc ? '' : ' by reflection'}`).toBeInstanceOf(SendError);
      expect((error as SendError).message).toBe(words);
      expect((error as SendError).kind).toBe('protocol');
    }
    // The server sees each call's stream closed (the client cancelled it), none left open.
    expect(streams).toHaveLength(4);
    await expect.poll(() => streams.filter((stream) => !stream.closed).length).toBe(0);
  });

  it('rich error details that are not well-formed protobuf are not shown (protobufjs showed a field sent as a varint as an empty string); the trailer stays, as base64', async () => {
    // Status { code 3, details [Any { BadRequest { fieldViolations [{ field (1) as a varint }] } }] }.
    const badRequest = Buffer.from([0x0a, 0x02, 0x08, 0x00]);
    const url = Buffer.from('type.googleapis.com/google.rpc.BadRequest');
    const any = Buffer.concat([Buffer.from([0x0a, url.length]), url, Buffer.from([0x12, badRequest.length]), badRequest]);
    const status = Buffer.concat([Buffer.from([0x08, 0x03, 0x1a, any.length]), any]);
    const result = await say(
      await peer((stream) => {
        stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
        stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '3', 'grpc-message': 'bad', 'grpc-status-details-bin': status.toString('base64') }));
        stream.end();
      }),
    );
    expect(result.outcome).toMatchObject({ status: 3, text: 'INVALID_ARGUMENT', rule: 'a gRPC request without tests fails unless its status is 0 OK' });
    expect(result.detail?.statusDetails).toBeUndefined();
    expect(result.trailers).toEqual([['grpc-status-details-bin', status.toString('base64')]]);
  });

  it('a grpc-status that is not a number is 2 UNKNOWN saying so (it was status NaN, UNKNOWN_NaN, null in the JSON report)', async () => {
    const url = await peer((stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': 'abc' }, { endStream: true }));
    const result = await say(url);
    expect(result.outcome).toMatchObject({ status: 2, text: 'UNKNOWN', ok: false });
    expect(result.outcome.label).toBe("2 UNKNOWN: the server's grpc-status is not a status code");
  });
});

/** Stamped (wkt.proto) by Types/Echo: its messages nest (an Any in field 10). */
function stamped(url: string): Promise<ProtocolResult> {
  return sendWith(grpcKind, requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.wkt.Types/Echo', grpc: { protoFiles: ['test/fixtures/grpc/wkt.proto'] }, body: { type: 'json', text: '{}' }, settings: { timeoutMs: 3000 } }));
}

describe('gRPC: malformed messages fail the request naming the method and what was wrong', () => {
  const failed = (promise: Promise<unknown>) => promise.then(() => undefined, (e: Error) => e);

  it('a string whose length runs past the message', async () => {
    const error = await failed(say(await peer(grpcAnswer(frame(Buffer.from([0x0a, 0x10, 0x68, 0x69]))))));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('the answer of ferry.test.Echo/Say is not a valid SayReply message: field text (1) says it is 16 bytes long, but 2 bytes are left where it starts (byte 2); the server sent a malformed message.');
  });

  it('a string whose length runs past the nested message it is in, though not past the whole (protobufjs read on past the nested end)', async () => {
    // Stamped.detail (10) is 3 bytes long; its type_url (1) says 5.
    const error = await failed(stamped(await peer(grpcAnswer(frame(Buffer.from([0x52, 0x03, 0x0a, 0x05, 0x61, 0x62, 0x63, 0x64, 0x65]))))));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('the answer of ferry.wkt.Types/Echo is not a valid Stamped message: field detail.type_url (10.1) says it is 5 bytes long, but 1 byte is left where it starts (byte 4); the server sent a malformed message.');
  });

  it('a message packed in an Any is checked as the type its URL names (protobufjs read it as leniently)', async () => {
    // Stamped.detail (10): type_url (1) ferry.wkt.Note, value (2) a Note whose text (1) came as a varint.
    const url = Buffer.from('type.googleapis.com/ferry.wkt.Note');
    const any = Buffer.concat([Buffer.from([0x0a, url.length]), url, Buffer.from([0x12, 0x02, 0x08, 0x00])]);
    const error = await failed(stamped(await peer(grpcAnswer(frame(Buffer.concat([Buffer.from([0x52, any.length]), any]))))));
    expect(error?.message).toBe('the answer of ferry.wkt.Types/Echo is not a valid Stamped message: field detail.value.text (10.2.1) is a string but came as a varint (wire type 0); the server sent a malformed message.');
  });

  it('a field sent with the wrong wire type, a varint cut short, a wire type that does not exist, field number 0', async () => {
    const cases: Array<[number[], string]> = [
      [[0x08, 0x00], 'field text (1) is a string but came as a varint (wire type 0)'],
      [[0x20, 0x80], 'field index (4) is a varint cut short at the end of the message (byte 1)'],
      [[0x0f, 0x00], 'field text (1) has wire type 7, which protobuf does not have (byte 0)'],
      [[0x00, 0x00], 'a field numbered 0 (byte 0), which protobuf does not allow'],
    ];
    for (const [bytes, why] of cases) {
      const error = await failed(say(await peer(grpcAnswer(frame(Buffer.from(bytes))))));
      expect(error?.message).toBe(`the answer of ferry.test.Echo/Say is not a valid SayReply message: ${why}; the server sent a malformed message.`);
    }
  });

  it('a proto3 string that is not valid UTF-8 (protobufjs read it as "h\uFFFD(", as protoc\'s parsers and grpc-go refuse it)', async () => {
    const error = await failed(say(await peer(grpcAnswer(frame(Buffer.from([0x0a, 0x03, 0x68, 0xc3, 0x28]))))));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('the answer of ferry.test.Echo/Say is not a valid SayReply message: field text (1) is a string that is not valid UTF-8 (3 bytes from byte 2), which a proto3 string must be; the server sent a malformed message.');
  });

  it('a malformed message of a stream names which one it was', async () => {
    const url = await peer(grpcAnswer(Buffer.concat([frame(HI), frame(Buffer.from([0x0a, 0x05, 0x68]))])));
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Count', grpc: PROTO, body: { type: 'json', text: '{"count":2}' }, settings: { timeoutMs: 3000 } });
    const error = await failed(sendWith(grpcKind, request));
    expect(error!.message).toMatch(/^message 2 of the answer of ferry\.test\.Echo\/Count is not a valid SayReply message: field text \(1\) says it is 5 bytes long/);
  });
});

describe('gRPC: a unary call answered with more than one message', () => {
  const failed = (promise: Promise<unknown>) => promise.then(() => undefined, (e: Error) => e);

  it('fails at once, naming the method, whether the server then ends the call or keeps it open (it waited for the deadline)', async () => {
    const open = (stream: http2.ServerHttp2Stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(Buffer.concat([frame(HI), frame(HI)]));
    };
    const apart = (stream: http2.ServerHttp2Stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(frame(HI));
      setTimeout(() => stream.write(frame(HI)), 50);
    };
    for (const answer of [grpcAnswer(Buffer.concat([frame(HI), frame(HI)])), open, apart]) {
      const error = await failed(say(await peer(answer)));
      expect(error).toBeInstanceOf(SendError);
      expect(error!.message).toBe('the server answered the unary call ferry.test.Echo/Say with more than one message; a unary call answers with exactly one, so the server broke the gRPC protocol.');
    }
  });
});

describe('gRPC: a client-streaming call answered with more than one message', () => {
  it('fails at once, naming the method', async () => {
    const url = await peer((stream) => {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' });
      stream.write(Buffer.concat([frame(HI), frame(HI)]));
    });
    const request = requestSchema.parse({ name: 'g', kind: 'grpc', url, method: 'ferry.test.Echo/Collect', grpc: PROTO, body: { type: 'json', text: '[{"text":"a"}]' }, settings: { timeoutMs: 3000 } });
    const error = await sendWith(grpcKind, request).then(() => undefined, (e: Error) => e);
    expect(error!.message).toBe('the server answered the client-streaming call ferry.test.Echo/Collect with more than one message; a client-streaming call answers with exactly one, so the server broke the gRPC protocol.');
  });
});
