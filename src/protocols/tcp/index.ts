/** The `tcp` request kind: `tcp://` and `tls://` over node's net and tls, replies as messages (spec 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const tcpClient = loadOnce(() => import('./tcp.js'));

export const tcpKind: RequestKindModule = {
  kind: 'tcp',
  noun: 'a TCP request',
  url: 'url',
  schemes: ['tcp', 'tls'],
  method: 'none',
  options: 'socket',
  tag: () => 'tcp',
  exportsAsCode: false,
  sendsAuth: 'none',
  sendsHeaders: false,
  send: async (prepared, context, signal) => (await tcpClient()).sendTcp(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await tcpClient()).connectTcp(prepared, context, handlers, signal),
  composer: { formats: ['text', 'json', 'hex', 'base64'], fields: [], operations: [], when: 'always' },
};
