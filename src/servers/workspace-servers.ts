/**
 * Starting a workspace's servers as every face does (`ferry serve`, `ferry run --start-servers`,
 * the app): the environment chosen by id or name (else the one active on this computer), the
 * values scripts set here, `--var` values and this computer's settings, then `startServers`. The
 * faces only print what comes back.
 */
import { KnownServers, readSettings, WorkspaceData } from '../appdata/index.js';
// Environment resolution is shared with the runner and load tests (variables/, below all three).
import { resolveEnvironment, type ActiveEnvironmentNotice } from '../variables/environment.js';
import { RunError } from '../variables/errors.js';
import type { Workspace } from '../workspace/index.js';
import { ServerError } from './errors.js';
import { exposureWarning } from './exposure.js';
import { unknownFieldsWarning } from '../model/index.js';
import { startServers, type ServersHandle, type StartServersOptions } from './start-servers.js';
import type { RunningServer, ServerNotice } from './types.js';

export interface WorkspaceServersOptions extends Omit<StartServersOptions, 'environment' | 'overrides' | 'scriptValues'> {
  /** Environment id or display name (any case); none = the workspace's active one on this computer. */
  env?: string;
  /** Told the active environment's name when `env` is absent and it applies (the CLI prints it). */
  onActiveEnvironment?: ActiveEnvironmentNotice;
  /** `--var key=value` values: they win over every other definition. */
  vars?: ReadonlyMap<string, string> | Readonly<Record<string, string>>;
  /**
   * A person started these by hand (`ferry serve`, the app's Start): remember their configurations
   * on this computer, so `autoStart` may start them by themselves later (2.11).
   */
  remember?: boolean;
}

export interface WorkspaceServers extends ServersHandle {
  /** The environment id the servers use, if any. */
  environment: string | undefined;
  /** One warning per started server that other devices can reach (host 0.0.0.0), in server order. */
  exposed: ServerNotice[];
  /** One warning per started server whose file has fields servers do not have (a typo: `http.rotues`), in server order. */
  unknownFields: ServerNotice[];
}

/** Throws a ServerError (before anything starts) for an unknown or unreadable environment. */
export async function startWorkspaceServers(workspace: Workspace, options: WorkspaceServersOptions = {}): Promise<WorkspaceServers> {
  const { env, vars, onActiveEnvironment, remember, ...rest } = options;
  const data = new WorkspaceData(workspace.id, workspace.root);
  let environment: string | undefined;
  try {
    environment = await resolveEnvironment(workspace, env, data, onActiveEnvironment);
  } catch (error) {
    if (error instanceof RunError) throw new ServerError(error.message);
    throw error;
  }
  const settings = await readSettings().catch(() => undefined);
  const known = new KnownServers(workspace.id, workspace.root);
  // One started later (its file saved while serving) is remembered and warned about as at the start.
  const startedLater = (server: RunningServer): void => {
    options.onStarted?.(server);
    const file = `servers/${server.id}.yaml`;
    if (remember) void known.remember(server.id, server.config).catch(() => undefined);
    const exposed = exposureWarning(file, server.config);
    if (exposed) options.onNotice?.({ server: server.id, level: 'warning', message: exposed });
    const unknown = unknownFieldsWarning('server', file, server.config);
    if (unknown) options.onNotice?.({ server: server.id, level: 'warning', message: unknown });
  };
  const handle = await startServers(workspace, {
    ...rest,
    onStarted: startedLater,
    environment,
    overrides: vars,
    scriptValues: (scope) => data.scriptValues(scope).catch(() => ({})),
    allowFilesOutsideWorkspace: options.allowFilesOutsideWorkspace === true || settings?.filesOutsideWorkspace === true,
  });
  if (remember) {
    // Best effort: a data folder that cannot be written must not stop a server that started.
    for (const server of handle.servers) await known.remember(server.id, server.config).catch(() => undefined);
  }
  const exposed: ServerNotice[] = [];
  for (const server of handle.servers) {
    const message = exposureWarning(`servers/${server.id}.yaml`, server.config);
    if (message) exposed.push({ server: server.id, level: 'warning', message });
  }
  const unknownFields: ServerNotice[] = [];
  for (const server of handle.servers) {
    const file = workspace.servers.find((entry) => entry.id === server.id)?.file ?? `servers/${server.id}.yaml`;
    const message = unknownFieldsWarning('server', file, server.config);
    if (message) unknownFields.push({ server: server.id, level: 'warning', message });
  }
  return Object.assign(handle, { environment, exposed, unknownFields });
}
