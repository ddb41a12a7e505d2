/**
 * `mkdir -p` without Node's recursive mkdir, which on Node 20 spins forever at full CPU on a path
 * it can never create (`/proc/foo`: mkdir says ENOENT although the parent exists, and it retries
 * the parent). Here each missing folder is made once, outermost first, and the first refusal is
 * thrown as it is. Existing ancestors may be symbolic links (`/tmp` on macOS); the caller decides
 * what it accepts at the end of the path.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  let current = path.resolve(dir);
  // A path has at most a few thousand parts; the bound is only there to make the loop's end plain.
  for (let depth = 0; depth < 10_000; depth++) {
    const exists = await fs.stat(current).then(() => true, (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    });
    if (exists) break;
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const folder of missing) {
    try {
      await fs.mkdir(folder);
    } catch (error) {
      // Made by someone else in the meantime: fine; anything else is the answer.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}
