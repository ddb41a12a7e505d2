/**
 * Subscriptions over `graphql-transport-ws` (transport `websocket`), with the `graphql-ws`
 * library's client over our `ws` socket: `connection_init` with `connectionParams`, one
 * `subscribe`, its `next` messages read by the shared stop rule; at the stop the subscription is
 * completed and the connection closed (1000).
 */
import type { PreparedRequest } from '../../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../../kind.js';
import { StreamSession } from '../../stream/session.js';
import { openLive } from '../../live/connection.js';
import type { ConnectHandlers, LiveConnection } from '../../live/types.js';
import { finishOverWebSocket, liveSubscriptionParts, SubscriptionSocket } from './connection.js';
import type { GraphqlOperation } from './operation.js';
import { connectionParams, receiveResult, subscribeText } from './target.js';

export async function subscribeGraphqlWs(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const params = connectionParams(operation);
  const { createClient } = await import('graphql-ws/client');
  const connection = await SubscriptionSocket.create(prepared, context, url, 'graphql-transport-ws');
  // GraphQL results carry no event name: `stream.event` does not apply.
  const session = new StreamSession(prepared, signal);
  startGraphqlWs(createClient, operation, url, params, session, connection);
  return finishOverWebSocket(session, connection, url, 'graphql-transport-ws');
}

/** The subscription kept open (live): its results are messages until the server completes it or the user closes it. */
export async function connectGraphqlWs(prepared: PreparedRequest, operation: GraphqlOperation, url: URL, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const params = connectionParams(operation);
  const { createClient } = await import('graphql-ws/client');
  const connection = await SubscriptionSocket.create(prepared, context, url, 'graphql-transport-ws');
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  startGraphqlWs(createClient, operation, url, params, session, connection);
  return openLive(session, liveSubscriptionParts(connection, url, 'graphql-transport-ws'));
}

/** Connects and subscribes, wiring the client to the session: the one connection code of send and connect. */
function startGraphqlWs(
  createClient: typeof import('graphql-ws/client').createClient,
  operation: GraphqlOperation,
  url: URL,
  params: Record<string, unknown> | undefined,
  session: StreamSession,
  connection: SubscriptionSocket,
): void {
  // The connection ended: a close while reading is the `closed` stop, before it (or after a socket
  // error: a ping flood, a message past maxResponseMb…) the send fails.
  const ended = (close?: { code: number; reason: string }) => {
    if (session.messages && !connection.error) session.messages.closed();
    else session.fail(connection.failure(close?.code, close?.reason));
  };
  const client = createClient({
    url: url.href,
    webSocketImpl: connection.implementation(),
    ...(params ? { connectionParams: params } : {}),
    lazy: true,
    retryAttempts: 0,
    shouldRetry: () => false,
    on: {
      connected: () => session.open().sent({ event: 'subscribe', text: subscribeText(operation) }),
      // graphql-ws connects again after a close 1000 while a subscription runs, whatever
      // retryAttempts says (it subscribed again and again until the time limit): disposed here,
      // before it decides, the close ends the send.
      closed: (event: unknown) => {
        ended(closeEvent(event));
        void Promise.resolve(client.dispose()).catch(() => {});
      },
    },
  });
  const unsubscribe = client.subscribe(operation.payload, {
    next: (value) => receiveResult(session, value),
    error: (error: unknown) => {
      // An `error` message (a list of GraphQL errors) ends the subscription; anything else ended the connection.
      if (Array.isArray(error) && session.messages) session.messages.endWith('error', { event: 'error', text: JSON.stringify(error) });
      else ended(closeEvent(error));
    },
    complete: () => session.messages?.stop('complete'),
  });
  session.onClose(() => {
    unsubscribe(); // sends `complete` while the subscription runs
    // Disposing while still connecting rejects with the close: the session has its verdict already.
    Promise.resolve(client.dispose()).catch(() => {});
  });
}

function closeEvent(value: unknown): { code: number; reason: string } | undefined {
  const event = value as { code?: unknown; reason?: unknown } | undefined;
  return event && typeof event.code === 'number' ? { code: event.code, reason: String(event.reason ?? '') } : undefined;
}
