/**
 * The app's Params table and spec 2.3's `paramDescriptions` ("descriptions of the enabled query
 * parameters, by key"): a key/value row whose `description` holds the text, as `ferry import`
 * writes it from a collection export. The table showed the row's `value` instead (empty after an
 * import) and wrote descriptions there. A real import into a temporary workspace, read back.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { paramFields, paramRows, queryRows } from '../../src/app/web/url-params.js';
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

/**
 * A switched-off query parameter went to the end of the Params table, and switched on again to the
 * end of the URL: the table was read back from the file's fields (the URL's parameters, then
 * `disabledParams`), which keep no place for it. Now each row stays where the user had it.
 */
describe('a switched-off query parameter keeps its place in the table and the URL', () => {
  const row = (key: string, value: string, enabled = true, description = '') => ({ key, value, enabled, description });
  const url = 'http://127.0.0.1:9/items?a=1&b=2&c=3#top';
  const cells = (rows: readonly { key: string; enabled: boolean }[]) => rows.map((r) => `${r.enabled ? '' : '!'}${r.key}`).join(' ');
  /** What the editor does: the table set, written into the request's fields, read back as the table. */
  function roundTrip(current: string, rows: ReturnType<typeof row>[]) {
    const fields = paramFields(current, rows);
    return { fields, shown: paramRows(fields.url, fields.disabledParams, fields.paramDescriptions, rows) };
  }

  it('switched off, edited, and on again: the row stays second, and comes back second in the URL', () => {
    const off = roundTrip(url, [row('a', '1'), row('b', '2', false, 'page size'), row('c', '3')]);
    expect(off.fields.url).toBe('http://127.0.0.1:9/items?a=1&c=3#top');
    // What the file gets (spec 2.3, 2.4): the row in disabledParams, `enabled: false` with its description.
    expect(off.fields.disabledParams).toEqual([{ key: 'b', value: '2', enabled: false, description: 'page size' }]);
    expect(cells(off.shown)).toBe('a !b c');

    const edited = roundTrip(off.fields.url, off.shown.map((r) => (r.key === 'b' ? { ...r, value: '20' } : r)) as ReturnType<typeof row>[]);
    expect(cells(edited.shown)).toBe('a !b c');
    expect(edited.fields.disabledParams.map((r) => r.value)).toEqual(['20']);

    const on = roundTrip(edited.fields.url, edited.shown.map((r) => ({ ...r, enabled: true })) as ReturnType<typeof row>[]);
    expect(on.fields.url).toBe('http://127.0.0.1:9/items?a=1&b=20&c=3#top');
    expect(on.fields.disabledParams).toEqual([]);
    expect(on.fields.paramDescriptions).toEqual([{ key: 'b', value: '', enabled: true, description: 'page size' }]);
    expect(cells(on.shown)).toBe('a b c');
  });

  it('first and last rows, and two in a row, stay where they were', () => {
    expect(cells(roundTrip(url, [row('a', '1', false), row('b', '2'), row('c', '3')]).shown)).toBe('!a b c');
    expect(cells(roundTrip(url, [row('a', '1'), row('b', '2'), row('c', '3', false)]).shown)).toBe('a b !c');
    const two = roundTrip(url, [row('a', '1'), row('b', '2', false), row('x', '9', false), row('c', '3')]);
    expect(two.fields.url).toBe('http://127.0.0.1:9/items?a=1&c=3#top');
    expect(cells(two.shown)).toBe('a !b !x c');
    // All off: the URL loses its query (the hash stays), the table keeps the order.
    const all = roundTrip(url, [row('a', '1', false), row('b', '2', false), row('c', '3', false)]);
    expect(all.fields.url).toBe('http://127.0.0.1:9/items#top');
    expect(cells(all.shown)).toBe('!a !b !c');
  });

  it('the URL typed meanwhile: the row stays after the parameter it followed, even with its value changed', () => {
    const shown = [row('a', '1'), row('b', '2', false), row('c', '3')];
    const disabled = [row('b', '2', false)];
    expect(cells(paramRows('http://h/?z=0&a=1&c=3', disabled, [], shown))).toBe('z a !b c');
    expect(cells(paramRows('http://h/?a=7&c=3', disabled, [], shown))).toBe('a !b c');
    // The parameter it followed is gone: after as many as came before it.
    expect(cells(paramRows('http://h/?c=3&d=4', disabled, [], shown))).toBe('c !b d');
  });

  it('without the table as last set (a fresh open, a file changed on disk): switched-off rows after the enabled ones, in the file\'s order', () => {
    expect(cells(paramRows(url, [row('y', '1', false), row('x', '2', false)], []))).toBe('a b c !y !x');
    // A row the table never showed (added in the file) goes last; the ones it showed keep their place.
    expect(cells(paramRows(url, [row('x', '2', false), row('new', '', false)], [], [row('a', '1'), row('x', '2', false), row('b', '2'), row('c', '3')]))).toBe('a !x b c !new');
  });
});
