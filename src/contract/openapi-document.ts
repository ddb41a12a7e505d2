/**
 * A parsed OpenAPI 3.0/3.1 or Swagger 2.0 document: which dialect it speaks, how to follow its
 * local `$ref`s, and where an operation's responses are.
 */
import { walkJsonPointer } from '../support/json-pointer.js';

/** Schema rules differ between versions (spec 9.3): 3.0 and Swagger 2.0 alike, 3.1 apart. */
export type Dialect = 'swagger2' | 'oas30' | 'oas31';

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Longest chain of `$ref`s to `$ref`s followed before giving up (a cycle, or a hostile document). */
const MAX_REF_HOPS = 64;

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The dialect a document speaks, or undefined when it is not an OpenAPI 3.x or Swagger 2.0 document. */
export function detectDialect(root: unknown): Dialect | undefined {
  if (!isObject(root)) return undefined;
  if (root.paths !== undefined && !isObject(root.paths)) return undefined;
  // YAML reads an unquoted `2.0` / `3.0` as a number, so compare the text of numbers too.
  if (root.swagger !== undefined) return String(root.swagger) === '2.0' || root.swagger === 2 ? 'swagger2' : undefined;
  const version = typeof root.openapi === 'string' ? root.openapi : typeof root.openapi === 'number' ? String(root.openapi) : '';
  if (/^3(\.0(\..*)?)?$/.test(version)) return 'oas30';
  // 3.2 documents use the 3.1 schema dialect (JSON Schema 2020-12).
  if (/^3\.[1-9]\d*(\..*)?$/.test(version)) return 'oas31';
  return undefined;
}

export interface FoundOperation {
  method: string;
  path: string;
  operation: JsonObject;
  responses: JsonObject;
}

export class OpenApiDocument {
  private readonly pointerCache = new Map<string, unknown>();

  constructor(
    readonly root: JsonObject,
    readonly dialect: Dialect,
  ) {}

  /**
   * The value a local reference (`#/components/schemas/Pet`) points at, or undefined for
   * references to other files or URLs and for references that point nowhere.
   */
  resolvePointer(ref: string): unknown {
    if (this.pointerCache.has(ref)) return this.pointerCache.get(ref);
    const value = ref.startsWith('#') ? this.walkPointer(ref.slice(1)) : undefined;
    this.pointerCache.set(ref, value);
    return value;
  }

  private walkPointer(fragment: string): unknown {
    return walkJsonPointer(this.root, fragment);
  }


  /**
   * Follows `$ref` while the value is only a reference (path items, responses). Returns
   * undefined for a reference that cannot be followed.
   */
  followRefs(value: unknown): unknown {
    let current = value;
    for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
      if (!isObject(current) || typeof current.$ref !== 'string') return current;
      current = this.resolvePointer(current.$ref);
    }
    return undefined;
  }

  /**
   * The operation named `METHOD /path/{param}`. The path is looked up as written; failing that,
   * a path that differs only in the names of its parameters matches too.
   */
  findOperation(operationText: string): FoundOperation | undefined {
    const match = /^\s*([A-Za-z]+)\s+(\S.*?)\s*$/.exec(operationText);
    if (!match) return undefined;
    const method = match[1]!.toLowerCase();
    const path = match[2]!;
    if (!HTTP_METHODS.has(method) || !isObject(this.root.paths)) return undefined;
    const paths = this.root.paths;
    let pathItem = Object.hasOwn(paths, path) ? paths[path] : undefined;
    if (pathItem === undefined) {
      const shape = templateShape(path);
      const key = Object.keys(paths).find((candidate) => templateShape(candidate) === shape);
      pathItem = key === undefined ? undefined : paths[key];
    }
    const item = this.followRefs(pathItem);
    if (!isObject(item)) return undefined;
    const operation = this.followRefs(item[method]);
    if (!isObject(operation)) return undefined;
    const responses = this.followRefs(operation.responses);
    if (!isObject(responses)) return undefined;
    return { method: method.toUpperCase(), path, operation, responses };
  }
}

function templateShape(path: string): string {
  return path.replace(/\{[^}/]*\}/g, '{}');
}
