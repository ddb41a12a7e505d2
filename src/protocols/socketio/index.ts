/** The `socketio` request kind: a namespace of a Socket.IO 4 server, events read by the shared stop rule (spec 2.7, 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const socketIoClient = loadOnce(() => import('./socketio.js'));

export const socketioKind: RequestKindModule = {
  kind: 'socketio',
  noun: 'a Socket.IO request',
  url: 'url',
  schemes: ['http', 'https', 'ws', 'wss'],
  method: 'none',
  options: 'socketio',
  tag: () => 'socketio',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await socketIoClient()).sendSocketIo(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await socketIoClient()).connectSocketIo(prepared, context, handlers, signal),
  composer: { formats: ['json', 'text', 'hex', 'base64'], fields: ['event', 'ack'], operations: [], when: 'always' },
};
