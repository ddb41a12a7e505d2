/**
 * Local `$ref`s, followed lazily and remembered. References to other files or URLs are not
 * followed (spec 4.4): they are collected for a note, like references that point nowhere.
 */
import { walkJsonPointer } from '../support/json-pointer.js';
import { isObject, type JsonObject } from './json.js';
import { MAX_INLINED_EXAMPLE_NODES, MAX_REF_HOPS } from './limits.js';

export class RefResolver {
  private readonly cache = new Map<string, unknown>();
  /** References to other documents that were met and not followed. */
  readonly external = new Set<string>();
  /** Local references that point nowhere, or chains of references that never end. */
  readonly broken = new Set<string>();

  constructor(readonly root: JsonObject) {}

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

  /** Like `deref`, for places that must be a mapping (parameters, request bodies, path items). */
  object(value: unknown): JsonObject | undefined {
    const resolved = this.deref(value);
    return isObject(resolved) ? resolved : undefined;
  }
}

/** The last part of a reference (`#/components/schemas/Pet` → `Pet`), for names. */
export function refName(ref: string): string {
  const last = ref.split('/').pop() ?? ref;
  return last.replace(/~1/g, '/').replace(/~0/g, '~');
}
