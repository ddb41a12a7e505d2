/**
 * `dropNullFields` runs on every file a workspace opens; it was made cheaper (issue 21: plans
 * found once per schema, objects copied only when a null is dropped). It must give what the
 * plain walk gave: the reference below is that walk, kept here as the oracle.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dropNullFields, isPlainObject, unwrap } from '../../src/model/declare.js';
import { parseResource, RESOURCE_SCHEMAS } from '../../src/model/index.js';
import { parseYamlData } from '../../src/workspace/index.js';

function reference(schema: z.ZodType, value: unknown): unknown {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject && isPlainObject(value)) {
    const shape = inner.shape as Record<string, z.ZodType>;
    const out: Record<string, unknown> = {};
    // Defined: an assigned `__proto__` would set the prototype instead of a field.
    const put = (key: string, field: unknown) => Object.defineProperty(out, key, { value: field, enumerable: true, writable: true, configurable: true });
    for (const [key, field] of Object.entries(value)) {
      if (!(key in shape)) put(key, field);
      else if (field !== null) put(key, reference(shape[key]!, field));
    }
    return out;
  }
  if (inner instanceof z.ZodArray && Array.isArray(value)) return value.map((item) => reference(inner.element as z.ZodType, item));
  if (inner instanceof z.ZodDiscriminatedUnion && isPlainObject(value)) {
    const key = (inner.def as { discriminator: string }).discriminator;
    for (const option of inner.options as z.ZodType[]) {
      const opt = unwrap(option);
      if (!(opt instanceof z.ZodObject)) continue;
      const literal = (opt.shape as Record<string, z.ZodType>)[key];
      const lit = literal ? unwrap(literal) : undefined;
      if (lit instanceof z.ZodLiteral && lit.values.has(value[key] as never)) return reference(opt, value);
    }
  }
  return value;
}

const leaf = fc.oneof(fc.constant(null), fc.string({ maxLength: 3 }), fc.integer(), fc.boolean(), fc.constantFrom('bearer', 'basic', 'oauth2', 'json'));
const keys = fc.constantFrom('name', 'url', 'headers', 'auth', 'type', 'token', 'key', 'value', 'body', 'form', 'settings', 'scripts', 'toString', 'hasOwnProperty', '__proto__', 'other');
const data = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), fc.array(tie('node'), { maxLength: 3 })),
  // YAML readers build ordinary objects (never null-prototype ones).
  object: fc.dictionary(keys, tie('node'), { maxKeys: 5, noNullPrototype: true }),
})).object;

describe('dropNullFields', () => {
  it('property: gives what the plain walk gave, for every resource kind, and never changes its input', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(RESOURCE_SCHEMAS) as Array<keyof typeof RESOURCE_SCHEMAS>)), data, (kind, value) => {
        const before = structuredClone(value);
        const schema = RESOURCE_SCHEMAS[kind] as z.ZodType;
        const expected = reference(schema, value);
        expect(dropNullFields(schema, value)).toStrictEqual(expected);
        expect(value).toStrictEqual(before);
      }),
      { numRuns: 3000 },
    );
  });

  it('a file\'s `__proto__:` mapping stays an unknown field: its keys never read as the file\'s own (url, method)', () => {
    const parsed = parseYamlData('name: P\nseq: null\n__proto__:\n  url: http://127.0.0.1:9/from-proto\n  method: DELETE\n');
    if (!parsed.ok) throw new Error('fixture');
    const read = parseResource('request', parsed.data);
    expect(read.ok && read.value).toMatchObject({ name: 'P', url: '', method: 'GET', seq: 0 });
    expect(read.ok && Object.getPrototypeOf(read.value)).toBe(Object.prototype);
  });
});
