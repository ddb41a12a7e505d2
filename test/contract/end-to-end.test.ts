/**
 * End to end: corpus documents imported with `ferry import`, their requests run with `ferry run`
 * against a local server that answers some operations as documented and some not, and the
 * contract tests read back from the JSON and JUnit reports the run wrote.
 */
import { promises as fs } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { CORPUS } from '../support/corpus.js';

const OPENAPI = path.join(CORPUS, 'openapi');

/** The API as this test server answers it: `/v1` breaks the list, `/v2` breaks the errors, `/v4` answers all as documented. */
function answer(method: string, url: string): { status: number; type?: string; body?: string } {
  const [, version, rest] = /^\/(v\d)(\/.*)$/.exec(url.split('?')[0]!) ?? [];
  const json = (status: number, value: unknown) => ({ status, type: 'application/json', body: JSON.stringify(value) });
  if (rest === '/pets' && method === 'GET') return version === 'v1' ? json(200, [{ id: 1, name: 'Rex' }, { id: '2', name: 'Tom' }]) : json(200, [{ id: 1, name: 'Rex' }]);
  if (rest === '/pets' && method === 'POST') return { status: 201 };
  if (rest?.startsWith('/pets/') && method === 'GET') {
    if (version === 'v1') return json(200, { id: 7, name: 'Rex', tag: 'dog' });
    return version === 'v2' ? json(404, { code: 404 }) : json(404, { code: 404, message: 'no such pet' });
  }
  if (rest === '/test' && method === 'POST') return json(200, { objectType: 10 });
  return json(599, { unexpected: url });
}

