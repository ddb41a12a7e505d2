/**
 * Variable scopes for scripts (pm.environment, pm.collectionVariables, pm.globals,
 * pm.variables' local scope) with a net log of what scripts changed, and `replaceIn`.
 */
import { hasOwn, describeType, json } from './intrinsics.js';
import { dynamicValueTable } from '../../support/dynamic-value-table.js';
import { findPlaceholders } from '../../support/placeholder-syntax.js';

export interface ScopeChanges {
  cleared: boolean;
  set: Record<string, unknown>;
  unset: string[];
}
export interface ScopeState {
  values: Record<string, unknown>;
  /** What scripts of this phase changed so far; absent until the first change (most phases change nothing). */
  changes?: ScopeChanges;
}

/** Passes of `replaceVariables`: spec 8.1's 10 levels, TEMPLATE_LIMITS.maxNestingLevels (which the sandbox cannot import), so a chain of values stops where a request's does. */
const maxNesting = 10;

/** The random bytes of the host's CSPRNG (crypto.getRandomValues, polyfills.ts). */
function randomBytes(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  (globalThis as unknown as { crypto: { getRandomValues(a: Uint8Array): void } }).crypto.getRandomValues(bytes);
  return bytes;
}

/** `replaceIn`'s dynamic values: the template engine's table, with the sandbox's randomness. */
const DYNAMIC_VALUES = dynamicValueTable({
  uuid() {
    const bytes = randomBytes(16);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  },
  int(min, maxExclusive) {
    const [a, b, c, d] = randomBytes(4);
    return min + (((a! << 24) | (b! << 16) | (c! << 8) | d!) >>> 0) % (maxExclusive - min);
  },
});

/** A fresh version 4 UUID: the id of a scope Ferry has none for in `toJSON()`, as Newman's. */
export function randomUuid(): string {
  return DYNAMIC_VALUES.get('$uuid')!();
}

/**
 * A scope's values as postman-collection's VariableScope.toJSON lists them: `{ type, value, key }`
 * each, in the scope's order. Every value's type is `any`, as Newman gives a value from a file or a
 * data row and one a script set (Ferry's variables carry no Postman type).
 */
function valuesJSON(values: Iterable<[string, unknown]>): { type: string; value: unknown; key: string }[] {
  return Array.from(values, ([key, value]) => ({ type: 'any', value, key }));
}

function dynamicValue(name: string): string | undefined {
  return DYNAMIC_VALUES.get(name)?.();
}

/**
 * A value's text in `{{name}}`, as Postman's: its `toString()` (`[object Object]` for an object,
 * `1,two` for a list, a Url's text, a Date's), `null` as `null`, `undefined` as nothing; a value
 * without a callable `toString` (an object made with no prototype) leaves the placeholder as written.
 */
function stringify(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value === null) return 'null';
  if (value === undefined) return '';
  const toString = (value as { toString?: unknown }).toString;
  if (typeof toString !== 'function') return undefined;
  const text: unknown = toString.call(value);
  return typeof text === 'string' ? text : undefined;
}

/**
 * A value as it leaves the script that set it, for the next scripts and the host: JSON data, as
 * Newman's sandbox hands values out (a Url becomes its toJSON object, a Date its ISO text, values
 * JSON has no room for, such as `undefined`, a function or NaN, `null`). The script that set it
 * keeps the value itself until it ends, as in Postman.
 */
export function storedValue(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object' || value === null) return null;
  const text = json.stringify(value) as string | undefined;
  return text === undefined ? null : json.parse(text);
}

/**
 * `replaceIn`, as Postman's: text is filled (replaceVariables); in objects and lists the text
 * values inside are, recursively (a copy); anything else comes back as it is (`replaceIn(5)` is 5).
 */
