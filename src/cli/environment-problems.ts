/** What `ferry env ls` and `ferry secret ls` say about environment files they cannot list. */
import { ENVIRONMENTS_DIR, formatWarning, isSkippedEntry, isSubfolderWarning, type Workspace } from '../workspace/index.js';

/**
 * The problems of environment files (spec 2.1.9: a file that does not parse is shown with its
 * error), one line each for standard error; a file left out of the list (its id not in `listed`)
 * says so.
 */
export function environmentProblems(ws: Workspace, listed: readonly string[]): string[] {
  const ids = new Set(listed);
  const prefix = `${ENVIRONMENTS_DIR}/`;
  return ws.warnings
    .filter((w) => w.file.startsWith(prefix))
    .map((w) => {
      // Only an environment file (.yaml) that does not read is left out of the list; a subfolder,
      // a .yml file or a Postman export is no environment yet, and a link, pipe or socket has
      // nothing to fix: their warnings say what to do.
      const left = /\.yaml$/i.test(w.file) && !isSubfolderWarning(w) && !isSkippedEntry(w) && !ids.has(w.file.slice(prefix.length).replace(/\.yaml$/i, ''));
      return `ferry: ${formatWarning(w)}${left ? ' (not listed: fix the file to use it)' : ''}`;
    });
}
