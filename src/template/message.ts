/** `{{message}}` (spec 8.2): the message answered, as text, trailing CR and LF removed. */

/** Text of a received message: non-UTF-8 bytes become U+FFFD, trailing CR and LF are removed. */
export function messageText(message: string | Uint8Array): string {
  const text = typeof message === 'string' ? message : bytesToText(message);
  let end = text.length;
  while (end > 0) {
    const c = text.charCodeAt(end - 1);
    if (c !== 0x0a && c !== 0x0d) break;
    end--;
  }
  return end === text.length ? text : text.slice(0, end);
}

/** UTF-8 text of some bytes, bad sequences replaced, a leading byte order mark kept as sent. */
export function bytesToText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
