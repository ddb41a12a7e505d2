/**
 * Socket.IO requests (spec 2.8, `socket.io-client` 4): connect to the URL's namespace with the
 * request's headers, cookies and auth payload over the chosen transport; emit `event` with the
 * body's arguments (its acknowledgement, with `ack`, read as a received `ack` event); read events
 * by the shared stop rule (`stream.event` = an event name).
 */
import type { Manager, Socket } from 'socket.io-client';
import type { PreparedRequest } from '../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { describeSocketError, errorCode, gatewayHint } from '../connection-errors.js';
import { proxyError } from '../http/proxy-errors.js';
import { tunnelFor } from '../http/tunnel-agent.js';
import { SendError } from '../send-error.js';
import { openLive } from '../live/connection.js';
import { jsonValue, outgoingBytes } from '../live/outgoing.js';
import type { ConnectHandlers, LiveConnection, OutgoingMessage } from '../live/types.js';
import type { MessageStream } from '../stream/messages.js';
import { StreamSession } from '../stream/session.js';
import { authPayload, emitArguments, eventMessage } from './arguments.js';
import { boundedPolling, plainPoll, type PollRequest } from './polling.js';
import { signedTransports } from './signed-transports.js';
import { describeWebSocketError, NO_LIMIT_PAYLOAD } from '../websocket/websocket.js';
import { webSocketTransport } from './websocket-transport.js';
import { WireOrderManager } from './wire-order-manager.js';
import { maxResponseBytes } from '../response-limit.js';

interface SocketIoOptions {
  path: string;
  transport: 'auto' | 'websocket' | 'polling';
  auth: string;
  event: string;
  ack: boolean;
}

const TRANSPORTS = { auto: ['websocket', 'polling'], websocket: ['websocket'], polling: ['polling'] } as const;
/** socket.io-client never waits forever; with no time limit of ours, its limit is this. */
const NO_LIMIT_MS = 2 ** 31 - 1;

/** The request's URL, refused unless http(s):// or ws(s)://. */
function socketIoUrl(prepared: PreparedRequest): URL {
  const url = new URL(prepared.url);
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
    throw new SendError(`a Socket.IO request needs an http://, https://, ws:// or wss:// URL, not ${url.protocol}//.`, 'unsupported');
  }
  return url;
}

/**
 * The namespace the URL's path names, as typed: the URL parser percent-encodes a path beyond ASCII
 * (`/nämespace` → `/n%C3%A4mespace`), which socket.io-client, reading the URL's text, does not,
 * and a server's `io.of('/nämespace')` matches only the decoded name.
 */
function namespaceOf(url: URL): string {
  const path = url.pathname || '/';
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // a stray % that is not an escape: as typed
  }
}

interface OpenedSocketIo {
  manager: Manager;
  socket: Socket;
  disconnected?: string;
}

/**
 * Connects to the URL's namespace with the request's headers, cookies, auth payload and
 * transport, and wires the socket to the session: connect errors, received events, the
 * disconnect. The one connection code of `send` and `connect`; `onConnect` runs once connected.
 */
