/**
 * Writes a file atomically: a temporary file beside it, flushed, then renamed over the target.
 * A crash or a full disk never leaves a partial file. Shared by the workspace and the data folder,
 * which may not import each other.
 *
 * A rename replaces the file whatever its permissions say, so what a plain write would do is
 * kept by hand: a file nobody may write (`chmod a-w`) is refused, as an editor refuses it, and a
 * replaced file keeps its permission bits (a request made private with `chmod 600` stays so).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isProcessAlive } from './process-alive.js';

/**
 * The file could not be written: the message names it (never the temporary file), says why and
 * what to do; the old file is as it was. `code` is the system's (EACCES for a read-only file).
 */
export class FileWriteError extends Error {
  override name = 'FileWriteError';
  constructor(message: string, readonly code: string | undefined, readonly path: string) {
    super(message);
  }
}

/** `mode`: the new file's permission bits; without it, a file that exists keeps its own (else 0666 less the umask). */
export async function writeFileAtomic(file: string, content: string | Uint8Array, mode?: number): Promise<void> {
  const existing = await fs.lstat(file).catch(() => undefined);
  const kept = existing?.isFile() ? existing.mode & 0o7777 : undefined;
  if (kept !== undefined && (kept & 0o222) === 0) {
    throw new FileWriteError(`${file} is read-only (mode ${kept.toString(8).padStart(4, '0')}), so it was not changed. Make it writable (chmod u+w), then try again.`, 'EACCES', file);
  }
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await fs.open(temp, 'wx', mode ?? kept ?? 0o666);
    try {
      await handle.writeFile(content);
      // The umask took bits off at open: the old file's bits are put back exactly.
      if (mode === undefined && kept !== undefined) await handle.chmod(kept);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => {});
    throw writeFailure(file, error);
  }
  await removeLeftovers(path.dirname(file));
}

/** `.NAME.PID.RANDOM.tmp`: the temporary name above. */
const TEMP_NAME = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;
/** A temporary file older than this is no write in progress (one takes well under a second). */
const LEFTOVER_AGE_MS = 60_000;
/** When each folder was last looked through for leftovers, by this process. */
const scanned = new Map<string, number>();

/**
 * Removes the temporary files of writes that were killed part-way (kill -9, a crash, a power cut:
 * no `finally` ran) from the folder just written to, so they are not left for `git add -A` to
 * commit: those whose process no longer runs on this computer and that are over a minute old (a
 * process on another computer sharing the folder may be writing one now). Best effort, after the
 * write: a folder that cannot be listed keeps them.
 */
async function removeLeftovers(dir: string): Promise<void> {
  // Once a minute per folder at most: a reorder rewrites every sibling, and a leftover must be a minute old anyway.
  const now = Date.now();
  if (now - (scanned.get(dir) ?? -Infinity) < LEFTOVER_AGE_MS) return;
  scanned.set(dir, now);
  if (scanned.size > 1_000) scanned.delete(scanned.keys().next().value!);
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (!match || Number(match[1]) === process.pid || isProcessAlive(Number(match[1]))) continue;
    const temp = path.join(dir, name);
    const stat = await fs.lstat(temp).catch(() => undefined);
    if (stat?.isFile() && Date.now() - stat.mtimeMs > LEFTOVER_AGE_MS) await fs.rm(temp, { force: true }).catch(() => {});
  }
}

/** A system error of the temporary file's open, write or rename, told about the target file. */
function writeFailure(file: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const folder = path.dirname(file);
  const why: Record<string, string> = {
    EACCES: `permission denied: the folder ${folder} does not allow new files. Make the folder writable, then try again.`,
    EPERM: `operation not permitted: the folder ${folder} does not allow new files. Make the folder writable, then try again.`,
    EROFS: 'the file system is read-only. Write to a folder on a writable disk.',
    ENOSPC: 'the disk is full. Free some space, then try again.',
    EDQUOT: 'the disk quota is used up. Free some space, then try again.',
  };
  // A folder where the file should be (the rename onto it fails): named, never the temporary file.
  if (code === 'EISDIR') return new FileWriteError(`Could not write ${file} (nothing was changed): it is a folder, not a file. Move the folder away, then try again.`, code, file);
  if (code === undefined || why[code] === undefined) return error;
  return new FileWriteError(`Could not write ${file} (nothing was changed): ${why[code]}`, code, file);
}
