/**
 * Where and with what a subscription connects (spec 2.5): `subscriptionUrl`, or the request's URL
 * (`http`→`ws`, `https`→`wss` for the WebSocket transports); `connectionParams` as a JSON object;
 * the request's headers without the ones that describe the POST body.
 */
import type { PreparedHeader, PreparedRequest } from '../../../request/prepared.js';
import { SendError } from '../../send-error.js';
import type { StreamSession } from '../../stream/session.js';
import type { GraphqlOperation } from './operation.js';

export type Transport = NonNullable<GraphqlOperation['subscription']['transport']>;

/** Absent `transport`: the current protocol (graphql-ws's `graphql-transport-ws`). */
export const DEFAULT_TRANSPORT: Transport = 'websocket';

/** The URL the subscription connects to, checked for the transport's schemes. */
export function subscriptionUrl(prepared: PreparedRequest, operation: GraphqlOperation, transport: Transport): URL {
  const written = operation.subscription.subscriptionUrl;
  let url: URL;
  try {
    url = new URL(written || prepared.url);
  } catch {
    throw new SendError(`body.graphql.subscriptionUrl "${written}" is not a valid URL; give an absolute ws://, wss://, http:// or https:// URL, or leave it empty to use the request's URL.`, 'invalid');
  }
  const overWebSocket = transport !== 'sse';
  if (overWebSocket && (url.protocol === 'http:' || url.protocol === 'https:')) url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const allowed = overWebSocket ? ['ws:', 'wss:'] : ['http:', 'https:'];
  if (!allowed.includes(url.protocol)) {
    throw new SendError(
      `a GraphQL subscription over ${transport === 'sse' ? 'SSE' : 'WebSocket'} needs ${overWebSocket ? 'a ws://, wss://, http:// or https://' : 'an http:// or https://'} URL, not ${url.protocol}//; fix body.graphql.subscriptionUrl.`,
      'invalid',
    );
  }
  return url;
}

/** `connectionParams` as the JSON object sent on `connection_init`; undefined when empty. */
export function connectionParams(operation: GraphqlOperation): Record<string, unknown> | undefined {
  const text = operation.subscription.connectionParams.trim();
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SendError(`body.graphql.connectionParams is not valid JSON (${(error as Error).message}); write a JSON object such as {"authToken": "{{token}}"}.`, 'invalid');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new SendError(`body.graphql.connectionParams must be a JSON object, not ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}; write it as {"key": "value"}.`, 'invalid');
  }
  return value as Record<string, unknown>;
}

/** Headers that describe the POST's body (or ask for its answer), which the transport sets itself. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'accept', 'sec-websocket-protocol']);

/** The request's headers and auth, for the upgrade or the SSE request. */
export function connectionHeaders(prepared: PreparedRequest): PreparedHeader[] {
  return prepared.headers.filter((h) => !BODY_HEADERS.has(h.name.toLowerCase()));
}

/** The subscribe payload as a sent message: the JSON object the POST would carry. */
export function subscribeText(operation: GraphqlOperation): string {
  return JSON.stringify(operation.payload);
}

/**
 * One result of the subscription as a received `next` message. A result without `data` but with
 * `errors` is a request error (GraphQL: raised before execution), which ends the stream with
 * `error` as the WebSocket protocols' `error` message does; errors beside data are the event's.
 */
export function receiveResult(session: StreamSession, value: unknown): void {
  const messages = session.messages;
  if (!messages) return;
  const result = value as { data?: unknown; errors?: unknown } | null;
  if (result && typeof result === 'object' && !('data' in result) && Array.isArray(result.errors)) {
    messages.endWith('error', { event: 'error', text: JSON.stringify(result.errors) });
  } else {
    messages.received({ event: 'next', text: JSON.stringify(value) });
  }
}
