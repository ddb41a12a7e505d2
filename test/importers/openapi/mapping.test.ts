/** The mapping of spec 4.4, checked against the documents it came from. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importOpenApiText, NO_HOST_MESSAGE } from '../../../src/importers/openapi/index.js';
import { CORPUS, requestFor, requestsOf, topFolder, yamlDoc } from './helpers.js';

const corpus = async (name: string, options: { baseUrl?: string } = {}, source: { url?: string } = {}) =>
  importOpenApiText(await fs.readFile(path.join(CORPUS, name), 'utf8'), { label: name, ...source }, options);

const envValue = (result: ReturnType<typeof importOpenApiText>, key: string) =>
  result.environments[0]?.variables.find((v) => v.key === key);

describe('OpenAPI 3.0 petstore', () => {
  it('makes a folder per tag, URLs with {{baseUrl}}, parameters and bodies from the document', async () => {
    const result = await corpus('oas30-petstore.yaml');
    const top = topFolder(result);
    expect(top.name).toBe('Swagger Petstore');
    expect(top.children.map((c) => (c.type === 'folder' ? c.name : c.request.name))).toEqual(['pets']);
    const list = requestFor(result, 'GET /pets');
    expect(list).toMatchObject({ name: 'List all pets', method: 'GET', url: '{{baseUrl}}/pets' });
    expect(list.disabledParams).toEqual([{ key: 'limit', value: '', description: 'How many items to return at one time (max 100)' }]);
    const create = requestFor(result, 'POST /pets');
    expect(create.body?.type).toBe('json');
    expect(JSON.parse(String(create.body?.text))).toEqual({ id: 0, name: 'string', tag: 'string' });
    expect(requestFor(result, 'GET /pets/{petId}').url).toBe('{{baseUrl}}/pets/{{petId}}');
    expect(envValue(result, 'baseUrl')?.value).toBe('http://petstore.swagger.io/v1');
    // A path parameter of type string, with no example: the schema's own example value.
    expect(envValue(result, 'petId')).toEqual({ key: 'petId', value: 'string' });
    expect(result.environments[0]?.name).toBe('Swagger Petstore');
  });

  it('gives generic path parameters the resource in front', async () => {
    const result = await corpus('oas30-petstore-expanded.json');
    expect(requestFor(result, 'DELETE /pets/{id}').url).toBe('{{baseUrl}}/pets/{{petId}}');
    expect(requestFor(result, 'GET /pets/{id}').name).toBe('find pet by id');
    expect(requestFor(result, 'POST /pets').name).toBe('addPet'); // no summary: operationId
  });
});

describe('Swagger 2.0', () => {
  it('builds the base URL from schemes, host and basePath; required query parameters go in the URL', async () => {
    const result = await corpus('swagger20-uber.json');
    expect(envValue(result, 'baseUrl')?.value).toBe('https://api.uber.com/v1');
    const products = requestFor(result, 'GET /products');
    // No example: a generated value (an empty one fails the API's check of a number).
    expect(products.url).toBe('{{baseUrl}}/products?latitude=0&longitude=0');
    expect(products.paramDescriptions).toEqual([
      { key: 'latitude', description: 'Latitude component of location.' },
      { key: 'longitude', description: 'Longitude component of location.' },
    ]);
  });

  it('maps its security definitions (basic, API key in header or query, every OAuth 2.0 flow by its 2.0 name) and ignores Authorization and Content-Type header parameters', () => {
    const schemes: Record<string, unknown> = {
      basic: { type: 'basic' },
      hkey: { type: 'apiKey', in: 'header', name: 'X-Key' },
      qkey: { type: 'apiKey', in: 'query', name: 'key' },
      code: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'https://s2.example.test/auth', tokenUrl: 'https://s2.example.test/token', scopes: { a: 'a', b: 'b' } },
      app: { type: 'oauth2', flow: 'application', tokenUrl: 'https://s2.example.test/token', scopes: { c: 'c' } },
      pw: { type: 'oauth2', flow: 'password', tokenUrl: 'https://s2.example.test/token', scopes: {} },
    };
    const headers = [
      { name: 'Authorization', in: 'header', required: true, type: 'string' },
      { name: 'Content-Type', in: 'header', required: true, type: 'string' },
      { name: 'X-Mine', in: 'header', required: true, type: 'string', 'x-example': 'm' },
    ];
    const paths = Object.fromEntries(Object.keys(schemes).map((name) => [`/${name}`, { get: { security: [{ [name]: [] }], parameters: headers, responses: { 200: { description: 'ok' } } } }]));
    const result = importOpenApiText(yamlDoc({ swagger: '2.0', info: { title: 'S2', version: '1' }, host: 's2.example.test', schemes: ['https'], securityDefinitions: schemes, paths }), { label: 's2.yaml' });
    expect(requestFor(result, 'GET /basic').auth).toEqual({ type: 'basic', username: '{{username}}', password: '{{password}}' });
    expect(requestFor(result, 'GET /hkey').auth).toEqual({ type: 'apiKey', key: 'X-Key', value: '{{apiKey}}' });
    expect(requestFor(result, 'GET /qkey').auth).toEqual({ type: 'apiKey', key: 'key', value: '{{apiKey}}', location: 'query' });
    expect(requestFor(result, 'GET /code').auth).toMatchObject({ type: 'oauth2', grantType: 'authorizationCode', authUrl: 'https://s2.example.test/auth', tokenUrl: 'https://s2.example.test/token', scope: 'a b' });
    expect(requestFor(result, 'GET /app').auth).toMatchObject({ type: 'oauth2', grantType: 'clientCredentials', tokenUrl: 'https://s2.example.test/token', scope: 'c' });
    expect(requestFor(result, 'GET /pw').auth).toMatchObject({ type: 'oauth2', grantType: 'password', username: '{{username}}', password: '{{password}}' });
    for (const name of Object.keys(schemes)) expect(requestFor(result, `GET /${name}`).headers).toEqual([{ key: 'X-Mine', value: 'm' }]);
    const secret = result.environments[0]!.variables.filter((v) => v.secret).map((v) => v.key).sort();
    expect(secret).toEqual(['apiKey', 'clientSecret', 'password']);
  });

  it('no host: asks for a base URL; basePath goes after the given host unless that has a path of its own; from a URL, the download\'s scheme and host', () => {
    const doc = yamlDoc({ swagger: '2.0', info: { title: 'S', version: '1' }, basePath: '/v2', paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
    expect(() => importOpenApiText(doc, { label: 's.yaml' })).toThrow(NO_HOST_MESSAGE);
    const base = (result: ReturnType<typeof importOpenApiText>) => envValue(result, 'baseUrl')?.value;
    expect(base(importOpenApiText(doc, { label: 's.yaml' }, { baseUrl: 'https://h.example.test' }))).toBe('https://h.example.test/v2');
    expect(base(importOpenApiText(doc, { label: 's.yaml' }, { baseUrl: 'https://h.example.test/own' }))).toBe('https://h.example.test/own');
    expect(base(importOpenApiText(doc, { label: 's.yaml', url: 'http://127.0.0.1:9/x/swagger.yaml' }))).toBe('http://127.0.0.1:9/v2');
  });

  it('writes array query parameters as their collectionFormat says (csv is the default), and OpenAPI 3 arrays by style', () => {
    const array = (extra: Record<string, unknown>) => ({ in: 'query', required: true, type: 'array', items: { type: 'integer' }, 'x-example': [1, 2], ...extra });
    const swagger = yamlDoc({
      swagger: '2.0', info: { title: 'C', version: '1' }, host: 'c.example.test',
      paths: { '/c': { get: { parameters: [array({ name: 'csv' }), array({ name: 'multi', collectionFormat: 'multi' }), array({ name: 'pipes', collectionFormat: 'pipes' }), array({ name: 'ssv', collectionFormat: 'ssv' })], responses: { 200: { description: 'ok' } } } } },
    });
    expect(requestFor(importOpenApiText(swagger, { label: 'c.yaml' }), 'GET /c').url).toBe('{{baseUrl}}/c?csv=1,2&multi=1&multi=2&pipes=1%7C2&ssv=1%202');
    const param = (name: string, extra: Record<string, unknown>) => ({ name, in: 'query', required: true, schema: { type: 'array', items: { type: 'integer' } }, example: [1, 2], ...extra });
    const openapi = yamlDoc({
      openapi: '3.0.3', info: { title: 'C', version: '1' }, servers: [{ url: 'https://c.example.test' }],
      paths: { '/c': { get: { parameters: [param('form', {}), param('flat', { explode: false }), param('pipes', { style: 'pipeDelimited', explode: false }), param('spaces', { style: 'spaceDelimited' })], responses: { 200: { description: 'ok' } } } } },
    });
    expect(requestFor(importOpenApiText(openapi, { label: 'c.yaml' }), 'GET /c').url).toBe('{{baseUrl}}/c?form=1&form=2&flat=1,2&pipes=1%7C2&spaces=1%202');
  });

  it('takes body parameters and formData', async () => {
    const result = await corpus('swagger20-redoc-demo.yaml');
    const addPet = requestFor(result, 'POST /pet');
    expect(['json', 'xml']).toContain(addPet.body?.type);
    // The document's formData parameters, by the operation's consumes: fields named, described, typed.
    expect(requestFor(result, 'POST /pet/{petId}').body).toEqual({
      type: 'formUrlencoded',
      form: [
        { key: 'name', value: 'string', description: 'Updated name of the pet' },
        { key: 'status', value: 'string', description: 'Updated status of the pet' },
      ],
    });
    // Multipart parts have no description (spec 2.5); the `type: file` parameter is a file part.
    expect(requestFor(result, 'POST /pet/{petId}/uploadImage').body).toEqual({
      type: 'multipart',
      multipart: [
        { key: 'additionalMetadata', value: 'string' },
        { key: 'file', value: '', file: true },
      ],
    });
  });
});

describe('servers', () => {
  it('expands server variables to their defaults and uses operation and path servers', async () => {
    const result = await corpus('oas30-readme-server-variables.yaml');
    expect(envValue(result, 'baseUrl')?.value).toBe('https://demo.example.com:443/v2');
    expect(requestFor(result, 'POST /operation').url).toMatch(/^https:\/\/[^{]+\/operation$/);
  });

  it('an operation or path server that is the document\'s own server stays {{baseUrl}}, so one variable still moves every request (Twilio)', async () => {
    // Twilio repeats https://api.twilio.com on each of its paths, the document's server too.
    const result = await corpus('oas30-twilio-api-v2010.json');
    expect(envValue(result, 'baseUrl')?.value).toBe('https://api.twilio.com');
    const urls = requestsOf(result).map((r) => String(r.request.url));
    expect(urls.length).toBeGreaterThan(100);
    expect(urls.filter((url) => !url.startsWith('{{baseUrl}}/2010-04-01/'))).toEqual([]);
    // Another host stays written out (Box uploads, Stripe files).
    const box = await corpus('oas30-box.json');
    expect(requestsOf(box).filter((r) => String(r.request.url).startsWith('https://upload.box.com/api/2.0/')).length).toBeGreaterThan(0);
    const stripe = await corpus('oas30-stripe-spec3.json');
    expect(requestFor(stripe, 'POST /v1/files').url).toBe('https://files.stripe.com/v1/files');
  });

  it('asks for a base URL for a relative server, and appends the server path to a bare host', async () => {
    await expect(corpus('oas30-swagger-petstore-v3.yaml')).rejects.toThrow(NO_HOST_MESSAGE);
    expect(envValue(await corpus('oas30-swagger-petstore-v3.yaml', { baseUrl: 'https://pets.example.test' }), 'baseUrl')?.value).toBe('https://pets.example.test/v3');
    expect(envValue(await corpus('oas30-swagger-petstore-v3.yaml', { baseUrl: 'https://pets.example.test/api/' }), 'baseUrl')?.value).toBe('https://pets.example.test/api');
    const fromUrl = await corpus('oas30-swagger-petstore-v3.yaml', {}, { url: 'http://127.0.0.1:8080/api/v3/openapi.yaml' });
    expect(envValue(fromUrl, 'baseUrl')?.value).toBe('http://127.0.0.1:8080/v3');
    expect(topFolder(fromUrl).settings?.openapi).toEqual({ source: 'http://127.0.0.1:8080/api/v3/openapi.yaml' });
    // The URL goes into _folder.yaml, which goes into git: never the user name and password it was downloaded with.
    const withLogin = await corpus('oas30-swagger-petstore-v3.yaml', {}, { url: 'http://ann:s3cret@127.0.0.1:8080/api/v3/openapi.yaml' });
    expect(topFolder(withLogin).settings?.openapi).toEqual({ source: 'http://127.0.0.1:8080/api/v3/openapi.yaml' });
    expect(JSON.stringify(withLogin)).not.toContain('s3cret');
  });

  it('reads ./v1, v1 and . servers as paths after the given host', () => {
    const doc = (url: string) => yamlDoc({ openapi: '3.0.3', info: { title: 'R' }, servers: [{ url }], paths: { '/a': { get: { responses: { 200: { description: 'ok' } } } } } });
    const base = (url: string) => envValue(importOpenApiText(doc(url), { label: 'r.yaml' }, { baseUrl: 'https://r.example.test' }), 'baseUrl')?.value;
    expect(base('./v1')).toBe('https://r.example.test/v1');
    expect(base('v1/')).toBe('https://r.example.test/v1');
    expect(base('.')).toBe('https://r.example.test');
    expect(() => importOpenApiText(doc('./v1'), { label: 'r.yaml' })).toThrow(NO_HOST_MESSAGE);
  });

  it('refuses a base URL that is not http(s)', async () => {
    await expect(corpus('oas30-swagger-petstore-v3.yaml', { baseUrl: 'ftp://x' })).rejects.toThrow(/must start with http/);
    await expect(corpus('oas30-swagger-petstore-v3.yaml', { baseUrl: 'not a url' })).rejects.toThrow(/is not a URL/);
  });
});

describe('security schemes', () => {
  it('maps each scheme as the table of spec 4.4 says, with secret placeholders', async () => {
    const result = await corpus('oas30-readme-security.json');
    expect(requestFor(result, 'POST /anything/basic').auth).toEqual({ type: 'basic', username: '{{username}}', password: '{{password}}' });
    expect(requestFor(result, 'POST /anything/bearer').auth).toEqual({ type: 'bearer', token: '{{bearerToken}}' });
    expect(requestFor(result, 'GET /anything/apiKey').auth).toEqual({ type: 'apiKey', key: 'apiKey', value: '{{apiKey}}', location: 'query' });
    expect(requestFor(result, 'PUT /anything/apiKey').auth).toEqual({ type: 'apiKey', key: 'X-API-KEY', value: '{{apiKey}}' });
    expect(requestFor(result, 'DELETE /anything/oauth2').auth).toMatchObject({ type: 'oauth2', grantType: 'password', username: '{{username}}', clientSecret: '{{clientSecret}}' });
    expect(requestFor(result, 'PUT /anything/oauth2').auth).toMatchObject({ type: 'oauth2', grantType: 'clientCredentials', tokenUrl: 'http://alt.example.com/oauth/token', scope: 'write:things' });
    expect(requestFor(result, 'POST /anything/apiKey').auth).toEqual({ type: 'none' }); // cookie: not imported
    expect(requestFor(result, 'GET /anything/optional-auth').auth).toMatchObject({ type: 'apiKey' });
    const secrets = result.environments[0]!.variables.filter((v) => v.secret).map((v) => v.key).sort();
    expect(secrets).toEqual(['apiKey', 'bearerToken', 'clientSecret', 'password']);
    expect(result.environments[0]!.variables.every((v) => v.value === '' || v.key === 'baseUrl')).toBe(true);
    expect(result.notes.join('\n')).toMatch(/apiKey_cookie.*cookie/);
    expect(result.notes.join('\n')).toMatch(/OpenID Connect/);
    expect(result.secrets).toEqual([]);
  });

  it('puts document-wide security on the folder and notes combined schemes', async () => {
    const doc = yamlDoc({
      openapi: '3.0.3', info: { title: 'Sec' }, servers: [{ url: 'https://sec.example.test' }],
      security: [{ basic: [] }],
      components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' }, key: { type: 'apiKey', in: 'header', name: 'X-Key' }, digest: { type: 'http', scheme: 'digest' } } },
      paths: {
        '/a': { get: { responses: { 200: { description: 'ok' } } } },
        '/b': { get: { security: [{ key: [], basic: [] }], responses: { 200: { description: 'ok' } } } },
        '/c': { get: { security: [], responses: { 200: { description: 'ok' } } } },
        '/d': { get: { security: [{ digest: [] }], responses: { 200: { description: 'ok' } } } },
      },
    });
    const result = importOpenApiText(doc, { label: 'sec.yaml' });
    expect(topFolder(result).settings?.auth).toEqual({ type: 'basic', username: '{{username}}', password: '{{password}}' });
    expect(requestFor(result, 'GET /a').auth).toBeUndefined();
    expect(requestFor(result, 'GET /b').auth).toEqual({ type: 'apiKey', key: 'X-Key', value: '{{apiKey}}' });
    expect(result.notes.join('\n')).toMatch(/"key" \+ "basic" uses several schemes together; only "key" was imported/);
    expect(requestFor(result, 'GET /c').auth).toEqual({ type: 'none' });
    expect(requestFor(result, 'GET /d').auth).toEqual({ type: 'digest', username: '{{username}}', password: '{{password}}' });
  });
});

describe('OAuth 2.0 flows and unnamed operations (spec 4.4)', () => {
  const ok = { 200: { description: 'ok' } };
  const result = importOpenApiText(
    yamlDoc({
      openapi: '3.0.3', info: { title: 'O' }, servers: [{ url: 'https://o.example.test' }, { url: 'https://second.example.test' }],
      components: {
        securitySchemes: {
          code: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://o.example.test/authorize', tokenUrl: 'https://o.example.test/token', scopes: { 'read:a': 'r', 'write:a': 'w' } } } },
          imp: { type: 'oauth2', flows: { implicit: { authorizationUrl: 'https://o.example.test/authorize', scopes: { x: 'x', y: 'y' } } } },
        },
      },
      paths: {
        '/a': { get: { security: [{ code: [] }], responses: ok } },
        '/b/{bId}': { get: { security: [{ imp: [] }], parameters: [{ name: 'bId', in: 'path', required: true }], responses: ok } },
      },
    }),
    { label: 'o.yaml' },
  );

  it('authorization code: token and authorization URLs and all scopes, clientId and a secret clientSecret', () => {
    expect(requestFor(result, 'GET /a').auth).toEqual({
      type: 'oauth2', grantType: 'authorizationCode', tokenUrl: 'https://o.example.test/token', authUrl: 'https://o.example.test/authorize',
      clientId: '{{clientId}}', clientSecret: '{{clientSecret}}', scope: 'read:a write:a',
    });
    const variables = result.environments[0]!.variables;
    expect(variables.find((v) => v.key === 'clientId')).toEqual({ key: 'clientId', value: '' });
    expect(variables.find((v) => v.key === 'clientSecret')).toMatchObject({ secret: true, value: '' });
    // The first server is the base URL.
    expect(variables.find((v) => v.key === 'baseUrl')?.value).toBe('https://o.example.test');
  });

  it('implicit: its authorization URL and all scopes, as an authorization code grant (Ferry runs no implicit grant), with a note', () => {
    expect(requestFor(result, 'GET /b/{bId}').auth).toMatchObject({ type: 'oauth2', grantType: 'authorizationCode', authUrl: 'https://o.example.test/authorize', scope: 'x y' });
    expect(result.notes.join('\n')).toMatch(/"imp" only offers the implicit flow.*authorization code grant/);
  });

  it('an operation with neither summary nor operationId is named METHOD /path', () => {
    expect(requestFor(result, 'GET /a').name).toBe('GET /a');
    expect(requestFor(result, 'GET /b/{bId}').name).toBe('GET /b/{bId}');
  });
});

describe('parameters and bodies', () => {
  const doc = yamlDoc({
    openapi: '3.0.3',
    info: { title: 'Shapes', description: 'About shapes' },
    servers: [{ url: 'https://shapes.example.test/v1/' }],
    tags: [{ name: 'second' }, { name: 'first', description: 'The first tag' }],
    paths: {
      '/users/{user_id}/files/{id}': {
        parameters: [{ name: 'user_id', in: 'path', required: true, schema: { type: 'integer', example: 42 } }],
        post: {
          tags: ['first', 'second'],
          operationId: 'upload',
          deprecated: true,
          description: 'Uploads a file.',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'q', in: 'query', required: true, example: 'a b&c' },
            { name: 'tags', in: 'query', required: true, schema: { type: 'array', items: { type: 'string' } }, example: ['x', 'y'] },
            { name: 'page', in: 'query', description: 'Page number', schema: { type: 'integer', default: 1 } },
            { name: 'X-Trace', in: 'header', required: true, schema: { type: 'string', example: 't-1' } },
            { name: 'X-Opt', in: 'header', schema: { type: 'string' } },
            { name: 'X-Count', in: 'header', required: true, schema: { type: 'integer', minimum: 2 } },
            { name: 'Accept', in: 'header', required: true, schema: { type: 'string' } },
            { name: 'session', in: 'cookie', required: true, example: 's1' },
            { name: 'theme', in: 'cookie', example: 'dark' },
          ],
          requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, note: { type: 'string', example: 'hi' } } } } } },
          responses: { 201: { description: 'created' } },
        },
      },
      '/xml': { put: { tags: ['second'], summary: 'XML', requestBody: { content: { 'application/xml': { schema: { $ref: '#/components/schemas/Item' } } } }, responses: { 200: { description: 'ok' } } } },
      '/form': { post: { summary: 'Form', requestBody: { content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string', enum: ['x', 'y'] } } } } } }, responses: { 200: { description: 'ok' } } } },
      '/text': { post: { summary: 'Text', requestBody: { content: { 'text/plain': { example: 'hello' } } }, responses: { 200: { description: 'ok' } } } },
      '/bin': { post: { summary: 'Binary', requestBody: { content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } }, responses: { 200: { description: 'ok' } } } },
      '/merge': { patch: { summary: 'Merge', requestBody: { content: { 'application/merge-patch+json': { examples: { one: { value: { name: 'n' } } } } } }, responses: { 200: { description: 'ok' } } } },
      '/word': { post: { summary: 'Word', requestBody: { content: { 'application/json': { schema: { type: 'string', enum: ['.', 'X'] } } } }, responses: { 200: { description: 'ok' } } } },
      '/given': { post: { summary: 'Given', requestBody: { content: { 'application/json': { schema: { type: 'object' }, example: '{"a": 1}' } } }, responses: { 200: { description: 'ok' } } } },
      '/quoted': { post: { summary: 'Quoted', requestBody: { content: { 'application/json': { schema: { type: 'string' }, example: 'hello' } } }, responses: { 200: { description: 'ok' } } } },
      '/things/{thing_id}/{at}': { delete: { summary: 'Gone', parameters: [{ name: 'thing_id', in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }, { name: 'at', in: 'path', required: true, schema: { type: 'string', format: 'date' } }], responses: { 204: { description: 'ok' } } } },
      '/search': {
        get: {
          summary: 'Search',
          parameters: [
            { name: 'filter', in: 'query', required: true, style: 'deepObject', schema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } } },
            { name: 'point', in: 'query', required: true, schema: { type: 'object', properties: { x: { type: 'integer' } } }, example: { x: 1, y: 'a b' } },
            { name: 'box', in: 'query', required: true, explode: false, schema: { type: 'object' }, example: { w: 2, h: 3 } },
            { name: 'opt', in: 'query', style: 'deepObject', schema: { type: 'object' }, example: { k: 'v' } },
          ],
          responses: { 200: { description: 'ok' } },
        },
      },
      '/bundled': { post: { summary: 'Bundled', requestBody: { content: { 'application/json': { example: { label: { $ref: '#/components/schemas/Item/properties/label/example' } } } } }, responses: { 200: { description: 'ok' } } } },
      '/tree': { post: { summary: 'Tree', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, responses: { 200: { description: 'ok' } } } },
    },
    components: {
      schemas: {
        Item: { type: 'object', xml: { name: 'item' }, properties: { id: { type: 'integer', readOnly: true }, label: { type: 'string', example: 'L' } } },
        Node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      },
    },
  });
  const result = importOpenApiText(doc, { label: 'shapes.yaml' });

  it('orders tag folders as the document lists its tags and files operations under their first tag', () => {
    const top = topFolder(result);
    expect(top.settings?.docs).toBe('About shapes');
    const names = top.children.map((c) => (c.type === 'folder' ? `folder:${c.name}` : c.request.name));
    expect(names).toEqual(['folder:second', 'folder:first', 'Form', 'Text', 'Binary', 'Merge', 'Word', 'Given', 'Quoted', 'Gone', 'Search', 'Bundled', 'Tree']);
    const first = top.children[1]!;
    expect(first.type === 'folder' && first.settings?.docs).toBe('The first tag');
    expect(requestsOf(result).find((r) => r.request.name === 'upload')?.folders).toEqual(['Shapes', 'first']);
  });

  it('maps path, query, header and cookie parameters', () => {
    const upload = requestFor(result, 'POST /users/{user_id}/files/{id}');
    expect(upload.url).toBe('{{baseUrl}}/users/{{userId}}/files/{{fileId}}?q=a%20b%26c&tags=x&tags=y');
    expect(upload.disabledParams).toEqual([{ key: 'page', value: '1', description: 'Page number' }]);
    expect(upload.headers).toEqual([
      { key: 'X-Trace', value: 't-1' },
      { key: 'X-Opt', value: '', enabled: false },
      { key: 'X-Count', value: '2' },
      { key: 'Cookie', value: 'session=s1; theme=dark' },
    ]);
    expect(String(upload.docs)).toMatch(/^\*\*Deprecated:\*\*.*\n\nUploads a file\.$/s);
    expect(envValue(result, 'userId')?.value).toBe('42');
    // No example: generated from the schema, as bodies are; an empty value would send
    // `POST /users/42/files/`, another endpoint's URL.
    expect(envValue(result, 'fileId')?.value).toBe('string');
    expect(envValue(result, 'thingId')?.value).toBe('1');
    expect(envValue(result, 'at')?.value).toBe('2024-01-01');
    expect(envValue(result, 'baseUrl')?.value).toBe('https://shapes.example.test/v1');
  });

  it('sends object query parameters as their style says (deepObject, form exploded or not), not as JSON', () => {
    const search = requestFor(result, 'GET /search');
    expect(search.url).toBe('{{baseUrl}}/search?filter[a]=string&filter[b]=0&x=1&y=a%20b&box=w,2,h,3');
    expect(search.disabledParams).toEqual([{ key: 'opt[k]', value: 'v' }]);
  });

  it('builds multipart, XML, form, text, binary and JSON bodies', () => {
    expect(requestFor(result, 'POST /users/{user_id}/files/{id}').body).toEqual({ type: 'multipart', multipart: [{ key: 'file', value: '', file: true }, { key: 'note', value: 'hi' }] });
    const xml = requestFor(result, 'PUT /xml').body!;
    expect(xml.type).toBe('xml');
    expect(xml.text).toContain('<item>');
    expect(xml.text).toContain('<label>L</label>');
    expect(xml.text).not.toContain('<id>'); // readOnly
    expect(requestFor(result, 'POST /form').body).toEqual({ type: 'formUrlencoded', form: [{ key: 'a', value: '0' }, { key: 'b', value: 'x' }] });
    expect(requestFor(result, 'POST /text').body).toEqual({ type: 'text', text: 'hello', contentType: 'text/plain' });
    expect(requestFor(result, 'POST /bin').body).toEqual({ type: 'binary' });
    const merge = requestFor(result, 'PATCH /merge');
    expect(JSON.parse(String(merge.body?.text))).toEqual({ name: 'n' });
    expect(merge.headers).toEqual([{ key: 'Content-Type', value: 'application/merge-patch+json' }]);
    expect(JSON.parse(String(requestFor(result, 'POST /tree').body?.text))).toEqual({ name: 'string', children: [] }); // the cycle ends
    // A JSON body is JSON text: a string value is quoted, unless the document wrote JSON text as its example.
    expect(requestFor(result, 'POST /word').body).toEqual({ type: 'json', text: '"."' });
    expect(requestFor(result, 'POST /quoted').body).toEqual({ type: 'json', text: '"hello"' });
    expect(requestFor(result, 'POST /given').body).toEqual({ type: 'json', text: '{"a": 1}' });
    // A bundler's local reference inside an example is the value it points at (as in the mock's answers).
    expect(JSON.parse(String(requestFor(result, 'POST /bundled').body?.text))).toEqual({ label: 'L' });
    expect(result.notes.join('\n')).toMatch(/2 requests send a file/);
  });
});

describe('keywords beside a schema $ref', () => {
  const document = (openapi: string) =>
    yamlDoc({
      openapi,
      info: { title: 'Siblings', version: '1' },
      servers: [{ url: 'https://siblings.example.test' }],
      paths: {
        '/pets/{pet_id}': {
          put: {
            summary: 'Replace',
            parameters: [
              { name: 'pet_id', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id', example: 42 } },
              { name: 'limit', in: 'query', required: true, schema: { $ref: '#/components/schemas/Count', minimum: 10 } },
            ],
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', example: { name: 'Rex' } } } } },
            responses: { 200: { description: 'ok' } },
          },
        },
        '/pets': {
          post: { summary: 'Create', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } }, responses: { 201: { description: 'ok' } } },
          patch: {
            summary: 'Tag',
            requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet', required: ['tag'], properties: { tag: { type: 'string', example: 'good' } } } } } },
            responses: { 200: { description: 'ok' } },
          },
        },
      },
      components: {
        schemas: {
          Id: { type: 'integer', example: 1 },
          Count: { type: 'integer' },
          Pet: { type: 'object', required: ['name'], properties: { id: { $ref: '#/components/schemas/Id', readOnly: true }, name: { type: 'string' } } },
        },
      },
    });

  it('3.1: an example or bound beside the reference is what the request gets, and each use of one schema keeps its own keywords', () => {
    const result = importOpenApiText(document('3.1.0'), { label: 'siblings.yaml' });
    const replace = requestFor(result, 'PUT /pets/{pet_id}');
    expect(replace.url).toBe('{{baseUrl}}/pets/{{petId}}?limit=10');
    expect(envValue(result, 'petId')?.value).toBe('42');
    expect(JSON.parse(String(replace.body?.text))).toEqual({ name: 'Rex' });
    // The same schema used plainly, and with a property added beside the reference.
    expect(JSON.parse(String(requestFor(result, 'POST /pets').body?.text))).toEqual({ name: 'string' });
    expect(JSON.parse(String(requestFor(result, 'PATCH /pets').body?.text))).toEqual({ name: 'string', tag: 'good' });
  });

  it('3.1: a description beside a parameter reference replaces the shared parameter\'s (3.0: the shared one stays)', () => {
    const doc = (openapi: string) =>
      yamlDoc({
        openapi,
        info: { title: 'Refs', version: '1' },
        servers: [{ url: 'https://refs.example.test' }],
        paths: { '/items': { get: { summary: 'List', parameters: [{ $ref: '#/components/parameters/Limit', description: 'How many items, at most 50' }], responses: { 200: { description: 'ok' } } } } },
        components: { parameters: { Limit: { name: 'limit', in: 'query', description: 'Page size', schema: { type: 'integer' } } } },
      });
    expect(requestFor(importOpenApiText(doc('3.1.0'), { label: 'refs.yaml' }), 'GET /items').disabledParams).toEqual([{ key: 'limit', value: '', description: 'How many items, at most 50' }]);
    expect(requestFor(importOpenApiText(doc('3.0.3'), { label: 'refs.yaml' }), 'GET /items').disabledParams).toEqual([{ key: 'limit', value: '', description: 'Page size' }]);
  });

  it('3.0: keywords beside a reference are ignored, as that version says', () => {
    const result = importOpenApiText(document('3.0.3'), { label: 'siblings.yaml' });
    expect(requestFor(result, 'PUT /pets/{pet_id}').url).toBe('{{baseUrl}}/pets/{{petId}}?limit=0');
    expect(envValue(result, 'petId')?.value).toBe('1');
    expect(JSON.parse(String(requestFor(result, 'PUT /pets/{pet_id}').body?.text))).toEqual({ id: 1, name: 'string' });
    expect(JSON.parse(String(requestFor(result, 'PATCH /pets').body?.text))).toEqual({ id: 1, name: 'string' });
  });
});
