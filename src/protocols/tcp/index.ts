/** The `tcp` request kind: `tcp://` and `tls://` over node's net and tls, replies as messages (spec 2.8). */
import type { RequestKindModule } from '../kind.js';

export const tcpKind: RequestKindModule = {
  kind: 'tcp',
  noun: 'a TCP request',
  url: 'url',
  schemes: ['tcp', 'tls'],
  method: 'none',
  options: 'socket',
  tag: () => 'tcp',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await import('./tcp.js')).sendTcp(prepared, context.maxResponseMb, signal),
  connect: async (prepared, context, handlers, signal) => (await import('./tcp.js')).connectTcp(prepared, context.maxResponseMb, handlers, signal),
  composer: { formats: ['text', 'json', 'hex', 'base64'], fields: [], operations: [], when: 'always' },
};
