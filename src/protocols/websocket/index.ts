/** The `websocket` request kind: `ws://` and `wss://`, frames read by the shared stop rule (spec 2.7, 2.8). */
import type { RequestKindModule } from '../kind.js';
import { sendWebSocket } from './websocket.js';

export const websocketKind: RequestKindModule = {
  kind: 'websocket',
  noun: 'a WebSocket request',
  url: 'url',
  schemes: ['ws', 'wss'],
  method: 'none',
  tag: () => 'websocket',
  exportsAsCode: false,
  send: sendWebSocket,
};
