/**
 * The "Where" table of spec 8.2 as data: every place that renders text names its row here, and the
 * row alone decides which placeholder families apply. No other file decides this.
 */
import { TEMPLATE_LIMITS } from './limits.js';

export interface PlaceRules {
  /** Shown in docs and messages. */
  label: string;
  /** False: the field is not templated at all; its text is used as written. */
  templated: boolean;
  /** `{{request.*}}` is filled from the client's request. */
  request: boolean;
  /** `{{message}}` (written exactly so): the answered message, always empty, or not special. */
  message: 'filled' | 'empty' | 'no';
  /** `{{args}}`, `{{args.name}}`, `{{params.name}}` of an MCP call. */
  mcp: boolean;
  /** Variables and dynamic values. */
  variables: boolean;
  /** Secret variables may be filled (only where the user's own request is prepared, never in servers). */
  secrets: boolean;
  /** Cap on the rendered text in UTF-8 bytes; placeholders past it stay as written. */
  maxBytes: number;
}

const CAP = TEMPLATE_LIMITS.maxRenderedBytes;

const notTemplated = (label: string): PlaceRules => ({
  label,
  templated: false,
  request: false,
  message: 'no',
  mcp: false,
  variables: false,
  secrets: false,
  maxBytes: CAP,
});

const server = (label: string, families: Partial<Pick<PlaceRules, 'request' | 'message' | 'mcp'>>): PlaceRules => ({
  label,
  templated: true,
  request: families.request ?? false,
  message: families.message ?? 'no',
  mcp: families.mcp ?? false,
  variables: true,
  secrets: false,
  maxBytes: CAP,
});

const usersOwn = (label: string): PlaceRules => ({
  label,
  templated: true,
  request: false,
  message: 'no',
  mcp: false,
  variables: true,
  secrets: true,
  maxBytes: CAP,
});

export const RENDER_PLACES = {
  // What the user sends: spec 2.1.11 and the traffic-panel paragraph of 8.2 ("as for requests").
  request: usersOwn('Request: URL, params, headers, body, auth fields'),
  'panel.send': usersOwn("Text typed in a server's traffic panel and sent to WebSocket, TCP, UDP or relay clients"),

  // Mock API
  'mock.body': server('Mock API: route body', { request: true }),
  'mock.header': server('Mock API: route header names and values', { request: true }),
  'mock.match': server('Mock API: match-only values (matchQuery, matchHeaders, matchBody)', {}),
  'mock.backendUrl': server('Mock API: backend URL (forwarding)', {}),
  'mock.status': notTemplated('Mock API: route status'),
  'mock.method': notTemplated('Mock API: route method'),
  'mock.path': notTemplated('Mock API: route path'),

  // Event stream (SSE) server
  'sse.event': server('Event stream server: event data and id', { request: true }),
  'sse.eventName': notTemplated('Event stream server: event name'),
  'sse.panel': server('Event stream server: data sent from the traffic panel', { request: true }),

  // WebSocket, TCP, UDP
  'ws.greeting': server('WebSocket server: greeting', {}),
  'ws.reply': server('WebSocket server: rule replies', { message: 'filled' }),
  'tcp.greeting': server('TCP server: greeting (text)', { message: 'empty' }),
  'socket.reply': server('TCP and UDP servers: rule replies (text)', { message: 'filled' }),
  'socket.hex': notTemplated('TCP and UDP in hex encoding'),
  'socket.pattern': notTemplated('Rule patterns'),
  'dns.record': notTemplated('DNS records'),
  'relay.target': notTemplated('Relay target'),

  // Socket.IO: not in the spec's table; like the WebSocket greeting (variables and dynamic values).
  'socketio.greeting': server('Socket.IO server: greeting arguments', {}),
  'socketio.reply': server('Socket.IO server: rule reply arguments', {}),

  // MCP server (spec 2.11): results, resource texts and prompt messages.
  'mcp.result': server('MCP server: tool results', { mcp: true }),
  'mcp.resource': server('MCP server: resource texts', { mcp: true }),
  'mcp.prompt': server('MCP server: prompt messages', { mcp: true }),
} as const satisfies Record<string, PlaceRules>;

export type RenderPlace = keyof typeof RENDER_PLACES;

/** Inside a variable's value: other variables and dynamic values only (spec 8.2). */
export const VARIABLE_VALUE_RULES: PlaceRules = {
  label: "A variable's value",
  templated: true,
  request: false,
  message: 'no',
  mcp: false,
  variables: true,
  secrets: false, // decided per rendering: the secrets rule of the outer place applies
  maxBytes: TEMPLATE_LIMITS.maxExpansionBytes,
};

export function placeRules(place: RenderPlace): PlaceRules {
  const rules: PlaceRules | undefined = (RENDER_PLACES as Record<string, PlaceRules>)[place];
  if (rules === undefined || !Object.hasOwn(RENDER_PLACES, place)) {
    throw new Error(`Unknown template place "${String(place)}"; use one of: ${Object.keys(RENDER_PLACES).join(', ')}`);
  }
  return rules;
}
