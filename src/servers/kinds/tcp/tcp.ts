/**
 * The TCP server (spec 2.11 `socket`, kind `tcp`): its own listening socket, TLS when the file
 * turns it on. Each connection gets the `greeting`, then the byte stream is cut into messages by
 * the `framing` and each is answered by the `mode` (echo sends back the bytes as received; rule
 * replies are framed). Stopping destroys every connection. At most CONNECTION_CAPS.tcp
 * connections at once (connection-cap.ts).
 */
import net, { type Socket } from 'node:net';
import tls from 'node:tls';
import { compile, type Template } from '../../../template/index.js';
import { CONNECTION_CAPS, capConnections } from '../../connection-cap.js';
import type { Listener } from '../../listener.js';
import type { BindOptions, ClientInfo, KindContext, KindSettings, PushOptions, SendForm, ServerKindModule, SocketKindInstance } from '../kind.js';
import { answerMessage, pushToPeers, socketSendForm, type SocketState } from '../messages/answer.js';
import { maxPrefixed } from '../../../support/byte-framing.js';
import { frame, type Framed, serverDeframer, type FramingOptions } from '../messages/framing.js';
import { LINE_ENDING_TEXT, preview } from '../messages/payload.js';
import { compileRules, hexOrThrow } from '../messages/rules.js';
import { messageRecord } from '../messages/traffic.js';
import { listenStream } from '../stream-listener.js';
import { HELD_TIMINGS, InTurn, OwedReplies, PendingTimers, watchHeld } from '../pending-timers.js';
import { kindSection } from '../../../model/index.js';

interface State extends SocketState, FramingOptions {
  greeting: Template | Buffer;
}

