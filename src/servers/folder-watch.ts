/**
 * Watching `servers/` by its name, not by the folder it was when the watch began: a git checkout
 * whose branch has none of its files removes the folder and makes it again, and a watch on the old
 * one hears nothing more (a new file would never start, a file coming back never be read). The
 * folder above is watched for the folder's name too; when the folder is made again, it is watched
 * again and `changed(undefined)` says that anything in it may have changed.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';

export interface FolderWatch {
  close(): void;
}

/**
 * Calls `changed(name)` for an entry of `dir` that changed, `changed(undefined)` when the folder
 * itself was made again. Throws when `dir` cannot be watched at all; `failed` is told when the
 * watch of the folder above breaks.
 */
export function watchFolder(dir: string, changed: (name: string | undefined) => void, failed: () => void): FolderWatch {
  let closed = false;
  let inner: FSWatcher | undefined;
  const watchInner = (): void => {
    inner?.close();
    inner = watch(dir, { persistent: false }, (_event, name) => {
      if (!closed) changed(name === null ? undefined : name.toString());
    });
    // The folder removed: its watch ends, and the one above sees it come back.
    inner.on('error', () => {
      inner?.close();
      inner = undefined;
    });
  };
  watchInner();
  const base = path.basename(dir);
  let outer: FSWatcher | undefined;
  try {
    outer = watch(path.dirname(dir), { persistent: false }, (_event, name) => {
      if (closed || name === null || name.toString() !== base) return;
      try {
        watchInner();
      } catch {
        inner = undefined;
        return; // removed, not made again (yet)
      }
      changed(undefined);
    });
    outer.on('error', failed);
  } catch {
    // The folder above cannot be watched: the folder itself still is, as long as it stays.
  }
  return {
    close() {
      closed = true;
      inner?.close();
      outer?.close();
    },
  };
}
