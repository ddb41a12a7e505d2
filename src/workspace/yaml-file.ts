/**
 * Reading YAML files with positions for error messages, and writing new files whole.
 * Existing files are edited with `yaml-edit.ts` instead, so their bytes stay as they were.
 */
import type { Document, LineCounter } from 'yaml';
import { yamlLibrary as yaml } from '../support/yaml-library.js';

/** Alias expansion bound: a small file must not become gigabytes (YAML bombs). */
export const MAX_ALIAS_COUNT = 1000;

export interface YamlSyntaxError {
  message: string;
  line: number;
  column: number;
}

export interface ParsedYaml {
  doc: Document.Parsed;
  data: unknown;
  lines: LineCounter;
}

export function parseYaml(text: string): { ok: true; parsed: ParsedYaml } | { ok: false; error: YamlSyntaxError } {
  const lines = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(text, { version: '1.2', lineCounter: lines, prettyErrors: false, keepSourceTokens: true, uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = lines.linePos(first.pos[0]);
    return { ok: false, error: { message: cleanMessage(first.message), line: pos.line, column: pos.col } };
  }
  try {
    const data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    return { ok: true, parsed: { doc, data, lines } };
  } catch (error) {
    return { ok: false, error: { message: cleanMessage((error as Error).message), line: 1, column: 1 } };
  }
}

function cleanMessage(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** Line and column of the value at a field path, or of its nearest existing parent. */
export function positionOf(parsed: ParsedYaml, path: (string | number)[]): { line: number; column: number } {
  for (let depth = path.length; depth >= 0; depth--) {
    const node = parsed.doc.getIn(path.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) {
      const pos = parsed.lines.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return { line: 1, column: 1 };
}

/** Text of a file Ferry writes whole. */
export function renderYaml(data: unknown): string {
  return yaml().stringify(data, { version: '1.2', lineWidth: 0, minContentWidth: 0, blockQuote: 'literal' });
}
