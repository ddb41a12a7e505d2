/**
 * Server files that are wanted but not running: one that could not start (its port was taken, a
 * file that did not parse) or, when every server is served, one added (or renamed into place)
 * while serving. One watch on `servers/` (by its name: a folder git removed and made again is
 * watched again, and each file in it tried); when such a file is saved it is read and started, and
 * a start that fails again is reported the same way. A running server watches its own file
 * (server.ts; the same settled watch, settled-watch.ts); this only covers the ones without a server yet.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { ServerFile } from '../model/index.js';
import type { ServerEntry } from './server.js';
import { formatWarning, isYamlFile, readResource, SERVERS_DIR, stripYaml } from '../workspace/index.js';
import type { RunningServer, ServerNotice } from './types.js';
import { watchSettled } from './settled-watch.js';

export interface PendingServersOptions {
  root: string;
  /** Whether a file of this id is to be served (the ids asked for, or every one). */
  wanted: (id: string) => boolean;
  /** The servers running now, by id (started ones are added by `start`). */
  running: () => readonly RunningServer[];
  /** Asked with the settings read, before a start: false leaves the file alone. */
  mayStart?: (id: string, config: ServerFile) => boolean | Promise<boolean>;
  /** Starts a server from its file's settings; throws with the refusal already worded for the user. */
  start: (entry: ServerEntry) => Promise<RunningServer>;
  notify: (notice: ServerNotice) => void;
}

export interface PendingServers {
  /** Stops watching; resolves when no start is under way. */
  close(): Promise<void>;
}

export function watchPendingServers(options: PendingServersOptions): PendingServers {
  const dir = path.join(options.root, SERVERS_DIR);
  let closed = false;

  const attempt = async (id: string, name: string): Promise<void> => {
    if (closed || options.running().some((s) => s.id === id)) return;
    const file = `${SERVERS_DIR}/${name}`;
    const absolute = path.join(dir, name);
    const exists = await lstat(absolute).then((s) => s.isFile(), () => false);
    if (!exists || closed) return; // deleted again (an editor's temporary file, a branch switch): nothing to start
    const outcome = await readResource('server', absolute, file);
    if (closed) return;
    if (!outcome.ok) {
      options.notify({ server: id, level: 'warning', message: `server ${id} did not start: ${formatWarning(outcome.warning)} — fix the file to start this server.` });
      return;
    }
    if (options.mayStart && !(await options.mayStart(id, outcome.value))) return;
    if (closed || options.running().some((s) => s.id === id)) return;
    try {
      await options.start({ id, file, value: outcome.value });
    } catch (error) {
      options.notify({ server: id, level: 'warning', message: `server ${id} did not start: ${(error as Error).message} Save the file again to retry.` });
    }
  };

  // No servers/ folder to watch (or it cannot be watched): files added later are not started.
  // Starts run one after another: a rename's new file waits for the old server to give up its port.
  const watcher = watchSettled(dir, {
    select: (name) => {
      // As the workspace reads servers/: `.yaml` files, not hidden ones (an editor's temporary file).
      if (name === null || name.startsWith('.') || name.includes('/') || name.includes(path.sep) || !isYamlFile(name)) return undefined;
      const id = stripYaml(name);
      return options.wanted(id) && !options.running().some((s) => s.id === id) ? id : undefined;
    },
    act: (id, name) => attempt(id, name!),
  });

  return {
    async close() {
      closed = true;
      await watcher.close();
    },
  };
}
