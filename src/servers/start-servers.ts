/**
 * Starting several servers of a workspace at once (`ferry serve`, `ferry run --start-servers`, the
 * app). A server that cannot start is reported and the others keep running.
 */
import type { ServerFile } from '../model/index.js';
import type { Workspace } from '../workspace/index.js';
import { formatWarning, SERVERS_DIR } from '../workspace/index.js';
import { ServerError } from './errors.js';
import { takenBySibling } from './listener.js';
import { startServer } from './server.js';
import { TrafficLog } from './traffic.js';
import type { RunningServer, ServerOptions } from './types.js';

export interface StartServersOptions extends Omit<ServerOptions, 'root'> {
  /** Server ids (file names under `servers/` without `.yaml`); none = every server of the workspace. */
  ids?: readonly string[];
  /** Only servers with `autoStart: true` (for `ferry run --start-servers`). */
  autoStartOnly?: boolean;
}

export interface ServerFailure {
  id: string;
  message: string;
  /** True when no file under `servers/` has this id (a typo on the command line). */
  unknown?: boolean;
}

export interface ServersHandle {
  servers: RunningServer[];
  failures: ServerFailure[];
  /** One log for all of them. */
  traffic: TrafficLog;
  /** Stops every server; resolves when all ports are free. */
  stop(): Promise<void>;
}

/** The server files of the workspace that do not parse, by id (their warning says why). */
function brokenServers(workspace: Workspace): Map<string, Workspace['warnings'][number]> {
  return new Map(
    workspace.warnings
      .filter((w) => w.file.startsWith(`${SERVERS_DIR}/`) && !w.file.slice(SERVERS_DIR.length + 1).includes('/'))
      .map((w) => [w.file.slice(SERVERS_DIR.length + 1).replace(/\.ya?ml$/, ''), w]),
  );
}

/** Whether `id` names a server file of the workspace, one that parses or not. */
export function hasServer(workspace: Workspace, id: string): boolean {
  return workspace.servers.some((entry) => entry.id === id) || brokenServers(workspace).has(id);
}

/** The server id a name given on the command line stands for: `mock`, `mock.yaml` and `servers/mock.yaml` are `mock`. */
export function serverIdOf(name: string): string {
  return name.replace(/\.ya?ml$/, '').replace(/^servers\//, '');
}

/** What to say of an id that names no server file: what there is instead. */
export function unknownServerMessage(workspace: Workspace, id: string): string {
  const known = [...workspace.servers.map((entry) => entry.id), ...brokenServers(workspace).keys()];
  return `No server "${id}": there is no ${SERVERS_DIR}/${id}.yaml. ${known.length > 0 ? `Servers here: ${known.join(', ')}.` : 'This workspace has no servers.'}`;
}

export async function startServers(workspace: Workspace, options: StartServersOptions = {}): Promise<ServersHandle> {
  const traffic = options.traffic ?? new TrafficLog();
  const failures: ServerFailure[] = [];
  const byId = new Map(workspace.servers.map((entry) => [entry.id, entry]));
  const broken = brokenServers(workspace);

  let wanted: string[];
  if (options.ids && options.ids.length > 0) {
    wanted = [...new Set(options.ids.map(serverIdOf))];
  } else {
    wanted = [...workspace.servers.map((e) => e.id), ...broken.keys()];
  }

  const toStart: (typeof workspace.servers)[number][] = [];
  for (const id of wanted) {
    const entry = byId.get(id);
    if (entry) {
      if (!options.autoStartOnly || entry.value.autoStart) toStart.push(entry);
      continue;
    }
    const warning = broken.get(id);
    if (warning) {
      if (!options.autoStartOnly) failures.push({ id, message: `${formatWarning(warning)} — fix the file to start this server.` });
      continue;
    }
    failures.push({ id, message: unknownServerMessage(workspace, id), unknown: true });
  }

  const outcomes = await Promise.allSettled(toStart.map((entry) => startServer(entry, { ...options, root: workspace.root, traffic })));
  const servers: RunningServer[] = [];
  // The started first: a port one of them holds is named in the others' failures.
  for (const outcome of outcomes) if (outcome.status === 'fulfilled') servers.push(outcome.value);
  outcomes.forEach((outcome, i) => {
    if (outcome.status === 'fulfilled') return;
    const error = outcome.reason as Error;
    const entry = toStart[i]!;
    const sibling = error instanceof ServerError && error.code === 'EADDRINUSE' ? portSibling(entry.value, servers) : undefined;
    const message = sibling
      ? takenBySibling({ host: entry.value.host, port: entry.value.port, file: entry.file }, `${SERVERS_DIR}/${sibling.id}.yaml`)
      : error instanceof ServerError ? error.message : `${entry.file}: ${error.message}`;
    failures.push({ id: entry.id, message });
  });

  let stopping: Promise<void> | undefined;
  return {
    servers,
    failures,
    traffic,
    stop() {
      stopping ??= Promise.all(servers.map((s) => s.stop())).then(() => undefined);
      return stopping;
    },
  };
}

/** The transports a server kind listens on: UDP, TCP or (DNS) both. */
function transports(kind: ServerFile['kind']): ReadonlyArray<'tcp' | 'udp'> {
  return kind === 'udp' ? ['udp'] : kind === 'dns' ? ['udp', 'tcp'] : ['tcp'];
}

/** A server started in the same batch that holds the port `config` asked for, on a transport it needs. */
function portSibling(config: ServerFile, started: readonly RunningServer[]): RunningServer | undefined {
  if (config.port === 0) return undefined;
  const wanted = transports(config.kind);
  return started.find((server) => server.port === config.port && transports(server.config.kind).some((t) => wanted.includes(t)));
}
