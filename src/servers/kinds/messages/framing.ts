/**
 * TCP framing for the server (spec 2.11 `framing`): `raw` takes each read as a message, `line` one
 * message per LF-ended line, `lengthPrefixed` a big-endian length of `lengthBytes` then that many
 * bytes. Reads may split a message or carry several; the rest is kept, up to a bound.
 */
import type { Framing } from '../../../model/index.js';

export interface FramingOptions {
  framing: Framing;
  lengthBytes: 1 | 2 | 4;
}

/** A message cut from the stream: its content, and the bytes it took on the wire (for echo). */
export interface Framed {
  content: Buffer;
  wire: Buffer;
}

/** A line or prefixed message longer than this closes the connection instead of growing memory. */
export const MAX_FRAMED_BYTES = 16 * 1024 * 1024;

export class Deframer {
  #pending: Buffer = Buffer.alloc(0);

  constructor(private readonly options: FramingOptions) {}

  /** The complete messages this chunk finishes; throws when one grows past MAX_FRAMED_BYTES. */
  push(chunk: Buffer): Framed[] {
    if (this.options.framing === 'raw') return chunk.length > 0 ? [{ content: chunk, wire: chunk }] : [];
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const out = this.options.framing === 'line' ? this.#lines() : this.#prefixed();
    if (this.#pending.length > MAX_FRAMED_BYTES) throw new Error(`a message over ${MAX_FRAMED_BYTES} bytes`);
    return out;
  }

  #lines(): Framed[] {
    const out: Framed[] = [];
    let from = 0;
    for (let at = this.#pending.indexOf(0x0a); at >= 0; at = this.#pending.indexOf(0x0a, from)) {
      const end = at > from && this.#pending[at - 1] === 0x0d ? at - 1 : at;
      out.push({ content: this.#pending.subarray(from, end), wire: this.#pending.subarray(from, at + 1) });
      from = at + 1;
    }
    this.#pending = this.#pending.subarray(from);
    return out;
  }

  #prefixed(): Framed[] {
    const out: Framed[] = [];
    const size = this.options.lengthBytes;
    let from = 0;
    while (this.#pending.length - from >= size) {
      const length = this.#pending.readUIntBE(from, size);
      if (length > MAX_FRAMED_BYTES) throw new Error(`a length prefix of ${length} bytes`);
      if (this.#pending.length - from - size < length) break;
      out.push({ content: this.#pending.subarray(from + size, from + size + length), wire: this.#pending.subarray(from, from + size + length) });
      from += size + length;
    }
    this.#pending = this.#pending.subarray(from);
    return out;
  }
}

/** The bytes to write for one reply: prefixed under `lengthPrefixed`; under `line` ended by LF if it is not already. */
export function frame(message: Buffer, options: FramingOptions): Buffer {
  if (options.framing === 'line') return message.length > 0 && message[message.length - 1] === 0x0a ? message : Buffer.concat([message, Buffer.from('\n')]);
  if (options.framing !== 'lengthPrefixed') return message;
  const max = 2 ** (8 * options.lengthBytes) - 1;
  const body = message.length > max ? message.subarray(0, max) : message;
  const prefix = Buffer.alloc(options.lengthBytes);
  prefix.writeUIntBE(body.length, 0, options.lengthBytes);
  return Buffer.concat([prefix, body]);
}
