/**
 * Opening a workspace reads plain files with js-yaml (fast) and everything else with `yaml`, which
 * every edit uses. Both must read a file the same way, as YAML 1.2: else `value: 1_000` would be
 * sent as 1000 and the next save would rewrite the line.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseResource } from '../../src/model/index.js';
import { readResource } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

/** Plain scalars made of the characters numbers, booleans and nulls are written with. */
const numberish = fc
  .array(fc.constantFrom('0', '1', '7', '9', '_', '.', '+', '-', 'x', 'o', 'b', 'e', 'E', 'a', 'F', 'inf', 'nan', 'true', 'null', '~'), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((s) => !/^[-?:,[\]{}#&*!|>'"%@`~]|^[-+]?$|\s/.test(s) || s === '~');

describe('reading a file: the fast path and the YAML 1.2 path agree', () => {
  it.each([
    ['1_000', '1_000'],
    ['0b101', '0b101'],
    ['-0x1F', '-0x1F'],
    ['0x_1', '0x_1'],
    ['._0', '._0'], // fast-check seed 738313747: js-yaml reads it as the float 0
    ['+.5', '0.5'],
    ['0x1F', '31'],
    ['user_1', 'user_1'],
  ])('value: %s reads as "%s"', async (written, read) => {
    const dir = await tempDir();
    await fs.writeFile(path.join(dir, 'R.yaml'), `name: R\nheaders:\n  - key: k\n    value: ${written}\n`);
    const outcome = await readResource('request', path.join(dir, 'R.yaml'), 'R.yaml');
    expect(outcome.ok && outcome.value.headers[0]!.value).toBe(read);
  });

  it('property: any number-like scalar reads as YAML 1.2 reads it', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'R.yaml');
    await fc.assert(
      fc.asyncProperty(fc.array(numberish, { minLength: 1, maxLength: 5 }), async (values) => {
        const text = `name: R\nheaders:\n${values.map((v) => `  - key: k\n    value: ${v}\n`).join('')}`;
        await fs.writeFile(file, text);
        const outcome = await readResource('request', file, 'R.yaml');
        const expected = parseResource('request', parse(text, { version: '1.2' }));
        expect(outcome.ok ? outcome.value : outcome.warning.message).toEqual(expected.ok ? expected.value : expect.anything());
      }),
      { numRuns: 300 },
    );
  });
});
