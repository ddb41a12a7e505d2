/** Which environment a run or an export uses: `-e` by id or name, else the one active on this computer. */
import type { WorkspaceData } from '../appdata/index.js';
import type { Workspace } from '../workspace/index.js';
import { RunError } from './errors.js';

export async function resolveEnvironment(workspace: Workspace, wanted: string | undefined, data: WorkspaceData | undefined): Promise<string | undefined> {
  if (wanted === undefined) {
    const active = await data?.activeEnvironment();
    return active && workspace.environments.some((e) => e.id === active) ? active : undefined;
  }
  const byId = workspace.environments.find((e) => e.id === wanted) ?? workspace.environments.find((e) => e.id.toLowerCase() === wanted.toLowerCase());
  if (byId) return byId.id;
  const byName = workspace.environments.find((e) => e.value.name.toLowerCase() === wanted.toLowerCase());
  if (byName) return byName.id;
  const known = workspace.environments.map((e) => e.id);
  throw new RunError(`No environment "${wanted}". ${known.length ? `Environments here: ${known.join(', ')}.` : 'This workspace has no environments (environments/*.yaml).'}`);
}