export function replaceIn(template: unknown, lookup: (name: string) => unknown, depth = 0): unknown {
  if (typeof template === 'string') return replaceVariables(template, lookup);
  if (template === null || typeof template !== 'object' || depth > 100) return template;
  if (Array.isArray(template)) return template.map((item) => replaceIn(item, lookup, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template)) {
    Object.defineProperty(out, key, { value: replaceIn(value, lookup, depth + 1), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Fills `{{name}}` from `lookup` by the placeholder syntax requests use (spaces around the name,
 * one line, innermost of nested braces), up to 10 levels; a variable wins over a dynamic value of
 * its name; unknown names stay as written.
 */
export function replaceVariables(template: string, lookup: (name: string) => unknown): string {
  let text = template;
  for (let level = 0; level < maxNesting; level++) {
    const found = findPlaceholders(text);
    if (found.length === 0) break;
    let out = '';
    let at = 0;
    let changed = false;
    for (const { start, end, name } of found) {
      const defined = lookup(name);
      const value = defined !== undefined ? stringify(defined) : name.startsWith('$') ? dynamicValue(name) : undefined;
      if (value === undefined) continue;
      out += text.slice(at, start) + value;
      at = end;
      changed = true;
    }
    if (!changed) break;
    text = out + text.slice(at);
  }
  return text;
}

function checkKey(scope: string, method: string, key: unknown): string {
  if (typeof key !== 'string') {
    throw new TypeError(`${scope}.${method}: the variable name must be a string, not ${describeType(key)}`);
  }
  return key;
}

export class VariableScope {
  private map: Map<string, unknown> | undefined;
  /** Set by set/unset/clear: only changed scopes go back to the host. */
  changed = false;
  /** Names this script set: their values become JSON data when it ends (`storedValue`). */
  private setNames: string[] | undefined;
  /**
   * This script's changes as Newman's mutation tracker compacts them (`toJSON().mutations`): the
   * last change of each name, `[key, value]` for a set and `[key]` for an unset, in the order the
   * names were first changed. Newman tracks each script on its own, so this one's only.
   */
  private compacted: Record<string, unknown[]> | undefined;
  /** `toJSON().id` of a scope without an id of its own: made on first use, the same for the rest of the script. */
  private madeId: string | undefined;

  constructor(
    private readonly state: ScopeState,
    private readonly apiName: string,
    readonly name?: string,
    /** The id `toJSON()` gives (the environment's); without one, a fresh UUID, as Newman's. */
    private readonly id?: string,
  ) {}

  /** Built on first use: a script reads one or two of its four scopes, if any. */
  private get values(): Map<string, unknown> {
    this.map ??= new Map(Object.entries(this.state.values));
    return this.map;
  }

  get(key: string): unknown {
    return this.values.get(key);
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
  set(key: string, value: unknown): void {
    checkKey(this.apiName, 'set', key);
    this.changed = true;
    this.values.set(key, value);
    (this.setNames ??= []).push(key);
    const changes = this.changes();
    Object.defineProperty(changes.set, key, { value, enumerable: true, writable: true, configurable: true });
    const i = changes.unset.indexOf(key);
    if (i >= 0) changes.unset.splice(i, 1);
    this.track(key, [key, value]);
  }
  unset(key: string): void {
    checkKey(this.apiName, 'unset', key);
    this.changed = true;
    this.values.delete(key);
    const changes = this.changes();
    if (hasOwn(changes.set, key)) delete changes.set[key];
    if (!changes.unset.includes(key)) changes.unset.push(key);
    this.track(key, [key]);
  }
  clear(): void {
    this.changed = true;
    // As Newman's: an unset of each name the scope held, before they go.
    for (const key of this.values.keys()) this.track(key, [key]);
    this.values.clear();
    this.state.changes = { cleared: true, set: {}, unset: [] };
  }
  toObject(): Record<string, unknown> {
    return Object.fromEntries(this.values);
  }
  /**
   * postman-collection's VariableScope.toJSON, as Newman's scripts get it (and log it): `id`, `name`
   * (the environment's, where there is one), `mutations` (what this script changed) and `values`.
   */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { id: this.id ?? (this.madeId ??= randomUuid()) };
    if (this.name !== undefined) out.name = this.name;
    out.mutations = { autoCompact: true, stream: [], compacted: { ...this.compacted } };
    out.values = valuesJSON(this.values);
    return out;
  }
  replaceIn(template: unknown): unknown {
    return replaceIn(template, (name) => this.values.get(name));
  }
  /**
   * The scope as plain data to hand back to the host (and to the phase's next script): the values
   * this script set as JSON data. Throws, naming the variable, for one JSON cannot hold (a cycle, a BigInt).
   */
  snapshot(): ScopeState {
    const changes = this.changes();
    for (const key of this.setNames ?? []) {
      if (!this.values.has(key) || !hasOwn(changes.set, key)) continue;
      let value: unknown;
      try {
        value = storedValue(this.values.get(key));
      } catch (error) {
        this.values.delete(key);
        delete changes.set[key];
        throw new TypeError(`${this.apiName}.set(${json.stringify(key)}): the value cannot be kept for later scripts and requests (${error instanceof Error ? error.message : String(error)}); it was not stored. Store JSON data: plain objects, lists, text, numbers, booleans`);
      }
      this.values.set(key, value);
      Object.defineProperty(changes.set, key, { value, enumerable: true, writable: true, configurable: true });
    }
    this.setNames = undefined;
    return { values: Object.fromEntries(this.values), changes };
  }

  private track(key: string, mutation: unknown[]): void {
    Object.defineProperty((this.compacted ??= {}), key, { value: mutation, enumerable: true, writable: true, configurable: true });
  }

  private changes(): ScopeChanges {
    this.state.changes ??= { cleared: false, set: {}, unset: [] };
    return this.state.changes;
  }
}

/** iterationData: readable like a scope, changed by no script. */
export class ReadOnlyScope {
  private madeId: string | undefined;

  constructor(private readonly values: Record<string, unknown>) {}
  get(key: string): unknown {
    return hasOwn(this.values, key) ? this.values[key] : undefined;
  }
  has(key: string): boolean {
    return hasOwn(this.values, key);
  }
  toObject(): Record<string, unknown> {
    return { ...this.values };
  }
  /** As Newman's `pm.iterationData.toJSON()`: an `id` (a fresh UUID, the same for the rest of the script) and the row's `values`; no mutations, as no script changes it. */
  toJSON(): Record<string, unknown> {
    return { id: (this.madeId ??= randomUuid()), values: valuesJSON(Object.entries(this.values)) };
  }
  replaceIn(template: unknown): unknown {
    return replaceIn(template, (name) => this.get(name));
  }
}

type Layer = { has(key: string): boolean; get(key: string): unknown; toObject(): Record<string, unknown> };

/** pm.variables: reads local, then iteration data, environment, collection, globals; writes local. */
export class MergedVariables {
  private layerList: Layer[] | undefined;

  constructor(
    private readonly local: VariableScope,
    /** Gives the layers under local on the first read that local cannot answer: a script that only sets needs none. */
    private readonly source: { layers(): Layer[] },
  ) {}

  private get layers(): Layer[] {
    this.layerList ??= this.source.layers();
    return this.layerList;
  }

  get(key: string): unknown {
    if (this.local.has(key)) return this.local.get(key);
    for (const layer of this.layers) if (layer.has(key)) return layer.get(key);
    return undefined;
  }
  has(key: string): boolean {
    return this.local.has(key) || this.layers.some((layer) => layer.has(key));
  }
  set(key: string, value: unknown): void {
    this.local.set(key, value);
  }
  unset(key: string): void {
    this.local.unset(key);
  }
  clear(): void {
    this.local.clear();
  }
  toObject(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const layer of [...this.layers].reverse()) Object.assign(out, layer.toObject());
    return Object.assign(out, this.local.toObject());
  }
  /** As Newman's: the local scope's alone (the layers under it are not part of its JSON). */
  toJSON(): Record<string, unknown> {
    return this.local.toJSON();
  }
  replaceIn(template: unknown): unknown {
    return replaceIn(template, (name) => this.get(name));
  }
}
