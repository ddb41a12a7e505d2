/**
 * A mock API generated from an OpenAPI document (issue 22), over real sockets: `ferry import
 * --as-server` on Petstore 3.0, 3.1 and Swagger 2.0 (and a large corpus document, timed), every
 * operation answering with its example, literal paths before parameters, each kind of request
 * problem answered 422 with its message, and `Prefer: code=` / `example=`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/cli/main.js';
import { convertInput } from '../../src/importers/index.js';
import { planServerUpdate } from '../../src/importers/openapi/index.js';
import { readWithLinkSwappedAtOpen } from '../support/link-swap.js';
import { exchanges, makeWorkspace, rawHead, send, serve } from './helpers.js';
import { CORPUS } from '../support/corpus.js';

// The Petstores and Stripe of the corpus copy (test/fixtures/corpus, with its licences).
const FIXTURES = path.join(CORPUS, 'openapi');
const LARGE = path.join(FIXTURES, 'oas30-stripe-spec3.json');

async function ferry(root: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['-w', root, ...args], { output: { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false } });
  return { code, out, err };
}

/** A workspace with the document imported as a server; returns the root and the server file's data. */
async function imported(document: string, name = 'api'): Promise<{ root: string; file: Record<string, any> }> {
  const root = await makeWorkspace({ servers: {} });
  await fs.mkdir(path.join(root, 'requests'), { recursive: true });
  const result = await ferry(root, 'import', document, '--as-server', '--name', name);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  const file = parse(await fs.readFile(path.join(root, 'servers', `${name}.yaml`), 'utf8'));
  return { root, file };
}

async function started(document: string): Promise<{ url: string; root: string; file: Record<string, any>; handle: Awaited<ReturnType<typeof serve>> }> {
  const { root, file } = await imported(document);
  const handle = await serve(root);
  if (handle.failures.length) throw new Error(handle.failures.map((f) => f.message).join('\n'));
  return { url: handle.servers[0]!.url, root, file, handle };
}

const json = (body: string) => JSON.parse(body);

describe('ferry import --as-server', () => {
  it('writes one route per operation, the document under specs/, linked from the server', async () => {
    const { root, file } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    expect(file.name).toBe('Swagger Petstore');
    expect(file.http.openapi).toEqual({ spec: 'specs/api.yaml' });
    expect(await fs.readFile(path.join(root, 'specs/api.yaml'), 'utf8')).toBe(await fs.readFile(path.join(FIXTURES, 'oas30-petstore.yaml'), 'utf8'));
    expect(file.http.routes.map((r: any) => `${r.method} ${r.path} ${r.status ?? 200}`)).toEqual(['GET /pets 200', 'POST /pets 201', 'GET /pets/:petId 200']);
    const list = file.http.routes[0];
    expect(list.headers).toEqual([{ key: 'Content-Type', value: 'application/json' }, { key: 'x-next', value: 'string' }]);
    expect(json(list.body)).toEqual([{ id: 0, name: 'string', tag: 'string' }]);
  });

  it('orders literal paths before parameters, keeping the document order otherwise (3.1)', async () => {
    const { file } = await imported(path.join(FIXTURES, 'oas31-petstore.json'));
    const paths = file.http.routes.map((r: any) => `${r.method} ${r.path}`);
    expect(paths.indexOf('GET /pet/findByStatus')).toBeLessThan(paths.indexOf('GET /pet/:petId'));
    expect(paths.indexOf('GET /user/login')).toBeLessThan(paths.indexOf('GET /user/:username'));
    expect(paths.indexOf('GET /user/logout')).toBeLessThan(paths.indexOf('GET /user/:username'));
    expect(paths[0]).toBe('POST /pet');
  });

  it('refuses --as-server for what is not an OpenAPI document, and with --curl', async () => {
    const root = await makeWorkspace({ servers: {} });
    await fs.mkdir(path.join(root, 'requests'), { recursive: true });
    const env = path.join(root, 'env.json');
    await fs.writeFile(env, JSON.stringify({ name: 'E', values: [{ key: 'a', value: '1' }], _postman_variable_scope: 'environment' }));
    const refused = await ferry(root, 'import', env, '--as-server');
    expect(refused.code).not.toBe(0);
    expect(refused.err).toMatch(/--as-server makes a mock API from an OpenAPI or Swagger document/);
    expect((await ferry(root, 'import', '--curl', 'curl http://x', '--as-server')).err).toMatch(/--as-server is for OpenAPI/);
  });

  it('generates the server file of a large document (Stripe, 3.7 MB)', async () => {
    // Generation: read, parse, one route per operation with its example (what --as-server adds).
    // Its time (target under 2 s) is measured by bench/mock-openapi.ts, not here: a loaded test machine is no clock.
    const result = await convertInput(LARGE, { asServer: true, name: 'stripe' });
    expect(result.servers![0]!.server.http!.routes!.length).toBeGreaterThan(300);
    // Then the CLI writes it (the 3.7 MB document is copied under specs/), and it starts.
    const root = await makeWorkspace({ servers: {} });
    await fs.mkdir(path.join(root, 'requests'), { recursive: true });
    expect((await ferry(root, 'import', LARGE, '--as-server', '--name', 'stripe')).code).toBe(0);
    const file = parse(await fs.readFile(path.join(root, 'servers/stripe.yaml'), 'utf8'));
    expect(file.http.routes.length).toBe(result.servers![0]!.server.http!.routes!.length);
    const handle = await serve(root);
    expect(handle.failures).toEqual([]);
    const answer = await send(`${handle.servers[0]!.url}/v1/customers/cus_123`);
    expect(answer.status).toBe(200);
    expect(json(answer.body)).toHaveProperty('object');
  }, 30_000);
});

