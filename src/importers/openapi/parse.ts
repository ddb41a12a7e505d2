/**
 * Turning document text into data: JSON or YAML 1.2, with the size and YAML-alias limits, and
 * which of Swagger 2.0, OpenAPI 3.0 or 3.1 it is. Refusals are `ImportError`s that say where.
 */
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { ImportError } from '../types.js';
import { MAX_DOCUMENT_BYTES, MAX_YAML_ALIASES } from './limits.js';

export type SpecVersion = 'swagger2' | 'oas30' | 'oas31';
export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export interface ParsedText {
  data: unknown;
  /** Kept as `.json` when the text is JSON, else `.yaml` (spec 2.1.2). */
  format: 'json' | 'yaml';
}

/** Parses document text. `label` names the input in messages (a file, a URL, `-`). */
export function parseSpecText(text: string, label: string): ParsedText {
  if (Buffer.byteLength(text, 'utf8') > MAX_DOCUMENT_BYTES) {
    throw new ImportError(`${label} is larger than 50 MB; Ferry does not import documents that large.`);
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (/^\s*[{[]/.test(body)) {
    try {
      return { data: JSON.parse(body), format: 'json' };
    } catch {
      // Flow-style YAML also starts with `{`: let the YAML parser try, and report its error.
    }
  }
  try {
    return { data: parseYaml(body, { version: '1.2', maxAliasCount: MAX_YAML_ALIASES, prettyErrors: true, uniqueKeys: false }), format: 'yaml' };
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const pos = error.linePos?.[0];
      const where = pos ? `${label}:${pos.line}:${pos.col}` : label;
      throw new ImportError(`${where}: the document does not parse as JSON or YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}.`);
    }
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new ImportError(
        `${label} expands YAML aliases more than ${MAX_YAML_ALIASES} times, which is how a small file becomes gigabytes (a "YAML bomb"); it was not imported.`,
      );
    }
    throw new ImportError(`${label}: the document does not parse as JSON or YAML: ${(error as Error).message}.`);
  }
}

export interface SpecVersionInfo {
  version: SpecVersion;
  /** As written in the document (`2.0`, `3.0.3`, `3.1.0`, `3.2.0`). */
  text: string;
}

/** Which version a document is, or undefined when it is not an OpenAPI or Swagger document. */
export function specVersionOf(data: unknown): SpecVersionInfo | undefined {
  if (!isObject(data)) return undefined;
  // YAML reads an unquoted `2.0` or `3.0` as a number.
  if (data.swagger !== undefined) {
    const text = typeof data.swagger === 'number' ? data.swagger.toFixed(1) : String(data.swagger);
    return /^2(\.0)?$/.test(text) ? { version: 'swagger2', text } : undefined;
  }
  if (data.openapi === undefined) return undefined;
  const text = typeof data.openapi === 'number' ? data.openapi.toFixed(1) : String(data.openapi);
  if (/^3\.0(\.\d+)?(-.*)?$/.test(text)) return { version: 'oas30', text };
  if (/^3\.[1-9]\d*(\.\d+)?(-.*)?$/.test(text)) return { version: 'oas31', text };
  return undefined;
}

/** The document's version, or an `ImportError` explaining what the data is instead. */
export function requireSpec(data: unknown, label: string): { root: JsonObject; info: SpecVersionInfo } {
  const info = specVersionOf(data);
  if (!info) {
    if (isObject(data) && (data.openapi !== undefined || data.swagger !== undefined)) {
      const given = String(data.openapi ?? data.swagger);
      throw new ImportError(`${label} says it is version ${given}; Ferry imports Swagger 2.0 and OpenAPI 3.0 and 3.1 documents.`);
    }
    throw new ImportError(
      `${label} is not an OpenAPI or Swagger document: it has no \`openapi: 3.x\` or \`swagger: "2.0"\` field at the top.`,
    );
  }
  const root = data as JsonObject;
  if (root.paths !== undefined && root.paths !== null && !isObject(root.paths)) {
    throw new ImportError(`${label}: \`paths\` must be a mapping of paths to operations.`);
  }
  return { root, info };
}
