/**
 * WebSocket requests (spec 2.8, the `ws` library): the request's headers, auth and cookies go on
 * the upgrade; `Sec-WebSocket-Protocol` is offered as subprotocols (and the server's choice
 * checked); the body, when not empty, is sent once connected; frames are read by the shared stop
 * rule until it stops or the server closes.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { PreparedRequest } from '../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../kind.js';
import { openLive } from '../live/connection.js';
import { outgoingBytes } from '../live/outgoing.js';
import type { ConnectHandlers, LiveConnection } from '../live/types.js';
import { describeSocketError, errorCode, gatewayHint } from '../connection-errors.js';
import { proxyError } from '../http/proxy-errors.js';
import { tunnelFor, type Tunnel } from '../http/tunnel-agent.js';
import { SendError } from '../send-error.js';
import { signThenSend } from '../sign-hop.js';
import { frameText } from '../stream/messages.js';
import { StreamSession } from '../stream/session.js';
import { maxResponseBytes, MB } from '../response-limit.js';

/** Frames are at most this large when `maxResponseMb` is 0 (no limit): the `ws` library's own default; Socket.IO's too. */
export const NO_LIMIT_PAYLOAD = 100 * MB;
/** Pongs ws may have waiting to be sent before it cuts the connection (its own default, set so the message can say it). */
const MAX_PENDING_PONGS = 60;
/** How long a polite close (close frame, then the server's) may take before the socket is cut. */
const CLOSE_GRACE_MS = 1000;

/** A WebSocket opened for a send or a live connection: the socket, and what its upgrade and close said. */
interface OpenedWebSocket {
  socket: WebSocket;
  url: URL;
  /** The proxy tunnel the socket goes through, if any. */
  tunnel: Tunnel;
  upgrade?: IncomingMessage;
  closed?: { code: number; reason: string };
}

/**
 * Opens the socket with the request's upgrade headers, cookies and TLS settings and wires it to
 * the session: the handshake's failures, received frames, the close. The one connection code of
 * `send` and `connect`.
 */
function openWebSocket(prepared: PreparedRequest, context: SendContext, session: StreamSession, url: URL): OpenedWebSocket {
  const { headers, protocols } = upgradeHeaders(prepared, context);
  const tunnel = tunnelFor(context.agents, url, prepared.settings);
  const socket = new WebSocket(url, protocols, clientOptions(prepared, context, headers, tunnel));
  const opened: OpenedWebSocket = { socket, url, tunnel };

  socket.on('upgrade', (response) => {
    opened.upgrade = response;
    const setCookies = response.headers['set-cookie'];
    if (setCookies && context.cookies) context.cookies.store(httpUrl(url), setCookies);
  });
  socket.on('unexpected-response', (request, response) => {
    request.destroy();
    session.fail(
      new SendError(
        `${url.host} answered HTTP ${response.statusCode}${response.statusMessage ? ` ${response.statusMessage}` : ''} instead of opening the WebSocket (no 101 upgrade); ${gatewayHint(response.statusCode ?? 0) ?? "check the URL's path, the auth and the headers"}.`,
        'protocol',
      ),
    );
  });
  socket.on('message', (data, isBinary) => {
    session.messages?.received(frameText(asBytes(data), isBinary));
  });
  onPingFlood(socket, url, (error) => session.fail(error));
  socket.on('open', () => {
    // ws says 'close' only once the TCP connection is gone: a server that sends its close frame and
    // keeps the connection held the request 30 s (ws's own wait). The close frame ends reading;
    // ws's receiver (no public event for it) says when it came.
    const receiver = (socket as unknown as { _receiver?: NodeJS.EventEmitter })._receiver;
    receiver?.once('conclude', (code: number, reason: Buffer) => {
      opened.closed = { code, reason: reason.toString('utf8') };
      session.messages?.closed();
    });
  });
  socket.on('close', (code, reason) => {
    opened.closed = { code, reason: reason.toString('utf8') };
    if (session.messages) session.messages.closed();
    else session.fail(new SendError(`${url.host} closed the connection during the WebSocket handshake (close code ${code}).`, 'reset'));
  });
  socket.on('error', (error) => session.fail(subprotocolRefused(error, url, protocols, opened.upgrade) ?? describeWebSocketError(error, url, session.messages !== undefined, context.maxResponseMb, tunnel.proxy)));
  session.onClose(() => closeSocket(socket));
  return opened;
}

