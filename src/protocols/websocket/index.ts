/** The `websocket` request kind: `ws://` and `wss://`, frames read by the shared stop rule (spec 2.7, 2.8). */
import type { RequestKindModule } from '../kind.js';

export const websocketKind: RequestKindModule = {
  kind: 'websocket',
  noun: 'a WebSocket request',
  url: 'url',
  schemes: ['ws', 'wss'],
  method: 'none',
  tag: () => 'websocket',
  exportsAsCode: false,
  send: async (prepared, context, signal) => (await import('./websocket.js')).sendWebSocket(prepared, context, signal),
  connect: async (prepared, context, handlers, signal) => (await import('./websocket.js')).connectWebSocket(prepared, context, handlers, signal),
  composer: { formats: ['text', 'json', 'hex', 'base64'], fields: [], operations: [], when: 'always' },
};
