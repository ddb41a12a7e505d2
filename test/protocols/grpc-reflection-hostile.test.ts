/**
 * Server reflection against hostile servers: a real @grpc/grpc-js server on 127.0.0.1 whose
 * reflection service answers by hand — files importing each other in a cycle, a chain of imports
 * without end, an import it does not have, no answer at all, bytes that are not a descriptor.
 * Each send ends promptly in an answer or one line, never a hang.
 */
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import descriptor from 'protobufjs/ext/descriptor/index.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { requestSchema } from '../../src/model/index.js';
import { requestKind, SendError, type ProtocolResult } from '../../src/protocols/index.js';
import { sendWith } from './kind-cases.js';

const REFLECTION = protoLoader.loadSync('node_modules/@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto', { keepCase: false, defaults: false });

interface FileSpec {
  dependency?: string[];
  /** The service and its messages. */
  service?: boolean;
}

/** A FileDescriptorProto of package `h`: the service h.Svc (Do: Req → Res) and its messages when `service`. */
function file(name: string, spec: FileSpec): Uint8Array {
  const { FileDescriptorProto } = descriptor as unknown as { FileDescriptorProto: { encode(m: object): { finish(): Uint8Array } } };
  return FileDescriptorProto.encode({
    name,
    package: 'h',
    dependency: spec.dependency ?? [],
    messageType: spec.service ? [{ name: 'Req', field: [{ name: 'text', number: 1, label: 1, type: 9, jsonName: 'text' }] }, { name: 'Res', field: [] }] : [],
    service: spec.service ? [{ name: 'Svc', method: [{ name: 'Do', inputType: '.h.Req', outputType: '.h.Res' }] }] : [],
    syntax: 'proto3',
  }).finish();
}

type Answer = Record<string, unknown> | 'end' | 'silence';

// The first send loads Ferry's gRPC client (call.js and what it imports, transformed for the
// tests) on first use: 624 ms alone against ~70 ms once loaded, so on a loaded machine the first
// test's "at once" (< 2 s) timed the loading. Loaded here, the calls' times are the calls'.
beforeAll(async () => {
  await import('../../src/protocols/grpc/call.js');
}, 60_000);

const servers: grpc.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.forceShutdown();
});

/** A server with h.Svc/Do and a reflection service answering each request with `answer(request)`; `asked` lists the files asked for. */
async function hostile(answer: (request: { fileByFilename?: string; fileContainingSymbol?: string; listServices?: string }) => Answer): Promise<{ url: string; asked: string[] }> {
  const server = new grpc.Server();
  const asked: string[] = [];
  const reflection = (REFLECTION['grpc.reflection.v1.ServerReflection'] as grpc.ServiceDefinition);
  server.addService(reflection, {
    ServerReflectionInfo: (call: grpc.ServerDuplexStream<Record<string, string>, unknown>) => {
      call.on('data', (request: Record<string, string>) => {
        if (request.fileByFilename) asked.push(request.fileByFilename);
        const reply = answer(request);
        if (reply === 'end') call.end();
        else if (reply !== 'silence') call.write(reply);
      });
      call.on('end', () => call.end());
      call.on('error', () => {});
    },
  });
  const identity = (b: Buffer) => b;
  server.addService({ Do: { path: '/h.Svc/Do', requestStream: false, responseStream: false, requestSerialize: identity, requestDeserialize: identity, responseSerialize: identity, responseDeserialize: identity, originalName: 'Do' } } as grpc.ServiceDefinition, {
    Do: (_call: unknown, callback: grpc.sendUnaryData<Buffer>) => callback(null, Buffer.alloc(0)),
  });
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))));
  servers.push(server);
  return { url: `grpc://127.0.0.1:${port}`, asked };
}

const list = { listServicesResponse: { service: [{ name: 'h.Svc' }] } };
const files = (...bytes: Uint8Array[]) => ({ fileDescriptorResponse: { fileDescriptorProto: bytes.map((b) => Buffer.from(b)) } });

function send(url: string, timeoutMs = 5000): Promise<ProtocolResult> {
  return sendWith(requestKind('grpc'), requestSchema.parse({ name: 'r', kind: 'grpc', url, method: 'h.Svc/Do', body: { type: 'json', text: '{"text": "x"}' }, settings: { timeoutMs } }));
}

const failed = (promise: Promise<unknown>) => promise.then(() => undefined, (e: Error) => e);

