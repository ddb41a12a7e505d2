/**
 * A parsed OpenAPI 3.0/3.1 or Swagger 2.0 document: which dialect it speaks, how to follow its
 * local `$ref`s, and where an operation's responses are.
 */
import { isObject, type JsonObject } from './json.js';
import { RefResolver } from './refs.js';
import type { SpecVersion } from './version.js';

/** Schema rules differ between versions (spec 9.3): 3.0 and Swagger 2.0 alike, 3.1 apart. */
export type Dialect = SpecVersion;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export interface FoundOperation {
  method: string;
  path: string;
  operation: JsonObject;
  responses: JsonObject;
  /** The path item holding it (its `parameters` apply to the operation too). */
  pathItem: JsonObject;
  /** The path as the document writes it (differs from `path` when found by its shape). */
  documentPath: string;
}

export class OpenApiDocument {
  /** Local references, followed lazily and remembered (shared with the importer and the example generator). */
  readonly refs: RefResolver;

  constructor(
    readonly root: JsonObject,
    readonly dialect: Dialect,
  ) {
    this.refs = new RefResolver(root, dialect);
  }

  /**
   * The value a local reference (`#/components/schemas/Pet`) points at, or undefined for
   * references to other files or URLs and for references that point nowhere.
   */
  resolvePointer(ref: string): unknown {
    return this.refs.pointer(ref);
  }

  /**
   * Follows `$ref` while the value is only a reference (path items, responses). Returns
   * undefined for a reference that cannot be followed.
   */
  followRefs(value: unknown): unknown {
    return this.refs.deref(value);
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
    let documentPath = path;
    let pathItem = Object.hasOwn(paths, path) ? paths[path] : undefined;
    if (pathItem === undefined) {
      const shape = templateShape(path);
      const key = Object.keys(paths).find((candidate) => templateShape(candidate) === shape);
      pathItem = key === undefined ? undefined : paths[key];
      if (key !== undefined) documentPath = key;
    }
    const item = this.followRefs(pathItem);
    if (!isObject(item)) return undefined;
    const operation = this.followRefs(item[method]);
    if (!isObject(operation)) return undefined;
    const responses = this.followRefs(operation.responses);
    if (!isObject(responses)) return undefined;
    return { method: method.toUpperCase(), path, operation, responses, pathItem: item, documentPath };
  }
}

function templateShape(path: string): string {
  return path.replace(/\{[^}/]*\}/g, '{}');
}
