/**
 * What a `ferry import` process of a plain YAML document loads (issue 24): the document is read by
 * js-yaml (the `yaml` package is for writing the files, loaded from the bundle's one file of it),
 * and a file import does not load the download client.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../../support/cli.js';
import { modulesLoadedBy } from '../../support/loaded-modules.js';
import { isolatedDataDir, tempDir } from '../../support/temp.js';
import { yamlDoc } from './helpers.js';

describe('a `ferry import` process', () => {
  it('of a plain YAML OpenAPI document reads it with js-yaml, writes with the bundled `yaml`, loads no undici, and writes every file', async () => {
    const dir = await tempDir();
    const ws = path.join(dir, 'ws');
    expect((await ferry(['init', ws])).code).toBe(0);
    const file = path.join(dir, 'api.yaml');
    await fs.writeFile(file, yamlDoc({
      openapi: '3.0.3',
      info: { title: 'Pets', description: 'Two lines\nof docs.' },
      servers: [{ url: 'https://pets.example.test/v1' }],
      tags: [{ name: 'pets', description: 'Pets: all of them' }],
      paths: {
        '/pets/{id}': {
          get: { tags: ['pets'], summary: 'Show a pet', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { 200: { description: 'ok' } } },
          put: { tags: ['pets'], summary: 'Change a pet', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', example: 'Rex' } } } } } }, responses: { 200: { description: 'ok' } } },
        },
      },
    }));
    const { code, stdout, chunks, packages } = await modulesLoadedBy(['-w', ws, 'import', file], { env: { FERRY_DATA_DIR: await isolatedDataDir() } });
    expect(code, stdout).toBe(0);
    expect(stdout).toContain('2 requests');
    expect(packages.has('js-yaml')).toBe(true);
    expect(packages.has('undici')).toBe(false);
    // `yaml` as one file (scripts/bundle-cli.mjs), not the package's 72.
    expect(packages.has('yaml')).toBe(true);
    expect(chunks.some((c) => path.basename(c) === 'yaml.cjs'), chunks.join('\n')).toBe(true);
    const put = await fs.readFile(path.join(ws, 'requests', 'Pets', 'pets', 'Change a pet.yaml'), 'utf8');
    expect(put).toMatch(/^method: PUT\nurl: "\{\{baseUrl\}\}\/pets\/\{\{\w+\}\}"$/m);
    expect(put).toMatch(/body:\n {2}type: json\n {2}text: \|-\n {4}\{\n/);
  }, 30_000);
});
