/**
 * A JSON file in the data folder that two processes (the CLI and the app) can update at once:
 * every change is a read-modify-write under a lock file, written atomically. The lock
 * (`holdLockFile`, below) is also the workspace's write lock, the cookie jar's and the generated
 * certificate's.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FileWriteError, writeFileAtomic } from '../support/atomic-write.js';
import { FileTooLargeError, isLinkError, readFileNoFollow } from '../support/read-no-follow.js';
import { makeDirs } from '../support/make-dirs.js';
import { firstSymlink, isInside } from '../support/paths-inside.js';
import { dataDir } from './paths.js';

/**
 * A file in this computer's data folder that Ferry cannot use as it is (a link where it writes a
 * file of its own, a damaged key): the message names the file and what to do, and the command
 * line prints it as one line, matched by this name (src/cli/main.ts), never as a stack trace.
 */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
}

/**
 * Another process holds a lock of the data folder: a workspace's writers' (workspace-lock.ts), a
 * store's. Worth trying again: the message names the holder when known and says what to do.
 */
export class WorkspaceBusyError extends Error {
  override name = 'WorkspaceBusyError';
}

/**
 * Refuses a symbolic link on the way from the data folder to `file`: a folder of it (`workspaces/`,
 * a workspace's folder, `locks/`, `results/`) that is a link would have Ferry read and write files
 * elsewhere, and Ferry never follows links in its data folder. The data folder itself may be one,
 * or lie below one (moved to another disk, `~/.local/share` a link): its path is taken as it is
 * and only what is below it is looked at. A file outside it (a folder a caller chose) is not
 * looked at; the file itself is its reader's to check (a store refuses a link, a cookie jar
 * replaces it). One lstat per folder below the data folder.
 */
export async function refuseLinkedFolder(file: string): Promise<void> {
  const root = dataDir();
  const folder = path.dirname(path.resolve(file));
  if (folder === root || !isInside(root, folder)) return;
  const link = await firstSymlink(root, folder);
  if (link !== undefined) {
    throw new DataFolderError(`${link} is a symbolic link inside the data folder ${root}, and Ferry never follows links there (only the data folder itself may be one), so ${path.basename(file)} was neither read nor written. Replace the link with the folder it points to (remove the link, then move that folder to ${link}), or set FERRY_DATA_DIR to the folder you want Ferry to use.`);
  }
}

export class JsonStore<T> {
  /**
   * `lost`: what the user loses, and what to do, when the file is damaged and set aside (said to
   * them once, set-aside.ts): 'the secret values … must be set again (`ferry secret set NAME`)'.
   */
  constructor(
    readonly file: string,
    private readonly empty: () => T,
    private readonly lost: string,
    private readonly mode = 0o600,
    /** How long an update waits for another process's lock: a test of the refusal gives a short one instead of waiting 13 s. */
    private readonly waitMs = WAIT_MS,
  ) {}

  async read(): Promise<T> {
    return this.readHolding(false);
  }

  /**
   * The content, or empty when there is no file. A damaged one (cut off, not JSON, JSON of the
   * wrong shape) must not stop work: it is set aside (`FILE.damaged-<time>`), the user told, and
   * the store starts empty. That happens under the lock (`holding` says it is held already): a
   * writer may have just put a good file in its place, which must not be moved away.
   */
  private async readHolding(holding: boolean): Promise<T> {
    let text: string;
    let problem: string;
    // Holding the lock, the way to the file was looked at when it was taken.
    if (!holding) await refuseLinkedFolder(this.file);
    try {
      text = await readFileNoFollow(this.file, 'utf8', MAX_STORE_BYTES);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.empty();
      if (error instanceof FileTooLargeError) {
        // Measured before it is read: past Node's longest string (512 MB) it could never be, and
        // each command would read hundreds of megabytes for nothing. Damaged, as a cut-off file.
        return this.setAsideHolding(holding, await tooLarge(this.file));
      }
      if (isLinkError(error)) {
        throw new DataFolderError(`${this.file} is a symbolic link; Ferry never follows links in its data folder. Remove the link (Ferry writes a file of its own there).`);
      }
      // Reading a folder fails with EISDIR and no path: name the store, so the message says which.
      const systemError = error as NodeJS.ErrnoException;
      if (systemError.code !== undefined && systemError.path === undefined) systemError.path = this.file;
      throw error;
    }
    try {
      const value = JSON.parse(text) as unknown;
      // Valid JSON of the wrong shape (`null`, a list for a map) is as damaged as a cut-off file.
      if (sameShape(value, this.empty())) return value as T;
      problem = 'it does not hold the data Ferry keeps there';
    } catch (error) {
      problem = (error as Error).message;
    }
    return this.setAsideHolding(holding, problem);
  }

