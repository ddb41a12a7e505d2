/**
 * What each server kind says about itself to the people who use it: its names, the words of its
 * traffic's directions, the traffic panel's send and the editor's hint for its section. The app
 * draws its servers panel from this table (`GET /api/server-kinds`), so a new kind needs no change
 * in the page. Plain data beside `SERVER_KIND_MODULES`: reading it loads none of the kinds' modules
 * (several are imported only when a server of the kind starts).
 */
import type { ServerKind } from '../../model/index.js';

export interface ServerKindInfo {
  /** In the new-server picker and its name prompt: `TCP relay`. */
  label: string;
  /** In running text (`Start a WebSocket, … or relay server`): `relay`. */
  noun: string;
  /** What a traffic record's `in` and `out` read as, seen from the server (`exchange` reads as nothing). */
  directions: { in: string; out: string };
  /**
   * Present when the kind's instances send to clients from the traffic panel (`push`; the kind
   * tests check the two agree). `eventPlaceholder`: the event box's hint, for kinds whose
   * `sendForm` has `event`.
   */
  send?: { eventPlaceholder?: string };
  /** Above the editor's YAML of the kind's section: the section's fields (spec 2.11). */
  sectionHint: string;
  /** Clients may talk TLS to it (spec 2.11: http, mcp, websocket, socketio, sse, tcp); the others refuse `tls.enabled`. */
  tls?: true;
  /** The transports its port is bound on, when not TCP alone: UDP, or (DNS) both. Two servers clash on a port only on a transport they share. */
  listensOn?: ReadonlyArray<'tcp' | 'udp'>;
}

const FROM_CLIENT = { in: 'from client', out: 'to client' };
// Spec 2.11: a greeting for TCP (not UDP, which has no connection to greet), framing for TCP only.
const TCP_HINT = 'mode, greeting, rules, encoding (text, hex), framing (raw, line, lengthPrefixed), lengthBytes, lineEnding';
const UDP_HINT = 'mode, rules, encoding (text, hex), lineEnding';

/** Every kind of the format, in the format's order (`SERVER_KINDS`); typed by it, so none is left out. */
export const SERVER_KIND_INFO: Record<ServerKind, ServerKindInfo> = {
  http: {
    label: 'HTTP mock API', noun: 'HTTP mock', directions: FROM_CLIENT, tls: true,
    sectionHint: 'routes (method, path, status, headers, body, delayMs, match…, fault), fallback, proxyUrl, cors',
  },
  mcp: {
    label: 'MCP', noun: 'MCP', directions: FROM_CLIENT, tls: true,
    sectionHint: 'serverName, version, instructions, tools, resources, prompts, path, cors',
  },
  websocket: {
    label: 'WebSocket', noun: 'WebSocket', directions: FROM_CLIENT, send: {}, tls: true,
    sectionHint: 'mode (echo, rules, manual, discard), greeting, rules (match, pattern, reply, delayMs), lineEnding, cors',
  },
  socketio: {
    label: 'Socket.IO', noun: 'Socket.IO', directions: FROM_CLIENT, send: { eventPlaceholder: 'event (default message)' }, tls: true,
    sectionHint: 'mode, greetingEvent, greetingArgs, rules (event, match, pattern, ack, replyEvent, replyArgs, broadcast), path, cors',
  },
  sse: {
    label: 'Server-sent events', noun: 'SSE', directions: FROM_CLIENT, send: { eventPlaceholder: 'event (empty = message)' }, tls: true,
    sectionHint: 'events (event, data, id), intervalMs, repeat',
  },
  tcp: { label: 'TCP', noun: 'TCP', directions: FROM_CLIENT, send: {}, tls: true, sectionHint: TCP_HINT },
  udp: { label: 'UDP', noun: 'UDP', directions: FROM_CLIENT, send: {}, sectionHint: UDP_HINT, listensOn: ['udp'] },
  dns: {
    label: 'DNS', noun: 'DNS', directions: FROM_CLIENT, listensOn: ['udp', 'tcp'],
    sectionHint: 'records (name, type, value, ttl), upstream (empty, system, or host:port)',
  },
  // The relay's `in` is what a client sent on to the target, `out` what the target sent back.
  tcpProxy: {
    label: 'TCP relay', noun: 'relay', directions: { in: 'client → target', out: 'target → client' }, send: {},
    sectionHint: 'target (host:port), upstreamTls',
  },
};

/** The new-server picker (spec 2.11): the kinds in the order it offers them, and the one picked at first. */
export const NEW_SERVER_KINDS: readonly ServerKind[] = ['http', 'websocket', 'sse', 'socketio', 'mcp', 'tcp', 'udp', 'dns', 'tcpProxy'];
export const NEW_SERVER_KIND_PICKED: ServerKind = 'websocket';

/** The transports a server kind listens on (the table's `listensOn`): TCP unless it says UDP, or (DNS) both. */
function portTransports(kind: ServerKind): ReadonlyArray<'tcp' | 'udp'> {
  return SERVER_KIND_INFO[kind].listensOn ?? ['tcp'];
}

/** Whether servers of kinds `a` and `b` clash on one port number: only on a transport both listen on (a UDP server and a TCP one share it). */
export function portsClash(a: ServerKind, b: ServerKind): boolean {
  const wanted = portTransports(a);
  return portTransports(b).some((t) => wanted.includes(t));
}
