/**
 * Spec 2.2 and 8.1: the workspace `id` is up to 64 letters, digits, `-` or `_`, generated and
 * written on first open when missing. Checked through `ferry ls` on real files.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

async function workspace(ferryYaml: string): Promise<string> {
  await isolatedDataDir();
  const root = await tempDir();
  await fs.mkdir(path.join(root, 'requests'));
  await fs.writeFile(path.join(root, 'ferry.yaml'), ferryYaml);
  await fs.writeFile(path.join(root, 'requests', 'R.yaml'), 'name: R\nurl: http://127.0.0.1:1/\n');
  return root;
}

const REFUSED = "id: must be 1 to 64 letters, digits, - or _. The workspace opens without this file's variables, auth, headers and scripts, and nothing is saved to it, until it is fixed.";

describe('the workspace id (2.2, 8.1)', () => {
  it('takes 64 letters, digits, - and _', async () => {
    const id = `${'a'.repeat(30)}-${'B'.repeat(30)}_09`;
    expect(id).toHaveLength(64);
    const root = await workspace(`version: 1\nid: ${id}\nname: W\n`);
    const result = await ferry(['ls'], root);
    expect(result.stderr + result.stdout).not.toMatch(/Warnings/);
    expect(result.code).toBe(0);
  });

  it.each([
    ['65 characters', 'a'.repeat(65)],
    ['a space', "'a b'"],
    ['a dot', 'a.b'],
  ])('refuses %s, saying what an id may hold; the file is kept as written', async (_what, id) => {
    const text = `version: 1\nid: ${id}\nname: W\n`;
    const root = await workspace(text);
    const result = await ferry(['ls'], root);
    expect(result.stdout + result.stderr).toContain(`ferry.yaml:2:5: ${REFUSED}`);
    expect(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8')).toBe(text);
  });

  it('is generated and written on first open when missing', async () => {
    const root = await workspace('version: 1\nname: W\n');
    expect((await ferry(['ls'], root)).code).toBe(0);
    const id = /^id: (.+)$/m.exec(await fs.readFile(path.join(root, 'ferry.yaml'), 'utf8'))?.[1];
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
  });
});
