/**
 * One top-level section of a YAML file as text of its own (the server editor's `http:`,
 * `websocket:`… block): read out of the file with its comments and layout, and written back in
 * its place as the user typed it, so a comment typed in the editor reaches the file. Works on
 * block sections only (`http:` on a line of its own, its fields indented below); anything else
 * (a flow map, a file that does not parse) is left to the caller's usual path.
 */
import type { Node, Pair, Scalar } from 'yaml';
import { yamlLibrary as yaml } from '../support/yaml-library.js';

/** Where the block under `key:` stands in `source`: from the key line's end to the value's end, and the value's indentation. */
interface SectionPlace {
  start: number;
  end: number;
  indent: number;
}

function sectionPlace(source: string, key: string): SectionPlace | undefined {
  const doc = yaml().parseDocument(source, { version: '1.2', keepSourceTokens: true });
  if (doc.errors.length > 0 || !yaml().isMap(doc.contents) || doc.contents.flow) return undefined;
  const pair = (doc.contents.items as Pair<Node, Node | null>[]).find((p) => yaml().isScalar(p.key) && String((p.key as Scalar).value) === key);
  const value = pair?.value;
  if (!pair?.key?.range || !value?.range || !yaml().isMap(value) || value.flow) return undefined;
  // The block starts on the line after `key:` (a comment may follow the colon on that line).
  const start = source.indexOf('\n', pair.key.range[1]);
  if (start < 0 || start >= value.range[0]) return undefined;
  const lineStart = source.lastIndexOf('\n', value.range[0] - 1) + 1;
  const indent = value.range[0] - lineStart;
  if (indent === 0 || source.slice(lineStart, value.range[0]).trim() !== '') return undefined;
  // The block ends with its last value; the line break after it (a block scalar's included) stays.
  let end = value.range[1];
  while (end > value.range[0] && (source[end - 1] === '\n' || source[end - 1] === '\r')) end--;
  return { start: start + 1, end, indent };
}

/** The text of the block under top-level `key:`, unindented, comments included; undefined when it is not a block map. */
export function sectionSource(source: string, key: string): string | undefined {
  const place = sectionPlace(source, key);
  if (place === undefined) return undefined;
  const lines = source.slice(place.start, place.end).replace(/\r\n/g, '\n').split('\n');
  // Comment lines may stand less indented than the fields: cut each line by the spaces it has, at
  // most the block's indentation (a tab after them is content: a block scalar's line may be one).
  return `${lines.map((line) => line.slice(Math.min(place.indent, line.length - line.replace(/^ +/, '').length))).join('\n')}\n`;
}

/**
 * `source` with the block under top-level `key:` replaced by `text` (as `sectionSource` gives it),
 * indented as the block was; undefined when the block is not in `source` as a block map or `text`
 * could not stand there as it is (document markers, directives). The caller checks that the result
 * reads as intended.
 */
export function withSectionSource(source: string, key: string, text: string): string | undefined {
  const place = sectionPlace(source, key);
  if (place === undefined) return undefined;
  const body = text.replace(/\r\n/g, '\n').replace(/\n+$/, '');
  if (body.trim() === '' || /^(?:---|\.\.\.|%)/m.test(body)) return undefined;
  const crlf = /\r\n/.test(source);
  const pad = ' '.repeat(place.indent);
  const block = body
    .split('\n')
    .map((line) => (line === '' ? '' : pad + line))
    .join(crlf ? '\r\n' : '\n');
  return source.slice(0, place.start) + block + source.slice(place.end);
}
