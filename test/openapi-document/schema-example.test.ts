/**
 * The example generator against the contract check: a value generated from a schema (a mock's
 * answer, an imported request's body) must pass the check of that same schema, or the round trip
 * import → mock → run fails on Ferry's own example.
 */
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/contract/index.js';
import { ExampleGenerator, RefResolver } from '../../src/openapi-document/index.js';
import { documentWithSchema, problemsFor } from '../contract/helpers.js';

function generated(dialect: Dialect, schema: unknown): unknown {
  const root = documentWithSchema(dialect, schema);
  return new ExampleGenerator(new RefResolver(root), 'response').generate(schema);
}

const CASES: Array<{ dialect: Dialect; what: string; schema: Record<string, unknown> }> = [
  { dialect: 'oas31', what: 'minItems (a tic-tac-toe board)', schema: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'array', minItems: 3, maxItems: 3, items: { type: 'string', enum: ['.', 'X', 'O'] } } } },
  { dialect: 'oas30', what: 'a large minItems', schema: { type: 'array', minItems: 111, items: { type: 'object', properties: { a: { type: 'integer' } } } } },
  { dialect: 'oas30', what: 'maxItems 0', schema: { type: 'array', maxItems: 0, items: { type: 'string' } } },
  { dialect: 'oas30', what: 'minLength', schema: { type: 'string', minLength: 10 } },
  { dialect: 'oas30', what: 'maxLength', schema: { type: 'string', maxLength: 3 } },
  { dialect: 'swagger2', what: 'a boolean exclusiveMinimum', schema: { type: 'integer', minimum: 0, exclusiveMinimum: true } },
  { dialect: 'oas30', what: 'a boolean exclusiveMaximum', schema: { type: 'number', maximum: 0, exclusiveMaximum: true } },
  { dialect: 'oas31', what: 'a numeric exclusiveMaximum', schema: { type: 'integer', exclusiveMaximum: -5 } },
  { dialect: 'oas30', what: 'a maximum below zero with a minimum', schema: { type: 'integer', minimum: -10, maximum: -3 } },
  // GitHub's `PATCH /gists/{gist_id}`: the options only require fields the schema's own properties give.
  { dialect: 'oas30', what: 'anyOf options that only list required fields', schema: { type: 'object', anyOf: [{ required: ['description'] }, { required: ['files'] }], properties: { description: { type: 'string' }, files: { type: 'object' } } } },
  { dialect: 'oas31', what: 'oneOf options beside own properties', schema: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } }, oneOf: [{ type: 'object', required: ['a'], properties: { a: { type: 'integer' } } }] } },
  { dialect: 'oas30', what: 'default null on a field that does not allow null', schema: { type: 'object', properties: { a: { type: 'string', default: null }, b: { type: 'integer', default: null } } } },
  // Redoc's 3.1 demo: `photoUrls: {type: [string, integer, 'null'], default: []}`.
  { dialect: 'oas31', what: 'a list default on a field whose types allow no list', schema: { type: 'object', properties: { a: { type: ['string', 'integer', 'null'], default: [] }, b: { type: 'array', items: { type: 'string' }, default: {} } } } },
];

/** Objects nested `levels` deep, each requiring `url`, with optional children and lists of children (Spotify's chapters → images). */
function nested(levels: number): Record<string, unknown> {
  const image = { type: 'object', required: ['url'], properties: { url: { type: 'string' } } };
  let schema: Record<string, unknown> = image;
  for (let level = 0; level < levels; level++) {
    schema = { type: 'object', required: ['url'], properties: { url: { type: 'string' }, images: { type: 'array', items: image }, child: schema, children: { type: 'array', items: schema } } };
  }
  return schema;
}

