/**
 * The variable editor's routes, for an environment and for the workspace's own variables:
 * variables with secret values masked; and adding, renaming (a save of the variables with a new
 * name) and deleting environments (their data on this computer follows:
 * variables/manage-environments.ts). A secret variable's value goes to this computer's secret
 * store (keyed by the environment's id, or `workspace`, as `ferry secret set` stores it); the
 * file keeps its key with an empty value (2.10, 5.2).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { WorkspaceBusyError, type EnvironmentMark } from '../../appdata/index.js';
import { deepEqual, describeValue, parseResource, WORKSPACE_FILE, type EnvironmentFile, type ResourceKind, type Variable } from '../../model/index.js';
import { environmentSecretScopes, workspaceSecretScope } from '../../variables/index.js';
import { createEnvironment, deleteEnvironment, saveRenamed } from '../../variables/manage-environments.js';
import { checkNoSymlinks, ENVIRONMENTS_DIR, formatWarning, readResource, saveResource } from '../../workspace/index.js';
import type { EnvironmentVariableView } from '../shared/api.js';
import { variableKeyProblem } from '../../variables/variable-keys.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import type { WorkspaceState } from './workspace-state.js';

/** The variables of one file, where their secrets are kept, and how the file is written. */
interface Scope {
  /** The secret store's scope: the environment's id, or `workspace`. */
  secrets: string;
  name: string;
  /** Relative to the workspace folder. */
  file: string;
  kind: ResourceKind & ('environment' | 'workspace');
  value: { variables: Variable[] } & Record<string, unknown>;
}

async function views(state: WorkspaceState, scope: Scope): Promise<EnvironmentVariableView[]> {
  const stored = await state.data.secrets.all(scope.secrets);
  return scope.value.variables.map((v) => ({
    key: v.key, value: v.secret ? '' : v.value, enabled: v.enabled, secret: v.secret, stored: v.secret && stored[v.key] !== undefined,
  }));
}

/** What the page shows of a variable, less what this computer adds (`stored`): what a save's `base` is compared on. */
const shownOf = (v: { key: unknown; value?: unknown; enabled?: unknown; secret?: unknown }) =>
  ({ key: String(v.key), value: v.secret === true ? '' : String(v.value ?? ''), enabled: v.enabled !== false, secret: v.secret === true });

/**
 * Saves the variables: file values for plain ones, the secret store for secret ones (an empty
 * value keeps the stored one). The file is read again first and the variables put into what it
 * holds now, not into the app's copy (the watcher reloads it ~1 s after a change). `base` is the
 * variables as the page last read them: when the file no longer holds them (an editor, git or
 * another tab changed them) nothing is written, secrets included, and the answer is 409 with the
 * file's variables, as a request save does.
 */