class TcpKind implements SocketKindInstance {
  #state: State | undefined;
  readonly #sockets = new Map<Socket, string>();
  readonly #timers = new PendingTimers();

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    const s = kindSection(server, 'socket');
    const file = this.context.file;
    this.#state = {
      mode: s.mode,
      rules: compileRules(s.rules, 'socket', file, s.encoding, 'socket.reply'),
      encoding: s.encoding,
      lineEnding: s.lineEnding,
      variables,
      framing: s.framing,
      lengthBytes: s.lengthBytes,
      greeting: s.encoding === 'hex' ? hexOrThrow(s.greeting, `${file}: socket.greeting`) : compile(s.greeting, 'tcp.greeting'),
    };
  }

  openStreams(): number {
    return this.#sockets.size;
  }

  get sendForm(): SendForm {
    return socketSendForm(this.#state);
  }

  /** Framed as replies are (`pushedBytes` has the line ending and hex). */
  push(data: string, options: PushOptions = {}): number {
    const state = this.#state!;
    return pushToPeers(state, data, options, [...this.#sockets].map(([socket, peer]) => [peer, (bytes: Buffer) => this.#write(socket, peer, bytes, state), socket.writableLength] as const));
  }

  clients(): ClientInfo[] {
    return [...this.#sockets.values()].map((peer) => ({ id: peer, label: peer }));
  }

  close(): void {
    this.#timers.clear();
  }

  async listen(bind: BindOptions): Promise<Listener> {
    const onConnection = (socket: Socket) => this.#connected(socket);
    const server = bind.tls ? tls.createServer({ cert: bind.tls.cert, key: bind.tls.key }, onConnection) : net.createServer(onConnection);
    const all = new Set<Socket>();
    // The raw sockets, also those still in the TLS handshake, so close() ends them all; and their
    // peers, read while connected: a failed handshake is reported after its socket closed.
    const peers = new WeakMap<Socket, string>();
    server.on('connection', (socket: Socket) => {
      all.add(socket);
      peers.set(socket, `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`);
      socket.once('close', () => all.delete(socket));
    });
    server.on('tlsClientError', (error: Error & { code?: string; reason?: string }, socket: tls.TLSSocket) => {
      // `_parent`: the raw socket a TLS server socket wraps (Node has no public name for it).
      const raw = (socket as unknown as { _parent?: Socket })._parent;
      const peer = (raw && peers.get(raw)) ?? `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
      const preview = `TLS handshake failed: ${handshakeFailure(error)}`;
      this.context.traffic.add(messageRecord('tcp', this.context.id, 'exchange', { peer, event: 'error', preview }, { level: 'warning' }));
    });
    const max = CONNECTION_CAPS.tcp;
    const why = `${max.toLocaleString('en-US')} connections are open already, the TCP server's limit; close some, or spread the clients over a second server`;
    capConnections(server, max, why, (peer, preview) => this.context.traffic.add(messageRecord('tcp', this.context.id, 'exchange', { peer, event: 'error', preview }, {})));
    return listenStream(server, bind, all, bind.tls ? 'tls' : 'tcp');
  }

  #connected(socket: Socket): void {
    const start = performance.now();
    const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? 0}`;
    const { traffic, id } = this.context;
    this.#sockets.set(socket, peer);
    let bytesIn = 0;
    const written = () => socket.bytesWritten;
    traffic.add(messageRecord('tcp', id, 'exchange', { peer, event: 'connect', preview: '' }, {}));
    const state = this.#state!;
    const greeting = Buffer.isBuffer(state.greeting)
      ? state.greeting
      : Buffer.from(state.greeting.render({ variables: state.variables }) + (state.greeting.source !== '' ? LINE_ENDING_TEXT[state.lineEnding] : ''));
    if (greeting.length > 0) this.#write(socket, peer, greeting, state);
    // A connection keeps the framing it started with: an edit cannot cut a stream mid-message.
    const deframer = serverDeframer(state);
    // Half-open once connected (for TLS, once the handshake is done: a client that leaves during
    // it must close the socket): a client that ends its side (socat or nc at the end of their
    // input) still gets the replies owed to it, and the server ends its side after them.
    socket.allowHalfOpen = true;
    // Delayed replies not sent yet, and whether the client has ended its side: the server ends
    // its own once both hold, so a half-closed client still gets every reply.
    let clientEnded = false;
    // Past the bound, not read until some have gone (after a drain too, if a write waits for one).
    let owedHeld = false;
    let heldNote: string | undefined;
    const watch = watchHeld(socket, () => {
      heldNote = `not read (${owed.count.toLocaleString('en-US')} delayed replies owed) and nothing sent for ${HELD_TIMINGS.idleMs / 1000} s: closed by the server, its replies dropped`;
      socket.destroy();
    });
    const owed = new OwedReplies(this.#timers, (held) => {
      watch(held);
      owedHeld = held;
      if (held) socket.pause();
      else inTurn.run();
    });
    // Answered as the socket's buffer and the bound of delayed replies allow (InTurn); the client
    // is not read while any wait, as a pipe waits for its reader.
    const inTurn = new InTurn<Framed>(
      (message) => this.#answer(socket, peer, message, state, owed, endIfDone),
      () => !owedHeld && !socket.writableNeedDrain && !socket.destroyed,
      () => {
        if (owedHeld || inTurn.count > 0 || socket.writableNeedDrain) socket.pause();
        else socket.resume();
        endIfDone();
      },
    );
    const endIfDone = () => {
      if (clientEnded && owed.count === 0 && inTurn.count === 0 && !socket.destroyed) socket.end();
    };
    socket.on('drain', () => inTurn.run());
    socket.on('data', (chunk: Buffer) => {
      bytesIn += chunk.length;
      let messages;
      try {
        messages = deframer.push(chunk);
      } catch (error) {
        traffic.add(messageRecord('tcp', id, 'in', { peer, event: 'error', preview: (error as Error).message }, { note: 'connection closed' }));
        deframer.end(); // what it held is not a message
        socket.destroy();
        return;
      }
      inTurn.add(messages);
    });
    // The end of the client's input ends a last line without its LF (`printf 'a\nb' | nc`): it is
    // a message too, answered when the client only ended its side, logged when it is gone. A
    // prefixed message the client ended inside is a warning.
    const takeRest = (gone: boolean) => {
      const { last, cutOff } = deframer.end();
      if (last !== undefined) {
        const now = this.#state!;
        if (!gone) inTurn.add([{ content: last, wire: last }]);
        else {
          const note = now.mode === 'echo' || now.mode === 'rules' ? { note: 'not answered: the connection closed' } : {};
          traffic.add(messageRecord('tcp', id, 'in', { peer, event: 'message', preview: preview(last, now.encoding === 'hex') }, { bytesIn: last.length, ...note }));
        }
      }
      if (cutOff) traffic.add(messageRecord('tcp', id, 'in', { peer, event: 'error', preview: `${gone ? 'the connection closed' : 'the client ended its side'} in the middle of a message (${cutOff} bytes of it cut off)` }, { level: 'warning' }));
    };
    socket.once('end', () => {
      clientEnded = true;
      takeRest(false);
      endIfDone();
    });
    socket.on('error', () => {}); // a reset: 'close' follows and is recorded
    socket.once('close', () => {
      if (!clientEnded) takeRest(true);
      owed.cancel();
      this.#sockets.delete(socket);
      // Messages read and never answered: the client left before the replies ahead of them had gone.
      const unanswered = inTurn.count;
      const note = heldNote ?? (unanswered > 0 ? `${unanswered.toLocaleString('en-US')} messages read and not answered: the client left before the replies ahead of them had gone` : undefined);
      const why = note === undefined ? {} : { note, level: 'warning' as const };
      traffic.add(messageRecord('tcp', id, 'exchange', { peer, event: 'close', preview: '' }, { start, bytesIn, bytesOut: written(), ...why }));
    });
  }

  /** Answers one message as the mode says (replies framed as the connection began), and records it. */
  #answer(socket: Socket, peer: string, { content, wire }: Framed, framing: FramingOptions, owed: OwedReplies, endIfDone: () => void): void {
    const state = this.#state!;
    const { traffic, id } = this.context;
    const shown = preview(content, state.encoding === 'hex');
    if (state.mode === 'echo') {
      // One record for the message and its echo, as the WebSocket server keeps it.
      if (socket.writable) socket.write(wire);
      traffic.add(messageRecord('tcp', id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: wire.length, bytesOut: wire.length, note: 'echoed' }));
      return;
    }
    traffic.add(messageRecord('tcp', id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: wire.length }));
    const answer = answerMessage(state, content, wire);
    if (answer === undefined) return;
    if (answer.delayMs === 0) this.#write(socket, peer, answer.bytes, framing, answer.rule);
    else {
      owed.later(answer.delayMs, answer.bytes.length, () => {
        this.#write(socket, peer, answer.bytes, framing, answer.rule);
        endIfDone();
      });
    }
  }

  /**
   * Writes `message` framed as `framing` says and records it: the preview shows the message
   * without a length prefix; a message cut to what its prefix can say is noted.
   */
  #write(socket: Socket, peer: string, message: Buffer, framing: FramingOptions, rule?: number): void {
    if (socket.destroyed || !socket.writable) return;
    const wire = frame(message, framing);
    // Not read until the client has read this: the connection's drain listener reads on.
    if (!socket.write(wire)) socket.pause();
    const state = this.#state!;
    const detail = { peer, event: 'message' as const, preview: preview(message, state.encoding === 'hex'), ...(rule !== undefined ? { rule } : {}) };
    const max = framing.framing === 'lengthPrefixed' ? maxPrefixed(framing.lengthBytes) : Number.POSITIVE_INFINITY;
    const cut = message.length > max
      ? { level: 'warning' as const, note: `cut to ${max} of ${message.length} bytes: the most a ${framing.lengthBytes}-byte length prefix can say; set socket.lengthBytes to ${framing.lengthBytes === 1 ? 2 : 4}` }
      : {};
    this.context.traffic.add(messageRecord('tcp', this.context.id, 'out', detail, { bytesOut: wire.length, ...cut }));
  }
}

/** Why a client's TLS handshake failed, in words: most often it does not speak TLS, or does not trust the certificate. */
function handshakeFailure(error: Error & { code?: string; reason?: string }): string {
  if (error.code === 'ERR_SSL_WRONG_VERSION_NUMBER' || error.code === 'ERR_SSL_HTTP_REQUEST') {
    return `the client does not speak TLS (${error.reason ?? error.code}); connect with TLS, or set tls.enabled to false`;
  }
  if (error.code === 'ECONNRESET') return 'the client left during the handshake (does it trust the certificate?)';
  return error.reason ?? error.code ?? error.message;
}

export const tcpKind: ServerKindModule = {
  kind: 'tcp',
  transport: 'ownSocket',
  create: (context) => new TcpKind(context),
};
