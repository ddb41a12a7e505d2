/**
 * What the two WebSocket transports share: a `ws` socket with the request's upgrade headers,
 * TLS and size settings, whose upgrade answer, first error and close are kept for the result
 * and for messages; and the wait for a polite close after the session ends.
 */
import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { PreparedHeader, PreparedRequest } from '../../../request/prepared.js';
import type { ProtocolResult, SendContext } from '../../kind.js';
import { SendError } from '../../send-error.js';
import type { LiveParts } from '../../live/connection.js';
import type { StreamStop } from '../../stream/messages.js';
import type { StreamSession } from '../../stream/session.js';
import { clientOptions, closeWords, describeWebSocketError, httpUrl, onPingFlood, pairs, upgradeHeaders } from '../../websocket/websocket.js';
import { tunnelFor, type Tunnel } from '../tunnel-agent.js';
import { connectionHeaders } from './target.js';

/** How long the server may take to answer the close frame before the socket is cut. */
const CLOSE_GRACE_MS = 1000;

export class SubscriptionSocket {
  upgrade: IncomingMessage | undefined;
  /** The socket's first error (refused, TLS, subprotocol…, a ping flood), which the GraphQL client only reports as a close. */
  error: Error | undefined;
  closed: { code: number; reason: string } | undefined;
  private readonly closedNow: Promise<void>;
  private markClosed!: () => void;
  private socket: WebSocket | undefined;
  /** Through the run's proxy, as a WebSocket request (throws for a proxy that cannot carry it). */
  private readonly tunnel: Tunnel;
  /** The upgrade's URL and headers: the request's, signed for the upgrade when the request is signed (`create`). */
  private upgradeUrl: URL;
  private headers: PreparedHeader[];

  /**
   * The socket for the subscription URL. A signed request's upgrade (a GET of that URL, without a
   * body) is signed for itself, as the POST it is not would be refused (sign-hop.ts).
   */
  static async create(prepared: PreparedRequest, context: SendContext, url: URL, subprotocol: string): Promise<SubscriptionSocket> {
    const connection = new SubscriptionSocket(prepared, context, url, subprotocol);
    const again = prepared.signEachHop;
    if (again) {
      const { signHop } = await import('../../sign-hop.js');
      const couldNotSign = (reason: string) => new SendError(`the subscription's WebSocket upgrade to ${url.href} could not be signed: ${reason}`, 'other');
      const signed = await signHop(again, 'GET', url, connection.headers.map((h) => [h.name, h.value] as [string, string]), undefined, { kind: 'none' }, couldNotSign);
      connection.upgradeUrl = signed.url;
      connection.headers = signed.headers.map(([name, value]) => ({ name, value }));
    }
    return connection;
  }

  private constructor(
    private readonly prepared: PreparedRequest,
    private readonly context: SendContext,
    readonly url: URL,
    /** The GraphQL subprotocol the transport speaks. */
    readonly subprotocol: string,
  ) {
    this.closedNow = new Promise((resolve) => (this.markClosed = resolve));
    this.tunnel = tunnelFor(context.agents, url, prepared.settings);
    this.upgradeUrl = url;
    this.headers = connectionHeaders(prepared);
  }

