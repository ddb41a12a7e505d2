/**
 * The Socket.IO server (spec 2.11 `socketio`), Socket.IO 4 on the shared HTTP listener: long
 * polling comes through `handle`, the WebSocket transport through `upgrade`. Socket.IO is attached
 * to an http.Server that never listens, and the listener's requests are passed to it, so its own
 * path check and CORS apply. Any namespace a client joins exists. Each client that joins gets the
 * greeting; events are answered by the `mode`.
 */
import http, { type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server, type Socket } from 'socket.io';
import type { VariableScope } from '../../../template/index.js';
import { type AnyRequest, type AnyResponse, plainTextHeaders } from '../../http-types.js';
import type { ClientInfo, HttpKindInstance, KindContext, KindSettings, PushOptions, ServerKindModule } from '../kind.js';
import { compileMatcher, type TextMatcher } from '../messages/pattern.js';
import type { Mode } from '../messages/rules.js';
import { clientChosenName } from '../messages/payload.js';
import { MAX_UNREAD_STREAM_BYTES } from '../messages/not-reading.js';
import { messageRecord } from '../messages/traffic.js';
import { checkWait } from '../wait.js';
import { ServerError } from '../../errors.js';
import { type ArgumentsTemplate, argumentsText, compileArguments, parseArguments } from './arguments.js';
import { MAX_OWED, OwedReplies, PendingTimers } from '../pending-timers.js';
import { otherOriginRefused, sameOrigin } from '../same-origin.js';
import { kindSection } from '../../../model/index.js';

interface Rule {
  number: number;
  event: string;
  matches: TextMatcher;
  ack: boolean;
  replyEvent: string;
  replyArgs: ArgumentsTemplate;
  broadcast: boolean;
  delayMs: number;
}

interface State {
  mode: Mode;
  greetingEvent: string;
  greetingArgs: ArgumentsTemplate;
  rules: Rule[];
  variables: VariableScope;
}

const PREVIEW_CHARS = 120;
const UNSENT_WHY = `more than ${MAX_UNREAD_STREAM_BYTES / 1024 / 1024} MB waited unsent: the client does not read what it is sent`;
/** Engine.IO cannot stop reading one client as a TCP socket can: a client owed too many delayed replies is disconnected. */
const OWED_WHY = `more than ${MAX_OWED.toLocaleString('en-US')} delayed replies (or 16 MB of them) waited: the client sends faster than its replies fall due; lower delayMs`;

/** A client's Engine.IO connection, which its namespaces share. */
type Connection = Socket['conn'];

/**
 * `namespacesPerConnection`: namespaces one connection may have joined at once. Any name a client
 * joins is made for it, and one connection joining names in a loop held some 6 KB each (20,000:
 * 115 MB) under a single place of the connection cap; an app joins a few. A field, not a
 * constant, so tests can lower it.
 */
export const SOCKETIO_LIMITS = {
  namespacesPerConnection: 100,
  /**
   * Engine.IO sessions (clients) at once. A long-polling session holds no connection: it lives
   * until its pings stop (some 45 s), so handshakes in a loop over one keep-alive connection made
   * 10,000 a second (6 KB each) under no connection limit. As many as the port's connections.
   */
  sessions: 4096,
};

