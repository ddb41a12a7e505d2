/**
 * The fast YAML path (support/plain-yaml.ts) is taken only where js-yaml reads a text as YAML 1.2
 * (`yaml`) does: anchors, aliases, tags, merge keys, directives and YAML-1.1-style numbers are left
 * to `yaml`; markdown in descriptions (`**bold**`, `*note*`, `![img](x)`) is not mistaken for them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { loadPlainYaml } from '../../src/support/plain-yaml.js';
import { parseDocumentText } from '../../src/openapi-document/text.js';

const CORPUS = path.join(import.meta.dirname, '..', 'fixtures', 'corpus', 'openapi');
const yaml12 = (text: string, uniqueKeys = true) => parse(text, { version: '1.2', uniqueKeys, maxAliasCount: 10_000 });

describe('plain YAML through js-yaml', () => {
  it.each([
    ['anchor and alias', 'a: &x 1\nb: *x\n'],
    ['alias as a key', 'a: &k key\n*k : 2\n'],
    ['tag', 'a: !!str 1\n'],
    ['local tag', 'a: !thing 1\n'],
    ['tag after a comment', 'a: # c\n  !!str 1\n'],
    ['anchor on a list item', 'l:\n  - &i {a: 1}\n  - *i\n'],
    ['flow alias', 'a: &x 1\nb: [*x, 2]\n'],
    ['merge key', 'base: &b {a: 1}\nc:\n  <<: *b\n'],
    ['directive', '%YAML 1.2\n---\na: 1\n'],
    ['1_000', 'a: 1_000\n'],
    ['+.5', 'a: +.5\n'],
    // -0 in YAML 1.2 (as yaml reads and writes it), 0 to js-yaml: the property below found it with [[{" ": -0}]].
    ['-0', 'a: -0\n'],
    ['-0 in a list', '- - " ": -0\n'],
    ['-00 in a flow map', 'a: {b: -00}\n'],
  ])('%s: left to yaml', (_, text) => {
    expect(loadPlainYaml(text, { uniqueKeys: true })).toBeUndefined();
  });

  it.each([
    ['markdown bold in a block scalar', 'd: |\n  **We strongly** recommend *this*\n  ![img](x) & more\n'],
    ['markdown in a plain scalar', 'd: see **this** & that!\n'],
    ['comment first', '# top\n# more\na: 1\nb: [1, "x"] # end\n'],
    ['quoted star', "d: '*:*'\n"],
    ['nested', 'a:\n  b:\n    - c: 1\n      d: null\n    - ~\n  e: 0x1F\n'],
    ['negative numbers that start with 0', 'a: -0.0\nb: -0800\nc: -0.5\nd: 2024-01-01\n'],
  ])('%s: read by js-yaml as yaml reads it', (_, text) => {
    const plain = loadPlainYaml(text, { uniqueKeys: true });
    expect(plain).toBeDefined();
    expect(plain!.data).toEqual(yaml12(text));
  });

  it('a repeated key: refused when keys must be unique, the later wins otherwise (as yaml)', () => {
    const text = 'a: 1\na: 2\n';
    expect(loadPlainYaml(text, { uniqueKeys: true })).toBeUndefined();
    expect(loadPlainYaml(text, { uniqueKeys: false })!.data).toEqual(yaml12(text, false));
  });

  it('a syntax error is left to yaml (which reports its position)', () => {
    expect(loadPlainYaml('a: [1, 2\n', { uniqueKeys: true })).toBeUndefined();
    expect(() => parseDocumentText('a: [1, 2\n')).toThrow(/line 1|Flow sequence|flow collection/i);
  });

  it('every YAML OpenAPI document of the corpus reads the same both ways', async () => {
    const files = (await fs.readdir(CORPUS)).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    let fast = 0;
    for (const file of files) {
      const text = await fs.readFile(path.join(CORPUS, file), 'utf8');
      expect(parseDocumentText(text).data, file).toEqual(yaml12(text, false));
      if (loadPlainYaml(text, { uniqueKeys: false })) fast++;
    }
    // Markdown in descriptions must not push documents off the fast path (GitHub's among them).
    expect(fast).toBeGreaterThanOrEqual(files.length - 4);
    expect(loadPlainYaml(await fs.readFile(path.join(CORPUS, 'oas30-github.yaml'), 'utf8'), { uniqueKeys: false })).toBeDefined();
  }, 120_000);

  it('-0 is a number, -0 as yaml reads and writes it: the fast path leaves it to yaml, so a file reads the same either way', () => {
    expect(loadPlainYaml('a: -0\n', { uniqueKeys: true })).toBeUndefined();
    const data = yaml12('a: -0\n') as { a: number };
    expect(Object.is(data.a, -0)).toBe(true);
    expect(stringify(data)).toBe('a: -0\n');
  });

  it('property: random nested data written by yaml reads the same both ways', () => {
    const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, scalar, fc.array(tie('tree'), { maxLength: 4 }), fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), tie('tree'), { maxKeys: 4 })),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        const text = stringify(value);
        const plain = loadPlainYaml(text, { uniqueKeys: true });
        if (plain) expect(plain.data).toEqual(yaml12(text));
      }),
      { numRuns: 300 },
    );
  });
});
