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

  it('reports one edit within a second, naming the file', async () => {
    const { root, batches } = await watched();
    const started = performance.now();
    await fs.writeFile(path.join(root, 'requests', 'A', 'One.yaml'), 'name: One\n');
    for (let i = 0; i < 50 && batches.length === 0; i++) await sleep(20);
    expect(batches).toHaveLength(1);
    expect(batches[0]!.paths).toContain('requests/A/One.yaml');
    expect(batches[0]!.at - started).toBeLessThan(1000);
  });

  it('a burst of 150 writes over about 1.5 s comes in a few batches that name every file; the first within a second', async () => {
    const { root, batches } = await watched();
    const started = performance.now();
    for (let i = 0; i < 150; i++) {
      await fs.writeFile(path.join(root, 'requests', 'A', `R${i}.yaml`), `name: R${i}\n`);
      await sleep(10);
    }
    const written = performance.now();
    for (let i = 0; i < 100 && !batches.some((b) => b.at > written); i++) await sleep(20);
    await sleep(300);
    const seen = new Set(batches.flatMap((b) => b.paths));
    for (let i = 0; i < 150; i++) expect(seen.has(`requests/A/R${i}.yaml`), `R${i}.yaml reported`).toBe(true);
    expect(batches[0]!.at - started).toBeLessThan(1000);
    // About one batch per half second of the burst, not one per 80 ms.
    expect(batches.length, `${batches.length} batches over ${(written - started).toFixed(0)} ms`).toBeLessThanOrEqual(Math.ceil((written - started) / 500) + 2);
  });
});