  /** Sets the damaged file aside under the lock (taken first when not `holding`: read again under it); the store starts empty. */
  private async setAsideHolding(holding: boolean, problem: string): Promise<T> {
    if (!holding) return this.withLock(() => this.readHolding(true));
    // Loaded only then: `ferry run` loads no more than it needs (test/cli/command-table.test.ts).
    const { setAside } = await import('./set-aside.js');
    await setAside(this.file, problem, this.lost);
    return this.empty();
  }

  /** Applies `change` to the current content under the lock and saves the result. */
  async update<R>(change: (value: T) => R | Promise<R>): Promise<R> {
    return this.hold(async (value, save) => {
      const result = await change(value);
      await save();
      return result;
    });
  }

  /**
   * Runs `work` holding the lock, with the current content and a `save` that writes it (as changed
   * in place) at once: for work that must record what it does before it does it, and finish
   * before another process reads (the environment changes, environment-changes.ts). Saves nothing
   * by itself.
   */
  async hold<R>(work: (value: T, save: () => Promise<void>) => Promise<R>): Promise<R> {
    return this.withLock(async () => {
      const value = await this.readHolding(true);
      return work(value, () => writeFileAtomic(this.file, this.textOf(value), this.mode));
    });
  }

  /**
   * The store's text to write, refused (nothing written) past what a read takes back: written, the
   * next read would set the whole store aside as damaged, every value in it lost for one too large
   * (a few huge secret values pasted into the app's variable editor did it).
   */
  private textOf(value: T): string {
    let text: string | undefined;
    try {
      text = JSON.stringify(value, null, 1);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error; // past the longest string Node makes
    }
    const bytes = text === undefined ? Infinity : Buffer.byteLength(text);
    if (bytes <= MAX_STORE_BYTES) return text!;
    const size = Number.isFinite(bytes) ? `${Math.round(bytes / 2 ** 20)} MB` : 'over 512 MB';
    throw new DataFolderError(`Not saved: ${path.basename(this.file)} in the data folder would be ${size}, more than the ${MAX_STORE_BYTES / 2 ** 20} MB a file of the data folder may hold (it could not be read back); nothing in it changed. Keep values that large in a file instead (a binary body, a data file).`);
  }

  /**
   * Runs `work` holding the store's lock (below). `update` does; so does a file of the data folder
   * read and written its own way, which needs the same lock (the cookie jar, cookie-jar-file.ts).
   */
  async withLock<R>(work: () => Promise<R>): Promise<R> {
    const release = await this.lock();
    try {
      return await work();
    } finally {
      await release();
    }
  }

  /**
   * The store's lock: `FILE.lock` (`holdLockFile` below), an older Ferry's folder lock named by
   * `FILE.lock-holder`. Still held after about 13 s: one line naming the store.
   */
  private lock(): Promise<() => Promise<void>> {
    const lockFile = `${this.file}.lock`;
    return holdLockFile(lockFile, {
      folderHolder: `${this.file}.lock-holder`,
      waitMs: this.waitMs,
      saving: this.file,
      makeFolder: () => this.makeFolder(),
      notAFolder: () => this.notAFolder(),
      // Busy, as a held workspace lock is: worth trying again (exit code 1, a 409 in the app).
      busy: () => new WorkspaceBusyError(`${this.file} is being changed by another Ferry process (its lock ${lockFile} is held). Try again when it is done; if no Ferry is running, remove ${lockFile}.`),
    });
  }

