/**
 * One lock for every writer of a workspace (import, update from spec, the app's saves): two
 * writers at once could each undo the other's files. The lock lives in this computer's data folder
 * (`locks/`, keyed by the workspace folder's real path, so every writer finds it from the folder
 * alone; spec 2.1.3: nothing is added to the workspace). It is the lock the stores of the data
 * folder take (`holdLockFile`, json-store.ts: a file made only if absent, kept fresh while held,
 * taken over by exactly one writer once its holder is gone), and it names its holder and what it
 * writes, so a writer that has to give up can say who is writing.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { dataDir } from './paths.js';
import { holdLockFile, WorkspaceBusyError, type LockHolder } from './json-store.js';
import { makeDirs } from '../support/make-dirs.js';

export { WorkspaceBusyError };

export interface LockOptions {
  /** How long to wait for another writer to finish. Default 5 s (`FERRY_LOCK_WAIT_MS` overrides, for tests). */
  waitMs?: number;
  /**
   * Another writer holds the lock: called once, before waiting for it, with that writer as the
   * lock names it (`ferry import (process 4242, since 05:40:01 UTC)`, or `another Ferry process`).
   */
  onWait?: (holder: string) => void;
  /** The clock the lock's age is read by (Date.now): a test gives its own to age a lock without waiting. */
  now?: () => number;
}

/**
 * How a writer takes the workspace's write lock: `withWorkspaceLock` itself (the command line), or
 * a face's own over it (the app says the wait in its page: app/server/workspace-state.ts).
 */
export type WorkspaceLocker = <T>(root: string, writer: string, work: () => Promise<T>) => Promise<T>;

/**
 * Runs `work` holding the workspace's write lock. `writer` says what is writing ("ferry import"),
 * for the message another writer shows. Waits up to `waitMs` for a holder to finish, then throws
 * WorkspaceBusyError; a lock left by a process that died on this computer is taken over at once.
 */
export async function withWorkspaceLock<T>(root: string, writer: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await lockWorkspace(root, writer, options);
  try {
    return await work();
  } finally {
    await release();
  }
}

/** Takes the workspace's write lock; returns its release. See `withWorkspaceLock`. */
export async function lockWorkspace(root: string, writer: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const real = await fs.realpath(root).catch(() => path.resolve(root));
  const key = createHash('sha256').update(real).digest('hex').slice(0, 24);
  const dir = path.join(dataDir(), 'locks');
  const lockFile = path.join(dir, `${key}.lock`);
  return holdLockFile(lockFile, {
    // An older Ferry's lock is a folder (proper-lockfile), its holder named in this file beside it.
    folderHolder: path.join(dir, `${key}.json`),
    about: { writer, since: new Date().toISOString() },
    waitMs: options.waitMs ?? (Number(process.env.FERRY_LOCK_WAIT_MS) || 5_000),
    saving: lockFile,
    makeFolder: async () => {
      await makeDirs(dir, 0o700);
    },
    notAFolder: () => new Error(`Could not take the workspace's write lock in ${dir}: a part of that path is a file, not a folder. Remove it, or point FERRY_DATA_DIR at a folder.`),
    busy: (holder) => new WorkspaceBusyError(busyMessage(holder)),
    ...(options.onWait ? { onWait: (holder: LockHolder | undefined) => options.onWait!(holderText(holder)) } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
}

/** The lock's holder as people read it: `ferry import (process 4242, since 05:40:01 UTC)`. */
function holderText(holder: LockHolder | undefined): string {
  const writer = holder?.writer;
  const since = holder?.since;
  return holder && typeof writer === 'string' && typeof since === 'string'
    ? `${writer} (process ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}, since ${since.slice(11, 19)} UTC)`
    : 'another Ferry process';
}

function busyMessage(holder: LockHolder | undefined): string {
  return `The workspace is being changed by ${holderText(holder)}. Wait for it to finish, then try again.`;
}
