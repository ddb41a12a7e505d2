/** `ferry import` of a document from a loopback URL, then `ferry update --dry-run`, `ferry update`, `--json`. */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
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
    const update = await ferry('update', 'Local');
    expect(update.code).toBe(0);
    expect(update.out).toContain('+ POST /y  Y');
    expect(update.out).toContain('Updated.');
  });

  it('reports bad sources as usage errors', async () => {
    const missing = await ferry('update', 'Remote', '--from', `${base}/nope.yaml`);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/failed with status 404/);
  });
});
