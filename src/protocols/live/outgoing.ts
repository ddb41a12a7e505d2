/**
 * The composer's message as bytes, checked before anything is sent: JSON must parse, hex must be
 * byte pairs, base64 must be base64. One rule for every kind that sends bytes.
 */
import { BASE64_RULE, compactBase64 } from '../../support/base64-text.js';
import { parseHex } from '../../support/byte-framing.js';
import { SendError } from '../send-error.js';
import { MESSAGE_FORMATS, type OutgoingMessage } from './types.js';

export interface OutgoingBytes {
  bytes: Buffer;
  /** True for text and JSON (a WebSocket text frame); false for hex and base64 (binary). */
  isText: boolean;
}

/** Checks the message's shape (it comes from a page as JSON): format, text and the optional fields' types. */
export function checkOutgoing(value: unknown): OutgoingMessage {
  const message = value as Partial<OutgoingMessage> | null;
  if (!message || typeof message !== 'object') throw new SendError('the message must be an object with "format" and "text".', 'invalid');
  if (!MESSAGE_FORMATS.includes(message.format as never)) {
    throw new SendError(`the message's format "${String(message.format)}" is not one of ${MESSAGE_FORMATS.join(', ')}.`, 'invalid');
  }
  if (typeof message.text !== 'string') throw new SendError('the message\'s "text" must be a string.', 'invalid');
  for (const name of ['event', 'topic'] as const) {
    if (message[name] !== undefined && typeof message[name] !== 'string') throw new SendError(`the message's "${name}" must be a string.`, 'invalid');
  }
  for (const name of ['ack', 'retain'] as const) {
    if (message[name] !== undefined && typeof message[name] !== 'boolean') throw new SendError(`the message's "${name}" must be true or false.`, 'invalid');
  }
  if (message.qos !== undefined && ![0, 1, 2].includes(message.qos)) throw new SendError(`the message's QoS must be 0, 1 or 2, not ${JSON.stringify(message.qos)}.`, 'invalid');
  return message as OutgoingMessage;
}

export function outgoingBytes(message: OutgoingMessage): OutgoingBytes {
  switch (message.format) {
    case 'text':
      return { bytes: Buffer.from(message.text, 'utf8'), isText: true };
    case 'json':
      jsonValue(message.text);
      return { bytes: Buffer.from(message.text, 'utf8'), isText: true };
    case 'hex':
      return { bytes: hexBytes(message.text), isText: false };
    case 'base64':
      return { bytes: base64Bytes(message.text), isText: false };
  }
}

/** The JSON value of a message in `json` format, or a one-line refusal with the parser's reason. */
export function jsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SendError(`the message is not valid JSON (${(error as Error).message}); fix it, or send it as text.`, 'invalid');
  }
}

/** Hex byte pairs, separated by spaces (`48 65 6c`) or written together (`48656c`). */
function hexBytes(text: string): Buffer {
  const trimmed = text.trim();
  const spaced = /^[0-9A-Fa-f]+$/.test(trimmed) && trimmed.length % 2 === 0 ? trimmed.replace(/(..)(?!$)/g, '$1 ') : trimmed;
  const bytes = parseHex(spaced);
  if (typeof bytes === 'string') throw new SendError(`the message is not valid hex: ${bytes}.`, 'invalid');
  return bytes;
}

function base64Bytes(text: string): Buffer {
  const compact = compactBase64(text);
  if (compact === undefined) throw new SendError(`the message is not valid base64 (${BASE64_RULE}); fix it, or send it as hex.`, 'invalid');
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}
