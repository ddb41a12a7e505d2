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
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

  it('an option that loops back to a schema being tried for the same value is no alternative; a member is no constraint', () => {
    for (const dialect of DIALECTS) {
      const self = ref('Node');
      const loose = { Node: { anyOf: [self, { type: 'string' }], allOf: [self, { type: ['string', 'integer'] }] } };
      expect(problemsFor(dialect, self, 'text', loose)).toEqual([]);
      expect(problemsFor(dialect, self, 5, loose)).toEqual(['$ matches none of any of the anyOf schemas']);
      // Through another schema: A = oneOf[B, integer], B = oneOf[A, boolean] is integer or boolean.
      const pair = { A: { oneOf: [ref('B'), { type: 'integer' }] }, B: { oneOf: [ref('A'), { type: 'boolean' }] } };
      expect(problemsFor(dialect, ref('A'), true, pair)).toEqual([]);
      expect(problemsFor(dialect, ref('A'), 'text', pair)).toEqual(['$ matches none of one of the oneOf schemas']);
      // Every option loops back: the list says nothing, as does an allOf of itself.
      const only = { Node: { anyOf: [self, self, self], allOf: [self, self] } };
      expect(problemsFor(dialect, self, { deep: [1, [2, [3]]] }, only)).toEqual([]);
      // Progress through the body is not a loop: a tree of nodes is checked all the way down.
      const tree = { Node: { type: 'object', properties: { children: { type: 'array', items: self } }, anyOf: [{ required: ['leaf'] }, { required: ['children'] }] } };
      expect(problemsFor(dialect, self, { children: [{ leaf: 1 }, { children: [{}] }] }, tree)).toEqual(['$.children[1].children[0] matches none of any of the anyOf schemas']);
    }
  });

  it('a schema reached by many routes is checked once per place: options three wide and sixty deep give the real answer', () => {
    // L0 = anyOf[L1, L1, L1], L1 = anyOf[L2, L2, L2], … L60 a string: 3^60 routes, all failing.
    const schemas: Record<string, unknown> = { L60: { type: 'string' } };
    for (let level = 59; level >= 0; level--) schemas[`L${level}`] = { anyOf: [ref(`L${level + 1}`), ref(`L${level + 1}`), ref(`L${level + 1}`)] };
    expect(problemsFor('oas31', ref('L0'), true, schemas)).toEqual(['$ matches none of any of the anyOf schemas']);
    expect(problemsFor('oas31', ref('L0'), 'text', schemas)).toEqual([]);
    expect(problemsFor('oas31', { allOf: [ref('L0'), { type: 'boolean' }] }, true, schemas)).toEqual(['$ matches none of any of the anyOf schemas']);
    // allOf twice over at every level of a nested body: each object is checked once per schema.
    // 2^25 routes; 25 levels of allOf and properties are 50 schema levels, within the 64 followed.
    const twice: Record<string, unknown> = { A25: { type: 'integer' } };
    for (let level = 24; level >= 0; level--) {
      const inner = { type: 'object', properties: { a: ref(`A${level + 1}`) } };
      twice[`A${level}`] = { allOf: [inner, { ...inner }] };
    }
    let body: unknown = 'leaf';
    for (let level = 0; level < 25; level++) body = { a: body };
    expect(problemsFor('oas31', ref('A0'), body, twice)).toEqual([`$${'.a'.repeat(25)}: expected integer, got string`]);
  });

  it('loops that cannot be remembered end within the step budget instead of hanging', () => {
    // Every level also loops back to L0, so no result is remembered: the budget ends the walk.
    const schemas: Record<string, unknown> = { L60: { type: 'string' } };
    for (let level = 59; level >= 0; level--) {
      const next = ref(`L${level + 1}`);
      schemas[`L${level}`] = { anyOf: [next, next, next, ref('L0')] };
    }
    for (const root of [ref('L0'), { allOf: [ref('L0'), { type: 'boolean' }] }]) {
      for (const line of problemsFor('oas31', root, true, schemas)) expect(line).toMatch(/^\$/);
    }
    // The budget is per body: a later check of a plain schema still finds its problem.
    expect(problemsFor('oas31', { type: 'string' }, true, schemas)).toEqual(['$: expected string, got boolean']);
  });

  it('a large plain body is checked to its last counted item (no budget spent on one schema per value)', () => {
    // 1,000 × 1,000 numbers: a million schema steps, the last one wrong.
    const rows = Array.from({ length: 1000 }, () => Array.from({ length: 1000 }, () => 1));
    rows[999]![999] = -1;
    const schema = { type: 'array', items: { type: 'array', items: { type: 'integer', minimum: 0 } } };
    expect(problemsFor('oas30', schema, rows)).toEqual(['$[999][999]: -1 is below the documented minimum 0']);
  });
});
