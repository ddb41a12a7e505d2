/**
 * The descriptors of a service asked of a server by reflection, held to limits a hostile server
 * cannot get past. grpc-js-reflection-client asks for each import as it finds it, each branch
 * forgetting the files the others had: files importing each other in a cycle were asked for again
 * and again until the deadline (forever without one), and a server naming a new import in each
 * answer was followed without end. Its call that the server ended without an answer never
 * settled, deadline or not. Here each file is asked for once, at most MAX_REFLECTED_FILES in all,
 * an import the server does not have is named, and a call ended without an answer fails; the
 * library then builds the definition from the files gathered, asking for nothing more.
 */
import type { CallOptions, ClientDuplexStream, Metadata, ServiceError, StatusObject } from '@grpc/grpc-js';
import type { Options, PackageDefinition } from '@grpc/proto-loader';
import { ReflectionRequestException, type Descriptor, type GrpcReflection } from 'grpc-js-reflection-client';
import { SendError } from '../send-error.js';
import { topLevelFields } from './wire-check.js';
import { notGrpcHead } from './answer-type.js';

/** Files one service's descriptors may span (its file and every import, further down too). */
export const MAX_REFLECTED_FILES = 1000;

/**
 * Message types those files may define, nested ones included. Building the definition grows
 * faster than the types do and blocks while it runs: 20,000 took 5 s here, 100,000 (3 MB of
 * descriptors, well under maxResponseMb) 77 s and 1.3 GB.
 */
export const MAX_REFLECTED_TYPES = 10_000;

interface ReflectionAnswer {
  fileDescriptorResponse?: { fileDescriptorProto?: Uint8Array[] };
  listServicesResponse?: { service?: Array<{ name?: unknown }> };
  errorResponse?: { errorCode?: number; errorMessage?: string };
}

/** The library's own parts used here (private in its types). */
interface Internals {
  client: { ServerReflectionInfo(metadata: Metadata, options: CallOptions): ClientDuplexStream<unknown, ReflectionAnswer> };
  reflectionRequestConstructor(payload: object): unknown;
  request(payload: object, metadata: Metadata, options: CallOptions): Promise<ReflectionAnswer>;
  resolveFileDescriptorSet(files: Uint8Array[], metadata: Metadata, options: CallOptions): Promise<Descriptor>;
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

/**
 * A reflection call ended with a status rather than an answer: the status (a server's, or one
 * grpc-js made up, a reset) and the headers that came before it, for the caller's words
 * (call.ts reflectionError). Its message is grpc-js's error text, as the library's was.
 */
export class ReflectionCallEnded extends ReflectionRequestException {
  readonly status: StatusObject;

  constructor(
    error: ServiceError,
    readonly headers: Metadata | undefined,
  ) {
    super(String(error));
    this.status = { code: error.code, details: error.details, metadata: error.metadata };
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
      let headers: Metadata | undefined;
      call.on('metadata', (got: Metadata) => {
        headers = got;
        // Not gRPC by its head (a page, a proxy's answer): ended now, the caller saying so.
        // grpc-js would read the body as frames until it ends, and one kept open never does.
        if (notGrpcHead(got)) call.cancel();
      });
      // As the library words it: the status's words, which the caller maps (UNIMPLEMENTED, a connection failure).
      call.on('error', (error: ServiceError) => reject(new ReflectionCallEnded(error, headers)));
      call.on('status', (status: StatusObject) => {
        if (!answered && status.code === 0) reject(new ReflectionRequestException('the server ended the reflection call without answering'));
      });
      call.write(inner.reflectionRequestConstructor(payload));
      call.end();
    });
  return reflection;
}

/** The names of the server's services (the library read them without looking: another answer was a TypeError). */
export async function listedServices(reflection: GrpcReflection, metadata: Metadata, options: CallOptions): Promise<string[]> {
  const answer = await (reflection as unknown as Internals).request({ listServices: '*' }, metadata.clone(), options);
  const names = answer.listServicesResponse?.service?.map((s) => s?.name);
  if (!names || !names.every((name): name is string => typeof name === 'string' && name !== '')) {
    throw new SendError("server reflection answered the request for its services without a list of service names; list the service's .proto files in grpc.protoFiles instead.", 'protocol');
  }
  return names;
}