function openSocketIo(prepared: PreparedRequest, context: SendContext, session: StreamSession, url: URL, onConnect: () => void): OpenedSocketIo {
  const options = prepared.options as unknown as SocketIoOptions;
  const auth = authPayload(prepared, options.auth);
  const server = new URL(url.href);
  server.protocol = url.protocol === 'wss:' || url.protocol === 'https:' ? 'https:' : 'http:';
  const timeoutMs = prepared.settings?.timeoutMs ?? 0;
  // Both transports (WebSocket and long-polling) go through the run's proxy, as HTTP requests do.
  const tunnel = tunnelFor(context.agents, server, prepared.settings);
  // Long-polling reads each answer within the bound, as the WebSocket transport reads each frame (polling.ts).
  const polling = (request: PollRequest) => boundedPolling(request, maxPayload(context), () => session.fail(tooLarge(url, context.maxResponseMb)));
  const names = TRANSPORTS[options.transport];
  const webSocket = webSocketTransport(url, (error) => session.fail(error));
  // Packets reach the socket in the order the server sent them (wire-order-manager.ts).
  const manager = new WireOrderManager(server.origin, {
    path: options.path || '/socket.io/',
    // A signed request signs each of the connection's requests (signed-transports.ts).
    transports: prepared.signEachHop ? signedTransports(prepared.signEachHop, prepared, context, names, webSocket, polling) : names.map((name) => (name === 'websocket' ? webSocket : polling(plainPoll))),
    tryAllTransports: options.transport === 'auto',
    upgrade: options.transport === 'auto',
    reconnection: false, // one connection per send: a refusal or a drop ends it
    timeout: timeoutMs > 0 ? timeoutMs + 1000 : NO_LIMIT_MS,
    extraHeaders: upgradeHeaders(prepared, context, server),
    rejectUnauthorized: prepared.settings?.verifyTls ?? true,
    // https:// and wss:// trust caFiles and send the host's client certificate, as HTTP does
    // (typed for browsers as strings; the Node transports hand them to tls.connect).
    ...(context.agents.targetTls(server) as Record<string, never>),
    // Typed for browsers (a string); the Node transports (ws, polling.ts's node:http) take an http.Agent.
    ...(tunnel.agent ? { agent: tunnel.agent as unknown as string } : {}),
    query: Object.fromEntries(url.searchParams),
    autoConnect: false,
    // The WebSocket transport's frame limit, as WebSocket requests have it (engine.io-client hands it to ws).
    maxPayload: maxPayload(context),
  } as ConstructorParameters<typeof Manager>[1]);
  const socket: Socket = manager.socket(namespaceOf(url), auth ? { auth } : {});
  const opened: OpenedSocketIo = { manager, socket };
  let lastTransportError: unknown;
  manager.on('error', (error) => (lastTransportError = error));

  socket.on('connect', onConnect);
  socket.onAny((event: string, ...received: unknown[]) => {
    // Events the server sent before its CONNECT answer are handed on once connected, but before
    // 'connect' is said: reading starts for them, so they are kept, first.
    const messages = session.messages ?? (socket.connected && !session.isOver ? session.open() : undefined);
    messages?.received(eventMessage(event, received));
  });
  socket.on('connect_error', (error) => session.fail(describeConnectError(error, lastTransportError, url, options, tunnel.proxy)));
  socket.on('disconnect', (reason, description) => {
    opened.disconnected = reason;
    const broken = brokenProtocol(reason, description, url, context.maxResponseMb);
    if (broken) session.fail(broken);
    else if (session.messages) session.messages.closed();
    else session.fail(new SendError(`${url.host} closed the Socket.IO connection before it was set up (${reason}).`, 'reset'));
  });
  session.onClose(() => {
    socket.disconnect();
    manager.engine?.close();
  });
  socket.connect();
  return opened;
}

export async function sendSocketIo(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const url = socketIoUrl(prepared);
  const options = prepared.options as unknown as SocketIoOptions;
  const args = emitArguments(prepared);
  authPayload(prepared, options.auth); // refused before connecting
  const session = new StreamSession(prepared, signal, (message) => message.event);
  const opened = openSocketIo(prepared, context, session, url, () => {
    const messages = session.open();
    if (!options.event) return;
    emit(opened.socket, messages, options.event, args, options.ack);
  });
  const messages = await session.finish();
  const transport = opened.manager.engine?.transport?.name ?? options.transport;
  return session.result({
    outcome: { status: 0, text: `connected (${transport})`, ok: true },
    url: prepared.url,
    detail: {
      namespace: namespaceOf(url),
      transport,
      ...(opened.socket.id ? { socketId: opened.socket.id } : {}),
      ...(opened.disconnected && messages.stoppedBy === 'closed' ? { disconnectReason: opened.disconnected } : {}),
    },
  });
}

/** Emits and records the event; its acknowledgement, when asked for, is recorded as a received `ack` event. */
function emit(socket: Socket, messages: MessageStream, event: string, args: unknown[], ack: boolean): void {
  messages.sent(eventMessage(event, args));
  if (ack) socket.emit(event, ...args, (...answer: unknown[]) => messages.received(eventMessage('ack', answer)));
  else socket.emit(event, ...args);
}

