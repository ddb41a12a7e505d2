/**
 * Bad inputs: each gives a clear message and leaves the workspace exactly as it was.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitImport, convert, convertInput, ImportError, readImportFile } from '../../src/importers/index.js';
import { curlToRequest } from '../../src/importers/curl/index.js';
import { initWorkspace, openWorkspace } from '../../src/workspace/index.js';
import { folderSnapshot } from '../support/temp.js';
import { readWithLinkSwappedAtOpen } from '../support/link-swap.js';

let tmp: string;
let root: string;
let id: string;

beforeAll(async () => {
  tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-import-bad-'));
  process.env.FERRY_DATA_DIR = path.join(tmp, 'data');
  root = await initWorkspace(path.join(tmp, 'ws'));
  id = (await openWorkspace(root)).id;
});
afterAll(async () => {
  delete process.env.FERRY_DATA_DIR;
  await fs.rm(tmp, { recursive: true, force: true });
});

const snapshot = () => folderSnapshot(root);

async function expectRefused(text: string, message: RegExp): Promise<void> {
  const before = await snapshot();
  await expect(convert(text, { label: 'test' }).then((r) => commitImport({ root, id }, r))).rejects.toThrow(message);
  expect(await snapshot()).toEqual(before);
}

const collection = (item: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item, ...extra });

describe('bad inputs', () => {
  it('truncated JSON names the place and the likely cause', async () => {
    const text = collection([{ name: 'a', request: { method: 'GET', url: 'http://x' } }]);
    await expectRefused(text.slice(0, text.length - 20), /does not parse.*line 1, column \d+.*cut short/);
  });

  it('JSON cut off at its very end still says where', async () => {
    await expectRefused('{"info": {"name": "C", "schema": "x"}, "item": [', /Unexpected end of JSON input at line 1, column 49\. Is it cut short\?/);
  });

  it('a stray token, which Node 20 reports with no position, is named by line and column', async () => {
    // Node's own words are "Unexpected token '}', …"item": [ }" is not valid JSON": nothing to find it by.
    const text = '{"info": {"name": "C", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},\n "item": [\n  {"name": "a", "request": {"method": "GET", "url": "http://x"}},\n  ]}';
    await expectRefused(text, /^.* looks like JSON but does not parse: Unexpected token '\]' at line 4, column 3\. Is it cut short\? Export it again\.$/);
    await expectRefused('{"item": [ }', /does not parse: Unexpected token '\}' at line 1, column 12\./);
    await expectRefused('[{"a": tru}]', /does not parse: Unexpected token '\}' at line 1, column 11\./);
  });

  it('OpenAPI refusals through detection: YAML bomb, broken YAML, not OpenAPI, no host', async () => {
    const bomb = ['openapi: 3.0.0', 'info: {title: bomb}', 'paths: {}', 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) bomb.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    await expectRefused(bomb.join('\n'), /expands YAML aliases more than 1000 times.*YAML bomb/);
    await expectRefused('openapi: 3.0.0\ninfo:\n  title: [unclosed\npaths: {}\n', /looks like an OpenAPI\/Swagger YAML document but does not parse at line 4, column 1/);
    await expectRefused('{"openapi": "4.0.0", "info": {"title": "x"}, "paths": {}}', /version 4\.0\.0; Ferry imports OpenAPI 3\.x and Swagger 2\.0/);
    await expectRefused('openapi: 3.0.0\ninfo: {title: T}\npaths:\n  /a: {get: {responses: {200: {description: ok}}}}\n', /does not say where the API runs; give its base URL and import again/);
    // Repeated keys are common in real documents and do not stop detection.
    const dupes = 'openapi: 3.0.0\ninfo: {title: Dupes}\nservers: [{url: "https://x.test"}]\npaths:\n  /a:\n    get: {summary: A, summary: B, responses: {200: {description: ok}}}\n';
    expect((await convert(dupes, { label: 't' })).kind).toBe('openapi');
    // So is an unquoted version, which YAML reads as a number.
    expect((await convert(dupes.replace('openapi: 3.0.0', 'openapi: 3.0'), { label: 't' })).kind).toBe('openapi');
    expect((await convert(dupes.replace('openapi: 3.0.0', 'openapi: 3.1'), { label: 't' })).kind).toBe('openapi');
  });

  it('a failed OpenAPI import leaves no specs/ folder behind', async () => {
    const doc = 'openapi: 3.0.0\ninfo: {title: Late}\nservers: [{url: "https://x.test"}]\npaths:\n  /a: {get: {responses: {200: {description: ok}}}}\n';
    const result = await convert(doc, { label: 't' });
    (result.items[0] as { children: { request: Record<string, unknown> }[] }).children[0]!.request.headers = 'not a list';
    const before = await snapshot();
    expect(before['specs/']).toBeUndefined();
    await expect(commitImport({ root, id }, result)).rejects.toThrow(/invalid request/);
    expect(await snapshot()).toEqual(before);
  });

  it('binary garbage is refused with the supported formats', async () => {
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
    await expectRefused(bytes.toString('latin1'), /not a format Ferry can import.*Supported: collection export v2\/v2\.1, environment export, OpenAPI/);
  });

  it('an unrecognized document is refused with the supported formats', async () => {
    await expectRefused('{"hello": "world"}', /Supported: collection export v2\/v2\.1/);
    await expectRefused('just some words', /Supported:/);
    await expectRefused('[]', /not a format Ferry can import \(an empty JSON list\)\. Supported:/);
    await expectRefused('[1, 2]', /a JSON list that is not a globals export/);
  });

  it('a 60 MB file is refused before it is read whole', async () => {
    const big = path.join(tmp, 'big.json');
    const handle = await fs.open(big, 'w');
    await handle.truncate(60 * 1024 * 1024); // sparse: no 60 MB written
    await handle.close();
    await expect(readImportFile(big)).rejects.toThrow(/60\.0 MB; imports are limited to 50 MB/);
    const before = await snapshot();
    await expect(convertInput(big).then((r) => commitImport({ root, id }, r))).rejects.toThrow(ImportError);
    expect(await snapshot()).toEqual(before);
  });

  it('a link put in the file\'s place after it was checked is not followed: refused with the link\'s words, the file it points to unread', async () => {
    const file = path.join(tmp, 'swapped.json');
    const outside = path.join(tmp, 'outside.json');
    await fs.writeFile(file, '{"info": {"name": "mine"}}');
    await fs.writeFile(outside, '{"info": {"name": "not yours"}}');
    const { outcome, swapped } = await readWithLinkSwappedAtOpen(file, outside, () => readImportFile(file));
    expect(swapped).toBe(1);
    expect(outcome).toEqual({ error: new ImportError(`${file} is a symbolic link; links are never followed. Import the file it points to.`) });
  });

  it('a collection 200 folders deep is refused', async () => {
    let item: Record<string, unknown> = { name: 'leaf', request: { url: 'http://x' } };
    for (let i = 0; i < 200; i++) item = { name: `f${i}`, item: [item] };
    await expectRefused(collection([item]), /nests folders more than \d+ levels deep.*at most 32 folder levels/);
  });

  it('folders whose path is longer than the file system allows are refused saying what to do, not with the staging path', async () => {
    // 29 levels of 49 emoji (196 bytes each): within the 32 levels, but about 5,800 bytes of path (Linux allows 4,096).
    let item: Record<string, unknown> = { name: 'leaf', request: { url: 'http://x' } };
    for (let i = 0; i < 29; i++) item = { name: `${'😀'.repeat(49)}${i}`, item: [item] };
    const before = await snapshot();
    const error = await convert(collection([item]), { label: 'test' }).then((r) => commitImport({ root, id }, r)).then(() => undefined, (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(ImportError);
    expect(error!.message).toMatch(/^The path requests\/C\/.*\/.* is longer than this computer's file system allows/);
    expect(error!.message).toContain('shorten or flatten');
    expect(error!.message).not.toContain('.ferry-import-');
    expect(error!.message.length).toBeLessThan(600);
    expect(await snapshot()).toEqual(before);
  });

  it('a collection of 20,000 items is refused with the limit, whether requests or folders', async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ name: `r${i}`, request: { url: `http://x/${i}` } }));
    await expectRefused(collection(items), /more than 10,000 items \(requests and folders\).*Split the collection/);
    const folders = Array.from({ length: 20_000 }, (_, i) => ({ name: `f${i}`, item: [] }));
    await expectRefused(collection(folders), /more than 10,000 items/);
    const mixed = Array.from({ length: 100 }, (_, f) => ({ name: `f${f}`, item: Array.from({ length: 199 }, (_, r) => ({ name: `r${r}`, request: { url: 'http://x' } })) }));
    await expectRefused(collection(mixed), /more than 10,000 items/);
  });

  it('a collection of exactly 10,000 items is not refused', async () => {
    const items = Array.from({ length: 100 }, (_, f) => ({ name: `f${f}`, item: Array.from({ length: 99 }, (_, r) => ({ name: `r${r}`, request: { url: 'http://x' } })) }));
    const result = await convert(collection(items), { label: 't' });
    expect(result.items[0]!.type === 'folder' && result.items[0]!.children).toHaveLength(100);
  });

  it('JSON or YAML nested thousands of levels deep is refused, not a stack overflow', async () => {
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    await expectRefused('{"name":"D","values":[{"key":"k","value":' + deep(200_000) + '}]}', /nests lists and objects more than 1,000 levels deep/);
    await expectRefused(collection([{ name: 'r', request: { url: 'http://x', body: { mode: 'raw', raw: 'RAW' } } }]).replace('"RAW"', deep(5_000)), /more than 1,000 levels deep/);
    await expectRefused('openapi: 3.0.0\ninfo: {title: T}\npaths: {}\nx: ' + deep(100_000) + '\n', /nests lists and objects too deeply for the YAML reader/);
    // YAML that js-yaml reads counts its depth as it parses (no second walk): past the bound, refused as JSON is.
    await expectRefused('openapi: 3.0.0\ninfo: {title: T}\npaths: {}\nx-deep: ' + deep(1_500) + '\n', /nests lists and objects more than 1,000 levels deep/);
    // The document's mapping is the first level: 1,001 levels refused, 1,000 imported.
    await expectRefused('openapi: 3.0.0\ninfo: {title: T}\npaths: {}\nx-deep: ' + deep(1_000) + '\n', /more than 1,000 levels deep/);
    const deepYaml = await convert('openapi: 3.0.0\ninfo: {title: T}\npaths: {}\nx-deep: ' + deep(999) + '\n', { label: 't' });
    expect(deepYaml.kind).toBe('openapi');
    // Real documents nest a few dozen levels at most; a few hundred still import.
    const fine = await convert('{"name":"ok","values":[{"key":"k","value":' + deep(300) + '}]}', { label: 't' });
    expect(fine.environments[0]!.variables[0]!.value).toBe(deep(300));
  });

  it('names with every forbidden character import under safe file names', async () => {
    const hostile = 'a<b>c:d"e/f\\g|h?i*j\u0001k';
    const items = [
      { name: hostile, request: { url: 'http://x/1' } },
      { name: hostile, request: { url: 'http://x/2' } },
      { name: '..', request: { url: 'http://x/3' } },
      { name: 'CON', item: [{ name: '_folder', request: { url: 'http://x/4' } }] },
      { name: 'x'.repeat(300), request: { url: 'http://x/5' } },
    ];
    const result = await convert(collection(items, { info: { name: '../../escape', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' } }), { label: 't' });
    const summary = await commitImport({ root, id }, result);
    expect(summary.requests).toBe(5);
    expect(summary.notes.join(' ')).toMatch(/longer than 200 characters/);
    const folder = path.join(root, 'requests', '_-..-escape'); // slashes become -, leading dots dropped, a leading - prefixed with _
    expect((await fs.readdir(folder)).sort()).toEqual(['CON_', '_folder.yaml', 'a-b-c-d-e-f-g-h-i-j-k 2.yaml', 'a-b-c-d-e-f-g-h-i-j-k.yaml', 'get-3.yaml', 'x'.repeat(80) + '.yaml'].sort());
    // A name that makes no file name (`..`, `_folder`) is written under its method and path.
    expect(await fs.readdir(path.join(folder, 'CON_'))).toContain('get-4.yaml');
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([]);
    await fs.rm(folder, { recursive: true });
  });

  it('unbalanced quotes in cURL say where', () => {
    expect(() => curlToRequest(`curl 'http://x -H "a: b"`)).toThrow(/unbalanced quote: the ' at line 1, column 6 is never closed/);
    expect(() => curlToRequest(`curl "http://x`)).toThrow(/unbalanced quote/);
    expect(() => curlToRequest(`curl $'abc`)).toThrow(/unbalanced quote/);
    expect(() => curlToRequest('curl.exe "http://x')).toThrow(/unbalanced quote/);
    expect(() => curlToRequest('curl "http://x" ^\n -H "a')).toThrow(/unbalanced quote/);
    expect(() => curlToRequest('curl -H')).toThrow(/-H needs a value/);
    expect(() => curlToRequest('curl -s')).toThrow(/no URL/);
    expect(() => curlToRequest('wget http://x')).toThrow(/not a curl command/);
  });

  it('a collection without its list of requests, or without info, is refused saying what an export holds (it imported as an empty folder)', async () => {
    const schema = 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json';
    await expectRefused(JSON.stringify({ info: { name: 'C', schema } }), /^This collection export has no list of requests and folders \(`item` is missing\), so it holds nothing to import\. Export the collection again from Postman \(Export, Collection v2\.1\) and import that file\.$/);
    await expectRefused(JSON.stringify({ info: { name: 'C', schema }, item: { name: 'a', request: { url: 'http://x' } } }), /\(`item` is an object, not a list\)/);
    await expectRefused(JSON.stringify({ name: 'C', item: [{ name: 'a', request: { url: 'http://x' } }] }), /^This looks like a Postman collection \(it has an `item` list\) but has no `info` naming its schema version\. Export the collection again from Postman \(Export, Collection v2\.1\) and import that file\.$/);
    // An empty collection is a collection.
    expect((await convert(collection([]), { label: 't' })).kind).toBe('postman');
  });

  it('a v1 collection is refused: export as v2.1 again', async () => {
    await expectRefused(JSON.stringify({ id: 'x', name: 'Old', order: [], requests: [] }), /old v1 format.*v2\.1/);
  });

  it('an import that fails part way leaves nothing behind', async () => {
    // The second request has an invalid seq-independent field (a method that is not text), so validation fails late.
    const result = await convert(collection([{ name: 'ok', request: { url: 'http://x' } }, { name: 'ok2', request: { url: 'http://y' } }]), { label: 't' });
    (result.items[0] as { children: { request: Record<string, unknown> }[] }).children[1]!.request.headers = 'not a list';
    const before = await snapshot();
    await expect(commitImport({ root, id }, result)).rejects.toThrow(/invalid request "ok2": headers: expected a list/);
    expect(await snapshot()).toEqual(before);
    expect((await fs.readdir(path.join(root, 'requests'))).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('importing into a folder that does not exist is refused', async () => {
    const result = await convert(collection([]), { label: 't' });
    await expect(commitImport({ root, id }, result, { into: 'missing' })).rejects.toThrow(/"missing" does not exist/);
  });
});
