import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseResource } from '../../src/model/index.js';
import { editYaml, openWorkspace, readResource, resourceText, saveResource, saveRequest } from '../../src/workspace/index.js';
import { copyFixture } from '../support/temp.js';
import { FULL_FIXTURE_FILES } from '../support/full-fixture.js';

const FILES = FULL_FIXTURE_FILES;

describe('round trip of hand-written files using every field', () => {
  it.each(FILES)('%s %s parses and rewrites byte for byte', async (kind, file) => {
    const root = await copyFixture('full');
    const text = await fs.readFile(path.join(root, file), 'utf8');
    const outcome = await readResource(kind, path.join(root, file), file);
    expect(outcome.ok, JSON.stringify(!outcome.ok && outcome.warning)).toBe(true);
    if (!outcome.ok) return;
    expect(resourceText(kind, outcome.value, text)).toBe(text);
    // Saving without a change writes nothing, not even the same bytes.
    const before = (await fs.stat(path.join(root, file))).mtimeMs;
    await saveResource(path.join(root, file), kind, outcome.value);
    expect((await fs.stat(path.join(root, file))).mtimeMs).toBe(before);
  });

  it('the whole fixture opens without warnings but for the newer format field kept in ferry.yaml', async () => {
    const ws = await openWorkspace(await copyFixture('full'));
    // Kept on purpose, and said: a field this Ferry does not have does nothing (docs/workspace.md).
    expect(ws.warnings).toEqual([{ file: 'ferry.yaml', message: 'fields that ferry.yaml does not have are ignored: futureField.', code: 'unknown-fields' }]);
    expect(ws.id).toBe('full-fixture_01');
    expect(ws.environments.map((e) => e.id)).toEqual(['staging']);
    expect(ws.servers[0]!.value.http!.routes[0]!.fault).toBe('reset');
    expect(ws.loadtests[0]!.value.thresholds[0]!.op).toBe('<');
    const signed = ws.tree.children.find((c) => c.type === 'request' && c.request.name === 'Signed');
    expect(signed?.type === 'request' && signed.request.auth).toMatchObject({ type: 'awsv4', region: 'eu-west-1', service: 's3' });
  });

  it('changing one field through the API changes only that line', async () => {
    const root = await copyFixture('full');
    const file = path.join(root, 'requests/Admin/Create thing.yaml');
    const original = await fs.readFile(file, 'utf8');
    const outcome = await readResource('request', file, 'x');
    if (!outcome.ok) throw new Error(outcome.warning.message);
    const changed = { ...outcome.value, method: 'PUT' };
    await saveRequest(root, 'Admin/Create thing.yaml', changed);
    const after = await fs.readFile(file, 'utf8');
    const diff = lineDiff(original, after);
    expect(diff).toEqual([{ line: 5, before: 'method: POST', after: 'method: PUT' }]);
    expect(after).toContain('# A request using every HTTP field.');
    expect(after).toContain('x-custom:\n  nested: [1, 2, 3]');
  });

  it('editing a nested value keeps comments, quoting and unknown fields', async () => {
    const root = await copyFixture('full');
    const file = path.join(root, 'ferry.yaml');
    const original = await fs.readFile(file, 'utf8');
    const parsed = parseResource('workspace', (await import('yaml')).parse(original));
    if (!parsed.ok) throw new Error('fixture');
    parsed.value.variables[0]!.value = 'http://127.0.0.1:9090';
    await saveResource(file, 'workspace', parsed.value);
    const diff = lineDiff(original, await fs.readFile(file, 'utf8'));
    expect(diff).toEqual([{ line: 7, before: '    value: http://127.0.0.1:8080', after: '    value: http://127.0.0.1:9090' }]);
  });

  it('adding a field inserts it at its declared place; removing one deletes only its line', async () => {
    const root = await copyFixture('full');
    const file = path.join(root, 'environments/staging.yaml');
    const outcome = await readResource('environment', file, 'x');
    if (!outcome.ok) throw new Error('fixture');
    outcome.value.variables.push({ key: 'extra', value: 'v', enabled: true, secret: false });
    await saveResource(file, 'environment', outcome.value);
    expect(await fs.readFile(file, 'utf8')).toMatch(/secret: true\n  - key: extra\n    value: v\n$/);
  });
});

function lineDiff(a: string, b: string): Array<{ line: number; before: string; after: string }> {
  const la = a.split('\n');
  const lb = b.split('\n');
  expect(lb.length).toBe(la.length);
  const out: Array<{ line: number; before: string; after: string }> = [];
  la.forEach((line, i) => {
    if (line !== lb[i]) out.push({ line: i + 1, before: line, after: lb[i]! });
  });
  return out;
}

