/**
 * "Surely valid": a fast yes-or-don't-know test derived from a resource's zod declaration, for
 * listings that read thousands of files but keep a few fields of each (`ferry ls`). It answers
 * true only when `parseResource` would accept the data; on false the caller asks zod, which
 * also gives the messages. Only the constructs the format uses for plain fields are understood
 * (text, numbers with their bounds, flags, choices, lists, sections, defaults); anything else —
 * a refine, a preprocess (auth), a discriminated union, an unknown check — answers "don't know"
 * when the field is present. Nulls of declared fields count as absent, as `dropNullFields` makes them.
 */
import type { z } from 'zod';

/** A present value (not undefined) passes, or the answer is "don't know". */
type Check = (value: unknown) => boolean;

interface Field {
  /** Absent (or null) is fine: the field is optional or has a default. */
  optional: boolean;
  /** Undefined when the field's schema is not understood: present, it means "don't know". */
  check: Check | undefined;
}

interface Def {
  type: string;
  checks?: ReadonlyArray<{ _zod: { def: Record<string, unknown> } }>;
  [key: string]: unknown;
}

const checks = new WeakMap<z.ZodType, Check | null>();

/** True when zod would accept `data` (after `dropNullFields`) for `schema`; false when it might not. */
export function surelyValid(schema: z.ZodType, data: unknown): boolean {
  const check = checkFor(schema);
  return check !== undefined && data !== undefined && check(data);
}

function checkFor(schema: z.ZodType): Check | undefined {
  let check = checks.get(schema);
  if (check === undefined) {
    check = compile(schema) ?? null;
    checks.set(schema, check);
  }
  return check ?? undefined;
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The field's check with its optionality: `.optional()` and `.default()` let it be absent. */
function field(schema: z.ZodType): Field {
  const def = defOf(schema);
  if ((def.type === 'optional' || def.type === 'default') && !def.checks?.length) {
    return { optional: true, check: checkFor(def.innerType as z.ZodType) };
  }
  return { optional: false, check: checkFor(schema) };
}

function compile(schema: z.ZodType): Check | undefined {
  const def = defOf(schema);
  const bounds = def.type === 'number' ? numberChecks(def) : def.checks?.length ? undefined : [];
  if (!bounds) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      // zod refuses NaN and the infinities (`.inf` in YAML).
      return (v) => typeof v === 'number' && Number.isFinite(v) && bounds.every((ok) => ok(v));
    case 'enum':
    case 'literal': {
      const values = (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values;
      return values ? (v) => values.has(v) : undefined;
    }
    case 'union': {
      // Plain unions of leaves only (text is string | number | boolean): no discriminator, no exclusive
      // union, no sections inside (whose nulls dropNullFields would not drop).
      if (def.discriminator !== undefined || def.inclusive === false) return undefined;
      const options = (def.options as z.ZodType[]).map((o) => (['string', 'number', 'boolean', 'enum', 'literal'].includes(defOf(o).type) ? checkFor(o) : undefined));
      if (options.some((o) => o === undefined)) return undefined;
      return (v) => options.some((o) => o!(v));
    }
    case 'pipe': {
      // Only text()'s `.transform(String)`, which cannot fail; any other transform or preprocess is opaque.
      const out = defOf(def.out as z.ZodType);
      if (out.type !== 'transform' || out.transform !== String) return undefined;
      return checkFor(def.in as z.ZodType);
    }
    case 'array': {
      const element = checkFor(def.element as z.ZodType);
      return element ? (v) => Array.isArray(v) && v.every((item) => item !== undefined && element(item)) : undefined;
    }
    case 'object':
      return objectCheck(def);
    default:
      return undefined;
  }
}

/** The number's known checks (whole number, bounds), or undefined when it has another. */
function numberChecks(def: Def): Array<(v: number) => boolean> | undefined {
  const out: Array<(v: number) => boolean> = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    if (c.when !== undefined) return undefined;
    if (c.check === 'number_format' && c.format === 'safeint') out.push((v) => Number.isSafeInteger(v));
    else if (c.check === 'greater_than' && typeof c.value === 'number') {
      const min = c.value;
      out.push(c.inclusive ? (v) => v >= min : (v) => v > min);
    } else if (c.check === 'less_than' && typeof c.value === 'number') {
      const max = c.value;
      out.push(c.inclusive ? (v) => v <= max : (v) => v < max);
    } else return undefined;
  }
  return out;
}

function objectCheck(def: Def): Check | undefined {
  const catchall = def.catchall === undefined ? 'strip' : defOf(def.catchall as z.ZodType).type;
  if (catchall !== 'strip' && catchall !== 'unknown' && catchall !== 'any') return undefined;
  const shape = def.shape as Record<string, z.ZodType>;
  const fields = Object.keys(shape).map((key) => [key, field(shape[key]!)] as const);
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
    const value = v as Record<string, unknown>;
    // A key that could reach the prototype is left to zod.
    if (Object.hasOwn(value, '__proto__')) return false;
    for (const [key, { optional, check }] of fields) {
      const present = Object.hasOwn(value, key) ? value[key] : undefined;
      if (present === undefined || present === null) {
        if (!optional) return false;
      } else if (!check || !check(present)) {
        return false;
      }
    }
    return true;
  };
}