const text = new TextDecoder();

/** The fields `numbers` of a descriptor's bytes, or a SendError naming what is wrong with them. */
function descriptorFields(bytes: Uint8Array, numbers: number[]): Map<number, Uint8Array[]> {
  const fields = topLevelFields(bytes, numbers);
  if (typeof fields === 'string') throw new SendError(`server reflection answered with a file descriptor that is not valid protobuf (${fields}); list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
  return fields;
}

/** The message types of DescriptorProtos, nested ones (field 3) included; without recursion, however deep they nest. */
function countTypes(messages: Uint8Array[]): number {
  const pending = [...messages];
  let count = 0;
  for (let message = pending.pop(); message !== undefined; message = pending.pop()) {
    count++;
    if (count > MAX_REFLECTED_TYPES) break;
    pending.push(...descriptorFields(message, [3]).get(3)!);
  }
  return count;
}

/** The definition of `symbol` (a service) and every file it imports, each asked for once. */
export async function reflectedDefinition(reflection: GrpcReflection, symbol: string, metadata: Metadata, options: CallOptions, loaderOptions: Options): Promise<PackageDefinition> {
  const inner = reflection as unknown as Internals;
  const files = new Map<string, Uint8Array>();
  const importer = new Map<string, string>();
  const pending: string[] = [];
  const ask = async (payload: object, what: string): Promise<Uint8Array[]> => {
    const answer = await inner.request(payload, metadata.clone(), options);
    const list = answer.fileDescriptorResponse?.fileDescriptorProto;
    if (!Array.isArray(list)) throw new SendError(`server reflection answered the request for ${what} without file descriptors; list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
    return list;
  };
  let types = 0;
  const take = (list: Uint8Array[]) => {
    for (const bytes of list) {
      // FileDescriptorProto: name (1), dependency (3), message_type (4).
      const fields = descriptorFields(bytes, [1, 3, 4]);
      const name = text.decode(fields.get(1)!.at(-1) ?? new Uint8Array());
      if (files.has(name)) continue;
      files.set(name, bytes);
      types += countTypes(fields.get(4)!);
      if (types > MAX_REFLECTED_TYPES) {
        throw new SendError(`server reflection's descriptors for ${symbol} define more than ${MAX_REFLECTED_TYPES} message types, more than Ferry builds from reflection (building them blocks the run, for minutes past 100,000); list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
      }
      for (const dependency of fields.get(3)!.map((d) => text.decode(d))) {
        if (files.has(dependency) || importer.has(dependency)) continue;
        importer.set(dependency, name);
        pending.push(dependency);
      }
      if (files.size > MAX_REFLECTED_FILES) {
        throw new SendError(`server reflection named more than ${MAX_REFLECTED_FILES} files for ${symbol} (each importing more); list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
      }
    }
  };
  take(await ask({ fileContainingSymbol: symbol }, symbol));
  for (let dependency = pending.shift(); dependency !== undefined; dependency = pending.shift()) {
    if (files.has(dependency)) continue;
    try {
      take(await ask({ fileByFilename: dependency }, dependency));
    } catch (error) {
      if (!(error instanceof ReflectionRefusal)) throw error;
      throw new SendError(`server reflection has no file ${dependency}, which ${importer.get(dependency)} imports (the server said: ${error.code} ${error.text}); list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
    }
    if (!files.has(dependency)) {
      throw new SendError(`server reflection answered the request for ${dependency} (imported by ${importer.get(dependency)}) with other files; list the service's .proto files in grpc.protoFiles instead.`, 'protocol');
    }
  }
  // Every import is among the files: the library builds the definition without asking again.
  const descriptor = await inner.resolveFileDescriptorSet([...files.values()], metadata, options);
  return descriptor.getPackageDefinition(loaderOptions);
}
