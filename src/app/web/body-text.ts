/**
 * How the response viewer reads an answer's bytes as text: in the charset its Content-Type
 * names (UTF-8 when none; bytes that are not UTF-8 shown as U+FFFD and said), whether it is text
 * at all, and JSON indented from the text itself, so numbers, escapes and key order are shown as
 * the server wrote them (JSON.parse would round a 64-bit id) and a body cut short still indents.
 */
import { indentMarkup, looksLikeHtml, looksLikeXml, prettyXml } from './pretty-xml.js';

/**
 * The pretty view of a body's text. `complete`: the text is the whole body; a body cut short is
 * indented as far as it goes when its Content-Type says JSON, and shown as it is otherwise (a log
 * starting with `[INFO]` is no JSON, and its start cannot be checked by parsing it). XML cut short
 * and HTML are indented tag by tag (pretty-xml.ts).
 */
export function pretty(text: string, contentType: string, complete: boolean): string {
  return indented(text, contentType, complete).text;
}

/** `pretty`, and what the text was read as: JSON or XML that parsed whole, whatever the type says. */
function indented(text: string, contentType: string, complete: boolean): { text: string; read?: 'json' | 'xml' } {
  if (looksLikeJson(text, contentType)) {
    if (!complete) return { text: /[/+]json\b/i.test(contentType) ? indentJson(text, false) : text };
    const json = checkedJson(text);
    return json === undefined ? { text } : { text: json, read: 'json' };
  }
  // XML read whole is checked and indented by the parser; cut short, or HTML, from its characters.
  if (looksLikeXml(text, contentType)) {
    if (!complete) return { text: indentMarkup(text, false) };
    const xml = prettyXml(text);
    return xml === undefined ? { text } : { text: xml, read: 'xml' };
  }
  if (looksLikeHtml(text, contentType)) return { text: indentMarkup(text, true) };
  return { text };
}

/**
 * A Pretty body is highlighted up to this many bytes (the response viewer's first 512 KB always;
 * a stream message of at most this size): past it the text is shown plain, so a 20 MB JSON answer
 * does not freeze the page with millions of tokens.
 */
export const HIGHLIGHT_BYTES = 1024 * 1024;

/**
 * What the Pretty view shows of a text and the language it is highlighted in (none: plain):
 * the response viewer's body (by its Content-Type), and a stream message, which has none (`''`):
 * its text is JSON or XML (`<?xml …?>` first) when it parses.
 */
export function prettyView(text: string, contentType: string, complete: boolean): { text: string; language?: BodyLanguage } {
  const shown = indented(text, contentType, complete);
  const language = bodyLanguage(contentType, shown.read);
  return language ? { text: shown.text, language } : { text: shown.text };
}

/** A language the response viewer highlights a Pretty body in (code-modes.ts). */
export type BodyLanguage = 'json' | 'xml' | 'html' | 'javascript' | 'css';

/**
 * The language a body's Pretty view is highlighted in, by its Content-Type (`+json` and `+xml`
 * types too); a body whose type names none (`text/plain`, or none at all) that was read whole as
 * JSON or XML (`read`) is that. Other text stays plain. Else only the type is read, not the text: a
 * log starting with `<` is no markup.
 */
export function bodyLanguage(contentType: string, read?: 'json' | 'xml'): BodyLanguage | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (/[/+]json$/.test(type)) return 'json';
  if (/^(text\/html|application\/xhtml\+xml)$/.test(type)) return 'html';
  if (/[/+]xml$/.test(type)) return 'xml';
  if (/^(text|application)\/(x-)?(javascript|ecmascript)$/.test(type)) return 'javascript';
  if (type === 'text/css') return 'css';
  return read;
}

/** The charset the Content-Type names (`charset=iso-8859-1`), lower case, or undefined. */
export function charsetOf(contentType: string): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase();
}

/** Whether the Content-Type says the body is text (`text/*`, JSON, XML, JavaScript, a form, YAML, CSV, GraphQL). */
export function declaresText(contentType: string): boolean {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  return /^text\//.test(type) || /[/+](json|xml)$/.test(type) || /^application\/(x-)?(javascript|ecmascript|x-www-form-urlencoded|ya?ml|x-ya?ml|csv|graphql(-response\+json)?|ld\+json|x-ndjson)$/.test(type);
}

export interface BodyText {
  text: string;
  /** The charset the bytes were read in. */
  charset: string;
  /** Some bytes were not valid in that charset: they show as U+FFFD. */
  lossy: boolean;
}

/** The first `limit` bytes of `data` as text (`cut`: more bytes follow, so a character cut at the end is not an error). */
export function bodyText(data: Uint8Array, contentType: string, limit = Infinity): BodyText {
  const cut = data.length > limit;
  const head = cut ? data.subarray(0, limit) : data;
  let charset = charsetOf(contentType) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    // A charset the browser does not know: read as UTF-8, and say so by its name.
    charset = 'utf-8';
    decoder = new TextDecoder('utf-8', { fatal: true });
  }
  try {
    return { text: decoder.decode(head, { stream: cut }), charset: decoder.encoding, lossy: false };
  } catch {
    return { text: new TextDecoder(decoder.encoding).decode(head, { stream: cut }), charset: decoder.encoding, lossy: true };
  }
}

/** Whether `text` looks like JSON to indent: a JSON Content-Type, or an object or array first. */
export function looksLikeJson(text: string, contentType: string): boolean {
  return /[/+]json\b/i.test(contentType) || /^\s*[[{]/.test(text);
}

/**
 * JSON text indented by two spaces, exactly as `JSON.stringify(value, null, 2)` would lay it out,
 * but from the characters themselves: numbers (a 64-bit id), escapes and duplicate keys stay as
 * sent, and a body cut short indents up to where it stops. Text that is not JSON comes back as is.
 */
export function indentJson(text: string, complete: boolean): string {
  return complete ? (checkedJson(text) ?? text) : indentChars(text); // malformed: shown as sent
}

/** The whole text indented when it is JSON; undefined when it does not parse. */
function checkedJson(text: string): string | undefined {
  try {
    JSON.parse(text);
  } catch {
    return undefined;
  }
  return indentChars(text);
}

function indentChars(text: string): string {
  const out: string[] = [];
  let depth = 0;
  let start = 0; // the start of the run of characters copied as they are
  const newline = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: copied whole, escapes included.
      let j = i + 1;
      while (j < text.length && text.charCodeAt(j) !== 0x22) j += text.charCodeAt(j) === 0x5c ? 2 : 1;
      i = j;
      continue;
    }
    const open = c === 0x7b || c === 0x5b;
    const close = c === 0x7d || c === 0x5d;
    const space = c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
    if (!open && !close && !space && c !== 0x2c && c !== 0x3a) continue;
    out.push(text.slice(start, i));
    start = i + 1;
    if (space) continue;
    if (open) {
      // `{}` and `[]` stay on one line.
      let j = i + 1;
      while (j < text.length && /\s/.test(text[j]!)) j++;
      if (text.charCodeAt(j) === c + 2) {
        out.push(text[i]! + text[j]!);
        i = j;
        start = j + 1;
        continue;
      }
      depth++;
      out.push(text[i]! + newline());
    } else if (close) {
      depth = Math.max(0, depth - 1);
      out.push(newline() + text[i]!);
    } else out.push(c === 0x2c ? `,${newline()}` : ': ');
  }
  out.push(text.slice(start));
  return out.join('');
}
