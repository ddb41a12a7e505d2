/**
 * Where JSON text first goes wrong, for messages that name a line and column: Node 20's
 * `JSON.parse` gives no position for a stray token (`Unexpected token '}', "…" is not valid
 * JSON`), and in a large export that snippet finds nothing. jsonc-parser (VS Code's) names the
 * place, held to strict JSON: no comments, no trailing commas, no empty text.
 */
import { createRequire } from 'node:module';
import type * as JsoncParser from 'jsonc-parser';

/** Loaded when a text fails to parse: every import reads JSON, few read broken JSON. */
let jsonc: typeof JsoncParser | undefined;

const WORDS = ['true', 'false', 'null'];

/**
 * The offset of the first character that cannot stand where it is (`text.length` when the text
 * ends too soon), or undefined when the text is valid JSON — or nested deeper than the parser's
 * calls can follow (JSON.parse's own words are said then).
 */
export function jsonErrorOffset(text: string): number | undefined {
  jsonc ??= createRequire(import.meta.url)('jsonc-parser') as typeof JsoncParser;
  const errors: JsoncParser.ParseError[] = [];
  try {
    jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    return undefined;
  }
  const first = errors[0];
  if (first === undefined) return undefined;
  if (first.error !== jsonc.ParseErrorCode.InvalidSymbol) return first.offset;
  // jsonc-parser names a bad word (`tru`) where it begins; JSON.parse, like any JSON reader, takes
  // `true`'s letters as far as they go and names the first one that departs (`tru}`: the `}`).
  const symbol = text.slice(first.offset, first.offset + first.length);
  const word = WORDS.find((w) => w[0] === symbol[0]) ?? '';
  let same = 0;
  while (same < word.length && symbol[same] === word[same]) same++;
  return first.offset + same;
}