class SocketIoKind implements HttpKindInstance {
  #state: State | undefined;
  #io: Server | undefined;
  #host: http.Server | undefined;
  /** Path and CORS the current Socket.IO server was made with; a change makes a new one. */
  #made = '';
  readonly #timers = new PendingTimers();
  /** Each client's bytes in and out so far, for the record of its close. */
  readonly #sizes = new WeakMap<Socket, { bytesIn: number; bytesOut: number }>();
  /** Why the server closed a connection, for the close records of its namespaces. */
  readonly #closedWhy = new WeakMap<Connection, string>();
  /** Each connection's namespaces joined now, and whether a join past the limit was recorded. */
  readonly #joinedOn = new WeakMap<Connection, { count: number; refusedSaid: boolean }>();

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    const s = kindSection(server, 'socketio');
    const file = this.context.file;
    checkPath(s.path, file);
    const rules = s.rules.flatMap((r, i): Rule[] => {
      if (!r.enabled) return [];
      checkWait(r.delayMs, `socketio.rules[${i}].delayMs`, file);
      const where = `${file}: socketio.rules[${i}]`;
      return [{ number: i + 1, event: r.event, matches: compileMatcher(r.match, r.pattern, where), ack: r.ack, replyEvent: r.replyEvent, replyArgs: compileArguments(r.replyArgs, 'socketio.reply'), broadcast: r.broadcast, delayMs: r.delayMs }];
    });
    this.#state = { mode: s.mode, greetingEvent: s.greetingEvent, greetingArgs: compileArguments(s.greetingArgs, 'socketio.greeting'), rules, variables };
    const made = JSON.stringify([s.path, s.cors]);
    if (made !== this.#made) {
      this.#shutdown();
      this.#make(s.path, s.cors);
      this.#made = made;
    }
  }

  #make(path: string, cors: boolean): void {
    const host = http.createServer();
    // Requests outside the path (engine.io passes them on): say what this server is.
    host.on('request', (_req: IncomingMessage, res: http.ServerResponse) => {
      if (res.headersSent) return;
      const text = `This is a Socket.IO server: connect with a Socket.IO client (path ${path}).\n`;
      res.writeHead(404, plainTextHeaders(text));
      res.end(text);
    });
    // Without cors, CORS keeps other origins' pages out of long polling, but browsers apply no
    // CORS to WebSockets: a page anywhere could connect over that transport and read every event.
    // Its handshake is refused instead, as any other origin's (no Origin: not a web page).
    // Any namespace a client names is made for it; without cleanupEmptyChildNamespaces each stayed
    // after its last client left, so joins to ever new names grew memory without bound.
    // allowRequest is asked for handshakes only (a request with no session yet).
    const allowRequest = (req: IncomingMessage, done: (error: string | null | undefined, success: boolean) => void) => {
      const full = this.#sessionsFull(io, req);
      if (full !== undefined) return done(full, false);
      done(null, cors || this.#sameOrigin(req));
    };
    const io = new Server(host, {
      path, serveClient: false, allowEIO3: true, cleanupEmptyChildNamespaces: true, allowRequest,
      ...(cors ? { cors: { origin: true, credentials: true } } : {}),
    });
    const joined = (socket: Socket) => this.#joined(socket);
    io.on('connection', joined);
    io.of(/^\/.+$/).on('connection', joined);
    io.engine.on('connection', (conn: Connection) => this.#boundBacklog(conn));
    this.#io = io;
    this.#host = host;
  }

  /** Whether a burst of handshakes refused for SOCKETIO_LIMITS.sessions has been recorded: once, until one is let in again. */
  #fullSaid = false;

  /**
   * Why a handshake is refused when SOCKETIO_LIMITS.sessions are open (the client's connect_error
   * says it), recorded for the first of a burst; undefined when there is room.
   */
  #sessionsFull(io: Server, req: IncomingMessage): string | undefined {
    const max = SOCKETIO_LIMITS.sessions;
    if (io.engine.clientsCount < max) return void (this.#fullSaid = false);
    const why = `${max.toLocaleString('en-US')} Socket.IO clients are connected already, the server's limit; disconnect some, or spread the clients over a second server`;
    if (!this.#fullSaid) {
      this.#fullSaid = true;
      const peer = `${req.socket?.remoteAddress ?? '?'}:${req.socket?.remotePort ?? 0}`;
      this.context.traffic.add(messageRecord('socketio', this.context.id, 'exchange', { peer, event: 'error', preview: `refused: ${why} (later refusals until one is let in are not recorded)` }, { level: 'warning' }));
    }
    return why;
  }

  /** `sameOrigin`, and a refusal recorded as a warning, so the traffic log says why a page could not connect. */
  #sameOrigin(req: IncomingMessage): boolean {
    if (sameOrigin(req)) return true;
    const peer = `${req.socket?.remoteAddress ?? '?'}:${req.socket?.remotePort ?? 0}`;
    const preview = otherOriginRefused(req, 'socketio');
    this.context.traffic.add(messageRecord('socketio', this.context.id, 'exchange', { peer, event: 'error', preview }, { level: 'warning' }));
    return false;
  }

  openStreams(): number {
    return this.#io?.engine.clientsCount ?? 0;
  }

  readonly sendForm = { event: true, hex: false };

  /** The panel's send: `data` is JSON arguments (or text), `name` the event (default `message`); `to` a socket id. */
  push(data: string, options: PushOptions = {}): number {
    const io = this.#io!;
    const args = options.fill ? parseArguments(options.fill(data)) : compileArguments(data, 'socketio.reply').render(this.#state!.variables);
    let count = 0;
    for (const nsp of io._nsps.values()) {
      for (const socket of nsp.sockets.values()) {
        if (options.to !== undefined && options.to !== socket.id) continue;
        this.#emit(socket, options.name || 'message', args);
        count++;
      }
    }
    return count;
  }

  clients(): ClientInfo[] {
    const out: ClientInfo[] = [];
    for (const nsp of this.#io?._nsps.values() ?? []) {
      for (const socket of nsp.sockets.values()) out.push({ id: socket.id, label: `${socket.handshake.address}${nsp.name === '/' ? '' : ` ${nsp.name}`} (${socket.id})` });
    }
    return out;
  }

  close(): void {
    this.#timers.clear();
    this.#shutdown();
  }

  #shutdown(): void {
    if (this.#io === undefined) return;
    // Each client is told (a namespace disconnect: "io server disconnect", so it does not retry),
    // then the engine drops every connection at once. Closing the connections with the sockets
    // (disconnectSockets(true)) left a long-polling one closing with a 30 s timer, and `ferry
    // serve` waited for it after Ctrl-C.
    for (const nsp of this.#io._nsps.values()) nsp.disconnectSockets(false);
    this.#io.engine.close();
    this.#io = undefined;
  }

  handle(req: AnyRequest, res: AnyResponse): void {
    this.#host!.emit('request', req, res);
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#host!.emit('upgrade', req, socket, head);
  }

  /**
   * Disconnects a client once more than MAX_UNREAD_STREAM_BYTES wait for it: Engine.IO queues what the
   * transport cannot take yet (a WebSocket whose client does not read, a long-polling client that
   * does not poll) without a limit. Counted from its public events: each packet queued, and each
   * flush, which hands the whole queue to the transport. What waited before the packet just queued
   * is judged, not the packet: one event may be 32 MB (spec 8.1, a rendered event), and a 9 MB
   * greeting or reply cut off a client that reads, blamed for not reading.
   */
  #boundBacklog(conn: Connection): void {
    let waiting = 0;
    conn.on('flush', () => (waiting = 0));
    conn.on('packetCreate', (packet: { data?: unknown }) => {
      const data = packet.data;
      const before = waiting;
      waiting += typeof data === 'string' ? Buffer.byteLength(data) : Buffer.isBuffer(data) ? data.length : 0;
      if (before <= MAX_UNREAD_STREAM_BYTES || this.#closedWhy.has(conn)) return;
      this.#closedWhy.set(conn, UNSENT_WHY);
      conn.close(true); // what waits is dropped: it would never go out
      dropWebSocket(conn);
    });
  }

  #joined(socket: Socket): void {
    if (!this.#withinNamespaceLimit(socket)) return;
    const start = performance.now();
    const sizes = { bytesIn: 0, bytesOut: 0 };
    this.#sizes.set(socket, sizes);
    const { traffic, id } = this.context;
    const peer = peerOf(socket);
    traffic.add(messageRecord('socketio', id, 'exchange', { peer, event: 'connect', preview: socket.conn.transport.name }, {}));
    const state = this.#state!;
    if (state.greetingEvent !== '') this.#emit(socket, state.greetingEvent, state.greetingArgs.render(state.variables));
    // Delayed replies: each waits with the event it answers; past the bound, the client goes.
    const owed = new OwedReplies(this.#timers, (held) => {
      const conn = socket.conn;
      if (!held || this.#closedWhy.has(conn)) return;
      this.#closedWhy.set(conn, OWED_WHY);
      conn.close(true);
      dropWebSocket(conn);
    });
    socket.onAny((event: string, ...args: unknown[]) => {
      // The rest of a read whose replies got the client disconnected (past the bound above):
      // Socket.IO still hands on each event of it, and answering them rendered and recorded
      // replies for nobody, one read's thousands of them at once (hundreds of MB for big ones).
      if (!socket.connected) return;
      const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as (...a: unknown[]) => void) : undefined;
      const text = argumentsText(args);
      const bytesIn = encodedBytes(event, args);
      sizes.bytesIn += bytesIn;
      traffic.add(messageRecord('socketio', id, 'in', { peer, event: 'message', preview: `${clientChosenName(event, PREVIEW_CHARS)} ${clip(text)}` }, { bytesIn }));
      const now = this.#state!;
      if (now.mode === 'echo') {
        this.#emit(socket, event, args);
        if (ack) this.#ack(socket, ack, args);
        return;
      }
      if (now.mode !== 'rules') return;
      const rule = now.rules.find((r) => (r.event === '*' || r.event === event) && r.matches(text));
      if (rule === undefined) return;
      const answer = () => {
        const reply = rule.replyArgs.render(now.variables);
        if (rule.ack && ack) this.#ack(socket, ack, reply, rule.number);
        if (rule.replyEvent === '') return;
        if (rule.broadcast) {
          socket.nsp.emit(rule.replyEvent, ...reply);
          const bytesOut = encodedBytes(rule.replyEvent, reply);
          // One record for all; each client's close record counts it in its total.
          for (const each of socket.nsp.sockets.values()) {
            const sizes = this.#sizes.get(each);
            if (sizes) sizes.bytesOut += bytesOut;
          }
          traffic.add(messageRecord('socketio', id, 'out', { peer: `all of ${socket.nsp.name}`, event: 'message', preview: `${rule.replyEvent} ${clip(argumentsText(reply))}`, rule: rule.number }, { bytesOut }));
        } else this.#emit(socket, rule.replyEvent, reply, rule.number);
      };
      if (rule.delayMs === 0) answer();
      else {
        owed.later(rule.delayMs, bytesIn, answer);
      }
    });
    socket.once('disconnect', (reason) => {
      owed.cancel();
      this.#sizes.delete(socket);
      const why = this.#closedWhy.get(socket.conn);
      const shown = why === undefined ? reason : `${reason} (${why})`;
      traffic.add(messageRecord('socketio', id, 'exchange', { peer, event: 'close', preview: shown }, { start, ...sizes, ...(why === undefined ? {} : { level: 'warning' as const }) }));
    });
  }

  /**
   * Counts `socket` on its connection; past SOCKETIO_LIMITS.namespacesPerConnection it is
   * disconnected at once (its client told `io server disconnect` for that namespace, its other
   * namespaces kept) and false is returned. The first refusal of a connection is recorded; a
   * client joining in a loop would otherwise fill the traffic log.
   */
  #withinNamespaceLimit(socket: Socket): boolean {
    const conn = socket.conn;
    const joined = this.#joinedOn.get(conn) ?? { count: 0, refusedSaid: false };
    this.#joinedOn.set(conn, joined);
    const max = SOCKETIO_LIMITS.namespacesPerConnection;
    if (joined.count < max) {
      joined.count++;
      socket.once('disconnect', () => joined.count--);
      return true;
    }
    if (!joined.refusedSaid) {
      joined.refusedSaid = true;
      const preview = `refused: ${max.toLocaleString('en-US')} namespaces are joined on this connection already, the server's limit; leave some first (later refusals on this connection are not recorded)`;
      this.context.traffic.add(messageRecord('socketio', this.context.id, 'exchange', { peer: peerOf(socket), event: 'error', preview }, { level: 'warning' }));
    }
    socket.disconnect(false);
    return false;
  }

  #emit(socket: Socket, event: string, args: unknown[], rule?: number): void {
    socket.emit(event, ...args);
    this.#recordOut(socket, `${clientChosenName(event, PREVIEW_CHARS)} ${clip(argumentsText(args))}`, encodedBytes(event, args), rule);
  }

  /** Answers a client's acknowledgement and records it; an ack carries its arguments only (no event name). */
  #ack(socket: Socket, ack: (...args: unknown[]) => void, args: unknown[], rule?: number): void {
    ack(...args);
    const text = argumentsText(args);
    this.#recordOut(socket, `ack ${clip(text)}`, Buffer.byteLength(text), rule);
  }

  #recordOut(socket: Socket, preview: string, bytesOut: number, rule?: number): void {
    const detail = { peer: peerOf(socket), event: 'message' as const, preview, ...(rule !== undefined ? { rule } : {}) };
    const sizes = this.#sizes.get(socket);
    if (sizes) sizes.bytesOut += bytesOut;
    this.context.traffic.add(messageRecord('socketio', this.context.id, 'out', detail, { bytesOut }));
  }
}

