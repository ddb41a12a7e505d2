/**
 * The request-kind table (DESIGN "Kinds plug in"): one module per kind. The runner, `ferry ls`,
 * code export, reports and the app ask it; adding a kind is one module and one line here.
 * A module without `send` (a kind known to the format whose client is not built) has its
 * requests reported as skipped by `notRunYet`, the one rule for that.
 */
import type { RequestKind } from '../model/index.js';
import { dnsKind } from './dns/index.js';
import { grpcKind } from './grpc/index.js';
import { httpKind } from './http/index.js';
import type { RequestKindModule } from './kind.js';
import { mcpKind } from './mcp/index.js';
import { mqttKind } from './mqtt/index.js';
import { socketioKind } from './socketio/index.js';
import { sseKind } from './sse/index.js';
import { websocketKind } from './websocket/index.js';
import { tcpKind } from './tcp/index.js';
import { udpKind } from './udp/index.js';

const KINDS: Record<RequestKind, RequestKindModule> = {
  http: httpKind,
  sse: sseKind,
  websocket: websocketKind,
  socketio: socketioKind,
  grpc: grpcKind,
  tcp: tcpKind,
  udp: udpKind,
  dns: dnsKind,
  mqtt: mqttKind,
  mcp: mcpKind,
};

export function requestKind(kind: RequestKind): RequestKindModule {
  return KINDS[kind];
}

export function allRequestKinds(): readonly RequestKindModule[] {
  return Object.values(KINDS);
}

/** Why a request of this kind is not run (its client is not built yet), or undefined when it is. */
export function notRunYet(kind: RequestKind): string | undefined {
  return KINDS[kind].send ? undefined : `${kind} requests are not run by ferry run yet`;
}

/** Why a request of this kind cannot be opened as a live connection, or undefined when it can. */
export function noLiveConnection(kind: RequestKind): string | undefined {
  if (KINDS[kind].connect) return undefined;
  const live = Object.entries(KINDS).filter(([, module]) => module.connect).map(([name]) => name);
  return `${kind} requests have no live connection in this version of Ferry; send them instead (live connections: ${live.join(', ')}).`;
}
