/** A TCP or UDP exchange as the kind-neutral result: the messages, how reading stopped, and the body scripts read. */
import { SendError } from '../send-error.js';
import type { ProtocolResult } from '../kind.js';
import type { MessageStream } from '../stream/messages.js';
import { formatHex } from './payload.js';
import type { SocketOptions } from './options.js';

/**
 * What `pm.response.text()` reads: the received messages' texts joined with `\n`, except under
 * `raw` framing, where reads are pieces of one byte stream and are joined as they came (in hex
 * encoding with a space, so the pairs stay pairs). Counted up to the stop, kept messages or not.
 */
export function receivedBody(received: readonly Buffer[], options: Pick<SocketOptions, 'framing' | 'encoding'>): Buffer {
  const stream = options.framing === 'raw';
  if (options.encoding === 'hex') return Buffer.from(stream ? formatHex(Buffer.concat(received)) : received.map((m) => formatHex(m)).join('\n'));
  if (stream) return Buffer.concat(received);
  const parts: Buffer[] = [];
  received.forEach((message, i) => parts.push(...(i > 0 ? [Buffer.from('\n'), message] : [message])));
  return Buffer.concat(parts);
}

export interface SocketExchange {
  url: string;
  remoteAddress?: string;
  timings: ProtocolResult['timings'];
  stream: MessageStream;
  body: Buffer;
  bytesRead: number;
  detail?: Record<string, unknown>;
}

/**
 * Raw sockets have no status: the outcome is 0 with the word for what happened (`connected`),
 * and a send that got here passes without tests; what came back is for tests to judge.
 */
export function socketResult(exchange: SocketExchange, word = 'connected'): ProtocolResult {
  return {
    outcome: { status: 0, text: word, ok: true },
    headers: [],
    body: exchange.body,
    bodySize: exchange.bytesRead,
    size: exchange.bytesRead,
    url: exchange.url,
    timings: exchange.timings,
    messages: exchange.stream.messages,
    stream: exchange.stream.summary(),
    ...(exchange.remoteAddress ? { remoteAddress: exchange.remoteAddress } : {}),
    ...(exchange.detail ? { detail: exchange.detail } : {}),
  };
}

/**
 * What a raw socket's peer sent passed `maxResponseMb` in all (a request reads until a stop of
 * `settings.stream`): said of the peer and its messages, where HTTP's words name a response body.
 */
export function receivedTooLarge(peer: string, maxResponseMb: number): SendError {
  return new SendError(
    `${peer} sent more than ${maxResponseMb} MB (maxResponseMb) in all, so Ferry stopped reading; stop sooner with settings.stream (maxEvents, timeoutMs, event), or raise the limit with ferry config set maxResponseMb N, or 0 for no limit.`,
    'tooLarge',
  );
}
