/**
 * A section of the format as a form draws it: each field's name, type, choices and default, read
 * from the section's one declaration (declare.ts). The app draws a request kind's option section
 * (spec 2.8) from this, so a new kind or field needs no change in the page.
 */
import { z } from 'zod';
import { defaultOf, text, unwrap } from './declare.js';

export type FormField = { name: string } & (
  /** Without a `default` the field is optional: empty text leaves it out. */
  | { type: 'text'; default?: string }
  | { type: 'flag'; default: boolean }
  | { type: 'number'; integer: boolean; min?: number; max?: number; default?: number }
  | { type: 'choice'; choices: Array<string | number>; default?: string | number }
  /** A list of texts (gRPC proto files). */
  | { type: 'texts' }
  /** A list of rows, each a small section of its own (MQTT subscriptions, MCP env). */
  | { type: 'rows'; fields: FormField[] }
  /** Anything the form cannot draw: left as the file has it. */
  | { type: 'other' }
);

const FINITE = (n: number | null | undefined): number | undefined => (n === null || n === undefined || !Number.isFinite(n) || Math.abs(n) >= Number.MAX_SAFE_INTEGER ? undefined : n);

/** The fields of a section (`section(...)` of declare.ts), in declared (written) order. */
export function formFields(schema: z.ZodType): FormField[] {
  const inner = unwrap(schema);
  if (!(inner instanceof z.ZodObject)) return [];
  return Object.entries(inner.shape as Record<string, z.ZodType>).map(([name, field]) => formField(name, field));
}

function formField(name: string, field: z.ZodType): FormField {
  const fallback = defaultOf(field);
  const inner = unwrap(field);
  if (inner === unwrap(text())) return { name, type: 'text', ...(typeof fallback.value === 'string' ? { default: fallback.value } : {}) };
  if (inner instanceof z.ZodBoolean) return { name, type: 'flag', default: fallback.value === true };
  if (inner instanceof z.ZodNumber) {
    const min = FINITE(inner.minValue);
    const max = FINITE(inner.maxValue);
    return { name, type: 'number', integer: inner.isInt, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...(typeof fallback.value === 'number' ? { default: fallback.value } : {}) };
  }
  const choices = choicesOf(inner);
  if (choices) return { name, type: 'choice', choices, ...(fallback.has ? { default: fallback.value as string | number } : {}) };
  if (inner instanceof z.ZodArray) {
    const element = unwrap(inner.element as z.ZodType);
    if (element === unwrap(text())) return { name, type: 'texts' };
    if (element instanceof z.ZodObject) return { name, type: 'rows', fields: formFields(element) };
  }
  return { name, type: 'other' };
}

/** An enum's values, or a union of literals' (`lengthBytes`: 1, 2 or 4). */
function choicesOf(schema: z.ZodType): Array<string | number> | undefined {
  if (schema instanceof z.ZodEnum) return schema.options as Array<string | number>;
  if (schema instanceof z.ZodUnion) {
    const values: Array<string | number> = [];
    for (const option of schema.options as z.ZodType[]) {
      if (!(option instanceof z.ZodLiteral)) return undefined;
      for (const v of option.values) if (typeof v === 'string' || typeof v === 'number') values.push(v);
    }
    return values;
  }
  return undefined;
}