  private async makeFolder(): Promise<void> {
    try {
      await makeDirs(path.dirname(this.file), 0o700);
    } catch (error) {
      // EEXIST from a recursive mkdir: a part of the path is a file (FERRY_DATA_DIR naming a file).
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw this.notAFolder();
      throw error;
    }
  }

  private notAFolder(): DataFolderError {
    return new DataFolderError(`Could not create the data folder ${path.dirname(this.file)}: a part of that path is a file, not a folder. Remove it, or point FERRY_DATA_DIR at a folder.`);
  }
}


function sameShape(value: unknown, empty: unknown): boolean {
  if (Array.isArray(empty)) return Array.isArray(value);
  if (typeof empty === 'object' && empty !== null) return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === typeof empty;
}

/**
 * The largest file of the data folder a store reads: far past what Ferry writes (the history keeps
 * 500 sends), and half the longest string Node makes, so a store read whole can be written again.
 */
export const MAX_STORE_BYTES = 256 * 2 ** 20;

/** Why a file past MAX_STORE_BYTES is set aside, in the words of the notice. */
export async function tooLarge(file: string): Promise<string> {
  const size = (await fs.stat(file).catch(() => undefined))?.size ?? MAX_STORE_BYTES;
  return `it is ${Math.round(size / 2 ** 20)} MB, more than the ${MAX_STORE_BYTES / 2 ** 20} MB a file of the data folder may hold`;
}

/** A lock not refreshed for this long belongs to a process that died (its holder refreshes it every STALE_MS / 2). */
export const STALE_MS = 10_000;
/**
 * A lock file with no name in it is one whose maker was killed between making it and writing its
 * name: a live maker writes it at once (microseconds; `holdLockFile` checks, below, when it was
 * slower). Once this old it is taken over, without waiting for STALE_MS.
 */
export const EMPTY_LOCK_GRACE_MS = 2_000;
/** How long an update waits for another process's: past STALE_MS, so a lock whose holder is unknown is taken over within it. */
const WAIT_MS = STALE_MS + 3_000;

export interface LockHolder {
  pid: number;
  host: string;
  /** The lock's own id (a lock of an older Ferry has none). */
  id?: string;
  /** What the holder is doing, as it said (`about` below): for the message of a process that waits. */
  [field: string]: unknown;
}

export interface LockFileOptions {
  /** Where an older Ferry's folder lock names its holder (`FILE.lock-holder`, `locks/KEY.json`). */
  folderHolder: string;
  /** What else the lock says of its holder (the workspace's writer), for the message of a process that waits. */
  about?: Record<string, string>;
  /** How long to wait for the holder to finish. */
  waitMs: number;
  /** The file whose change the lock guards, named when the data folder cannot be written. */
  saving: string;
  /** The folder of the lock is missing: make it (or throw why it cannot be). */
  makeFolder: () => Promise<void>;
  /** A path part is a file, not a folder (ENOTDIR). */
  notAFolder: () => Error;
  /** Still held after `waitMs`: the error to throw (its holder, when known, as the lock names it). */
  busy: (holder: LockHolder | undefined) => Error;
  /** Held by a live holder when first tried: called once, before the wait (its holder, when known). */
  onWait?: (holder: LockHolder | undefined) => void;
  /** The clock a lock's age is read by (Date.now): a test gives its own to age a lock without waiting. */
  now?: () => number;
}

/**
 * The lock of one thing in the data folder that several processes change (a store, above;
 * a workspace's writers, workspace-lock.ts): a file made only if absent (O_EXCL) holding its
 * holder's process id, computer and an id of its own, so a lock and the name of its holder are one
 * file — made, then removed. A lock whose holder was killed on this computer (kill -9, a crash: it
 * is never released) is taken over at once; one whose holder is unknown (another computer sharing
 * the data folder), once stale (not refreshed for 10 s; a holder refreshes it every 5 s); an
 * empty one (its maker killed before it wrote its name), once 2 s old. Of the processes that find a lock left behind at the same
 * moment, exactly one takes it over (lock-takeover.ts). A lock that is a folder is an older
 * Ferry's (proper-lockfile, its holder named in a file beside it): it is respected the same way.
 *
 * Takes the lock `lockFile`; returns its release.
 */
