/**
 * Realistic checks: the corpus contract pairs (an OpenAPI document + a collection whose saved
 * responses deliberately break it), answered over a real socket by a local server and fetched
 * with undici; and every corpus document read and every one of its operations checked once.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as httpRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractDocuments, checkResponse, contractTestFor, type ContractFolder } from '../../src/contract/index.js';
import { CORPUS } from '../support/corpus.js';



interface SavedResponse {
  name?: string;
  code: number;
  header?: Array<{ key: string; value: string }>;
  body?: string;
}
interface CollectionItem {
  name: string;
  request: { method: string; url: { path: string[] } };
  response: SavedResponse[];
}

/** What each saved response of the pairs must give; keyed by `<collection> <index>`. */
const EXPECTED: Record<string, { name: string; passed: boolean; message?: string }> = {
  'v21-allof-nested-required 0': {
    name: 'Matches the API spec (GET /api/inheritancetest -> 200)',
    passed: false,
    message: '$.specificType is missing the required field `grandParentTypeData`',
  },
  'v21-exclusive-minimum 0': { name: 'Matches the API spec (POST /test -> 200)', passed: false, message: '$.objectType: 10 must be above 10' },
  // `default`, answered with text/plain: status only.
  'v21-exclusive-minimum 1': { name: 'Matches the API spec (POST /test -> 500)', passed: true },
};

const PAIRS = [
  { collection: 'v21-allof-nested-required', document: 'oas30-allof-nested-required.json' },
  { collection: 'v21-exclusive-minimum', document: 'oas31-exclusive-minimum.yaml' },
];

describe('corpus contract pairs over HTTP', () => {
  let server: Server;
  let base: string;
  const saved = new Map<string, SavedResponse>();

  beforeAll(async () => {
    // Answers `/<path>?saved=<collection> <index>` with that saved response, as recorded.
    server = createServer((incoming, outgoing) => {
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      const response = saved.get(url.searchParams.get('saved') ?? '');
      if (!response) return outgoing.writeHead(599).end();
      outgoing.writeHead(response.code, Object.fromEntries((response.header ?? []).map((header) => [header.key, header.value])));
      outgoing.end(response.body ?? '');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  for (const pair of PAIRS) {
    it(`${pair.collection} against ${pair.document}`, async () => {
      const collection = JSON.parse(await readFile(path.join(CORPUS, 'postman', 'contract', `${pair.collection}.postman_collection.json`), 'utf8')) as { item: CollectionItem[] };
      const documents = new ContractDocuments(path.join(CORPUS, 'openapi'));
      const folderChain: ContractFolder[] = [{ openapi: { spec: `contract/${pair.document}` } }];
      let checked = 0;
      for (const item of collection.item) {
        const operation = `${item.request.method} /${item.request.url.path.join('/')}`;
        for (const [index, response] of item.response.entries()) {
          const key = `${pair.collection} ${index}`;
          saved.set(key, response);
          const answer = await httpRequest(`${base}/${item.request.url.path.join('/')}?saved=${encodeURIComponent(key)}`, { method: item.request.method });
          const body = new Uint8Array(await answer.body.arrayBuffer());
          const result = await contractTestFor({
            documents,
            request: { kind: 'http', openapi: { operation } },
            folderChain,
            response: { status: answer.statusCode, headers: answer.headers as Record<string, string | string[]>, body },
          });
          expect(result, key).toEqual(EXPECTED[key]);
          checked++;
        }
      }
      expect(checked).toBe(Object.keys(EXPECTED).filter((key) => key.startsWith(pair.collection)).length);
      expect(documents.parses).toBe(1);
    });
  }
});

describe('every corpus document', () => {
  const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

  it('is read, and each operation is checked without error', async () => {
    const names = (await readdir(path.join(CORPUS, 'openapi'))).filter((name) => /\.(json|ya?ml)$/.test(name));
    const documents = new ContractDocuments(path.join(CORPUS, 'openapi'));
    let operations = 0;
    const results = new Set<string>();
    for (const name of names) {
      const load = await documents.load(name);
      expect(load.ok, `${name}: ${load.ok ? '' : load.reason}`).toBe(true);
      if (!load.ok) continue;
      const paths = (load.loaded.document.root.paths ?? {}) as Record<string, Record<string, unknown>>;
      for (const [route, item] of Object.entries(paths)) {
        for (const method of METHODS) {
          if (!item || typeof item !== 'object' || !(method in item)) continue;
          const body = new TextEncoder().encode('{"id": 1, "items": [{"name": null}], "data": "x"}');
          const result = checkResponse(load.loaded, `${method.toUpperCase()} ${route}`, { status: 200, headers: { 'content-type': 'application/json' }, body });
          if (result) results.add(result.passed ? 'passed' : 'failed');
          operations++;
        }
      }
    }
    expect(operations).toBeGreaterThan(1000);
    // Real documents both accept and reject this body somewhere.
    expect([...results].sort()).toEqual(['failed', 'passed']);
  });
});
