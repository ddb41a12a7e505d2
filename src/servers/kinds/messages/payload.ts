/**
 * Payload text for the servers' traffic log (spec 2.11 `encoding`): bounded previews, as text
 * or hex. Hex and line endings themselves are the shared byte framing's (`support/byte-framing.ts`).
 */
import { formatHex } from '../../../support/byte-framing.js';

export { formatHex, LINE_ENDING_TEXT, parseHex } from '../../../support/byte-framing.js';

/** A bounded preview of a text message (a WebSocket text frame): in quotes, cut at `max` characters. */
export function previewText(text: string, max = 80): string {
  if (text.length <= max) return JSON.stringify(text);
  // The same text as quoting the cut with its "…", but the quoting reads a one-byte string when the
  // cut is ASCII (an echo server previews every message).
  return `${JSON.stringify(text.slice(0, max)).slice(0, -1)}…"`;
}

/**
 * A name a client chose (an MCP tool or URI, a Socket.IO event) as a record shows it: as sent when
 * at most `max` characters and printable, else as `previewText` (quoted, escaped, cut), since
 * `ferry serve` prints it to the terminal.
 */
export function clientChosenName(text: string, max: number): string {
  return text.length <= max && !/[\x00-\x1f\x7f-\x9f"\u2028\u2029]/.test(text) ? text : previewText(text, max);
}

/**
 * `previewText` of UTF-8 bytes (a WebSocket text frame, valid UTF-8 by the protocol), decoding only
 * the start the preview can show: `max + 1` characters take at most 4 bytes each, and a character
 * cut at the end of that start is past what the preview shows.
 */
export function previewUtf8(bytes: Buffer, max = 80): string {
  return quotedAscii(bytes, max) ?? previewText(bytes.toString('utf8', 0, Math.min(bytes.length, (max + 1) * 4)), max);
}

/** Where `quotedAscii` quotes: each byte takes at most two, plus the quotes. */
let quoting = Buffer.allocUnsafeSlow(2 * 80 + 8);

/**
 * `previewText` of bytes whose shown start is printable ASCII (most JSON and text messages), quoted
 * straight from the bytes into one string: decoding and then quoting made three strings per message
 * and cost the echo server more than the rest of its record. Undefined when a shown byte is a control
 * character or not ASCII: then the text is decoded and quoted as JSON quotes it.
 */
function quotedAscii(bytes: Buffer, max: number): string | undefined {
  if (quoting.length < 2 * max + 8) quoting = Buffer.allocUnsafeSlow(2 * max + 8);
  const out = quoting;
  const end = Math.min(bytes.length, max);
  let n = 0;
  out[n++] = 0x22; // "
  for (let i = 0; i < end; i++) {
    const byte = bytes[i]!;
    if (byte < 0x20 || byte >= 0x80) return undefined;
    if (byte === 0x22 || byte === 0x5c) out[n++] = 0x5c; // \" and \\ as JSON quotes them
    out[n++] = byte;
  }
  // One character per byte: more bytes after `max` are more characters, cut with "…".
  if (bytes.length > max) return `${out.toString('latin1', 0, n)}…"`;
  out[n++] = 0x22;
  return out.toString('latin1', 0, n);
}

/** A bounded preview of bytes for the traffic log: text when it is UTF-8, else hex. */
export function preview(bytes: Uint8Array, hex: boolean, max = 80): string {
  const cut = bytes.byteLength > max ? bytes.subarray(0, max) : bytes;
  const more = bytes.byteLength > max ? '…' : '';
  if (hex || !Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength).toString('utf8').match(/^[^\u0000-\u0008\u000e-\u001f\ufffd]*$/)) return formatHex(cut) + more;
  return JSON.stringify(Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength).toString('utf8') + more);
}
