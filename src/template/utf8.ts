/** UTF-8 size of a text, as it will go on the wire (a lone surrogate counts as the 3-byte U+FFFD). */
export function utf8Bytes(text: string): number {
  return text.length === 0 ? 0 : Buffer.byteLength(text, 'utf8');
}
