/**
 * The app's method picker (issue 26): every service and method of the request's proto files or,
 * without them, of the server by reflection, each with its call type and a JSON skeleton of its
 * request message (skeleton.ts). Picking one sets the request's method and message.
 */
import type { PackageDefinition } from '@grpc/proto-loader';
import type { PreparedRequest } from '../../request/prepared.js';
import type { KindCatalog } from '../catalog.js';
import type { SendContext } from '../kind.js';
import { SendError } from '../send-error.js';
import { openChannel, reflectionError } from './call.js';
import { signingInterceptors } from './call-signing.js';
import { loadByReflection, loadProtoFiles, ReflectionFailure, servicesOf } from './descriptors.js';
import { requestMetadata } from './metadata.js';
import { messageSkeleton } from './skeleton.js';

export async function describeGrpc(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<KindCatalog> {
  const options = (prepared.options ?? {}) as { protoFiles?: string[]; importPaths?: string[] };
  const fromFiles = (options.protoFiles ?? []).some((f) => f.trim() !== '');
  let definition: PackageDefinition;
  if (fromFiles) {
    definition = await loadProtoFiles({ protoFiles: options.protoFiles ?? [], importPaths: options.importPaths ?? [], workspaceRoot: context.workspaceRoot, allowFilesOutside: context.allowFilesOutside });
  } else {
    const opened = openChannel(prepared, context);
    const { credentials, channel } = opened;
    const timeoutMs = prepared.settings?.timeoutMs ?? 0;
    // Without a time limit, listing still gives up after 30 s: a picker must not hang.
    const deadline = Date.now() + (timeoutMs > 0 ? timeoutMs : 30_000);
    const cancel = () => channel.close();
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      const metadata = requestMetadata(prepared.headers);
      definition = await loadByReflection(channel, credentials, undefined, metadata, deadline, signingInterceptors(prepared)).catch((error: unknown) => {
        if (signal?.aborted) throw new SendError('the request was cancelled.', 'other');
        if (error instanceof ReflectionFailure) throw reflectionError(error, opened, metadata, timeoutMs, true);
        throw error;
      });
    } finally {
      signal?.removeEventListener('abort', cancel);
      channel.close();
    }
  }
  const entries = servicesOf(definition).flatMap(({ service, methods }) =>
    methods.map(([name, def]) => {
      const typeName = (def.requestType.type as { name?: string }).name ?? '';
      const requestType = Object.keys(definition).find((k) => definition[k] === def.requestType) ?? typeName;
      const note = def.requestStream ? (def.responseStream ? 'bidirectional streaming' : 'client streaming') : def.responseStream ? 'server streaming' : 'unary';
      const skeleton = messageSkeleton(definition, requestType);
      // A client stream's body is an array of messages (spec 2.8): one to start from.
      const body = def.requestStream ? [skeleton] : skeleton;
      return { group: service, name: `${service}/${name}`, note, description: `${requestType} → ${Object.keys(definition).find((k) => definition[k] === def.responseType) ?? ''}`, apply: { method: `${service}/${name}`, bodyText: JSON.stringify(body, null, 2) } };
    }),
  );
  return { source: fromFiles ? 'proto files' : 'reflection', entries };
}
