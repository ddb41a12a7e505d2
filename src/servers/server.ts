/**
 * One running server: its kind's instance behind a listener (the shared HTTP one, or the kind's
 * own socket), and a watch on its file so an edit takes effect without a restart (spec 8.2:
 * variables are read at start and whenever the server's settings change). An edit that breaks the
 * file is reported and the previous settings stay. The lifecycle is the same for every transport.
 */
import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ServerFile } from '../model/index.js';
import { deepEqual, unknownFieldsWarning } from '../model/index.js';
import { formatWarning, readResource } from '../workspace/index.js';
import { ServerError } from './errors.js';
import { type KindInstance, loadServerKind, SERVER_KIND_MODULES, type ServerKindTable } from './kinds/index.js';
import { listen, type Listener } from './listener.js';
import { loadTls, type TlsMaterial } from './tls.js';
import { TrafficLog } from './traffic.js';
import type { RunningServer, ServerNotice, ServerOptions } from './types.js';
import { readServerVariables } from './server-variables.js';
import { exposureWarning } from './exposure.js';
import { httpExchangeRecord } from './http-traffic.js';
import { messageRecord } from './kinds/messages/traffic.js';
import { watchSettled } from './settled-watch.js';
import { portRefusal, recordServer } from './serving-processes.js';
import { placeRefusal, placeServerError } from './refusal-place.js';

/** A server file as the workspace gives it (`Workspace.servers` entries fit). */
export interface ServerEntry {
  id: string;
  /** Path relative to the workspace folder, e.g. `servers/api.yaml`. */
  file: string;
  value: ServerFile;
}

interface Running {
  config: ServerFile;
  instance: KindInstance;
  listener: Listener;
}

export async function startServer(entry: ServerEntry, options: ServerOptions, kinds: ServerKindTable = SERVER_KIND_MODULES): Promise<RunningServer> {
  const traffic = options.traffic ?? new TrafficLog();
  const notify = (level: ServerNotice['level'], message: string, event?: ServerNotice['event']) => options.onNotice?.({ server: entry.id, level, message, ...(event ? { event } : {}) });
  const launch = (config: ServerFile) => launchKind(entry, config, options, traffic, kinds);
  // A kind's refusal names a field; said with its line and column here, for every face.
  let current = await launch(entry.value).catch((error: unknown) => {
    throw placeServerError(error, entry.file, options.root);
  });
  let stopped = false;
  // In the data folder, so a `ferry serve` refused this port can say which Ferry process holds it.
  const recorded = await recordServer({ file: entry.file, workspace: options.root, port: () => current.listener.port, kind: () => current.config.kind });

  const absolute = path.join(options.root, entry.file);
  const apply = async (fromWatch: boolean): Promise<void> => {
    if (stopped) return;
    const outcome = await readResource('server', absolute, entry.file);
    if (stopped) return;
    if (!outcome.ok) {
      // Gone (deleted, or a branch without it checked out): say so, not that it vanished mid-read.
      const gone = await lstat(absolute).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'ENOENT');
      if (stopped) return;
      if (gone) notify('warning', `${entry.file} was deleted; the server keeps running with its last settings until it is stopped, or picks the file up again when it comes back.`, 'deleted');
      else notify('warning', `${formatWarning(outcome.warning)} — the server keeps its previous settings until the file is fixed.`);
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
        current = await relaunch(current, next, launch);
        await recorded.changed();
      }
      notify('info', `${entry.file} changed; ${next.name || entry.id} now uses the new settings (${clientUrl(current)}).`, 'changed');
      const exposed = exposureWarning(entry.file, next);
      if (exposed) notify('warning', exposed);
      const unknown = unknownFieldsWarning('server', entry.file, next);
      if (unknown) notify('warning', unknown);
    } catch (error) {
      // Moved to a port another server here or another Ferry process holds: named, as at a start.
      const message = !(error instanceof ServerError) ? `${entry.file}: ${(error as Error).message}`
        : error.code === 'EADDRINUSE' ? await portRefusal(error.message, { file: entry.file, port: next.port, kind: next.kind, workspace: options.root })
        : placeRefusal(error.message, entry.file, options.root);
      notify('warning', `${message} — the server keeps its previous settings.`);
    }
  };
  // Reloads one at a time: an edit settled in the folder's watch, or one asked for (`reload`).
  const fileName = path.basename(entry.file);
  const watcher = watchSettled(options.watch !== false ? path.dirname(absolute) : undefined, {
    select: (name) => (name === null || name === fileName ? fileName : undefined),
    act: () => apply(true),
    onWatchError: (when) => notify('warning', `${entry.file}: ${when === 'start' ? 'cannot' : 'can no longer'} watch the file for edits; restart the server to pick up changes.`),
  });
  const reload = (fromWatch: boolean): Promise<void> => watcher.queue(() => apply(fromWatch));

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
    get clientUrl() {
      return clientUrl(current);
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
    pushEvent: (data, name) => current.instance.push?.(data, { name }) ?? 0,
    send: (data, sendOptions) => current.instance.push?.(data, sendOptions) ?? 0,
    clients: () => current.instance.clients?.() ?? [],
    get sendForm() {
      return current.instance.push ? (current.instance.sendForm ?? { event: false, hex: false }) : undefined;
    },
    reload: () => reload(false),
    async stop() {
      if (stopped) return;
      stopped = true;
      await watcher.close();
      current.instance.close();
      await current.listener.close();
      await recorded.remove();
    },
  };
}

