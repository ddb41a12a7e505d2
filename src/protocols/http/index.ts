/**
 * The `http` request kind: undici over HTTP/1.1 and HTTP/2 (spec 2.3, 2.7). A GraphQL body whose
 * operation is a subscription subscribes instead (graphql-subscription/, loaded for GraphQL bodies only).
 * The client (http.ts, and undici with it) is imported at the first send: `ferry ls`, `--help`
 * and runs of other kinds ask this table without loading it.
 */
import { loadOnce } from '../../support/load-once.js';
import type { ProtocolResult, RequestKindModule } from '../kind.js';
import type { HttpResult } from './types.js';

const subscriptions = loadOnce(() => import('./graphql-subscription/index.js'));
const httpClient = loadOnce(() => import('./http.js'));

export const httpKind: RequestKindModule = {
  kind: 'http',
  noun: 'an HTTP request',
  url: 'url',
  schemes: ['http', 'https'],
  method: 'http',
  httpClient: true,
  tag: (method) => method.toUpperCase(),
  exportsAsCode: true,
  send: async (prepared, context, signal) => {
    if (prepared.body.kind === 'bytes' && prepared.body.source === 'graphql') {
      const subscribed = await (await subscriptions()).sendIfSubscription(prepared, context, signal);
      if (subscribed) return subscribed;
    }
    // undici loads with the first send: `ferry ls` and the other listings never need it.
    const { sendHttp } = await httpClient();
    return fromHttpResult(await sendHttp(prepared, { agents: context.agents, cookies: context.cookies, signal, maxResponseMb: context.maxResponseMb }));
  },
  loadClient: async () => (await httpClient()).loadUndici(),
  // Only a GraphQL subscription stays connected; other HTTP requests are refused with a message.
  connect: async (prepared, context, handlers, signal) => (await subscriptions()).connectSubscription(prepared, context, handlers, signal),
  composer: { formats: [], fields: [], operations: [], when: 'graphqlSubscription' },
};

/** An HTTP answer as the kind-neutral result: its status is the outcome, below 400 passes without tests. */
export function fromHttpResult(response: HttpResult): ProtocolResult {
  return {
    outcome: { status: response.status, text: response.statusText, ok: response.status < 400 },
    headers: response.headers,
    sentHeaders: response.sentHeaders,
    body: response.body,
    bodySize: response.bodySize,
    size: response.size,
    url: response.url,
    ...(response.redirects.length ? { redirects: response.redirects } : {}),
    timings: response.timings,
    httpVersion: response.httpVersion,
    ...(response.remoteAddress ? { remoteAddress: response.remoteAddress } : {}),
  };
}
