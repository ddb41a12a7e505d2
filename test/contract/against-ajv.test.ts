/**
 * The check's pass/fail agrees with ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) on
 * generated schemas and bodies, for the keywords where spec 7.1 and JSON Schema mean the same:
 * every keyword of the table except `oneOf` (checked like `anyOf` by the spec) and `$ref`
 * loops (ajv recurses without end). This is what shows that the walk's shortcuts (type-only
 * fields, remembered composition results) give the same answers as a plain interpretation;
 * each body is also checked with results remembered from the first member on.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Problems, SchemaChecker } from '../../src/contract/schema-check.js';
import { documentWithSchema, load, problemsFor } from './helpers.js';

/** The check with composition results remembered from the first member (normally only past a threshold). */
function problemsRemembering(root: unknown, value: unknown): string[] {
  const problems = new Problems();
  new SchemaChecker(load(documentWithSchema('oas31', root)).document, 0).check(value, root, problems);
  return problems.listed;
}

const number = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(0.5, -1.5, 2.0));
const leaf = fc.oneof(
  fc.record({ type: fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array', 'null') }),
  fc.record({ type: fc.subarray(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'], { minLength: 1, maxLength: 3 }) }),
  fc.record({ enum: fc.array(fc.jsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }) }),
  fc.record({ const: fc.jsonValue({ maxDepth: 1 }) }),
  fc.record({ minimum: number, maximum: number, exclusiveMinimum: number, exclusiveMaximum: number }, { requiredKeys: [] }),
  fc.record({ maxLength: fc.nat(4), minLength: fc.nat(4) }, { requiredKeys: [] }),
  fc.constant({}),
);

const schema = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.record(
      {
        type: fc.constant('object'),
        properties: fc.dictionary(fc.constantFrom('a', 'b', 'c', ''), tie('node'), { maxKeys: 3 }),
        required: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
        additionalProperties: fc.oneof(fc.boolean(), tie('node')),
      },
      { requiredKeys: [] },
    ),
    fc.record({ type: fc.constant('array'), items: tie('node'), maxItems: fc.nat(3), minItems: fc.nat(2) }, { requiredKeys: [] }),
    fc.record({ allOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
  ),
})).node;

const key = fc.constantFrom('a', 'b', 'c', 'd', '');
// Through JSON text, as a response body arrives (fc.dictionary may make objects without a prototype).
const body = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 1, -1, 2.5, 3, '', 'ab', 'abcde', 'é😀'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value.map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('pass or fail as ajv says (OpenAPI 3.1 / JSON Schema 2020-12)', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });

  it('on generated schemas and bodies', () => {
    fc.assert(
      fc.property(schema, body, (root, value) => {
        const ajvSays = ajv.validate(root as object, value);
        const problems = problemsFor('oas31', root, value);
        expect(problems.length === 0, `ajv: ${ajvSays ? 'valid' : ajv.errorsText(ajv.errors)}; Ferry: ${problems.join(' | ')}`).toBe(ajvSays);
        expect(problemsRemembering(root, value), 'remembering composition results changes nothing').toEqual(problems);
      }),
      { numRuns: 200 },
    );
  }, 30_000);

  it('on schemas shared by many routes (anyOf/allOf of the same schema, nested)', () => {
    // The same schema object reached twice at each level: Ferry remembers results per place.
    // Collected (allOf at the top) and probed (anyOf) results are reused in both directions.
    const shared = fc.oneof(
      schema.map((inner) => ({ anyOf: [{ allOf: [inner, inner] }, { allOf: [{ type: 'array', items: inner }, inner] }] })),
      schema.map((inner) => ({ allOf: [inner, inner, { anyOf: [inner, { type: 'null' }] }] })),
      schema.map((inner) => ({ allOf: [{ anyOf: [inner, { type: 'null' }] }, inner, inner] })),
    );
    fc.assert(
      fc.property(shared, body, (root, value) => {
        const ajvSays = ajv.validate(root as object, value);
        const problems = problemsFor('oas31', root, value);
        expect(problems.length === 0, `ajv: ${ajvSays ? 'valid' : ajv.errorsText(ajv.errors)}; Ferry: ${problems.join(' | ')}`).toBe(ajvSays);
        expect(problemsRemembering(root, value), 'remembering composition results changes nothing').toEqual(problems);
      }),
      { numRuns: 100 },
    );
  }, 30_000);
});
