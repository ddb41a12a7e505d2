/**
 * A text field written as a plain number that YAML 1.2 (spec 2.1.1) reads as another text than
 * the one typed: `value: 007` is the number 7, `version: 1.10` is 1.1, `id: 12345678901234567890`
 * loses its last digits. Ferry reads the file as YAML does; this says so, and how to keep the
 * text as typed (quotes), instead of sending 7 without a word. Only text fields are named: a
 * `timeoutMs: 1e3` is a number and means 1000.
 */
import { formatFieldPath, parseResource, type ResourceKind } from '../model/index.js';
import { parseYaml, positionOf, type ParsedYaml } from './yaml-file.js';
import type { Warning } from './types.js';

/**
 * A whole plain value (after `key: `, `- `, or in a flow list or map; an anchor `&a ` may come
 * first) in YAML 1.2's number forms. Cheap: only a value written otherwise than JavaScript prints
 * it leads to parsing the document.
 */
const NUMBER_VALUE = /(?:(?:^|[:-])[ \t]+|[[{,][ \t]*)(?:&[^\s,[\]{}]+[ \t]+)?([-+]?(?:0x[\da-f]+|0o[0-7]+|\.inf|\.nan|(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?))(?=[ \t]*(?:\r?$|[,\]}]|#))/gim;

/** What the values written otherwise than JavaScript prints them read as (`007` → `7`). */
function reshapedNumbers(text: string): Set<string> {
  const reads = new Set<string>();
  NUMBER_VALUE.lastIndex = 0;
  for (let match = NUMBER_VALUE.exec(text); match; match = NUMBER_VALUE.exec(text)) {
    const written = match[1]!;
    if (/^[-+]?(?:0[xo]|\.)/i.test(written) || String(Number(written)) !== written) reads.add(String(yamlNumber(written)));
  }
  return reads;
}

/** The number YAML 1.2's core schema reads from a plain value in one of its number forms. */
function yamlNumber(written: string): number {
  const sign = written.startsWith('-') ? -1 : 1;
  const unsigned = written.replace(/^[-+]/, '').toLowerCase();
  if (unsigned === '.inf') return sign * Infinity;
  if (unsigned === '.nan') return NaN;
  if (unsigned.startsWith('0x')) return sign * parseInt(unsigned.slice(2), 16);
  if (unsigned.startsWith('0o')) return sign * parseInt(unsigned.slice(2), 8);
  return sign * Number(unsigned);
}

/**
 * Whether the data holds one of those numbers. The text scan alone also finds them inside block
 * scalars (a JSON body's `"price": 1.50,`), which are text: checked against the data already read,
 * such a file is not parsed a second time (nor the document parser loaded for it).
 */
function holdsNumberIn(data: unknown, reads: Set<string>): boolean {
  if (typeof data === 'number') return reads.has(String(data));
  if (!data || typeof data !== 'object') return false;
  for (const item of Object.values(data)) if (holdsNumberIn(item, reads)) return true;
  return false;
}

/** `data`: the file's data as already read (the fast reader's). */
export function numberAsTextWarning(kind: ResourceKind, text: string, data: unknown, relative: string): Warning | undefined {
  const reads = reshapedNumbers(text);
  if (reads.size === 0 || !holdsNumberIn(data, reads)) return undefined;
  const parsed = parseYaml(text);
  if (!parsed.ok) return undefined;
  const found: { path: (string | number)[]; source: string; read: string }[] = [];
  walk(parsed.parsed.doc.contents, [], found);
  if (found.length === 0) return undefined;
  const value = parseResource(kind, parsed.parsed.data);
  if (!value.ok) return undefined;
  for (const { path, source, read } of found) {
    if (valueAt(value.value, path) !== read) continue; // a number field, or one the model reads otherwise
    const position = positionOf(parsed.parsed, path);
    return {
      file: relative,
      ...position,
      message: `${formatFieldPath(path)}: ${source} is a number in YAML and is read as the text ${read}; write it in quotes ("${source}") to keep it as typed. The file is read as it is.`,
    };
  }
  return undefined;
}

interface Node {
  items?: unknown[];
  key?: unknown;
  value?: unknown;
  source?: string;
  type?: string;
}

/** Every plain scalar read as a number whose text is not what was typed, with its path. */
function walk(node: unknown, path: (string | number)[], found: { path: (string | number)[]; source: string; read: string }[]): void {
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (Array.isArray(n.items)) {
    n.items.forEach((item, i) => {
      const pair = item as Node;
      if (pair && typeof pair === 'object' && 'key' in pair) {
        const key = (pair.key as Node | null)?.value ?? pair.key;
        if (typeof key === 'string' || typeof key === 'number') walk(pair.value, [...path, key], found);
      } else walk(item, [...path, i], found);
    });
    return;
  }
  if (typeof n.value === 'number' && n.type === 'PLAIN' && typeof n.source === 'string' && String(n.value) !== n.source) {
    found.push({ path, source: n.source, read: String(n.value) });
  }
}

function valueAt(value: unknown, path: (string | number)[]): unknown {
  let at: unknown = value;
  for (const part of path) {
    if (!at || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[part];
  }
  return at;
}

/**
 * For a text field refused because YAML read a number no text can stand for (`.inf`, `.nan`,
 * `1e400`): how to keep what was typed, as the warning above says for `007`. Empty otherwise.
 */
export function quoteHint(parsed: ParsedYaml, path: (string | number)[], message: string): string {
  if (!message.startsWith('expected text, got ')) return '';
  const node = parsed.doc.getIn(path, true) as Node | undefined;
  if (!node || typeof node.value !== 'number' || node.type !== 'PLAIN' || typeof node.source !== 'string') return '';
  return `; write it in quotes ("${node.source}") to keep it as typed`;
}
