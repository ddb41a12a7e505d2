/** UTF-8 size of a text, as it will go on the wire (a lone surrogate counts as the 3-byte U+FFFD). */
export function utf8Bytes(text: string): number {
  const length = text.length;
  if (length > 64) return Buffer.byteLength(text, 'utf8');
  // Short texts (request values, most variables) are counted here: cheaper than a call into Node.
  let bytes = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4; // a surrogate pair: one code point beyond the BMP
      i++;
    } else bytes += 3; // the rest of the BMP, and a lone surrogate (sent as U+FFFD)
  }
  return bytes;
}