export async function holdLockFile(lockFile: string, options: LockFileOptions): Promise<() => Promise<void>> {
  await refuseLinkedFolder(lockFile);
  const id = randomUUID();
  const me = JSON.stringify({ ...options.about, pid: process.pid, host: os.hostname(), id });
  const deadline = Date.now() + options.waitMs;
  let pause = 10;
  let waited = false;
  for (let attempt = 0; attempt < 500; attempt++) {
    try {
      const making = Date.now();
      await fs.writeFile(lockFile, me, { flag: 'wx', mode: 0o600 });
      // Named so late (this process stalled between making the file and writing it) that another
      // may have taken the file for an empty lock left behind: held only if it still names this one.
      if (Date.now() - making >= EMPTY_LOCK_GRACE_MS / 2 && (await readHolder(lockFile))?.id !== id) continue;
      // Kept fresh while held, for a Ferry on another computer that cannot ask whether this process runs.
      const refresh = setInterval(() => {
        const now = new Date();
        fs.utimes(lockFile, now, now).catch(() => {});
      }, STALE_MS / 2);
      refresh.unref();
      return async () => {
        clearInterval(refresh);
        await fs.unlink(lockFile).catch(() => {});
        await removeMarkersLeft(lockFile, options.folderHolder);
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        await options.makeFolder().catch((failed: unknown) => {
          throw unwritableDataFolder(options.saving, failed) ?? failed;
        });
        continue;
      }
      if (code === 'ENOTDIR') throw options.notAFolder();
      if (code !== 'EEXIST') throw unwritableDataFolder(options.saving, error) ?? error;
    }
    const left = await leftBehind(lockFile, options.folderHolder, options.now);
    if (left && (await takeOver(lockFile, options.folderHolder, left, options.now))) continue;
    if (Date.now() >= deadline) break;
    if (!waited && options.onWait) options.onWait(await lockHolder(lockFile, options.folderHolder));
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, Math.min(pause, Math.max(1, deadline - Date.now()))));
    pause = Math.min(200, pause * 1.5);
  }
  throw options.busy(await lockHolder(lockFile, options.folderHolder));
}

/**
 * The data folder does not let `file` be saved (its folder, or a folder above that Ferry has to
 * make, refuses new files: permissions, a read-only disk): what was not saved, which folder
 * refused, and what to do, in one line (a FileWriteError, as for any file that cannot be written:
 * exit code 2, a 400 in the app). Undefined for any other error.
 */
export function unwritableDataFolder(file: string, error: unknown): FileWriteError | undefined {
  const { code, syscall, path: where } = error as NodeJS.ErrnoException;
  if (code !== 'EACCES' && code !== 'EPERM' && code !== 'EROFS') return undefined;
  // A folder that could not be made was refused by the one above it.
  const folder = syscall === 'mkdir' && where ? path.dirname(where) : path.dirname(file);
  const problem = code === 'EROFS'
    ? `is on a read-only file system. Set FERRY_DATA_DIR to a folder on a writable disk`
    : `does not allow new files (${code === 'EACCES' ? 'permission denied' : 'operation not permitted'}). Make it writable (chmod u+w ${folder}), or set FERRY_DATA_DIR to a folder you can write`;
  return new FileWriteError(`Could not save ${file} (nothing was changed): the data folder's folder ${folder} ${problem}; then try again.`, code, file);
}

/** Who holds `lockFile` as it names itself (or the file beside an older Ferry's folder lock); undefined when not known. */
export async function lockHolder(lockFile: string, folderHolder: string): Promise<LockHolder | undefined> {
  const stat = await fs.lstat(lockFile).catch(() => undefined);
  return stat ? readHolder(stat.isDirectory() ? folderHolder : lockFile) : undefined;
}

