/**
 * The round trip users expect: a corpus document imported as requests and as a mock server
 * (`ferry import --as-server`), the mock served on 127.0.0.1, and the imported requests run
 * against it with `ferry run`: every request the mock answers must pass `Matches the API spec`.
 * A failure is a defect of the import (parameters, bodies), the example generator, the mock or
 * the check. Documents whose own examples break their schemas (Slack, Box, Adyen) are left out.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDocument, stringify } from 'yaml';
import { main } from '../../src/cli/main.js';
import { CORPUS } from '../support/corpus.js';
import { makeWorkspace, serve } from '../servers/helpers.js';

const OPENAPI = path.join(CORPUS, 'openapi');
const dataDirBefore = process.env.FERRY_DATA_DIR;
const roots: string[] = [];

afterAll(async () => {
  if (dataDirBefore === undefined) delete process.env.FERRY_DATA_DIR;
  else process.env.FERRY_DATA_DIR = dataDirBefore;
  for (const root of roots) await fs.rm(root, { recursive: true, force: true });
});

async function ferry(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { output: { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false } });
  return { code, out, err };
}

/** Sets every `auth` under a folder to none: the mock does not check credentials, and OAuth would need a provider. */
async function withoutAuth(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await withoutAuth(full);
    else if (entry.name.endsWith('.yaml')) {
      const document = parseDocument(await fs.readFile(full, 'utf8'));
      if (document.has('auth')) {
        document.set('auth', { type: 'none' });
        await fs.writeFile(full, document.toString());
      }
    }
  }
}

interface Report {
  results: Array<{ path: string; status: number; tests: Array<{ name: string; passed: boolean; message: string | null }> }>;
}

async function roundTrip(file: string): Promise<{ checked: number; failures: string[] }> {
  const root = await makeWorkspace({ servers: {} });
  roots.push(root, `${root}-certs`);
  await fs.mkdir(path.join(root, 'requests'));
  process.env.FERRY_DATA_DIR = path.join(root, '.data');
  const document = path.isAbsolute(file) ? file : path.join(OPENAPI, file);
  const requests = await ferry(['-w', root, 'import', document, '--name', 'API', '--base-url', 'http://127.0.0.1:9']);
  expect(requests.code, requests.err).toBe(0);
  const server = await ferry(['-w', root, 'import', document, '--as-server', '--name', 'mock']);
  expect(server.code, server.err).toBe(0);
  await withoutAuth(path.join(root, 'requests'));
  const handle = await serve(root);
  expect(handle.failures).toEqual([]);
  const out = path.join(root, 'run.json');
  await ferry(['-w', root, 'run', 'API', '-e', 'API', '--var', `baseUrl=${handle.servers[0]!.url}`, '--timeout-ms', '5000', '--out-json', out]);
  const report = JSON.parse(await fs.readFile(out, 'utf8')) as Report;
  let checked = 0;
  const failures: string[] = [];
  for (const result of report.results) {
    const test = result.tests.find((t) => t.name.startsWith('Matches the API spec'));
    if (!test) continue;
    checked++;
    if (!test.passed) failures.push(`${result.path}: ${test.name}: ${test.message}`);
  }
  return { checked, failures };
}

const DOCUMENTS: Array<[file: string, checks: number]> = [
  ['oas30-petstore.yaml', 3],
  ['oas30-petstore-expanded.json', 4],
  ['swagger20-petstore.json', 3],
  ['swagger20-petstore-expanded.yaml', 4],
  ['oas30-link-example.yaml', 6],
  ['oas30-apisguru-xkcd.yaml', 2],
  ['oas30-readme-polymorphism.json', 13],
  ['oas30-readme-discriminators.yaml', 10],
  ['oas30-uspto.yaml', 3],
  ['oas31-tictactoe.yaml', 3],
  ['oas31-petstore.json', 19],
  ['oas31-redocly-museum.yaml', 8],
  // Keywords beside its `$ref`s (`type: number` beside an integer Id, titles) apply with them;
  // `photoUrls` has `default: []` though its types allow no list: the type's example is used.
  ['oas31-redoc-demo.yaml', 20],
  ['swagger20-instagram.yaml', 26],
  ['swagger20-redoc-demo.yaml', 19],
  ['oas30-spotify.yaml', 96],
  // Its schemas are in other files, which are never read: the mock answers without bodies, the check looks at the status.
  ['multifile/swagger20-petstore-separate/spec/swagger.json', 4],
];

