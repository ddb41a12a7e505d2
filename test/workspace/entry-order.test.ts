/**
 * Servers and load tests in their sidebar order (spec 2.1.6, 2.11, 2.12): by `seq`, then at equal
 * `seq` by name, the display name, as the request tree sorts (numbers by value, case aside); not by
 * file name, which a hand-made or hand-renamed file need not share with its name. Real files, the
 * workspace read whole and through the listing cache (`ferry ls`).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkspace } from '../../src/workspace/index.js';
import { tempDir } from '../support/temp.js';

async function workspace(): Promise<string> {
  const root = await tempDir();
  const write = async (rel: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  };
  await write('ferry.yaml', 'version: 1\nid: entry-order\nname: Order\n');
  for (const dir of ['servers', 'loadtests']) {
    await write(`${dir}/a.yaml`, 'name: Zulu\n');
    await write(`${dir}/b.yaml`, 'name: alpha\n');
    await write(`${dir}/c.yaml`, 'name: Mock 10\n');
    await write(`${dir}/d.yaml`, 'name: Mock 9\n');
    await write(`${dir}/e.yaml`, 'name: First\nseq: -1\n');
    await write(`${dir}/f.yaml`, 'name: Last\nseq: 5\n');
  }
  // Environments have no seq and no order in the spec: kept by id.
  await write('environments/a.yaml', 'name: Zulu\n');
  await write('environments/b.yaml', 'name: alpha\n');
  return root;
}

describe('servers and load tests at equal seq', () => {
  it('sort by name as the request tree does, read whole and listed', async () => {
    const root = await workspace();
    const expected = ['First', 'alpha', 'Mock 9', 'Mock 10', 'Zulu', 'Last'];
    for (const listing of [false, true]) {
      const ws = await openWorkspace(root, { listing });
      expect(ws.servers.map((e) => (e.value as { name: string }).name)).toEqual(expected);
      expect(ws.loadtests.map((e) => (e.value as { name: string }).name)).toEqual(expected);
      expect(ws.environments.map((e) => e.id)).toEqual(['a', 'b']);
    }
  });
});
