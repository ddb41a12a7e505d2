/**
 * Socket.IO's WebSocket transport as Ferry runs it: engine.io-client's, with its socket made by
 * Ferry's `ws` and the limits every ws client of Ferry's has (websocket.ts's PEER_LIMITS). The copy
 * of ws under engine.io-client (8.21) has no limit on pongs left unsent, so a server flooding pings
 * filled memory; and it waited 30 s for a server that sent its close frame and kept the connection.
 */
import { NodeWebSocket } from 'socket.io-client';
import WebSocket from 'ws';
import type { SendError } from '../send-error.js';
import { onPingFlood, PEER_LIMITS } from '../websocket/websocket.js';

/** The transport class for one connection to `url`; `flooded` is told when a ping flood is cut. */
export function webSocketTransport(url: URL, flooded: (error: SendError) => void): typeof NodeWebSocket {
  return class FerryWebSocket extends NodeWebSocket {
    // engine.io-client's own adds the cookies of its cookie jar here, which Ferry does not use (withCredentials is off; the jar's cookies go in extraHeaders).
    override createSocket(uri: string, protocols: string | string[] | undefined, opts: Record<string, unknown>): WebSocket {
      const socket = new WebSocket(uri, protocols, { ...opts, ...PEER_LIMITS });
      onPingFlood(socket, url, flooded);
      return socket;
    }
  };
}
