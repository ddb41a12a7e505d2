/**
 * Payload text ⇄ bytes for TCP and UDP (spec 2.8, 2.11 `encoding`): `text` is UTF-8 with the
 * `lineEnding` added; `hex` is byte pairs separated by spaces, both ways, so a script reads a
 * received message in the form the request writes one.
 */
import { isUtf8 } from 'node:buffer';
import type { PreparedRequest } from '../../request/prepared.js';
import { SendError } from '../send-error.js';
import { frameText, type MessageInput } from '../stream/messages.js';
import { formatHex, LINE_ENDING_TEXT, parseHex } from '../../support/byte-framing.js';
import { outgoingBytes } from '../live/outgoing.js';
import type { OutgoingMessage } from '../live/types.js';
import { wherePrefix, type SocketOptions } from './options.js';

export { formatHex, parseHex } from '../../support/byte-framing.js';

/**
 * The one message a TCP or UDP request sends, or undefined for no body (the request only reads).
 * A text body gets the `lineEnding`; in hex encoding the body's text is the bytes, as written;
 * a binary body (a file) is sent as its bytes.
 */
export function outgoingPayload(prepared: PreparedRequest, options: SocketOptions): { bytes: Buffer; message: MessageInput } | undefined {
  const body = prepared.body;
  if (body.kind === 'none') return undefined;
  if (body.kind === 'multipart') throw new SendError(`${wherePrefix(prepared)}a ${prepared.kind} request sends one message: use a text body (or hex), or a binary file, not multipart.`, 'invalid');
  const raw = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
  if (!body.isText) return { bytes: raw, message: messageOf(raw, options) };
  if (options.encoding === 'hex') {
    const bytes = parseHex(raw.toString('utf8'));
    if (typeof bytes === 'string') throw new SendError(`${wherePrefix(prepared)}body.text is not valid hex (socket.encoding is hex): ${bytes}.`, 'invalid');
    return { bytes, message: messageOf(bytes, options) };
  }
  const bytes = Buffer.concat([raw, Buffer.from(LINE_ENDING_TEXT[options.lineEnding])]);
  return { bytes, message: messageOf(bytes, options) };
}

/** A message's bytes as the message model keeps them: hex pairs in hex encoding; else UTF-8 text, or base64 marked binary. */
export function messageOf(bytes: Uint8Array, options: Pick<SocketOptions, 'encoding'>): MessageInput {
  if (options.encoding === 'hex') return { text: formatHex(bytes) };
  return frameText(bytes, !isUtf8(bytes));
}

/** A message composed on a live TCP or UDP connection: text and JSON get the `lineEnding`, hex and base64 are the bytes as written. */
export function composedPayload(message: OutgoingMessage, options: SocketOptions): { bytes: Buffer; message: MessageInput } {
  const { bytes: raw, isText } = outgoingBytes(message);
  const bytes = isText ? Buffer.concat([raw, Buffer.from(LINE_ENDING_TEXT[options.lineEnding])]) : raw;
  return { bytes, message: messageOf(bytes, options) };
}
