/**
 * A misrouted run (a wrong base URL: the server answers 404 with a text page) against a document
 * whose operation has a `default` response with a JSON body. Spec 7.1 decides it: `default`
 * documents every status, and a response whose Content-Type is not JSON has its status checked
 * only, so `Matches the API spec` passes; the same 404 in JSON is checked against the schema. A
 * request's own test on the status is what catches the wrong URL (docs/contract.md). A real
 * OpenAPI document imported with `ferry import`, run with `ferry run` against a loopback server.
 */
import { promises as fs } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Pets, version: '1' }
servers: [{ url: 'http://127.0.0.1:1/v1' }]
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: the pets
          content:
            application/json:
              schema: { type: array, items: { type: object, required: [id], properties: { id: { type: integer } } } }
        default:
          description: an error
          content:
            application/json:
              schema: { type: object, required: [code, message], properties: { code: { type: integer }, message: { type: string } } }
`;

// Only /v1 is the API; anything else is a 404 page, in text or (under /json/) in JSON.
const server = createServer((request, response) => {
  const url = request.url ?? '/';
  if (url === '/v1/pets') response.writeHead(200, { 'content-type': 'application/json' }).end('[{"id":1}]');
  else if (url.startsWith('/json/')) response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
  else response.writeHead(404, { 'content-type': 'text/plain' }).end('Cannot GET ' + url);
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

interface Report {
  results: Array<{ status: number; passed: boolean; tests: Array<{ name: string; passed: boolean; message: string | null }> }>;
}

async function runAgainst(baseUrl: string): Promise<Report['results'][number]> {
  await isolatedDataDir();
  const ws = path.join(await tempDir(), 'ws');
  expect((await ferry(['init', ws])).code).toBe(0);
  await fs.writeFile(path.join(ws, 'pets.yaml'), DOCUMENT);
  const imported = await ferry(['-w', ws, 'import', path.join(ws, 'pets.yaml'), '--name', 'Pets'], ws);
  expect(imported.code, imported.stderr).toBe(0);
  const out = path.join(ws, 'out.json');
  await ferry(['-w', ws, 'run', 'Pets', '--var', `baseUrl=${baseUrl}`, '--out-json', out], ws);
  const report = JSON.parse(await fs.readFile(out, 'utf8')) as Report;
  expect(report.results).toHaveLength(1);
  return report.results[0]!;
}

describe('a run sent to the wrong base URL, the operation documenting `default` with a JSON body', () => {
  it('the right base URL: checked against the 200 schema and passes', async () => {
    const result = await runAgainst(`${base}/v1`);
    expect(result.tests).toEqual([{ name: 'Matches the API spec (GET /pets -> 200)', passed: true, message: null }]);
  });

  it('a 404 text page: `default` documents the status and a text answer has its status checked only (spec 7.1), so the check passes', async () => {
    const result = await runAgainst(`${base}/wrong`);
    expect(result.status).toBe(404);
    expect(result.tests).toEqual([{ name: 'Matches the API spec (GET /pets -> 404)', passed: true, message: null }]);
  });

  it('a 404 in JSON: its body is checked against the default schema, and the misrouted answer fails', async () => {
    const result = await runAgainst(`${base}/json`);
    expect(result.passed).toBe(false);
    expect(result.tests).toEqual([
      { name: 'Matches the API spec (GET /pets -> 404)', passed: false, message: '$ is missing the required field `code`\n$ is missing the required field `message`' },
    ]);
  });
});
