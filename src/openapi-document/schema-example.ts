/**
 * Example values generated from a schema: request bodies and parameters without examples (the
 * importer), and answers of a mock generated from a document (`--as-server`, `Prefer`).
 * Bounded: references that loop end the branch, nesting stops at `MAX_EXAMPLE_DEPTH`, and one
 * value holds at most `MAX_EXAMPLE_NODES` parts, so huge schemas (Stripe, Kubernetes) stay cheap.
 */
import { isObject, type JsonObject } from './json.js';
import { MAX_EXAMPLE_DEPTH, MAX_EXAMPLE_ITEMS, MAX_EXAMPLE_NODES, MAX_EXAMPLE_STRING } from './limits.js';
import { withSiblings, type RefResolver } from './refs.js';

/** Which way the value travels: a request leaves out `readOnly` properties, a response `writeOnly` ones. */
export type ExampleDirection = 'request' | 'response';

const STRING_FORMATS: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00Z',
  date: '2024-01-01',
  time: '12:00:00',
  email: 'user@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  byte: 'ZXhhbXBsZQ==',
  binary: '',
  password: 'password',
};

export class ExampleGenerator {
  private nodes = 0;
  /** Objects cut short at the nesting limit so far; a value whose count grew is incomplete. */
  private cuts = 0;
  private readonly active: string[] = [];

  constructor(
    private readonly refs: RefResolver,
    private readonly direction: ExampleDirection = 'request',
  ) {}

  /** Only fields a schema requires (the second pass of `generate`). */
  private requiredOnly = false;

  /**
   * An example for `schema`, or undefined when the schema gives nothing to go on. When the value
   * budget runs out (Box's file: 2,000 values before its `shared_link.accessed`), the fields
   * generated last are missing, required ones too; a second pass then generates only what the
   * schemas require and fills those gaps, so the example still passes the schema's check.
   */
  generate(schema: unknown): unknown {
    const full = this.pass(schema, false);
    if (this.nodes <= MAX_EXAMPLE_NODES) return full;
    return fillMissing(full, this.pass(schema, true));
  }

  private pass(schema: unknown, requiredOnly: boolean): unknown {
    this.nodes = 0;
    this.cuts = 0;
    this.active.length = 0;
    this.requiredOnly = requiredOnly;
    try {
      return this.value(schema, 0);
    } finally {
      this.requiredOnly = false;
    }
  }

  /** An explicit example in the schema (3.0 `example`, 3.1 `examples`, Swagger `x-example`). */
  static explicitExample(schema: JsonObject): { found: boolean; value?: unknown } {
    if (schema.example !== undefined) return { found: true, value: schema.example };
    if (Array.isArray(schema.examples) && schema.examples.length > 0) return { found: true, value: schema.examples[0] };
    if (schema['x-example'] !== undefined) return { found: true, value: schema['x-example'] };
    return { found: false };
  }

  /** `required`: names an enclosing `allOf` requires, which its members' own lists may lack. */
  private value(input: unknown, depth: number, required?: ReadonlySet<string>): unknown {
    if (++this.nodes > MAX_EXAMPLE_NODES) return undefined;
    let schema = input;
    const entered: string[] = [];
    const overlays: JsonObject[] = [];
    try {
      // Follow references, ending the branch where one is already being expanded (a cycle).
      for (let hop = 0; isObject(schema) && typeof schema.$ref === 'string'; hop++) {
        const ref = schema.$ref;
        if (this.active.includes(ref) || hop > 16) return undefined;
        this.active.push(ref);
        entered.push(ref);
        // 3.1: the keywords beside the reference apply too (`{$ref: Id, minimum: 1}`).
        if (this.refs.siblingsApply && Object.keys(schema).length > 1) overlays.push(schema);
        schema = this.refs.pointer(ref);
      }
      if (overlays.length > 0) schema = withSiblings(isObject(schema) ? schema : {}, overlays);
      if (!isObject(schema)) return undefined;
      return this.fromSchema(schema, depth, required);
    } finally {
      this.active.length -= entered.length;
    }
  }

