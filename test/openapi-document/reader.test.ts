/** One document reader under both the contract check and the importer: the same text gives the same data. */
import { describe, expect, it } from 'vitest';
import { parseDocumentText as contractRead } from '../../src/contract/index.js';
import { parseSpecText } from '../../src/importers/openapi/index.js';
import { checkResponse } from '../../src/contract/index.js';
import { DocumentedAnswers, OpenApiDocument, parseDocumentText, RefResolver } from '../../src/openapi-document/index.js';
import { jsonResponse, load } from '../contract/helpers.js';

const YAML = 'openapi: 3.0.3\npaths:\n  /pets/{id}:\n    $ref: "#/components/pathItems/pet"\ncomponents:\n  pathItems:\n    pet:\n      get:\n        responses: { "200": { description: ok } }\n';

describe('the OpenAPI document reader', () => {
  it('reads JSON as JSON and everything else as YAML 1.2, a byte-order mark skipped', () => {
    expect(parseDocumentText('\ufeff{"openapi":"3.1.0"}')).toEqual({ data: { openapi: '3.1.0' }, format: 'json' });
    // Flow-style YAML starts with `{` too.
    expect(parseDocumentText('{openapi: 3.1.0}')).toMatchObject({ data: { openapi: '3.1.0' }, format: 'yaml' });
    expect(parseDocumentText(YAML).format).toBe('yaml');
  });

  it('gives the contract check and the importer the same data', () => {
    for (const text of [YAML, '{"swagger":"2.0","paths":{}}', 'a: 1\na: 2\n']) {
      expect(contractRead(text)).toEqual(parseSpecText(text, 'doc').data);
    }
  });

  it('follows local references the same way for both', () => {
    const root = parseDocumentText(YAML).data as Record<string, unknown>;
    const document = new OpenApiDocument(root, 'oas30');
    const refs = new RefResolver(root);
    const pathItem = (root.paths as Record<string, unknown>)['/pets/{id}'];
    expect(document.followRefs(pathItem)).toBe(refs.deref(pathItem));
    expect(document.findOperation('GET /pets/{petId}')?.responses).toEqual({ 200: { description: 'ok' } });
    expect(document.resolvePointer('other.yaml#/x')).toBeUndefined();
  });
});

describe('local references inside example values', () => {
  const root = {
    openapi: '3.0.3',
    paths: {
      '/repos': {
        get: {
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Repo' }, example: { name: 'hello', language: { $ref: '#/components/schemas/Resolution/enum/0' }, owner: { $ref: '#/components/examples/owner/value' } } } },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        Resolution: { type: 'string', nullable: true, enum: [null, 'fixed'] },
        Repo: { type: 'object', required: ['name', 'language', 'owner'], properties: { name: { type: 'string' }, language: { type: 'string', nullable: true }, owner: { type: 'object', required: ['login'], properties: { login: { type: 'string' } } } } },
      },
      examples: { owner: { value: { login: 'octocat', loop: { $ref: '#/components/examples/owner/value' } } } },
    },
  };

  it('are inlined as bundlers mean them (GitHub: `language: {$ref: …/enum/0}` is null), loops and other files left as written', () => {
    const refs = new RefResolver(root);
    expect(refs.inlineExampleRefs({ a: [{ $ref: '#/components/schemas/Resolution/enum/1' }], b: { $ref: 'other.yaml#/x' }, c: { $ref: '#/nowhere' }, d: { $ref: '#/components/schemas/Resolution/enum/0', note: 'not only a reference' } })).toEqual({
      a: ['fixed'],
      b: { $ref: 'other.yaml#/x' },
      c: { $ref: '#/nowhere' },
      d: { $ref: '#/components/schemas/Resolution/enum/0', note: 'not only a reference' },
    });
    const plain = { a: [1, { b: 2 }] };
    expect(refs.inlineExampleRefs(plain)).toBe(plain);
    expect(refs.inlineExampleRefs({ $ref: '#/components/examples/owner/value' })).toEqual({ login: 'octocat', loop: { $ref: '#/components/examples/owner/value' } });
  });

  it('make the mock answer with the value, which passes the contract check', () => {
    const document = new OpenApiDocument(root, 'oas30');
    const answer = new DocumentedAnswers(document).answer(document.findOperation('GET /repos')!.operation, '200', 200)!;
    expect(JSON.parse(answer.body)).toEqual({ name: 'hello', language: null, owner: { login: 'octocat', loop: { $ref: '#/components/examples/owner/value' } } });
    const check = checkResponse(load(root), 'GET /repos', jsonResponse(answer.body));
    expect(check).toEqual({ name: 'Matches the API spec (GET /repos -> 200)', passed: true });
  });

  it('stay bounded when references multiply (each level doubles the one below)', () => {
    const levels: Record<string, unknown> = { l0: 'x' };
    for (let level = 1; level <= 40; level++) levels[`l${level}`] = [{ $ref: `#/l${level - 1}` }, { $ref: `#/l${level - 1}` }];
    const refs = new RefResolver(levels);
    // Inlined in full, l40 is 2^40 copies of "x": the size of what is given counts the work.
    const text = JSON.stringify(refs.inlineExampleRefs({ $ref: '#/l40' }));
    expect(text.length).toBeLessThan(10_000_000);
  });
});

describe('answers in XML', () => {
  const pet = { type: 'object', xml: { name: 'pet' }, properties: { id: { type: 'integer', example: 7 }, name: { type: 'string', example: 'Rex' } } };

  it('an XML-only response is answered in XML, not JSON text under an XML Content-Type (OpenAPI 3 and Swagger 2.0)', () => {
    const oas = new OpenApiDocument({ openapi: '3.0.3', paths: { '/pet': { get: { responses: { '200': { description: 'ok', content: { 'application/xml': { schema: { $ref: '#/components/schemas/Pet' } } } } } } } }, components: { schemas: { Pet: pet } } }, 'oas30');
    const answer = new DocumentedAnswers(oas).answer(oas.findOperation('GET /pet')!.operation, '200', 200)!;
    expect(answer.mediaType).toBe('application/xml');
    expect(answer.body).toBe('<?xml version="1.0" encoding="UTF-8"?>\n<pet>\n  <id>7</id>\n  <name>Rex</name>\n</pet>');
    const swagger = new OpenApiDocument({ swagger: '2.0', produces: ['application/xml'], paths: { '/pet': { get: { responses: { '200': { description: 'ok', schema: { $ref: '#/definitions/Pet' } } } } } }, definitions: { Pet: pet } }, 'swagger2');
    const swaggerAnswer = new DocumentedAnswers(swagger).answer(swagger.findOperation('GET /pet')!.operation, '200', 200)!;
    expect(swaggerAnswer.body).toBe(answer.body);
  });

  it('an XML example written as text is sent as written', () => {
    const oas = new OpenApiDocument({ openapi: '3.0.3', paths: { '/pet': { get: { responses: { '200': { description: 'ok', content: { 'text/xml': { example: '<pet id="1"/>' } } } } } } } }, 'oas30');
    expect(new DocumentedAnswers(oas).answer(oas.findOperation('GET /pet')!.operation, '200', 200)!.body).toBe('<pet id="1"/>');
  });
});
