/**
 * Response schemas are not turned into anything a request holds, so nothing else reads them;
 * this walks an operation's responses only so that references to other files or URLs in them
 * (a response, its schema, headers, links, examples) reach the import's external-reference note
 * (spec 4.4) as those of parameters and bodies do. Local references are followed once each.
 */
import { isObject, type RefResolver } from '../../openapi-document/index.js';

/** Bounds one operation's walk, whatever the document's size or shape. */
const MAX_NODES = 20_000;

/** Keys that hold data (example values, defaults), where `$ref` is an ordinary key. */
const DATA_KEYS = new Set(['example', 'value', 'default', 'enum', 'const']);
/** Keys whose value maps names to objects: there a key named `example` or `value` is a name. */
const NAME_MAPS = new Set(['responses', 'properties', 'patternProperties', 'definitions', '$defs', 'headers', 'content', 'links', 'examples', 'dependentSchemas']);

/** `followed` is shared across an import's operations, so a component is walked once. */
export function recordResponseRefs(responses: unknown, refs: RefResolver, followed: Set<string>): void {
  // The responses object maps status codes to responses (itself a reference in some documents).
  const stack: Array<{ node: unknown; names: boolean }> = [{ node: responses, names: !(isObject(responses) && typeof responses.$ref === 'string') }];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const { node, names } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, names: false });
      continue;
    }
    if (!isObject(node)) continue;
    if (!names && typeof node.$ref === 'string') {
      const ref = node.$ref;
      if (followed.has(ref)) continue;
      followed.add(ref);
      stack.push({ node: refs.pointer(ref), names: false }); // recorded when external or broken; a local target is walked
      continue;
    }
    for (const [key, value] of Object.entries(node)) {
      if (!names && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      stack.push({ node: value, names: !names && NAME_MAPS.has(key) });
    }
  }
}
