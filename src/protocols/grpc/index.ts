/** The `grpc` request kind (spec 2.8): `grpc://` and `grpcs://`, `method` is `package.Service/Method`. */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const callClient = loadOnce(() => import('./call.js'));
const liveClient = loadOnce(() => import('./live.js'));
const describer = loadOnce(() => import('./describe.js'));
const methodName = loadOnce(() => import('./method-name.js'));

export const grpcKind: RequestKindModule = {
  kind: 'grpc',
  noun: 'a gRPC request',
  url: 'url',
  schemes: ['grpc', 'grpcs'],
  method: 'text',
  // Required to send, not to describe: the method picker lists a file's calls before one is chosen.
  methodIs: 'the call to make, package.Service/Method',
  methodExample: 'helloworld.Greeter/SayHello',
  options: 'grpc',
  // A gRPC call is an HTTP/2 POST whatever `method` (the call's name) says: auth signs it so.
  wireMethod: 'POST',
  // …to the path `/package.Service/Method` with the :authority grpc-js sends (host:port), which auth signs too.
  wireUrl: async (url, method) => {
    const { callPath, callUrl } = await methodName();
    return callUrl(url, callPath(method));
  },
  // The body is the JSON of the message, sent as protobuf frames: auth hashes none of it.
  encodesBody: true,
  tag: (method) => `grpc ${method}`,
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await callClient()).sendGrpc(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await liveClient()).connectGrpc(prepared, context, handlers, signal),
  // Client-streaming and bidi calls: one JSON message per send, End half-closes (live.ts).
  composer: { formats: ['json'], fields: [], operations: [{ name: 'end', label: 'End (half-close)', params: [] }], when: 'always' },
  describe: async (prepared, context, signal) => (await describer()).describeGrpc(prepared, context, signal),
};
