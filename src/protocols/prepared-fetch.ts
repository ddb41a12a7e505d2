/**
 * The fetch a kind hands to a library that sends HTTP itself (the MCP SDK's transports, Socket.IO's
 * signed long-polling): through Ferry's pools for the request's `verifyTls` and `proxy` settings,
 * with answers bounded by the application's `maxResponseMb`, as the kind's own sends are.
 */
import type { PreparedRequest } from '../request/prepared.js';
import { fetchOn, type FetchOn } from '../support/fetch-on.js';
import type { SendContext } from './kind.js';
import { maxResponseBytes } from './response-limit.js';

export function preparedFetch(prepared: PreparedRequest, context: SendContext): FetchOn {
  const dispatcher = context.agents.get(prepared.settings?.verifyTls !== false, 'auto', prepared.settings?.proxy === false);
  return fetchOn(dispatcher, maxResponseBytes(context.maxResponseMb));
}
