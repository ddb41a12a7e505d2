/**
 * `mkdir -p` without Node's recursive mkdir, which on Node 20 spins forever at full CPU on a path
 * it can never create (`/proc/foo`: mkdir says ENOENT although the parent exists, and it retries
 * the parent). Here each missing folder is made once, outermost first, and the first refusal is
 * thrown as it is. Existing ancestors may be symbolic links (`/tmp` on macOS); the caller decides
 * what it accepts at the end of the path. A file where a folder should be is refused as the
 * recursive mkdir refuses it: EEXIST for the folder itself, ENOTDIR for one above it.
 * `mode` is that of the folders made (the data folder's are the user's only: 0o700).
 */
import { mkdirSync, promises as fs, statSync, type Stats } from 'node:fs';
import path from 'node:path';

export async function makeDirs(dir: string, mode?: number): Promise<void> {
  const walk = missingFolders(dir);
  let step = walk.next();
  while (!step.done) step = walk.next(await fs.stat(step.value).catch(absentAsUndefined));
  for (const folder of step.value) {
    try {
      await fs.mkdir(folder, mode === undefined ? undefined : { mode });
    } catch (error) {
      // Made by someone else in the meantime: fine; anything else is the answer.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/** `makeDirs` for code that writes synchronously (the listing cache). */
export function makeDirsSync(dir: string, mode?: number): void {
  const walk = missingFolders(dir);
  let step = walk.next();
  while (!step.done) {
    let stats: Stats | undefined;
    try {
      stats = statSync(step.value);
    } catch (error) {
      stats = absentAsUndefined(error as NodeJS.ErrnoException);
    }
    step = walk.next(stats);
  }
  for (const folder of step.value) {
    try {
      mkdirSync(folder, mode === undefined ? undefined : { mode });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * The folders of `dir` that do not exist yet, outermost first: yields each path from `dir` up to
 * be looked at (the caller stats it, synchronously or not, and passes the result back, undefined
 * when it is absent) until one exists.
 */
function* missingFolders(dir: string): Generator<string, string[], Stats | undefined> {
  const missing: string[] = [];
  let current = path.resolve(dir);
  // A path has at most a few thousand parts; the bound is only there to make the loop's end plain.
  for (let depth = 0; depth < 10_000; depth++) {
    const stats = yield current;
    if (stats) {
      if (!stats.isDirectory()) throw notAFolder(current, missing.length === 0);
      break;
    }
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return missing;
}

function absentAsUndefined(error: NodeJS.ErrnoException): undefined {
  if (error.code === 'ENOENT') return undefined;
  throw error;
}

/** The error the recursive mkdir gives for a file on the path: EEXIST when it is the folder asked for, else ENOTDIR. */
function notAFolder(file: string, isTarget: boolean): NodeJS.ErrnoException {
  const code = isTarget ? 'EEXIST' : 'ENOTDIR';
  return Object.assign(new Error(`${code}: ${isTarget ? 'file already exists' : 'not a directory'}, mkdir '${file}'`), { code, errno: isTarget ? -17 : -20, syscall: 'mkdir', path: file });
}
