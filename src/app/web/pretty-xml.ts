/**
 * Pretty XML for the response viewer: indented through fast-xml-parser (already a dependency),
 * keeping attributes, comments, CDATA, processing instructions and the order of children.
 * Malformed XML comes back undefined so the viewer shows the raw text.
 */
import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/** Whether a body is XML by its content type (`text/xml`, `application/xml`, any `+xml`) or its first bytes. */
export function looksLikeXml(text: string, contentType: string): boolean {
  return /[/+]xml\b/i.test(contentType) || /^\s*<\?xml[\s?]/.test(text);
}

const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  allowBooleanAttributes: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  commentPropName: '#comment',
  cdataPropName: '#cdata',
  // Entities stay as written: the view shows the bytes the server sent, only re-indented.
  processEntities: false,
  htmlEntities: false,
} as const;

/** The document indented by two spaces, or undefined when it is not well-formed XML. */
export function prettyXml(text: string): string | undefined {
  if (XMLValidator.validate(text, { allowBooleanAttributes: true }) !== true) return undefined;
  try {
    const tree = new XMLParser(OPTIONS).parse(text) as Record<string, unknown>[];
    // One root element, as XML wants (the validator lets `<a/><b/>` through).
    if (tree.filter((node) => !Object.keys(node).some((k) => k.startsWith('?') || k === '#comment' || k === '#text')).length !== 1) return undefined;
    const out = new XMLBuilder({ ...OPTIONS, format: true, indentBy: '  ', suppressEmptyNode: true }).build(tree) as string;
    return out.trim();
  } catch {
    return undefined;
  }
}

/** Whether a body is HTML by its content type or its first bytes (`<!doctype html`, `<html`). */
export function looksLikeHtml(text: string, contentType: string): boolean {
  return /^\s*text\/html\b/i.test(contentType) || /^\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+html|html)[\s>]/i.test(text);
}

/** HTML elements that never have content or a closing tag. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** HTML elements whose end tag may be left out: the elements each closes when it opens. */
const SIBLINGS = new Map([
  ['li', ['li']], ['p', ['p']], ['tr', ['tr', 'td', 'th']], ['td', ['td', 'th']], ['th', ['td', 'th']],
  ['dt', ['dt', 'dd']], ['dd', ['dt', 'dd']], ['option', ['option']],
]);
/** HTML elements whose content is shown exactly as sent (code, or text where spaces count). */
const VERBATIM = new Set(['script', 'style', 'pre', 'textarea']);

/**
 * Markup indented by two spaces from its characters, one tag, comment or text per line (an
 * element holding only text stays on one line: `<b>1</b>`): for XML cut short by the viewer's
 * limit, which no parser reads, and for HTML. Nothing is checked or changed but the whitespace
 * between tags; a tag or comment cut at the end is shown as far as it goes. With `html`: void
 * elements (`<br>`) hold nothing, `<script>`, `<style>`, `<pre>` and `<textarea>` keep their
 * content as sent, an `<li>` (`<p>`, `<td>`…) closes the one left open before it, and a closing tag
 * closes the elements left open inside it.
 */
export function indentMarkup(text: string, html: boolean): string {
  const lines: string[] = [];
  const open: string[] = [];
  // Per element name: its closing tag searched ahead (verbatim content) and right here (text only).
  const closers = new Map<string, [RegExp, RegExp]>();
  const line = (part: string) => lines.push(`${'  '.repeat(open.length)}${part}`);
  let i = 0;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    if (lt !== i) {
      const end = lt < 0 ? text.length : lt;
      const words = text.slice(i, end).trim();
      if (words !== '') line(words);
      i = end;
      continue;
    }
    const end = tagEnd(text, i);
    const tag = text.slice(i, end);
    i = end;
    const name = /^<\/?([^\s/>!?]+)/.exec(tag)?.[1];
    if (name === undefined || tag.startsWith('<!') || tag.startsWith('<?') || !tag.endsWith('>')) {
      line(tag);
      continue;
    }
    const key = html ? name.toLowerCase() : name;
    if (tag.startsWith('</')) {
      const at = open.lastIndexOf(key);
      if (at >= 0) open.length = at;
      line(tag);
      continue;
    }
    // `<li>` after an `<li>` left open closes it, as the browser does: siblings stay siblings.
    if (html && open.length > 0 && SIBLINGS.get(key)?.includes(open.at(-1)!)) open.pop();
    if (tag.endsWith('/>') || (html && VOID.has(key))) {
      line(tag);
      continue;
    }
    let pair = closers.get(name);
    if (pair === undefined) {
      const source = `</${escapeName(name)}\\s*>`;
      pair = [new RegExp(source, html ? 'gi' : 'g'), new RegExp(source, html ? 'iy' : 'y')];
      closers.set(name, pair);
    }
    const [closing, sticky] = pair;
    closing.lastIndex = i;
    if (html && VERBATIM.has(key)) {
      // Up to its closing tag, exactly as sent.
      const found = closing.exec(text);
      const stop = found === null ? text.length : found.index + found[0].length;
      line(text.slice(i - tag.length, stop));
      i = stop;
      continue;
    }
    // Only text, then its closing tag: one line.
    const next = text.indexOf('<', i);
    sticky.lastIndex = next;
    const found = next < 0 ? null : sticky.exec(text);
    if (found !== null) {
      line(`${tag}${text.slice(i, next).trim()}${found[0]}`);
      i = next + found[0].length;
      continue;
    }
    line(tag);
    open.push(key);
  }
  return lines.join('\n');
}

/** Where the tag, comment, CDATA section or declaration starting at `at` ends (after its `>`; the text's end when it is cut). */
function tagEnd(text: string, at: number): number {
  for (const [start, stop] of [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']] as const) {
    if (text.startsWith(start, at)) {
      const found = text.indexOf(stop, at + start.length);
      return found < 0 ? text.length : found + stop.length;
    }
  }
  // A `>` inside a quoted attribute value does not end the tag.
  let quote = 0;
  for (let i = at + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return i + 1;
  }
  return text.length;
}

function escapeName(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