  private fromSchema(schema: JsonObject, depth: number, required?: ReadonlySet<string>): unknown {
    const explicit = ExampleGenerator.explicitExample(schema);
    if (explicit.found) return explicit.value;
    if (schema.const !== undefined) return schema.const;
    // A default the schema's own type refuses (`default: null` on a field that does not allow null
    // in Readme's test documents, `default: []` on `type: [string, integer, 'null']` in Redoc's)
    // would fail the document's own check; the type's example is used instead.
    if (schema.default !== undefined && fitsType(schema.default, schema)) return schema.default;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];

    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) return this.allOf(schema, depth, required);
    // The first option that gives a value, merged with the schema's own properties; options that
    // give nothing (GitHub's `anyOf: [{required: [description]}, …]`) leave the schema's own example.
    for (const key of ['oneOf', 'anyOf'] as const) {
      const options = schema[key];
      if (!Array.isArray(options) || options.length === 0) continue;
      let chosen: unknown;
      for (const option of options) {
        const value = this.value(option, depth);
        if (value !== undefined && value !== null) {
          chosen = value;
          break;
        }
      }
      if (chosen === undefined) break;
      if (isObject(chosen) && isObject(schema.properties)) return { ...this.object(schema, depth, required), ...chosen };
      return chosen;
    }

    const type = typeOf(schema);
    switch (type) {
      case 'object':
        return this.object(schema, depth, required);
      case 'array':
        return this.array(schema, depth);
      case 'string':
        return stringExample(schema);
      case 'integer':
      case 'number':
        return numberExample(schema, type);
      case 'boolean':
        return true;
      case 'null':
        return null;
      case 'file':
        return '';
      default:
        return undefined;
    }
  }

  /**
   * One item, repeated up to `minItems` (a board of 3 rows of 3): the copies are the same value,
   * charged to the value budget as if each were generated, so a huge `minItems` stays bounded.
   */
  private array(schema: JsonObject, depth: number): unknown[] {
    const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
    if (depth >= MAX_EXAMPLE_DEPTH || maxItems < 1) return [];
    const before = this.nodes;
    const cutsBefore = this.cuts;
    const item = this.value(schema.items, depth + 1);
    if (item === undefined) return [];
    // An item cut short at the nesting limit would lack its required fields: none is better.
    if (this.cuts > cutsBefore && !(typeof schema.minItems === 'number' && schema.minItems > 0)) return [];
    const minItems = typeof schema.minItems === 'number' ? Math.min(schema.minItems, maxItems, MAX_EXAMPLE_ITEMS) : 1;
    const cost = Math.max(1, this.nodes - before);
    const copies = Math.max(1, Math.min(minItems, Math.floor((MAX_EXAMPLE_NODES - this.nodes) / cost) + 1));
    this.nodes += cost * (copies - 1);
    return Array.from({ length: copies }, () => item);
  }

  private object(schema: JsonObject, depth: number, inherited?: ReadonlySet<string>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    if (!isObject(schema.properties)) return out;
    if (depth >= MAX_EXAMPLE_DEPTH) {
      // `{}` is a valid value unless the schema requires fields.
      if (Array.isArray(schema.required) && schema.required.length > 0) this.cuts++;
      return out;
    }
    const required = new Set([...(Array.isArray(schema.required) ? schema.required : []), ...(inherited ?? [])]);
    for (const [name, property] of Object.entries(schema.properties)) {
      if (this.nodes > MAX_EXAMPLE_NODES) break;
      if (this.requiredOnly && !required.has(name)) continue;
      const resolved = this.peek(property);
      // Requests leave out what only the server writes; responses what only the client sends.
      if (resolved?.[this.direction === 'request' ? 'readOnly' : 'writeOnly'] === true) continue;
      const cutsBefore = this.cuts;
      const value = this.value(property, depth + 1);
      // An optional field cut short at the nesting limit is left out (it would lack its required fields).
      if (value !== undefined && (this.cuts === cutsBefore || required.has(name))) out[name] = value;
    }
    return out;
  }

  private allOf(schema: JsonObject, depth: number, inherited?: ReadonlySet<string>): unknown {
    let merged: Record<string, unknown> | undefined;
    let other: unknown;
    const parts = [...(schema.allOf as unknown[]), ...(isObject(schema.properties) ? [{ type: 'object', properties: schema.properties }] : [])];
    // A field one member requires is required of the whole, whichever member describes it.
    const required = new Set<string>([...(inherited ?? []), ...(Array.isArray(schema.required) ? schema.required : [])]);
    for (const part of parts) {
      const resolved = this.peek(part);
      if (Array.isArray(resolved?.required)) for (const name of resolved.required) if (typeof name === 'string') required.add(name);
    }
    for (const part of parts) {
      const value = this.value(part, depth, required);
      if (isObject(value)) merged = { ...(merged ?? {}), ...value };
      else if (value !== undefined && other === undefined) other = value;
    }
    return merged ?? other;
  }

  /** The schema a property stands for, without counting it (for `readOnly`). */
  private peek(schema: unknown): JsonObject | undefined {
    return this.refs.schema(schema);
  }
}

