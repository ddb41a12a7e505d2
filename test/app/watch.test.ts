/**
 * The workspace watcher (src/app/server/watch.ts) on a real folder: an edit is reported within a
 * second; a burst of writes (a `git checkout` of many files over a second or two) is reported in
 * a few batches that name every file, not one batch per 80 ms, each of which makes the app read
 * the whole workspace again and every open page fetch the tree.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { watchWorkspace } from '../../src/app/server/watch.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('watchWorkspace', () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function watched() {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-watch-'));
    await fs.mkdir(path.join(root, 'requests', 'A'), { recursive: true });
    const batches: Array<{ at: number; paths: string[] }> = [];
    const watcher = watchWorkspace(root, (paths) => batches.push({ at: performance.now(), paths }));
    cleanups.push(() => watcher.close(), () => fs.rm(root, { recursive: true, force: true }));
    await watcher.ready; // every folder's watcher is set up (a 200 ms sleep guessed it)
    return { root, batches };
  }

  // How soon a batch comes (80 ms after the last write, 500 ms at most) is the watcher's design;
  // the tests wait for the event itself (a loaded machine delays it) and check what it says.
  it('reports one edit in one batch, naming the file', async () => {
    const { root, batches } = await watched();
    await fs.writeFile(path.join(root, 'requests', 'A', 'One.yaml'), 'name: One\n');
    for (let i = 0; i < 500 && batches.length === 0; i++) await sleep(20);
    await sleep(600); // past the longest gathering: a second batch for the one edit would be here
    expect(batches).toHaveLength(1);
    expect(batches[0]!.paths).toContain('requests/A/One.yaml');
  });

  it('a burst of 150 writes over about 1.5 s comes in a few batches that name every file', async () => {
    const { root, batches } = await watched();
    const started = performance.now();
    for (let i = 0; i < 150; i++) {
      await fs.writeFile(path.join(root, 'requests', 'A', `R${i}.yaml`), `name: R${i}\n`);
      await sleep(10);
    }
    const written = performance.now();
    const seen = () => new Set(batches.flatMap((b) => b.paths));
    for (let i = 0; i < 500 && seen().size < 150; i++) await sleep(20);
    for (let i = 0; i < 150; i++) expect(seen().has(`requests/A/R${i}.yaml`), `R${i}.yaml reported`).toBe(true);
    // About one batch per half second of the burst, not one per 80 ms.
    expect(batches.length, `${batches.length} batches over ${(written - started).toFixed(0)} ms`).toBeLessThanOrEqual(Math.ceil((written - started) / 500) + 2);
  });
});
