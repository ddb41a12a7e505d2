/**
 * TCP framing for requests (spec 2.8 `framing`), on the shared byte framing
 * (`support/byte-framing.ts`): a request reads message contents, and sends its one message with
 * its length prefix under `lengthPrefixed` (the line ending is the payload's, `lineEnding`).
 */
import { Deframer as ByteDeframer, lengthPrefixed, type ByteFraming } from '../../support/byte-framing.js';

export { maxPrefixed } from '../../support/byte-framing.js';

/** The bytes to write for one message: with its length prefix under `lengthPrefixed`, else as is. */
export function frame(message: Buffer, options: ByteFraming): Buffer {
  return options.framing === 'lengthPrefixed' ? lengthPrefixed(message, options.lengthBytes) : message;
}

/** Cuts a byte stream into the contents of its messages. */
export class Deframer {
  private readonly bytes: ByteDeframer;

  /** `maxBytes`: a line or prefixed message past this throws instead of growing memory (live connections). */
  constructor(options: ByteFraming, maxBytes?: number) {
    this.bytes = new ByteDeframer(options, maxBytes);
  }

  /** The complete messages this chunk finishes, in order. */
  push(chunk: Buffer): Buffer[] {
    return this.bytes.push(chunk).map((message) => message.content);
  }

  /** The stream ended: a last line without its line ending is still a message; a cut-off prefixed message is reported. */
  end(): { last?: Buffer; cutOff?: number } {
    return this.bytes.end();
  }
}