describe('the generated mock answers', () => {
  for (const document of ['oas30-petstore.yaml', 'oas31-petstore.json', 'swagger20-petstore.json']) {
    it(`every operation of ${document} answers with its route's example`, async () => {
      const { url, file } = await started(path.join(FIXTURES, document));
      // A mock with no route would pass the loop below.
      expect(file.http.routes.length).toBeGreaterThan(0);
      for (const route of file.http.routes) {
        const target = route.path.replace(/:[^/]+/g, (name: string) => (/id$/i.test(name) ? '1' : 'someone'));
        const body = /^(POST|PUT|PATCH)$/.test(route.method) ? '{}' : undefined;
        const answer = await send(`${url}${target}`, { method: route.method, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
        // A request the document's schema refuses (an empty object for a Pet) gets 422: both are the document speaking.
        if (answer.status === 422) {
          expect(answer.headers['content-type']).toBe('application/problem+json');
          continue;
        }
        expect(answer.status, `${route.method} ${target}`).toBe(route.status ?? 200);
        if (route.method !== 'HEAD') expect(answer.body, `${route.method} ${target}`).toBe(route.body ?? '');
      }
    });
  }

  it('Twilio: paths with a parameter followed by .json in one segment are routes that answer, with their parameters', async () => {
    const { url, file, handle } = await started(path.join(FIXTURES, 'oas30-twilio-api-v2010.json'));
    expect(handle.failures).toEqual([]);
    const routes: { method: string; path: string; status?: number; body?: string }[] = file.http.routes;
    const index = (method: string, p: string) => routes.findIndex((r) => r.method === method && r.path === `/2010-04-01/Accounts/:AccountSid/${p}`);
    // The document lists /IncomingPhoneNumbers/{Sid}.json before /IncomingPhoneNumbers/Local.json: the literal one moves first.
    expect(index('GET', 'IncomingPhoneNumbers/Local.json')).toBeGreaterThanOrEqual(0);
    expect(index('GET', 'IncomingPhoneNumbers/Local.json')).toBeLessThan(index('GET', 'IncomingPhoneNumbers/{Sid}.json'));
    // A value each path parameter's pattern takes (`^CA[0-9a-fA-F]{32}$` → CA000…), so requests pass validation.
    const document = JSON.parse(await fs.readFile(path.join(FIXTURES, 'oas30-twilio-api-v2010.json'), 'utf8'));
    const valueOf = (documentPath: string, name: string) => {
      const item = document.paths[documentPath];
      const param = [...(item.parameters ?? []), ...(item.get.parameters ?? [])].find((p: any) => p.in === 'path' && p.name === name);
      const prefix = /^\^\(?([A-Z]{2})/.exec(param?.schema?.pattern ?? '')?.[1];
      return prefix === undefined ? 'US' : `${prefix}${'0'.repeat(32)}`;
    };
    let answered = 0;
    for (const route of routes.filter((r) => r.method === 'GET')) {
      const documentPath = route.path.replace(/:([^/]+)/g, '{$1}');
      const target = documentPath.replace(/\{([^{}]+)\}/g, (_, name: string) => valueOf(documentPath, name));
      const answer = await send(`${url}${target}`);
      expect(answer.status, `GET ${target}: ${answer.body.slice(0, 300)}`).toBe(route.status ?? 200);
      expect(answer.body, `GET ${target}`).toBe(route.body ?? '');
      answered++;
    }
    expect(answered).toBeGreaterThan(50);
    const local = await send(`${url}/2010-04-01/Accounts/AC${'0'.repeat(32)}/IncomingPhoneNumbers/Local.json`);
    expect(local.body).toBe(routes[index('GET', 'IncomingPhoneNumbers/Local.json')]!.body);
  }, 30_000);

  it('a literal path wins over a parameter over the wire', async () => {
    const { url } = await started(path.join(FIXTURES, 'oas31-petstore.json'));
    const login = await send(`${url}/user/login?username=a&password=b`);
    expect(login.status).toBe(200);
    // The login answer's documented headers (integer int32, string date-time; no examples), with their schemas' example values.
    expect([login.headers['x-rate-limit'], login.headers['x-expires-after']]).toEqual(['0', '2024-01-01T00:00:00Z']);
    const user = await send(`${url}/user/someone`);
    expect(json(user.body)).toHaveProperty('username');
  });
});

describe('request validation (validateRequests, on by default)', () => {
  it('a wrong query parameter type and a value above the maximum: 422 problem+json with each message', async () => {
    const { url, handle } = await started(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const wrongType = await send(`${url}/pets?limit=ten`);
    expect(wrongType.status).toBe(422);
    expect(wrongType.headers['content-type']).toBe('application/problem+json');
    const problem = json(wrongType.body);
    expect(problem).toMatchObject({ type: 'about:blank', title: 'Unprocessable Content', status: 422, operation: 'GET /pets' });
    expect(problem.problems).toEqual(['The query parameter `limit`: expected integer, got string']);
    expect(json((await send(`${url}/pets?limit=500`)).body).problems).toEqual(['The query parameter `limit`: 500 is above the documented maximum 100']);
    expect((await send(`${url}/pets?limit=10`)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 20));
    const invalid = exchanges(handle).find((record) => record.detail.status === 422)!;
    expect(invalid.note).toBe('request does not match the API spec');
    expect(invalid.detail).toMatchObject({ note: 'invalid', route: 'List all pets', problems: ['The query parameter `limit`: expected integer, got string'] });
  });

  it('a missing required body, a body that is not JSON, and every body problem at once', async () => {
    const { url } = await started(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const post = (body: string, type = 'application/json') => send(`${url}/pets`, { method: 'POST', body, headers: { 'content-type': type } });
    expect(json((await post('')).body).problems).toEqual(['The body is empty, but the spec requires one']);
    expect(json((await post('{oops')).body).problems[0]).toMatch(/^The body is not valid JSON \(/);
    const many = json((await post('{"id": "seven", "tag": 3}')).body);
    expect(many.problems).toEqual(['$.id: expected integer, got string', '$.tag: expected string, got integer', '$ is missing the required field `name`']);
    expect(many.detail).toBe('The request does not match the API spec for POST /pets: 3 problems.');
    expect(json((await post('<pet/>', 'application/xml')).body).problems).toEqual([
      'The Content-Type application/xml is not one the spec documents for this operation; documented: application/json',
    ]);
    expect((await post('{"id": 7, "name": "Rex"}')).status).toBe(201);
  });

  it('enums, required query parameters and required headers (3.1 and Swagger 2.0)', async () => {
    const { url } = await started(path.join(FIXTURES, 'oas31-petstore.json'));
    expect(json((await send(`${url}/pet/findByStatus?status=lost`)).body).problems).toEqual(['The query parameter `status`[0]: "lost" is not one of the documented values']);
    expect(json((await send(`${url}/pet/findByStatus`)).body).problems).toEqual(['The query parameter `status` is missing, but the spec requires it']);
    expect((await send(`${url}/pet/findByStatus?status=sold`)).status).toBe(200);
    expect(json((await send(`${url}/pet/abc`)).body).problems).toEqual(['The path parameter `petId`: expected integer, got string']);
    const swagger = await started(path.join(FIXTURES, 'swagger20-petstore.json'));
    expect(json((await send(`${swagger.url}/pets?limit=x`)).body).problems).toEqual(['The query parameter `limit`: expected integer, got string']);
  });

  it('a header parameter the operation requires', async () => {
    const root = await makeWorkspace({
      servers: { api: { name: 'API', http: { openapi: { spec: 'specs/doc.yaml' }, routes: [{ method: 'DELETE', path: '/pets/:petId', status: 204 }] } } },
      files: {
        'specs/doc.yaml': JSON.stringify({
          openapi: '3.0.3', info: { title: 'T', version: '1' },
          paths: { '/pets/{petId}': { delete: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'api_key', in: 'header', required: true, schema: { type: 'string' } }], responses: { 204: { description: 'gone' } } } } },
        }),
      },
    });
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    expect(json((await send(`${url}/pets/4`, { method: 'DELETE' })).body).problems).toEqual(['The header `api_key` is missing, but the spec requires it']);
    expect((await send(`${url}/pets/4`, { method: 'DELETE', headers: { 'api-key': 'x', api_key: 'k' } })).status).toBe(204);
  });

  it('keywords beside a $ref apply with it in 3.1 (answers and checks), and are ignored in 3.0', async () => {
    const documentFor = (openapi: string) =>
      JSON.stringify({
        openapi, info: { title: 'T', version: '1' },
        paths: {
          '/pets': {
            get: {
              parameters: [{ name: 'limit', in: 'query', schema: { $ref: '#/components/schemas/Count', maximum: 5 } }],
              responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', required: ['tag'], properties: { tag: { type: 'string', example: 'good' } } } } } } },
            },
            post: {
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', required: ['tag'] } } } },
              responses: { 201: { description: 'ok' } },
            },
          },
        },
        components: { schemas: { Count: { type: 'integer' }, Pet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' } } } } },
      });
    const routes = [{ method: 'GET', path: '/pets', body: 'route' }, { method: 'POST', path: '/pets', status: 201 }];
    const root = await makeWorkspace({
      servers: { v31: { name: 'v31', http: { openapi: { spec: 'specs/v31.json' }, routes } }, v30: { name: 'v30', http: { openapi: { spec: 'specs/v30.json' }, routes } } },
      files: { 'specs/v31.json': documentFor('3.1.0'), 'specs/v30.json': documentFor('3.0.3') },
    });
    const handle = await serve(root);
    const urlOf = (name: string) => handle.servers.find((server) => server.name === name)!.url;
    const post = (url: string, body: unknown) => send(`${url}/pets`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
    const v31 = urlOf('v31');
    expect(json((await send(`${v31}/pets`, { headers: { prefer: 'code=200' } })).body)).toEqual({ name: 'string', tag: 'good' });
    expect(json((await send(`${v31}/pets?limit=6`)).body).problems).toEqual(['The query parameter `limit`: 6 is above the documented maximum 5']);
    expect(json((await post(v31, { name: 'Rex' })).body).problems).toEqual(['$ is missing the required field `tag`']);
    expect((await post(v31, { name: 'Rex', tag: 'good' })).status).toBe(201);
    const v30 = urlOf('v30');
    expect(json((await send(`${v30}/pets`, { headers: { prefer: 'code=200' } })).body)).toEqual({ name: 'string', tag: 'string' });
    expect((await send(`${v30}/pets?limit=6`)).status).toBe(200);
    expect((await post(v30, { name: 'Rex' })).status).toBe(201);
  });

  it('validateRequests: false answers every request from the route', async () => {
    const { root, file } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    file.http.openapi.validateRequests = false;
    const { stringify } = await import('yaml');
    await fs.writeFile(path.join(root, 'servers/api.yaml'), stringify(file));
    const handle = await serve(root);
    expect((await send(`${handle.servers[0]!.url}/pets?limit=ten`)).status).toBe(200);
  });

  it('a route added by hand that matches no operation is not checked; an unreadable document stops the server', async () => {
    const { root, file } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    file.http.routes.push({ name: 'health', path: '/health', body: 'ok' });
    const { stringify } = await import('yaml');
    await fs.writeFile(path.join(root, 'servers/api.yaml'), stringify(file));
    const handle = await serve(root);
    expect((await send(`${handle.servers[0]!.url}/health?x=1`)).body).toBe('ok');
    await handle.stop();
    await fs.rm(path.join(root, 'specs/api.yaml'));
    const broken = await serve(root);
    expect(broken.failures.map((f) => f.message).join('\n')).toMatch(/servers\/api\.yaml:\d+:\d+: http\.openapi\.spec: the document specs\/api\.yaml cannot be read/);
  });
});

describe('Prefer', () => {
  it('code= chooses another documented response', async () => {
    const { url } = await started(path.join(FIXTURES, 'oas31-petstore.json'));
    const notFound = await send(`${url}/pet/1`, { headers: { prefer: 'code=404' } });
    expect(notFound.status).toBe(404);
    expect((await send(`${url}/pet/1`, { headers: { prefer: 'code=400' } })).status).toBe(400);
  });

  it('code= on a response with a schema gives its example; default stands for any code', async () => {
    const { url } = await started(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const error = await send(`${url}/pets`, { headers: { Prefer: 'code=503' } });
    expect(error.status).toBe(503);
    expect(error.headers['content-type']).toBe('application/json');
    expect(json(error.body)).toEqual({ code: 0, message: 'string' });
  });

  it('example= chooses a named example', async () => {
    const root = await makeWorkspace({
      servers: { api: { name: 'API', http: { openapi: { spec: 'specs/doc.json' }, routes: [{ method: 'GET', path: '/cats', body: 'route' }] } } },
      files: {
        'specs/doc.json': JSON.stringify({
          openapi: '3.1.0', info: { title: 'T', version: '1' },
          paths: { '/cats': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { examples: { tom: { value: { name: 'Tom' } }, felix: { value: { name: 'Felix' } } } } } } } } } },
        }),
      },
    });
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    expect((await send(`${url}/cats`)).body).toBe('route');
    expect(json((await send(`${url}/cats`, { headers: { prefer: 'example=felix' } })).body)).toEqual({ name: 'Felix' });
    expect(json((await send(`${url}/cats`, { headers: { prefer: 'code=200, example=tom' } })).body)).toEqual({ name: 'Tom' });
    const undocumented = await send(`${url}/cats`, { headers: { prefer: 'code=404' } });
    expect(undocumented.status).toBe(400);
    expect(json(undocumented.body).detail).toBe('Prefer asks for code=404, which the API spec does not document for GET /cats; documented: 200.');
    const unknown = await send(`${url}/cats`, { headers: { prefer: 'example=garfield' } });
    expect(unknown.status).toBe(400);
    expect(json(unknown.body).detail).toMatch(/example=garfield, which the 200 response of GET \/cats does not have; its examples: tom, felix/);
  });
  it("the document's header names go out as it spells them; a 422 too spells its own", async () => {
    const root = await makeWorkspace({
      servers: { api: { name: 'API', http: { openapi: { spec: 'specs/doc.json' }, routes: [{ method: 'GET', path: '/cats', body: 'route' }] } } },
      files: {
        'specs/doc.json': JSON.stringify({
          openapi: '3.1.0', info: { title: 'T', version: '1' },
          paths: {
            '/cats': {
              get: {
                parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }],
                responses: {
                  200: {
                    description: 'ok',
                    headers: { 'X-Rate-Limit': { schema: { type: 'integer', example: 100 } }, 'content-length': { schema: { type: 'integer', example: 1 } } },
                    content: { 'application/json': { example: { name: 'Tom' } } },
                  },
                },
              },
            },
          },
        }),
      },
    });
    const url = (await serve(root)).servers[0]!.url;
    const preferred = await rawHead(url, '/cats', { headers: { Prefer: 'code=200' } });
    expect(preferred[0]).toBe('HTTP/1.1 200 OK');
    expect(preferred.filter((line) => !line.startsWith('Connection'))).toEqual(['HTTP/1.1 200 OK', 'X-Rate-Limit: 100', 'Content-Type: application/json', expect.stringMatching(/^Content-Length: \d+$/)]);
    const invalid = await rawHead(url, '/cats?limit=many');
    expect(invalid.slice(0, 3)).toEqual(['HTTP/1.1 422 Unprocessable Entity', 'Content-Type: application/problem+json', expect.stringMatching(/^Content-Length: \d+$/)]);
  });
});

