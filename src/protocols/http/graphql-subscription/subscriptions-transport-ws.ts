/**
 * Subscriptions over the legacy `subscriptions-transport-ws` protocol (transport
 * `websocketLegacy`; subprotocol `graphql-ws`, Apollo's older servers), written here over `ws`:
 * its client library is no longer kept and needs `ws` 7. The exchange: `connection_init` →
 * `connection_ack` (or `connection_error`), `start` → `data`… then `complete` or `error`; `ka`
 * keep-alives are skipped. At the stop Ferry sends `stop` and `connection_terminate`, then closes.
 */
import type WebSocket from 'ws';
import type { PreparedRequest } from '../../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../../kind.js';
import { SendError } from '../../send-error.js';
import { StreamSession } from '../../stream/session.js';
import { asBytes } from '../../websocket/websocket.js';
import { openLive } from '../../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../../live/types.js';
import { finishOverWebSocket, liveSubscriptionParts, SubscriptionSocket } from './connection.js';
import type { GraphqlOperation } from './operation.js';
import { connectionParams, receiveResult, subscribeText } from './target.js';

/** The one operation's id on the connection. */
const ID = '1';

export async function subscribeLegacy(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const params = connectionParams(operation);
  const connection = await SubscriptionSocket.create(prepared, context, url, 'graphql-ws');
  const session = new StreamSession(prepared, signal);
  startLegacy(operation, url, params, session, connection);
  return finishOverWebSocket(session, connection, url, 'subscriptions-transport-ws');
}

/** The subscription kept open (live): its results are messages until the server completes it or the user closes it. */
export async function connectLegacy(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const params = connectionParams(operation);
  const connection = await SubscriptionSocket.create(prepared, context, url, 'graphql-ws');
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  startLegacy(operation, url, params, session, connection);
  return openLive(session, liveSubscriptionParts(connection, url, 'subscriptions-transport-ws'));
}

/** Connects and subscribes, wiring the socket to the session: the one connection code of send and connect. */
function startLegacy(operation: GraphqlOperation, url: URL, params: Record<string, unknown> | undefined, session: StreamSession, connection: SubscriptionSocket): void {
  const socket = connection.open();
  const send = (message: object) => socket.send(JSON.stringify(message));

  socket.on('open', () => send({ type: 'connection_init', payload: params ?? {} }));
  socket.on('message', (data: WebSocket.RawData) => {
    const message = parse(asBytes(data));
    if (!message) {
      session.fail(new SendError(`${url.host} sent a message that is not a subscriptions-transport-ws JSON message; is body.graphql.transport right?`, 'protocol'));
      return;
    }
    const messages = session.messages;
    switch (message.type) {
      case 'connection_ack':
        if (messages) return;
        session.open().sent({ event: 'subscribe', text: subscribeText(operation) });
        send({ id: ID, type: 'start', payload: operation.payload });
        return;
      case 'connection_error':
        session.fail(new SendError(`${url.host} refused the connection_init: ${reasonOf(message.payload)}. Check body.graphql.connectionParams and the auth.`, 'refused'));
        return;
      case 'data':
        if (message.id === ID) receiveResult(session, message.payload ?? null);
        return;
      case 'error':
        if (messages) messages.endWith('error', { event: 'error', text: JSON.stringify(message.payload ?? null) });
        else session.fail(new SendError(`${url.host} answered the connection with an error: ${reasonOf(message.payload)}.`, 'protocol'));
        return;
      case 'complete':
        if (message.id === ID) messages?.stop('complete');
        return;
      default:
        return; // `ka` keep-alives and messages of other operations
    }
  });
  socket.on('close', (code: number, reason: Buffer) => {
    // A close after an error of the socket's (a ping flood cut it) fails the send with that error.
    if (session.messages && !connection.error) session.messages.closed();
    else session.fail(connection.failure(code, reason.toString('utf8')));
  });
  socket.on('error', () => session.fail(connection.failure()));
  session.onClose(() => {
    if (socket.readyState === socket.OPEN) {
      if (session.messages?.stoppedBy !== 'complete' && session.messages?.stoppedBy !== 'error' && session.messages?.stoppedBy !== 'closed') send({ id: ID, type: 'stop' });
      send({ type: 'connection_terminate' });
      socket.close(1000);
    } else if (socket.readyState !== socket.CLOSED) {
      socket.terminate();
    }
  });
}

interface LegacyMessage {
  type: string;
  id?: string;
  payload?: unknown;
}

function parse(bytes: Uint8Array): LegacyMessage | undefined {
  try {
    const value = JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
    return value && typeof value === 'object' && typeof (value as LegacyMessage).type === 'string' ? (value as LegacyMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** A server's reason: its `message`, or the payload as JSON. */
function reasonOf(payload: unknown): string {
  const message = (payload as { message?: unknown } | undefined)?.message;
  if (typeof message === 'string' && message !== '') return message;
  return payload === undefined ? 'no reason given' : JSON.stringify(payload).slice(0, 500);
}
