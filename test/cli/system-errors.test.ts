/**
 * What a file-system problem outside a request looks like: one line that says what could not be
 * read or made, where, why, and what to do — never Node's `EACCES: …, open '…'`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

describe('system errors as people read them', () => {
  it('ferry.yaml that is a folder', async () => {
    await isolatedDataDir();
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'ferry.yaml'));
    const result = await ferry(['-w', root, 'ls']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path.join(root, 'ferry.yaml')} cannot be read (it is a folder, not a file); the workspace cannot open without it. It must be a file you may read.`);
  });

  it('a data folder whose path holds a file', async () => {
    const file = path.join(await tempDir(), 'not-a-folder');
    await fs.writeFile(file, '');
    const before = process.env.FERRY_DATA_DIR;
    process.env.FERRY_DATA_DIR = file;
    try {
      const result = await ferry(['config', 'set', 'timeoutMs', '5']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`Could not create the data folder ${file}: a part of that path is a file, not a folder. Remove it, or point FERRY_DATA_DIR at a folder.`);
      expect(result.stderr).not.toMatch(/EEXIST: file already exists/);
    } finally {
      process.env.FERRY_DATA_DIR = before;
    }
  });

  it('ferry load merge of a missing file or a folder', async () => {
    await isolatedDataDir();
    const dir = await tempDir();
    const missing = await ferry(['load', 'merge', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${path.join(dir, 'nope.json')} cannot be read (it does not exist); give the result files that \`ferry load --out-json\` wrote.`);
    const folder = await ferry(['load', 'merge', dir]);
    expect(folder.stderr).toContain(`${dir} cannot be read (it is a folder, not a file)`);
  });
});
