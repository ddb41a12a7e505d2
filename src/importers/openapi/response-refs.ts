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
  // Two parallel stacks (the node, and whether its keys are names): a large document's responses
  // reach tens of thousands of nodes, and an object per entry was most of this walk's cost.
  // The responses object maps status codes to responses (itself a reference in some documents).
  const nodes: unknown[] = [responses];
  const nameMaps: boolean[] = [!(isObject(responses) && typeof responses.$ref === 'string')];
  for (let seen = 0; nodes.length > 0 && seen < MAX_NODES; seen++) {
    const node = nodes.pop();
    const names = nameMaps.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) {
        nodes.push(item);
        nameMaps.push(false);
      }
      continue;
    }
    if (!isObject(node)) continue;
    if (!names && typeof node.$ref === 'string') {
      const ref = node.$ref;
      if (followed.has(ref)) continue;
      followed.add(ref);
      nodes.push(refs.pointer(ref)); // recorded when external or broken; a local target is walked
      nameMaps.push(false);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (!names && (DATA_KEYS.has(key) || key.startsWith('x-'))) continue;
      nodes.push(node[key]);
      nameMaps.push(!names && NAME_MAPS.has(key));
    }
  }
}