describe('gRPC server reflection: hostile answers', () => {
  it('files importing each other in a cycle are each asked for once, and the call goes on (it asked again and again until the deadline)', async () => {
    const peer = await hostile((r) => {
      if (r.listServices) return list;
      if (r.fileContainingSymbol) return files(file('svc.proto', { service: true, dependency: ['a.proto'] }));
      if (r.fileByFilename === 'a.proto') return files(file('a.proto', { dependency: ['b.proto'] }));
      if (r.fileByFilename === 'b.proto') return files(file('b.proto', { dependency: ['a.proto', 'svc.proto'] }));
      return { errorResponse: { errorCode: 5, errorMessage: 'no such file' } };
    });
    const result = await send(peer.url);
    expect(result.outcome).toMatchObject({ status: 0, ok: true });
    expect(peer.asked.sort()).toEqual(['a.proto', 'b.proto']);
  });

  it('a chain of imports without end is cut after 1,000 files, naming it', async () => {
    const peer = await hostile((r) => {
      if (r.listServices) return list;
      if (r.fileContainingSymbol) return files(file('svc.proto', { service: true, dependency: ['f1.proto'] }));
      const n = Number(/^f(\d+)\.proto$/.exec(r.fileByFilename ?? '')?.[1]);
      return files(file(`f${n}.proto`, { dependency: [`f${n + 1}.proto`] }));
    });
    const error = await failed(send(peer.url, 60_000));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('server reflection named more than 1000 files for h.Svc (each importing more); list the service\'s .proto files in grpc.protoFiles instead.');
  }, 30_000);

  it('an import the server does not have is named with the file importing it', async () => {
    const peer = await hostile((r) => {
      if (r.listServices) return list;
      if (r.fileContainingSymbol) return files(file('svc.proto', { service: true, dependency: ['gone.proto'] }));
      return { errorResponse: { errorCode: 5, errorMessage: 'File not found.' } };
    });
    const error = await failed(send(peer.url));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('server reflection has no file gone.proto, which svc.proto imports (the server said: 5 File not found.); list the service\'s .proto files in grpc.protoFiles instead.');
  });

  it('a reflection call the server ends without an answer fails at once (it waited forever, even with a time limit)', async () => {
    const peer = await hostile((r) => (r.listServices ? list : 'end'));
    // No time limit past the test's own: a call waiting forever fails the test by its timeout.
    const error = await failed(send(peer.url, 120_000));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toBe('server reflection failed: the server ended the reflection call without answering.');
  });

  it('a list of services answered with something else, or with nameless services, is named (it was "Cannot read properties of undefined")', async () => {
    for (const answer of [files(file('svc.proto', { service: true })), { listServicesResponse: { service: [{}] } }]) {
      const peer = await hostile(() => answer);
      const error = await failed(send(peer.url));
      expect(error).toBeInstanceOf(SendError);
      expect(error!.message).toBe("server reflection answered the request for its services without a list of service names; list the service's .proto files in grpc.protoFiles instead.");
    }
  });

  it('bytes that are not a file descriptor are named, not a crash', async () => {
    const peer = await hostile((r) => (r.listServices ? list : files(Buffer.from([0x0a, 0x40, 0x41]))));
    const error = await failed(send(peer.url));
    expect(error).toBeInstanceOf(SendError);
    expect(error!.message).toMatch(/^server reflection answered with a file descriptor that is not valid/);
  });

  it('descriptors defining more than 10,000 message types (top level or nested deep) are refused before building (100,000 blocked the run 77 s, 1.3 GB)', async () => {
    const many = (n: number) => {
      const { FileDescriptorProto } = descriptor as unknown as { FileDescriptorProto: { encode(m: object): { finish(): Uint8Array } } };
      const messageType = Array.from({ length: n }, (_, i) => ({ name: `M${i}`, field: [{ name: 'a', number: 1, label: 1, type: 11, typeName: `.h.M${(i + 1) % n}` }] }));
      return FileDescriptorProto.encode({ name: 'svc.proto', package: 'h', messageType, syntax: 'proto3' }).finish();
    };
    // One message with 10,001 levels of nested_type (3), written by hand (protobufjs recurses).
    const deep = () => {
      let message = Buffer.from([0x0a, 0x01, 0x4e]);
      for (let i = 0; i < 10_001; i++) message = Buffer.concat([Buffer.from([0x0a, 0x01, 0x4e, 0x1a]), varint(message.length), message]);
      return Buffer.concat([Buffer.from([0x0a, 0x09]), Buffer.from('svc.proto'), Buffer.from([0x22]), varint(message.length), message]);
    };
    for (const bytes of [many(10_001), deep()]) {
      const peer = await hostile((r) => (r.listServices ? list : files(bytes)));
      const error = await failed(send(peer.url, 60_000));
      expect(error!.message).toBe("server reflection's descriptors for h.Svc define more than 10000 message types, more than Ferry builds from reflection (building them blocks the run, for minutes past 100,000); list the service's .proto files in grpc.protoFiles instead.");
    }
  }, 30_000);
});

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}
