/** Which environment a run or an export uses: `-e` by id or name, else the one active on this computer. */
import type { WorkspaceData } from '../appdata/index.js';
import { entriesHere, formatWarning, type Workspace } from '../workspace/index.js';
import { NoEnvironmentError, RunError } from './errors.js';

/**
 * Told which environment is used when none was asked for and the active one applies, so each
 * command can say so (2.10): the core returns the line, the command prints it.
 */
export type ActiveEnvironmentNotice = (message: string) => void;

export async function resolveEnvironment(
  workspace: Workspace,
  wanted: string | undefined,
  data: WorkspaceData | undefined,
  onActive?: ActiveEnvironmentNotice,
): Promise<string | undefined> {
  if (wanted === undefined) {
    const activeId = await data?.activeEnvironment();
    const active = workspace.environments.find((e) => e.id === activeId);
    if (active && onActive) onActive(activeEnvironmentMessage(active.value.name || active.id));
    return active?.id;
  }
  const byId = workspace.environments.find((e) => e.id === wanted) ?? workspace.environments.find((e) => e.id.toLowerCase() === wanted.toLowerCase());
  if (byId) return byId.id;
  const byName = workspace.environments.find((e) => e.value.name.toLowerCase() === wanted.toLowerCase());
  if (byName) return byName.id;
  // A file of that name that could not be read is named with its problem, not called missing.
  const file = `environments/${wanted}.yaml`.toLowerCase();
  const broken = workspace.warnings.find((w) => w.file.toLowerCase() === file);
  if (broken) throw new RunError(`Environment "${wanted}" cannot be used: ${formatWarning(broken)}`);
  throw new NoEnvironmentError(wanted, entriesHere(workspace, 'environment'));
}

/** The line `run`, `serve` and `load` print when they use the active environment (no `-e`). */
export function activeEnvironmentMessage(name: string): string {
  return `using environment "${name}" (active; ferry env use to change)`;
}

export interface EnvironmentRow {
  /** The file name without `.yaml`. */
  id: string;
  name: string;
  /** The active environment on this computer (2.10). */
  active: boolean;
  variables: number;
}

/** Every environment of the workspace, the active one marked (`ferry env ls`, the app's picker). */
export async function listEnvironments(workspace: Workspace, data: WorkspaceData): Promise<EnvironmentRow[]> {
  const active = await resolveEnvironment(workspace, undefined, data);
  return workspace.environments.map((e) => ({ id: e.id, name: e.value.name, active: e.id === active, variables: e.value.variables.length }));
}

/**
 * Makes `wanted` (id or name) the active environment on this computer, or none with undefined;
 * an unknown name is refused with the environments there are. Returns the id made active.
 */
export async function useEnvironment(workspace: Workspace, data: WorkspaceData, wanted: string | undefined): Promise<string | undefined> {
  const id = wanted === undefined ? undefined : await resolveEnvironment(workspace, wanted, data);
  await data.setActiveEnvironment(id);
  return id;
}
