/**
 * The request-kind table (DESIGN "Kinds plug in"): one module per kind. The runner, `ferry ls`,
 * code export, reports and the app ask it; adding a kind is one module and one line here.
 * Kinds listed with `planned` are known to the format but not built yet: their requests are
 * reported as skipped by `notRunYet`, the one rule for that.
 */
import type { RequestKind } from '../model/index.js';
import type { KindRules } from '../request/prepared.js';
import { grpcKind } from './grpc/index.js';
import { httpKind } from './http/index.js';
import type { RequestKindModule } from './kind.js';
import { mcpKind } from './mcp/index.js';
import { sseKind } from './sse/index.js';

/** A kind of the format whose client is not built yet: preparation rules and naming only. */
function planned(rules: KindRules, tag: RequestKindModule['tag'] = () => rules.kind): RequestKindModule {
  return { ...rules, tag, exportsAsCode: false };
}

const KINDS: Record<RequestKind, RequestKindModule> = {
  http: httpKind,
  sse: sseKind,
  websocket: planned({ kind: 'websocket', noun: 'a WebSocket request', url: 'url', schemes: ['ws', 'wss'], method: 'none' }),
  socketio: planned({ kind: 'socketio', noun: 'a Socket.IO request', url: 'url', schemes: ['http', 'https', 'ws', 'wss'], method: 'none', options: 'socketio' }),
  grpc: grpcKind,
  tcp: planned({ kind: 'tcp', noun: 'a TCP request', url: 'url', schemes: ['tcp', 'tls'], method: 'none', options: 'socket' }),
  udp: planned({ kind: 'udp', noun: 'a UDP request', url: 'url', schemes: ['udp'], method: 'none', options: 'socket' }),
  dns: planned({ kind: 'dns', noun: 'a DNS request', url: 'text', schemes: [], method: 'text', options: 'dns' }, (method) => `dns ${method.toUpperCase()}`),
  mqtt: planned({ kind: 'mqtt', noun: 'an MQTT request', url: 'url', schemes: ['mqtt', 'mqtts'], method: 'none', options: 'mqtt' }),
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
