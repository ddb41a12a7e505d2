/**
 * The app's token colours, one table for every highlighted text: the CodeMirror editors and code
 * views (editor-look.ts) and the stream messages drawn without an editor (code-spans.ts).
 */
import { HighlightStyle } from '@codemirror/language';
import { tags as t } from '@lezer/highlight';

/**
 * Token colours from the page's theme variables (--code-*, styles.css: 4.5:1 on the editor's
 * background and its active line in both themes). CodeMirror's default style, which this
 * replaces, is for light pages: on the dark theme keywords and strings fell to 1.3:1–2.3:1.
 */
export const codeColours = HighlightStyle.define([
  // XML and HTML (the body editor, PHP's markup): element names as keywords, attributes as names.
  { tag: [t.keyword, t.tagName], color: 'var(--code-keyword)' },
  { tag: [t.string, t.special(t.string), t.regexp, t.escape, t.character, t.deleted], color: 'var(--code-string)' },
  { tag: [t.number, t.bool, t.null, t.atom, t.url, t.literal, t.inserted, t.labelName, t.contentSeparator], color: 'var(--code-number)' },
  // Property names too: JSON's keys (apart from its string values, as Postman and VS Code show them), CSS properties.
  { tag: [t.definition(t.variableName), t.function(t.variableName), t.propertyName, t.local(t.variableName), t.special(t.variableName), t.macroName, t.attributeName], color: 'var(--code-name)' },
  { tag: [t.typeName, t.className, t.namespace], color: 'var(--code-type)' },
  { tag: [t.comment, t.meta], color: 'var(--code-comment)' },
  { tag: t.invalid, color: 'var(--bad)' },
  { tag: t.link, textDecoration: 'underline' },
  { tag: t.heading, fontWeight: 'bold' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
]);