describe('import → mock → run: every answer passes the contract check', () => {
  for (const [file, checks] of DOCUMENTS) {
    it(file, async () => {
      const { checked, failures } = await roundTrip(file);
      expect(failures).toEqual([]);
      expect(checked).toBe(checks);
    }, 60_000);
  }

  it('object query parameters (deepObject, form exploded or not) go out so the mock reads them', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-round-trip-'));
    roots.push(dir);
    const file = path.join(dir, 'objects.yaml');
    const object = { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } };
    await fs.writeFile(file, stringify({
      openapi: '3.0.3',
      info: { title: 'Objects', version: '1' },
      servers: [{ url: 'https://objects.example.test' }],
      paths: {
        '/deep': { get: { parameters: [{ name: 'filter', in: 'query', required: true, style: 'deepObject', schema: object }], responses: { 200: { description: 'ok' } } } },
        '/form': { get: { parameters: [{ name: 'point', in: 'query', required: true, schema: object }], responses: { 200: { description: 'ok' } } } },
        '/flat': { get: { parameters: [{ name: 'box', in: 'query', required: true, explode: false, schema: object }], responses: { 200: { description: 'ok' } } } },
      },
    }));
    expect(await roundTrip(file)).toEqual({ checked: 3, failures: [] });
  });

  it('array query parameters joined as collectionFormat and style say are read back by the mock', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-round-trip-'));
    roots.push(dir);
    const swagger = path.join(dir, 'swagger.yaml');
    const array = (name: string, collectionFormat?: string) => ({ name, in: 'query', required: true, type: 'array', items: { type: 'integer', maximum: 9 }, 'x-example': [1, 2], ...(collectionFormat ? { collectionFormat } : {}) });
    await fs.writeFile(swagger, stringify({
      swagger: '2.0', info: { title: 'Arrays', version: '1' }, host: 'arrays.example.test',
      paths: { '/a': { get: { parameters: [array('csv'), array('multi', 'multi'), array('pipes', 'pipes'), array('ssv', 'ssv'), array('tsv', 'tsv')], responses: { 200: { description: 'ok' } } } } },
    }));
    expect(await roundTrip(swagger)).toEqual({ checked: 1, failures: [] });
    const openapi = path.join(dir, 'openapi.yaml');
    const param = (name: string, extra: Record<string, unknown>) => ({ name, in: 'query', required: true, schema: { type: 'array', items: { type: 'integer', maximum: 9 } }, example: [1, 2], ...extra });
    await fs.writeFile(openapi, stringify({
      openapi: '3.0.3', info: { title: 'Arrays', version: '1' }, servers: [{ url: 'https://arrays.example.test' }],
      paths: { '/a': { get: { parameters: [param('form', {}), param('flat', { explode: false }), param('pipes', { style: 'pipeDelimited' }), param('spaces', { style: 'spaceDelimited' })], responses: { 200: { description: 'ok' } } } } },
    }));
    expect(await roundTrip(openapi)).toEqual({ checked: 1, failures: [] });
  });

  it('3.1 keywords beside $ref: the imported request, the mock\'s validation and answer, and the check agree', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-round-trip-'));
    roots.push(dir);
    const file = path.join(dir, 'siblings.yaml');
    const ref = (name: string, extra: Record<string, unknown> = {}) => ({ $ref: `#/components/schemas/${name}`, ...extra });
    const answer = { 200: { description: 'ok', content: { 'application/json': { schema: ref('Pet', { required: ['score'], properties: { score: ref('Count', { minimum: 2 }) } }) } } } };
    await fs.writeFile(file, stringify({
      openapi: '3.1.0',
      info: { title: 'Siblings', version: '1' },
      servers: [{ url: 'https://siblings.example.test' }],
      paths: {
        '/pets/{pet_id}': {
          parameters: [{ name: 'pet_id', in: 'path', required: true, schema: ref('Count', { minimum: 3 }) }],
          get: { parameters: [{ name: 'limit', in: 'query', required: true, schema: ref('Count', { minimum: 1, maximum: 9 }) }], responses: answer },
          put: { requestBody: { required: true, content: { 'application/json': { schema: ref('Pet', { required: ['tag'] }) } } }, responses: answer },
        },
      },
      components: {
        schemas: {
          Count: { type: 'integer', maximum: 100 },
          Pet: { type: 'object', required: ['id', 'name'], properties: { id: ref('Count', { readOnly: true }), name: { type: 'string', minLength: 2 }, tag: { type: ['string', 'null'] } } },
        },
      },
    }));
    expect(await roundTrip(file)).toEqual({ checked: 2, failures: [] });
  });

  // A walk that does not end runs into the test's timeout.
  it('GitHub (672 operations)', async () => {
    const { checked, failures } = await roundTrip('oas30-github.yaml');
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(650);
  }, 120_000);
});
