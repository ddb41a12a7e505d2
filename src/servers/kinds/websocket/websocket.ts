/**
 * The WebSocket server (spec 2.11 `websocket`): upgrades on the shared HTTP listener (so TLS,
 * the loopback-name check and stopping come from there) are handed to `ws`. Each client gets the
 * `greeting`, then every message is answered by the `mode`: echoed (text as text, binary as
 * binary), answered by the first matching rule, or left for the traffic panel (`manual`, `discard`).
 * `lineEnding` (2.11 names it for WebSocket, TCP and UDP servers alike) ends what the server
 * writes as text itself, as the TCP server's: the greeting, rule replies and panel sends.
 * Without `cors`, a web page of another origin is refused (same-origin.ts), as Socket.IO's.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { compile, type Template, type VariableScope } from '../../../template/index.js';
import { type AnyRequest, type AnyResponse, answerable, plainTextHeaders } from '../../http-types.js';
import type { ClientInfo, HttpKindInstance, KindContext, KindSettings, PushOptions, ServerKindModule } from '../kind.js';
import { type CompiledRule, compileRules, firstMatch, type Mode } from '../messages/rules.js';
import { LINE_ENDING_TEXT, preview, previewText, previewUtf8 } from '../messages/payload.js';
import { messageRecord } from '../messages/traffic.js';
import { HELD_TIMINGS, InTurn, OwedReplies, PendingTimers, watchHeld } from '../pending-timers.js';
import { otherOriginRefused, sameOrigin } from '../same-origin.js';
import { refuseUpgrade } from '../../listener.js';
import { notReading } from '../messages/not-reading.js';
import { kindSection } from '../../../model/index.js';

/** Biggest message a client may send; `ws` would allow 100 MB. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/** `ws.send` options, made once: an echo server sends one message per message. */
const AS_TEXT = Object.freeze({ binary: false });
const AS_BINARY = Object.freeze({ binary: true });
/** Past this many bytes waiting to go to a client, its messages are not read until they have gone. */
const MAX_UNSENT_BYTES = 1024 * 1024;

interface State {
  mode: Mode;
  greeting: Template;
  rules: CompiledRule[];
  variables: VariableScope;
  /** Appended to the greeting, rule replies and panel sends (`''` for `none`). */
  lineEnding: string;
  /** Web pages of other origins may connect. */
  cors: boolean;
}

