/**
 * The building blocks every resource declaration uses, and the one writer that turns a parsed
 * value back into file data. A resource is declared once as a zod object: the shape's key order
 * is the written field order, `.default()` gives the default (omitted on write), and `.loose()`
 * keeps unknown fields (written after the known ones).
 */
import { z } from 'zod';
import { editDistance } from '../support/edit-distance.js';

// Building a zod schema costs tens of microseconds (a text field ~100 µs: a union of three and a
// transform), and the format declares hundreds of fields, built whenever the model loads. Schemas
// never change once built (`.default()` and `.optional()` wrap them), so each builder below hands
// out one shared instance per distinct argument instead of a new one per field.
function shared<S>(make: () => S): () => S {
  let made: S | undefined;
  return () => (made ??= make());
}

function sharedBy<A extends unknown[], S>(key: (...args: A) => string, make: (...args: A) => S): (...args: A) => S {
  const made = new Map<string, S>();
  return (...args) => {
    const k = key(...args);
    let schema = made.get(k);
    if (schema === undefined) made.set(k, (schema = make(...args)));
    return schema;
  };
}

/** A text field. YAML scalars that are numbers or booleans are read as their text (`value: 42`). */
export const text = shared(() =>
  z.union([z.string(), z.number(), z.boolean()], {
    error: (issue) => `expected text, got ${describe(issue.input)}`,
  }).transform(String));