async function save(state: WorkspaceState, scope: Scope, body: unknown, page: string | undefined): Promise<string | undefined> {
  const given = (body as { variables?: unknown }).variables;
  if (!Array.isArray(given)) throw new ApiError(400, '"variables" must be a list.');
  const base = (body as { base?: unknown }).base;
  if (base !== undefined && !Array.isArray(base)) throw new ApiError(400, '"base" must be the list of variables the page read.');
  // A new name comes with the variables: renamed and saved in one write, or neither (see below).
  const name = scope.kind === 'environment' ? optionalField(body, 'name') : undefined;
  const renaming = name !== undefined && name !== scope.name;
  // A row of the wrong shape is refused, naming it, before anything is written: read as text, an
  // object value would be saved as "[object Object]" and a numeric key dropped without a word.
  given.forEach((v, i) => {
    const problem = variableRowProblem(v);
    if (problem) throw new ApiError(400, `Not saved: variables[${i}]${problem}.`);
  });
  // Keys no placeholder can name, and two enabled rows of one key (variables/variable-keys.ts).
  const keyProblem = variableKeyProblem(given as Array<{ key: string; enabled?: boolean }>);
  if (keyProblem) throw new ApiError(400, `Not saved: variables[${keyProblem.index}].key: ${keyProblem.message}.`);
  // Rows without a key (the editor's empty last row) are not variables.
  const rows = given.filter((v) => (v as { key: string }).key !== '') as Array<{ key: string; value?: unknown; enabled?: unknown; secret?: unknown }>;
  const variables = rows.map((v) => ({ key: v.key, value: v.secret === true ? '' : String(v.value ?? ''), enabled: v.enabled !== false, secret: v.secret === true }));
  // Written over a file that did not read, the variables would replace what it holds.
  if (scope.kind === 'workspace' && state.workspace.fileProblem) throw new ApiError(409, `Not saved: ${state.workspace.fileProblem}. Fix ${WORKSPACE_FILE} first (the app reloads it when it changes).`);
  const root = state.workspace.root;
  let savedAs: string | undefined;
  try {
    // In place, not through saveEntry: that renames a file whose name differs from the display
    // name (`local.yaml` named "Local"), which would change the id the secrets and the active
    // environment are kept under.
    const linked = await checkNoSymlinks(root, scope.file);
    if (linked) throw new Error(`Cannot save ${scope.file}: ${linked}.`);
    // Under the workspace's write lock, as every writer (an import may be adding environments).
    await state.locked(async () => {
      const current = await onDisk(root, scope);
      if (base !== undefined && !deepEqual(base.map((v) => shownOf(v as never)), current.variables.map(shownOf))) {
        throw new ApiError(409, `${scope.file} changed on disk since the app read it; nothing was saved.`, { variables: await views(state, { ...scope, value: current }) });
      }
      const parsed = parseResource(scope.kind, { ...current, variables, ...(renaming ? { name } : {}) });
      if (!parsed.ok) throw new ApiError(400, `The variables are not valid: ${parsed.problems[0]!.message}`);
      // The file first, secrets after: a refused write (a read-only file, a name taken) then
      // changes nothing, where secrets set first would have been saved without their file.
      let secrets = scope.secrets;
      if (renaming) {
        // Renamed by the same write that saves the variables; the data (secrets) follows to the new id.
        savedAs = await saveRenamed(state.workspace, state.data, path.basename(scope.file, '.yaml'), parsed.value as EnvironmentFile);
        secrets = savedAs;
      } else {
        await saveResource(path.join(root, scope.file), scope.kind, parsed.value as never);
      }
      for (const v of rows) {
        if (v.secret === true && typeof v.value === 'string' && v.value !== '') await state.data.secrets.set(secrets, v.key, v.value);
      }
    }, page);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(error instanceof WorkspaceBusyError ? 409 : 400, (error as Error).message);
  }
  // Read once; the watcher's report of this write reads nothing more.
  const renamedFile = savedAs === undefined ? [] : [ENVIRONMENTS_DIR, path.posix.join(ENVIRONMENTS_DIR, `${savedAs}.yaml`)];
  await state.reloadAfterOwnWrites([scope.file, ...renamedFile]);
  state.retire();
  return savedAs;
}

