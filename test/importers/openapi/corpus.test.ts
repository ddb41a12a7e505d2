/** Every document of the shared corpus imports (or asks for a base URL), one request per operation. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentFromValue } from '../../../src/contract/index.js';
import { importOpenApi, NO_HOST_MESSAGE, parseSpecText, specVersionOf } from '../../../src/importers/openapi/index.js';
import { ImportError } from '../../../src/importers/types.js';
import { CORPUS, corpusDocuments, countOperations, requestsOf } from './helpers.js';

const documents = await corpusDocuments();

function hasHost(doc: Record<string, any>): boolean {
  if (doc.swagger) return typeof doc.host === 'string' && doc.host !== '';
  const url = doc.servers?.[0]?.url;
  return typeof url === 'string' && (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || url.startsWith('//') || /^\{[^}]+\}:\/\//.test(url));
}

describe('the OpenAPI corpus', () => {
  it('has documents to import', () => {
    expect(documents.length).toBeGreaterThanOrEqual(40);
  });

  for (const file of documents) {
    it(`imports ${path.relative(CORPUS, file)}`, async () => {
      const text = await fs.readFile(file, 'utf8');
      const parsed = parseSpecText(text, file);
      const data = parsed.data as Record<string, any>;
      const input = { document: data, format: parsed.format, version: specVersionOf(data)!.text, text, source: { label: file, path: file } };
      const operations = countOperations(data);
      let result;
      try {
        result = importOpenApi(input);
      } catch (error) {
        expect(error).toBeInstanceOf(ImportError);
        expect((error as Error).message).toBe(NO_HOST_MESSAGE);
        expect(hasHost(data)).toBe(false);
        result = importOpenApi({ ...input, baseUrl: 'https://api.example.test' });
        const env = result.environments[0]!.variables.find((v) => v.key === 'baseUrl');
        expect(String(env?.value)).toMatch(/^https:\/\/api\.example\.test/);
      }
      const requests = requestsOf(result);
      expect(requests.length).toBe(operations);
      expect(result.kind).toBe('openapi');
      expect(result.specs).toHaveLength(1);
      expect(result.specs[0]!.text).toBe(text);
      expect(result.specs[0]!.ext).toBe(file.endsWith('.json') ? 'json' : 'yaml');
      expect(result.specs[0]!.linkFolders?.[0]).toBe(result.items[0]);
      // The contract check finds every imported operation in the kept document.
      const loaded = documentFromValue(data, file);
      expect(loaded.ok).toBe(true);
      const withResponses = (op: string) => {
        const [method, p] = op.split(' ') as [string, string];
        const item = data.paths[p]?.$ref ? undefined : data.paths[p];
        return item === undefined || item[method.toLowerCase()]?.responses !== undefined;
      };
      for (const { request } of requests) {
        const operation = String(request.openapi?.operation);
        if (loaded.ok && withResponses(operation)) expect(loaded.loaded.document.findOperation(operation), operation).toBeDefined();
        expect(String(request.openapi?.operation)).toMatch(/^(GET|PUT|POST|DELETE|OPTIONS|HEAD|PATCH|TRACE) \/\S*/);
        expect(String(request.url)).toMatch(/^(\{\{baseUrl\}\}|https?:\/\/)/);
        // Method and path as the document says: the URL is the operation's path, parameters as {{variables}}.
        const [method, template] = operation.split(' ') as [string, string];
        expect(request.method ?? 'GET').toBe(method);
        const urlPath = String(request.url).replace(/^\{\{baseUrl\}\}/, '').replace(/^https?:\/\/[^/]+(\/[^?]*)?/, '').split('?')[0]!;
        const shape = (p: string) => p.replace(/\{\{[^}]+\}\}/g, '{}').replace(/\{[^}]+\}/g, '{}');
        if (String(request.url).startsWith('{{baseUrl}}')) expect(shape(urlPath), operation).toBe(shape(template));
        expect([...String(request.name)].length).toBeLessThanOrEqual(200);
      }
    }, 20_000);
  }
});
