/**
 * A mock's 404 names the route a request would match without its first path segments (found in
 * a journey: Swagger's Petstore imported as requests and as a mock; its `baseUrl` is
 * `http://petstore.swagger.io/v1`, the mock's routes are `/pets…`, so `baseUrl` pointed at the
 * mock with `/v1` kept got "No route … matches GET /v1/pets" for every request, with nothing
 * saying why). Real files: the corpus document imported by `ferry import`, the mock started by
 * `ferry run --start-servers`, requests over 127.0.0.1.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { CORPUS } from '../support/corpus.js';
import { freePort } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let temp: TempWorkspace;
let port: number;

beforeAll(async () => {
  temp = await makeWorkspace({});
  process.env.FERRY_DATA_DIR = temp.dataDir;
  const doc = path.join(CORPUS, 'openapi', 'swagger20-petstore.json');
  expect((await ferry(['-w', temp.root, 'import', doc])).code).toBe(0);
  expect((await ferry(['-w', temp.root, 'import', doc, '--as-server', '--name', 'pets'])).code).toBe(0);
  port = await freePort();
  const file = path.join(temp.root, 'servers', 'pets.yaml');
  await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(/^name: (.*)$/m, `name: $1\nport: ${port}\nautoStart: true`));
});
afterAll(() => temp.cleanup());

describe('the 404 of a mock API', () => {
  it('names the route the path would match without its base path, and says what to change', async () => {
    const run = await ferry(['-w', temp.root, 'run', '--start-servers', '-v', '-e', 'Swagger Petstore', '--var', `baseUrl=http://127.0.0.1:${port}/v1`, 'Swagger Petstore/pets/List all pets']);
    // (The run itself passes: the document's `default` response covers a 404, and the text body is not checked; spec 7.1.)
    expect(run.stdout).toContain(
      'No route of the mock API "Swagger Petstore" matches GET /v1/pets. Routes are tried in order; check their methods, paths and match conditions in servers/pets.yaml. Route "List all pets" answers GET /pets: this server\'s paths do not start with /v1. If the request\'s base URL (such as {{baseUrl}}) ends in /v1, point it at this server without /v1.',
    );
    // As the hint says: the same request, the base URL without /v1.
    const fixed = await ferry(['-w', temp.root, 'run', '--start-servers', '-e', 'Swagger Petstore', '--var', `baseUrl=http://127.0.0.1:${port}`, 'Swagger Petstore/pets/List all pets']);
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain('✓ Matches the API spec (GET /pets -> 200)');
  });

  it('a deeper base path and a parameter route; a path no route takes keeps the plain message', async () => {
    const run = await ferry(['-w', temp.root, 'run', '--start-servers', '-v', '-e', 'Swagger Petstore', '--var', `baseUrl=http://127.0.0.1:${port}/api/v1`, 'Swagger Petstore/pets/Info for a specific pet']);
    expect(run.stdout).toMatch(/matches GET \/api\/v1\/pets\/[^ ]+\. .* Route "Info for a specific pet" answers GET \/pets\/[^ ]+: this server's paths do not start with \/api\/v1\./);

    await temp.write('requests/Owners.yaml', { name: 'Owners', url: `http://127.0.0.1:${port}/v1/owners` });
    const none = await ferry(['-w', temp.root, 'run', '--start-servers', '-v', 'Owners']);
    expect(none.stdout).toContain('No route of the mock API "Swagger Petstore" matches GET /v1/owners. Routes are tried in order; check their methods, paths and match conditions in servers/pets.yaml.\n');
  });
});
