/**
 * The URL as the snippet writes it. Ferry's URLs may hold characters that RFC 3986 does
 * not allow (spaces, quotes, backslashes, non-ASCII, control bytes). Some libraries send
 * them raw, some escape them, some refuse them (Java's URI, Go's parser). Writing them
 * percent-encoded makes every library send the same bytes, which mean the same URL.
 * `{{name}}` placeholders stay readable when substitution is off.
 */

const ALLOWED = /[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]/;

function encodeOutside(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out += '%' + text.slice(i + 1, i + 3).toUpperCase();
      i += 2;
    } else if (ALLOWED.test(ch)) {
      out += ch;
    } else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of Buffer.from(String.fromCodePoint(cp), 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
    }
  }
  return out;
}

/** Percent-encodes what RFC 3986 does not allow, keeps `{{...}}` placeholders, drops the fragment. */
export function urlForCode(url: string): string {
  const hash = url.indexOf('#');
  const withoutFragment = hash >= 0 ? url.slice(0, hash) : url;
  let out = '';
  let last = 0;
  for (const m of withoutFragment.matchAll(/\{\{[^{}\r\n]*\}\}/g)) {
    out += encodeOutside(withoutFragment.slice(last, m.index)) + m[0];
    last = m.index! + m[0].length;
  }
  return out + encodeOutside(withoutFragment.slice(last));
}

/** Splits an encoded absolute URL into origin and the rest (path + query), for libraries that want both. */
export function splitUrl(url: string): { origin: string; pathAndQuery: string; host: string; scheme: string } {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?]*)(.*)$/.exec(url);
  if (!m) return { origin: url, pathAndQuery: '/', host: '', scheme: '' };
  const rest = m[3] === '' ? '/' : m[3]!.startsWith('?') ? '/' + m[3] : m[3]!;
  return { origin: `${m[1]}://${m[2]}`, pathAndQuery: rest, host: m[2]!, scheme: m[1]!.toLowerCase() };
}
