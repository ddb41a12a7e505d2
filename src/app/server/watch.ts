/**
 * Watches the workspace folder so edits made outside the app (git pull, an editor) show up:
 * changes are gathered until the folder is quiet for a moment (at most half a second from the
 * first), then `onChange` gets the changed paths once. Each call makes the app read the whole
 * workspace (unless every path is the app's own save, unchanged since: WorkspaceState.onlyOwnWrites)
 * and every page fetch the tree: a `git checkout` of hundreds of files over a second or two is a
 * few calls, not one per 80 ms.
 *
 * One watcher per folder, not Node's `recursive` option: on Linux that one watches each file's
 * inode, so after an atomic save (temporary file renamed over the old one) it misses every later
 * in-place edit of that file. A folder's watcher sees both. Links are not followed (2.1.7).
 */
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';

/** Quiet this long after a change: long enough to gather one save's rename + write. */
const GATHER_MS = 80;
/** A burst that never goes quiet is still reported this often: an edit shows within a second. */
const GATHER_AT_MOST_MS = 500;
/** The request tree is read at most 32 levels deep (2.1.8); a little room for requests/ itself. */
const MAX_DEPTH = 34;

export function watchWorkspace(root: string, onChange: (paths: string[]) => void): { close(): void; ready: Promise<void> } {
  const watchers = new Map<string, FSWatcher>();
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  /** When the first change of the batch being gathered came. */
  let firstAt = 0;
  let closed = false;

  const report = () => {
    const paths = [...pending];
    pending = new Set();
    timer = undefined;
    // New folders (a pull, an import) get their watchers before the page asks again.
    void scan(root, 0).finally(() => {
      if (!closed) onChange(paths);
    });
  };

  const changed = (relative: string) => {
    const now = Date.now();
    if (pending.size === 0) firstAt = now;
    pending.add(relative);
    if (timer) clearTimeout(timer);
    timer = setTimeout(report, Math.max(0, Math.min(GATHER_MS, firstAt + GATHER_AT_MOST_MS - now)));
  };

  const add = (dir: string) => {
    if (watchers.has(dir) || closed) return;
    try {
      const watcher = watch(dir, (_event, name) => {
        const file = name ? path.relative(root, path.join(dir, String(name))).replace(/\\/g, '/') : path.relative(root, dir);
        // Dot files (.git, swap files, atomic writes' temporary files) are not the workspace's (2.1.7).
        if (file.split('/').some((part) => part.startsWith('.'))) return;
        changed(file);
      });
      watcher.on('error', () => {
        watcher.close();
        watchers.delete(dir);
      });
      watchers.set(dir, watcher);
    } catch {
      // A folder that vanished or cannot be watched: its edits show on the next change elsewhere.
    }
  };

  const scan = async (dir: string, depth: number): Promise<void> => {
    add(dir);
    if (depth >= MAX_DEPTH) return;
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules').map((e) => scan(path.join(dir, e.name), depth + 1)));
    // Watchers of folders that are gone are closed.
    if (depth === 0) {
      for (const [watched, watcher] of watchers) {
        if (!(await fs.stat(watched).then((s) => s.isDirectory(), () => false))) {
          watcher.close();
          watchers.delete(watched);
        }
      }
    }
  };

  // Every folder has its watcher once the first scan is done: an edit before may go unseen.
  const ready = scan(root, 0);
  return {
    ready,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
