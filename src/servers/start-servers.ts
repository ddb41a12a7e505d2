/**
 * Starting several servers of a workspace at once (`ferry serve`, `ferry run --start-servers`, the
 * app). A server that cannot start is reported and the others keep running.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { deepEqual, type ServerFile } from '../model/index.js';
import type { Workspace } from '../workspace/index.js';
import { entriesHere, formatWarning, SERVERS_DIR, skippedEntryReason, unreadEntryFiles } from '../workspace/index.js';
import { ServerError } from './errors.js';
import { portsClash } from './kinds/info.js';
import { takenBySibling } from './listener.js';
import { refusedPort, type ServingHolder } from './serving-processes.js';
import { watchPendingServers } from './pending-servers.js';
import { type ServerEntry, startServer } from './server.js';
import { TrafficLog } from './traffic.js';
import type { RunningServer, ServerOptions } from './types.js';

export interface StartServersOptions extends Omit<ServerOptions, 'root'> {
  /** Server ids (file names under `servers/` without `.yaml`); none = every server of the workspace. */
  ids?: readonly string[];
  /** Only servers with `autoStart: true` (for `ferry run --start-servers`). */
  autoStartOnly?: boolean;
  /**
   * While watching (`watch` not false): a wanted server that could not start, or a server file
   * added while serving every server, starts when its file is saved (`ferry serve`, the app's
   * autoStart); `onStarted` is told, and the server joins `servers`. A function is asked first,
   * with the settings read, whether to start it (the app: not when it was started by hand
   * meanwhile, nor a configuration this computer does not know, 2.11).
   */
  startWhenSaved?: boolean | ((id: string, config: ServerFile) => boolean | Promise<boolean>);
  onStarted?: (server: RunningServer) => void;
}

export interface ServerFailure {
  id: string;
  message: string;
  /** True when no file under `servers/` has this id (a typo on the command line). */
  unknown?: boolean;
  /** Its port was taken by another Ferry process of this computer: which (`ferry run --start-servers` may use it, `servesAlready`). */
  heldBy?: ServingHolder;
}

export interface ServersHandle {
  servers: RunningServer[];
  failures: ServerFailure[];
  /** One log for all of them. */
  traffic: TrafficLog;
  /** Stops every server; resolves when all ports are free. */
  stop(): Promise<void>;
  /** Stops watching for saved files (`startWhenSaved`); the servers keep running. */
  unwatch(): Promise<void>;
}

/** Whether `id` names a server file of the workspace, one that parses or not. */
export function hasServer(workspace: Workspace, id: string): boolean {
  return workspace.servers.some((entry) => entry.id === id) || unreadEntryFiles(workspace, 'server').has(id);
}

