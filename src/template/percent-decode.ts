/**
 * Percent-decoding that never throws: valid `%XX` escapes become bytes, the bytes are read as UTF-8
 * (bad sequences become U+FFFD), and a malformed escape such as `%zz` or a lone `%` stays as written.
 */

/** Decodes a path segment (`+` stays `+`). */
export function decodePathPart(text: string): string {
  if (text.indexOf('%') < 0) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return decodeLeniently(text);
  }
}

/** Decodes a query name or value (`+` is a space, as in HTML forms). */
export function decodeQueryPart(text: string): string {
  const spaced = text.indexOf('+') < 0 ? text : text.replaceAll('+', ' ');
  return decodePathPart(spaced);
}

function decodeLeniently(text: string): string {
  const chunks: Buffer[] = [];
  let plainFrom = 0;
  let i = text.indexOf('%');
  while (i >= 0) {
    const high = hexValue(text.charCodeAt(i + 1));
    const low = hexValue(text.charCodeAt(i + 2));
    if (high >= 0 && low >= 0) {
      if (i > plainFrom) chunks.push(Buffer.from(text.slice(plainFrom, i), 'utf8'));
      chunks.push(Buffer.of(high * 16 + low));
      plainFrom = i + 3;
      i = text.indexOf('%', plainFrom);
    } else {
      i = text.indexOf('%', i + 1);
    }
  }
  if (plainFrom < text.length) chunks.push(Buffer.from(text.slice(plainFrom), 'utf8'));
  return Buffer.concat(chunks).toString('utf8');
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1; // also NaN past the end of the text
}
