/**
 * Forgetting the values scripts saved on this computer (`pm.environment.set`,
 * `pm.collectionVariables.set`, `pm.globals.set`): they win over the files' values in every later
 * run (docs/scripts.md), so a run that counts or logs in starts from what the last one left. This
 * puts a workspace back to its files, as each Newman run starts. Secret values scripts set live in
 * the secret store and stay (`ferry secret unset`).
 */
import type { ScriptScope, WorkspaceData } from '../appdata/index.js';
import type { Workspace } from '../workspace/index.js';
import { resolveEnvironment } from './environment.js';

export interface ForgottenValues {
  /** `environment Local`, `the workspace's variables (pm.collectionVariables)`, `globals (pm.globals)`. */
  where: string;
  names: string[];
}

/**
 * Removes the values scripts set in environment `wanted` (id or name), or with none, every value
 * scripts set in the workspace. Returns what was removed, by scope (empty when there was nothing).
 */
export async function forgetScriptValues(ws: Workspace, data: WorkspaceData, wanted?: string): Promise<ForgottenValues[]> {
  const only: ScriptScope | undefined = wanted === undefined ? undefined : `environment:${(await resolveEnvironment(ws, wanted, undefined))!}`;
  const held = (await data.scriptValueNames()).filter((entry) => only === undefined || entry.scope === only);
  for (const entry of held) await data.clearScriptValues(entry.scope);
  return held.map((entry) => ({ where: scopeWords(ws, entry.scope), names: entry.names }));
}

function scopeWords(ws: Workspace, scope: ScriptScope): string {
  if (scope === 'collection') return "the workspace's variables (pm.collectionVariables)";
  if (scope === 'globals') return 'globals (pm.globals)';
  const id = scope.slice('environment:'.length);
  const name = ws.environments.find((e) => e.id === id)?.value.name;
  return `environment ${name || id}`;
}
