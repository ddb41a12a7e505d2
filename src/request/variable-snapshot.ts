/**
 * The variables a request is filled with (spec 2.10, 8.2): `--var` and data-file values, the
 * active environment, the workspace variables, with this computer's script-set values and
 * secrets. Everything is read from the data folder once; scopes are then built in memory.
 *
 * A secret variable has one value on this computer: the secret store's. Scripts that set it
 * change that value (the runner writes it to the secret store, never to the script values), so
 * `secrets` holds both what was stored and what scripts of this run set.
 */
import type { EnvironmentMark, WorkspaceData } from '../appdata/index.js';
import type { EnvironmentFile, Variable, WorkspaceFile } from '../model/index.js';
import { buildVariableScope, type StoredValue, type VariableScope } from '../template/index.js';

export interface VariableSnapshot {
  environmentId?: string;
  /** The data folder's `environmentMark` when this was read: the environment renamed since (by any process), its values are saved under its new id. */
  environmentMark?: EnvironmentMark;
  environment?: EnvironmentFile;
  workspaceVariables: readonly Variable[];
  /**
   * Script-set values of variables that are not secret, JSON data as scripts set them (text from an
   * older Ferry); `{{name}}` gets `templateText` of each (mutable: a run applies script changes here).
   */
  scriptValues: { environment: Record<string, StoredValue>; collection: Record<string, StoredValue>; globals: Record<string, StoredValue> };
  /** Secret values (mutable: a run applies script changes to secret variables here). */
  secrets: { environment: Record<string, string>; workspace: Record<string, string> };
}

/**
 * Names declared secret in a file. One row marked secret makes the name secret in every row of
 * that file, so its value is never kept or sent as plain text because of a duplicate row.
 */
export function secretKeysOf(variables: readonly Variable[]): Set<string> {
  return new Set(variables.filter((v) => v.secret).map((v) => v.key));
}

function markSecretKeys(variables: readonly Variable[]): readonly Variable[] {
  const secret = secretKeysOf(variables);
  if (secret.size === 0 || variables.every((v) => v.secret || !secret.has(v.key))) return variables;
  return variables.map((v) => (!v.secret && secret.has(v.key) ? { ...v, secret: true } : v));
}

/** Reads script values and secrets for the workspace and (optionally) one environment. */
export async function loadVariableSnapshot(
  workspace: { file: WorkspaceFile; environments: ReadonlyArray<{ id: string; value: EnvironmentFile }> },
  data: WorkspaceData | undefined,
  environmentId: string | undefined,
  /** Taken as the workspace was read (ContextOptions.environmentMark); absent, taken here. */
  mark?: EnvironmentMark,
): Promise<VariableSnapshot> {
  const entry = environmentId === undefined ? undefined : workspace.environments.find((e) => e.id === environmentId);
  const hasSecrets = (vars: readonly Variable[]) => vars.some((v) => v.secret);
  // Before the reads: a rename while they run is one the save follows. Only an environment's values need it.
  const environmentMark = entry && data ? mark ?? (await data.environmentMark()) : undefined;
  const [envValues, collection, globals, envSecrets, wsSecrets] = await Promise.all([
    entry && data ? data.scriptValues(`environment:${entry.id}`) : {},
    data ? data.scriptValues('collection') : {},
    data ? data.scriptValues('globals') : {},
    entry && data && hasSecrets(entry.value.variables) ? data.secrets.all(entry.id) : {},
    data && hasSecrets(workspace.file.variables) ? data.secrets.all('workspace') : {},
  ]);
  return {
    environmentId: entry?.id,
    ...(environmentMark === undefined ? {} : { environmentMark }),
    environment: entry && { ...entry.value, variables: markSecretKeys(entry.value.variables) as Variable[] },
    workspaceVariables: markSecretKeys(workspace.file.variables),
    scriptValues: { environment: envValues as Record<string, StoredValue>, collection: collection as Record<string, StoredValue>, globals: globals as Record<string, StoredValue> },
    secrets: { environment: envSecrets, workspace: wsSecrets },
  };
}

/**
 * The scope for one send. `overrides` (data-file row, then `--var`, later wins) beat everything,
 * as `--var` does in the template engine; `local` values set by scripts for this request too.
 * A name given `null` is defined with nothing to fill: `{{name}}` stays as written (a data row's null).
 */
export function scopeFrom(snapshot: VariableSnapshot, overrides: ReadonlyArray<Readonly<Record<string, string | null>> | ReadonlyMap<string, string> | undefined> = []): VariableScope {
  const merged = new Map<string, string | undefined>();
  for (const layer of overrides) {
    if (!layer) continue;
    const entries = layer instanceof Map ? layer.entries() : Object.entries(layer as Record<string, string | null>);
    for (const [key, value] of entries) if (typeof value === 'string' || value === null) merged.set(key, value ?? undefined);
  }
  return buildVariableScope({
    overrides: merged,
    // Without an active environment, scripts still set environment values for the rest of a run
    // (as Newman's implicit empty environment): `{{name}}` must see them as the scripts do.
    environment: { variables: snapshot.environment?.variables ?? [], scriptValues: snapshot.scriptValues.environment },
    workspace: { variables: snapshot.workspaceVariables, scriptValues: snapshot.scriptValues.collection },
    secrets: (key, origin) => (origin === 'environment' ? snapshot.secrets.environment[key] : snapshot.secrets.workspace[key]),
  });
}
