/** The status rule and the body rule of spec 7.1, in OpenAPI 3.0, 3.1 and Swagger 2.0. */
import { describe, expect, it } from 'vitest';
import { checkResponse, type ContractResponse } from '../../src/contract/index.js';
import { jsonResponse, load, textResponse } from './helpers.js';

const petSchema = { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } };

function oas3(version: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return load({ openapi: version, info: { title: 'T', version: '1' }, paths: { '/pets/{petId}': { get: { responses }, head: { responses } } }, ...extra });
}

const documented = (schema: unknown = petSchema) => ({ description: 'ok', content: { 'application/json': { schema } } });

describe('status rule', () => {
  const doc = oas3('3.0.0', {
    '200': documented(),
    '2xx': documented({ type: 'object', required: ['range'] }),
    '4XX': documented({ type: 'object', required: ['error'] }),
    default: documented({ type: 'object', required: ['fallback'] }),
  });
  const table: Array<[status: number, body: unknown, problems: string | undefined]> = [
    [200, { id: 1 }, undefined],
    [201, { range: true }, undefined],
    [201, {}, '$ is missing the required field `range`'],
    [404, { error: 'gone' }, undefined],
    [404, {}, '$ is missing the required field `error`'],
    [500, {}, '$ is missing the required field `fallback`'],
  ];
  for (const [status, body, problems] of table) {
    it(`${status} takes ${problems ?? 'a passing check'}`, () => {
      const result = checkResponse(doc, 'GET /pets/{petId}', jsonResponse(JSON.stringify(body), status));
      expect(result).toEqual({ name: `Matches the API spec (GET /pets/{petId} -> ${status})`, passed: problems === undefined, ...(problems ? { message: problems } : {}) });
    });
  }

  it('fails an undocumented status, listing the documented ones', () => {
    const result = checkResponse(oas3('3.1.0', { '200': documented(), '404': { description: 'no' } }), 'GET /pets/{petId}', jsonResponse('{}', 503));
    expect(result).toEqual({
      name: 'Matches the API spec (GET /pets/{petId} -> 503)',
      passed: false,
      message: 'The status 503 is not documented in the spec; documented: 200, 404',
    });
  });

  it('ignores vendor extensions among the responses', () => {
    const result = checkResponse(oas3('3.0.0', { '200': documented(), 'x-note': 'hi' }), 'GET /pets/{petId}', jsonResponse('{}', 418));
    expect(result?.message).toBe('The status 418 is not documented in the spec; documented: 200');
  });

  it('finds the operation when only path parameter names differ, and names it as the request does', () => {
    const result = checkResponse(oas3('3.0.0', { '200': documented() }), 'get /pets/{id}', jsonResponse('{"id":1}'));
    expect(result).toEqual({ name: 'Matches the API spec (GET /pets/{id} -> 200)', passed: true });
  });
});

