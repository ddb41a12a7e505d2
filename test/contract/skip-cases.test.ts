/**
 * When the check is left out silently (spec 7.1, five cases), which folder's link is used,
 * and how documents are read from a real workspace folder and reused within a run.
 */
import { mkdir, mkdtemp, rm, symlink, truncate, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractDocuments, contractTestFor, type ContractFolder, type ContractRequest } from '../../src/contract/index.js';
import { jsonResponse } from './helpers.js';

let workspace: string;
let outside: string;

const petsYaml = `openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      responses:
        200:
          description: ok
          content:
            application/json:
              schema: {type: array, items: {type: integer}}
  /quiet:
    get:
      responses: {}
`;
const otherJson = JSON.stringify({
  openapi: '3.1.0',
  info: { title: 'Other', version: '1' },
  paths: { '/pets': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } } } } } },
});

beforeAll(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'ferry-contract-'));
  outside = await mkdtemp(path.join(os.tmpdir(), 'ferry-contract-outside-'));
  await mkdir(path.join(workspace, 'specs', 'nested'), { recursive: true });
  await writeFile(path.join(workspace, 'specs', 'pets.yaml'), petsYaml);
  await writeFile(path.join(workspace, 'specs', 'other.json'), otherJson);
  await writeFile(path.join(outside, 'pets.yaml'), petsYaml);
  await symlink(path.join(outside, 'pets.yaml'), path.join(workspace, 'specs', 'linked.yaml'));
  await symlink(outside, path.join(workspace, 'linked-folder'));
  await writeFile(path.join(workspace, 'specs', 'broken.yaml'), 'openapi: 3.0.0\npaths: [unclosed\n');
  await writeFile(path.join(workspace, 'specs', 'not-openapi.json'), JSON.stringify({ info: { title: 'x' }, paths: {} }));
  await writeFile(path.join(workspace, 'specs', 'future.yaml'), 'openapi: 4.0.0\npaths: {}\n');
  await writeFile(path.join(workspace, 'specs', 'paths-list.yaml'), 'openapi: 3.0.0\npaths: [1]\n');
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
  for (let level = 1; level < 9; level++) bomb.push(`${'b'.repeat(level)}: &${'b'.repeat(level)} [${Array(10).fill(level === 1 ? '*a' : `*${'b'.repeat(level - 1)}`).join(',')}]`);
  await writeFile(path.join(workspace, 'specs', 'bomb.yaml'), `openapi: 3.0.0\npaths: {}\n${bomb.join('\n')}\n`);
  // A sparse file: 50 MB + 1 byte on paper, nothing on disk.
  await writeFile(path.join(workspace, 'specs', 'huge.yaml'), '');
  await truncate(path.join(workspace, 'specs', 'huge.yaml'), 50 * 1024 * 1024 + 1);
});

