/** Bad inputs get clear messages; a refused import writes nothing. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commitImport } from '../../../src/importers/commit.js';
import { importOpenApiText, MAX_OPERATIONS } from '../../../src/importers/openapi/index.js';
import { ImportError } from '../../../src/importers/types.js';
import { openWorkspace } from '../../../src/workspace/index.js';
import { listFiles, requestsOf, tempWorkspace, yamlDoc } from './helpers.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const run = (text: string, label = 'doc.yaml') => importOpenApiText(text, { label });
const ok = { 200: { description: 'ok' } };
const base = { openapi: '3.0.3', info: { title: 'T' }, servers: [{ url: 'https://t.example.test' }] };

describe('refusals', () => {
  it('refuses data that is not an OpenAPI document', () => {
    expect(() => run('{"name": "x"}', 'x.json')).toThrow(/x\.json is not an OpenAPI or Swagger document/);
    expect(() => run('- a\n- b\n')).toThrow(ImportError);
    expect(() => run(yamlDoc({ openapi: '4.0.0', info: { title: 'x' }, paths: {} }))).toThrow(/version 4\.0\.0; Ferry imports Swagger 2\.0 and OpenAPI 3\.0 and 3\.1/);
    expect(() => run(yamlDoc({ ...base, paths: ['x'] }))).toThrow(/`paths` must be a mapping/);
  });

  it('says where a document does not parse', () => {
    expect(() => run('openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n', 'broken.yaml')).toThrow(/^broken\.yaml:\d+:\d+: the document does not parse/);
  });

  it('refuses documents over 50 MB', () => {
    const huge = `{"openapi":"3.0.0","info":{"title":"x"},"paths":{},"x":"${'a'.repeat(60 * 1024 * 1024)}"}`;
    expect(() => run(huge, 'huge.json')).toThrow(/^huge\.json is 60\.0 MB; imports are limited to 50 MB\. Split it, or import a smaller export\.$/);
  });

  it('refuses YAML bombs (alias expansion)', () => {
    const bomb = ['openapi: 3.0.0', 'info: {title: bomb}', 'paths: {}', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    expect(() => run(bomb.join('\n'), 'bomb.yaml')).toThrow(/YAML bomb/);
  });

  it('writes nothing when the import is refused', async () => {
    const root = await tempWorkspace();
    dirs.push(root);
    const before = await listFiles(root);
    const attempt = async () => {
      const result = run(yamlDoc({ openapi: '3.0.0', info: { title: 'No host' }, paths: { '/a': { get: { responses: ok } } } }));
      const ws = await openWorkspace(root);
      await commitImport({ root, id: ws.id }, result);
    };
    await expect(attempt()).rejects.toThrow(/does not say where the API runs/);
    expect(await listFiles(root)).toEqual(before);
  });
});

describe('documents that import with notes', () => {
  it('skips references that point nowhere, loop, or lead to other files', () => {
    const result = run(yamlDoc({
      ...base,
      paths: {
        '/a': { post: { requestBody: { $ref: '#/components/requestBodies/Missing' }, responses: ok } },
        '/b': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } }, responses: ok } },
        '/c': { $ref: 'paths/c.yaml' },
        '/d': { get: { parameters: [{ $ref: 'common.yaml#/parameters/limit' }], responses: ok } },
      },
      components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } },
    }));
    expect(requestsOf(result).map((r) => r.request.openapi?.operation)).toEqual(['POST /a', 'POST /b', 'GET /d']);
    const notes = result.notes.join('\n');
    expect(notes).toMatch(/not followed.*paths\/c\.yaml, common\.yaml#\/parameters\/limit/);
    expect(notes).toMatch(/point nowhere \(or loop\).*#\/components\/requestBodies\/Missing/);
  });

  it('names references to other files in responses too: the response, its schema (deep), headers, links; not example data', () => {
    const result = run(yamlDoc({
      ...base,
      paths: {
        '/r': { $ref: '#/components/pathItems/R' },
        '/s': {
          get: {
            responses: {
              200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' }, examples: { one: { value: { $ref: 'not-a-ref.yaml' } } }, example: { $ref: 'nor-this.yaml' } } } },
              404: { $ref: 'errors.yaml#/responses/NotFound' },
              default: { description: 'x', headers: { 'X-Rate': { schema: { $ref: 'headers.yaml#/Rate' } } }, links: { next: { $ref: 'links.yaml#/Next' } } },
            },
          },
        },
        '/t': { get: { responses: { 200: { description: 'swagger-like', schema: { $ref: 'https://schemas.example.test/t.json' } } } } },
      },
      components: {
        pathItems: { R: { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Page' } } } } } } } },
        schemas: {
          Page: { type: 'object', properties: { items: { type: 'array', items: { $ref: 'models/pet.yaml' } }, value: { $ref: 'models/value.yaml' }, self: { $ref: '#/components/schemas/Page' } }, default: { $ref: 'data-only.yaml' } },
        },
      },
    }));
    expect(requestsOf(result).map((r) => r.request.openapi?.operation)).toEqual(['GET /r', 'GET /s', 'GET /t']);
    const note = result.notes.find((n) => n.includes('not followed'))!;
    for (const ref of ['models/pet.yaml', 'models/value.yaml', 'errors.yaml#/responses/NotFound', 'headers.yaml#/Rate', 'links.yaml#/Next', 'https://schemas.example.test/t.json']) expect(note, ref).toContain(ref);
    for (const data of ['not-a-ref.yaml', 'nor-this.yaml', 'data-only.yaml']) expect(note, data).not.toContain(data);
    // Each named once, though two operations reach Page (and Page reaches itself).
    expect(note.match(/models\/pet\.yaml/g)).toHaveLength(1);
  });

  it('a response-schema walk is bounded on a huge document', () => {
    const props = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`p${i}`, { $ref: `far/${i}.yaml` }]));
    const result = run(JSON.stringify({ ...base, paths: { '/h': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { type: 'object', properties: props } } } } } } } } }), 'doc.json');
    // The walk is cut and says so (each far file not fetched, counted past the first few).
    expect(result.notes.find((n) => n.includes('not followed'))).toMatch(/far\/\d+\.yaml.* and \d+ more/);
  });

  it('ends cyclic schemas', () => {
    const result = run(yamlDoc({
      ...base,
      paths: { '/p': { post: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Person' } } } }, responses: ok } } },
      components: {
        schemas: {
          Person: { type: 'object', properties: { name: { type: 'string' }, friend: { $ref: '#/components/schemas/Person' }, pets: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } } },
          Pet: { allOf: [{ $ref: '#/components/schemas/Person' }, { type: 'object', properties: { kind: { type: 'string' } } }] },
        },
      },
    }));
    expect(JSON.parse(String(requestsOf(result)[0]!.request.body?.text))).toEqual({ name: 'string', pets: [{ kind: 'string' }] });
  });

  it('imports an operation with no responses, with a note', () => {
    const result = run(yamlDoc({ ...base, paths: { '/x': { get: { summary: 'X' }, post: { responses: {} } } } }));
    expect(requestsOf(result)).toHaveLength(2);
    expect(result.notes.join('\n')).toMatch(/2 operations document no responses.*GET \/x, POST \/x/);
  });

  it(`cuts documents with more than ${MAX_OPERATIONS} operations short`, () => {
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < MAX_OPERATIONS + 5; i++) paths[`/r${i}`] = { get: { responses: ok } };
    const result = importOpenApiText(JSON.stringify({ ...base, paths }), { label: 'big.json' });
    expect(requestsOf(result)).toHaveLength(MAX_OPERATIONS);
    expect(result.notes.join('\n')).toMatch(/10005 operations; Ferry imports at most 10000 at once, so the last 5 were left out/);
  });

  it('keeps hostile titles and names inside the workspace', async () => {
    const root = await tempWorkspace();
    dirs.push(root);
    const result = run(yamlDoc({
      ...base,
      info: { title: '../../outside/_folder' },
      paths: { '/a': { get: { summary: `${'x'.repeat(300)}/../..`, responses: ok } }, '/b': { get: { summary: 'CON', responses: ok } } },
    }));
    const ws = await openWorkspace(root);
    await commitImport({ root, id: ws.id }, result);
    const files = await listFiles(root);
    expect(files.every((f) => !f.startsWith('..'))).toBe(true);
    expect(files.filter((f) => f.startsWith('specs/'))).toHaveLength(1);
    const reopened = await openWorkspace(root);
    expect(reopened.warnings).toEqual([]);
    const folder = reopened.tree.children[0]!;
    expect(folder.type === 'folder' && folder.name).toBe('../../outside/_folder');
    expect(folder.type === 'folder' && folder.children.length).toBe(2);
    expect(path.basename(files.find((f) => f.includes('CON'))!)).toBe('CON_.yaml');
  });
});
