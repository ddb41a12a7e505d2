/**
 * The `sse` request kind: an HTTP request whose event stream is read by the shared stop rule (spec 2.7, 2.8).
 * Its client (sse.ts, with HTTP's) is imported at the first send.
 */
import { loadOnce } from '../../support/load-once.js';
import { fromHttpResult } from '../http/index.js';
import type { RequestKindModule } from '../kind.js';
import { withStreamHeaders } from './stream-headers.js';

const sseClient = loadOnce(() => import('./sse.js'));

export const sseKind: RequestKindModule = {
  kind: 'sse',
  noun: 'an SSE request',
  url: 'url',
  schemes: ['http', 'https'],
  method: 'http',
  httpClient: true,
  tag: () => 'sse',
  exportsAsCode: false,
  shape: withStreamHeaders,
  send: async (prepared, context, signal) => {
    const { sendSse } = await sseClient();
    const response = await sendSse(prepared, prepared.stream, { agents: context.agents, cookies: context.cookies, signal, maxResponseMb: context.maxResponseMb }, context.onMessage);
    return { ...fromHttpResult(response), ...(response.stream ? { stream: response.stream, messages: response.messages } : {}) };
  },
  connect: async (prepared, context, handlers, signal) => (await sseClient()).connectSse(prepared, { agents: context.agents, cookies: context.cookies, maxResponseMb: context.maxResponseMb }, handlers, signal),
  composer: { formats: [], fields: [], operations: [], when: 'always' },
};
