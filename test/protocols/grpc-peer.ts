/**
 * A real gRPC server for the tests (@grpc/grpc-js on 127.0.0.1, port 0): the four call types,
 * metadata echoed back, a slow method for deadlines, error statuses with trailers, TLS with the
 * tests' self-signed certificate, server reflection (@grpc/reflection) unless turned off, and
 * answers saying fewer encodings taken (acceptEncoding).
 */
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { testCertificate } from '../support/servers/index.js';

export const ECHO_PROTO = path.resolve('test/fixtures/grpc/echo.proto');

export interface GrpcPeer {
  url: string;
  port: number;
  /** Metadata of every call the server got, in order. */
  seen: grpc.Metadata[];
  close(): Promise<void>;
}

type Message = Record<string, unknown>;

function echoMetadata(call: { metadata: grpc.Metadata; sendMetadata(m: grpc.Metadata): void }, seen: grpc.Metadata[]): void {
  seen.push(call.metadata);
  const headers = new grpc.Metadata();
  headers.set('x-echo-auth', String(call.metadata.get('authorization')[0] ?? ''));
  headers.set('x-echo-token', String(call.metadata.get('x-token')[0] ?? ''));
  const bin = call.metadata.get('x-raw-bin')[0];
  if (bin) headers.set('x-raw-bin', bin);
  call.sendMetadata(headers);
}

function reply(request: Record<string, unknown>, index = 0): Record<string, unknown> {
  const labels = Object.entries((request.labels ?? {}) as Record<string, number>).map(([k, v]) => `${k}=${v}`);
  const text = `hello ${String(request.text ?? '')}${labels.length ? ` (labels ${labels.join(',')})` : ''}`;
  return { text, big: request.big ?? '0', mood: request.mood ?? 'HAPPY', index };
}

/**
 * `acceptEncoding`: the grpc-accept-encoding every answer's headers say (by a server interceptor;
 * grpc-js's own is identity,deflate,gzip), as a server that takes fewer encodings answers.
 */
export async function startGrpcPeer(options: { tls?: boolean; reflection?: boolean; acceptEncoding?: string } = {}): Promise<GrpcPeer> {
  const definition = protoLoader.loadSync(ECHO_PROTO, { longs: String, enums: String, defaults: true, includeDirs: [path.dirname(ECHO_PROTO)] });
  const loaded = grpc.loadPackageDefinition(definition) as unknown as { ferry: { test: { Echo: grpc.ServiceClientConstructor } } };
  const { acceptEncoding } = options;
  const saysEncodings: grpc.ServerInterceptor = (_method, call) =>
    new grpc.ServerInterceptingCall(call, {
      sendMetadata: (metadata, next) => {
        metadata.set('grpc-accept-encoding', acceptEncoding!);
        next(metadata);
      },
    });
  const server = new grpc.Server(acceptEncoding === undefined ? {} : { interceptors: [saysEncodings] });
  const seen: grpc.Metadata[] = [];
  server.addService(loaded.ferry.test.Echo.service, {
    Say: (call: grpc.ServerUnaryCall<Message, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      echoMetadata(call, seen);
      if (call.request.failWith) {
        const trailers = new grpc.Metadata();
        trailers.set('x-why', 'no such greeting');
        callback({ code: grpc.status.NOT_FOUND, details: `no greeting for ${String(call.request.text)}`, metadata: trailers });
        return;
      }
      const trailers = new grpc.Metadata();
      trailers.set('x-trailer', 'done');
      callback(null, reply(call.request), trailers);
    },
    Slow: (call: grpc.ServerUnaryCall<Message, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      echoMetadata(call, seen);
      const timer = setTimeout(() => callback(null, reply(call.request)), 5000);
      call.on('cancelled', () => clearTimeout(timer));
    },
    Count: (call: grpc.ServerWritableStream<Message, unknown>) => {
      echoMetadata(call, seen);
      const request = call.request as { count: number; endless: boolean };
      let i = 0;
      const next = () => {
        if (call.cancelled) return;
        if (!request.endless && i >= request.count) {
          call.end();
          return;
        }
        call.write({ text: `n${i}`, index: i, mood: 'GRUMPY', big: '9007199254740993' });
        i++;
        setImmediate(next);
      };
      next();
    },
    Collect: (call: grpc.ServerReadableStream<Record<string, unknown>, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      echoMetadata(call, seen);
      const texts: string[] = [];
      call.on('data', (m: Record<string, unknown>) => texts.push(String(m.text)));
      call.on('end', () => callback(null, { text: texts.join('+'), index: texts.length }));
    },
    Chat: (call: grpc.ServerDuplexStream<Record<string, unknown>, unknown>) => {
      echoMetadata(call, seen);
      let i = 0;
      call.on('data', (m: Record<string, unknown>) => call.write(reply(m, i++)));
      call.on('end', () => call.end());
    },
  });
  if (options.reflection !== false) new ReflectionService(definition).addToServer(server);
  let credentials = grpc.ServerCredentials.createInsecure();
  if (options.tls) {
    const { key, cert } = await testCertificate();
    credentials = grpc.ServerCredentials.createSsl(null, [{ private_key: Buffer.from(key), cert_chain: Buffer.from(cert) }]);
  }
  const port = await new Promise<number>((resolve, reject) => server.bindAsync('127.0.0.1:0', credentials, (error, bound) => (error ? reject(error) : resolve(bound))));
  return {
    url: `${options.tls ? 'grpcs' : 'grpc'}://127.0.0.1:${port}`,
    port,
    seen,
    close: async () => server.forceShutdown(),
  };
}
