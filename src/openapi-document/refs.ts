/**
 * Local `$ref`s, followed lazily and remembered. References to other files or URLs are not
 * followed (spec 4.4): they are collected for a note, like references that point nowhere.
 */
import { walkJsonPointer } from '../support/json-pointer.js';
import { isObject, type JsonObject } from './json.js';
import { MAX_INLINED_EXAMPLE_NODES, MAX_REF_HOPS } from './limits.js';
import { specVersionOf, type SpecVersion } from './version.js';

export class RefResolver {
  private readonly cache = new Map<string, unknown>();
  /** References to other documents that were met and not followed. */
  readonly external = new Set<string>();
  /** Local references that point nowhere, or chains of references that never end. */
  readonly broken = new Set<string>();

  /**
   * Whether keywords written beside a schema's `$ref` apply with it: in OpenAPI 3.1 (JSON Schema
   * 2020-12) they do; in 3.0 and Swagger 2.0 a `$ref` replaces its object and they are ignored.
   */
  readonly siblingsApply: boolean;

  /**
   * @param dialect the document's version; read from `root` when not given.
   * @param siblings `false`: keywords beside a reference are ignored in 3.1 too, as imports by
   *   earlier Ferry versions read them (an update tells their values from your edits).
   */
  constructor(readonly root: JsonObject, dialect: SpecVersion | undefined = specVersionOf(root)?.version, siblings = true) {
    this.siblingsApply = siblings && dialect === 'oas31';
  }

  /** The value at a local reference, or undefined (recorded) for external or broken ones. */
  pointer(ref: string): unknown {
    if (this.cache.has(ref)) return this.cache.get(ref);
    let value: unknown;
    if (!ref.startsWith('#')) this.external.add(ref);
    else {
      value = this.walk(ref.slice(1));
      if (value === undefined) this.broken.add(ref);
    }
    this.cache.set(ref, value);
    return value;
  }

  private walk(fragment: string): unknown {
    return walkJsonPointer(this.root, fragment);
  }


  /**
   * Follows `$ref` while the value is only a reference. Returns undefined when the reference
   * cannot be followed (external, broken, or a chain of references that loops).
   */
  deref(value: unknown): unknown {
    let current = value;
    for (let hop = 0; hop < MAX_REF_HOPS; hop++) {
      if (!isObject(current) || typeof current.$ref !== 'string') return current;
      const ref = current.$ref;
      current = this.pointer(ref);
      if (current === undefined) return undefined;
      if (hop === MAX_REF_HOPS - 1) this.broken.add(ref);
    }
    return undefined;
  }

  /**
   * An example value with its local references inlined: bundlers (Redocly, swagger-cli) write a
   * value repeated across examples once and point at it (`language: {$ref: '#/…/enum/0'}` in
   * GitHub's document), and the tools people mock with (Prism, Swagger UI) read it back. Only an
   * object that is nothing but a local `$ref` is replaced; other files or URLs, references that
   * point nowhere, and a reference inside its own target stay as written. The same value comes
   * back when there is nothing to inline; the walk stops after `MAX_INLINED_EXAMPLE_NODES` values.
   */
  inlineExampleRefs(value: unknown): unknown {
    const budget = { left: MAX_INLINED_EXAMPLE_NODES };
    return this.inline(value, [], budget);
  }

