/**
 * The environment editor's routes: an environment's variables, secret values masked. A secret
 * variable's value goes to this computer's secret store (keyed by the environment's id, as
 * `ferry secret set` stores it); the file keeps its key with an empty value (2.10, 5.2).
 */
import { withWorkspaceLock, WorkspaceBusyError } from '../../appdata/index.js';
import { parseResource } from '../../model/index.js';
import path from 'node:path';
import { checkNoSymlinks, ENVIRONMENTS_DIR, saveResource } from '../../workspace/index.js';
import { ApiError, field, type Routes } from './router.js';
import type { EnvironmentVariableView } from '../shared/api.js';
import type { WorkspaceState } from './workspace-state.js';


export function environmentRoutes(state: WorkspaceState): Routes {
  const find = (id: string) => {
    const entry = state.workspace.environments.find((e) => e.id === id);
    if (!entry) throw new ApiError(404, `No environment "${id}".`);
    return entry;
  };
  return {
    'GET /api/environment/variables': async ({ query }) => {
      const entry = find(query.get('id') ?? '');
      const stored = await state.data.secrets.all(entry.id);
      const variables: EnvironmentVariableView[] = entry.value.variables.map((v) => ({
        key: v.key, value: v.secret ? '' : v.value, enabled: v.enabled, secret: v.secret, stored: v.secret && stored[v.key] !== undefined,
      }));
      return { id: entry.id, name: entry.value.name, variables };
    },

    /** Saves the variables: file values for plain ones, the secret store for secret ones (an empty value keeps the stored one). */
    'PUT /api/environment/variables': async ({ body }) => {
      const entry = find(field(body, 'id'));
      const given = (body as { variables?: unknown }).variables;
      if (!Array.isArray(given)) throw new ApiError(400, '"variables" must be a list.');
      const rows = given.filter((v) => typeof (v as { key?: unknown })?.key === 'string' && (v as { key: string }).key !== '') as Array<{ key: string; value?: unknown; enabled?: unknown; secret?: unknown }>;
      const variables = rows.map((v) => ({ key: v.key, value: v.secret === true ? '' : String(v.value ?? ''), enabled: v.enabled !== false, secret: v.secret === true }));
      const parsed = parseResource('environment', { ...entry.value, variables });
      if (!parsed.ok) throw new ApiError(400, `The environment is not valid: ${parsed.problems[0]!.message}`);
      for (const v of rows) {
        if (v.secret === true && typeof v.value === 'string' && v.value !== '') await state.data.secrets.set(entry.id, v.key, v.value);
      }
      try {
        // In place, not through saveEntry: that renames a file whose name differs from the display
        // name (`local.yaml` named "Local"), which would change the id the secrets and the active
        // environment are kept under.
        const relative = path.join(ENVIRONMENTS_DIR, `${entry.id}.yaml`);
        const linked = await checkNoSymlinks(state.workspace.root, relative);
        if (linked) throw new Error(`Cannot save ${relative}: ${linked}.`);
        // Under the workspace's write lock, as every writer (an import may be adding environments).
        await withWorkspaceLock(state.workspace.root, 'the app', () => saveResource(path.join(state.workspace.root, relative), 'environment', parsed.value));
      } catch (error) {
        throw new ApiError(error instanceof WorkspaceBusyError ? 409 : 400, (error as Error).message);
      }
      await state.reload();
      state.retire();
      return { id: entry.id };
    },
  };
}
