/**
 * A workspace's place in the data folder's record of environment renames and deletes
 * (appdata/environment-changes.ts), taken as it is read: once `ferry.yaml` gave the id that names
 * the data folder, before any environment file is read. A rename renames the file first and
 * records it after, so a change recorded before the mark was on disk before the read (the read
 * sees the new file), and one recorded after is followed when the session saves. Taken later (when
 * the session opens), a rename made in between would be neither seen nor followed.
 *
 * Kept beside the workspace object it was taken for (a faces' copy with the same environments
 * carries it: `carryEnvironmentMark`); a workspace read otherwise has none, and its session takes
 * its mark when it opens.
 */
// The modules alone, not appdata's index: a command that reads a workspace loads no more than it needs.
import { EnvironmentChanges, type EnvironmentMark } from '../appdata/environment-changes.js';
import { workspaceDataDir } from '../appdata/paths.js';
import type { OpenOptions } from '../workspace/open.js';

const marks = new WeakMap<object, EnvironmentMark>();

/** Open options that take the mark while reading; `keep` gives it to the workspace once read. */
export function markingRead(): { onIdentified: NonNullable<OpenOptions['onIdentified']>; keep: <W extends object>(ws: W) => W } {
  let mark: EnvironmentMark | undefined;
  return {
    onIdentified: async (id, root) => {
      // Unreadable now: none is kept, and the session's own reading says why (or sets a damaged record aside).
      mark = await new EnvironmentChanges(workspaceDataDir(id, root)).mark().catch(() => undefined);
    },
    keep: (ws) => {
      if (mark) marks.set(ws, mark);
      return ws;
    },
  };
}

/** The mark taken as `ws` was read; undefined when it was read without one. */
export function environmentMarkOf(ws: object): EnvironmentMark | undefined {
  return marks.get(ws);
}

/** `to` is `from` with other requests (its environments as read): it has `from`'s mark. */
export function carryEnvironmentMark<W extends object>(from: object, to: W): W {
  const mark = marks.get(from);
  if (mark) marks.set(to, mark);
  return to;
}