/** Runs `ferry` in this process, keeping what it prints. */
async function ferry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { output: { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`), color: false } });
  return { code, stdout, stderr };
}

interface JsonReport {
  results: Array<{ path: string; passed: boolean; status: number; tests: Array<{ name: string; passed: boolean; message: string | null }> }>;
}

let server: Server;
let base: string;
let ws: TempWorkspace;
const dataDirBefore = process.env.FERRY_DATA_DIR;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const { status, type, body } = answer(request.method ?? 'GET', request.url ?? '/');
      response.writeHead(status, type ? { 'Content-Type': type } : {});
      response.end(body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ws = await makeWorkspace({});
  process.env.FERRY_DATA_DIR = ws.dataDir;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await ws.cleanup();
  if (dataDirBefore === undefined) delete process.env.FERRY_DATA_DIR;
  else process.env.FERRY_DATA_DIR = dataDirBefore;
});

/** Imports a corpus document, runs its folder with `baseUrl` pointed at the test server, and reads both reports. */
async function importAndRun(file: string, name: string, baseUrl: string) {
  const imported = await ferry(['-w', ws.root, 'import', path.join(OPENAPI, file), '--name', name]);
  expect(imported.code, imported.stderr).toBe(0);
  const out = path.join(ws.root, 'out', name);
  const run = await ferry(['-w', ws.root, 'run', name, '--var', `baseUrl=${baseUrl}`, '--var', 'petId=7', '--out-json', path.join(out, 'run.json'), '--out-junit', path.join(out, 'run.xml')]);
  const json = JSON.parse(await fs.readFile(path.join(out, 'run.json'), 'utf8')) as JsonReport;
  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(await fs.readFile(path.join(out, 'run.xml'), 'utf8'));
  const suites = [xml.testsuites.testsuite].flat() as Array<{ testcase: unknown }>;
  const cases = suites.flatMap((suite) => [suite.testcase].flat()) as Array<{ name: string; failure?: { message: string } }>;
  const contractTests = json.results.flatMap((result) => result.tests.filter((test) => test.name.startsWith('Matches the API spec')).map((test) => ({ path: result.path, requestPassed: result.passed, ...test })));
  // JUnit names each test case `<request name> - <test name>`.
  const junit = cases.filter((testcase) => testcase.name.includes(' - Matches the API spec')).map((testcase) => ({ name: testcase.name, failure: testcase.failure?.message ?? null }));
  return { code: run.code, contractTests, junit };
}

// The tests share one workspace and build on each other's imports, in order.
describe('contract check end to end', () => {
  it('OpenAPI 3.0 petstore: a wrong list fails, the rest passes', async () => {
    const { code, contractTests, junit } = await importAndRun('oas30-petstore.yaml', 'Petstore 3.0', `${base}/v1`);
    expect(code).toBe(1);
    expect(contractTests).toEqual([
      { path: 'Petstore 3.0/pets/List all pets.yaml', requestPassed: false, name: 'Matches the API spec (GET /pets -> 200)', passed: false, message: '$[1].id: expected integer, got string' },
      { path: 'Petstore 3.0/pets/Create a pet.yaml', requestPassed: true, name: 'Matches the API spec (POST /pets -> 201)', passed: true, message: null },
      { path: 'Petstore 3.0/pets/Info for a specific pet.yaml', requestPassed: true, name: 'Matches the API spec (GET /pets/{petId} -> 200)', passed: true, message: null },
    ]);
    expect(junit).toEqual([
      { name: 'List all pets - Matches the API spec (GET /pets -> 200)', failure: '$[1].id: expected integer, got string' },
      { name: 'Create a pet - Matches the API spec (POST /pets -> 201)', failure: null },
      { name: 'Info for a specific pet - Matches the API spec (GET /pets/{petId} -> 200)', failure: null },
    ]);
  });

  it('Swagger 2.0 petstore: an error answer missing a field fails', async () => {
    const { contractTests, junit } = await importAndRun('swagger20-petstore.json', 'Petstore 2.0', `${base}/v2`);
    expect(contractTests.map(({ name, passed, message, requestPassed }) => ({ name, passed, message, requestPassed }))).toEqual([
      { name: 'Matches the API spec (GET /pets -> 200)', passed: true, message: null, requestPassed: true },
      { name: 'Matches the API spec (POST /pets -> 201)', passed: true, message: null, requestPassed: true },
      { name: 'Matches the API spec (GET /pets/{petId} -> 404)', passed: false, message: '$ is missing the required field `message`', requestPassed: false },
    ]);
    expect(junit.find((testcase) => testcase.failure !== null)).toEqual({ name: 'Info for a specific pet - Matches the API spec (GET /pets/{petId} -> 404)', failure: '$ is missing the required field `message`' });
  });

  it('a documented 404 with a matching body passes: the request is judged by its check, not its status', async () => {
    const out = path.join(ws.root, 'out', 'documented-404.json');
    const run = await ferry(['-w', ws.root, 'run', 'Petstore 2.0', '--var', `baseUrl=${base}/v4`, '--var', 'petId=7', '--out-json', out]);
    const report = JSON.parse(await fs.readFile(out, 'utf8')) as JsonReport;
    const lookup = report.results.find((result) => result.status === 404)!;
    expect(lookup.tests).toEqual([{ name: 'Matches the API spec (GET /pets/{petId} -> 404)', passed: true, message: null }]);
    expect(lookup.passed).toBe(true);
    expect(run.code).toBe(0);
  });

  it('OpenAPI 3.1: a numeric exclusiveMinimum is enforced', async () => {
    const { contractTests, junit } = await importAndRun('contract/oas31-exclusive-minimum.yaml', 'Exclusive 3.1', `${base}/v3`);
    expect(contractTests.map(({ name, passed, message }) => ({ name, passed, message }))).toEqual([
      { name: 'Matches the API spec (POST /test -> 200)', passed: false, message: '$.objectType: 10 must be above 10' },
    ]);
    expect(junit).toEqual([{ name: 'schema with exclusiveMinimum - Matches the API spec (POST /test -> 200)', failure: '$.objectType: 10 must be above 10' }]);
  });

  it('switching the check off in the imported folder leaves no test', async () => {
    const folder = path.join(ws.root, 'requests', 'Petstore 3.0', '_folder.yaml');
    const text = await fs.readFile(folder, 'utf8');
    expect(text).toMatch(/spec: specs\//);
    await fs.writeFile(folder, text.replace(/openapi:\n/, 'openapi:\n  validate: false\n'));
    const out = path.join(ws.root, 'out', 'off.json');
    await ferry(['-w', ws.root, 'run', 'Petstore 3.0', '--var', `baseUrl=${base}/v1`, '--var', 'petId=7', '--out-json', out]);
    const report = JSON.parse(await fs.readFile(out, 'utf8')) as JsonReport;
    expect(report.results).toHaveLength(3);
    expect(report.results.flatMap((result) => result.tests.map((test) => test.name))).toEqual([]);
  });
});