/**
 * Ends a WebSocket transport's TCP connection now. Engine.IO closes it with a close frame and
 * waits for the client's: one that reads nothing never answers, and `ws` kept the connection
 * (and the megabytes queued on it) up to its 30 s close timeout. Engine.IO does not expose the
 * `ws` socket in its types (it is `transport.socket`); long polling holds no connection to end.
 */
function dropWebSocket(conn: Connection): void {
  const transport = conn.transport as unknown as { name: string; socket?: { terminate?: () => void } };
  if (transport.name === 'websocket') transport.socket?.terminate?.();
}

/**
 * An event's bytes as Socket.IO encodes it: its name and arguments as one JSON array
 * (`["say","hi",2]`); the packet's type digit, namespace and ack id are not counted.
 */
function encodedBytes(event: string, args: readonly unknown[]): number {
  return Buffer.byteLength(argumentsText([event, ...args]));
}

/** A client in the traffic log: its address, and its namespace other than / (which the client names). */
function peerOf(socket: Socket): string {
  return `${socket.handshake.address}${socket.nsp.name === '/' ? '' : ` ${clientChosenName(socket.nsp.name, PREVIEW_CHARS)}`}`;
}

/**
 * `text` cut for a preview, as a string of its own: V8 keeps a slice as a view of the whole, so
 * each of the traffic log's 1,000 records kept its event's or reply's whole JSON (64 MB for 64 KB
 * replies, a GB for 1 MB ones) alive.
 */
function clip(text: string): string {
  return text.length > PREVIEW_CHARS ? Buffer.from(`${text.slice(0, PREVIEW_CHARS)}…`).toString() : text;
}

/**
 * Refuses a `path` no client reaches (empty is Socket.IO's default): without a leading / no
 * request path starts with it, and a space, ? or # never arrives in a request's path as written.
 */
function checkPath(path: string, file: string): void {
  const problem = !path.startsWith('/') ? 'does not start with /' : /[\s?#]/.test(path) ? 'holds a space, ? or #, which a client sends encoded or not as part of the path' : undefined;
  if (path !== '' && problem) throw new ServerError(`${file}: socketio.path: ${JSON.stringify(path)} ${problem}; write it as a URL path, such as /socket.io/.`);
}

export const socketioKind: ServerKindModule = {
  kind: 'socketio',
  transport: 'sharedHttp',
  create: (context) => new SocketIoKind(context),
};
