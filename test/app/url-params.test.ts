/**
 * The app's Params table and spec 2.3's `paramDescriptions` ("descriptions of the enabled query
 * parameters, by key"): a key/value row whose `description` holds the text, as `ferry import`
 * writes it from a collection export. The table showed the row's `value` instead (empty after an
 * import) and wrote descriptions there. A real import into a temporary workspace, read back.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paramFields, queryRows } from '../../src/app/web/url-params.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const collection = {
  info: { name: 'Shop', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
  item: [{
    name: 'List',
    request: {
      method: 'GET',
      url: {
        raw: 'http://127.0.0.1:9/items?page=1&size=20',
        protocol: 'http', host: ['127', '0', '0', '1'], port: '9', path: ['items'],
        query: [
          { key: 'page', value: '1', description: 'Page number, from 1' },
          { key: 'size', value: '20' },
          { key: 'sort', value: 'name', description: 'Field to sort by', disabled: true },
        ],
      },
    },
  }],
};

describe('the Params table reads and writes paramDescriptions as the format has them', () => {
  it('an imported request shows its descriptions; the table writes them back in `description`', async () => {
    await isolatedDataDir();
    const root = await tempDir();
    expect((await ferry(['init', root])).code).toBe(0);
    const file = path.join(await tempDir(), 'shop.postman_collection.json');
    await fs.writeFile(file, JSON.stringify(collection));
    const imported = await ferry(['-w', root, 'import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    const ws = await openWorkspace(root);
    const node = ws.tree.children.flatMap((c) => (c.type === 'folder' ? c.children : [c])).find((c) => c.type === 'request');
    if (node?.type !== 'request') throw new Error('no request imported');
    const request = node.request;

    const rows = queryRows(request.url, request.paramDescriptions);
    expect(rows.map((r) => [r.key, r.value, r.description])).toEqual([['page', '1', 'Page number, from 1'], ['size', '20', '']]);
    expect(request.disabledParams.map((r) => [r.key, r.description])).toEqual([['sort', 'Field to sort by']]);

    // Editing a value in the table keeps each description where the format has it.
    const fields = paramFields(request.url, [{ ...rows[0]!, value: '2' }, rows[1]!]);
    expect(fields.url).toBe('http://127.0.0.1:9/items?page=2&size=20');
    expect(fields.paramDescriptions).toEqual([{ key: 'page', value: '', enabled: true, description: 'Page number, from 1' }]);
  });

  it('a description an earlier app wrote in `value` is still shown', () => {
    expect(queryRows('http://h/?q=1', [{ key: 'q', value: 'the query', description: '' }])[0]!.description).toBe('the query');
  });
});
