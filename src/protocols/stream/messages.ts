/**
 * The one message model and stop rule of every streaming kind (spec 2.7 `settings.stream`, 2.8):
 * SSE, WebSocket, Socket.IO, MQTT, TCP, UDP and server-streaming gRPC. A stream is opened, messages
 * are sent and received, and reading stops at the first of: a received message named
 * `stream.event`, `maxEvents` received messages, `stream.timeoutMs`, or the peer closing.
 * Only the first messages are kept (memory stays bounded on long streams); all are counted.
 */
import { settingsSchema, type RequestSettings } from '../../model/index.js';

export type StreamSettings = NonNullable<RequestSettings['stream']>;

/** `settings.stream` when the request leaves it out: the format's own defaults. */
export const DEFAULT_STREAM: StreamSettings = settingsSchema.shape.stream.unwrap().parse({});

/**
 * Why reading stopped: the named event, the message count, the time limit, or the peer ended the
 * stream: by closing it, or (GraphQL subscriptions) by completing it or ending it with an error.
 */
export type StreamStop = 'event' | 'maxEvents' | 'timeout' | 'closed' | 'complete' | 'error';

/** A live connection's reading: no stop rule (it stays open until either side closes it). */
export const LIVE_STREAM: StreamSettings = { maxEvents: 0, timeoutMs: 0 };

/** Messages kept per stream; the rest are counted only. */
export const MAX_KEPT_MESSAGES = 1000;

export interface StreamMessage {
  direction: 'sent' | 'received';
  /** Milliseconds since the stream opened. */
  timeMs: number;
  /** UTF-8 text, or base64 when `binary`. */
  text: string;
  binary?: true;
  /** SSE event name, Socket.IO event, or the kind's own label (`ack`). */
  event?: string;
  /** Socket.IO: the event's arguments. */
  args?: unknown[];
  /** MQTT. */
  topic?: string;
  qos?: number;
  retain?: boolean;
  /** MQTT 5: the publish's properties (`userProperties`, `contentType`, `responseTopic`, `correlationData` as base64…). */
  properties?: Record<string, unknown>;
}

export interface StreamSummary {
  /** Messages received (all of them, kept or not). */
  events: number;
  stoppedBy: StreamStop;
  /** When the peer closed it (`closed`) and its protocol says how, that in words: a WebSocket's `close code 1000 "bye"`. Reports print it after the stop. */
  closedWith?: string;
}

/** A message as a kind reports it; the time is stamped here. */
export type MessageInput = Omit<StreamMessage, 'direction' | 'timeMs'>;

/**
 * Records one stream's messages and decides when reading stops. A kind calls `sent`/`received`
 * as messages go by, `closed()` when the peer ends, and awaits `done` (resolved once, with the
 * reason). `matchName` says which name of a received message `stream.event` compares with
 * (SSE: the event name, `message` when unnamed; MQTT: the topic); kinds where a name does not
 * apply leave it out and `stream.event` is ignored.
 */
export class MessageStream {
  readonly messages: StreamMessage[] = [];
  private receivedCount = 0;
  /** Bytes of all received messages (kept or not): text as UTF-8, binary frames as their bytes. */
  receivedBytes = 0;
  stoppedBy: StreamStop | undefined;
  readonly done: Promise<StreamStop>;
  private resolveDone!: (why: StreamStop) => void;
  private timer: NodeJS.Timeout | undefined;
  private readonly openedAt = performance.now();

  constructor(
    private readonly settings: StreamSettings = DEFAULT_STREAM,
    private readonly matchName?: (message: MessageInput) => string | undefined,
    private readonly keep = MAX_KEPT_MESSAGES,
    /** Told of each kept message as it is recorded (a face showing the stream live); with `keep` 0, of every message. */
    private readonly onRecord?: (message: StreamMessage) => void,
  ) {
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    if (settings.timeoutMs > 0) this.timer = setTimeout(() => this.stop('timeout'), settings.timeoutMs);
  }

  get events(): number {
    return this.receivedCount;
  }

  get stopped(): boolean {
    return this.stoppedBy !== undefined;
  }

  sent(message: MessageInput): void {
    this.record('sent', message);
  }

  /** Records a received message; true when it ended reading (later ones are not part of the stream). */
  received(message: MessageInput): boolean {
    if (this.stopped) return true;
    this.countReceived(message);
    const wanted = this.settings.event;
    if (wanted && this.matchName && this.matchName(message) === wanted) this.stop('event');
    else if (this.settings.maxEvents > 0 && this.receivedCount >= this.settings.maxEvents) this.stop('maxEvents');
    return this.stopped;
  }

  /** Records the peer's last message, which ends reading with its own reason (a GraphQL subscription's `error`). */
  endWith(why: StreamStop, message: MessageInput): void {
    if (this.stopped) return;
    this.countReceived(message);
    this.stop(why);
  }

  /** The peer closed the stream (or the connection ended). */
  closed(): void {
    this.stop('closed');
  }

  stop(why: StreamStop): void {
    if (this.stopped) return;
    this.stoppedBy = why;
    this.clear();
    this.resolveDone(why);
  }

  /** Ends the time limit without a verdict (the send failed; the kind reports its error). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  summary(): StreamSummary {
    return { events: this.receivedCount, stoppedBy: this.stoppedBy ?? 'closed' };
  }

  /** The received texts joined with `\n` (what `pm.response.text()` reads for message kinds). */
  receivedText(): string {
    return this.messages.filter((m) => m.direction === 'received').map((m) => m.text).join('\n');
  }

  private countReceived(message: MessageInput): void {
    this.receivedCount++;
    this.receivedBytes += Buffer.byteLength(message.text, message.binary ? 'base64' : 'utf8');
    this.record('received', message);
  }

  private record(direction: StreamMessage['direction'], message: MessageInput): void {
    // keep 0: a live connection, whose listener keeps what it wants; nothing is kept here.
    const live = this.keep === 0;
    if (!live && this.messages.length >= this.keep) return;
    const recorded: StreamMessage = { direction, timeMs: Math.round((performance.now() - this.openedAt) * 100) / 100, ...message };
    if (!live) this.messages.push(recorded);
    this.onRecord?.(recorded);
  }
}

/** A received frame as the message model keeps it: UTF-8 text, or base64 marked binary. */
export function frameText(data: Uint8Array, isBinary: boolean): MessageInput {
  return isBinary ? { text: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64'), binary: true } : { text: Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8') };
}
