/** One document reader under both the contract check and the importer: the same text gives the same data. */
import { describe, expect, it } from 'vitest';
import { parseDocumentText as contractRead } from '../../src/contract/index.js';
import { parseSpecText } from '../../src/importers/openapi/index.js';
import { OpenApiDocument, parseDocumentText, RefResolver } from '../../src/openapi-document/index.js';

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
