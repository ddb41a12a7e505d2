import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { editYaml, renderYaml } from '../../src/workspace/index.js';

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', 'yes', 'null', '1.10', '- dash', 'a: b', '#hash', "it's", '"q"', 'multi\nline\n', 'trail ', '{{var}}', '*star', '&amp'),
);
const scalar = fc.oneof(text, fc.integer(), fc.boolean());
const row = fc.record({ key: text, value: scalar, enabled: fc.boolean() }, { requiredKeys: ['key'] });
const value = fc.oneof(scalar, fc.array(row, { maxLength: 4 }), fc.record({ type: text, text: fc.option(text, { nil: undefined }) }, { requiredKeys: ['type'] }));
const keys = ['name', 'seq', 'method', 'url', 'headers', 'body', 'auth', 'docs', 'x-extra'];
const doc = fc.dictionary(fc.constantFrom(...keys), value, { minKeys: 1 });

function clean(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('editYaml', () => {
  it('property: editing any file to any data yields exactly that data', () => {
    fc.assert(
      fc.property(doc, doc, (before, after) => {
        const source = renderYaml(clean(before));
        const edited = editYaml(source, clean(after));
        expect(parse(edited)).toEqual(clean(after));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 1500) },
    );
  });

  it('property: comments on lines that did not change survive', () => {
    fc.assert(
      fc.property(doc, fc.constantFrom(...keys), scalar, (before, key, newValue) => {
        const source = renderYaml(clean(before))
          .split('\n')
          .map((line) => (/^[a-z-]+: [^|>'"]*$/i.test(line) && !line.includes('#') ? `${line} # note` : line))
          .join('\n');
        const after = { ...(clean(before) as Record<string, unknown>), [key]: newValue };
        const edited = editYaml(source, clean(after));
        expect(parse(edited)).toEqual(clean(after));
        for (const line of source.split('\n')) {
          const lineKey = line.split(':')[0];
          if (line.endsWith('# note') && lineKey !== key) expect(edited).toContain(line);
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 1000) },
    );
  });
});

describe('editYaml on a file with CRLF line ends', () => {
  it('property: the data is exact, comments stay out of values, and every line still ends in CRLF', () => {
    fc.assert(
      fc.property(doc, fc.constantFrom(...keys), value, (before, key, newValue) => {
        const source = renderYaml(clean(before))
          .split('\n')
          .map((line) => (/^[a-z-]+: [^|>'"]*$/i.test(line) && !line.includes('#') ? `${line} # note` : line))
          .join('\r\n');
        const after = clean({ ...(clean(before) as Record<string, unknown>), [key]: newValue });
        const edited = editYaml(source, after);
        expect(parse(edited)).toEqual(after);
        expect(edited.replace(/\r\n/g, '')).not.toContain('\n');
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 500) },
    );
  });

  it('a value that becomes a block keeps the comment on its key line', () => {
    expect(editYaml('name: a\r\nurl: x # c\r\n', { name: 'a', url: 'line1\nline2' })).toBe('name: a\r\nurl: |- # c\r\n  line1\r\n  line2\r\n');
    expect(editYaml('name: a\r\nurl: x\r\n', { name: 'a', method: 'POST', url: 'x' })).toBe('name: a\r\nmethod: POST\r\nurl: x\r\n');
  });
});

describe('editYaml on nested data', () => {
  const { tree } = fc.letrec((tie) => ({
    tree: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
    list: fc.array(tie('tree'), { maxLength: 3 }),
    map: fc.dictionary(fc.constantFrom('a', 'b', 'key', 'value', 'x y', 'q"'), tie('tree'), { maxKeys: 4 }),
  }));
  const top = fc.dictionary(fc.constantFrom(...keys), tree, { minKeys: 1, maxKeys: 5 });

  it('property: any nested edit yields exactly the new data', () => {
    fc.assert(
      fc.property(top, top, (before, after) => {
        const edited = editYaml(renderYaml(clean(before)), clean(after));
        expect(parse(edited)).toEqual(clean(after));
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 1000) },
    );
  });
});