describe('ferry update on a generated server', () => {
  it('regenerates the routes you did not edit, keeps the edited one, adds and removes; --dry-run writes nothing', async () => {
    const { stringify } = await import('yaml');
    const { root, file } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    // A hand edit of one generated route, plus a route of your own.
    const showPet = file.http.routes.find((r: any) => r.path === '/pets/:petId');
    showPet.body = '{"id": 1, "name": "Mine"}';
    file.http.routes.push({ name: 'health', path: '/health', body: 'ok' });
    await fs.writeFile(path.join(root, 'servers/api.yaml'), `# my mock\n${stringify(file)}`);
    // The new version: Pet gains a field, POST /pets goes, GET /pets/mine arrives.
    const v2 = parse(await fs.readFile(path.join(FIXTURES, 'oas30-petstore.yaml'), 'utf8'));
    v2.components.schemas.Pet.properties.age = { type: 'integer', example: 3 };
    delete v2.paths['/pets'].post;
    v2.paths['/pets/mine'] = { get: { summary: 'My pets', responses: { 200: { description: 'ok', content: { 'application/json': { example: [{ id: 9, name: 'Own' }] } } } } } };
    const next = path.join(root, 'petstore-v2.yaml');
    await fs.writeFile(next, stringify(v2));

    const before = await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8');
    const dry = await ferry(root, 'update', 'api', '--from', next, '--dry-run');
    expect(dry.code).toBe(0);
    // The layout of a folder's update: the same sections, order and columns.
    expect(dry.out).toBe([
      `Update "Swagger Petstore" (servers/api.yaml) from ${next}`,
      '',
      'Added (1)',
      '  + GET /pets/mine  My pets',
      '',
      'Changed (2)',
      '  ~ GET /pets  List all pets',
      '      update: body',
      '  ~ GET /pets/:petId  Info for a specific pet',
      '      kept (your edits): body',
      '',
      'No longer in the spec (route removed) (1)',
      '  - POST /pets  Create a pet',
      '',
      'The kept document is replaced by this version.',
      '',
      'Dry run: nothing was written. Run again without --dry-run to update.',
      '',
    ].join('\n'));
    expect(await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8')).toBe(before);

    expect((await ferry(root, 'update', 'servers/api.yaml', '--from', next)).code).toBe(0);
    const text = await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8');
    expect(text.startsWith('# my mock\n')).toBe(true);
    const after = parse(text);
    expect(after.http.routes.map((r: any) => `${r.method ?? '*'} ${r.path}`)).toEqual(['GET /pets', 'GET /pets/mine', 'GET /pets/:petId', '* /health']);
    expect(JSON.parse(after.http.routes[0].body)[0]).toHaveProperty('age', 3);
    expect(after.http.routes[2].body).toBe('{"id": 1, "name": "Mine"}');
    expect(await fs.readFile(path.join(root, 'specs/api.yaml'), 'utf8')).toBe(stringify(v2));

    // Served: the new route answers, and the literal path wins over :petId.
    const handle = await serve(root);
    const url = handle.servers[0]!.url;
    expect(JSON.parse((await send(`${url}/pets/mine`)).body)).toEqual([{ id: 9, name: 'Own' }]);
    expect(JSON.parse((await send(`${url}/pets/5`)).body)).toEqual({ id: 1, name: 'Mine' });
    expect((await ferry(root, 'update', 'api', '--from', next)).out).toContain('already matches this version');
  });

  it('a generated answer an earlier Ferry generated differently is not taken for your edit; example answers edited are', async () => {
    const { stringify } = await import('yaml');
    const dir = await makeWorkspace({ servers: {} });
    const counter = { type: 'object', properties: { count: { type: 'integer', minimum: 1 }, label: { type: 'string', minLength: 8 } } };
    const answer = (content: Record<string, unknown>) => ({ responses: { 200: { description: 'ok', content: { 'application/json': content } } } });
    const v1 = {
      openapi: '3.0.3', info: { title: 'Counters', version: '1' },
      paths: {
        '/counters': { get: { summary: 'List', ...answer({ schema: counter }) } },
        '/counters/old': { get: { summary: 'Old', ...answer({ schema: counter }) } },
        '/counters/fixed': { get: { summary: 'Fixed', ...answer({ schema: counter, example: { count: 5, label: 'five' } }) } },
      },
    };
    const first = path.join(dir, 'v1.yaml');
    await fs.writeFile(first, stringify(v1));
    const { root, file } = await imported(first);
    const bodyOf = (name: string) => file.http.routes.find((r: any) => r.name === name);
    expect(JSON.parse(bodyOf('List').body)).toEqual({ count: 1, label: 'stringst' });
    // As an earlier Ferry generated them (bounds ignored), and a documented example set to 0 by hand.
    bodyOf('List').body = '{"count": 0, "label": "string"}';
    bodyOf('Old').body = '{"count": 0, "label": "string"}';
    bodyOf('Fixed').body = '{"count": 0, "label": "five"}';
    await fs.writeFile(path.join(root, 'servers/api.yaml'), stringify(file));
    const v2 = structuredClone(v1) as any;
    counter.properties = { ...counter.properties, extra: { type: 'boolean' } } as any;
    v2.paths['/counters'].get = { summary: 'List', ...answer({ schema: counter }) };
    v2.paths['/counters/fixed'].get = { summary: 'Fixed', ...answer({ schema: counter, example: { count: 6, label: 'six' } }) };
    delete v2.paths['/counters/old'];
    const next = path.join(root, 'v2.yaml');
    await fs.writeFile(next, stringify(v2));
    const dry = await ferry(root, 'update', 'api', '--from', next, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('  ~ GET /counters  List\n      update: body\n');
    expect(dry.out).toContain('  ~ GET /counters/fixed  Fixed\n      kept (your edits): body\n');
    expect(dry.out).toContain('No longer in the spec (route removed) (1)\n  - GET /counters/old  Old\n');
  });

  it('lays the preview out as a folder update does, and lists only the notes the new version brings', async () => {
    const { stringify } = await import('yaml');
    const dir = await makeWorkspace({ servers: {} });
    const ok = () => ({ 200: { description: 'ok', content: { 'application/json': { example: { ok: true } } } } });
    const v1 = {
      openapi: '3.0.3', info: { title: 'Files', version: '1' }, servers: [{ url: 'https://files.example.test' }],
      paths: { '/files/{name}.json': { get: { summary: 'Get file', parameters: [{ name: 'name', in: 'path', required: true }], responses: ok() } }, '/files': { get: { summary: 'List files', responses: ok() } } },
    };
    const first = path.join(dir, 'v1.yaml');
    await fs.writeFile(first, stringify(v1));
    const { root } = await imported(first);
    expect((await ferry(root, 'import', first)).code).toBe(0); // the same document as requests
    const v2 = structuredClone(v1) as any;
    v2.paths['/files'].get.responses[200].content['application/json'].example = { ok: false };
    v2.paths['/files'].get.description = 'All files.';
    v2.paths['/folders'] = { get: { summary: 'List folders', responses: ok() } };
    const next = path.join(dir, 'v2.yaml'); // outside the workspace: no recorded source to change
    await fs.writeFile(next, stringify(v2));
    const server = await ferry(root, 'update', 'api', '--from', next, '--dry-run');
    const folder = await ferry(root, 'update', 'Files', '--from', next, '--dry-run');
    expect(server.out).not.toContain('Notes');
    const shape = (out: string) => out.split('\n').slice(1).map((line) => line.replace(/^( {2}[+~-] \S+ \S+ {2}.+?)( {2}Files\/.*)?$/, '$1'));
    expect(shape(server.out)).toEqual(['', 'Added (1)', '  + GET /folders  List folders', '', 'Changed (1)', '  ~ GET /files  List files', '      update: body', '', 'The kept document is replaced by this version.', '', 'Dry run: nothing was written. Run again without --dry-run to update.', '']);
    expect(shape(folder.out)).toEqual(shape(server.out).map((line) => line.replace('update: body', 'update: docs')));
    // A path with a parameter inside a segment is a route like any other (routes match it): no note.
    v2.paths['/archives/{id}.zip'] = { get: { summary: 'Get archive', parameters: [{ name: 'id', in: 'path', required: true }], responses: ok() } };
    await fs.writeFile(next, stringify(v2));
    const added = await ferry(root, 'update', 'api', '--from', next, '--dry-run');
    expect(added.out).toContain('  + GET /archives/{id}.zip  Get archive');
    expect(added.out).not.toContain('Notes');
    await ferry(root, 'update', 'api', '--from', next);
    expect((await ferry(root, 'update', 'api', '--from', next)).out).toBe(`Update "Files" (servers/api.yaml) from ${next}\nThe server already matches this version.\n`);
  });

  it('a new version in the other format (YAML after JSON) is kept as specs/ID.yaml, not written as YAML into specs/ID.json', async () => {
    const { root } = await imported(path.join(FIXTURES, 'swagger20-petstore.json'));
    const next = path.join(FIXTURES, 'oas30-petstore.yaml');
    const dry = await ferry(root, 'update', 'api', '--from', next, '--dry-run');
    expect(dry.out).toContain('The kept document is replaced by this version.');
    expect(await fs.readdir(path.join(root, 'specs'))).toEqual(['api.json']);
    expect((await ferry(root, 'update', 'api', '--from', next)).code).toBe(0);
    expect(await fs.readdir(path.join(root, 'specs'))).toEqual(['api.yaml']);
    expect(await fs.readFile(path.join(root, 'specs/api.yaml'), 'utf8')).toBe(await fs.readFile(next, 'utf8'));
    const file = parse(await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8'));
    expect(file.http.openapi).toEqual({ spec: 'specs/api.yaml' });
    expect((await ferry(root, 'update', 'api', '--from', next)).out).toContain('The server already matches this version.');
    // The served mock reads the new document.
    const handle = await serve(root);
    expect(handle.failures).toEqual([]);
    expect((await send(`${handle.servers[0]!.url}/pets?limit=x`)).status).toBe(422);
  });

  it('a path parameter the document renames (/pets/{petId} → /pets/{id}) keeps its name in a route whose answer you made use it', async () => {
    const { stringify } = await import('yaml');
    const dir = await makeWorkspace({ servers: {} });
    const answer = { 200: { description: 'ok', content: { 'application/json': { example: { id: 1 } } } } };
    const doc = (param: string) => ({
      openapi: '3.0.3', info: { title: 'Pets', version: '1' },
      paths: { [`/pets/{${param}}`]: ['get', 'delete'].reduce((item, method) => ({ ...item, [method]: { summary: `${method} pet`, parameters: [{ name: param, in: 'path', required: true, schema: { type: 'string' } }], responses: answer } }), {}) },
    });
    const first = path.join(dir, 'v1.yaml');
    await fs.writeFile(first, stringify(doc('petId')));
    const { root, file } = await imported(first);
    // Your answer echoes the id the client asked for.
    file.http.routes.find((r: any) => r.method === 'GET').body = '{"id": "{{request.params.petId}}"}';
    await fs.writeFile(path.join(root, 'servers/api.yaml'), stringify(file));
    const next = path.join(dir, 'v2.yaml');
    await fs.writeFile(next, stringify(doc('id')));
    const updated = await ferry(root, 'update', 'api', '--from', next);
    expect(updated.out).toContain('  ~ GET /pets/:petId  get pet\n      kept (your edits): path\n');
    expect(updated.out).toContain('  ~ DELETE /pets/:id  delete pet\n      update: path\n');
    const after = parse(await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8'));
    expect(after.http.routes.map((r: any) => `${r.method} ${r.path}`)).toEqual(['GET /pets/:petId', 'DELETE /pets/:id']);
    const handle = await serve(root);
    expect(handle.failures).toEqual([]);
    expect(JSON.parse((await send(`${handle.servers[0]!.url}/pets/7`)).body)).toEqual({ id: '7' });
    expect((await ferry(root, 'update', 'api', '--from', next)).out).toContain('The server already matches this version.');
  });

  it('refuses a document without operations (a wrong file) instead of removing every generated route, as a folder update does', async () => {
    const { root } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const before = await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8');
    const empty = path.join(root, 'components-only.yaml');
    await fs.writeFile(empty, 'openapi: 3.0.3\ninfo: {title: Shared, version: "1"}\npaths: {}\ncomponents: {schemas: {Pet: {type: object}}}\n');
    const refused = await ferry(root, 'update', 'api', '--from', empty);
    expect(refused.code).toBe(2);
    expect(refused.err).toBe(`ferry: ${empty} has no operations (no \`paths\` with methods), so updating servers/api.yaml from it would remove all 3 of its generated routes. Check that this is the right document. Nothing was written.\n`);
    expect(await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8')).toBe(before);
  });

  it('refuses a new version that would write a server file over 50 MB (spec 8.1), naming it; nothing is written', async () => {
    const { root } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const before = await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8');
    const v2 = parse(await fs.readFile(path.join(FIXTURES, 'oas30-petstore.yaml'), 'utf8'));
    // 18 MB of document: a text answer of 9 million short lines, indented in the server's YAML (over 50 MB).
    v2.paths['/notes'] = { get: { summary: 'Notes', responses: { 200: { description: 'ok', content: { 'text/plain': { example: 'a\n'.repeat(9_000_000) } } } } } };
    const next = path.join(root, 'huge.json');
    await fs.writeFile(next, JSON.stringify(v2));
    const refused = await ferry(root, 'update', 'api', '--from', next);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/^ferry: Not updated: servers\/api\.yaml would be [\d.]+ MB, and YAML files over 50 MB are not read\. .* Nothing was written\.\n$/);
    expect(await fs.readFile(path.join(root, 'servers/api.yaml'), 'utf8')).toBe(before);
  }, 60_000);

  it('never reads the old document through a link swapped in between its check and its read (O_NOFOLLOW)', async () => {
    const { root, file } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const spec = path.join(root, file.http.openapi.spec);
    const text = await fs.readFile(spec, 'utf8');
    const next = path.join(root, 'petstore-v2.yaml');
    await fs.writeFile(next, text.replace('Swagger Petstore', 'Swagger Petstore 2'));
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside.txt`);
    await fs.writeFile(outside, 'SECRET: [not an OpenAPI document');
    try {
      const input = { server: 'api', text: await fs.readFile(next, 'utf8'), from: next };
      // Swapped for a link after every check, as its open is called: refused as an update through a
      // link; the outside file is never read as the old document.
      const { outcome, swapped } = await readWithLinkSwappedAtOpen(spec, outside, () => planServerUpdate(root, input));
      expect(swapped).toBe(1);
      expect('error' in outcome && outcome.error.message).toBe(`servers/api.yaml links its document as "${file.http.openapi.spec}", which is not a file under specs/; fix http.openapi.spec, then update again.`);
      // The same update with the plain document plans without warnings (the old document read).
      await fs.rm(spec);
      await fs.writeFile(spec, text);
      const plan = await planServerUpdate(root, input);
      expect(plan.warnings).toEqual([]);
    } finally {
      await fs.rm(outside, { force: true });
    }
  }, 20_000);

  it('never reads or writes a server file through a symbolic link, nor one outside servers/', async () => {
    const { root } = await imported(path.join(FIXTURES, 'oas30-petstore.yaml'));
    const v2 = (await fs.readFile(path.join(FIXTURES, 'oas30-petstore.yaml'), 'utf8')).replace('Swagger Petstore', 'Swagger Petstore 2');
    const next = path.join(root, 'petstore-v2.yaml');
    await fs.writeFile(next, v2);
    // A workspace from git whose servers/ is a link to a folder elsewhere (the user's own mocks).
    const elsewhere = path.join(path.dirname(root), `${path.basename(root)}-elsewhere`);
    await fs.rename(path.join(root, 'servers'), elsewhere);
    await fs.symlink(elsewhere, path.join(root, 'servers'));
    const theirs = await fs.readFile(path.join(elsewhere, 'api.yaml'), 'utf8');
    const linkedFolder = await ferry(root, 'update', 'api', '--from', next);
    expect(linkedFolder.code).toBe(2);
    expect(linkedFolder.err).toMatch(/servers is a symbolic link, and Ferry never follows links/);
    // The server file itself a link.
    await fs.rm(path.join(root, 'servers'));
    await fs.mkdir(path.join(root, 'servers'));
    await fs.symlink(path.join(elsewhere, 'api.yaml'), path.join(root, 'servers', 'api.yaml'));
    const linkedFile = await ferry(root, 'update', 'api', '--from', next);
    expect(linkedFile.code).toBe(2);
    expect(linkedFile.err).toMatch(/servers\/api\.yaml is a symbolic link, and Ferry never follows links/);
    // A path that climbs out of servers/.
    const climbing = await ferry(root, 'update', `servers/../../${path.basename(elsewhere)}/api`, '--from', next);
    expect(climbing.code).toBe(2);
    expect(climbing.err).toMatch(/not a server file under servers\//);
    expect(await fs.readFile(path.join(elsewhere, 'api.yaml'), 'utf8')).toBe(theirs);
    await fs.rm(elsewhere, { recursive: true, force: true });
  });
});
