/**
 * The life of one streaming send, shared by the kinds that connect and then read messages
 * (WebSocket, Socket.IO, MQTT): `settings.timeoutMs` bounds connecting and the handshake, then
 * the shared stop rule (`settings.stream`) bounds reading; cancelling ends either at once. The
 * kind wires its client's events to `open`, `messages` and `fail`, and `close` shuts its
 * connection however the session ends.
 *
 * A live connection (`live` given, live/connection.ts) is the same session without the stop
 * rule: it reads until either side closes, and hands every message to `live` instead of keeping it.
 */
import { performance } from 'node:perf_hooks';
import type { PreparedRequest } from '../../request/prepared.js';
import { Deadline } from '../deadline.js';
import type { ProtocolResult } from '../kind.js';
import type { SendError } from '../send-error.js';
import { DEFAULT_STREAM, LIVE_STREAM, MessageStream, type MessageInput, type StreamMessage, type StreamStop } from './messages.js';

export class StreamSession {
  readonly startedAt = performance.now();
  /** Set by `open`: milliseconds from the start to the connection's handshake done. */
  openedMs: number | undefined;
  messages: MessageStream | undefined;
  private readonly deadline: Deadline;
  private failed: SendError | undefined;
  private rejectEnd!: (error: SendError) => void;
  private resolveEnd!: (why: StreamStop) => void;
  /** Settles once: with the stop reason, or with the send's error. */
  readonly ended: Promise<StreamStop>;
  private closers: Array<() => void> = [];
  /** Settles once: when the handshake is done, or with the error that ended the session before. */
  readonly opened: Promise<void>;
  private resolveOpened!: () => void;
  private rejectOpened!: (error: SendError) => void;

  constructor(
    private readonly prepared: PreparedRequest,
    signal: AbortSignal | undefined,
    private readonly matchName?: (message: MessageInput) => string | undefined,
    /** A live connection: every message goes here, none is kept, and no stop rule applies. */
    private readonly live?: (message: StreamMessage) => void,
  ) {
    this.ended = new Promise<StreamStop>((resolve, reject) => {
      this.resolveEnd = resolve;
      this.rejectEnd = reject;
    });
    this.ended.catch(() => {}); // read by `finish`; never an unhandled rejection
    this.opened = new Promise<void>((resolve, reject) => {
      this.resolveOpened = resolve;
      this.rejectOpened = reject;
    });
    this.opened.catch(() => {});
    this.deadline = new Deadline(prepared.settings?.timeoutMs ?? 0, signal);
    // The connect time limit and cancel end the session with the deadline's own message, or the kind's words for how far connecting got.
    this.deadline.attach((reason) => this.fail(this.explainTimeout ? this.explainTimeout(reason as SendError) : (reason as SendError)));
  }

  /** Set by a kind to say, when the connect time limit ends the session, how far connecting got (connect-stage.ts). */
  explainTimeout: ((error: SendError) => SendError) | undefined;

  /** Runs when the session ends, whatever the way (the kind closes its connection here). */
  onClose(close: () => void): void {
    this.closers.push(close);
  }

  get isOver(): boolean {
    return this.failed !== undefined || (this.messages?.stopped ?? false);
  }

  /** The handshake is done: the connect time limit ends and reading starts, by the stop rule. */
  open(): MessageStream {
    if (this.messages) return this.messages;
    this.openedMs = performance.now() - this.startedAt;
    this.deadline.stopTimer();
    this.messages = this.live ? new MessageStream(LIVE_STREAM, undefined, 0, this.live) : new MessageStream(this.prepared.stream ?? DEFAULT_STREAM, this.matchName);
    void this.messages.done.then((why) => this.resolveEnd(why));
    this.resolveOpened();
    return this.messages;
  }

  /** The send failed (before or while reading): the first error wins. */
  fail(error: SendError): void {
    if (this.failed || this.messages?.stopped) return;
    this.failed = error;
    this.messages?.clear();
    this.rejectOpened(error);
    this.rejectEnd(error);
  }

  /** Waits until reading stops or the send fails, and closes the connection either way. */
  async finish(): Promise<MessageStream> {
    try {
      await this.ended;
      return this.messages!;
    } finally {
      this.deadline.clear();
      for (const close of this.closers) {
        try {
          close();
        } catch {
          // closing a connection that already failed: nothing more to do
        }
      }
    }
  }

  /** The kind-neutral result of a stream that was read: the body is the received texts joined with `\n`. */
  result(parts: Pick<ProtocolResult, 'outcome' | 'url'> & Partial<Pick<ProtocolResult, 'headers' | 'detail' | 'remoteAddress' | 'httpVersion'>> & { headerBytes?: number; closedWith?: string }): ProtocolResult {
    const messages = this.messages!;
    const body = new TextEncoder().encode(messages.receivedText());
    const firstReceived = messages.messages.find((m) => m.direction === 'received');
    const opened = this.openedMs ?? 0;
    return {
      outcome: parts.outcome,
      headers: parts.headers ?? [],
      body,
      bodySize: messages.receivedBytes,
      size: messages.receivedBytes + (parts.headerBytes ?? 0),
      url: parts.url,
      timings: {
        dnsMs: 0,
        connectMs: round(opened),
        tlsMs: 0,
        firstByteMs: round(firstReceived ? opened + firstReceived.timeMs : opened),
        totalMs: round(performance.now() - this.startedAt),
      },
      messages: messages.messages,
      stream: { ...messages.summary(), ...(parts.closedWith && messages.stoppedBy === 'closed' ? { closedWith: parts.closedWith } : {}) },
      ...(parts.detail ? { detail: parts.detail } : {}),
      ...(parts.remoteAddress ? { remoteAddress: parts.remoteAddress } : {}),
      ...(parts.httpVersion ? { httpVersion: parts.httpVersion } : {}),
    };
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

