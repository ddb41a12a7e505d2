/**
 * Every schema keyword of spec 7.1 with its rule, in each dialect where it applies: one row
 * per case, giving the schema, the body and the exact problems expected.
 */
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/contract/index.js';
import { DIALECTS, problemsFor, RawJson } from './helpers.js';

interface Case {
  name: string;
  /** Dialects the row applies to; all three when left out. */
  dialects?: Dialect[];
  schema: unknown;
  schemas?: Record<string, unknown>;
  body: unknown;
  problems: string[];
}

const ALL_3X: Dialect[] = ['oas30', 'oas31'];
const BOOLEAN_BOUNDS: Dialect[] = ['oas30', 'swagger2'];

const cases: Case[] = [
  // type
  { name: 'string matches', schema: { type: 'string' }, body: 'a', problems: [] },
  { name: 'string vs integer', schema: { type: 'string' }, body: 3, problems: ['$: expected string, got integer'] },
  { name: 'number accepts fractions', schema: { type: 'number' }, body: 2.5, problems: [] },
  { name: 'number vs string', schema: { type: 'number' }, body: '2', problems: ['$: expected number, got string'] },
  { name: 'integer accepts a whole number written 3.0', schema: { type: 'integer' }, body: new RawJson('3.0'), problems: [] },
  { name: 'integer refuses 3.5', schema: { type: 'integer' }, body: 3.5, problems: ['$: expected integer, got number'] },
  { name: 'boolean vs string', schema: { type: 'boolean' }, body: 'true', problems: ['$: expected boolean, got string'] },
  { name: 'object vs array', schema: { type: 'object' }, body: [], problems: ['$: expected object, got array'] },
  { name: 'array vs object', schema: { type: 'array' }, body: {}, problems: ['$: expected array, got object'] },
  { name: 'unknown type passes', schema: { type: 'file' }, body: 12, problems: [] },
  { name: 'type list (3.1)', dialects: ['oas31'], schema: { type: ['string', 'integer'] }, body: true, problems: ['$: expected string or integer, got boolean'] },
  { name: 'type list with a match (3.1)', dialects: ['oas31'], schema: { type: ['string', 'integer'] }, body: 4, problems: [] },
  { name: 'type list is not checked before 3.1', dialects: BOOLEAN_BOUNDS, schema: { type: ['string', 'integer'] }, body: true, problems: [] },
  { name: 'type null (3.1)', dialects: ['oas31'], schema: { type: 'null' }, body: 1, problems: ['$: expected null, got integer'] },

  // null
  { name: 'null refused by a typed schema', schema: { type: 'string' }, body: null, problems: ['$ is null, but the spec does not allow null'] },
  { name: 'nullable: true allows null (3.0)', dialects: ['oas30'], schema: { type: 'string', nullable: true }, body: null, problems: [] },
  { name: 'nullable is not a 3.1 keyword', dialects: ['oas31'], schema: { type: 'string', nullable: true }, body: null, problems: ['$ is null, but the spec does not allow null'] },
  { name: 'x-nullable allows null (Swagger 2.0)', dialects: ['swagger2'], schema: { type: 'string', 'x-nullable': true }, body: null, problems: [] },
  { name: 'type list with null (3.1)', dialects: ['oas31'], schema: { type: ['string', 'null'] }, body: null, problems: [] },
  { name: 'type list with null, wrong type (3.1)', dialects: ['oas31'], schema: { type: ['string', 'null'] }, body: 1, problems: ['$: expected string or null, got integer'] },
  { name: 'no type and no enum allows null', schema: { description: 'anything' }, body: null, problems: [] },
  { name: 'no type, properties only, allows null', schema: { properties: { a: { type: 'string' } } }, body: null, problems: [] },
  { name: 'enum without null refuses null', schema: { enum: ['a', 'b'] }, body: null, problems: ['$ is null, but the spec does not allow null'] },
  { name: 'enum listing null allows null', schema: { type: 'string', enum: ['a', null] }, body: null, problems: [] },
  { name: 'nullable allOf wrapper (3.0)', dialects: ['oas30'], schema: { nullable: true, allOf: [{ $ref: '#/components/schemas/Pet' }] }, schemas: { Pet: { type: 'object' } }, body: null, problems: [] },
  { name: 'untyped allOf wrapper follows its members for null', schema: { allOf: [{ $ref: '#/components/schemas/Pet' }] }, schemas: { Pet: { type: 'object' } }, body: null, problems: ['$ is null, but the spec does not allow null'] },
  { name: 'nested null path', schema: { type: 'object', properties: { owner: { type: 'object', properties: { name: { type: 'string' } } } } }, body: { owner: { name: null } }, problems: ['$.owner.name is null, but the spec does not allow null'] },

  // enum and const
  { name: 'enum match', schema: { type: 'string', enum: ['cat', 'dog'] }, body: 'dog', problems: [] },
  { name: 'enum miss', schema: { type: 'string', enum: ['cat', 'dog'] }, body: 'cow', problems: ['$: "cow" is not one of the documented values'] },
  { name: 'enum numbers by value', schema: { type: 'number', enum: [1, 2.5] }, body: new RawJson('1.0'), problems: [] },
  { name: 'enum number miss', schema: { type: 'integer', enum: [1, 2] }, body: 3, problems: ['$: 3 is not one of the documented values'] },
  { name: 'enum of objects', schema: { enum: [{ a: 1, b: [2] }] }, body: { b: [2], a: 1 }, problems: [] },
  { name: 'enum of objects miss', schema: { enum: [{ a: 1 }] }, body: { a: 2 }, problems: ['$: {"a":2} is not one of the documented values'] },
  { name: 'long enum value is cut', schema: { enum: ['x'] }, body: 'y'.repeat(200), problems: [`$: "${'y'.repeat(78)}… is not one of the documented values`] },
  { name: 'const match', schema: { const: 'v1' }, body: 'v1', problems: [] },
  { name: 'const miss', schema: { const: 'v1' }, body: 'v2', problems: ['$: "v2" is not the documented value "v1"'] },

  // required, properties, additionalProperties
  { name: 'required present', schema: { type: 'object', required: ['id'] }, body: { id: 1 }, problems: [] },
  {
    name: 'required missing, nested',
    schema: { type: 'object', properties: { owner: { type: 'object', required: ['name', 'id'] } } },
    body: { owner: { id: 1 } },
    problems: ['$.owner is missing the required field `name`'],
  },
  {
    name: 'writeOnly required field may be missing',
    dialects: ALL_3X,
    schema: { type: 'object', required: ['id', 'password'], properties: { id: { type: 'integer' }, password: { type: 'string', writeOnly: true } } },
    body: { id: 1 },
    problems: [],
  },
  {
    name: 'writeOnly through a $ref',
    dialects: ALL_3X,
    schema: { type: 'object', required: ['secret'], properties: { secret: { $ref: '#/components/schemas/Secret' } } },
    schemas: { Secret: { type: 'string', writeOnly: true } },
    body: {},
    problems: [],
  },
  {
    name: 'properties checked, extra fields allowed by default',
    schema: { type: 'object', properties: { id: { type: 'integer' } } },
    body: { id: 'x', other: true },
    problems: ['$.id: expected integer, got string'],
  },
  {
    name: 'additionalProperties: false reports extra fields',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: false },
    body: { id: 1, extra: 1, 'two words': 2 },
    problems: ['$.extra is not in the spec', '$["two words"] is not in the spec'],
  },
  {
    name: 'additionalProperties schema checks extra fields',
    schema: { type: 'object', properties: { id: { type: 'integer' } }, additionalProperties: { type: 'integer' } },
    body: { id: 1, count: 'many' },
    problems: ['$.count: expected integer, got string'],
  },
  { name: 'a name listed twice in required', schema: { anyOf: [{ type: 'object', required: ['id', 'id'] }] }, body: { id: 1 }, problems: [] },
  { name: 'a name listed twice in required, missing', schema: { type: 'object', required: ['id', 'id'] }, body: {}, problems: ['$ is missing the required field `id`'] },
  {
    name: 'field names that objects inherit',
    schema: { type: 'object', required: ['constructor', 'toString'], properties: JSON.parse('{"constructor": {"type": "string"}, "__proto__": {"type": "integer"}}'), additionalProperties: false },
    body: new RawJson('{"constructor": 1, "__proto__": "x", "hasOwnProperty": true}'),
    problems: ['$.constructor: expected string, got integer', '$.__proto__: expected integer, got string', '$.hasOwnProperty is not in the spec', '$ is missing the required field `toString`'],
  },
  { name: 'additionalProperties: true', schema: { type: 'object', additionalProperties: true }, body: { anything: [1] }, problems: [] },

  // arrays
  { name: 'items checked with index paths', schema: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, body: [{ id: 1 }, { id: 'b' }], problems: ['$[1].id: expected integer, got string'] },
  { name: 'maxItems', schema: { type: 'array', maxItems: 2 }, body: [1, 2, 3], problems: ['$ has 3 items, more than the 2 allowed'] },
  { name: 'minItems', schema: { type: 'array', minItems: 2 }, body: [1], problems: ['$ has 1 items, fewer than the 2 required'] },
  { name: 'item 1,000 is checked', schema: { type: 'array', items: { type: 'integer' } }, body: [...Array(999).fill(1), 'x'], problems: ['$[999]: expected integer, got string'] },
  { name: 'items past the first 1,000 are not checked', schema: { type: 'array', items: { type: 'integer' } }, body: [...Array(1000).fill(1), 'x'], problems: [] },

  // strings
  { name: 'maxLength', schema: { type: 'string', maxLength: 3 }, body: 'abcd', problems: ['$ is longer than the documented maximum length'] },
  { name: 'maxLength counts characters, not UTF-16 units', schema: { type: 'string', maxLength: 3 }, body: '😀😀😀', problems: [] },
  { name: 'minLength', schema: { type: 'string', minLength: 2 }, body: 'a', problems: ['$ is shorter than the documented minimum length'] },
  { name: 'minLength counts characters', schema: { type: 'string', minLength: 2 }, body: '😀', problems: ['$ is shorter than the documented minimum length'] },

  // numbers
  { name: 'minimum', schema: { type: 'integer', minimum: 5 }, body: 4, problems: ['$: 4 is below the documented minimum 5'] },
  { name: 'minimum inclusive', schema: { type: 'integer', minimum: 5 }, body: 5, problems: [] },
  { name: 'maximum', schema: { type: 'number', maximum: 1.5 }, body: 2, problems: ['$: 2 is above the documented maximum 1.5'] },
  { name: 'boolean exclusiveMinimum (3.0, 2.0)', dialects: BOOLEAN_BOUNDS, schema: { type: 'integer', minimum: 10, exclusiveMinimum: true }, body: 10, problems: ['$: 10 must be above 10'] },
  { name: 'boolean exclusiveMaximum (3.0, 2.0)', dialects: BOOLEAN_BOUNDS, schema: { type: 'integer', maximum: 10, exclusiveMaximum: true }, body: 10, problems: ['$: 10 must be below 10'] },
  { name: 'numeric exclusiveMinimum ignored before 3.1', dialects: BOOLEAN_BOUNDS, schema: { type: 'integer', exclusiveMinimum: 10 }, body: 10, problems: [] },
  { name: 'numeric exclusiveMinimum (3.1)', dialects: ['oas31'], schema: { type: 'integer', exclusiveMinimum: 10 }, body: 10, problems: ['$: 10 must be above 10'] },
  { name: 'numeric exclusiveMaximum (3.1)', dialects: ['oas31'], schema: { type: 'integer', exclusiveMaximum: 10 }, body: 11, problems: ['$: 11 must be below 10'] },
  { name: 'boolean exclusiveMinimum ignored in 3.1', dialects: ['oas31'], schema: { type: 'integer', minimum: 10, exclusiveMinimum: true }, body: 10, problems: [] },

  // composition
  {
    name: 'allOf must match every schema',
    schema: { allOf: [{ type: 'object', required: ['a'] }, { type: 'object', required: ['b'] }] },
    body: {},
    problems: ['$ is missing the required field `a`', '$ is missing the required field `b`'],
  },
  { name: 'anyOf match', schema: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, body: 3, problems: [] },
  { name: 'anyOf no match', schema: { type: 'object', properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } } }, body: { v: true }, problems: ['$.v matches none of any of the anyOf schemas'] },
  { name: 'oneOf no match', schema: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] } }, body: ['a', -1], problems: ['$[1] matches none of one of the oneOf schemas'] },
  { name: 'oneOf matching several options passes', schema: { oneOf: [{ type: 'number' }, { type: 'integer' }] }, body: 3, problems: [] },

  // $ref
  {
    name: '$ref followed recursively',
    schema: { $ref: '#/components/schemas/Node' },
    schemas: { Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } },
    body: { name: 'root', children: [{ name: 'a', children: [{ children: [] }] }] },
    problems: ['$.children[0].children[0] is missing the required field `name`'],
  },
  {
    name: '$ref chain',
    schema: { $ref: '#/components/schemas/A' },
    schemas: { A: { $ref: '#/components/schemas/B' }, B: { type: 'integer' } },
    body: 'x',
    problems: ['$: expected integer, got string'],
  },
  { name: '$ref loop passes', schema: { $ref: '#/components/schemas/A' }, schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } }, body: 'x', problems: [] },
  { name: 'reference to another file is skipped', schema: { $ref: 'other.yaml#/Pet' }, body: 'x', problems: [] },
  { name: 'reference to nowhere is skipped', schema: { $ref: '#/components/schemas/Missing' }, body: 'x', problems: [] },
  {
    name: 'keywords beside $ref are ignored before 3.1',
    dialects: BOOLEAN_BOUNDS,
    schema: { $ref: '#/components/schemas/Id', maximum: 5 },
    schemas: { Id: { type: 'integer' } },
    body: 9,
    problems: [],
  },
  {
    name: 'keywords beside $ref apply in 3.1',
    dialects: ['oas31'],
    schema: { $ref: '#/components/schemas/Id', maximum: 5 },
    schemas: { Id: { type: 'integer' } },
    body: 9,
    problems: ['$: 9 is above the documented maximum 5'],
  },
  {
    name: 'required and properties beside $ref add to the target in 3.1',
    dialects: ['oas31'],
    schema: { $ref: '#/components/schemas/Pet', required: ['tag'], properties: { tag: { type: 'string' } } },
    schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    body: { tag: 3 },
    problems: ['$.tag: expected string, got integer', '$ is missing the required field `name`'],
  },
  {
    name: 'required beside $ref is checked in 3.1',
    dialects: ['oas31'],
    schema: { $ref: '#/components/schemas/Pet', required: ['tag'] },
    schemas: { Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } },
    body: { name: 'Rex' },
    problems: ['$ is missing the required field `tag`'],
  },
  {
    name: "a type list with 'null' beside $ref lets null through in 3.1; other values still meet the target",
    dialects: ['oas31'],
    schema: { type: 'object', properties: { a: { $ref: '#/components/schemas/Pet', type: ['object', 'null'] }, b: { $ref: '#/components/schemas/Pet', type: ['object', 'null'] } } },
    schemas: { Pet: { type: 'object', required: ['name'] } },
    body: { a: null, b: {} },
    problems: ['$.b is missing the required field `name`'],
  },
  {
    name: 'escaped pointer segments',
    schema: { $ref: '#/components/schemas/a~1b%20c' },
    schemas: { 'a/b c': { type: 'integer' } },
    body: 'x',
    problems: ['$: expected integer, got string'],
  },
  { name: 'false schema (3.1)', dialects: ['oas31'], schema: { type: 'object', properties: { gone: false } }, body: { gone: 1 }, problems: ['$.gone is not in the spec'] },

  // not checked
  {
    name: 'format, pattern, multipleOf, uniqueItems, min/maxProperties, not are not checked',
    schema: { type: 'object', minProperties: 5, maxProperties: 0, not: {}, properties: { d: { type: 'string', format: 'date', pattern: '^x$' }, n: { type: 'integer', multipleOf: 7 }, u: { type: 'array', uniqueItems: true } } },
    body: { d: 'nope', n: 3, u: [1, 1] },
    problems: [],
  },
];

describe('schema keywords', () => {
  for (const row of cases) {
    for (const dialect of row.dialects ?? DIALECTS) {
      it(`${row.name} [${dialect}]`, () => {
        expect(problemsFor(dialect, row.schema, row.body, row.schemas)).toEqual(row.problems);
      });
    }
  }
});
