/** The operations of a document, in document order, cut at `MAX_OPERATIONS`. */
import { MAX_OPERATIONS, isObject, type JsonObject, type RefResolver } from '../../openapi-document/index.js';

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

export interface OperationRef {
  method: string;
  path: string;
  pathItem: JsonObject;
  operation: JsonObject;
}

export interface OperationList {
  operations: OperationRef[];
  /** Operations past the cap, not imported. */
  skipped: number;
}

export function listOperations(root: JsonObject, refs: RefResolver, cap = MAX_OPERATIONS): OperationList {
  const operations: OperationRef[] = [];
  let skipped = 0;
  const paths = isObject(root.paths) ? root.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    if (!path.startsWith('/')) continue; // `x-` extensions and stray keys
    const pathItem = refs.object(rawItem);
    if (!pathItem) continue;
    for (const [key, rawOperation] of Object.entries(pathItem)) {
      const method = key.toLowerCase();
      if (!METHODS.has(method)) continue;
      const operation = refs.object(rawOperation);
      if (!operation) continue;
      if (operations.length >= cap) skipped++;
      else operations.push({ method: method.toUpperCase(), path, pathItem, operation });
    }
  }
  return { operations, skipped };
}

/** The first tag of an operation, when it has one. */
export function firstTag(operation: JsonObject): string | undefined {
  const tags = operation.tags;
  if (!Array.isArray(tags)) return undefined;
  const first = tags.find((t) => typeof t === 'string' && t.trim() !== '');
  return typeof first === 'string' ? first : undefined;
}

export interface TagInfo {
  name: string;
  description?: string;
}

/** The tags that hold operations: those the document declares, in its order, then the others as met. */
export function orderedTags(root: JsonObject, operations: OperationRef[]): TagInfo[] {
  const used = new Set<string>();
  for (const op of operations) {
    const tag = firstTag(op.operation);
    if (tag !== undefined) used.add(tag);
  }
  const out: TagInfo[] = [];
  const seen = new Set<string>();
  if (Array.isArray(root.tags)) {
    for (const tag of root.tags) {
      if (!isObject(tag) || typeof tag.name !== 'string' || !used.has(tag.name) || seen.has(tag.name)) continue;
      seen.add(tag.name);
      const description = typeof tag.description === 'string' && tag.description.trim() ? tag.description.trim() : undefined;
      out.push({ name: tag.name, ...(description ? { description } : {}) });
    }
  }
  for (const tag of used) if (!seen.has(tag)) out.push({ name: tag });
  return out;
}