/**
 * Whether a value is one the generator makes up when the schema gives none (`"string"` or a
 * format's example, stretched or cut, `0`, `true`, `""`, `null`), rather than data someone
 * chose: an update tells a body an earlier Ferry generated differently from your edit by it.
 */
export function isGeneratedPlaceholder(value: unknown): boolean {
  if (value === null || value === true || value === 0 || value === '') return true;
  if (typeof value !== 'string') return false;
  return PLACEHOLDER_TEXTS.some((text) => text.repeat(Math.ceil(value.length / text.length)).startsWith(value));
}

const PLACEHOLDER_TEXTS = ['string', ...new Set(Object.values(STRING_FORMATS).filter((text) => text !== ''))];

/** `full` with what it lacks taken from `skeleton` (same shape): missing fields, at any depth, and array items. */
function fillMissing(full: unknown, skeleton: unknown): unknown {
  if (full === undefined) return skeleton;
  if (Array.isArray(full)) {
    const template = Array.isArray(skeleton) ? skeleton[0] : undefined;
    return template === undefined ? full : full.map((item) => fillMissing(item, template));
  }
  if (!isObject(full) || !isObject(skeleton)) return full;
  const out: Record<string, unknown> = { ...full };
  for (const [key, value] of Object.entries(skeleton)) out[key] = Object.hasOwn(full, key) ? fillMissing(full[key], value) : value;
  return out;
}

/** The schema's type: the first non-null of a list (3.1), else inferred from its keywords. */
export function typeOf(schema: JsonObject): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return (type.find((t) => t !== 'null') as string | undefined) ?? (type.includes('null') ? 'null' : undefined);
  if (isObject(schema.properties) || schema.additionalProperties !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

/**
 * Whether `value` is of a kind the schema's types allow: null, a list, a mapping or a plain value
 * (any value when the schema names no type). Plain values are not told apart: `default: 10` on a
 * string is YAML's reading of an unquoted `10`, and a parameter sends it as the text it is.
 */
function fitsType(value: unknown, schema: JsonObject): boolean {
  if (value === null) return allowsNull(schema);
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : [];
  const known = types.filter((type): type is string => typeof type === 'string' && Object.hasOwn(KIND_OF_TYPE, type));
  const kind = Array.isArray(value) ? 'list' : isObject(value) ? 'mapping' : 'plain';
  return known.length === 0 || known.some((type) => KIND_OF_TYPE[type] === kind);
}

const KIND_OF_TYPE: Record<string, 'list' | 'mapping' | 'plain' | 'null'> = {
  string: 'plain',
  number: 'plain',
  integer: 'plain',
  boolean: 'plain',
  array: 'list',
  object: 'mapping',
  null: 'null',
};

/** Whether the schema lets `null` through: `nullable` (3.0), `x-nullable` (Swagger 2.0), a `null` type or enum value. */
function allowsNull(schema: JsonObject): boolean {
  if (schema.nullable === true || schema['x-nullable'] === true || schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  return Array.isArray(schema.enum) && schema.enum.includes(null);
}

/** `string`, or the format's example, stretched or cut to `minLength`/`maxLength`. */
function stringExample(schema: JsonObject): string {
  let text = typeof schema.format === 'string' && schema.format in STRING_FORMATS ? STRING_FORMATS[schema.format]! : 'string';
  const minLength = typeof schema.minLength === 'number' ? Math.min(schema.minLength, MAX_EXAMPLE_STRING) : 0;
  const maxLength = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if ([...text].length < minLength) text = text.padEnd(minLength, text || 'x');
  if ([...text].length > maxLength) text = [...text].slice(0, Math.max(0, maxLength)).join('');
  return text;
}

/**
 * 0, else the lowest value the bounds allow: `minimum` (plus one when exclusive: `true` before
 * 3.1, a number in 3.1), or the maximum when it is below zero (minus one when exclusive).
 */
function numberExample(schema: JsonObject, type: string): number {
  const exclusiveMin = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
  const exclusiveMax = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
  let min = typeof schema.minimum === 'number' ? schema.minimum + (schema.exclusiveMinimum === true ? 1 : 0) : undefined;
  if (exclusiveMin !== undefined) min = Math.max(min ?? -Infinity, exclusiveMin + 1);
  let max = typeof schema.maximum === 'number' ? schema.maximum - (schema.exclusiveMaximum === true ? 1 : 0) : undefined;
  if (exclusiveMax !== undefined) max = Math.min(max ?? Infinity, exclusiveMax - 1);
  let value = min ?? (max !== undefined && max < 0 ? max : 0);
  if (type === 'integer') value = Math.ceil(value);
  return value;
}
