/**
 * GraphQL subscriptions (spec 2.5, issue 25): an HTTP request whose GraphQL operation is a
 * `subscription` subscribes over its `transport` instead of POSTing; the results are messages
 * of the shared model (spec 2.7 `settings.stream`). Loaded by the HTTP kind for GraphQL bodies only.
 */
import type { PreparedRequest } from '../../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../../kind.js';
import type { ConnectHandlers, LiveConnection } from '../../live/types.js';
import { SendError } from '../../send-error.js';
import { graphqlOperation } from './operation.js';
import { DEFAULT_TRANSPORT, subscriptionUrl } from './target.js';

/** The subscription's result, or undefined when the body is not a GraphQL subscription (it is POSTed). */
export async function sendIfSubscription(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult | undefined> {
  const operation = await graphqlOperation(prepared);
  if (operation?.type !== 'subscription') return undefined;
  const transport = operation.subscription.transport ?? DEFAULT_TRANSPORT;
  const url = subscriptionUrl(prepared, operation, transport);
  switch (transport) {
    case 'websocket':
      return (await import('./graphql-transport-ws.js')).subscribeGraphqlWs(prepared, operation, url, context, signal);
    case 'websocketLegacy':
      return (await import('./subscriptions-transport-ws.js')).subscribeLegacy(prepared, operation, url, context, signal);
    case 'sse':
      return (await import('./graphql-sse.js')).subscribeSse(prepared, operation, url, context, signal);
  }
}

/** Opens the body's GraphQL subscription as a live connection; refused for any other request. */
export async function connectSubscription(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const operation = await graphqlOperation(prepared);
  if (operation?.type !== 'subscription') {
    throw new SendError('only an HTTP request whose body is a GraphQL subscription stays connected; send this request instead (or write a subscription operation in body.graphql.query).', 'unsupported');
  }
  const transport = operation.subscription.transport ?? DEFAULT_TRANSPORT;
  const url = subscriptionUrl(prepared, operation, transport);
  switch (transport) {
    case 'websocket':
      return (await import('./graphql-transport-ws.js')).connectGraphqlWs(prepared, operation, url, context, handlers, signal);
    case 'websocketLegacy':
      return (await import('./subscriptions-transport-ws.js')).connectLegacy(prepared, operation, url, context, handlers, signal);
    case 'sse':
      return (await import('./graphql-sse.js')).connectSse(prepared, operation, url, context, handlers, signal);
  }
}
