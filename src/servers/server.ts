/**
 * One running server: its kind's instance behind a listener, and a watch on its file so an edit
 * takes effect without a restart (spec 8.2: variables are read at start and whenever the server's
 * settings change). An edit that breaks the file is reported and the previous settings stay.
 */
import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import type { ServerFile } from '../model/index.js';
import { deepEqual } from '../model/index.js';
import { formatWarning, readResource } from '../workspace/index.js';
import { ServerError } from './errors.js';
import { type KindInstance, SERVER_KIND_MODULES } from './kinds/index.js';
import { listen, type Listener } from './listener.js';
import { loadTls } from './tls.js';
import { TrafficLog } from './traffic.js';
import type { RunningServer, ServerNotice, ServerOptions } from './types.js';
import { readServerVariables } from './server-variables.js';
import { exposureWarning } from './exposure.js';

/** A server file as the workspace gives it (`Workspace.servers` entries fit). */
export interface ServerEntry {
  id: string;
  /** Path relative to the workspace folder, e.g. `servers/api.yaml`. */
  file: string;
  value: ServerFile;
}

const RELOAD_SETTLE_MS = 75;

interface Running {
  config: ServerFile;
  instance: KindInstance;
  listener: Listener;
}

export async function startServer(entry: ServerEntry, options: ServerOptions): Promise<RunningServer> {
  const traffic = options.traffic ?? new TrafficLog();
  const notify = (level: ServerNotice['level'], message: string) => options.onNotice?.({ server: entry.id, level, message });
  let current = await launch(entry, entry.value, options, traffic);
  let stopped = false;
  let chain: Promise<void> = Promise.resolve();

  const absolute = path.join(options.root, entry.file);
  const apply = async (fromWatch: boolean): Promise<void> => {
    if (stopped) return;
    const outcome = await readResource('server', absolute, entry.file);
    if (stopped) return;
    if (!outcome.ok) {
      notify('warning', `${formatWarning(outcome.warning)} — the server keeps its previous settings until the file is fixed.`);
      return;
    }
    const next = outcome.value;
    if (fromWatch && deepEqual(next, current.config)) return;
    try {
      if (sameListener(next, current.config)) {
        const variables = await readServerVariables(options);
        current.instance.configure({ server: next, variables });
        current = { ...current, config: next };
      } else {
        current = await relaunch(entry, current, next, options, traffic);
      }
      notify('info', `${entry.file} changed; ${next.name || entry.id} now uses the new settings (${current.listener.url}).`);
      const exposed = exposureWarning(entry.file, next);
      if (exposed) notify('warning', exposed);
    } catch (error) {
      const message = error instanceof ServerError ? error.message : `${entry.file}: ${(error as Error).message}`;
      notify('warning', `${message} — the server keeps its previous settings.`);
    }
  };
  const reload = (fromWatch: boolean): Promise<void> => {
    chain = chain.then(() => apply(fromWatch)).catch(() => {});
    return chain;
  };

  let watcher: FSWatcher | undefined;
  let settle: NodeJS.Timeout | undefined;
  if (options.watch !== false) {
    const fileName = path.basename(entry.file);
    try {
      // The folder, not the file: editors and Ferry itself save by renaming a new file over the old.
      watcher = watch(path.dirname(absolute), { persistent: false }, (_event, changed) => {
        if (changed !== null && changed.toString() !== fileName) return;
        clearTimeout(settle);
        settle = setTimeout(() => void reload(true), RELOAD_SETTLE_MS);
      });
      watcher.on('error', () => notify('warning', `${entry.file}: can no longer watch the file for edits; restart the server to pick up changes.`));
    } catch {
      notify('warning', `${entry.file}: cannot watch the file for edits; restart the server to pick up changes.`);
    }
  }

  return {
    id: entry.id,
    get name() {
      return current.config.name || entry.id;
    },
    get kind() {
      return current.config.kind;
    },
    get url() {
      return current.listener.url;
    },
    get port() {
      return current.listener.port;
    },
    traffic,
    get config() {
      return current.config;
    },
    openConnections: () => current.listener.connections(),
    openStreams: () => current.instance.openStreams(),
    pushEvent: (data, name) => current.instance.push?.(data, name) ?? 0,
    reload: () => reload(false),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(settle);
      watcher?.close();
      await chain;
      current.instance.close();
      await current.listener.close();
    },
  };
}

/** Compiles, loads the certificate and binds; nothing is left listening when any step fails. */
async function launch(entry: ServerEntry, config: ServerFile, options: ServerOptions, traffic: TrafficLog): Promise<Running> {
  const module = SERVER_KIND_MODULES[config.kind];
  if (module === undefined) {
    const supported = Object.keys(SERVER_KIND_MODULES).join(', ');
    throw new ServerError(`${entry.file}: kind: ${config.kind} servers are not supported by this version of Ferry yet (supported: ${supported}).`);
  }
  const variables = await readServerVariables(options);
  const instance = module.create({ id: entry.id, file: entry.file, traffic });
  instance.configure({ server: config, variables });
  const tls = await loadTls(config, {
    root: options.root,
    file: entry.file,
    certificateDir: options.certificateDir,
    allowFilesOutsideWorkspace: options.allowFilesOutsideWorkspace,
  });
  const listener = await listen({
    host: config.host,
    port: config.port,
    tls,
    file: entry.file,
    handler: (req, res) => instance.handle(req, res),
  });
  return { config, instance, listener };
}

/** Kind, address or TLS changed: stop the old listener and start anew; restore the old one if that fails. */
async function relaunch(entry: ServerEntry, old: Running, next: ServerFile, options: ServerOptions, traffic: TrafficLog): Promise<Running> {
  old.instance.close();
  await old.listener.close();
  try {
    return await launch(entry, next, options, traffic);
  } catch (error) {
    try {
      const restored = await launch(entry, old.config, options, traffic);
      Object.assign(old, restored);
    } catch (restoreError) {
      throw new ServerError(`${(error as Error).message} The previous settings could not be restored either: ${(restoreError as Error).message}`);
    }
    throw error;
  }
}

function sameListener(a: ServerFile, b: ServerFile): boolean {
  return a.kind === b.kind && a.host === b.host && a.port === b.port && deepEqual(a.tls ?? null, b.tls ?? null);
}
