/**
 * Where a secret variable's value belongs (spec 2.10, 5.2): the workspace file's variables go to
 * the secret store's `workspace` scope, an environment's to the scope named by its id. The rules
 * live here so `ferry secret` and the app ask the same questions and get the same answers.
 */
import type { WorkspaceData } from '../appdata/index.js';
import type { Variable } from '../model/index.js';
import type { Workspace } from '../workspace/index.js';
import { resolveEnvironment } from './environment.js';

/** A variable named for a secret scope is missing there, or is not secret. */
export class SecretScopeError extends Error {
  override name = 'SecretScopeError';
}

/** Where a secret variable is declared: the workspace file, or one environment file. */
export interface SecretScope {
  /** The secret store's scope: `workspace` or the environment's id. */
  id: string;
  label: string;
  file: string;
  variables: readonly Variable[];
}

export interface SecretRow {
  scope: string;
  name: string;
  /** This computer's secret store has a value for it that it can read. */
  stored: boolean;
  /** Only when true: a value is stored but cannot be decrypted (stored with another `secret.key`); it is used as not set. */
  unreadable?: true;
}

export function workspaceSecretScope(ws: Workspace): SecretScope {
  return { id: 'workspace', label: 'workspace', file: 'ferry.yaml', variables: ws.file.variables };
}

export function environmentSecretScopes(ws: Workspace): SecretScope[] {
  return ws.environments.map((e) => ({ id: e.id, label: e.id, file: `environments/${e.id}.yaml`, variables: e.value.variables }));
}

/** The workspace's scope without `env`, else the environment's (by id or name; `RunError` when unknown). */
export async function secretScopeFor(ws: Workspace, env: string | undefined): Promise<SecretScope> {
  if (env === undefined) return workspaceSecretScope(ws);
  const id = await resolveEnvironment(ws, env, undefined);
  return environmentSecretScopes(ws).find((scope) => scope.id === id)!;
}

/** The variable `name` of the scope, which must be declared secret there. */
export function secretVariable(scope: SecretScope, name: string): Variable {
  const variable = scope.variables.find((v) => v.key === name);
  if (!variable) {
    const secrets = scope.variables.filter((v) => v.secret).map((v) => v.key);
    throw new SecretScopeError(
      `${scope.file} has no variable "${name}". Add it there with \`secret: true\` (and an empty value) first` +
        (secrets.length ? `; its secret variables are: ${secrets.join(', ')}.` : '.'),
    );
  }
  if (!variable.secret) {
    throw new SecretScopeError(`The variable "${name}" in ${scope.file} is not secret: its value is in the file. Mark it \`secret: true\` (and empty its value) to keep the value on this computer only.`);
  }
  return variable;
}

/** Every declared secret variable of the scopes, and whether this computer holds its value. */
export async function listSecretVariables(data: WorkspaceData, scopes: readonly SecretScope[]): Promise<SecretRow[]> {
  const rows: SecretRow[] = [];
  for (const scope of scopes) {
    const declared = scope.variables.filter((v) => v.secret);
    if (declared.length === 0) continue;
    const [stored, unreadable] = await Promise.all([data.secrets.all(scope.id), data.secrets.unreadable(scope.id)]);
    for (const v of declared) {
      rows.push({ scope: scope.label, name: v.key, stored: Object.hasOwn(stored, v.key), ...(unreadable.includes(v.key) ? { unreadable: true as const } : {}) });
    }
  }
  return rows;
}
