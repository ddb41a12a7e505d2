/**
 * Payload text ⇄ bytes for the TCP and UDP servers (spec 2.11 `encoding`, `lineEnding`): `hex`
 * is byte pairs separated by spaces, `text` UTF-8 with the line ending added to replies.
 */
import type { LineEnding } from '../../../model/index.js';

export const LINE_ENDING_TEXT: Record<LineEnding, string> = { none: '', lf: '\n', crLf: '\r\n' };

/** `de ad be ef` → bytes, or the reason it is not hex. */
export function parseHex(text: string): Buffer | string {
  const pairs = text.trim() === '' ? [] : text.trim().split(/\s+/);
  for (const pair of pairs) {
    if (!/^[0-9A-Fa-f]{2}$/.test(pair)) return `"${pair.length > 20 ? `${pair.slice(0, 20)}…` : pair}" is not a byte pair (two hex digits such as 0a or FF, pairs separated by spaces)`;
  }
  return Buffer.from(pairs.join(''), 'hex');
}

export function formatHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex').replace(/(..)(?!$)/g, '$1 ');
}

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
