/** The limits of spec 8.1: 20 problems listed then a count, 64 schema levels, the message shapes as a whole. */
import { describe, expect, it } from 'vitest';
import { checkResponse } from '../../src/contract/index.js';
import { DIALECTS, documentWithSchema, jsonResponse, load, problemsFor, RawJson } from './helpers.js';

describe('problem list', () => {
  it('lists 20 problems, then counts the rest', () => {
    const body = Array.from({ length: 25 }, (_, index) => ({ id: `x${index}` }));
    const problems = problemsFor('oas30', { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } }, body);
    expect(problems).toHaveLength(21);
    expect(problems[0]).toBe('$[0].id: expected integer, got string');
    expect(problems[19]).toBe('$[19].id: expected integer, got string');
    expect(problems[20]).toBe('…and 5 more problems');
  });

  it('counts a huge number of problems without listing them', () => {
    // 40,000 items with two problems each: one per missing field.
    const body = Array.from({ length: 200 }, () => Array.from({ length: 200 }, () => ({})));
    const schema = { type: 'array', items: { type: 'array', items: { type: 'object', required: ['a', 'b'] } } };
    const problems = problemsFor('oas30', schema, body);
    expect(problems).toHaveLength(21);
    expect(problems[0]).toBe('$[0][0] is missing the required field `a`');
    expect(problems[20]).toBe('…and 79980 more problems');
  });

  it('lists exactly 20 problems whole, with no count after them (the limit, not one over)', () => {
    const problems = problemsFor('oas31', { type: 'array', items: { type: 'integer' } }, Array.from({ length: 20 }, () => 'x'));
    expect(problems).toHaveLength(20);
    expect(problems[19]).toBe('$[19]: expected integer, got string');
  });

  it('says "problem" for exactly one more', () => {
    const body = Array.from({ length: 21 }, () => 'x');
    const problems = problemsFor('oas31', { type: 'array', items: { type: 'integer' } }, body);
    expect(problems[20]).toBe('…and 1 more problem');
  });

  it('shows the same problem once when allOf members repeat it', () => {
    const member = { type: 'object', properties: { id: { type: 'integer' } } };
    expect(problemsFor('oas30', { allOf: [member, member] }, { id: 'x' })).toEqual(['$.id: expected integer, got string']);
  });

  it('fails with one problem per line in the test message', () => {
    const result = checkResponse(
      load(documentWithSchema('oas30', { type: 'object', required: ['a', 'b'] })),
      'GET /things',
      jsonResponse('{}'),
    );
    expect(result).toEqual({
      name: 'Matches the API spec (GET /things -> 200)',
      passed: false,
      message: '$ is missing the required field `a`\n$ is missing the required field `b`',
    });
  });
});

describe('schema nesting', () => {
  /** A body nested `levels` deep: {child: {child: ... {value}}}, with `value` at the bottom. */
  function nested(levels: number, value: unknown): unknown {
    let body: unknown = { value };
    for (let level = 0; level < levels; level++) body = { child: body };
    return body;
  }
  const schemas = {
    Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' }, value: { type: 'integer' } } },
  };

  for (const dialect of DIALECTS) {
    it(`checks a problem within 64 levels [${dialect}]`, () => {
      const problems = problemsFor(dialect, { $ref: '#/components/schemas/Node' }, nested(40, 'x'), schemas);
      expect(problems).toEqual([`$${'.child'.repeat(40)}.value: expected integer, got string`]);
    });

    it(`does not check below 64 levels [${dialect}]`, () => {
      expect(problemsFor(dialect, { $ref: '#/components/schemas/Node' }, nested(100, 'x'), schemas)).toEqual([]);
    });
  }

  /** `levels` schema levels, written inline (no $ref): the root is level 1, the innermost an integer. */
  function chain(levels: number): { schema: unknown; body: unknown } {
    let schema: unknown = { type: 'integer' };
    let body: unknown = 'x';
    for (let level = 1; level < levels; level++) {
      schema = { type: 'object', properties: { c: schema } };
      body = { c: body };
    }
    return { schema, body };
  }

  for (const dialect of DIALECTS) {
    it(`checks the 64th schema level and not the 65th (8.1, at the boundary) [${dialect}]`, () => {
      const at = chain(64);
      expect(problemsFor(dialect, at.schema, at.body)).toEqual([`$${'.c'.repeat(63)}: expected integer, got string`]);
      const over = chain(65);
      expect(problemsFor(dialect, over.schema, over.body)).toEqual([]);
    });
  }

  it('stops on a schema that only refers to itself through allOf', () => {
    const loop = { Loop: { allOf: [{ $ref: '#/components/schemas/Loop' }, { type: 'object' }] } };
    expect(problemsFor('oas31', { $ref: '#/components/schemas/Loop' }, 'x', loop)).toEqual(['$: expected object, got string']);
  });
});

describe('hostile bodies', () => {
  it('names a value too deeply nested to quote', () => {
    const deep = '['.repeat(20000) + ']'.repeat(20000);
    const problems = problemsFor('oas31', { enum: [1, 2] }, new RawJson(deep));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^\$: (\[…\]|\[\[.*…) is not one of the documented values$/);
  });

  it('checks a deeply nested body without running out of stack', () => {
    const deep = '{"child":'.repeat(5000) + '1' + '}'.repeat(5000);
    const schemas = { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } };
    expect(problemsFor('oas30', { $ref: '#/components/schemas/Node' }, new RawJson(deep), schemas)).toEqual([]);
  });
});