  /** Opens the socket (once); `graphql-ws` calls this through `implementation()`. */
  open(): WebSocket {
    const { headers } = upgradeHeaders({ ...this.prepared, url: this.upgradeUrl.href, headers: this.headers }, this.context);
    const socket = new WebSocket(this.upgradeUrl, [this.subprotocol], clientOptions(this.prepared, this.context, headers, this.tunnel));
    this.socket = socket;
    socket.on('upgrade', (response) => {
      this.upgrade = response;
      const setCookies = response.headers['set-cookie'];
      if (setCookies && this.context.cookies) this.context.cookies.store(httpUrl(this.url), setCookies);
    });
    socket.on('error', (error) => (this.error ??= error));
    onPingFlood(socket, this.url, (error) => (this.error ??= error));
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString('utf8') };
      this.markClosed();
    });
    return socket;
  }

  /** A `WebSocket` class for `graphql-ws`'s `webSocketImpl` whose instances are this socket. */
  implementation(): typeof WebSocket {
    const open = () => this.open();
    // Called with `new`: a constructor that returns an object gives that object.
    const Impl = function () {
      return open();
    } as unknown as typeof WebSocket;
    Object.assign(Impl, { CONNECTING: WebSocket.CONNECTING, OPEN: WebSocket.OPEN, CLOSING: WebSocket.CLOSING, CLOSED: WebSocket.CLOSED });
    return Impl;
  }

  /** Why the connection failed before the subscription started, in one line. */
  failure(closeCode?: number, closeReason?: string): SendError {
    const host = this.url.host;
    if (this.error instanceof SendError) return this.error; // already in words (a ping flood)
    if (this.error) {
      if (/subprotocol/i.test(this.error.message)) {
        const other = this.subprotocol === 'graphql-ws' ? 'websocket (graphql-transport-ws)' : 'websocketLegacy (subscriptions-transport-ws)';
        return new SendError(`${host} did not accept the GraphQL subprotocol ${this.subprotocol}: it may speak the other protocol (set body.graphql.transport to ${other}), or not serve subscriptions at this URL.`, 'protocol');
      }
      const refused = /Unexpected server response: (\d+)/.exec(this.error.message);
      if (refused) {
        return new SendError(`${host} answered HTTP ${refused[1]} instead of opening the subscription's WebSocket (no 101 upgrade); check the URL (body.graphql.subscriptionUrl), the auth and the headers.`, 'protocol');
      }
      return describeWebSocketError(this.error, this.url, false, this.context.maxResponseMb, this.tunnel.proxy);
    }
    const code = closeCode ?? this.closed?.code;
    const reason = closeReason ?? this.closed?.reason;
    if (code === 4403 || code === 4401 || code === 4400) {
      return new SendError(`${host} refused the connection_init (close ${code}${reason ? ` "${reason}"` : ''}); check body.graphql.connectionParams and the auth.`, 'refused');
    }
    if (code === 4406 || code === 1002) {
      return new SendError(`${host} did not accept the GraphQL subprotocol ${this.subprotocol} (close ${code}${reason ? ` "${reason}"` : ''}); check body.graphql.transport.`, 'protocol');
    }
    return new SendError(`${host} closed the connection before the subscription started (close ${code ?? 'without a code'}${reason ? ` "${reason}"` : ''}).`, 'reset');
  }

  /** The parts of the result the upgrade gives. */
  resultParts(): Pick<ProtocolResult, 'headers' | 'httpVersion' | 'remoteAddress'> & { headerBytes: number } {
    const upgrade = this.upgrade;
    return {
      headers: upgrade ? pairs(upgrade.rawHeaders) : [],
      headerBytes: upgrade ? upgrade.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 0) : 0,
      ...(upgrade?.httpVersion ? { httpVersion: upgrade.httpVersion } : {}),
      ...(upgrade?.socket.remoteAddress ? { remoteAddress: upgrade.socket.remoteAddress } : {}),
    };
  }

  /**
   * Waits (at most a second) for the socket to finish closing, then cuts it; at once after an
   * error of the socket's (a broken frame, a ping flood), or while the upgrade is unanswered,
   * when no polite close is coming.
   */
  async closedOrCut(): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    if (this.error || socket.readyState === WebSocket.CONNECTING) return void socket.terminate();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.closedNow, new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_GRACE_MS)))]);
    clearTimeout(timer);
    if ((socket.readyState as number) !== WebSocket.CLOSED) socket.terminate();
  }
}

/**
 * Waits for a WebSocket subscription to end (its stop rule, the server, or cancel) and for the
 * socket to close, then gives the result both WebSocket transports report.
 */
export async function finishOverWebSocket(session: StreamSession, connection: SubscriptionSocket, url: URL, transport: string): Promise<ProtocolResult> {
  try {
    await session.finish();
  } finally {
    await connection.closedOrCut();
  }
  const closed = connection.closed;
  return session.result({
    outcome: webSocketOutcome(session),
    url: url.href,
    ...connection.resultParts(),
    detail: {
      transport,
      ...(closed && session.messages?.stoppedBy === 'closed' ? { closeCode: closed.code, closeReason: closed.reason } : {}),
    },
    ...(closed ? { closedWith: closeWords(closed) } : {}),
  });
}

/** The outcome of a subscription over WebSocket: the upgrade's 101; an `error` from the server fails it. */
function webSocketOutcome(session: StreamSession): ProtocolResult['outcome'] {
  const failed = session.messages?.stoppedBy === 'error';
  return { status: 101, text: 'Switching Protocols', ok: !failed, rule: 'a subscription without tests fails when the server ends it with an error' };
}

/** How a live subscription over WebSocket reads for the app: the upgrade's facts, and how the server ended it. */
export function liveSubscriptionParts(connection: SubscriptionSocket, url: URL, transport: string): LiveParts {
  return {
    noun: `the GraphQL subscription at ${url.host}`,
    info: () => {
      const { headerBytes: _bytes, ...parts } = connection.resultParts();
      return { url: url.href, ...parts, detail: { transport } };
    },
    peerEnd: (stop) => subscriptionEnd(stop, url, connection.closed),
  };
}

/** The server's end of a subscription in words. */
export function subscriptionEnd(stop: StreamStop | undefined, url: URL, closed?: { code: number; reason: string }): string {
  if (stop === 'complete') return `${url.host} completed the subscription`;
  if (stop === 'error') return `${url.host} ended the subscription with an error (the last message)`;
  return `${url.host} closed the connection${closed ? ` (${closeWords(closed)})` : ''}`;
}
