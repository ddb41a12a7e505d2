/** `ferry import` of a document from a loopback URL, then `ferry update --dry-run`, `ferry update`, `--json`. */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { ferryOnTerminal } from '../../support/cli.js';
import { listFiles, tempWorkspace, yamlDoc } from './helpers.js';

const ok = { 200: { description: 'ok' } };
const versions: Record<string, string> = {
  '/v1/openapi.yaml': yamlDoc({ openapi: '3.0.3', info: { title: 'Remote' }, servers: [{ url: '/api' }], paths: { '/a': { get: { summary: 'A', responses: ok } } } }),
  '/v2/openapi.yaml': yamlDoc({ openapi: '3.0.3', info: { title: 'Remote' }, servers: [{ url: '/api' }], paths: { '/a': { get: { summary: 'A', responses: ok } }, '/b/{id}': { get: { summary: 'B', responses: ok } } } }),
};
let server: http.Server;
let base = '';
let root = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const body = versions[req.url ?? ''];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/yaml' }).end(body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  root = await tempWorkspace();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await fs.rm(root, { recursive: true, force: true });
});

async function ferry(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['-w', root, ...args], { output: { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`), color: false } });
  return { code, out, err };
}

describe('ferry import and ferry update with an OpenAPI URL', () => {
  it('imports from a URL, with the download\'s scheme and host as base URL', async () => {
    const result = await ferry('import', `${base}/v1/openapi.yaml`, '--json');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.out)).toMatchObject({ kind: 'openapi', name: 'Remote', requests: 1, environments: 1 });
    const env = await fs.readFile(path.join(root, 'environments', 'Remote.yaml'), 'utf8');
    expect(env).toContain(`value: ${base}/api`);
    const folder = await fs.readFile(path.join(root, 'requests', 'Remote', '_folder.yaml'), 'utf8');
    expect(folder).toContain(`source: ${base}/v1/openapi.yaml`);
    expect(folder).toContain('spec: specs/Remote.yaml');
  });

  it('previews with --dry-run and writes nothing, then updates', async () => {
    const before = await listFiles(root);
    const dry = await ferry('update', 'Remote', '--from', `${base}/v2/openapi.yaml`, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('Added (1)');
    expect(dry.out).toContain('+ GET /b/{id}  B');
    expect(dry.out).toContain('Dry run: nothing was written');
    expect(await listFiles(root)).toEqual(before);

    const real = await ferry('update', 'Remote', '--from', `${base}/v2/openapi.yaml`, '--json');
    expect(real.code).toBe(0);
    const summary = JSON.parse(real.out);
    expect(summary).toMatchObject({ written: true, upToDate: false, newVariables: ['bId'] });
    expect(await fs.readFile(path.join(root, 'requests', 'Remote', 'B.yaml'), 'utf8')).toContain('url: "{{baseUrl}}/b/{{bId}}"');
    expect(await fs.readFile(path.join(root, 'requests', 'Remote', '_folder.yaml'), 'utf8')).toContain(`source: ${base}/v2/openapi.yaml`);

    // Without --from, the recorded source is used; it already matches.
    const again = await ferry('update', 'Remote');
    expect(again.out).toContain('The folder already matches this version.');
  });

  it('records a document inside the workspace by its path and updates from it without --from', async () => {
    await fs.mkdir(path.join(root, 'api'), { recursive: true });
    const file = path.join(root, 'api', 'local.yaml');
    const doc = (paths: Record<string, unknown>) => yamlDoc({ openapi: '3.1.0', info: { title: 'Local' }, servers: [{ url: 'https://local.example.test' }], paths });
    await fs.writeFile(file, doc({ '/x': { get: { summary: 'X', responses: ok } } }));
    expect((await ferry('import', file)).code).toBe(0);
    expect(await fs.readFile(path.join(root, 'requests', 'Local', '_folder.yaml'), 'utf8')).toContain('source: api/local.yaml');
    await fs.writeFile(file, doc({ '/x': { get: { summary: 'X', responses: ok } }, '/y': { post: { summary: 'Y', responses: ok } } }));
    // On a terminal, a status line says what the update is doing, and is gone before the preview.
    const update = await ferryOnTerminal(['-w', root, 'update', 'Local']);
    expect(update.code).toBe(0);
    expect(update.stdout).toContain('+ POST /y  Y');
    expect(update.stdout).toContain('Updated.');
    const CLEAR = '\r\u001b[2K';
    expect(update.status).toEqual([`${CLEAR}→ Reading api/local.yaml`, `${CLEAR}→ Comparing the document with Local`, expect.stringMatching(/→ Writing \d+ changes$/), CLEAR]);
  });

  it('the preview says when the recorded source changes; the kept copy under specs/ is never recorded as the source', async () => {
    await fs.mkdir(path.join(root, 'api'), { recursive: true });
    const text = yamlDoc({ openapi: '3.1.0', info: { title: 'Moved' }, servers: [{ url: 'https://moved.example.test' }], paths: { '/x': { get: { summary: 'X', responses: ok } } } });
    await fs.writeFile(path.join(root, 'api', 'moved.yaml'), text);
    expect((await ferry('import', path.join(root, 'api', 'moved.yaml'))).code).toBe(0);
    const folderFile = path.join(root, 'requests', 'Moved', '_folder.yaml');
    // The same document, kept elsewhere now: only the recorded source changes, and the preview says so.
    await fs.writeFile(path.join(root, 'api', 'moved-v2.yaml'), text);
    const dry = await ferry('update', 'Moved', '--from', path.join(root, 'api', 'moved-v2.yaml'), '--dry-run');
    expect(dry.out).toContain('The recorded source becomes api/moved-v2.yaml');
    expect(dry.out).not.toContain('already matches');
    const json = JSON.parse((await ferry('update', 'Moved', '--from', path.join(root, 'api', 'moved-v2.yaml'), '--dry-run', '--json')).out);
    expect(json).toMatchObject({ upToDate: false, source: 'api/moved-v2.yaml' });
    // From Ferry's own copy: nothing to do, and the source stays where the document comes from.
    const fromCopy = await ferry('update', 'Moved', '--from', path.join(root, 'specs', 'Moved.yaml'));
    expect(fromCopy.code).toBe(0);
    expect(fromCopy.out).toContain('The folder already matches this version.');
    expect(await fs.readFile(folderFile, 'utf8')).toContain('source: api/moved.yaml');
  });

  it('finds the folder by its name without --from, recreates a deleted environment, and replaces a JSON document with YAML', async () => {
    await fs.mkdir(path.join(root, 'api'), { recursive: true });
    const title = 'Shop: v1/beta';
    const v1 = { openapi: '3.0.3', info: { title }, servers: [{ url: 'https://shop.example.test' }], paths: { '/items': { get: { summary: 'List', responses: ok } } } };
    await fs.writeFile(path.join(root, 'api', 'shop.json'), JSON.stringify(v1));
    expect((await ferry('import', path.join(root, 'api', 'shop.json'))).code).toBe(0);
    const folderFile = path.join(root, 'requests', 'Shop- v1-beta', '_folder.yaml');
    expect(await fs.readFile(folderFile, 'utf8')).toContain('spec: specs/Shop- v1-beta.json');
    await fs.rm(path.join(root, 'environments', 'Shop- v1-beta.yaml'));

    const v2 = yamlDoc({ ...v1, paths: { ...v1.paths, '/items/{item_id}': { get: { summary: 'One', parameters: [{ name: 'item_id', in: 'path', required: true, example: 'i-9' }], responses: ok } } } });
    await fs.writeFile(path.join(root, 'api', 'shop-v2.yaml'), v2);
    const update = await ferry('update', title, '--from', path.join(root, 'api', 'shop-v2.yaml'));
    expect(update.code).toBe(0);
    expect(update.out).toMatch(/New environment variables in "Shop: v1\/beta" \(new environment\) \(2\)\n  \+ baseUrl\n  \+ itemId/);
    const env = await fs.readFile(path.join(root, 'environments', 'Shop- v1-beta.yaml'), 'utf8');
    expect(env).toContain('key: itemId\n    value: i-9');
    const folder = await fs.readFile(folderFile, 'utf8');
    expect(folder).toContain('spec: specs/Shop- v1-beta.yaml');
    expect(folder).toContain('source: api/shop-v2.yaml');
    expect(await fs.readFile(path.join(root, 'specs', 'Shop- v1-beta.yaml'), 'utf8')).toBe(v2);
    await expect(fs.stat(path.join(root, 'specs', 'Shop- v1-beta.json'))).rejects.toThrow();

    // By display name, without --from: the recorded source (now the YAML file) already matches.
    const again = await ferry('update', title);
    expect(again.code).toBe(0);
    expect(again.out).toContain('The folder already matches this version.');
  });

  it('does not read a recorded source outside the workspace or through a link', async () => {
    const folderFile = path.join(root, 'requests', 'Local', '_folder.yaml');
    const original = await fs.readFile(folderFile, 'utf8');
    const outside = path.join(path.dirname(root), `${path.basename(root)}-outside.yaml`);
    await fs.writeFile(outside, 'openapi: 3.0.0\ninfo: {title: Local}\npaths: {}\n');
    await fs.symlink(outside, path.join(root, 'api', 'link.yaml'));
    try {
      for (const source of [outside, `../${path.basename(outside)}`, 'api/link.yaml']) {
        await fs.writeFile(folderFile, original.replace(/source: .*/, `source: ${JSON.stringify(source)}`));
        const result = await ferry('update', 'Local', '--dry-run');
        expect(result.code, source).toBe(2);
        expect(result.err).toMatch(/records its document as ".*", which (is not a path inside the workspace|cannot be read: .*link).*give the new version with --from/);
      }
    } finally {
      await fs.writeFile(folderFile, original);
      await fs.rm(outside, { force: true });
      await fs.rm(path.join(root, 'api', 'link.yaml'), { force: true });
    }
  });

  it('refuses to write through a linked folder: exit 2 (as an import does), a message saying what to do, nothing written', async () => {
    const ws = await tempWorkspace();
    try {
      const run = (...args: string[]) => main(['-w', ws, ...args], { output: { out: () => {}, err: (t) => (err += `${t}\n`), color: false } });
      let err = '';
      expect(await run('import', `${base}/v1/openapi.yaml`)).toBe(0);
      const elsewhere = `${ws}-elsewhere`;
      await fs.rename(path.join(ws, 'specs'), elsewhere);
      await fs.symlink(elsewhere, path.join(ws, 'specs'));
      const before = await listFiles(ws);
      expect(await run('update', 'Remote', '--from', `${base}/v2/openapi.yaml`)).toBe(2);
      expect(err).toMatch(/^ferry: Not updated: specs is a symbolic link, and Ferry never follows links\. Put the real folder or file in its place \(remove the link, then move or copy what it points to here\), then update again\. Nothing was written\.$/m);
      expect(err).not.toMatch(/\n\s+at /); // no stack trace
      expect(await listFiles(ws)).toEqual(before);
      await fs.rm(elsewhere, { recursive: true, force: true });
    } finally {
      await fs.rm(ws, { recursive: true, force: true });
    }
  });

  it('a document that does not say where the API runs is refused in spec 7\'s words, naming --base-url; nothing is written until it is given', async () => {
    const ws = await tempWorkspace();
    const file = path.join(ws, 'nowhere.json');
    await fs.writeFile(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'Nowhere', version: '1' }, paths: { '/items': { get: { summary: 'List items', responses: ok } } } }));
    try {
      const before = await listFiles(ws);
      const run = (...args: string[]) => main(['-w', ws, ...args], { output: { out: () => {}, err: (t) => (err += `${t}\n`), color: false } });
      let err = '';
      expect(await run('import', file)).toBe(2);
      expect(err).toBe('ferry: The document does not say where the API runs; give its base URL and import again (ferry import FILE --base-url https://api.example.com).\n');
      expect(await listFiles(ws)).toEqual(before);
      err = '';
      expect(await run('import', file, '--base-url', 'http://127.0.0.1:4010')).toBe(0);
      expect(err).toBe('');
      expect(await fs.readFile(path.join(ws, 'environments', 'Nowhere.yaml'), 'utf8')).toContain('http://127.0.0.1:4010');
    } finally {
      await fs.rm(ws, { recursive: true, force: true });
    }
  });

  it('says when --base-url does not apply', async () => {
    const curl = await ferry('import', '--curl', 'curl https://x.example.test', '--base-url', 'https://y.example.test');
    expect(curl.code).toBe(2);
    expect(curl.err).toContain('--base-url is for OpenAPI and Swagger documents, not for --curl.');
    const envFile = path.join(path.dirname(root), `${path.basename(root)}-env.json`);
    await fs.writeFile(envFile, JSON.stringify({ name: 'Env', values: [{ key: 'a', value: '1', enabled: true }], _postman_variable_scope: 'environment' }));
    try {
      const env = await ferry('import', envFile, '--base-url', 'https://y.example.test', '--json');
      expect(env.code).toBe(0);
      expect(JSON.parse(env.out).notes).toContain('--base-url was not used: it is for OpenAPI and Swagger documents, and this is an environment export.');
    } finally {
      await fs.rm(envFile, { force: true });
    }
  });

  it('reports bad sources as usage errors', async () => {
    const missing = await ferry('update', 'Remote', '--from', `${base}/nope.yaml`);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/failed with status 404/);
  });
});