afterAll(async () => {
  await rm(workspace, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

const linked = (spec: string, validate?: boolean): ContractFolder => ({ openapi: { spec, ...(validate === undefined ? {} : { validate }) } });
const imported: ContractRequest = { kind: 'http', openapi: { operation: 'GET /pets' } };

async function run(request: ContractRequest, folderChain: ContractFolder[], body = '[1, "two"]') {
  const reasons: string[] = [];
  const result = await contractTestFor({
    documents: new ContractDocuments(workspace),
    request,
    folderChain,
    response: jsonResponse(body),
    onSkip: (reason) => reasons.push(reason),
  });
  return { result, reason: reasons[0] };
}

describe('the check runs', () => {
  it('for an imported request under a linked folder', async () => {
    const { result } = await run(imported, [{}, linked('specs/pets.yaml')]);
    expect(result).toEqual({ name: 'Matches the API spec (GET /pets -> 200)', passed: false, message: '$[1]: expected integer, got string' });
  });

  it('when the kind is left out (http is the default)', async () => {
    expect((await run({ openapi: { operation: 'GET /pets' } }, [linked('specs/pets.yaml')])).result?.passed).toBe(false);
  });

  it('with the innermost linked folder winning', async () => {
    const { result } = await run(imported, [linked('specs/pets.yaml'), {}, linked('specs/other.json'), {}]);
    expect(result?.message).toBe('$[0]: expected string, got integer');
  });

  it('when an outer folder switches off but the inner link does not', async () => {
    expect((await run(imported, [linked('specs/pets.yaml', false), linked('specs/other.json', true)])).result?.passed).toBe(false);
  });

  it('for a document of exactly 50 MB (8.1: kept documents are read up to 50 MB)', async () => {
    // The pets document with a padding field, filled to 50 MB exactly; one byte more is refused (below).
    const head = otherJson.slice(0, -1) + ',"x-padding":"';
    const text = head + 'x'.repeat(50 * 1024 * 1024 - head.length - 2) + '"}';
    expect(Buffer.byteLength(text)).toBe(50 * 1024 * 1024);
    await writeFile(path.join(workspace, 'specs', 'exactly-50.json'), text);
    const { result, reason } = await run(imported, [linked('specs/exactly-50.json')]);
    expect(reason).toBeUndefined();
    expect(result).toEqual({ name: 'Matches the API spec (GET /pets -> 200)', passed: false, message: '$[0]: expected string, got integer' });
  });

  it('with a path written with ./ and backslashes', async () => {
    expect((await run(imported, [linked('./specs\\pets.yaml')])).result?.passed).toBe(false);
  });
});

describe('the check is left out silently', () => {
  const table: Array<{ name: string; request?: ContractRequest; folders: ContractFolder[]; reason: RegExp }> = [
    // 1. not HTTP, or no operation
    { name: 'a request that is not HTTP', request: { kind: 'websocket', openapi: { operation: 'GET /pets' } }, folders: [linked('specs/pets.yaml')], reason: /websocket request/ },
    { name: 'a request without openapi', request: { kind: 'http' }, folders: [linked('specs/pets.yaml')], reason: /no OpenAPI operation/ },
    { name: 'a request with an empty operation', request: { openapi: { operation: ' ' } }, folders: [linked('specs/pets.yaml')], reason: /no OpenAPI operation/ },
    // 2. no longer in the spec
    { name: 'a request marked as no longer in the spec', request: { openapi: { operation: 'GET /pets', removed: true } }, folders: [linked('specs/pets.yaml')], reason: /no longer in the API spec/ },
    // 3. no link, or validate: false
    { name: 'no folder links a document', folders: [{}, { openapi: { source: 'https://example.test/api.yaml' } }], reason: /no folder above/ },
    { name: 'no folders at all', folders: [], reason: /no folder above/ },
    { name: 'the link has validate: false', folders: [linked('specs/pets.yaml', false)], reason: /validate: false/ },
    { name: 'the innermost link has validate: false', folders: [linked('specs/other.json'), linked('specs/pets.yaml', false)], reason: /validate: false/ },
    // 4. the document cannot be read
    { name: 'a missing document', folders: [linked('specs/gone.yaml')], reason: /cannot be read \(ENOENT\)/ },
    { name: 'a document over 50 MB', folders: [linked('specs/huge.yaml')], reason: /larger than 50 MB/ },
    { name: 'an absolute path', folders: [linked(path.join(os.tmpdir(), 'specs', 'pets.yaml'))], reason: /is absolute/ },
    { name: 'a Windows drive path', folders: [linked('C:\\specs\\pets.yaml')], reason: /is absolute/ },
    { name: 'a path with ..', folders: [linked('specs/../../pets.yaml')], reason: /uses "\.\."/ },
    { name: 'a path that leaves by .. even if it comes back', folders: [linked('specs/../specs/pets.yaml')], reason: /uses "\.\."/ },
    { name: 'a symbolic link to the document', folders: [linked('specs/linked.yaml')], reason: /symbolic link at specs\/linked.yaml/ },
    { name: 'a symbolic link on the way', folders: [linked('linked-folder/pets.yaml')], reason: /symbolic link at linked-folder/ },
    { name: 'a folder instead of a file', folders: [linked('specs/nested')], reason: /is not a file/ },
    { name: 'a file used as a folder', folders: [linked('specs/pets.yaml/inner.yaml')], reason: /is not a folder/ },
    { name: 'a NUL character in the path', folders: [linked('specs/pets.yaml\0.txt')], reason: /NUL/ },
    { name: 'a document that does not parse', folders: [linked('specs/broken.yaml')], reason: /does not parse/ },
    { name: 'a document that is not OpenAPI', folders: [linked('specs/not-openapi.json')], reason: /not an OpenAPI 3.0\/3.1 or Swagger 2.0 document/ },
    { name: 'an unknown OpenAPI version', folders: [linked('specs/future.yaml')], reason: /not an OpenAPI/ },
    { name: 'paths that are not a map', folders: [linked('specs/paths-list.yaml')], reason: /not an OpenAPI/ },
    { name: 'a YAML alias bomb', folders: [linked('specs/bomb.yaml')], reason: /does not parse: .*[Aa]lias/ },
    // 5. no operation, or no responses
    { name: 'an operation the document lacks', request: { openapi: { operation: 'DELETE /pets' } }, folders: [linked('specs/pets.yaml')], reason: /no operation DELETE \/pets/ },
    { name: 'a path the document lacks', request: { openapi: { operation: 'GET /owners' } }, folders: [linked('specs/pets.yaml')], reason: /no operation GET \/owners/ },
    { name: 'an operation text that is not METHOD /path', request: { openapi: { operation: 'pets' } }, folders: [linked('specs/pets.yaml')], reason: /no operation pets/ },
    { name: 'an operation without responses', request: { openapi: { operation: 'GET /quiet' } }, folders: [linked('specs/pets.yaml')], reason: /documents no responses/ },
  ];
  for (const row of table) {
    it(row.name, async () => {
      const { result, reason } = await run(row.request ?? imported, row.folders);
      expect(result).toBeNull();
      expect(reason).toMatch(row.reason);
    });
  }
});

describe('documents within a run', () => {
  it('are parsed once and reused while the file is unchanged', async () => {
    const documents = new ContractDocuments(workspace);
    const first = await documents.load('specs/pets.yaml');
    const again = await Promise.all([documents.load('specs/pets.yaml'), documents.load('./specs/pets.yaml')]);
    expect(documents.parses).toBe(1);
    expect(first.ok && again.every((load) => load.ok && load.loaded === first.loaded)).toBe(true);
  });

  it('are read again when the file changes', async () => {
    const file = path.join(workspace, 'specs', 'changing.yaml');
    await writeFile(file, petsYaml);
    const documents = new ContractDocuments(workspace);
    const request = { openapi: { operation: 'GET /pets' } };
    const check = () => contractTestFor({ documents, request, folderChain: [linked('specs/changing.yaml')], response: jsonResponse('["a"]') });
    expect((await check())?.passed).toBe(false);
    await writeFile(file, otherJson);
    const later = new Date(Date.now() + 5000);
    await utimes(file, later, later);
    expect((await check())?.passed).toBe(true);
    expect(documents.parses).toBe(2);
  });

  it('remember a document that is not OpenAPI without reading it again', async () => {
    const documents = new ContractDocuments(workspace);
    await documents.load('specs/not-openapi.json');
    await documents.load('specs/not-openapi.json');
    expect(documents.parses).toBe(1);
  });
});
