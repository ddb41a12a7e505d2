/**
 * A JSON file in the data folder that two processes (the CLI and the app) can update at once:
 * every change is a read-modify-write under a lock file, written atomically.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { writeFileAtomic } from '../support/atomic-write.js';
import { isProcessAlive } from '../support/process-alive.js';
import { WorkspaceBusyError } from './workspace-lock.js';
import { isLinkError, readFileNoFollow } from '../support/read-no-follow.js';

/**
 * A file in this computer's data folder that Ferry cannot use as it is (a link where it writes a
 * file of its own, a damaged key): the message names the file and what to do, and the command
 * line prints it as one line, matched by this name (src/cli/main.ts), never as a stack trace.
 */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
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
    try {
      text = await readFileNoFollow(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return this.empty();
      if (isLinkError(error)) {
        throw new DataFolderError(`${this.file} is a symbolic link; Ferry never follows links in its data folder. Remove the link (Ferry writes a file of its own there).`);
      }
      // Reading a folder fails with EISDIR and no path: name the store, so the message says which.
      const systemError = error as NodeJS.ErrnoException;
      if (systemError.code !== undefined && systemError.path === undefined) systemError.path = this.file;
      throw error;
    }
    let problem: string;
    try {
      const value = JSON.parse(text) as unknown;
      // Valid JSON of the wrong shape (`null`, a list for a map) is as damaged as a cut-off file.
      if (sameShape(value, this.empty())) return value as T;
      problem = 'it does not hold the data Ferry keeps there';
    } catch (error) {
      problem = (error as Error).message;
    }
    if (!holding) return this.holdingLock(() => this.readHolding(true));
    const movedTo = `${this.file}.damaged-${Date.now()}`;
    if (await fs.rename(this.file, movedTo).then(() => true, () => false)) {
      // Loaded only then: `ferry run` loads no more than it needs (test/cli/command-table.test.ts).
      const { reportSetAside } = await import('./set-aside.js');
      reportSetAside(this.file, movedTo, problem, this.lost);
    }
    return this.empty();
  }

  /** Applies `change` to the current content under the lock and saves the result. */
  async update<R>(change: (value: T) => R | Promise<R>): Promise<R> {
    return this.holdingLock(async () => {
      const value = await this.readHolding(true);
      const result = await change(value);
      await writeFileAtomic(this.file, JSON.stringify(value, null, 1), this.mode);
      return result;
    });
  }

  private async holdingLock<R>(work: () => Promise<R>): Promise<R> {
    try {
      await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    } catch (error) {
      // EEXIST from a recursive mkdir: a part of the path is a file (FERRY_DATA_DIR naming a file).
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new DataFolderError(`Could not create the data folder ${path.dirname(this.file)}: a part of that path is a file, not a folder. Remove it, or point FERRY_DATA_DIR at a folder.`);
      throw error;
    }
    const release = await this.lock();
    try {
      return await work();
    } finally {
      await fs.rm(this.holderFile, { force: true }).catch(() => {});
      await release();
    }
  }

  /** `FILE.lock-holder`: the process holding the lock (`FILE.lock`, a folder), so a killed one's lock is known as such. */
  private get holderFile(): string {
    return `${this.file}.lock-holder`;
  }

  /**
   * The store's lock. A lock whose holder was killed on this computer (kill -9, a crash: it is
   * never released) is taken over at once; one with no known holder, once stale (not refreshed
   * for 10 s), within the wait. Still held after the wait: one line naming the store.
   */
  private async lock(): Promise<() => Promise<void>> {
    const options = { realpath: false, stale: STALE_MS };
    let release: (() => Promise<void>) | undefined;
    try {
      release = await lockfile.lock(this.file, options).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== 'ELOCKED') throw error;
        const holder = await readHolder(this.holderFile);
        if (holder && holder.host === os.hostname() && holder.pid !== process.pid && !isProcessAlive(holder.pid)) {
          await fs.rm(`${this.file}.lock`, { recursive: true, force: true });
        }
        // About 13 s in all: past STALE_MS, so a lock left without a holder file is taken over too.
        return lockfile.lock(this.file, { ...options, retries: { retries: 70, minTimeout: 10, maxTimeout: 200, factor: 1.5 } });
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      // Busy, as a held workspace lock is: worth trying again (exit code 1, a 409 in the app).
      throw new WorkspaceBusyError(`${this.file} is being changed by another Ferry process (its lock ${this.file}.lock is held). Try again when it is done; if no Ferry is running, remove ${this.file}.lock.`);
    }
    await fs.writeFile(this.holderFile, JSON.stringify({ pid: process.pid, host: os.hostname() }), { mode: 0o600 }).catch(() => {});
    return release;
  }
}

/** A lock not refreshed for this long belongs to a process that died (proper-lockfile refreshes it every 5 s). */
const STALE_MS = 10_000;

async function readHolder(file: string): Promise<{ pid: number; host: string } | undefined> {
  try {
    const data = JSON.parse(await readFileNoFollow(file, 'utf8', 4096)) as { pid?: unknown; host?: unknown };
    return typeof data.pid === 'number' && typeof data.host === 'string' ? { pid: data.pid, host: data.host } : undefined;
  } catch {
    return undefined;
  }
}

function sameShape(value: unknown, empty: unknown): boolean {
  if (Array.isArray(empty)) return Array.isArray(value);
  if (typeof empty === 'object' && empty !== null) return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === typeof empty;
}