describe('generated examples pass the contract check of their schema', () => {
  it('past the nesting limit, optional fields and lists are left out rather than sent as objects missing their required fields', () => {
    const schema = nested(12);
    const value = generated('oas30', schema);
    expect(problemsFor('oas30', schema, value)).toEqual([]);
    expect(JSON.stringify(value)).toContain('"images":[{"url":"string"}]');
  });

  it('keeps a field another allOf member requires, even when it is cut at the nesting limit (Spotify: paging → items)', () => {
    const schema = { allOf: [{ type: 'object', required: ['items'], properties: { total: { type: 'integer' } } }, { type: 'object', properties: { items: { type: 'array', items: nested(12) } } }] };
    const value = generated('oas30', schema) as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(['items', 'total']);
    expect(problemsFor('oas30', schema, value)).toEqual([]);
  });

  for (const { dialect, what, schema } of CASES) {
    it(`${what} (${dialect})`, () => {
      const value = generated(dialect, schema);
      expect(value).not.toBeUndefined();
      expect(problemsFor(dialect, schema, value)).toEqual([]);
    });
  }

  it('keeps a default of the right kind, plain values of any type among plain types (YAML reads an unquoted 10 as a number)', () => {
    expect(generated('oas30', { type: 'string', default: 10 })).toBe(10);
    expect(generated('oas31', { type: ['array', 'null'], default: [] })).toEqual([]);
    expect(generated('oas30', { default: { a: 1 } })).toEqual({ a: 1 });
  });

  it('keeps a null default where null is allowed', () => {
    expect(generated('oas30', { type: 'string', nullable: true, default: null })).toBeNull();
    expect(generated('oas31', { type: ['string', 'null'], default: null })).toBeNull();
  });

  it('still gives every required field when the value budget runs out (Box: a file with many optional fields before a required one)', () => {
    const wide = (prefix: string) => Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`${prefix}${i}`, { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, j) => [`f${j}`, { type: 'string' }])) }]));
    const schema = { type: 'object', required: ['late'], properties: { ...wide('early'), late: { type: 'object', required: ['accessed'], properties: { ...wide('inner'), accessed: { type: 'string' } } } } };
    const value = generated('oas30', schema) as Record<string, Record<string, unknown>>;
    expect(problemsFor('oas30', schema, value)).toEqual([]);
    expect(value.late!.accessed).toBe('string');
    expect(value.early0).toEqual(expect.objectContaining({ f0: 'string' }));
  });

  it('stays bounded: a huge minItems of objects is cut by the value budget', () => {
    const value = generated('oas30', { type: 'array', minItems: 1_000_000, items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } } }) as unknown[];
    expect(value.length).toBeGreaterThan(0);
    expect(value.length).toBeLessThanOrEqual(1000);
  });
});

describe('keywords beside a $ref (3.1 applies them with the reference; 3.0 and 2.0 ignore them)', () => {
  const schemas = {
    Id: { type: 'integer', example: 1 },
    Pet: { type: 'object', required: ['name'], properties: { id: { type: 'integer' }, name: { type: 'string' } } },
  };
  const generatedWith = (dialect: Dialect, schema: unknown, direction: 'request' | 'response' = 'response') =>
    new ExampleGenerator(new RefResolver(documentWithSchema(dialect, schema, schemas)), direction).generate(schema);

  it('an example, default or bound beside the reference gives the value in 3.1', () => {
    expect(generatedWith('oas31', { $ref: '#/components/schemas/Id', example: 42 })).toBe(42);
    expect(generatedWith('oas31', { $ref: '#/components/schemas/Id', default: 7 })).toBe(7);
    expect(generatedWith('oas31', { $ref: '#/components/schemas/Pet', examples: [{ name: 'Rex' }] })).toEqual({ name: 'Rex' });
    const bounded = { type: 'object', properties: { n: { $ref: '#/components/schemas/Count', minimum: 5 } } };
    const withCount = { ...schemas, Count: { type: 'integer' } };
    const value = new ExampleGenerator(new RefResolver(documentWithSchema('oas31', bounded, withCount)), 'response').generate(bounded);
    expect(value).toEqual({ n: 5 });
    expect(problemsFor('oas31', bounded, value, withCount)).toEqual([]);
  });

  it('properties and required beside the reference add to the target, and readOnly beside it leaves a field out of a request (3.1)', () => {
    const schema = { $ref: '#/components/schemas/Pet', required: ['tag'], properties: { tag: { type: 'string' } } };
    const value = generatedWith('oas31', schema);
    expect(value).toEqual({ id: 0, name: 'string', tag: 'string' });
    expect(problemsFor('oas31', schema, value, schemas)).toEqual([]);
    const withReadOnly = { type: 'object', properties: { id: { $ref: '#/components/schemas/Id', readOnly: true }, pet: { $ref: '#/components/schemas/Pet', type: ['object', 'null'] } } };
    expect(generatedWith('oas31', withReadOnly, 'request')).toEqual({ pet: { id: 0, name: 'string' } });
  });

  it('keeps ignoring them in 3.0 and Swagger 2.0', () => {
    for (const dialect of ['oas30', 'swagger2'] as const) {
      const ref = dialect === 'swagger2' ? '#/definitions/Id' : '#/components/schemas/Id';
      expect(generatedWith(dialect, { $ref: ref, example: 42 })).toBe(1);
      expect(generatedWith(dialect, { type: 'object', properties: { id: { $ref: ref, readOnly: true } } }, 'request')).toEqual({ id: 1 });
    }
  });
});
