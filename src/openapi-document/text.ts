/**
 * Document text to data, for the importer and the contract check alike: JSON when it looks like
 * JSON, else YAML 1.2, with the YAML-alias limit and repeated keys allowed (real documents have
 * them). Parser errors are thrown as they come; each caller words its own refusal.
 */
import { yamlLibrary as yaml } from '../support/yaml-library.js';
import { loadPlainYaml } from '../support/plain-yaml.js';
import { MAX_YAML_ALIASES } from './limits.js';

export interface DocumentData {
  data: unknown;
  /** Kept as `.json` when the text is JSON, else `.yaml` (spec 2.1.2). */
  format: 'json' | 'yaml';
  /**
   * How deeply the document's nodes nest, when the parser counted it (plain YAML read by js-yaml):
   * at least as deep as its lists and objects nest. Undefined when not counted.
   */
  depth?: number;
}

export interface ReadOptions {
  /** YAML errors carry their line and column (`linePos`) and a source excerpt in their message. */
  prettyErrors?: boolean;
}

/** A syntax error from `yaml` (with `prettyErrors`, its line and column), known without loading `yaml` to compare classes. */
export interface YamlSyntaxError extends Error {
  linePos?: [{ line: number; col: number }, ...{ line: number; col: number }[]];
}

export function isYamlSyntaxError(error: unknown): error is YamlSyntaxError {
  return error instanceof Error && error.name === 'YAMLParseError';
}

export function parseDocumentText(text: string, options: ReadOptions = {}): DocumentData {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) {
    try {
      return { data: JSON.parse(body), format: 'json' };
    } catch {
      // Flow-style YAML also starts with `{`: let the YAML parser try, and report its error.
    }
  }
  // Plain YAML through js-yaml (ten times faster on large documents, same data); the rest, and
  // every syntax error with its position, through `yaml`.
  const plain = loadPlainYaml(body, { uniqueKeys: false });
  if (plain) return { data: plain.data, format: 'yaml', depth: plain.depth };
  const data = yaml().parse(body, { version: '1.2', maxAliasCount: MAX_YAML_ALIASES, uniqueKeys: false, prettyErrors: options.prettyErrors ?? false });
  return { data, format: 'yaml' };
}
