/** The `websocket` request kind: `ws://` and `wss://`, frames read by the shared stop rule (spec 2.7, 2.8). */
import { loadOnce } from '../../support/load-once.js';
import type { RequestKindModule } from '../kind.js';

const webSocketClient = loadOnce(() => import('./websocket.js'));

export const websocketKind: RequestKindModule = {
  kind: 'websocket',
  noun: 'a WebSocket request',
  url: 'url',
  schemes: ['ws', 'wss'],
  method: 'none',
  tag: () => 'websocket',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await webSocketClient()).sendWebSocket(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await webSocketClient()).connectWebSocket(prepared, context, handlers, signal),
  composer: { formats: ['text', 'json', 'hex', 'base64'], fields: [], operations: [], when: 'always' },
};
