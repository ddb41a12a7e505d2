/**
 * Server reflection's calls, settled however the server ends them: grpc-js-reflection-client's
 * call that the server ended without an answer never settled, deadline or not (the call was over,
 * so its deadline never fired), and the send waited forever.
 */
import type { CallOptions, ClientDuplexStream, Metadata, StatusObject } from '@grpc/grpc-js';
import { ReflectionRequestException, type GrpcReflection } from 'grpc-js-reflection-client';

interface ReflectionAnswer {
  fileDescriptorResponse?: { fileDescriptorProto?: Uint8Array[] };
  errorResponse?: { errorCode?: number; errorMessage?: string };
}

/** The library's own parts used here (private in its types). */
interface Internals {
  client: { ServerReflectionInfo(metadata: Metadata, options: CallOptions): ClientDuplexStream<unknown, ReflectionAnswer> };
  reflectionRequestConstructor(payload: object): unknown;
  request(payload: object, metadata: Metadata, options: CallOptions): Promise<ReflectionAnswer>;
}

/** The server's error answer to a reflection request (a file or symbol it does not have). */
class ReflectionRefusal extends ReflectionRequestException {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(text);
  }
}

/** `reflection` with its one call replaced by one that settles however the server ends it. */
export function strictReflection(reflection: GrpcReflection): GrpcReflection {
  const inner = reflection as unknown as Internals;
  inner.request = (payload, metadata, options) =>
    new Promise((resolve, reject) => {
      const call = inner.client.ServerReflectionInfo(metadata, options);
      let answered = false;
      call.on('data', (data: ReflectionAnswer) => {
        if (answered) return;
        answered = true;
        if (data.errorResponse) reject(new ReflectionRefusal(data.errorResponse.errorCode ?? 0, data.errorResponse.errorMessage ?? ''));
        else resolve(data);
      });
      // As the library words it: the status's words, which the caller maps (UNIMPLEMENTED, a connection failure).
      call.on('error', (error: Error) => reject(new ReflectionRequestException(String(error))));
      call.on('status', (status: StatusObject) => {
        if (!answered && status.code === 0) reject(new ReflectionRequestException('the server ended the reflection call without answering'));
      });
      call.write(inner.reflectionRequestConstructor(payload));
      call.end();
    });
  return reflection;
}
