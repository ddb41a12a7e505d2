/**
 * Postman's PropertyList for headers, query parameters and form rows: an ordered list of
 * `{key, value, disabled?}` items looked up by key (case-insensitively for headers).
 */
export interface Property {
  key: string;
  value: unknown;
  disabled?: boolean;
  [field: string]: unknown;
}

/**
 * A flag a list sets when it changes (a Url's query marks the Url edited). A flag object, not a
 * callback: a callback into the owner would make a cycle (owner → list → callback → owner),
 * which outlives the script until QuickJS's cycle collector.
 */
export interface ChangeFlag {
  changed: boolean;
}

export class PropertyList {
  private items: Property[];

  constructor(
    items: Property[],
    private readonly caseInsensitive: boolean,
    private readonly changes?: ChangeFlag,
  ) {
    this.items = items;
  }

  private changed(): void {
    if (this.changes) this.changes.changed = true;
  }

  private same(a: unknown, b: unknown): boolean {
    if (typeof a !== 'string' || typeof b !== 'string') return a === b;
    return this.caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
  }

  /** An item given as text: a header line `Name: value` (headers are the case-insensitive lists), else a pair `name=value` (query, form). */
  private toProperty(item: unknown): Property {
    if (typeof item === 'string') {
      const at = item.indexOf(this.caseInsensitive ? ':' : '=');
      return at < 0 ? { key: item.trim(), value: '' } : { key: item.slice(0, at).trim(), value: item.slice(at + 1).trim() };
    }
    if (!item || typeof item !== 'object' || typeof (item as Property).key !== 'string') {
      throw new TypeError('expected an item like { key: "name", value: "text" }');
    }
    return { ...(item as Property) };
  }

  all(): Property[] {
    return this.items.slice();
  }
  count(): number {
    return this.items.length;
  }
  idx(index: number): Property | undefined {
    return this.items[index];
  }
  indexOf(item: Property | string): number {
    return typeof item === 'string' ? this.items.findIndex((p) => this.same(p.key, item)) : this.items.indexOf(item);
  }
  /** The item with this key (the last enabled one wins, as in Postman). */
  one(key: string): Property | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[i]!;
      if (!item.disabled && this.same(item.key, key)) return item;
    }
    return undefined;
  }
  get(key: string): unknown {
    return this.one(key)?.value;
  }
  has(keyOrItem: string | Property, value?: unknown): boolean {
    const key = typeof keyOrItem === 'string' ? keyOrItem : keyOrItem.key;
    return this.items.some((p) => !p.disabled && this.same(p.key, key) && (value === undefined || p.value === value));
  }
  add(item: unknown): void {
    this.items.push(this.toProperty(item));
    this.changed();
  }
  append(item: unknown): void {
    this.add(item);
  }
  prepend(item: unknown): void {
    this.items.unshift(this.toProperty(item));
    this.changed();
  }
  /** Replaces the value of the item with this key (keeping its spelling), or adds it. */
  upsert(item: unknown): void {
    const property = this.toProperty(item);
    const existing = this.items.find((p) => this.same(p.key, property.key));
    if (existing) Object.assign(existing, property, { key: existing.key });
    else this.items.push(property);
    this.changed();
  }
  remove(predicate: string | Property | ((item: Property) => boolean), context?: unknown): void {
    const before = this.items.length;
    if (typeof predicate === 'function') this.items = this.items.filter((p) => !predicate.call(context, p));
    else if (typeof predicate === 'string') this.items = this.items.filter((p) => !this.same(p.key, predicate));
    else this.items = this.items.filter((p) => p !== predicate && !(predicate && this.same(p.key, predicate.key)));
    if (this.items.length !== before) this.changed();
  }
  clear(): void {
    this.items = [];
    this.changed();
  }
  populate(items: unknown[]): void {
    for (const item of items) this.items.push(this.toProperty(item));
    this.changed();
  }
  repopulate(items: unknown[]): void {
    this.items = [];
    this.populate(items);
  }
  each(fn: (item: Property, index: number) => void, context?: unknown): void {
    this.items.slice().forEach((item, index) => fn.call(context, item, index));
  }
  filter(fn: (item: Property) => boolean, context?: unknown): Property[] {
    return this.items.filter((item) => fn.call(context, item));
  }
  find(fn: (item: Property) => boolean, context?: unknown): Property | undefined {
    return this.items.find((item) => fn.call(context, item));
  }
  map<T>(fn: (item: Property) => T, context?: unknown): T[] {
    return this.items.map((item) => fn.call(context, item));
  }
  reduce<T>(fn: (acc: T, item: Property) => T, initial: T, context?: unknown): T {
    return this.items.reduce((acc, item) => fn.call(context, acc, item), initial);
  }
  /** Enabled items as an object (later keys win); header keys lower-cased unless asked not to. */
  toObject(excludeDisabled = true, caseSensitive = !this.caseInsensitive, multiValue = false): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const item of this.items) {
      if (excludeDisabled && item.disabled) continue;
      const key = caseSensitive ? item.key : item.key.toLowerCase();
      if (multiValue && Object.prototype.hasOwnProperty.call(out, key)) {
        const prior = out[key];
        out[key] = Array.isArray(prior) ? [...prior, item.value] : [prior, item.value];
      } else {
        Object.defineProperty(out, key, { value: item.value, enumerable: true, writable: true, configurable: true });
      }
    }
    return out;
  }
  toJSON(): Property[] {
    return this.items.map((p) => ({ ...p }));
  }
  toString(): string {
    return this.items.filter((p) => !p.disabled).map((p) => `${p.key}: ${String(p.value)}`).join('\n');
  }
}
