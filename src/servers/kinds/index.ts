/**
 * The server kinds, by name: the one table `ferry serve`, `ferry run --start-servers`, `ferry ls`
 * and the app ask. A kind of the format that is not built yet has no row and is refused by
 * `serverKindModule`, the one place that says so. What a kind says about itself to people (its
 * names, its traffic's directions, the panel's send, the editor's hint) is in `info.ts` beside it.
 */
import { SERVER_KINDS, type ServerKind } from '../../model/index.js';
import { ServerError } from '../errors.js';
import { httpMockKind } from './http-mock/http-mock.js';
import type { LazyServerKind, ServerKindModule } from './kind.js';
import { sseKind } from './sse/sse.js';

/** Kind name → module (or its loader); a kind without a row is not built yet. */
export type ServerKindTable = Partial<Record<ServerKind, ServerKindModule | LazyServerKind>>;

export const SERVER_KIND_MODULES: ServerKindTable = {
  http: httpMockKind,
  sse: sseKind,
  // Kinds with libraries of their own (ws, dns-packet, re2js, socket.io, the MCP SDK) load when
  // such a server starts, so other commands do not pay for them.
  websocket: { kind: 'websocket', load: async () => (await import('./websocket/websocket.js')).websocketKind },
  tcp: { kind: 'tcp', load: async () => (await import('./tcp/tcp.js')).tcpKind },
  udp: { kind: 'udp', load: async () => (await import('./udp/udp.js')).udpKind },
  dns: { kind: 'dns', load: async () => (await import('./dns/dns.js')).dnsKind },
  socketio: { kind: 'socketio', load: async () => (await import('./socketio/socketio.js')).socketioKind },
  tcpProxy: { kind: 'tcpProxy', load: async () => (await import('./relay/relay.js')).relayKind },
  mcp: { kind: 'mcp', load: async () => (await import('./mcp/mcp.js')).mcpKind },
};

/** True when this version can run servers of the kind. */
export function isServerKindBuilt(kind: ServerKind): boolean {
  return SERVER_KIND_MODULES[kind] !== undefined;
}

/** The row of a kind, or the refusal naming the file, the kind and the kinds that do run. */
export function serverKindModule(kind: ServerKind, file: string, table: ServerKindTable = SERVER_KIND_MODULES): ServerKindModule | LazyServerKind {
  const module = table[kind];
  if (module !== undefined) return module;
  const supported = SERVER_KINDS.filter((k) => table[k] !== undefined).join(', ');
  throw new ServerError(`${file}: kind: ${kind} servers are not supported by this version of Ferry yet (supported: ${supported}).`);
}

/** The module of a kind, imported now if its row is lazy (see `LazyServerKind`). */
export async function loadServerKind(kind: ServerKind, file: string, table: ServerKindTable = SERVER_KIND_MODULES): Promise<ServerKindModule> {
  const row = serverKindModule(kind, file, table);
  return 'load' in row ? row.load() : row;
}

export { NEW_SERVER_KIND_PICKED, NEW_SERVER_KINDS, SERVER_KIND_INFO, type ServerKindInfo } from './info.js';
export type { BindOptions, ClientInfo, HttpKindInstance, KindContext, KindInstance, KindSettings, LazyServerKind, PushOptions, SendForm, ServerKindModule, SocketKindInstance } from './kind.js';