/** What is wrong with one row the page sent (` is …` or `.field: …`), or undefined. */
function variableRowProblem(row: unknown): string | undefined {
  if (typeof row !== 'object' || row === null || Array.isArray(row)) return ` is ${describeValue(row)}, not a variable ({ key, value, enabled, secret })`;
  const { key, value, enabled, secret } = row as Record<string, unknown>;
  if (typeof key !== 'string') return `.key: expected text, got ${describeValue(key)}`;
  if (value !== undefined && value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return `.value: expected text, got ${describeValue(value)}`;
  if (enabled !== undefined && typeof enabled !== 'boolean') return `.enabled: expected true or false, got ${describeValue(enabled)}`;
  if (secret !== undefined && typeof secret !== 'boolean') return `.secret: expected true or false, got ${describeValue(secret)}`;
  return undefined;
}

/** The scope's file as it is on disk now; 404 when it is gone, 409 when it does not read. */
async function onDisk(root: string, scope: Scope): Promise<Scope['value']> {
  const file = path.join(root, scope.file);
  if (!(await fs.lstat(file).catch(() => undefined))) throw new ApiError(404, `${scope.file} is no longer in the workspace (deleted or renamed outside the app); nothing was saved.`);
  const outcome = await readResource(scope.kind, file, scope.file);
  if (!outcome.ok) throw new ApiError(409, `Not saved: ${formatWarning(outcome.warning)}. Fix ${scope.file} first (the app reloads it when it changes).`);
  return outcome.value as Scope['value'];
}

/** A mark of the record of environment renames and deletes (appdata/environment-changes.ts), as GET's answer gave it. */
function isMark(value: unknown): value is EnvironmentMark {
  const mark = value as { journal?: unknown; next?: unknown } | null;
  return typeof mark === 'object' && mark !== null && Number.isSafeInteger(mark.next) && (mark.journal === undefined || typeof mark.journal === 'string');
}

/**
 * The id now of the environment the page read as `id` (`mark`: the record of environment renames
 * and deletes when it read it, in GET's answer). Renamed since — in another tab, or by `ferry env
 * rename` in a terminal — its new id: the edits in the dialog are saved there, as a run's values
 * follow a rename, instead of refused with nowhere to go. Deleted since: a 404 that says so. Still
 * there, or no mark: `id`.
 */
async function followed(state: WorkspaceState, id: string, mark: unknown): Promise<string> {
  if (!isMark(mark)) return id;
  const file = path.join(state.workspace.root, ENVIRONMENTS_DIR, `${id}.yaml`);
  if (state.workspace.environments.some((e) => e.id === id) && (await fs.lstat(file).catch(() => undefined))) return id;
  const now = await state.data.exclusive(async (changes) => changes.since(id, mark));
  if (now === undefined) {
    throw new ApiError(404, `The environment "${id}" was deleted (in another tab, or by \`ferry env rm\`) since this dialog read it; nothing was saved. To keep these variables, add an environment (+) and enter them there.`, { deleted: true });
  }
  // Renamed by another process: the watcher may not have reported its new file yet.
  if (now !== id && !state.workspace.environments.some((e) => e.id === now)) await state.reload().catch(() => undefined);
  return now;
}

/**
 * Adds or deletes an environment, then reads the workspace again; returns the environment's
 * id. Read as the app's own write (the environment files before and after, and the folder, which
 * the first one makes): the watcher's report of them, unchanged since, reads nothing more.
 */
async function manage(state: WorkspaceState, change: () => Promise<string>): Promise<{ id: string }> {
  const file = (id: string) => path.posix.join(ENVIRONMENTS_DIR, `${id}.yaml`);
  const before = state.workspace.environments.map((e) => file(e.id));
  let id: string;
  try {
    id = await change();
  } catch (error) {
    if (error instanceof WorkspaceBusyError) throw new ApiError(409, error.message);
    // A refusal in words (a name taken, environments/ a file or a pipe): said as every write's is.
    throw new ApiError(400, (error as Error).message);
  }
  await state.reloadAfterOwnWrites([ENVIRONMENTS_DIR, ...before, file(id)]);
  state.retire();
  return { id };
}

export function environmentRoutes(state: WorkspaceState): Routes {
  const environment = (id: string): Scope => {
    const entry = state.workspace.environments.find((e) => e.id === id);
    if (!entry) throw new ApiError(404, `No environment "${id}".`);
    const secrets = environmentSecretScopes(state.workspace).find((s) => s.id === entry.id)!.id;
    return { secrets, name: entry.value.name, file: path.posix.join(ENVIRONMENTS_DIR, `${entry.id}.yaml`), kind: 'environment', value: entry.value };
  };
  const workspace = (): Scope => ({
    secrets: workspaceSecretScope(state.workspace).id, name: state.workspace.file.name, file: WORKSPACE_FILE, kind: 'workspace', value: state.workspace.file,
  });
  return {
    /** `mark`: sent back with a save or a rename, which then follow a rename made meanwhile (`followed`). */
    'GET /api/environment/variables': async ({ query }) => {
      const mark = await state.data.environmentMark();
      const scope = environment(query.get('id') ?? '');
      return { id: query.get('id'), name: scope.name, variables: await views(state, scope), mark };
    },

    /**
     * Returns the id saved to: another than `id` when the environment was renamed since `mark`, or
     * when `name` (optional) renames it. A rename and the variables are one change: both are
     * written, or neither and the answer says why. With it, what GET gives for that id now: the
     * page's base for its next save when it keeps edits typed while this one was on its way.
     */
    'PUT /api/environment/variables': async ({ body, page }) => {
      const id = await followed(state, field(body, 'id'), (body as { mark?: unknown }).mark);
      const savedTo = (await save(state, environment(id), body, page)) ?? id;
      const scope = environment(savedTo);
      return { id: savedTo, name: scope.name, variables: await views(state, scope), mark: await state.data.environmentMark() };
    },

    /** The workspace (collection) variables of ferry.yaml: used in every environment, below its values. */
    'GET /api/workspace/variables': async () => ({ name: workspace().name, variables: await views(state, workspace()) }),

    /** Answers as GET does, with what the file holds now (see the environment's PUT). */
    'PUT /api/workspace/variables': async ({ body, page }) => {
      await save(state, workspace(), body, page);
      return { name: workspace().name, variables: await views(state, workspace()) };
    },

    /** A new environment: `name`, and `copyOf` (an id) to start with its variables and secret values. */
    'POST /api/environments': async ({ body, page }) =>
      manage(state, () => createEnvironment(state.workspace, state.data, field(body, 'name'), { copyOf: optionalField(body, 'copyOf'), writer: 'the app', lock: state.lockFor(page) })),

    'POST /api/environments/delete': async ({ body, page }) =>
      manage(state, () => deleteEnvironment(state.workspace, state.data, field(body, 'id'), { writer: 'the app', lock: state.lockFor(page) })),
  };
}
