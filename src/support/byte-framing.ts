/**
 * Messages on a byte stream, for the TCP and UDP request kinds and the TCP, UDP and DNS servers
 * (spec 2.8, 2.11 `framing`, `lengthBytes`, `lineEnding`, `encoding`): `raw` takes each read as it
 * arrives, `line` one message per LF-ended line (a CR before the LF dropped), `lengthPrefixed` a
 * big-endian length of `lengthBytes` bytes and then that many bytes; and payload text as hex byte
 * pairs. Reads may split a message or carry several: the deframer keeps the rest.
 */

export interface ByteFraming {
  framing: 'raw' | 'line' | 'lengthPrefixed';
  lengthBytes: 1 | 2 | 4;
}

/** A message cut from the stream: its content, and the bytes it took on the wire (an echo sends those back). */
export interface Framed {
  content: Buffer;
  wire: Buffer;
}

/** What each `lineEnding` adds to a text message. */
export const LINE_ENDING_TEXT = { none: '', lf: '\n', crLf: '\r\n' } as const;

/** Largest message a prefix of this size can announce. */
export function maxPrefixed(lengthBytes: number): number {
  return 2 ** (8 * lengthBytes) - 1;
}

/** The message with its big-endian length prefix (the caller keeps it within `maxPrefixed`). */
export function lengthPrefixed(message: Buffer, lengthBytes: number): Buffer {
  const prefix = Buffer.alloc(lengthBytes);
  prefix.writeUIntBE(message.length, 0, lengthBytes);
  return Buffer.concat([prefix, message]);
}

export class Deframer {
  /**
   * Bytes read but not yet a whole message, as the reads came: joined only when a message can be
   * complete (a read with an LF, or enough bytes for the awaited prefixed message), so a long
   * message costs one copy, not one per read.
   */
  private held: Buffer[] = [];
  private heldBytes = 0;
  /** `lengthPrefixed`: bytes held that make the next message complete (its prefix, then prefix and content). */
  private awaiting: number;

  /** `maxBytes`: a line or prefixed message past this throws instead of growing memory (servers). */
  constructor(
    private readonly options: ByteFraming,
    private readonly maxBytes = Number.POSITIVE_INFINITY,
  ) {
    this.awaiting = options.lengthBytes;
  }

  /** Bytes held of a message not yet whole (0 when none is begun). */
  get heldLength(): number {
    return this.heldBytes;
  }

  /** `lengthPrefixed`: the bytes (prefix and content) the message begun needs, as far as known. */
  get awaitedLength(): number {
    return this.awaiting;
  }

  /** The complete messages this chunk finishes, in order. */
  push(chunk: Buffer): Framed[] {
    if (this.options.framing === 'raw') return chunk.length > 0 ? [{ content: chunk, wire: chunk }] : [];
    if (chunk.length === 0) return [];
    const completes = this.options.framing === 'line' ? chunk.indexOf(0x0a) >= 0 : this.heldBytes + chunk.length >= this.awaiting;
    if (!completes) {
      this.held.push(chunk);
      this.heldBytes += chunk.length;
      this.checkHeld();
      return [];
    }
    const pending = this.held.length === 0 ? chunk : Buffer.concat([...this.held, chunk], this.heldBytes + chunk.length);
    const { messages, rest } = this.options.framing === 'line' ? lines(pending) : this.prefixed(pending);
    this.held = rest.length > 0 ? [rest] : [];
    this.heldBytes = rest.length;
    this.checkHeld();
    return messages;
  }

  /**
   * A line held without its end may be at most `maxBytes`, a CR that may come before its LF not
   * counted (the message drops it). A prefixed message is bounded by its length, checked at the
   * prefix: the prefix held with it does not count, so one of exactly `maxBytes` is whole.
   */
  private checkHeld(): void {
    if (this.options.framing !== 'line') return;
    const last = this.held.at(-1);
    const cr = last !== undefined && last[last.length - 1] === 0x0d ? 1 : 0;
    if (this.heldBytes - cr > this.maxBytes) throw new Error(`a line of more than ${sizeText(this.maxBytes)} without its line ending, the most a message may be`);
  }

  /** The stream ended: a last line without its line ending is still a message; a cut-off prefixed message is reported. */
  end(): { last?: Buffer; cutOff?: number } {
    const rest = Buffer.concat(this.held, this.heldBytes);
    this.held = [];
    this.heldBytes = 0;
    this.awaiting = this.options.lengthBytes;
    if (rest.length === 0) return {};
    return this.options.framing === 'line' ? { last: rest } : { cutOff: rest.length };
  }

  private prefixed(pending: Buffer): { messages: Framed[]; rest: Buffer } {
    const messages: Framed[] = [];
    const size = this.options.lengthBytes;
    let from = 0;
    this.awaiting = size;
    while (pending.length - from >= size) {
      const length = pending.readUIntBE(from, size);
      if (length > this.maxBytes) throw new Error(`a length prefix saying ${length.toLocaleString('en-US')} bytes follow, more than the ${sizeText(this.maxBytes)} a message may be`);
      if (pending.length - from - size < length) {
        this.awaiting = size + length;
        break;
      }
      messages.push({ content: pending.subarray(from + size, from + size + length), wire: pending.subarray(from, from + size + length) });
      from += size + length;
    }
    return { messages, rest: pending.subarray(from) };
  }
}

/** `16 MB (16,777,216 bytes)`: the bound as people read it, and exactly. */
function sizeText(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toLocaleString('en-US', { maximumFractionDigits: 2 })} MB (${bytes.toLocaleString('en-US')} bytes)`;
}

/** The LF-ended lines of `pending` (a CR before the LF dropped from the content), and what follows the last. */
function lines(pending: Buffer): { messages: Framed[]; rest: Buffer } {
  const messages: Framed[] = [];
  let from = 0;
  for (let at = pending.indexOf(0x0a); at >= 0; at = pending.indexOf(0x0a, from)) {
    const end = at > from && pending[at - 1] === 0x0d ? at - 1 : at;
    messages.push({ content: pending.subarray(from, end), wire: pending.subarray(from, at + 1) });
    from = at + 1;
  }
  return { messages, rest: pending.subarray(from) };
}

/** `de ad be ef` → bytes, or the reason it is not hex. Whitespace of any kind separates; `0x` prefixes are not taken. */
export function parseHex(text: string): Buffer | string {
  const pairs = text.trim() === '' ? [] : text.trim().split(/\s+/);
  for (const pair of pairs) {
    if (!/^[0-9A-Fa-f]{2}$/.test(pair)) return `"${pair.length > 20 ? `${pair.slice(0, 20)}…` : pair}" is not a byte pair (two hex digits, such as 0a or FF; pairs are separated by spaces)`;
  }
  return Buffer.from(pairs.join(''), 'hex');
}

export function formatHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').replace(/(..)(?!$)/g, '$1 ');
}
