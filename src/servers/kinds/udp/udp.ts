/**
 * The UDP server (spec 2.11 `socket`, kind `udp`): each datagram is one message, answered by the
 * `mode` to the sender's address and port. No greeting (there is no connection to greet) and no
 * framing. The traffic panel's send goes to the peers heard from most recently.
 */
import dgram from 'node:dgram';
import { ServerError } from '../../errors.js';
import { bindError, type Listener } from '../../listener.js';
import type { BindOptions, ClientInfo, KindContext, KindSettings, PushOptions, SendForm, ServerKindModule, SocketKindInstance } from '../kind.js';
import { answerMessage, pushToPeers, socketSendForm, type SocketState } from '../messages/answer.js';
import { preview } from '../messages/payload.js';
import { compileRules } from '../messages/rules.js';
import { messageRecord } from '../messages/traffic.js';
import { MAX_OWED_BYTES, PendingTimers } from '../pending-timers.js';
import { kindSection } from '../../../model/index.js';

/** Peers the panel's send reaches: the most recent senders, bounded. */
const MAX_PEERS = 64;
/** The most one IPv4 UDP datagram carries (65,535 less the IP and UDP headers). */
const MAX_DATAGRAM_BYTES = 65_507;
/**
 * Delayed replies waiting at once, and their bytes (MAX_OWED_BYTES, as a TCP or WebSocket
 * connection's): a sender that never waits for its answers cannot fill the memory. UDP may lose a
 * datagram anyway, so one past this is not answered.
 */
const MAX_WAITING = 4096;

class UdpKind implements SocketKindInstance {
  #state: SocketState | undefined;
  #socket: dgram.Socket | undefined;
  readonly #peers = new Map<string, { address: string; port: number }>();
  readonly #timers = new PendingTimers();
  /** The bytes of the delayed replies waiting. */
  #waitingBytes = 0;

  constructor(private readonly context: KindContext) {}

  configure({ server, variables }: KindSettings): void {
    if (server.tls?.enabled) throw new ServerError(`${this.context.file}: tls: a UDP server has no TLS; set tls.enabled to false.`);
    const s = kindSection(server, 'socket');
    this.#state = { mode: s.mode, rules: compileRules(s.rules, 'socket', this.context.file, s.encoding, 'socket.reply'), encoding: s.encoding, lineEnding: s.lineEnding, variables };
  }

  openStreams(): number {
    return this.#peers.size;
  }

  get sendForm(): SendForm {
    return socketSendForm(this.#state);
  }

  push(data: string, options: PushOptions = {}): number {
    return pushToPeers(this.#state!, data, options, [...this.#peers].map(([id, peer]) => [id, (bytes: Buffer) => this.#send(bytes, peer.address, peer.port)] as const));
  }

  /** UDP has no connections: the peers heard from most recently. */
  clients(): ClientInfo[] {
    return [...this.#peers.keys()].map((peer) => ({ id: peer, label: peer }));
  }

  close(): void {
    this.#timers.clear();
    this.#waitingBytes = 0;
  }

  async listen(bind: BindOptions): Promise<Listener> {
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', (error: NodeJS.ErrnoException) => reject(bindError(error, bind)));
      socket.bind({ address: bind.host, port: bind.port, exclusive: true }, () => resolve());
    });
    socket.removeAllListeners('error');
    socket.on('error', () => {}); // e.g. ICMP port unreachable from a peer that left
    socket.on('message', (message, from) => this.#received(message, from.address, from.port));
    this.#socket = socket;
    const port = socket.address().port;
    let closing: Promise<void> | undefined;
    return {
      url: `udp://127.0.0.1:${port}`,
      port,
      connections: () => 0,
      close: () => (closing ??= new Promise<void>((resolve) => socket.close(() => resolve()))),
    };
  }

  #received(message: Buffer, address: string, port: number): void {
    const peer = `${address}:${port}`;
    this.#peers.delete(peer);
    this.#peers.set(peer, { address, port });
    if (this.#peers.size > MAX_PEERS) this.#peers.delete(this.#peers.keys().next().value!);
    const state = this.#state!;
    const shown = preview(message, state.encoding === 'hex');
    if (state.mode === 'echo') {
      // One record for the datagram and its echo, as the WebSocket and TCP servers keep it.
      this.#socket?.send(message, port, address);
      this.context.traffic.add(messageRecord('udp', this.context.id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: message.length, bytesOut: message.length, note: 'echoed' }));
      return;
    }
    this.context.traffic.add(messageRecord('udp', this.context.id, 'in', { peer, event: 'message', preview: shown }, { bytesIn: message.length }));
    const answer = answerMessage(state, message, message);
    if (answer === undefined) return;
    const send = () => this.#send(answer.bytes, address, port, answer.rule);
    if (answer.delayMs === 0) send();
    else if (this.#timers.size >= MAX_WAITING || this.#waitingBytes + answer.bytes.length > MAX_OWED_BYTES) {
      const what = this.#timers.size >= MAX_WAITING ? `${MAX_WAITING.toLocaleString('en-US')} delayed replies are` : `${(this.#waitingBytes / 1024 / 1024).toFixed(1)} MB of delayed replies is`;
      const why = `not answered: ${what} waiting already (the most a UDP server keeps: ${MAX_WAITING.toLocaleString('en-US')} replies, 16 MB); send fewer datagrams at once, or lower delayMs`;
      this.context.traffic.add(messageRecord('udp', this.context.id, 'out', { peer, event: 'error', preview: why, rule: answer.rule }, { level: 'warning' }));
    } else {
      const size = answer.bytes.length;
      this.#waitingBytes += size;
      this.#timers.later(answer.delayMs, () => {
        this.#waitingBytes -= size;
        send();
      });
    }
  }

  #send(bytes: Buffer, address: string, port: number, rule?: number): void {
    const peer = `${address}:${port}`;
    const ruleField = rule !== undefined ? { rule } : {};
    if (bytes.length > MAX_DATAGRAM_BYTES) {
      // The system would refuse it (EMSGSIZE) without a word: say so in the log instead of recording it as sent.
      const why = `not sent: the reply is ${bytes.length.toLocaleString('en-US')} bytes, more than one UDP datagram holds (${MAX_DATAGRAM_BYTES.toLocaleString('en-US')})`;
      this.context.traffic.add(messageRecord('udp', this.context.id, 'out', { peer, event: 'error', preview: why, ...ruleField }, {}));
      return;
    }
    this.#socket?.send(bytes, port, address);
    const detail = { peer, event: 'message' as const, preview: preview(bytes, this.#state!.encoding === 'hex'), ...ruleField };
    this.context.traffic.add(messageRecord('udp', this.context.id, 'out', detail, { bytesOut: bytes.length }));
  }
}

export const udpKind: ServerKindModule = {
  kind: 'udp',
  transport: 'ownSocket',
  create: (context) => new UdpKind(context),
};
