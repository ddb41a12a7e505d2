/**
 * Opening a workspace to work in, for every face (`ferry` commands, the app): find and read it,
 * and first finish (or undo) an update from API spec that a crash or kill interrupted.
 *
 * It lives here, not in workspace/: the update journal is the OpenAPI importer's
 * (`importers/openapi/update/journal.ts`), and workspace/ may import only model/. The session
 * layer sits above both, and both faces already import it.
 */
import { recoverInterruptedUpdate, type Recovery } from '../importers/openapi/update/index.js';
import { openWorkspaceFrom, WorkspaceError, type Workspace } from '../workspace/index.js';

export interface OpenForUseOptions {
  /** Where to look for ferry.yaml when `dir` is not given (walking up). Default: the process's folder. */
  cwd?: string;
  /** Told when an interrupted update was finished or undone, so a face can say so. */
  onRecovered?: (recovery: 'finished' | 'undone') => void;
  /** Read only the requests and folders these paths name (`OpenOptions.requests`): a run or export of a few requests. */
  requests?: readonly string[];
}

/**
 * The workspace in `dir` (or found from `cwd`), with any interrupted update recovered first.
 * Every refusal is a `WorkspaceError` whose message says what to do.
 */
export async function openWorkspaceForUse(dir: string | undefined, options: OpenForUseOptions = {}): Promise<Workspace> {
  const cwd = options.cwd ?? process.cwd();
  const read = options.requests ? { requests: options.requests } : {};
  const ws = await openWorkspaceFrom(dir, cwd, read);
  let recovery: Recovery;
  try {
    recovery = await recoverInterruptedUpdate(ws.root);
  } catch (error) {
    throw new WorkspaceError((error as Error).message);
  }
  // `running`: another process is updating; its own end finishes the update.
  if (recovery === 'none' || recovery === 'running') return ws;
  options.onRecovered?.(recovery);
  // Files changed under the first reading: read the workspace again.
  return openWorkspaceFrom(ws.root, cwd, read);
}
