/**
 * Payload text for the servers' traffic log (spec 2.11 `encoding`): bounded previews, as text
 * or hex. Hex and line endings themselves are the shared byte framing's (`support/byte-framing.ts`).
 */
import { formatHex } from '../../../support/byte-framing.js';

export { formatHex, LINE_ENDING_TEXT, parseHex } from '../../../support/byte-framing.js';

/** A bounded preview of a text message (a WebSocket text frame): in quotes, cut at `max` characters. */
export function previewText(text: string, max = 80): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** A bounded preview of bytes for the traffic log: text when it is UTF-8, else hex. */
export function preview(bytes: Uint8Array, hex: boolean, max = 80): string {
  const cut = bytes.byteLength > max ? bytes.subarray(0, max) : bytes;
  const more = bytes.byteLength > max ? '…' : '';
  if (hex || !Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength).toString('utf8').match(/^[^\u0000-\u0008\u000e-\u001f\ufffd]*$/)) return formatHex(cut) + more;
  return JSON.stringify(Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength).toString('utf8') + more);
}