  private inline(value: unknown, active: string[], budget: { left: number }): unknown {
    if (typeof value !== 'object' || value === null || --budget.left < 0) return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item = this.inline(value[index], active, budget);
        if (item !== value[index]) (copy ??= value.slice())[index] = item;
      }
      return copy ?? value;
    }
    const keys = Object.keys(value);
    const ref = (value as JsonObject).$ref;
    if (keys.length === 1 && typeof ref === 'string' && ref.startsWith('#') && !active.includes(ref)) {
      const target = this.pointer(ref);
      if (target === undefined) return value;
      active.push(ref);
      try {
        return this.inline(target, active, budget);
      } finally {
        active.pop();
      }
    }
    let copy: JsonObject | undefined;
    for (const key of keys) {
      const inner = (value as JsonObject)[key];
      const inlined = this.inline(inner, active, budget);
      if (inlined !== inner) (copy ??= { ...(value as JsonObject) })[key] = inlined;
    }
    return copy ?? value;
  }

  /**
   * A schema as one object, for reading its examples and keywords: `$ref`s followed like
   * `object`, and in 3.1 the keywords beside each reference laid over its target (see
   * `withSiblings`). A 3.1 reference that cannot be followed leaves its siblings alone.
   */
  schema(value: unknown): JsonObject | undefined {
    const overlays: JsonObject[] = [];
    let current = value;
    for (let hop = 0; hop < MAX_REF_HOPS && isObject(current) && typeof current.$ref === 'string'; hop++) {
      if (this.siblingsApply && Object.keys(current).length > 1) overlays.push(current);
      current = this.pointer(current.$ref);
    }
    if (isObject(current) && typeof current.$ref === 'string') current = undefined;
    if (overlays.length === 0) return isObject(current) ? current : undefined;
    return withSiblings(isObject(current) ? current : {}, overlays);
  }

  /**
   * A Reference Object's target (a parameter, a request body…), like `object`; in 3.1 the
   * `summary` and `description` written beside the reference replace the target's, as that
   * version says (other keywords beside it are ignored there too).
   */
  reference(value: unknown): JsonObject | undefined {
    const target = this.object(value);
    if (!this.siblingsApply || target === undefined || !isObject(value) || typeof value.$ref !== 'string') return target;
    const own = Object.fromEntries(['summary', 'description'].filter((key) => typeof value[key] === 'string').map((key) => [key, value[key]]));
    return Object.keys(own).length === 0 ? target : { ...target, ...own };
  }

  /** Like `deref`, for places that must be a mapping (parameters, request bodies, path items). */
  object(value: unknown): JsonObject | undefined {
    const resolved = this.deref(value);
    return isObject(resolved) ? resolved : undefined;
  }
}

/** Keywords that give a value outright; the referring object's win over its target's as a set. */
const VALUE_KEYWORDS = ['example', 'examples', 'x-example', 'const', 'default', 'enum'];

/**
 * `target` with the keywords beside the references that led to it laid over it (`overlays`,
 * outermost first; 3.1, where both apply): the referring object's own keywords win (`minimum`,
 * `type: [object, 'null']`, `readOnly`…), `properties` and `required` add to the target's, `allOf`
 * members join its own. When the referring object gives a value (`example`, `default`, `enum`…),
 * the target's values are set aside, as they describe the type in general and not this use of it.
 */
export function withSiblings(target: JsonObject, overlays: readonly JsonObject[]): JsonObject {
  let merged: JsonObject = target;
  for (let index = overlays.length - 1; index >= 0; index--) {
    const siblings = overlays[index]!;
    const out: JsonObject = { ...merged };
    delete out.$ref;
    if (VALUE_KEYWORDS.some((key) => siblings[key] !== undefined)) for (const key of VALUE_KEYWORDS) delete out[key];
    for (const [key, value] of Object.entries(siblings)) {
      if (key === '$ref') continue;
      if (key === 'properties' && isObject(value) && isObject(out.properties)) out.properties = { ...out.properties, ...value };
      else if (key === 'required' && Array.isArray(value) && Array.isArray(out.required)) out.required = [...new Set([...out.required, ...value])];
      else if (key === 'allOf' && Array.isArray(value) && Array.isArray(out.allOf)) out.allOf = [...out.allOf, ...value];
      else out[key] = value;
    }
    merged = out;
  }
  return merged;
}

/** The last part of a reference (`#/components/schemas/Pet` → `Pet`), for names. */
export function refName(ref: string): string {
  const last = ref.split('/').pop() ?? ref;
  return last.replace(/~1/g, '/').replace(/~0/g, '~');
}