/**
 * ws answers each ping with a pong and cuts a peer that leaves MAX_PENDING_PONGS of them unsent
 * (it pings without reading), as a ws client does; it then says only 1006. `flooded` is told
 * (before the close) with the error naming it, for every client made with `clientOptions`.
 */
export function onPingFlood(socket: WebSocket, url: URL, flooded: (error: SendError) => void): void {
  socket.on('ping', () => {
    if (socket.readyState !== WebSocket.CLOSING) return;
    flooded(new SendError(`${url.host} flooded the connection with WebSocket pings without reading Ferry's pongs (${MAX_PENDING_PONGS} pongs waiting to be sent), so Ferry closed the connection; the server must read what it is sent.`, 'protocol'));
  });
}

/** The request's URL, refused unless ws:// or wss://. */
function webSocketUrl(prepared: PreparedRequest): URL {
  const url = new URL(prepared.url);
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new SendError(`a WebSocket request needs a ws:// or wss:// URL, not ${url.protocol}//.`, 'unsupported');
  return url;
}

export async function sendWebSocket(prepared: PreparedRequest, context: SendContext, signal?: AbortSignal): Promise<ProtocolResult> {
  const url = webSocketUrl(prepared);
  // Events are not named on a WebSocket: `stream.event` does not apply (no name to match).
  const session = new StreamSession(prepared, signal);
  const opened = openWebSocket(prepared, context, session, url);
  opened.socket.on('open', () => {
    const messages = session.open();
    if (prepared.body.kind === 'bytes' && prepared.body.bytes.length > 0) {
      const { bytes, isText } = prepared.body;
      opened.socket.send(isText ? Buffer.from(bytes).toString('utf8') : bytes, { binary: !isText });
      messages.sent(frameText(bytes, !isText));
    }
  });
  const messages = await session.finish();
  const { upgrade, closed } = opened;
  return session.result({
    outcome: { status: 101, text: 'Switching Protocols', ok: true },
    url: prepared.url,
    headers: upgrade ? pairs(upgrade.rawHeaders) : [],
    headerBytes: upgrade ? upgrade.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0) : 0,
    httpVersion: upgrade?.httpVersion,
    remoteAddress: upgrade?.socket.remoteAddress,
    detail: {
      ...(opened.socket.protocol ? { protocol: opened.socket.protocol } : {}),
      ...(closed && messages.stoppedBy === 'closed' ? { closeCode: closed.code, closeReason: closed.reason } : {}),
    },
    ...(closed ? { closedWith: closeWords(closed) } : {}),
  });
}

/** How a WebSocket peer closed, in words: `close code 1000 "bye"` (the reason when it gave one). */
export function closeWords(closed: { code: number; reason: string }): string {
  return `close code ${closed.code}${closed.reason ? ` "${closed.reason}"` : ''}`;
}

/** A live WebSocket: text and JSON go as text frames, hex and base64 as binary frames. */
export async function connectWebSocket(prepared: PreparedRequest, context: SendContext, handlers: ConnectHandlers, signal?: AbortSignal): Promise<LiveConnection> {
  const url = webSocketUrl(prepared);
  const session = new StreamSession(prepared, signal, undefined, handlers.onMessage);
  const opened = openWebSocket(prepared, context, session, url);
  opened.socket.on('open', () => session.open());
  return openLive(session, {
    noun: `the WebSocket connection to ${opened.url.host}`,
    info: () => ({
      url: prepared.url,
      headers: opened.upgrade ? pairs(opened.upgrade.rawHeaders) : [],
      ...(opened.upgrade?.httpVersion ? { httpVersion: opened.upgrade.httpVersion } : {}),
      ...(opened.upgrade?.socket.remoteAddress ? { remoteAddress: opened.upgrade.socket.remoteAddress } : {}),
      ...(opened.socket.protocol ? { detail: { protocol: opened.socket.protocol } } : {}),
    }),
    send: async (message, messages) => {
      const { bytes, isText } = outgoingBytes(message);
      await new Promise<void>((resolve, reject) => {
        opened.socket.send(isText ? bytes.toString('utf8') : bytes, { binary: !isText }, (error) => (error ? reject(describeWebSocketError(error, opened.url, true, context.maxResponseMb, opened.tunnel.proxy)) : resolve()));
        messages.sent(frameText(bytes, !isText));
      });
    },
    peerEnd: () => `${opened.url.host} closed the connection${opened.closed ? ` (${closeWords(opened.closed)})` : ''}`,
  });
}

