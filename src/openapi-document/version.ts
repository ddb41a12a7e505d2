/** Which of Swagger 2.0, OpenAPI 3.0 or 3.1 a parsed document is (spec 4.4, 9.3). */
import { isObject } from './json.js';

/** Schema rules differ between versions (spec 9.3): 3.0 and Swagger 2.0 alike, 3.1 apart. */
export type SpecVersion = 'swagger2' | 'oas30' | 'oas31';

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
  // 3.2 documents use the 3.1 schema dialect (JSON Schema 2020-12).
  if (/^3\.[1-9]\d*(\.\d+)?(-.*)?$/.test(text)) return { version: 'oas31', text };
  return undefined;
}

/**
 * The dialect the contract check reads a document in, or undefined when it is not an OpenAPI 3.x
 * or Swagger 2.0 document. Kept apart from `specVersionOf` only because the two disagree at the
 * edges (`openapi: "3"`, `"3.0.x"`, `"3.0-rc1"`, `swagger: "2"`, `paths: null`): making them one
 * rule changes which odd documents get checked, so it waits for its own decision.
 */
export function detectDialect(root: unknown): SpecVersion | undefined {
  if (!isObject(root)) return undefined;
  if (root.paths !== undefined && !isObject(root.paths)) return undefined;
  // YAML reads an unquoted `2.0` / `3.0` as a number, so compare the text of numbers too.
  if (root.swagger !== undefined) return String(root.swagger) === '2.0' || root.swagger === 2 ? 'swagger2' : undefined;
  const version = typeof root.openapi === 'string' ? root.openapi : typeof root.openapi === 'number' ? String(root.openapi) : '';
  if (/^3(\.0(\..*)?)?$/.test(version)) return 'oas30';
  if (/^3\.[1-9]\d*(\..*)?$/.test(version)) return 'oas31';
  return undefined;
}
