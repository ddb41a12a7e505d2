/**
 * undici's `Agent` and `Dispatcher`, each required from its own file at first use. undici's index
 * loads all of undici: fetch, WebSocket, EventSource, caches, mock agents (110 files), and through
 * its cookie helpers Node's own bundled fetch as well; a direct HTTP send needs 23 of those files.
 * The paths are the files the index re-exports for the pinned undici 7
 * (test/protocols/undici-parts.test.ts checks they are the same classes). `ProxyAgent` comes from
 * the index: it tunnels with the `connect` method the index adds to every dispatcher.
 * support/fetch-on.ts (OAuth 2.0, MCP, Socket.IO) requires undici's `request` from its own file
 * too, and makes Node's global Response, as GraphQL over SSE does.
 */
import type { Agent, Dispatcher, ProxyAgent } from 'undici';
import { lazyRequire } from '../../support/lazy-require.js';

export const undiciAgent = lazyRequire<typeof Agent>(import.meta.url, 'undici/lib/dispatcher/agent.js');
const undici = lazyRequire<{ ProxyAgent: typeof ProxyAgent }>(import.meta.url, 'undici');
export const undiciProxyAgent = (): typeof ProxyAgent => undici().ProxyAgent;
export const undiciDispatcher = lazyRequire<typeof Dispatcher>(import.meta.url, 'undici/lib/dispatcher/dispatcher.js');
