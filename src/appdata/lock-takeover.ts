/**
 * Taking over a lock of the data folder whose holder is gone (a store's `FILE.lock`,
 * json-store.ts; a workspace's write lock, workspace-lock.ts), so that of the processes that find
 * it at the same moment exactly one does. Removing it as each found it would let the second
 * remove the lock the first has just made in its place, and both would write.
 *
 * A taker first makes `LOCK.takeover-<key>-1` only if absent (O_EXCL, its own pid and computer
 * in it), `key` naming the very lock it found (its id, its holder's pid and start); only holding
 * that marker does it look again and, when the lock is still that one and still left behind,
 * remove it. A marker whose maker was killed is passed by making the next one (`-2`, and so on),
 * never by removing it, so two live takers never hold markers of one lock at once; the markers of
 * killed makers go once the lock they were for is gone: the next taker of that lock removes those
 * it passed, and a holder that releases the lock later removes the rest (`removeDeadMarkers`: a
 * taker killed after it removed the lock has no next taker). Loaded only when a lock is found
 * taken, or a marker is found beside it.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isProcessAlive } from '../support/process-alive.js';
import { readFileNoFollow } from '../support/read-no-follow.js';

/** A marker whose maker is not known (another computer) is left behind once this old: a takeover takes milliseconds. */
const MARKER_STALE_MS = 10_000;

/**
 * Whether the holder of a lock (or of a marker) is gone: killed on this computer, or, holder
 * unknown, not refreshed for `staleMs` by the time `now` (Date.now() unless a test gives its own).
 */
export function holderGone(holder: { pid: number; host: string } | undefined, stat: { mtimeMs: number }, staleMs: number, now = Date.now()): boolean {
  if (holder && holder.host === os.hostname()) return holder.pid !== process.pid && !isProcessAlive(holder.pid);
  return now - stat.mtimeMs > staleMs;
}

/**
 * Runs `removeIfStillLeft` (look again, and remove the lock if it is still the one `key` names
 * and still left behind; true when it did) holding the takeover marker of `lock`. False when
 * another live process holds it (it is taking the lock over: wait, then try again).
 */
export async function takeOverOnce(lock: string, key: string, removeIfStillLeft: () => Promise<boolean>): Promise<boolean> {
  const me = JSON.stringify({ pid: process.pid, host: os.hostname() });
  const passed: string[] = [];
  let marker: string | undefined;
  for (let n = 1; n <= 8 && !marker; n++) {
    const name = `${lock}.takeover-${key}-${n}`;
    try {
      await fs.writeFile(name, me, { flag: 'wx', mode: 0o600 });
      marker = name;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const stat = await fs.lstat(name).catch(() => undefined);
      // Another process is taking it over (or has just done so): wait for it.
      if (!stat || !holderGone(await readMarker(name), stat, MARKER_STALE_MS)) return false;
      passed.push(name);
    }
  }
  if (!marker) return false;
  try {
    if (!(await removeIfStillLeft())) return false;
    for (const name of passed) await fs.rm(name, { force: true });
    return true;
  } finally {
    await fs.rm(marker, { force: true });
  }
}

/**
 * Removes, of the markers `names` (file names beside `lock`), those whose maker is gone (killed,
 * or, maker unknown, older than a takeover takes) and that are not for the lock there now
 * (`currentKey`): that lock is gone, no taker can take it over any more, so no taker needs them.
 * A marker of the lock there now is left for its takers, as above.
 */
export async function removeDeadMarkers(lock: string, names: readonly string[], currentKey: () => Promise<string | undefined>): Promise<void> {
  const now = await currentKey();
  const prefix = `${path.basename(lock)}.takeover-`;
  for (const name of names) {
    const key = /^(.+)-\d+$/.exec(name.slice(prefix.length))?.[1];
    if (!name.startsWith(prefix) || key === undefined || key === now) continue;
    const file = path.join(path.dirname(lock), name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat?.isFile() && holderGone(await readMarker(file), stat, MARKER_STALE_MS)) await fs.rm(file, { force: true });
  }
}

async function readMarker(file: string): Promise<{ pid: number; host: string } | undefined> {
  try {
    const data = JSON.parse(await readFileNoFollow(file, 'utf8', 4096)) as { pid?: unknown; host?: unknown };
    return typeof data.pid === 'number' && typeof data.host === 'string' ? { pid: data.pid, host: data.host } : undefined;
  } catch {
    return undefined;
  }
}
