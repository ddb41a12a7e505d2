/**
 * The fast YAML writer (src/workspace/yaml-render.ts) against `yaml`'s stringify with renderYaml's
 * options: whatever it renders must be byte for byte what `yaml` writes, for generated data full
 * of YAML's special characters and for the files of real imports.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { Document, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { convert } from '../../src/importers/index.js';
import { parseResource, serializeResource } from '../../src/model/index.js';
import { CORE_SCHEMA_NON_STRING, renderPlainYaml } from '../../src/workspace/yaml-render.js';
import { renderYaml } from '../../src/workspace/index.js';
import { CORPUS } from '../support/corpus.js';
import '../support/fast-check-seed.js';

const OPTIONS = { version: '1.2', lineWidth: 0, minContentWidth: 0, blockQuote: 'literal' } as const;
const byYaml = (data: unknown) => stringify(data, OPTIONS);

/** Pieces that each hit one of `yaml`'s rules: indicators, `: `, ` #`, numbers, booleans, markers, quotes, spaces, line breaks. */
const piece = fc.constantFrom(
  'a', 'Name', '{{baseUrl}}', '/users/{id}', ' ', '  ', '\t', '\n', '\n\n', ':', ': ', ' #', '#', '-', '- ', '?', '? ', '!', '&', '*',
  '|', '>', "'", '"', '%', '@', '`', ',', '[', ']', '{', '}', '---', '...', '~', 'null', 'Null', 'true', 'FALSE', 'yes', '0', '12',
  '-3', '+4', '0x1F', '0o17', '1.5', '.5', '1e3', '.inf', '.NaN', '1_000', '\\', '\\u0041', 'é', '😀', '\u2028', '\u0085', '\r', '\u0001',
);
const text = fc.oneof(
  { weight: 4, arbitrary: fc.array(piece, { maxLength: 6 }).map((parts) => parts.join('')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const key = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('name', 'url', 'seq', 'key', 'value', 'docs', 'x-extra') }, { weight: 1, arbitrary: text });
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(key, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 5 }),
}));
const root = fc.dictionary(key, value, { maxKeys: 6 });

describe('renderPlainYaml', () => {
  it('its non-string patterns are those of the YAML 1.2 core schema in `yaml`', () => {
    const tags = new Document(null, { version: '1.2' }).schema.tags as { default?: boolean; tag: string; test?: RegExp }[];
    const tests = tags.filter((t) => t.default && t.test && t.tag !== 'tag:yaml.org,2002:str').map((t) => t.test!.source);
    expect(CORE_SCHEMA_NON_STRING.map((re) => re.source).sort()).toEqual([...tests].sort());
  });

  it('property: what it renders is exactly what `yaml` writes', () => {
    let rendered = 0;
    let runs = 0;
    fc.assert(
      fc.property(root, (data) => {
        runs++;
        const fast = renderPlainYaml(data);
        if (fast === undefined) return;
        rendered++;
        expect(fast).toBe(byYaml(data));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 3000) },
    );
    // The generator's special characters make many values decline; most must still be rendered.
    expect(rendered).toBeGreaterThan(runs / 2);
  });

  it('declines what `yaml` writes its own way, and renderYaml still writes it', () => {
    const shared = { a: 1 };
    const declined = [
      { first: shared, second: shared }, // an alias
      { text: 'bell\u0007' }, // escaped in double quotes
      { 'two\nlines': 1 }, // a quoted key over lines
      { text: 'ends in spaces\n  ' }, // a block cannot end in a line of spaces
      { zero: -0 },
      { n: Number.NaN },
      { when: new Date(0) },
    ];
    for (const data of declined) {
      expect(renderPlainYaml(data)).toBeUndefined();
      expect(renderYaml(data)).toBe(byYaml(data));
    }
    expect(renderPlainYaml(['a list at the top'])).toBeUndefined();
  });

  it('renders the request, folder and environment files of real imports as `yaml` does', async () => {
    const dir = path.join(CORPUS, 'openapi');
    const names = (await fs.readdir(dir)).filter((n) => /\.(json|ya?ml)$/.test(n));
    let files = 0;
    let fast = 0;
    for (const name of names) {
      const text = await fs.readFile(path.join(dir, name), 'utf8');
      const result = await convert(text, { label: name, path: path.join(dir, name) }, { baseUrl: 'https://api.example.test' }).catch(() => undefined);
      if (!result) continue;
      const datas: unknown[] = [];
      const walk = (node: (typeof result.items)[number], seq: number): void => {
        if (node.type === 'request') {
          const parsed = parseResource('request', { ...node.request, seq });
          if (parsed.ok) datas.push(serializeResource('request', parsed.value));
          return;
        }
        const parsed = parseResource('folder', { ...node.settings, name: node.name, seq });
        if (parsed.ok) datas.push(serializeResource('folder', parsed.value));
        node.children.forEach(walk);
      };
      result.items.forEach(walk);
      for (const env of result.environments) {
        const parsed = parseResource('environment', env);
        if (parsed.ok) datas.push(serializeResource('environment', parsed.value));
      }
      for (const data of datas) {
        files++;
        const rendered = renderPlainYaml(data);
        if (rendered === undefined) continue;
        fast++;
        expect(rendered, `${name}`).toBe(byYaml(data));
      }
    }
    expect(files).toBeGreaterThan(2000);
    // Real files are plain data: nearly all take the fast path.
    expect(fast).toBeGreaterThan(files * 0.95);
  }, 120_000);
});