/** `RunningServer.clientUrl`: what a client of the kind connects to (the kind says when it is not the bound URL). */
function clientUrl(running: Running): string {
  return running.instance.clientUrl?.(running.listener.url) ?? running.listener.url;
}

/** Compiles, loads the certificate and binds; nothing is left listening when any step fails. */
async function launchKind(entry: ServerEntry, config: ServerFile, options: ServerOptions, traffic: TrafficLog, kinds: ServerKindTable): Promise<Running> {
  const module = await loadServerKind(config.kind, entry.file, kinds);
  const variables = await readServerVariables(options);
  const context = { id: entry.id, file: entry.file, traffic, root: options.root };
  // The one place the transports differ: who binds the port.
  let instance: KindInstance;
  let bind: (tls: TlsMaterial | undefined) => Promise<Listener>;
  if (module.transport === 'sharedHttp') {
    const shared = module.create(context);
    instance = shared;
    bind = (tls) =>
      listen({
        host: config.host,
        port: config.port,
        tls,
        file: entry.file,
        handler: (req, res) => shared.handle(req, res),
        upgrade: shared.upgrade?.bind(shared),
        // Refused before any kind saw it: recorded here, so a rebinding attempt shows in the log.
        onRefused: (r) => traffic.add(httpExchangeRecord(config.kind, entry.id, r.start, performance.now() - r.start, { method: r.method, path: r.path, route: '', status: r.status, note: 'foreignHost', host: r.host }, 0, r.bytesOut)),
        // No request yet: a connection's record, as the message kinds word theirs.
        onRefusedConnection: (peer, preview) => traffic.add(messageRecord(config.kind, entry.id, 'exchange', { peer, event: 'error', preview }, {})),
      });
  } else {
    const own = module.create(context);
    instance = own;
    bind = (tls) => own.listen({ host: config.host, port: config.port, tls, file: entry.file });
  }
  instance.configure({ server: config, variables });
  const tls = await loadTls(config, {
    root: options.root,
    file: entry.file,
    certificateDir: options.certificateDir,
    allowFilesOutsideWorkspace: options.allowFilesOutsideWorkspace,
  });
  try {
    return { config, instance, listener: await bind(tls) };
  } catch (error) {
    instance.close(); // an own-socket kind may have opened something before failing
    throw error;
  }
}

/** Kind, address or TLS changed: stop the old listener and start anew; restore the old one if that fails. */
async function relaunch(old: Running, next: ServerFile, launch: (config: ServerFile) => Promise<Running>): Promise<Running> {
  old.instance.close();
  await old.listener.close();
  try {
    return await launch(next);
  } catch (error) {
    try {
      const restored = await launch(old.config);
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