/**
 * The `ws` client's options for a request: its upgrade headers, TLS verification, CAs and client
 * certificate, redirects, the message size limit, and the proxy tunnel when the connection goes
 * through one.
 */
export function clientOptions(prepared: PreparedRequest, context: SendContext, headers: Record<string, string>, tunnel: Tunnel): WebSocket.ClientOptions {
  const settings = prepared.settings;
  return {
    headers,
    ...(tunnel.agent ? { agent: tunnel.agent } : {}),
    // wss:// trusts caFiles and sends the host's client certificate, as https:// does.
    ...context.agents.targetTls(new URL(prepared.url)),
    rejectUnauthorized: settings?.verifyTls ?? true,
    followRedirects: settings?.followRedirects ?? true,
    maxRedirects: settings?.maxRedirects ?? 10,
    finishRequest: redirectHops(prepared),
    maxPayload: maxResponseBytes(context.maxResponseMb, NO_LIMIT_PAYLOAD),
    ...PEER_LIMITS,
  };
}

/**
 * What every `ws` client of Ferry's (WebSocket requests, GraphQL subscriptions, Socket.IO's
 * WebSocket transport) allows a peer: the pongs left unsent (`onPingFlood` names the cut), and
 * how long a close may wait for the TCP connection to go. ws waits 30 s for it after the close
 * frames are exchanged, which held a request that long when a server sent its close frame and
 * kept the connection; the exchange is over at the close frame. Not in @types/ws yet (ws 8.23).
 */
export const PEER_LIMITS = { maxPendingAutoPongs: MAX_PENDING_PONGS, closeTimeout: CLOSE_GRACE_MS } as object;

/**
 * `ws`'s last step of each upgrade request it makes (it sends the request when this calls `end()`):
 * the first goes as prepared. A redirect within the first origin is signed again for its own URL
 * when the request is signed, as the HTTP client signs each hop; once a redirect leaves that
 * origin, the hops go without the request's credentials, as the HTTP client's do: Authorization,
 * an API key's header, the headers a signing auth added (ws itself drops only Authorization and
 * Cookie, and only for another host).
 */
function redirectHops(prepared: PreparedRequest): (request: ClientRequest, socket: WebSocket) => void {
  let origin: string | undefined;
  let leftOrigin = false;
  return (request, socket) => {
    const url = new URL(socket.url);
    const first = origin === undefined;
    origin ??= url.origin;
    leftOrigin ||= url.origin !== origin;
    const again = prepared.signEachHop;
    if (leftOrigin) {
      for (const name of ['authorization', 'proxy-authorization', ...(prepared.credentialHeaders ?? []), ...(again?.added ?? [])]) request.removeHeader(name);
    } else if (again && !first) {
      return signThenSend(again, request, url, (reason) => new SendError(`${origin} redirected the WebSocket upgrade to ${url.href}, which could not be signed again: ${reason}`, 'redirects'));
    }
    request.end();
  };
}

/** The request's headers for the upgrade, with the cookie jar's cookies; `Sec-WebSocket-Protocol` becomes the offered subprotocols. */
export function upgradeHeaders(prepared: PreparedRequest, context: SendContext): { headers: Record<string, string>; protocols: string[] } {
  const headers: Record<string, string> = {};
  const protocols: string[] = [];
  for (const { name, value } of prepared.headers) {
    const key = name.toLowerCase();
    if (key === 'sec-websocket-protocol') {
      protocols.push(...value.split(',').map((p) => p.trim()).filter(Boolean));
      continue;
    }
    // Repeated names are folded into one, as HTTP allows (cookies with `; `).
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === key);
    if (existing) headers[existing] += (key === 'cookie' ? '; ' : ', ') + value;
    else headers[name] = value;
  }
  const jar = context.cookies?.cookieHeader(httpUrl(new URL(prepared.url)));
  if (jar) {
    const existing = Object.keys(headers).find((k) => k.toLowerCase() === 'cookie');
    if (existing) headers[existing] += `; ${jar}`;
    else headers.Cookie = jar;
  }
  return { headers, protocols };
}

