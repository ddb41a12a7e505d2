/**
 * The fast path of `renderYaml`: the text `yaml`'s `stringify` gives with renderYaml's options
 * (YAML 1.2, `lineWidth: 0`, `blockQuote: 'literal'`), built straight from plain data instead of
 * through a document of nodes. A 672-request import renders its files in a fraction of the time,
 * and a command that only writes new files need not load `yaml` at all.
 *
 * It follows `yaml` 2.x's stringify rules for what Ferry writes (mappings, sequences, strings,
 * finite numbers, booleans, null) and declines (undefined) everything else, for `yaml` to render:
 * an object met twice (`yaml` writes an anchor and an alias), control characters, keys that need
 * quotes or span lines, multi-line strings that end in spaces, a top level that is not a mapping.
 * test/workspace/yaml-render.test.ts holds the two byte for byte equal.
 */

/** Thrown to leave the walk when the data is not what this renderer writes exactly as `yaml`. */
const DECLINE = new Error('not rendered by the fast path');

/** Characters `yaml` always double-quotes (and escapes): controls but tab and line feed, DEL, C1, lone surrogates. */
const FORCES_DOUBLE_QUOTES = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u;

/** A plain scalar cannot start with an indicator, hold `: ` or ` #`, or end in a space or colon (`yaml`'s plainString). */
const NOT_PLAIN = /^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/;

/**
 * Text that the YAML 1.2 core schema reads as something other than a string (null, booleans,
 * integers, floats): such strings are quoted. The test file checks these against `yaml`'s own tags.
 */
export const CORE_SCHEMA_NON_STRING = [
  /^(?:~|[Nn]ull|NULL)?$/,
  /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
  /^0o[0-7]+$/,
  /^[-+]?[0-9]+$/,
  /^0x[0-9a-fA-F]+$/,
  /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
  /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
];

/** Line breaks before the end of a block scalar's trailing whitespace (`yaml`'s blockEndNewlines). */
const BLOCK_END_NEWLINES = /(^|(?<!\n))\n+(?!\n|$)/g;

const STEP = '  ';

/** YAML text of `data` as `yaml` would write it, or undefined when `yaml` must write it. */
export function renderPlainYaml(data: unknown): string | undefined {
  if (!isPlainMap(data)) return undefined;
  try {
    return `${mapText(data, '', new Set())}\n`;
  } catch (error) {
    if (error === DECLINE) return undefined;
    throw error;
  }
}

function isPlainMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/** `yaml` writes an object it meets a second time as an alias of the first: not done here. */
function enter(value: object, seen: Set<object>): void {
  if (seen.has(value)) throw DECLINE;
  seen.add(value);
}

/** A block mapping whose lines start at `indent` (the first line's indent is the caller's). */
function mapText(map: Record<string, unknown>, indent: string, seen: Set<object>): string {
  enter(map, seen);
  const inner = indent + STEP;
  let text = '';
  for (const key of Object.keys(map)) {
    const value = map[key];
    if (value === undefined) continue;
    if (text !== '') text += `\n${indent}`;
    text += `${keyText(key)}:`;
    if (Array.isArray(value) || isPlainMap(value)) {
      const block = collectionText(value, inner, seen);
      text += block === '[]' || block === '{}' ? ` ${block}` : `\n${inner}${block}`;
    } else {
      text += ` ${scalarText(value, inner)}`;
    }
  }
  return text === '' ? '{}' : text;
}

/** A block sequence whose items start at `indent`. */
function seqText(seq: unknown[], indent: string, seen: Set<object>): string {
  enter(seq, seen);
  if (seq.length === 0) return '[]';
  const itemIndent = indent + STEP;
  let text = '';
  for (let i = 0; i < seq.length; i++) {
    const item = seq[i];
    if (i > 0) text += `\n${indent}`;
    text += `- ${Array.isArray(item) || isPlainMap(item) ? collectionText(item, itemIndent, seen) : scalarText(item, itemIndent)}`;
  }
  return text;
}

function collectionText(value: unknown[] | Record<string, unknown>, indent: string, seen: Set<object>): string {
  return Array.isArray(value) ? seqText(value, indent, seen) : mapText(value, indent, seen);
}

function scalarText(value: unknown, indent: string): string {
  if (typeof value === 'string') return stringText(value, indent);
  if (value === null) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number' && Number.isFinite(value) && !Object.is(value, -0)) return JSON.stringify(value);
  throw DECLINE;
}

function readsAsOtherType(text: string): boolean {
  return CORE_SCHEMA_NON_STRING.some((re) => re.test(text));
}

/** A quoted string without line breaks or control characters: single quotes when it holds only double ones. */
function quoted(text: string): string {
  return text.includes('"') && !text.includes("'") ? `'${text}'` : JSON.stringify(text);
}

function keyText(key: string): string {
  // Keys over lines, with controls, or with a document marker at a line start (\u2028 starts one
  // too) take `yaml`'s special cases.
  if (key.includes('\n') || FORCES_DOUBLE_QUOTES.test(key) || /^(?:%|---|\.\.\.)/m.test(key)) throw DECLINE;
  const text = NOT_PLAIN.test(key) || readsAsOtherType(key) ? quoted(key) : key;
  if (text.length > 1024) throw DECLINE; // `yaml` makes it an explicit `? key`
  return text;
}

/** A string value whose continuation lines are indented by `indent`. */
function stringText(value: string, indent: string): string {
  if (FORCES_DOUBLE_QUOTES.test(value)) throw DECLINE;
  if (!value.includes('\n')) return NOT_PLAIN.test(value) || readsAsOtherType(value) ? quoted(value) : value;
  return literalBlock(value, indent);
}

/** A multi-line string as a literal block scalar (`yaml`'s blockString with `blockQuote: 'literal'`). */
function literalBlock(text: string, indent: string): string {
  // `yaml` quotes a block whose last line is only spaces (it could not be read back).
  if (/\n[\t ]+$/.test(text)) throw DECLINE;
  let value = text;
  // Chomping from the whitespace at the end: strip (-), clip (none) or keep (+).
  let endStart = value.length;
  while (endStart > 0) {
    const ch = value[endStart - 1];
    if (ch !== '\n' && ch !== '\t' && ch !== ' ') break;
    endStart--;
  }
  let end = value.substring(endStart);
  const endNewline = end.indexOf('\n');
  const chomp = endNewline === -1 ? '-' : value === end || endNewline !== end.length - 1 ? '+' : '';
  if (end) {
    value = value.slice(0, -end.length);
    if (end.endsWith('\n')) end = end.slice(0, -1);
    end = end.replace(BLOCK_END_NEWLINES, `$&${indent}`);
  }
  // An indentation indicator when the text starts with spaces.
  let startWithSpace = false;
  let startEnd = 0;
  let startNewline = -1;
  for (; startEnd < value.length; startEnd++) {
    const ch = value[startEnd];
    if (ch === ' ') startWithSpace = true;
    else if (ch === '\n') startNewline = startEnd;
    else break;
  }
  let start = value.substring(0, startNewline < startEnd ? startNewline + 1 : startEnd);
  if (start) {
    value = value.substring(start.length);
    start = start.replace(/\n+/g, `$&${indent}`);
  }
  const header = (startWithSpace ? '2' : '') + chomp;
  return `|${header}\n${indent}${start}${value.replace(/\n+/g, `$&${indent}`)}${end}`;
}