class WebSocketKind implements HttpKindInstance {
  #state: State | undefined;
  readonly #wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES, clientTracking: false });
  readonly #clients = new Map<WebSocket, string>();
  readonly #timers = new PendingTimers();
  /** `close` was called: the clients were sent 1001 and are being closed. */
  #closing = false;

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    const section = kindSection(server, 'websocket');
    this.#state = {
      mode: section.mode,
      greeting: compile(section.greeting, 'ws.greeting'),
      rules: compileRules(section.rules, 'websocket', this.context.file, 'text', 'ws.reply'),
      variables,
      lineEnding: LINE_ENDING_TEXT[section.lineEnding],
      cors: section.cors,
    };
  }

  openStreams(): number {
    return this.#clients.size;
  }

  /** Clients connect with ws:// (wss:// with TLS) on any path. */
  clientUrl(bound: string): string {
    return bound.replace(/^http/, 'ws');
  }

  readonly sendForm = { event: false, hex: false };

  push(data: string, options: PushOptions = {}): number {
    const text = (options.fill ? options.fill(data) : data) + this.#state!.lineEnding;
    let count = 0;
    for (const [ws, peer] of this.#clients) {
      if (options.to !== undefined && options.to !== peer) continue;
      if (notReading(peer, ws.bufferedAmount, options)) continue;
      this.#send(ws, peer, text, false);
      count++;
    }
    return count;
  }

  clients(): ClientInfo[] {
    return [...this.#clients.values()].map((peer) => ({ id: peer, label: peer }));
  }

  close(): void {
    this.#closing = true;
    this.#timers.clear();
    // A close frame first (1001 going away); the listener destroys the sockets next.
    for (const ws of this.#clients.keys()) ws.close(1001, 'server stopping');
  }

  /** A plain request to a WebSocket server: say what it is. */
  handle(_req: AnyRequest, res: AnyResponse): void {
    const text = 'This is a WebSocket server: connect with a WebSocket client (ws:// or wss://).\n';
    const out = answerable(res);
    out.writeHead(426, plainTextHeaders(text, { Upgrade: 'websocket' }));
    out.end(text);
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // The peer before the handshake: a client gone during it has no address afterwards.
    const peer = `${req.socket.remoteAddress ?? '?'}:${req.socket.remotePort ?? 0}`;
    if (!this.#state!.cors && !sameOrigin(req)) {
      const preview = otherOriginRefused(req, 'websocket');
      refuseUpgrade(socket, `Ferry's WebSocket server ${preview}.\n`);
      this.context.traffic.add(messageRecord('websocket', this.context.id, 'exchange', { peer, event: 'error', preview }, { level: 'warning' }));
      return;
    }
    this.#wss.handleUpgrade(req, socket, head, (ws) => this.#connected(ws, req, peer));
  }

  #connected(ws: WebSocket, req: IncomingMessage, peer: string): void {
    const start = performance.now();
    this.#clients.set(ws, peer);
    let bytesIn = 0;
    let bytesOut = 0;
    const { traffic, id } = this.context;
    traffic.add(messageRecord('websocket', id, 'exchange', { peer, event: 'connect', preview: req.url ?? '/' }, {}));
    const state = this.#state!;
    const greeting = state.greeting.source === '' ? '' : state.greeting.render({ variables: state.variables }) + state.lineEnding;
    if (greeting !== '') bytesOut += this.#send(ws, peer, greeting, false);
    // Delayed replies: bounded while connected (the client is not read past the bound), gone with it.
    let heldNote: string | undefined;
    // Why the server closed the connection, for its close record.
    let why = '';
    const watch = watchHeld(req.socket, () => {
      heldNote = `not read (${owed.count.toLocaleString('en-US')} delayed replies owed) and nothing sent for ${HELD_TIMINGS.idleMs / 1000} s: closed by the server, its replies dropped`;
      why = heldNote;
      ws.terminate();
    });
    const owed = new OwedReplies(this.#timers, (held) => {
      watch(held);
      owedHeld = held;
      if (held) ws.pause();
      else inTurn.run();
    });
    // `ws` hands over every message of a read, paused or not: past the bound of delayed replies
    // owed, or of bytes unsent, the rest are answered in turn (InTurn) as replies go, the client
    // not read meanwhile.
    let owedHeld = false;
    let awaitingDrain = false;
    const inTurn = new InTurn<{ bytes: Buffer; isBinary: boolean }>(
      ({ bytes, isBinary }) => answer(bytes, isBinary),
      () => !owedHeld && ws.bufferedAmount < MAX_UNSENT_BYTES && ws.readyState === WebSocket.OPEN,
      () => {
        if (owedHeld || ws.readyState !== WebSocket.OPEN) return;
        if (inTurn.count === 0) return void ws.resume();
        ws.pause();
        if (awaitingDrain) return;
        awaitingDrain = true;
        req.socket.once('drain', () => {
          awaitingDrain = false;
          inTurn.run();
        });
      },
    );

    ws.on('message', (data: RawData, isBinary: boolean) => {
      const bytes = data as Buffer; // binaryType nodebuffer: one Buffer per message
      bytesIn += bytes.length;
      // Answered at once when nothing waits (an echo server's every message), else in turn.
      if (inTurn.count === 0 && !owedHeld && ws.bufferedAmount < MAX_UNSENT_BYTES) return answer(bytes, isBinary);
      inTurn.add([{ bytes, isBinary }]);
    });
    const answer = (bytes: Buffer, isBinary: boolean) => {
      const now = this.#state!;
      // Text frames are UTF-8 by the protocol: decoded whole only when the rules read them (then
      // once, for the preview too); the preview alone needs only their start.
      const text = !isBinary && now.mode === 'rules' ? bytes.toString('utf8') : undefined;
      const shown = isBinary ? preview(bytes, true) : text !== undefined ? previewText(text) : previewUtf8(bytes);
      if (now.mode === 'echo') {
        // One record for the message and its echo: an echo server's log is not doubled.
        if (ws.readyState === WebSocket.OPEN) sendPaced(ws, bytes, isBinary ? AS_BINARY : AS_TEXT); // the received bytes as they are
        bytesOut += bytes.length;
        traffic.add(messageRecord('websocket', id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: bytes.length, bytesOut: bytes.length, note: 'echoed' }));
        return;
      }
      traffic.add(messageRecord('websocket', id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: bytes.length }));
      if (now.mode === 'rules') {
        const message = text ?? bytes.toString('utf8');
        const rule = firstMatch(now.rules, { text: message, bytes });
        if (rule === undefined) return;
        const reply = (rule.reply as Template).render({ variables: now.variables, message }) + now.lineEnding;
        const send = () => (bytesOut += this.#send(ws, peer, reply, false, rule.number));
        if (rule.delayMs === 0) send();
        else owed.later(rule.delayMs, Buffer.byteLength(reply), send);
      }
    };
    // A broken client or a message over the limit: 'close' follows and is recorded with why, since
    // its code is then 1006 (no close frame came back) whatever the server sent.
    ws.on('error', (error: Error & { code?: string }) => {
      why = error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 'closed with 1009: a message over 16 MB' : error.message;
    });
    ws.once('close', (code: number, reason: Buffer) => {
      this.#clients.delete(ws);
      owed.cancel();
      // Messages read and never answered (a server stopping leaves some: that is said already).
      const unanswered = this.#closing ? 0 : inTurn.count;
      if (unanswered > 0) why ||= `${unanswered.toLocaleString('en-US')} messages read and not answered: the client left before the replies ahead of them had gone`;
      // Closed as the server stops: the listener mostly destroys the socket before the client's
      // close frame comes back (1006), but the client was sent 1001, and that is what it saw.
      const shown = this.#closing && (code === 1006 || code === 1001) && !why
        ? 'code 1001 server stopping (the server stopped)'
        : `code ${code}${reason.length > 0 ? ` ${previewUtf8(reason)}` : ''}${why ? ` (${why})` : ''}`;
      traffic.add(messageRecord('websocket', id, 'exchange', { peer, event: 'close', preview: shown }, { start, bytesIn, bytesOut, ...(heldNote !== undefined || unanswered > 0 ? { level: 'warning' as const } : {}) }));
    });
  }

  /** Sends one message if the client is still open; returns its size. */
  #send(ws: WebSocket, peer: string, data: string | Buffer, binary: boolean, rule?: number): number {
    if (ws.readyState !== WebSocket.OPEN) return 0;
    const size = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
    sendPaced(ws, data, binary ? AS_BINARY : AS_TEXT);
    const shown = typeof data === 'string' ? previewText(data) : preview(data, binary);
    const detail = { peer, event: 'message' as const, preview: shown, ...(rule !== undefined ? { rule } : {}) };
    this.context.traffic.add(messageRecord('websocket', this.context.id, 'out', detail, { bytesOut: size }));
    return size;
  }
}

/**
 * Sends, and when more than MAX_UNSENT_BYTES already wait for the client stops reading its
 * messages until this one has gone out: a client that sends without reading (its echoes, its
 * replies) cannot make the server hold them without bound.
 */
function sendPaced(ws: WebSocket, data: string | Buffer, options: { binary: boolean }): void {
  if (ws.bufferedAmount < MAX_UNSENT_BYTES) return ws.send(data, options);
  ws.pause();
  ws.send(data, options, () => ws.resume());
}

export const websocketKind: ServerKindModule = {
  kind: 'websocket',
  transport: 'sharedHttp',
  create: (context) => new WebSocketKind(context),
};