/**
 * A live Socket.IO connection: `send` emits `event` with the composer's arguments (JSON: an array
 * is several arguments, any other value one; text: one string; hex or base64: one binary argument).
 */
export async function connectSocketIo(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const url = socketIoUrl(prepared);
  const options = prepared.options as unknown as SocketIoOptions;
  authPayload(prepared, options.auth);
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const opened = openSocketIo(prepared, context, session, url, () => session.open());
  return openLive(session, {
    noun: `the Socket.IO connection to ${url.host}${namespaceOf(url)}`,
    info: () => ({
      url: prepared.url,
      headers: [],
      detail: { namespace: namespaceOf(url), transport: opened.manager.engine?.transport?.name ?? options.transport, ...(opened.socket.id ? { socketId: opened.socket.id } : {}) },
    }),
    send: async (message, messages) => {
      const event = message.event?.trim() ?? '';
      if (event === '') throw new SendError('a Socket.IO message needs an event name; type one in Event.', 'invalid');
      emit(opened.socket, messages, event, composedArguments(message), message.ack === true);
    },
    peerEnd: () => `${url.host} ended the Socket.IO connection${opened.disconnected ? ` (${opened.disconnected})` : ''}`,
  });
}

/** The composer's text as the emitted arguments. */
function composedArguments(message: OutgoingMessage): unknown[] {
  if (message.format === 'json') {
    if (message.text.trim() === '') return [];
    const value = jsonValue(message.text);
    return Array.isArray(value) ? value : [value];
  }
  if (message.format === 'text') return [message.text];
  return [outgoingBytes(message).bytes];
}

/** The most bytes of one message (WebSocket) or one long-polling answer read: `maxResponseMb`, or 100 MB with no limit, as WebSocket requests have it. */
function maxPayload(context: SendContext): number {
  return maxResponseBytes(context.maxResponseMb, NO_LIMIT_PAYLOAD);
}

function tooLarge(url: URL, maxResponseMb: number): SendError {
  return new SendError(`${url.host} sent a Socket.IO message larger than ${maxResponseMb > 0 ? `${maxResponseMb} MB (maxResponseMb)` : '100 MB'}, so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`, 'tooLarge');
}

/**
 * A disconnect that is the client dropping what the server sent, not the server closing: a packet
 * Socket.IO's parser (`parse error`) or Engine.IO's (`transport error`, code `parser error`)
 * cannot read, or a WebSocket frame ws refuses. It fails the request, as a WebSocket frame that breaks the protocol does, rather
 * than passing as a stream the server ended.
 */
function brokenProtocol(reason: string, description: unknown, url: URL, maxResponseMb: number): SendError | undefined {
  const error = description instanceof Error ? (description as Error & { code?: unknown }) : undefined;
  const cause = socketCause(description as TransportFailure | undefined);
  if (reason === 'transport error' && cause && errorCode(cause) === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return tooLarge(url, maxResponseMb);
  }
  // A frame breaking the WebSocket protocol (invalid UTF-8, a reserved opcode…): ws's words, as for WebSocket requests.
  if (reason === 'transport error' && cause && errorCode(cause).startsWith('WS_ERR_')) return describeWebSocketError(cause, url, true, maxResponseMb);
  if (reason === 'parse error') {
    return new SendError(`${url.host} broke the Socket.IO protocol: it sent a packet that cannot be parsed (${error?.message ?? 'parse error'}), so Ferry closed the connection.`, 'protocol');
  }
  if (reason === 'transport error' && error?.code === 'parser error') {
    return new SendError(`${url.host} broke the Engine.IO protocol (under Socket.IO): it sent a packet that cannot be parsed (parser error), so Ferry closed the connection.`, 'protocol');
  }
  return undefined;
}

