/**
 * A watch on one folder whose changes are acted on once they settle, one action at a time: a
 * running server's own file (server.ts) and the server files without a server yet
 * (pending-servers.ts). The folder is watched, not a file: editors and Ferry itself save by
 * renaming a new file over the old. Events for one key (`select` turns a changed name into one,
 * or into nothing to do) are one action SETTLE_MS after the last of them: two quick saves (an
 * editor's write, then rename) are one reload or start. Actions run one after another, with any
 * `queue` adds (a reload asked for by hand); each reports its own failures. The folder is watched
 * by its name (folder-watch.ts): made again by a branch checkout, each file in it is a change.
 */
import { readdir } from 'node:fs/promises';
import { type FolderWatch, watchFolder } from './folder-watch.js';

const SETTLE_MS = 75;

export interface SettledWatchOptions {
  /** The key of a change to act on (the server's id, its file name), or undefined to pass it by. `name` is null when the system does not say which. */
  select: (name: string | null) => string | undefined;
  /** The action for a settled key, given the last name changed under it. */
  act: (key: string, name: string | null) => Promise<void>;
  /** The folder cannot be watched (`'start'`), or the watch failed later (`'later'`). */
  onWatchError?: (when: 'start' | 'later') => void;
}

export interface SettledWatch {
  /** Runs `action` after those queued before; resolves when it is done (a failure is its own to report). */
  queue(action: () => Promise<void>): Promise<void>;
  /** Stops watching and drops the actions still settling; resolves when none is under way. */
  close(): Promise<void>;
}

/** `dir` undefined: no watch, only the one-at-a-time queue. */
export function watchSettled(dir: string | undefined, options: SettledWatchOptions): SettledWatch {
  const timers = new Map<string, NodeJS.Timeout>();
  let chain: Promise<void> = Promise.resolve();
  let closed = false;
  const queue = (action: () => Promise<void>): Promise<void> => {
    chain = chain.then(action).catch(() => {});
    return chain;
  };
  const seen = (name: string | null): void => {
    if (closed) return;
    const key = options.select(name);
    if (key === undefined) return;
    clearTimeout(timers.get(key));
    timers.set(key, setTimeout(() => {
      timers.delete(key);
      void queue(() => options.act(key, name));
    }, SETTLE_MS));
  };
  let watcher: FolderWatch | undefined;
  if (dir !== undefined) {
    try {
      watcher = watchFolder(
        dir,
        (changed) => {
          if (changed !== undefined) return seen(changed);
          // No name said, or the folder made again (a branch checkout): a change the system does not
          // name (`select(null)`: a running server reads its file again), and each file now in the
          // folder may be new or back.
          seen(null);
          void readdir(dir).then((names) => { for (const name of names) seen(name); }, () => undefined);
        },
        () => options.onWatchError?.('later'),
      );
    } catch {
      options.onWatchError?.('start');
    }
  }
  return {
    queue,
    async close() {
      closed = true;
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      watcher?.close();
      await chain;
    },
  };
}
