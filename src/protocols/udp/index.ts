/** The `udp` request kind: `udp://` over node's dgram, one message per datagram (spec 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const udpClient = loadOnce(() => import('./udp.js'));

export const udpKind: RequestKindModule = {
  kind: 'udp',
  noun: 'a UDP request',
  url: 'url',
  schemes: ['udp'],
  method: 'none',
  options: 'socket',
  tag: () => 'udp',
  exportsAsCode: false,
  sendsAuth: 'none',
  sendsHeaders: false,
  send: async (prepared, context, signal) => (await udpClient()).sendUdp(prepared, context.maxResponseMb, signal),
  connect: async (prepared, _context, handlers, signal) => (await udpClient()).connectUdp(prepared, handlers, signal),
  composer: { formats: ['text', 'json', 'hex', 'base64'], fields: [], operations: [], when: 'always' },
};