describe('-0, a number in YAML 1.2', () => {
  it('is read as -0 and written back as -0, by an edit and in a new file (not 0: the fast reader leaves it to yaml)', async () => {
    const root = await copyFixture('full');
    const file = path.join(root, 'R.yaml');
    await fs.writeFile(file, 'name: R\nurl: http://a/\nx-n: -0\nx-m: [-0, 0]\n');
    const outcome = await readResource('request', file, 'requests/R.yaml');
    if (!outcome.ok) throw new Error(outcome.warning.message);
    expect(Object.is((outcome.value as unknown as Record<string, unknown>)['x-n'], -0)).toBe(true);
    await saveResource(file, 'request', { ...outcome.value, url: 'http://b/' });
    expect(await fs.readFile(file, 'utf8')).toBe('name: R\nurl: http://b/\nx-n: -0\nx-m: [-0, 0]\n');
    const fresh = path.join(root, 'N.yaml');
    await saveResource(fresh, 'request', outcome.value);
    expect(await fs.readFile(fresh, 'utf8')).toBe('name: R\nurl: http://a/\nx-n: -0\nx-m:\n  - -0\n  - 0\n');
  });
});

describe('list edits keep the other items as written', () => {
  const source = '# top\nvariables:\n  - key: a\n    value: http://mine # keep\n  - key: b # bee\n    value: "2"\nname: x\n';

  it('appending an item inserts only its lines', () => {
    const out = editYaml(source, { variables: [{ key: 'a', value: 'http://mine' }, { key: 'b', value: '2' }, { key: 'c', value: '3' }], name: 'x' });
    expect(out).toBe('# top\nvariables:\n  - key: a\n    value: http://mine # keep\n  - key: b # bee\n    value: "2"\n  - key: c\n    value: "3"\nname: x\n');
  });

  it('removing an item deletes only its lines', () => {
    const out = editYaml(source, { variables: [{ key: 'b', value: '2' }], name: 'x' });
    expect(out).toBe('# top\nvariables:\n  - key: b # bee\n    value: "2"\nname: x\n');
  });

  it('filling an empty flow list or map writes a block; a non-empty flow list stays flow', () => {
    expect(editYaml('name: a\nheaders: [] # none yet\nurl: x\n', { name: 'a', headers: [{ key: 'k', value: 'v' }], url: 'x' }))
      .toBe('name: a\nheaders: # none yet\n  - key: k\n    value: v\nurl: x\n');
    expect(editYaml('name: a\nopts: {}\n', { name: 'a', opts: { a: 1 } })).toBe('name: a\nopts:\n  a: 1\n');
    expect(editYaml('name: a\nh: [{key: a}]\n', { name: 'a', h: [{ key: 'b' }] })).toBe('name: a\nh: [ { key: b } ]\n');
  });

  it('filling an empty value puts it after the indicator with a space, before any comment', () => {
    expect(editYaml('a:\nb: 1\n', { a: 'x', b: 1 })).toBe('a: x\nb: 1\n');
    expect(editYaml('a: \nb: 1\n', { a: 'x', b: 1 })).toBe('a: x\nb: 1\n');
    expect(editYaml('a:   # note\nb: 1\n', { a: 'x', b: 1 })).toBe('a: x   # note\nb: 1\n');
    expect(editYaml('l:\n  -\n  - 2\n', { l: ['x', 2] })).toBe('l:\n  - x\n  - 2\n');
    expect(editYaml('a:\r\nb: 1\r\n', { a: 'x', b: 1 })).toBe('a: x\r\nb: 1\r\n');
  });

  it('fields left empty (url:) read as their defaults, and saving keeps those lines as written', async () => {
    const root = await copyFixture('full');
    const file = path.join(root, 'requests', 'Empty.yaml');
    const text = '# empty values\nname: Empty\nurl:\ndocs:\nheaders:\n  - key: a\n    value:\nauth:\nsettings:\nx-extra:\n';
    await fs.writeFile(file, text);
    const outcome = await readResource('request', file, 'requests/Empty.yaml');
    if (!outcome.ok) throw new Error(outcome.warning.message);
    expect(outcome.value).toMatchObject({ url: '', headers: [{ key: 'a', value: '', enabled: true }], auth: { type: 'inherit' } });
    expect(outcome.value.docs).toBeUndefined();
    expect((outcome.value as Record<string, unknown>)['x-extra']).toBeNull(); // unknown fields keep their null
    expect(resourceText('request', outcome.value, text)).toBe(text);
    const changed = { ...outcome.value, url: 'http://127.0.0.1/', headers: [{ ...outcome.value.headers[0]!, value: 'v' }] };
    expect(resourceText('request', changed, text)).toBe(text.replace('url:\n', 'url: http://127.0.0.1/\n').replace('    value:\n', '    value: v\n'));
  });

  it('appending to a list at the end of the file', () => {
    const out = editYaml('items:\n  - 1\n  - 2', { items: [1, 2, 3] });
    expect(out).toBe('items:\n  - 1\n  - 2\n  - 3\n');
  });
});
