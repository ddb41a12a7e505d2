/**
 * Spec 7 and 9.1: a workspace whose `version` is newer than 1 is refused, saying it was created by
 * a newer version of Ferry (its format version) and Ferry must be updated. Every command that
 * opens the workspace says so in the same words, exits 2 and leaves the folder as it was (no id
 * written, no requests/ or environments/ made); version 1 beside it opens.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const refusal = (version: string) =>
  `ferry: This workspace was created by a newer version of Ferry (format version ${version}; this Ferry reads version 1). Update Ferry to open it.\n`;

async function workspaceOfVersion(version: string): Promise<{ ws: string; text: string }> {
  await isolatedDataDir();
  const ws = await tempDir();
  const text = `version: ${version}\nname: Future\n`;
  await fs.writeFile(path.join(ws, 'ferry.yaml'), text);
  return { ws, text };
}

describe('a workspace of a newer format version (spec 7, 9.1), from the command line', () => {
  it('version 1 opens (the limit itself)', async () => {
    const { ws } = await workspaceOfVersion('1');
    const listed = await ferry(['-w', ws, 'ls']);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
  });

  it.each(['2', '1.5'])('version %s: each command says so in the spec\'s words, exits 2 and writes nothing', async (version) => {
    const { ws, text } = await workspaceOfVersion(version);
    const source = path.join(await tempDir(), 'env.json');
    await fs.writeFile(source, JSON.stringify({ name: 'E', values: [], _postman_variable_scope: 'environment' }));
    const commands = [['ls'], ['run'], ['serve'], ['load', 'smoke'], ['import', source], ['env', 'ls'], ['env', 'new', 'Staging'], ['mv', 'a.yaml', 'b.yaml'], ['export', 'a.yaml'], ['update', 'Pets'], ['secret', 'ls']];
    for (const command of commands) {
      expect(await ferry(['-w', ws, ...command]), command.join(' ')).toEqual({ code: 2, stdout: '', stderr: refusal(version) });
    }
    expect(await fs.readdir(ws)).toEqual(['ferry.yaml']);
    expect(await fs.readFile(path.join(ws, 'ferry.yaml'), 'utf8')).toBe(text);
  });

  it('version "2", quoted: refused as newer at once (not first told to drop the quotes); "1" still only warns', async () => {
    const quoted = await workspaceOfVersion('"2"');
    for (const command of [['ls'], ['run'], ['env', 'ls']]) {
      expect(await ferry(['-w', quoted.ws, ...command]), command.join(' ')).toEqual({ code: 2, stdout: '', stderr: refusal('2') });
    }
    expect(await fs.readdir(quoted.ws)).toEqual(['ferry.yaml']);
    expect(await fs.readFile(path.join(quoted.ws, 'ferry.yaml'), 'utf8')).toBe(quoted.text);

    const one = await workspaceOfVersion('"1"');
    const listed = await ferry(['-w', one.ws, 'ls']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('ferry.yaml:1:10: version: expected the format version number, 1, got the text "1": write it without quotes (version: 1).');
  });
});