/** Cookies are kept by HTTP origin: ws:// is http://, wss:// is https://. */
export function httpUrl(url: URL): string {
  const copy = new URL(url.href);
  copy.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return copy.href;
}

/** `proxy`: the proxy the connection went through, whose own failures (407, unreachable) are worded apart. */
export function describeWebSocketError(error: Error, url: URL, open: boolean, maxResponseMb: number, proxy?: string): SendError {
  const viaProxy = proxy && !open ? proxyError(error, proxy, url) : undefined;
  if (viaProxy) return viaProxy;
  const code = errorCode(error);
  if (code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') {
    return new SendError(
      `${url.host} sent a WebSocket message larger than ${maxResponseMb > 0 ? `${maxResponseMb} MB (maxResponseMb)` : '100 MB'}, so Ferry closed the connection; raise the limit with ferry config set maxResponseMb N.`,
      'tooLarge',
    );
  }
  if (code.startsWith('WS_ERR_')) return new SendError(`${url.host} broke the WebSocket protocol: ${error.message} (${code}).`, 'protocol');
  if (/subprotocol/i.test(error.message)) {
    return new SendError(`${url.host} did not accept the offered subprotocol (Sec-WebSocket-Protocol): ${error.message}.`, 'protocol');
  }
  if (!open && (code === 'ECONNRESET' || /socket hang up/i.test(error.message))) {
    // A TLS server drops a plaintext upgrade request: the likeliest mix-up, named.
    return new SendError(`${url.host} closed the connection during the WebSocket handshake (${code || 'socket hang up'})${url.protocol === 'ws:' ? '; if it is a TLS server, use wss://' : ''}.`, 'reset');
  }
  if (/Invalid Sec-WebSocket-Accept|Invalid Upgrade header|Missing Sec-WebSocket/i.test(error.message)) {
    return new SendError(`${url.host} answered the upgrade with something that is not a WebSocket handshake: ${error.message}.`, 'protocol');
  }
  return describeSocketError(error, url, open ? 'reading the WebSocket from' : 'opening a WebSocket to');
}

/**
 * ws refuses an upgrade whose subprotocol is not one offered (RFC 6455 4.1), in words that do not
 * say which: named here with what the server chose and what the request offered.
 */
function subprotocolRefused(error: Error, url: URL, offered: string[], upgrade: IncomingMessage | undefined): SendError | undefined {
  if (!/^Server sent (a subprotocol but none was requested|an invalid subprotocol|no subprotocol)$/.test(error.message)) return undefined;
  const chosen = upgrade?.headers['sec-websocket-protocol'];
  const check = 'so Ferry closed the connection; check the Sec-WebSocket-Protocol header';
  if (chosen === undefined) return new SendError(`${url.host} did not accept the offered subprotocol (${offered.join(', ')}): its answer names none (Sec-WebSocket-Protocol), ${check}, or leave it out.`, 'protocol');
  if (offered.length === 0) return new SendError(`${url.host} chose the subprotocol "${chosen}" (Sec-WebSocket-Protocol) though the request offered none, so Ferry closed the connection; offer it with a Sec-WebSocket-Protocol header.`, 'protocol');
  return new SendError(`${url.host} chose the subprotocol "${chosen}" (Sec-WebSocket-Protocol), which is not one the request offered (${offered.join(', ')}), ${check}.`, 'protocol');
}

export function asBytes(data: WebSocket.RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return data;
}

export function pairs(raw: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

/**
 * Closes politely when open (close frame 1000); once the close frames are exchanged (the server's
 * came first), lets ws end the socket after what it still has to write; cuts the socket when
 * connecting, or when the server does not let go within the grace.
 */
export function closeSocket(socket: WebSocket): void {
  if (socket.readyState === WebSocket.OPEN) {
    socket.close(1000);
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  } else if (socket.readyState === WebSocket.CLOSING) {
    setTimeout(() => socket.terminate(), CLOSE_GRACE_MS).unref();
  } else if (socket.readyState !== WebSocket.CLOSED) {
    socket.terminate();
  }
}