/** When each lock's folder was last looked through for takeover markers left behind, by this process. */
const markersLookedFor = new Map<string, number>();

/**
 * Removes the takeover markers of `lockFile` that takers killed part-way left (lock-takeover.ts),
 * once a minute per lock and process at most, after a release: one folder listing, and
 * lock-takeover.ts loaded only when there is a marker. Best effort: a folder that cannot be
 * listed keeps them.
 */
async function removeMarkersLeft(lockFile: string, folderHolder: string): Promise<void> {
  const now = Date.now();
  if (now - (markersLookedFor.get(lockFile) ?? -Infinity) < 60_000) return;
  markersLookedFor.set(lockFile, now);
  if (markersLookedFor.size > 1_000) markersLookedFor.delete(markersLookedFor.keys().next().value!);
  const prefix = `${path.basename(lockFile)}.takeover-`;
  const names = await fs.readdir(path.dirname(lockFile)).then((all) => all.filter((name) => name.startsWith(prefix)), () => []);
  if (names.length === 0) return;
  const { removeDeadMarkers } = await import('./lock-takeover.js');
  await removeDeadMarkers(lockFile, names, () => currentKey(lockFile, folderHolder)).catch(() => {});
}

/** The key that names the lock there now (its id, else its inode), as `leftBehind` names it; undefined when there is none. */
async function currentKey(lockFile: string, folderHolder: string): Promise<string | undefined> {
  const stat = await fs.lstat(lockFile).catch(() => undefined);
  if (!stat) return undefined;
  const holder = await readHolder(stat.isDirectory() ? folderHolder : lockFile);
  return holder?.id ?? `inode${stat.ino}`;
}

/**
 * The lock, when its holder is gone (killed on this computer, or, holder unknown, the lock is
 * stale): named by its id, or by its file's inode when it has none (an older Ferry's lock, one
 * whose holder was killed before it wrote its name). Undefined while it is held, or released.
 */
async function leftBehind(lockFile: string, folderHolder: string, now = Date.now): Promise<{ key: string } | undefined> {
  const stat = await fs.lstat(lockFile).catch(() => undefined);
  if (!stat) return undefined;
  const holder = await readHolder(stat.isDirectory() ? folderHolder : lockFile);
  // Loaded only when a lock is found taken (`ferry run` loads no more than it needs: test/cli/command-table.test.ts).
  const { holderGone } = await import('./lock-takeover.js');
  // Empty: its maker was killed before it wrote its name (EMPTY_LOCK_GRACE_MS).
  const emptyFile = holder === undefined && stat.isFile() && stat.size === 0;
  if (!holderGone(holder, stat, emptyFile ? EMPTY_LOCK_GRACE_MS : STALE_MS, now())) return undefined;
  return { key: holder?.id ?? `inode${stat.ino}` };
}

/**
 * Removes a lock left behind so that, of the processes that found it at the same moment, one
 * does (lock-takeover.ts): holding the takeover marker, the same lock, still left behind, is
 * removed; anything else (released, taken over, a new holder) is left as it is.
 */
async function takeOver(lockFile: string, folderHolder: string, left: { key: string }, now?: () => number): Promise<boolean> {
  const { takeOverOnce } = await import('./lock-takeover.js');
  return takeOverOnce(lockFile, left.key, async () => {
    if ((await leftBehind(lockFile, folderHolder, now))?.key !== left.key) return false;
    await fs.rm(lockFile, { recursive: true, force: true });
    await fs.rm(folderHolder, { force: true });
    return true;
  });
}

async function readHolder(file: string): Promise<LockHolder | undefined> {
  try {
    const data = JSON.parse(await readFileNoFollow(file, 'utf8', 4096)) as Record<string, unknown>;
    if (typeof data !== 'object' || data === null || typeof data.pid !== 'number' || typeof data.host !== 'string') return undefined;
    const { id, ...rest } = data;
    return typeof id === 'string' && /^[\w-]{1,64}$/.test(id) ? { ...rest, pid: data.pid, host: data.host, id } : { ...rest, pid: data.pid, host: data.host };
  } catch {
    return undefined;
  }
}
