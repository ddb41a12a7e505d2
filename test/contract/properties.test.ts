/**
 * Properties over generated input: any JSON body against any schema built from the keywords
 * never throws and only yields well-formed problems; a schema inferred from a body accepts it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIALECTS, problemsFor } from './helpers.js';

const leafSchema = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null', 'file') }),
  fc.record({ type: fc.constant(['string', 'null']) }),
  fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }) }),
  fc.record({ const: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ minimum: fc.integer(), exclusiveMinimum: fc.oneof(fc.boolean(), fc.integer()) }, { requiredKeys: [] }),
  fc.record({ maxLength: fc.nat(5), minLength: fc.nat(5) }, { requiredKeys: [] }),
  fc.record({ nullable: fc.boolean(), 'x-nullable': fc.boolean() }, { requiredKeys: [] }),
  fc.constant({ $ref: '#/components/schemas/Node' }),
  fc.constant({ $ref: '#/components/schemas/Missing' }),
);

const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafSchema,
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.string({ maxLength: 4 }), tie('node'), { maxKeys: 3 }),
        required: fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('node')),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('node'), maxItems: fc.nat(4), minItems: fc.nat(2) }, { requiredKeys: ['type'] }),
    fc.record({ allOf: fc.array(tie('node'), { maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ oneOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

/** The tightest schema that still accepts `value`. */
function inferSchema(value: unknown): unknown {
  if (value === null) return { type: ['null'] };
  if (Array.isArray(value)) return { type: 'array', items: value.length ? { anyOf: value.map(inferSchema) } : {}, minItems: value.length, maxItems: value.length };
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return { type: 'object', properties: Object.fromEntries(entries.map(([key, inner]) => [key, inferSchema(inner)])), required: entries.map(([key]) => key), additionalProperties: false };
  }
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number', minimum: value, maximum: value };
  if (typeof value === 'string') return { type: 'string', enum: [value], maxLength: [...value].length, minLength: [...value].length };
  return { type: 'boolean', const: value };
}

const json = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('generated bodies and schemas', () => {
  it('never throws, and every problem names a body path or the body', () => {
    fc.assert(
      fc.property(fc.constantFrom(...DIALECTS), schema, schema, json, (dialect, root, node, body) => {
        const problems = problemsFor(dialect, root, body, { Node: node });
        expect(problems.length).toBeLessThanOrEqual(21);
        for (const line of problems) expect(line).toMatch(/^(\$|…and \d+ more problems?$)/);
      }),
      { numRuns: 300 },
    );
  });

  it('a schema inferred from a body accepts it (3.1, where type lists exist)', () => {
    fc.assert(
      fc.property(json, (body) => {
        expect(problemsFor('oas31', inferSchema(body), body)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('schemas that branch without end', () => {
  it('a composition that refers to itself is a cycle taken as matched, not followed again', () => {
    for (const dialect of DIALECTS) {
      const self = { $ref: '#/components/schemas/Node' };
      const node = { anyOf: [self, self, self], allOf: [self, self] };
      expect(problemsFor(dialect, self, { deep: [1, [2, [3]]] }, { Node: node })).toEqual([]);
      expect(problemsFor(dialect, { oneOf: [self, { type: 'string' }] }, 5, { Node: { oneOf: [self, self] } })).toEqual([]);
    }
  });

  it('options three wide and sixty levels deep end within the step budget (3^60 paths otherwise)', () => {
    // L0 = anyOf[L1, L1, L1], L1 = anyOf[L2, L2, L2], … L60 a string: every path fails at the end.
    const schemas: Record<string, unknown> = { L60: { type: 'string' } };
    for (let level = 59; level >= 0; level--) {
      const next = { $ref: `#/components/schemas/L${level + 1}` };
      schemas[`L${level}`] = { anyOf: [next, next, next] };
    }
    for (const root of [{ $ref: '#/components/schemas/L0' }, { allOf: [{ $ref: '#/components/schemas/L0' }, { type: 'boolean' }] }]) {
      const problems = problemsFor('oas31', root, true, schemas);
      for (const line of problems) expect(line).toMatch(/^\$/);
    }
    // The budget is per body: a later check of a plain schema still finds its problem.
    expect(problemsFor('oas31', { type: 'string' }, true, schemas)).toHaveLength(1);
  });
});
