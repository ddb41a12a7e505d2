/**
 * TCP framing for the servers (spec 2.11 `framing`), on the shared byte framing
 * (`support/byte-framing.ts`): a server bounds what one message may hold, and a `line` reply is
 * ended by LF when it is not already.
 */
import { Deframer, lengthPrefixed, maxPrefixed, type ByteFraming } from '../../../support/byte-framing.js';

export type FramingOptions = ByteFraming;
export type { Framed } from '../../../support/byte-framing.js';

/** A line or prefixed message longer than this closes the connection instead of growing memory. */
export const MAX_FRAMED_BYTES = 16 * 1024 * 1024;

/** The deframer of one client connection: messages past MAX_FRAMED_BYTES throw. */
export function serverDeframer(options: FramingOptions): Deframer {
  return new Deframer(options, MAX_FRAMED_BYTES);
}

/** The bytes to write for one reply: prefixed under `lengthPrefixed` (cut to what the prefix can say); under `line` ended by LF if it is not already. */
export function frame(message: Buffer, options: FramingOptions): Buffer {
  if (options.framing === 'line') return message.length > 0 && message[message.length - 1] === 0x0a ? message : Buffer.concat([message, Buffer.from('\n')]);
  if (options.framing !== 'lengthPrefixed') return message;
  const max = maxPrefixed(options.lengthBytes);
  return lengthPrefixed(message.length > max ? message.subarray(0, max) : message, options.lengthBytes);
}