/** The server id a name given on the command line stands for: `mock`, `mock.yaml` and `servers/mock.yaml` are `mock`. */
export function serverIdOf(name: string): string {
  return name.replace(/\.ya?ml$/, '').replace(/^servers\//, '');
}

/** What to say of an id that names no server file: what there is instead. */
export function unknownServerMessage(workspace: Workspace, id: string): string {
  return `No server "${id}": there is no ${SERVERS_DIR}/${id}.yaml. ${entriesHere(workspace, 'server')}`;
}

export async function startServers(workspace: Workspace, options: StartServersOptions = {}): Promise<ServersHandle> {
  const traffic = options.traffic ?? new TrafficLog();
  const failures: ServerFailure[] = [];
  const byId = new Map(workspace.servers.map((entry) => [entry.id, entry]));
  // Asked for by name, a subfolder or a Postman export in servers/ is no server: it gets the
  // unknown-server message, which names the subfolders.
  const broken = unreadEntryFiles(workspace, 'server');

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
      // A pipe or link has nothing to fix inside: a regular file goes in its place.
      const skipped = skippedEntryReason(warning);
      const message = skipped ? `${skipped}. Put a regular file in its place to start this server.` : `${formatWarning(warning)} — fix the file to start this server.`;
      if (!options.autoStartOnly) failures.push({ id, message });
      continue;
    }
    failures.push({ id, message: unknownServerMessage(workspace, id), unknown: true });
  }

  const launch = (entry: ServerEntry) => startServer(entry, { ...options, root: workspace.root, traffic });
  const outcomes = await Promise.allSettled(toStart.map(launch));
  const servers: RunningServer[] = [];
  // The started first: a port one of them holds is named in the others' failures.
  for (const outcome of outcomes) if (outcome.status === 'fulfilled') servers.push(outcome.value);
  for (const [i, outcome] of outcomes.entries()) {
    if (outcome.status === 'fulfilled') continue;
    const entry = toStart[i]!;
    failures.push({ id: entry.id, ...(await failureOf(entry, outcome.reason as Error, servers, workspace.root)) });
  }

  const files = new Map(workspace.servers.map((entry) => [entry.id, entry.file]));
  const wantedIds = new Set(wanted);
  const everyServer = !(options.ids && options.ids.length > 0) && !options.autoStartOnly;
  const pending =
    options.watch !== false && options.startWhenSaved
      ? watchPendingServers({
          root: workspace.root,
          wanted: (id) => everyServer || wantedIds.has(id),
          mayStart: typeof options.startWhenSaved === 'function' ? options.startWhenSaved : undefined,
          running: () => servers,
          notify: (notice) => options.onNotice?.(notice),
          start: async (entry) => {
            const fileOf = (id: string) => files.get(id) ?? `${SERVERS_DIR}/${id}.yaml`;
            const handOver = async (old: RunningServer, what: string) => {
              servers.splice(servers.indexOf(old), 1);
              await old.stop();
              options.onNotice?.({ server: old.id, level: 'info', message: `${fileOf(old.id)} is gone; server ${old.id} stopped and gave ${what} to ${entry.file}.`, event: 'stopped' });
            };
            // Renamed (git mv, or its name changed, which renames its file, 2.1.4; any port): the
            // server of the old file, now gone, gives way.
            for (const old of servers) {
              if (deepEqual({ ...old.config, name: '' }, { ...entry.value, name: '' }) && !(await fileExists(workspace.root, fileOf(old.id)))) {
                await handOver(old, 'way');
                break;
              }
            }
            let server: RunningServer;
            try {
              server = await launch(entry);
            } catch (error) {
              // Renamed and edited: the new file asks for the port its old name's server (file gone) still holds.
              const sibling = error instanceof ServerError && error.code === 'EADDRINUSE' ? portSibling(entry.value, servers) : undefined;
              if (!sibling || (await fileExists(workspace.root, fileOf(sibling.id)))) {
                throw new Error(await failureMessage(entry, error as Error, servers, workspace.root));
              }
              await handOver(sibling, 'its port');
              server = await launch(entry).catch(async (again: Error) => {
                throw new Error(await failureMessage(entry, again, servers, workspace.root));
              });
            }
            servers.push(server);
            files.set(entry.id, entry.file);
            options.onStarted?.(server);
            return server;
          },
        })
      : undefined;

  let stopping: Promise<void> | undefined;
  return {
    servers,
    failures,
    traffic,
    stop() {
      stopping ??= (pending?.close() ?? Promise.resolve()).then(() => Promise.all(servers.map((s) => s.stop()))).then(() => undefined);
      return stopping;
    },
    async unwatch() {
      await pending?.close();
    },
  };
}

/**
 * Why `entry` did not start, worded for the user: a port another server of the batch holds is
 * named, and so is one this process started before, or another Ferry process holding it (`heldBy`).
 */
async function failureOf(entry: ServerEntry, error: Error, started: readonly RunningServer[], root: string): Promise<{ message: string; heldBy?: ServingHolder }> {
  const inUse = error instanceof ServerError && error.code === 'EADDRINUSE';
  const sibling = inUse ? portSibling(entry.value, started) : undefined;
  if (sibling) return { message: takenBySibling({ host: entry.value.host, port: entry.value.port, file: entry.file }, `${SERVERS_DIR}/${sibling.id}.yaml`) };
  if (inUse) {
    const { message, holder } = await refusedPort(error.message, { file: entry.file, port: entry.value.port, kind: entry.value.kind, workspace: root });
    return { message, ...(holder ? { heldBy: holder } : {}) };
  }
  return { message: error instanceof ServerError ? error.message : `${entry.file}: ${error.message}` };
}

/** `failureOf`'s message alone (a server started when its file is saved). */
async function failureMessage(entry: ServerEntry, error: Error, started: readonly RunningServer[], root: string): Promise<string> {
  return (await failureOf(entry, error, started, root)).message;
}

async function fileExists(root: string, file: string): Promise<boolean> {
  return lstat(path.join(root, file)).then(() => true, () => false);
}

/** A server started in the same batch that holds the port `config` asked for, on a transport it needs. */
function portSibling(config: ServerFile, started: readonly RunningServer[]): RunningServer | undefined {
  if (config.port === 0) return undefined;
  return started.find((server) => server.port === config.port && portsClash(config.kind, server.config.kind));
}
