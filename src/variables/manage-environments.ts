/**
 * Making, renaming and deleting environments (spec 2.10: renaming an environment renames its
 * file). The file name is the environment's id, and this computer keeps its data under that id —
 * secret values, values set by scripts, which environment is active — so a rename carries them to
 * the new id and a delete removes them. Each change runs under the workspace's write lock.
 *
 * A rename renames the file first, then moves the data: interrupted between the two, the data is
 * still under the old id, and renaming back finds it.
 */
import path from 'node:path';
import { withWorkspaceLock, type WorkspaceData, type WorkspaceLocker } from '../appdata/index.js';
import { createEntry, deleteEntry, ENVIRONMENTS_DIR, readResource, saveEntry, type Workspace } from '../workspace/index.js';
import type { EnvironmentFile } from '../model/index.js';
import { resolveEnvironment } from './environment.js';
import { RunError } from './errors.js';
import { variableKeyProblem } from './variable-keys.js';

/** The id of the environment `wanted` names (id or display name); resolveEnvironment throws a RunError, listing them, when none does. */
async function existing(ws: Workspace, wanted: string): Promise<string> {
  return (await resolveEnvironment(ws, wanted, undefined))!;
}

/**
 * Refuses a display name another environment has (any case): `-e NAME` and the app's picker would
 * not tell them apart. `except`: the environment being renamed.
 */
function checkNameFree(ws: Workspace, name: string, except?: string): void {
  const other = ws.environments.find((e) => e.id !== except && e.value.name.trim().toLowerCase() === name.trim().toLowerCase());
  if (other) throw new RunError(`An environment named "${other.value.name}" exists already (${ENVIRONMENTS_DIR}/${other.id}.yaml); give another name.`);
}

/** Who changes an environment (`writer`, named to another writer that waits) and how it takes the workspace's lock (the app: saying the wait). */
export interface EnvironmentWriter {
  writer: string;
  lock?: WorkspaceLocker;
}

/** The file as it is now (the workspace may have been read a while ago). */
async function current(ws: Workspace, id: string): Promise<EnvironmentFile> {
  const relative = path.posix.join(ENVIRONMENTS_DIR, `${id}.yaml`);
  const read = await readResource('environment', path.join(ws.root, relative), relative);
  if (!read.ok) throw new RunError(`${relative} cannot be read: ${read.warning.message}`);
  return read.value;
}

/**
 * A new environment named `name`, empty or with the variables of `copyOf` (id or name) and their
 * secret values on this computer; refused, nothing written, when a key of those could not be saved
 * (variable-keys.ts). Returns its id (its file name).
 */
export async function createEnvironment(ws: Workspace, data: WorkspaceData, name: string, options: EnvironmentWriter & { copyOf?: string }): Promise<string> {
  return (options.lock ?? withWorkspaceLock)(ws.root, options.writer, async () => {
    checkNameFree(ws, name);
    const source = options.copyOf === undefined ? undefined : await existing(ws, options.copyOf);
    // A secret's value is never written to a file (spec 2.10); one a hand edit left in the source stays there, not copied.
    const variables = source === undefined ? [] : (await current(ws, source)).variables.map((v) => (v.secret ? { ...v, value: '' } : v));
    // A hand-edited source is read with a warning only; its copy is a new file, checked as a save.
    const problem = variableKeyProblem(variables);
    if (problem) {
      const file = path.posix.join(ENVIRONMENTS_DIR, `${source}.yaml`);
      throw new RunError(`Not copied: ${file}, variables[${problem.index}].key: ${problem.message} in ${file}, then copy it again.`);
    }
    const id = await createEntry(ws.root, 'environment', { name, variables });
    if (source !== undefined) await data.secrets.copyScope(source, id);
    return id;
  });
}

/** Renames the environment `wanted` (id or name) to `name`; its file and its data on this computer follow. Returns the new id. */
export async function renameEnvironment(ws: Workspace, data: WorkspaceData, wanted: string, name: string, options: EnvironmentWriter): Promise<string> {
  return (options.lock ?? withWorkspaceLock)(ws.root, options.writer, async () => {
    const id = await existing(ws, wanted);
    return saveRenamed(ws, data, id, { ...(await current(ws, id)), name });
  });
}

/**
 * Writes `value` (the file's fields, a new `name` among them) to environment `id` in one write,
 * then renames the file after the name and moves its data on this computer to the new id; returns
 * that id. Every check (name free, name allowed, file writable) comes before the write, so a
 * refusal leaves the file as it was. Call under the workspace's write lock.
 */
export async function saveRenamed(ws: Workspace, data: WorkspaceData, id: string, value: EnvironmentFile): Promise<string> {
  checkNameFree(ws, value.name, id);
  const renamed = await saveEntry(ws.root, 'environment', id, value);
  if (renamed !== id) await data.renameEnvironmentData(id, renamed);
  return renamed;
}

/** Deletes the environment `wanted` (id or name): its file, and its secret and script values on this computer. Returns its id. */
export async function deleteEnvironment(ws: Workspace, data: WorkspaceData, wanted: string, options: EnvironmentWriter): Promise<string> {
  return (options.lock ?? withWorkspaceLock)(ws.root, options.writer, async () => {
    const id = await existing(ws, wanted);
    await deleteEntry(ws.root, 'environment', id);
    await data.deleteEnvironmentData(id);
    return id;
  });
}
