/**
 * TCP framing (spec 2.8 `framing`): how a byte stream is cut into messages and how a message is
 * wrapped to be sent. `raw`: each read as it arrives; `line`: one message per line (LF, a CR
 * before it dropped); `lengthPrefixed`: a big-endian length of `lengthBytes` bytes, then that
 * many bytes. Reads may split a message or carry several: the deframer keeps the rest.
 */
import type { SocketOptions } from './options.js';

type Framing = Pick<SocketOptions, 'framing' | 'lengthBytes'>;

/** Largest message a prefix of this size can announce. */
export function maxPrefixed(lengthBytes: number): number {
  return 2 ** (8 * lengthBytes) - 1;
}

/** The bytes to write for one message: with its length prefix under `lengthPrefixed`, else as is. */
export function frame(message: Buffer, options: Framing): Buffer {
  if (options.framing !== 'lengthPrefixed') return message;
  const prefix = Buffer.alloc(options.lengthBytes);
  prefix.writeUIntBE(message.length, 0, options.lengthBytes);
  return Buffer.concat([prefix, message]);
}

export class Deframer {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly options: Framing) {}

  /** The complete messages this chunk finishes, in order. */
  push(chunk: Buffer): Buffer[] {
    if (this.options.framing === 'raw') return chunk.length > 0 ? [chunk] : [];
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    return this.options.framing === 'line' ? this.lines() : this.prefixed();
  }

  /** The stream ended: a last line without its line ending is still a message; a cut-off prefixed message is reported. */
  end(): { last?: Buffer; cutOff?: number } {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    if (rest.length === 0) return {};
    return this.options.framing === 'line' ? { last: rest } : { cutOff: rest.length };
  }

  private lines(): Buffer[] {
    const out: Buffer[] = [];
    let from = 0;
    for (let at = this.pending.indexOf(0x0a); at >= 0; at = this.pending.indexOf(0x0a, from)) {
      const end = at > from && this.pending[at - 1] === 0x0d ? at - 1 : at;
      out.push(this.pending.subarray(from, end));
      from = at + 1;
    }
    this.pending = this.pending.subarray(from);
    return out;
  }

  private prefixed(): Buffer[] {
    const out: Buffer[] = [];
    const size = this.options.lengthBytes;
    let from = 0;
    while (this.pending.length - from >= size) {
      const length = this.pending.readUIntBE(from, size);
      if (this.pending.length - from - size < length) break;
      out.push(this.pending.subarray(from + size, from + size + length));
      from += size + length;
    }
    this.pending = this.pending.subarray(from);
    return out;
  }
}