const wholeNumber = sharedBy(
  (min: number, max: number) => `${min} ${max}`,
  (min: number, max: number) =>
    z.number({ error: (issue) => `expected a number, got ${describe(issue.input)}` })
      .int({ error: 'expected a whole number' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` }),
);

export const integer = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) => wholeNumber(min, max);

/**
 * A number. Its error map answers for the bounds a field adds (`number().min(0)`) too: a bound
 * broken is said as such, not as "expected a number, got number -1".
 */
export const number = shared(() =>
  z.number({
    // Typed as for the type check only, but zod hands this map the bound checks' issues too.
    error: (issue) => {
      const bound = issue as unknown as { code: string; minimum?: number | bigint; maximum?: number | bigint };
      if (bound.code === 'too_small') return `must be at least ${String(bound.minimum)}`;
      if (bound.code === 'too_big') return `must be at most ${String(bound.maximum)}`;
      return `expected a number, got ${describe(issue.input)}`;
    },
  }));

export const flag = shared(() => z.boolean({ error: (issue) => `expected true or false, got ${describe(issue.input)}` }));

const choice = sharedBy(
  (values: readonly [string, ...string[]]) => values.join('\n'),
  (values: readonly [string, ...string[]]) =>
    z.enum(values, { error: (issue) => `expected one of ${values.join(', ')}, got ${describe(issue.input)}` }),
);

export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => choice(values) as z.ZodEnum<{ [K in T[number]]: K }>;

export const list = <T extends z.ZodType>(item: T) =>
  z.array(item, { error: (issue) => `expected a list, got ${describe(issue.input)}` });

/** An object of the format: unknown fields are kept. */
export const section = <T extends z.ZodRawShape>(shape: T) =>
  z.object(shape, { error: (issue) => `expected a mapping, got ${describe(issue.input)}` }).loose();

/** Optional sections whose presence means something even with every field at its default. */
const presenceMatters = new WeakSet<z.ZodType>();

/**
 * An optional section written even when empty (`repeat: {}`): its being there switches something
 * on, so dropping it as an empty section would change what the file means.
 */
export function keptWhenEmpty<S extends z.ZodType>(schema: S): S {
  presenceMatters.add(schema);
  return schema;
}

/** Sections whose every field is read as written (no declared list): none of their fields is unknown. */
const openSections = new WeakSet<z.ZodType>();

/**
 * A section whose fields are read by name as written (Digest's and AWS Signature V4's, from
 * imports): `unknownFields` names none of them.
 */
export function fieldsAsWritten<S extends z.ZodType>(schema: S): S {
  openSections.add(schema);
  return schema;
}

export function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing: add it)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `text "${value.length > 40 ? value.slice(0, 40) + '…' : value}"`;
  // YAML's .inf and .nan, and a number past what a number holds (1e400 reads as Infinity).
  if (typeof value === 'number' && Number.isNaN(value)) return '.nan (not a number)';
  if (typeof value === 'number' && !Number.isFinite(value)) return `${value < 0 ? '-' : ''}infinity (.inf, or a number too large to hold, such as 1e400)`;
  return `${typeof value} ${String(value)}`;
}

type AnySchema = z.ZodType;

/**
 * File data for a parsed value: fields in declared order, fields at their default omitted,
 * empty optional sections omitted, unknown fields kept after the known ones.
 */
export function toFileData(schema: AnySchema, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  // The schema's shape as planned once (zod's `instanceof` checks cost more than the walk itself).
  const plan = schemaPlan(schema);
  if (plan.kind === 'object' && isPlainObject(value)) return objectToFileData(plan.schema, value);
  if (plan.kind === 'array' && Array.isArray(value)) {
    return value.map((item) => toFileData(plan.element, item));
  }
  if (plan.kind === 'union' && isPlainObject(value)) {
    const variant = plan.variants.get(value[plan.discriminator]);
    return variant ? toFileData(variant, value) : value;
  }
  return value;
}

/** A declared field as the writer needs it; schemas never change, so this is worked out once per object schema. */
interface FieldPlan {
  key: string;
  field: AnySchema;
  fallback: { has: boolean; value?: unknown };
}

const fieldPlans = new WeakMap<z.ZodObject, FieldPlan[]>();

function fieldPlan(schema: z.ZodObject): FieldPlan[] {
  let plan = fieldPlans.get(schema);
  if (!plan) {
    plan = Object.entries(schema.shape as Record<string, AnySchema>).map(([key, field]) => ({ key, field, fallback: defaultOf(field) }));
    fieldPlans.set(schema, plan);
  }
  return plan;
}

function objectToFileData(schema: z.ZodObject, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const shape = schema.shape as Record<string, AnySchema>;
  for (const { key, field, fallback } of fieldPlan(schema)) {
    const fieldValue = value[key];
    if (fieldValue === undefined) continue;
    if (fallback.has && deepEqual(fieldValue, fallback.value)) continue;
    const written = toFileData(field, fieldValue);
    if (!fallback.has && isEmptySection(written) && !presenceMatters.has(field)) continue;
    out[key] = written;
  }
  for (const [key, extra] of Object.entries(value)) {
    if (!(key in shape) && extra !== undefined) out[key] = extra;
  }
  return out;
}

/**
 * `url:` with nothing after it is null in YAML; for a field of the format that means "not given",
 * so it takes its default. Only declared fields are touched: unknown fields keep their nulls.
 * Opening a workspace runs this on every file, so the schema walk is planned once per schema and
 * an object is copied only when something under it is dropped (zod never changes its input).
 */
export function dropNullFields(schema: AnySchema, value: unknown): unknown {
  const plan = schemaPlan(schema);
  if (plan.kind === 'object' && isPlainObject(value)) {
    // An own `__proto__` key (YAML may hold one) is copied the plain way, as it always was.
    if (Object.hasOwn(value, '__proto__')) return copyWithoutNulls(plan.shape, value);
    let out: Record<string, unknown> | undefined;
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const field = value[key];
      if (!(key in plan.shape)) continue;
      const kept = field === null ? DROPPED : dropNullFields(plan.shape[key]!, field);
      if (kept === field) continue;
      out ??= { ...value };
      if (kept === DROPPED) delete out[key];
      else out[key] = kept;
    }
    return out ?? value;
  }
  if (plan.kind === 'array' && Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const kept = dropNullFields(plan.element, value[i]);
      if (kept === value[i]) continue;
      out ??= [...value];
      out[i] = kept;
    }
    return out ?? value;
  }
  if (plan.kind === 'union' && isPlainObject(value)) {
    const variant = plan.variants.get(value[plan.discriminator]);
    return variant ? dropNullFields(variant, value) : value;
  }
  return value;
}

/** A field of a file that its resource does not declare, and the declared field it most likely meant. */
export interface UnknownField {
  /** Where it is, as parts (`['targets', 0, 'weigth']`). */
  path: Array<string | number>;
  meant?: string;
}

/**
 * The fields of `value` that `schema` does not declare (`.loose()` keeps them), at any depth, in
 * the parsed value's key order (declared fields first): a misspelt field (`weigth`) is kept but
 * never read, so the file means something other than its author thinks. Fields named `x-…`
 * (extensions kept on purpose) and those of sections read as written (`fieldsAsWritten`) are not.
 */
export function unknownFields(schema: AnySchema, value: unknown, at: Array<string | number> = []): UnknownField[] {
  const plan = schemaPlan(schema);
  const out: UnknownField[] = [];
  if (plan.kind === 'object' && isPlainObject(value)) {
    const open = openSections.has(plan.schema);
    for (const key of Object.keys(value)) {
      if (key in plan.shape) out.push(...unknownFields(plan.shape[key]!, value[key], [...at, key]));
      // `x-…` marks a field kept on purpose (an extension, as in OpenAPI): never a typo.
      else if (!open && !key.startsWith('x-')) {
        const meant = closestName(key, Object.keys(plan.shape));
        out.push({ path: [...at, key], ...(meant ? { meant } : {}) });
      }
    }
  } else if (plan.kind === 'array' && Array.isArray(value)) {
    value.forEach((item, i) => out.push(...unknownFields(plan.element, item, [...at, i])));
  } else if (plan.kind === 'union' && isPlainObject(value)) {
    const variant = plan.variants.get(value[plan.discriminator]);
    if (variant) out.push(...unknownFields(variant, value, at));
  }
  return out;
}

/** The declared name `name` most likely means: the same but for case, one the other begins, or a typo or two away. */
export function closestName(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const same = names.find((n) => n.toLowerCase() === lower);
  if (same) return same;
  const prefix = lower.length >= 3 ? names.find((n) => n.toLowerCase().startsWith(lower) || lower.startsWith(n.toLowerCase())) : undefined;
  if (prefix) return prefix;
  const allowed = lower.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const n of names) {
    const distance = editDistance(lower, n.toLowerCase());
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: n, distance };
  }
  return best?.name;
}


const DROPPED = Symbol('dropped');

function copyWithoutNulls(shape: Record<string, AnySchema>, value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // Defined, not assigned: `out.__proto__ = field` would make a file's `__proto__:` mapping the
  // copy's prototype, and its keys (url, method…) would read as the file's own fields.
  const put = (key: string, field: unknown) => Object.defineProperty(out, key, { value: field, enumerable: true, writable: true, configurable: true });
  for (const [key, field] of Object.entries(value)) {
    if (!(key in shape)) put(key, field);
    else if (field !== null) put(key, dropNullFields(shape[key]!, field));
  }
  return out;
}

type SchemaPlan =
  | { kind: 'object'; schema: z.ZodObject; shape: Record<string, AnySchema> }
  | { kind: 'array'; element: AnySchema }
  | { kind: 'union'; discriminator: string; variants: Map<unknown, AnySchema> }
  | { kind: 'leaf' };

const schemaPlans = new WeakMap<AnySchema, SchemaPlan>();

/**
 * What `dropNullFields` and `toFileData` look into for `schema`, found once (unwrapping and zod's
 * `instanceof` cost more than the walk).
 */
function schemaPlan(schema: AnySchema): SchemaPlan {
  let plan = schemaPlans.get(schema);
  if (plan) return plan;
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) plan = { kind: 'object', schema: inner, shape: inner.shape as Record<string, AnySchema> };
  else if (inner instanceof z.ZodArray) plan = { kind: 'array', element: inner.element as AnySchema };
  else if (inner instanceof z.ZodDiscriminatedUnion) plan = { kind: 'union', ...variantTable(inner) };
  else plan = { kind: 'leaf' };
  schemaPlans.set(schema, plan);
  return plan;
}

function isEmptySection(value: unknown): boolean {
  return isPlainObject(value) && Object.keys(value).length === 0;
}

const unwrapped = new WeakMap<AnySchema, AnySchema>();

/** Strips wrappers that do not change the shape: optional, default, preprocess/transform pipes. */
export function unwrap(schema: AnySchema): AnySchema {
  let inner = unwrapped.get(schema);
  if (inner === undefined) {
    inner = unwrapOnce(schema);
    unwrapped.set(schema, inner);
  }
  return inner;
}

function unwrapOnce(schema: AnySchema): AnySchema {
  let current: AnySchema = schema;
  for (let i = 0; i < 10; i++) {
    if (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodPrefault) {
      current = current.unwrap() as AnySchema;
    } else if (current instanceof z.ZodPipe) {
      const def = current.def as unknown as { in: AnySchema; out: AnySchema };
      current = def.in instanceof z.ZodTransform ? def.out : def.in;
    } else {
      break;
    }
  }
  return current;
}

export function defaultOf(schema: AnySchema): { has: boolean; value?: unknown } {
  let current: AnySchema = schema;
  for (let i = 0; i < 10; i++) {
    if (current instanceof z.ZodDefault) return { has: true, value: current.def.defaultValue };
    if (current instanceof z.ZodOptional) current = current.unwrap() as AnySchema;
    else break;
  }
  return { has: false };
}

/** Each discriminator value of a union with its variant: the first option that declares it. */
function variantTable(union: z.ZodDiscriminatedUnion): { discriminator: string; variants: Map<unknown, AnySchema> } {
  const discriminator = (union.def as { discriminator: string }).discriminator;
  const variants = new Map<unknown, AnySchema>();
  for (const option of union.options as AnySchema[]) {
    const opt = unwrap(option);
    if (!(opt instanceof z.ZodObject)) continue;
    const literal = (opt.shape as Record<string, AnySchema>)[discriminator];
    const inner = literal ? unwrap(literal) : undefined;
    if (inner instanceof z.ZodLiteral) for (const v of inner.values) if (!variants.has(v)) variants.set(v, opt);
  }
  return { discriminator, variants };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}
