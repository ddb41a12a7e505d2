/**
 * A response body as it arrives, kept for `exchange` (http-exchange.ts). With a Content-Length,
 * the chunks are copied into one buffer of that size as they come, so a body is held once (a
 * list of chunks joined at the end held it twice at its peak: 200 MB took ~410 MB). Without one
 * (chunked, or a length that turns out wrong) the chunks are listed and joined once at the end.
 */
import { constants } from 'node:buffer';

export class BodyBuffer {
  private whole: Buffer | undefined;
  private filled = 0;
  private chunks: Buffer[] = [];

  /** `declared`: the answer's Content-Length, when it has a body and one was sent (NaN or absent: none). */
  constructor(declared = NaN) {
    if (!Number.isSafeInteger(declared) || declared <= 0 || declared > constants.MAX_LENGTH) return;
    try {
      // Not zeroed: every byte handed out is one written by `push`.
      this.whole = Buffer.allocUnsafeSlow(declared);
    } catch {
      // A length the system cannot reserve: the chunks are listed instead, as without one.
    }
  }

  push(chunk: Buffer): void {
    if (this.whole && this.filled + chunk.length <= this.whole.length) {
      chunk.copy(this.whole, this.filled);
      this.filled += chunk.length;
      return;
    }
    // More than the length said: what was copied so far becomes the first chunk of a list.
    if (this.whole) this.chunks.push(this.whole.subarray(0, this.filled));
    this.whole = undefined;
    this.chunks.push(chunk);
  }

  /** The body read; the buffer is empty after. */
  take(): Buffer {
    const { whole, filled, chunks } = this;
    this.clear();
    // Joined even when one: a chunk is a view of undici's read buffer, which may hold more.
    if (!whole) return Buffer.concat(chunks);
    // Less than the length said: a copy of what came, so the rest of the reserved size is freed.
    return filled === whole.length ? whole : Buffer.from(whole.subarray(0, filled));
  }

  /** Lets go of what was read (the body past the limit, a stopped exchange). */
  clear(): void {
    this.whole = undefined;
    this.filled = 0;
    this.chunks = [];
  }
}
