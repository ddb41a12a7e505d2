/**
 * Every message example in docs/contract.md is produced, word for word, by a real check in each
 * dialect it applies to: the user docs and the code cannot drift apart.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkResponse, type Dialect } from '../../src/contract/index.js';
import { DIALECTS, documentWithSchema, jsonResponse, load, problemsFor } from './helpers.js';

const DOCS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/contract.md');

/** The code spans of the second column of the table under `## Messages`. */
function documentedExamples(): string[] {
  const text = readFileSync(DOCS, 'utf8');
  const section = text.slice(text.indexOf('## Messages'), text.indexOf('\n## ', text.indexOf('## Messages') + 1));
  const rows = section.split('\n').filter((line) => line.startsWith('|')).slice(2);
  return rows.flatMap((row) => {
    const cell = row.split(' | ')[1] ?? '';
    return [...cell.matchAll(/``\s?(.+?)\s?``|`([^`]+)`/g)].map((match) => match[1] ?? match[2]!);
  });
}

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, ...extra });

/** How to get each documented message: a schema and a body, or a whole response. */
const producers: Record<string, { dialects?: Dialect[]; run: (dialect: Dialect) => string[] }> = {
  'The body is empty, but the spec documents one': { run: (d) => lines(d, jsonResponse('')) },
  'The body is not valid JSON (Unexpected token \'}\', "{"id": }")': { run: (d) => lines(d, jsonResponse('{"id": }')) },
  '$.id: expected integer, got string': { run: (d) => problemsFor(d, object({ id: { type: 'integer' } }), { id: '7' }) },
  '$.owner is missing the required field `name`': { run: (d) => problemsFor(d, object({ owner: { type: 'object', required: ['name'] } }), { owner: {} }) },
  '$.status: "lost" is not one of the documented values': { run: (d) => problemsFor(d, object({ status: { type: 'string', enum: ['open', 'paid'] } }), { status: 'lost' }) },
  '$.kind: "cash" is not the documented value "card"': { run: (d) => problemsFor(d, object({ kind: { const: 'card' } }), { kind: 'cash' }) },
  '$.extra is not in the spec': { run: (d) => problemsFor(d, object({ id: {} }, { additionalProperties: false }), { id: 1, extra: 2 }) },
  '$.owner.name is null, but the spec does not allow null': { run: (d) => problemsFor(d, object({ owner: object({ name: { type: 'string' } }) }), { owner: { name: null } }) },
  '$.payment matches none of one of the oneOf schemas': {
    run: (d) => problemsFor(d, object({ payment: { oneOf: [{ $ref: '#/components/schemas/Card' }, { type: 'string' }] } }), { payment: { kind: 'cash' } }, { Card: { type: 'object', required: ['last4'] } }),
  },
  '$.value matches none of any of the anyOf schemas': { run: (d) => problemsFor(d, object({ value: { anyOf: [{ type: 'string' }, { type: 'integer' }] } }), { value: false }) },
  '$.tags has 12 items, more than the 10 allowed': { run: (d) => problemsFor(d, object({ tags: { type: 'array', maxItems: 10 } }), { tags: Array(12).fill('t') }) },
  '$.tags has 0 items, fewer than the 1 required': { run: (d) => problemsFor(d, object({ tags: { type: 'array', minItems: 1 } }), { tags: [] }) },
  '$.name is longer than the documented maximum length': { run: (d) => problemsFor(d, object({ name: { type: 'string', maxLength: 3 } }), { name: 'Rover' }) },
  '$.code is shorter than the documented minimum length': { run: (d) => problemsFor(d, object({ code: { type: 'string', minLength: 3 } }), { code: 'x' }) },
  '$.age: -1 is below the documented minimum 0': { run: (d) => problemsFor(d, object({ age: { type: 'integer', minimum: 0 } }), { age: -1 }) },
  '$.age: 200 is above the documented maximum 150': { run: (d) => problemsFor(d, object({ age: { type: 'integer', maximum: 150 } }), { age: 200 }) },
  '$.price: 0 must be above 0': {
    run: (d) => problemsFor(d, object({ price: d === 'oas31' ? { type: 'number', exclusiveMinimum: 0 } : { type: 'number', minimum: 0, exclusiveMinimum: true } }), { price: 0 }),
  },
  '$.ratio: 1 must be below 1': {
    run: (d) => problemsFor(d, object({ ratio: d === 'oas31' ? { type: 'number', exclusiveMaximum: 1 } : { type: 'number', maximum: 1, exclusiveMaximum: true } }), { ratio: 1 }),
  },
  'The status 418 is not documented in the spec; documented: 200, 404': {
    run: (d) => {
      const document = documentWithSchema(d, { type: 'object' }) as { paths: Record<string, { get: { responses: Record<string, unknown> } }> };
      document.paths['/things']!.get.responses['404'] = { description: 'not found' };
      return lines(d, jsonResponse('{}', 418), document);
    },
  },
};

function lines(dialect: Dialect, response: ReturnType<typeof jsonResponse>, document = documentWithSchema(dialect, { type: 'object' })): string[] {
  const result = checkResponse(load(document), 'GET /things', response);
  return result?.passed === false ? (result.message ?? '').split('\n') : [];
}

describe('docs/contract.md messages', () => {
  const examples = documentedExamples();

  it('lists the messages the tests know', () => {
    expect(examples.sort()).toEqual(Object.keys(producers).sort());
  });

  for (const example of examples) {
    for (const dialect of producers[example]?.dialects ?? DIALECTS) {
      it(`${example} [${dialect}]`, () => {
        expect(producers[example]!.run(dialect)).toEqual([example]);
      });
    }
  }
});
