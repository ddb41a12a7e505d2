/**
 * Opening a workspace to work in, for every face (`ferry` commands, the app): find and read it,
 * and first finish (or undo) an update from API spec, or undo an import, that a crash or kill
 * interrupted.
 *
 * It lives here, not in workspace/: the update journal is the OpenAPI importer's
 * (`importers/openapi/update/journal.ts`), and workspace/ may import only model/. The session
 * layer sits above both, and both faces already import it.
 */
import { promises as fs } from 'node:fs';
// The journal modules alone: the importer itself loads only when `ferry update` or an import runs,
// the workspace lock only when an import is to be undone. Modules, not their folders' index: a
// `ferry ls` the listing cache answers loads no more than it needs (docs/workspace.md).
import { moveJournalFile } from '../appdata/paths.js';
import { hasImportJournal, recoverInterruptedImport } from '../importers/import-journal.js';
import { recoverInterruptedUpdate, type Recovery } from '../importers/openapi/update/journal.js';
import type { RequestSummary } from '../model/index.js';
import type { ListingCacheOptions } from '../workspace/listing-cache.js';
import { markingRead } from './environment-mark.js';
import { openWorkspaceFrom, WorkspaceError } from '../workspace/open.js';
import type { Workspace } from '../workspace/types.js';

export interface OpenForUseOptions {
  /** Where to look for ferry.yaml when `dir` is not given (walking up). Default: the process's folder. */
  cwd?: string;
  /**
   * Told when an interrupted update was finished or undone, an interrupted import undone, or an
   * interrupted move or rename (`ferry mv`, the app) finished (`moved` says what went where), so a face can say so.
   */
  onRecovered?: (recovery: 'finished' | 'undone' | 'import undone' | 'move finished', moved?: { from: string; to: string }) => void;
  /** Read only the requests and folders these paths name (`OpenOptions.requests`): a run or export of a few requests. */
  requests?: readonly string[];
  /** Keep only each request's summary (`OpenOptions.listing`): `ferry ls`. */
  listing?: boolean;
  /** With `listing`: the listing cache to use (`OpenOptions.listingCache`). */
  listingCache?: ListingCacheOptions;
}

/**
 * The workspace in `dir` (or found from `cwd`), with any interrupted update recovered first.
 * Every refusal is a `WorkspaceError` whose message says what to do.
 */
export async function openWorkspaceForUse(dir: string | undefined, options: OpenForUseOptions & { listing: true }): Promise<Workspace<RequestSummary>>;
export async function openWorkspaceForUse(dir: string | undefined, options?: OpenForUseOptions & { listing?: false }): Promise<Workspace>;
export async function openWorkspaceForUse(dir: string | undefined, options?: OpenForUseOptions & { listing?: boolean }): Promise<Workspace<RequestSummary>>;
export async function openWorkspaceForUse(dir: string | undefined, options: OpenForUseOptions & { listing?: boolean } = {}): Promise<Workspace<RequestSummary>> {
  const cwd = options.cwd ?? process.cwd();
  const base = { ...(options.requests ? { requests: options.requests } : {}), listing: options.listing === true, ...(options.listingCache ? { listingCache: options.listingCache } : {}) };
  // Each whole read takes its place in the record of environment renames (a session may send from
  // it: environment-mark.ts); a listing sends nothing.
  const opened = async (from: string | undefined) => {
    if (options.listing) return openWorkspaceFrom(from, cwd, base);
    const marking = markingRead();
    return marking.keep(await openWorkspaceFrom(from, cwd, { ...base, onIdentified: marking.onIdentified }));
  };
  const ws = await opened(dir);
  let recovery: Recovery;
  try {
    recovery = await recoverInterruptedUpdate(ws.root);
  } catch (error) {
    throw new WorkspaceError((error as Error).message);
  }
  if (await hasImportJournal(ws.id, ws.root)) {
    // An import running now holds the lock (nothing to do); one killed left its staging folders.
    const { withWorkspaceLock, WorkspaceBusyError } = await import('../appdata/workspace-lock.js');
    const undone = await withWorkspaceLock(ws.root, 'ferry (undoing an interrupted import)', () => recoverInterruptedImport(ws.id, ws.root), { waitMs: 0 })
      .catch((error: unknown) => {
        if (error instanceof WorkspaceBusyError) return 'running' as const;
        throw error;
      });
    if (undone === 'undone') {
      options.onRecovered?.('import undone');
      if (recovery === 'none' || recovery === 'running') return opened(ws.root);
    }
  }
  if (await finishMove(ws, options)) return opened(ws.root);
  // `running`: another process is updating; its own end finishes the update.
  if (recovery === 'none' || recovery === 'running') return ws;
  options.onRecovered?.(recovery);
  // Files changed under the first reading: read the workspace again.
  return opened(ws.root);
}

/**
 * Finishes a move or rename of a request or folder that a kill interrupted (workspace/move-journal.ts),
 * under the workspace lock; a move running now holds it (nothing to do). True when files changed.
 */
async function finishMove(ws: Workspace<RequestSummary>, options: OpenForUseOptions): Promise<boolean> {
  const journal = moveJournalFile(ws.id, ws.root);
  if (!(await fs.lstat(journal).then(() => true, () => false))) return false;
  // Loaded only when there is a journal: `ferry ls` and `ferry run` load no more than they need.
  const [{ withWorkspaceLock, WorkspaceBusyError }, { refuseLinkedFolder }, { finishInterruptedMove }] = await Promise.all([
    import('../appdata/workspace-lock.js'),
    import('../appdata/json-store.js'),
    import('../workspace/move-journal.js'),
  ]);
  let recovery: Awaited<ReturnType<typeof finishInterruptedMove>>;
  try {
    // Found through a linked folder of the data folder: not acted on (json-store.ts).
    await refuseLinkedFolder(journal);
    recovery = await withWorkspaceLock(ws.root, 'ferry (finishing an interrupted move)', () => finishInterruptedMove(ws.root, journal), { waitMs: 0 });
  } catch (error) {
    if (error instanceof WorkspaceBusyError) return false;
    throw new WorkspaceError(`A move or rename of a request or folder that was interrupted could not be finished: ${(error as Error).message}. Fix that, then run ferry again to finish it (the move's record: ${journal}).`);
  }
  if (recovery.state === 'none') return false;
  options.onRecovered?.('move finished', { from: recovery.from, to: recovery.to });
  return true;
}