describe('body rule', () => {
  const withTypes = oas3('3.0.3', {
    '200': {
      description: 'ok',
      content: {
        'application/xml': { schema: { type: 'object', required: ['xml'] } },
        'application/vnd.pet+json; version=2': { schema: { type: 'object', required: ['v2'] } },
        'application/json': { schema: { type: 'object', required: ['plain'] } },
      },
    },
  });
  const cases: Array<{ name: string; response: ContractResponse; passed: boolean; message?: string }> = [
    { name: 'the entry for the Content-Type, charset ignored', response: jsonResponse('{}', 200, 'application/json; charset=utf-8'), passed: false, message: '$ is missing the required field `plain`' },
    { name: 'the entry for a +json type, parameters on the document key ignored', response: jsonResponse('{}', 200, 'Application/Vnd.Pet+JSON'), passed: false, message: '$ is missing the required field `v2`' },
    { name: 'the first JSON-like entry when none is for the Content-Type', response: jsonResponse('{}', 200, 'application/problem+json'), passed: false, message: '$ is missing the required field `v2`' },
    { name: 'the first JSON-like entry when there is no Content-Type', response: textResponse('{}', 200, []), passed: false, message: '$ is missing the required field `v2`' },
    { name: 'status only when the response is not JSON', response: textResponse('<a/>', 200, [['content-type', 'application/xml']]), passed: true },
    { name: 'status only for text', response: textResponse('hello', 200, { 'Content-Type': 'text/plain' }), passed: true },
    { name: 'headers as a record', response: textResponse('{"plain":1}', 200, { 'content-type': 'application/json' }), passed: true },
    { name: 'headers as a record with repeated values', response: textResponse('{}', 200, { 'content-type': ['application/json', 'text/plain'] }), passed: false, message: '$ is missing the required field `plain`' },
    { name: 'an empty body when a schema is documented', response: jsonResponse(''), passed: false, message: 'The body is empty, but the spec documents one' },
    { name: 'a blank body counts as empty', response: jsonResponse(' \n'), passed: false, message: 'The body is empty, but the spec documents one' },
  ];
  for (const row of cases) {
    it(row.name, () => {
      const result = checkResponse(withTypes, 'GET /pets/{petId}', row.response);
      expect(result?.passed).toBe(row.passed);
      expect(result?.message).toBe(row.message);
    });
  }

  it('reports a body that is not JSON, with the parser detail', () => {
    const result = checkResponse(withTypes, 'GET /pets/{petId}', jsonResponse('{"plain": }'));
    expect(result?.passed).toBe(false);
    expect(result?.message).toMatch(/^The body is not valid JSON \(Unexpected token .*"\{"plain": \}"\)$/);
  });

  it('reads a UTF-8 byte order mark as nothing', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"plain":1}')]);
    expect(checkResponse(withTypes, 'GET /pets/{petId}', { status: 200, headers: [['Content-Type', 'application/json']], body: bytes })?.passed).toBe(true);
  });

  it('takes application/* and */* as JSON-like entries', () => {
    for (const key of ['application/*', '*/*']) {
      const doc = oas3('3.1.0', { '200': { description: 'ok', content: { 'text/html': { schema: { type: 'string' } }, [key]: { schema: petSchema } } } });
      expect(checkResponse(doc, 'GET /pets/{petId}', jsonResponse('{}'))?.message).toBe('$ is missing the required field `id`');
    }
  });

  it('checks the status only when the response has no content or the entry no schema', () => {
    for (const response of [{ description: 'none' }, { description: 'no schema', content: { 'application/json': {} } }]) {
      const doc = oas3('3.0.0', { '200': response });
      expect(checkResponse(doc, 'GET /pets/{petId}', jsonResponse('not json'))).toEqual({ name: 'Matches the API spec (GET /pets/{petId} -> 200)', passed: true });
    }
  });

  it('checks the status only for HEAD, whose answers have no body', () => {
    expect(checkResponse(oas3('3.0.0', { '200': documented() }), 'HEAD /pets/{petId}', jsonResponse(''))?.passed).toBe(true);
  });

  it('checks the status only for 204, 205 and 304, which HTTP sends without a body, when a range or default documents one', () => {
    const doc = oas3('3.0.0', { '2XX': documented(), '3XX': documented(), default: documented() });
    for (const status of [204, 205, 304]) {
      expect(checkResponse(doc, 'GET /pets/{petId}', textResponse('', status, [])), String(status)).toEqual({ name: `Matches the API spec (GET /pets/{petId} -> ${status})`, passed: true });
    }
    expect(checkResponse(doc, 'GET /pets/{petId}', textResponse('', 200, []))?.message).toBe('The body is empty, but the spec documents one');
  });

  it('checks the status only when the body schema is a reference it cannot follow (another file, nowhere, a loop)', () => {
    for (const ref of ['Pet.json', '#/components/schemas/Missing', '#/components/schemas/Loop']) {
      const doc = oas3('3.0.0', { '200': documented({ $ref: ref }) }, { components: { schemas: { Loop: { $ref: '#/components/schemas/Loop2' }, Loop2: { $ref: '#/components/schemas/Loop' } } } });
      // An empty body as the mock made from such a document sends it: nothing is known of the body.
      expect(checkResponse(doc, 'GET /pets/{petId}', textResponse('', 200, [])), ref).toEqual({ name: 'Matches the API spec (GET /pets/{petId} -> 200)', passed: true });
      expect(checkResponse(doc, 'GET /pets/{petId}', jsonResponse('{}'))?.passed, ref).toBe(true);
    }
    const swagger = load({ swagger: '2.0', info: { title: 'T', version: '1' }, paths: { '/pets': { get: { responses: { '200': { description: 'ok', schema: { $ref: 'Pet.json' } } } } } } });
    expect(checkResponse(swagger, 'GET /pets', textResponse('', 200, []))?.passed).toBe(true);
  });

  it('follows a response $ref into components', () => {
    const doc = oas3('3.0.0', { '404': { $ref: '#/components/responses/NotFound' } }, {
      components: { responses: { NotFound: documented({ type: 'object', required: ['message'] }) } },
    });
    expect(checkResponse(doc, 'GET /pets/{petId}', jsonResponse('{}', 404))?.message).toBe('$ is missing the required field `message`');
  });

  describe('Swagger 2.0', () => {
    const doc = load({
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      produces: ['application/json'],
      paths: {
        '/pets': {
          get: {
            responses: {
              '200': { description: 'ok', schema: { type: 'array', items: { $ref: '#/definitions/Pet' } } },
              '404': { $ref: '#/responses/NotFound' },
              '204': { description: 'nothing' },
            },
          },
        },
      },
      definitions: { Pet: petSchema },
      responses: { NotFound: { description: 'no', schema: { type: 'object', required: ['error'] } } },
    });

    it('checks the response schema', () => {
      expect(checkResponse(doc, 'GET /pets', jsonResponse('[{"id":1},{"id":"2"}]'))?.message).toBe('$[1].id: expected integer, got string');
    });
    it('follows a response $ref', () => {
      expect(checkResponse(doc, 'GET /pets', jsonResponse('{}', 404))?.message).toBe('$ is missing the required field `error`');
    });
    it('checks the status only without a schema, or for a response that is not JSON', () => {
      expect(checkResponse(doc, 'GET /pets', jsonResponse('', 204))?.passed).toBe(true);
      expect(checkResponse(doc, 'GET /pets', textResponse('<pets/>', 200, [['Content-Type', 'application/xml']]))?.passed).toBe(true);
    });
  });
});
