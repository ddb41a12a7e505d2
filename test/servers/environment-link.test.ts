/**
 * A server's environment is read from environments/<id>.yaml inside the workspace; an
 * `environments` folder that is a symbolic link (to a folder outside) is refused, not followed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readServerVariables } from '../../src/servers/server-variables.js';
import { tempDir } from '../support/temp.js';

describe('server variables', () => {
  it('refuse an environment reached through a linked environments folder', async () => {
    const base = await tempDir();
    const root = path.join(base, 'ws');
    const outside = path.join(base, 'outside');
    await fs.mkdir(root);
    await fs.mkdir(outside);
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nname: W\nid: w\n');
    await fs.writeFile(path.join(outside, 'prod.yaml'), 'name: prod\nvariables:\n  - key: k\n    value: FROM-OUTSIDE\n');
    await fs.symlink(outside, path.join(root, 'environments'));
    await expect(readServerVariables({ root, environment: 'prod' })).rejects.toThrow(/environments is a symbolic link/);

    // The same file in a real folder is read.
    await fs.rm(path.join(root, 'environments'));
    await fs.mkdir(path.join(root, 'environments'));
    await fs.copyFile(path.join(outside, 'prod.yaml'), path.join(root, 'environments', 'prod.yaml'));
    const scope = await readServerVariables({ root, environment: 'prod' });
    expect(scope.resolve('k', { allowSecrets: false })).toBe('FROM-OUTSIDE');
  });
});
