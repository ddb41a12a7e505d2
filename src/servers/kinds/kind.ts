/**
 * What a server kind provides. A kind declares its transport:
 *
 * - `sharedHttp`: it rides the HTTP listener every HTTP-speaking kind shares (plain HTTP/1.1, or
 *   with TLS HTTP/2 and HTTP/1.1 by ALPN, and the loopback-name check). It answers requests
 *   (`handle`) and, for WebSocket and Socket.IO, HTTP/1.1 upgrades (`upgrade`). Mock, SSE, MCP.
 * - `ownSocket`: it binds its own socket(s) and hands back a `Listener` that frees them on
 *   `close`. TCP, UDP, DNS (UDP and TCP on one port), the TCP relay.
 *
 * Either way there is one instance per running server, which compiles its settings in `configure`
 * (again on every edit, keeping the previous ones when that throws) and answers with the current
 * ones; `server.ts` runs the same start/stop/reload lifecycle for both.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ServerFile, ServerKind } from '../../model/index.js';
import type { VariableScope } from '../../template/index.js';
import type { AnyRequest, AnyResponse } from '../http-types.js';
import type { Listener } from '../listener.js';
import type { TlsMaterial } from '../tls.js';
import type { TrafficLog } from '../traffic.js';
import type { ClientInfo, PushOptions, SendForm } from '../types.js';

export type { ClientInfo, PushOptions, SendForm };

export interface KindContext {
  /** The server's id (file name without `.yaml`). */
  id: string;
  /** The server file, relative to the workspace, for messages. */
  file: string;
  traffic: TrafficLog;
  /** The workspace folder: files a server refers to (an OpenAPI document under `specs/`) are read from it. */
  root?: string;
}

export interface KindSettings {
  server: ServerFile;
  variables: VariableScope;
}

/** What every instance does, whichever socket it answers on. */
export interface KindInstanceBase {
  /** Compiles the settings and switches to them; throws a ServerError (keeping the previous ones) on a problem. */
  configure(settings: KindSettings): void;
  /** Open streams (event streams, WebSocket connections); 0 for kinds without. */
  openStreams(): number;
  /**
   * The URL a client connects to, from the listener's bound URL (`http://127.0.0.1:4010`), when it
   * is not that URL itself: `ws://` for WebSocket, the endpoint path for MCP. What `ferry serve`,
   * the app and `ferry mcp` show.
   */
  clientUrl?(bound: string): string;
  /**
   * The traffic panel's send (spec 6.2, 8.2): a message to every open client now, or to the one
   * whose id is `options.to` (an id of `clients()`). Returns how many clients it went to (0 when
   * `to` names no open client). Absent for kinds that cannot send to clients (mock, MCP, DNS).
   */
  push?(data: string, options?: PushOptions): number;
  /** The open clients a send can go to, oldest first; present with `push`. */
  clients?(): ClientInfo[];
  /** What the panel's send form asks for; present with `push`. */
  readonly sendForm?: SendForm;
  /** Ends streams and pending timers; the listener is closing next. */
  close(): void;
}

/** An instance on the shared HTTP listener. */
export interface HttpKindInstance extends KindInstanceBase {
  handle(req: AnyRequest, res: AnyResponse): void;
  /**
   * An HTTP/1.1 `Upgrade` request (WebSocket, Socket.IO), already past the loopback-name check.
   * Without it, Node treats an upgrade request as an ordinary one and `handle` answers it.
   */
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Where an own-socket kind binds; the file is for messages (see `bindFailure` in listener.ts). */
export interface BindOptions {
  host: string;
  port: number;
  /** Present when the file turns TLS on (TCP); kinds without TLS refuse it in `configure`. */
  tls: TlsMaterial | undefined;
  file: string;
}

/** An instance that owns its listening socket(s). */
export interface SocketKindInstance extends KindInstanceBase {
  /** Binds; rejects with a ServerError naming the file when it cannot. `close` on the result frees the port. */
  listen(bind: BindOptions): Promise<Listener>;
}

export type ServerKindModule =
  | { kind: ServerKind; transport: 'sharedHttp'; create(context: KindContext): HttpKindInstance }
  | { kind: ServerKind; transport: 'ownSocket'; create(context: KindContext): SocketKindInstance };

/**
 * A row loaded when a server of the kind first starts: for kinds whose library is slow to import
 * (Socket.IO, the MCP SDK), so `ferry --version` and `ferry run` do not pay for them.
 */
export interface LazyServerKind {
  kind: ServerKind;
  load(): Promise<ServerKindModule>;
}

/** Either kind of instance, as the lifecycle holds it. */
export type KindInstance = HttpKindInstance | SocketKindInstance;
