/** The `tcp` request kind: `tcp://` and `tls://` over node's net and tls, replies as messages (spec 2.8). */
import type { RequestKindModule } from '../kind.js';
import { sendTcp } from './tcp.js';

export const tcpKind: RequestKindModule = {
  kind: 'tcp',
  noun: 'a TCP request',
  url: 'url',
  schemes: ['tcp', 'tls'],
  method: 'none',
  options: 'socket',
  tag: () => 'tcp',
  exportsAsCode: false,
  send: (prepared, context, signal) => sendTcp(prepared, context.maxResponseMb, signal),
};