/** The request's headers with the cookie jar's cookies, sent on every transport's requests. */
function upgradeHeaders(prepared: PreparedRequest, context: SendContext, server: URL): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { name, value } of prepared.headers) {
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
    if (existing) headers[existing] += (name.toLowerCase() === 'cookie' ? '; ' : ', ') + value;
    else headers[name] = value;
  }
  const jar = context.cookies?.cookieHeader(server.href);
  if (jar) {
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === 'cookie');
    if (existing) headers[existing] += `; ${jar}`;
    else headers.Cookie = jar;
  }
  return headers;
}

/**
 * A failed connect: a transport error names the socket error under it (or, long-polling, the
 * HTTP status that refused a poll), a server refusal (namespace middleware,
 * an unknown namespace) quotes the server.
 */
function describeConnectError(error: Error & { type?: string; description?: unknown; data?: unknown }, lastTransportError: unknown, url: URL, options: SocketIoOptions, proxy?: string): SendError {
  if (error.type !== 'TransportError') {
    // Engine.IO's name for an answer it cannot parse: a web server that is not Socket.IO, not a refusal.
    if ((error as { code?: unknown }).code === 'parser error') {
      return new SendError(`${url.host} answered Socket.IO's handshake with something that is not Socket.IO (Engine.IO could not parse it); check the URL's port and socketio.path (${options.path}).`, 'protocol');
    }
    const data = error.data === undefined ? '' : ` ${JSON.stringify(error.data)}`;
    if (error.message === 'Invalid namespace') {
      return new SendError(`${url.host} has no Socket.IO namespace ${namespaceOf(url)} (Invalid namespace); the URL's path is the namespace.`, 'protocol');
    }
    return new SendError(`${url.host} refused the Socket.IO connection to namespace ${namespaceOf(url)}: ${error.message}${data}. Check socketio.auth and the request's headers.`, 'refused');
  }
  const cause = socketCause(error) ?? socketCause(lastTransportError as TransportFailure | undefined);
  const viaProxy = cause && proxy ? proxyError(cause, proxy, url) : undefined;
  if (viaProxy) return viaProxy;
  // The `ws` client's words for an upgrade answered without 101, e.g. by a server that only polls.
  const upgradeStatus = /^Unexpected server response: (\d+)$/.exec(cause?.message ?? '')?.[1];
  if (upgradeStatus) {
    return new SendError(
      `${url.host} answered HTTP ${upgradeStatus} to the WebSocket upgrade instead of opening it; check socketio.path (${options.path}), and if the server takes only long-polling set socketio.transport to auto or polling.`,
      'protocol',
    );
  }
  if (cause) {
    const said = describeSocketError(cause, url, 'connecting to the Socket.IO server at');
    // A TLS server drops a plaintext handshake without a word, as for WebSocket requests.
    if (said.kind !== 'reset') return said;
    const code = /\(([A-Z_]+)\)\.$/.exec(said.message)?.[1] ?? 'ECONNRESET';
    return new SendError(`${url.host} closed the connection during the Socket.IO handshake (${code})${url.protocol === 'http:' || url.protocol === 'ws:' ? '; if it is a TLS server, use https://' : ''}.`, 'reset');
  }
  if (typeof error.description === 'number' && error.description > 0) {
    return new SendError(
      `${url.host} answered HTTP ${error.description} to Socket.IO's ${options.transport === 'polling' ? 'long-polling' : 'handshake'} request; ${gatewayHint(error.description) ?? `check the URL and socketio.path (${options.path})`}.`,
      'protocol',
    );
  }
  return new SendError(`could not connect to the Socket.IO server at ${url.host} (${error.message}); is it running, and is socketio.path (${options.path}) right?`, 'refused');
}

/** What engine.io-client keeps of a failed transport request. */
interface TransportFailure {
  description?: unknown;
}

/**
 * The socket error under a transport error, when the transport kept one: the WebSocket
 * transport's in `description` (or its `error`), long-polling's (polling.ts) in `description`.
 */
function socketCause(failure: TransportFailure | undefined): Error | undefined {
  const description = failure?.description;
  if (description instanceof Error) return description;
  const inner = (description as { error?: unknown } | undefined)?.error;
  return inner instanceof Error ? inner : undefined;
}
