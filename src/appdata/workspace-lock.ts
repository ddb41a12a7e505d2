/**
 * One lock for every writer of a workspace (import, update from spec, the app's saves): two
 * writers at once could each undo the other's files. The lock lives in this computer's data folder
 * (`locks/`, keyed by the workspace folder's real path, so every writer finds it from the folder
 * alone; spec 2.1.3: nothing is added to the workspace), held with proper-lockfile (a
 * folder made atomically, its time kept fresh while held, taken over once stale). Beside it a small
 * file names the holder, so a writer that has to give up can say who is writing.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { createHash } from 'node:crypto';
import { dataDir } from './paths.js';
import { isProcessAlive } from '../support/process-alive.js';

/** A lock not refreshed for this long belongs to a process that died (the holder refreshes it every 2 s). */
const STALE_MS = 10_000;

/** Another writer holds the workspace; the message names it when known and says what to do. */
export class WorkspaceBusyError extends Error {
  override name = 'WorkspaceBusyError';
}

export interface LockOptions {
  /** How long to wait for another writer to finish. Default 5 s (`FERRY_LOCK_WAIT_MS` overrides, for tests). */
  waitMs?: number;
}

interface Holder {
  pid: number;
  host: string;
  writer: string;
  since: string;
}

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
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const lockPath = path.join(dir, `${key}.lock`);
  const holderFile = path.join(dir, `${key}.json`);
  const waitMs = options.waitMs ?? (Number(process.env.FERRY_LOCK_WAIT_MS) || 5_000);
  const deadline = Date.now() + waitMs;
  let release: (() => Promise<void>) | undefined;
  for (let attempt = 0; attempt < 1_000 && !release; attempt++) {
    try {
      release = await lockfile.lock(lockPath, {
        realpath: false,
        lockfilePath: lockPath,
        stale: STALE_MS,
        update: STALE_MS / 5,
        // A lost lock (the folder removed under us, a suspended machine) must not crash the process.
        onCompromised: () => {},
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED') throw error;
      const holder = await readHolder(holderFile);
      // Killed (kill -9, a crash): its lock will never be released.
      if (holder && holder.host === os.hostname() && holder.pid !== process.pid && !isProcessAlive(holder.pid) && (await takeOverDead(lockPath, holderFile, holder))) continue;
      if (Date.now() >= deadline) throw new WorkspaceBusyError(busyMessage(holder));
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, Math.max(10, deadline - Date.now()))));
    }
  }
  if (!release) throw new WorkspaceBusyError(busyMessage(await readHolder(holderFile)));
  const holder: Holder = { pid: process.pid, host: os.hostname(), writer, since: new Date().toISOString() };
  await fs.writeFile(holderFile, JSON.stringify(holder), { mode: 0o600 }).catch(() => {});
  const held = release;
  return async () => {
    await fs.rm(holderFile, { force: true }).catch(() => {});
    await held().catch(() => {});
  };
}

/**
 * Removes the lock of `holder`, a process killed on this computer, so that of the writers that
 * found it at the same moment one does (lock-takeover.ts: the lock is named by its holder's pid and
 * start). Holding the takeover marker, it is removed only if the holder file still names that
 * process and the lock folder is not newer than its start (one made since, by a writer that has
 * not named itself yet, is that writer's); the holder file goes first, so no other writer reads
 * the killed one's name beside a live lock. False when this process did not remove it.
 */
async function takeOverDead(lockPath: string, holderFile: string, holder: Holder): Promise<boolean> {
  const { takeOverOnce } = await import('./lock-takeover.js');
  const key = createHash('sha256').update(`${holder.pid} ${holder.host} ${holder.since}`).digest('hex').slice(0, 16);
  return takeOverOnce(lockPath, key, async () => {
    const again = await readHolder(holderFile);
    if (!again || again.pid !== holder.pid || again.host !== holder.host || again.since !== holder.since) return false;
    const lock = await fs.stat(lockPath).catch(() => undefined);
    // A file system that keeps no birth time gives 0: the folder is taken as the holder's.
    if (lock && lock.birthtimeMs > 0 && Math.floor(lock.birthtimeMs) > Date.parse(holder.since)) return false;
    await fs.rm(holderFile, { force: true });
    await fs.rm(lockPath, { recursive: true, force: true });
    return true;
  });
}

function busyMessage(holder: Holder | undefined): string {
  const who = holder
    ? `${holder.writer} (process ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}, since ${holder.since.slice(11, 19)} UTC)`
    : 'another Ferry process';
  return `The workspace is being changed by ${who}. Wait for it to finish, then try again.`;
}

async function readHolder(file: string): Promise<Holder | undefined> {
  try {
    const data = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<Holder>;
    if (typeof data.pid !== 'number' || typeof data.host !== 'string' || typeof data.writer !== 'string' || typeof data.since !== 'string') return undefined;
    return data as Holder;
  } catch {
    return undefined;
  }
}
