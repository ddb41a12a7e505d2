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
