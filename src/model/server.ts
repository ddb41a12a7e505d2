/** A local server, `servers/<id>.yaml` (spec 2.11). Only the section of the server's kind is used; the others are kept. */
import { z } from 'zod';
import { flag, integer, list, number, oneOf, section, text } from './declare.js';
import { keyValues } from './common.js';
import { framingFields } from './socket-framing.js';
import { encodingField } from './socket-encoding.js';

export const SERVER_KINDS = ['http', 'mcp', 'websocket', 'socketio', 'sse', 'tcp', 'udp', 'dns', 'tcpProxy'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** Ports servers made in the app get (2.11); files default to 0 = any free port. */
export const APP_DEFAULT_PORTS: Record<ServerKind, number> = {
  http: 3000, websocket: 3001, sse: 3002, socketio: 3003, mcp: 3004, tcp: 9000, udp: 9001, dns: 1053, tcpProxy: 9100,
};

/**
 * The port a server made in the app gets (2.11): its kind's, unless a server file of the
 * workspace already asks for it (`used`); then the next one above it that none asks for (two HTTP
 * servers made one after the other got 3000 both, and the second could not start). 0 (any free
 * port) when none is left.
 */
export function newServerPort(kind: ServerKind, used: Iterable<number>): number {
  const taken = new Set(used);
  for (let port = APP_DEFAULT_PORTS[kind]; port <= 65535; port++) if (!taken.has(port)) return port;
  return 0;
}

const MODES = ['echo', 'rules', 'manual', 'discard'] as const;

/**
 * The server file's schemas. Built at the first server file read or written, not when the model
 * loads: a run in a workspace without servers/ never needs them (~15% of building the model).
 */
function declareServerSchemas() {
  const routeSchema = section({
    name: text().default(''),
    method: text().default('*'),
    path: text().refine((p) => p.startsWith('/'), { error: 'a route path must start with /' }),
    status: integer(100, 999).default(200),
    headers: keyValues(),
    body: text().default(''),
    delayMs: integer(0).default(0),
    matchQuery: keyValues(),
    matchHeaders: keyValues(),
    matchBody: text().default(''),
    fault: oneOf(['none', 'error', 'reset', 'hang']).default('none'),
    faultPercent: integer(0, 100).default(100),
    enabled: flag().default(true),
  });

  /**
   * Ferry's addition to the mock API (not in spec 2.11): the OpenAPI document the server was
   * generated from (`ferry import DOC --as-server`), kept under `specs/`. With `validateRequests`
   * each request is checked against the operation its route stands for and answered 422 when it
   * does not match; `Prefer: code=` / `example=` choose another documented response.
   */
  const mockOpenApiSchema = section({
    spec: text(),
    validateRequests: flag().default(true),
  });

  const httpServerSchema = section({
    routes: list(routeSchema).default([]),
    fallback: oneOf(['notFound', 'proxy']).default('notFound'),
    proxyUrl: text().optional(),
    cors: flag().default(false),
    openapi: mockOpenApiSchema.optional(),
  });

  const socketRuleSchema = section({
    match: oneOf(['any', 'contains', 'exact', 'regex']).default('contains'),
    pattern: text().default(''),
    reply: text().default(''),
    delayMs: integer(0).default(0),
    enabled: flag().default(true),
  });

  /** WebSocket, TCP and UDP servers share these fields (`websocket` and `socket` sections). */
  const socketFields = {
    mode: oneOf(MODES).default('echo'),
    greeting: text().default(''),
    rules: list(socketRuleSchema).default([]),
    encoding: encodingField(),
    ...framingFields(),
  };
  const socketServerSchema = section(socketFields);

  /**
   * Ferry's addition to the WebSocket server (not in spec 2.11, as Socket.IO's and MCP's `cors`):
   * without `cors`, a web page of another origin is refused (browsers apply no CORS to WebSockets).
   */
  const websocketServerSchema = section({ ...socketFields, cors: flag().default(false) });

  const socketioServerSchema = section({
    mode: oneOf(MODES).default('echo'),
    greetingEvent: text().default(''),
    greetingArgs: text().default(''),
    rules: list(section({
      event: text().default('*'),
      match: oneOf(['any', 'contains', 'exact', 'regex']).default('any'),
      pattern: text().default(''),
      ack: flag().default(false),
      replyEvent: text().default(''),
      replyArgs: text().default(''),
      broadcast: flag().default(false),
      delayMs: integer(0).default(0),
      enabled: flag().default(true),
    })).default([]),
    path: text().default('/socket.io/'),
    cors: flag().default(false),
  });

  const mcpServerSchema = section({
    serverName: text().optional(),
    version: text().default('1.0.0'),
    instructions: text().default(''),
    tools: list(section({
      name: text().default(''), title: text().optional(), description: text().optional(),
      inputSchema: text().optional(), outputSchema: text().optional(), result: text().default(''),
      isError: flag().default(false), delayMs: integer(0).default(0), enabled: flag().default(true),
    })).default([]),
    resources: list(section({
      uri: text().default(''), name: text().optional(), title: text().optional(), description: text().optional(),
      mimeType: text().optional(), text: text().default(''), enabled: flag().default(true),
    })).default([]),
    prompts: list(section({
      name: text().default(''), title: text().optional(), description: text().optional(),
      arguments: list(section({ name: text().default(''), description: text().optional(), required: flag().default(false) })).default([]),
      messages: list(section({ role: oneOf(['user', 'assistant']).default('user'), text: text().default('') })).default([]),
      enabled: flag().default(true),
    })).default([]),
    path: text().default('/mcp'),
    cors: flag().default(false),
  });

  const sseEventSchema = section({
    event: text().default(''),
    data: text().default(''),
    id: text().default(''),
  });

  const sseServerSchema = section({
    events: list(sseEventSchema).default([]),
    intervalMs: integer(0).default(0),
    repeat: flag().default(false),
  });

  const dnsServerSchema = section({
    records: list(section({
      name: text().default(''),
      type: oneOf(['A', 'AAAA', 'CNAME', 'TXT', 'MX', 'NS', 'PTR', 'SRV', 'CAA']).default('A'),
      value: text().default(''),
      ttl: integer(0, 2_147_483_647).default(60),
      enabled: flag().default(true),
    })).default([]),
    upstream: text().default(''),
  });

  const relaySchema = section({
    target: text().default(''),
    upstreamTls: flag().default(false),
  });

  const tlsSchema = section({
    enabled: flag().default(false),
    certPath: text().optional(),
    keyPath: text().optional(),
  });

  const serverSchema = section({
    name: text().default(''),
    kind: oneOf(SERVER_KINDS).default('http'),
    seq: number().default(0),
    host: oneOf(['127.0.0.1', '0.0.0.0']).default('127.0.0.1'),
    port: integer(0, 65535).default(0),
    tls: tlsSchema.optional(),
    autoStart: flag().default(false),
    http: httpServerSchema.optional(),
    websocket: websocketServerSchema.optional(),
    socketio: socketioServerSchema.optional(),
    mcp: mcpServerSchema.optional(),
    sse: sseServerSchema.optional(),
    socket: socketServerSchema.optional(),
    dns: dnsServerSchema.optional(),
    proxy: relaySchema.optional(),
    docs: text().optional(),
  });
  return { routeSchema, mockOpenApiSchema, serverSchema };
}

type ServerSchemas = ReturnType<typeof declareServerSchemas>;
let declared: ServerSchemas | undefined;

/** The schemas of `servers/<id>.yaml`: the file's, and its parts other modules name. */
export function serverSchemas(): ServerSchemas {
  return (declared ??= declareServerSchemas());
}

export type ServerSchema = ServerSchemas['serverSchema'];
export type RouteSchema = ServerSchemas['routeSchema'];
export type MockRoute = z.output<RouteSchema>;
export type MockOpenApiLink = z.output<ServerSchemas['mockOpenApiSchema']>;
export type ServerFile = z.output<ServerSchema>;

/** The section of the file each kind reads (2.11): TCP and UDP share `socket`, the relay reads `proxy`. */
export const SERVER_KIND_SECTION = {
  http: 'http', mcp: 'mcp', websocket: 'websocket', socketio: 'socketio', sse: 'sse', tcp: 'socket', udp: 'socket', dns: 'dns', tcpProxy: 'proxy',
} as const satisfies Record<ServerKind, keyof ServerFile>;

type KindSection = (typeof SERVER_KIND_SECTION)[ServerKind];
const sectionDefaults = new Map<KindSection, unknown>();

/**
 * The section of `server` its kind reads (`name`, 2.11), or, when the file has none, that section
 * with every field at its default (2.1.1: missing fields take their defaults), from the one
 * declaration: the kinds hold no copy of the defaults.
 */
export function kindSection<S extends KindSection>(server: ServerFile, name: S): NonNullable<ServerFile[S]> {
  const written = server[name];
  if (written !== undefined) return written as NonNullable<ServerFile[S]>;
  let defaults = sectionDefaults.get(name);
  if (defaults === undefined) {
    defaults = (serverSchemas().serverSchema.shape[name] as unknown as z.ZodOptional<z.ZodType>).unwrap().parse({});
    sectionDefaults.set(name, defaults);
  }
  // A fresh copy: a kind may keep the section, and the defaults are shared.
  return structuredClone(defaults) as NonNullable<ServerFile[S]>;
}

/** Every section a server file may hold (2.11), whichever kind the file is. */
const KIND_SECTIONS: ReadonlySet<string> = new Set(Object.values(SERVER_KIND_SECTION));

/**
 * 2.11: "Only the section of the server's kind is used; the other sections are kept." So a
 * problem in another kind's section (left from switching the kind, or written by hand) neither
 * refuses the file nor is reported: those sections are kept exactly as written and never read.
 * Given the file's problems, gives the file parsed (by `parse`) without those sections and with
 * them put back as written, or the problems that remain when others lie elsewhere.
 */
export function keepingUnusedSections<T, P extends { path: readonly (string | number)[] }>(
  data: unknown,
  problems: P[],
  parse: (data: Record<string, unknown>) => { ok: true; value: T } | { ok: false },
): { ok: true; value: T } | { ok: false; problems: P[] } {
  const refused = { ok: false as const, problems };
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return refused;
  const file = data as Record<string, unknown>;
  const kind = file.kind ?? 'http';
  if (typeof kind !== 'string' || !(SERVER_KINDS as readonly string[]).includes(kind)) return refused;
  const used: string = SERVER_KIND_SECTION[kind as ServerKind];
  const inUnused = (problem: P) => typeof problem.path[0] === 'string' && problem.path[0] !== used && KIND_SECTIONS.has(problem.path[0]);
  const remaining = problems.filter((problem) => !inUnused(problem));
  if (remaining.length > 0) return { ok: false, problems: remaining };
  const unused = new Set(problems.map((problem) => problem.path[0] as string));
  const parsed = parse(Object.fromEntries(Object.entries(file).filter(([key]) => !unused.has(key))));
  if (!parsed.ok) return refused;
  const value = parsed.value as Record<string, unknown>;
  for (const section of unused) value[section] = file[section];
  return parsed;
}

/** Literal text, or a parameter. */
export type SegmentPart = string | { param: string };

/**
 * The parts of one mock-route path segment (spec 2.11; the format the mock matches and the
 * importer writes), or undefined for a literal segment. `:name` at the start
 * of a segment is a parameter whose name ends at the first `.` (`:id.json`); `{name}` is one
 * anywhere in the segment (`{id}.{format}`, `file-{n}`, `{name}:cancel`). Every other character
 * is literal text.
 */
export function segmentParts(segment: string): SegmentPart[] | undefined {
  if (segment.length > 1 && segment.startsWith(':')) {
    const dot = segment.indexOf('.');
    if (dot < 0) return [{ param: segment.slice(1) }];
    if (dot > 1) return [{ param: segment.slice(1, dot) }, ...(segmentParts(segment.slice(dot)) ?? [segment.slice(dot)])];
  }
  if (!segment.includes('{')) return undefined;
  const parts: SegmentPart[] = [];
  let last = 0;
  for (const found of segment.matchAll(/\{([^{}]+)\}/g)) {
    if (found.index > last) parts.push(segment.slice(last, found.index));
    parts.push({ param: found[1]! });
    last = found.index + found[0].length;
  }
  if (parts.length === 0) return undefined;
  if (last < segment.length) parts.push(segment.slice(last));
  return parts;
}
