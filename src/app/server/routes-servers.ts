/**
 * The servers panel's routes: the workspace's servers (every kind), started and stopped through
 * `startWorkspaceServers` as `ferry serve` starts them, their traffic, the traffic panel's send
 * (to one client or all, through the kind's own `push`), and the server editor (saved through the
 * workspace writer under the workspace lock). All servers the app starts share one traffic log;
 * its batches go to the page over the live channel. Closing the app stops every server it started.
 *
 * `autoStart` (spec 2.11): when the app opens the workspace, servers with `autoStart: true` start
 * by themselves only when this computer has started or saved that very configuration before
 * (`KnownServers` in the data folder); any other is listed as waiting, with the reason, for a
 * first start by hand.
 */
import path from 'node:path';
import { KnownServers } from '../../appdata/index.js';
import { newServerPort, parseResource, SERVER_KINDS, type ServerFile, type ServerKind } from '../../model/index.js';
import { checkServerSettings, isServerKindBuilt, NEW_SERVER_KIND_PICKED, NEW_SERVER_KINDS, plainRecord, SERVER_KIND_INFO, ServerError, startWorkspaceServers, TrafficLog, type RunningServer, type ServerNotice } from '../../servers/index.js';
import { SecretMask } from '../../variables/index.js';
// Not through variables/index.js, which every run loads: only the app and ferry mcp mask whole results.
import { maskDeep, workspaceSecretMask } from '../../variables/workspace-mask.js';
import { checkNoSymlinks, createEntry, formatWarning, readTextFile, saveEntry, SERVERS_DIR, unreadEntryFiles } from '../../workspace/index.js';
import type { ServerEditorView, ServerKindsView, ServerSendDone, ServerView, TrafficView } from '../shared/api.js';
import type { LiveChannel } from './live.js';
import { checkFileHolds } from './save-base.js';
import { ApiError, field, optionalField, type Routes } from './router.js';
import { serverEditorView, serverFromEdit, typedSection } from './server-editor.js';
import { serverFilePorts } from './server-files.js';
import { writing } from './routes-workspace.js';
import type { WorkspaceState } from './workspace-state.js';

/** Traffic rows kept for a page that opens the panel later (the log's own ring holds as many). */
const TRAFFIC_KEPT = 1000;

/** Text sent from the panel: at most this much (a WebSocket server takes 16 MB; the page is not a file uploader). */
const MAX_SEND_BYTES = 1024 * 1024;

export const AUTOSTART_WAITING =
  'autoStart is on, but this computer has not started or saved this configuration before (it is new or was changed outside Ferry): start it once by hand to let it start by itself from now on.';

export class AppServers {
  readonly traffic = new TrafficLog(TRAFFIC_KEPT);
  private readonly running = new Map<string, RunningServer>();
  private readonly starting = new Set<string>();
  /** Servers autoStart left alone, by id: why (shown until started by hand). */
  private readonly waiting = new Map<string, string>();
  /** Known configurations whose autoStart failed, by id: the refusal. */
  private readonly failed = new Map<string, string>();
  private readonly unsubscribe: () => void;
  private readonly known: KnownServers;
  /** The autoStart pass's servers: closing it stops its watch for files saved after a failed start. */
  private autoStartHandle: { stop(): Promise<void> } | undefined;
  /** Starts by hand that failed, by id: each watches its file and starts the server when it is saved. */
  private readonly retries = new Map<string, { stop(): Promise<void> }>();
  /** Servers a watch is starting now (a file saved after a failed start): one start at a time. */
  private readonly retrying = new Set<string>();
  /** Servers started or stopped by hand since the app opened: the autoStart pass no longer starts them on a save. */
  private readonly byHand = new Set<string>();
  private closed = false;
  /** New servers being made (`create`), one after the other. */
  private creating: Promise<unknown> = Promise.resolve();
  /** The autoStart pass, run once the app listens (`begin`); lists wait for it. */
  autoStarted: Promise<void> = Promise.resolve();

  /**
   * This computer's secret values of the workspace: what servers send may hold them (a template
   * with `{{apiKey}}`, a panel send filled with one), and the page is shown traffic as `***`.
   */
  private readonly mask = new SecretMask();
  /**
   * Servers renamed with their file (2.1.4) since the app started: their traffic from before the
   * rename is shown under the new id, as a load test's history follows it. Only records older than
   * the rename: a server made later under the old name has traffic of its own.
   */
  private readonly renames: { from: string; to: string; at: number }[] = [];

  constructor(private readonly state: WorkspaceState, private readonly live: LiveChannel) {
    this.unsubscribe = this.traffic.subscribe((records) => live.publish({ type: 'traffic', records: records.map((r) => this.shown(r)) }));
    this.known = new KnownServers(state.workspace.id, state.workspace.root);
  }

  /** Starts the servers marked autoStart: once the app listens, so an app that cannot (its port taken) starts none. */
  begin(): void {
    this.autoStarted = this.learnSecrets().then(() => this.autoStart()).catch(() => undefined);
  }

  /** Adds the secret values stored for the workspace and its environments to the mask (values stored since are learnt on the next start or send). */
  private async learnSecrets(): Promise<void> {
    await workspaceSecretMask(this.state.workspace, this.state.data, this.mask);
  }

  /** A traffic record as the page gets it: secret values as `***`. */
  shown(record: TrafficView): TrafficView {
    const server = this.idNow(record);
    const view = server === record.server ? record : { ...plainRecord(record), server };
    return this.mask.size === 0 ? view : maskDeep(plainRecord(view), this.mask);
  }

  /** The id of the server a record came from as it is now (after the renames since). */
  private idNow(record: TrafficView): string {
    let id = record.server;
    for (const rename of this.renames) if (rename.from === id && record.time <= rename.at) id = rename.to;
    return id;
  }

  /** Starts the servers marked autoStart whose configuration this computer knows; the others wait (2.11). */
  private async autoStart(): Promise<void> {
    const marked = this.state.workspace.servers.filter((entry) => entry.value.autoStart);
    const known: string[] = [];
    for (const entry of marked) {
      if (await this.known.isKnown(entry.id, entry.value)) known.push(entry.id);
      else this.waiting.set(entry.id, AUTOSTART_WAITING);
    }
    if (known.length === 0) return;
    const handle = await startWorkspaceServers(this.state.workspace, {
      ids: known,
      traffic: this.traffic,
      // One that could not start (its port was taken) starts when its file is saved, as in `ferry serve`;
      // not when it was started by hand meanwhile, nor after the app closed, nor a configuration this
      // computer has not started or saved (changed outside Ferry: it waits for a start by hand, 2.11).
      startWhenSaved: async (id, config) => {
        if (this.byHand.has(id) || !this.mayRetry(id)) return false;
        if (await this.known.isKnown(id, config)) return this.retryStarts(id);
        this.failed.delete(id);
        this.waiting.set(id, AUTOSTART_WAITING);
        return false;
      },
      onStarted: (server) => this.retried(server),
      onNotice: (notice) => this.retryFailed(notice),
    });
    this.autoStartHandle = handle;
    for (const server of handle.servers) this.running.set(server.id, server);
    for (const failure of handle.failures) this.failed.set(failure.id, failure.message);
  }

  /** Whether a server whose start failed may start now that its file was saved: not running, starting, nor the app closed. */
  private mayRetry(id: string): boolean {
    return !(this.closed || this.running.has(id) || this.starting.has(id) || this.retrying.has(id));
  }

  /** A watch starts `id` now: no other start of it until `retried` or `retryFailed`. */
  private retryStarts(id: string): true {
    this.retrying.add(id);
    return true;
  }

  /** A server started by a watch after its file was saved. */
  private retried(server: RunningServer): void {
    this.retrying.delete(server.id);
    if (this.closed || this.running.has(server.id)) return void server.stop();
    this.running.set(server.id, server);
    this.failed.delete(server.id);
    this.waiting.delete(server.id);
    // The panel read the list when the file changed, before this start: it reads it again.
    this.live.publish({ type: 'servers' });
  }

  /** A watch's start failed again (or the file does not read): the panel shows why until the next try. */
  private retryFailed(notice: ServerNotice): void {
    if (notice.level !== 'warning' || notice.server === undefined) return;
    this.retrying.delete(notice.server);
    if (this.running.has(notice.server)) return;
    this.failed.set(notice.server, notice.message);
    this.live.publish({ type: 'servers' });
  }

  async list(): Promise<ServerView[]> {
    await this.autoStarted;
    const ws = this.state.workspace;
    const rows: ServerView[] = ws.servers.map((entry) => {
      const server = this.running.get(entry.id);
      const waiting = this.waiting.get(entry.id);
      const failed = this.failed.get(entry.id);
      const sendForm = server?.sendForm;
      return {
        id: entry.id, name: entry.value.name, kind: entry.value.kind, port: entry.value.port, host: entry.value.host,
        running: server !== undefined, ...(server ? { url: server.clientUrl, connections: server.openConnections() } : {}),
        autoStart: entry.value.autoStart,
        ...(waiting && !server ? { waiting } : {}),
        ...(failed && !server ? { startError: failed } : {}),
        ...(sendForm ? { sendForm } : {}),
      };
    });
    // Server files that do not parse are listed with their error, as in the sidebar, and so are a
    // subfolder or a Postman export put in servers/ (what they are and what to do).
    for (const [id, warning] of unreadEntryFiles(ws, 'server', true)) {
      if (!rows.some((r) => r.id === id)) rows.push({ id, name: id, kind: '', port: 0, host: '', running: false, error: formatWarning(warning), ...(warning.code ? { errorCode: warning.code } : {}) });
    }
    return rows;
  }

  async start(id: string): Promise<ServerView[]> {
    await this.autoStarted;
    if (this.running.has(id) || this.starting.has(id)) return this.list();
    this.byHand.add(id);
    this.starting.add(id);
    try {
      await this.learnSecrets();
      await this.retries.get(id)?.stop();
      this.retries.delete(id);
      // Started by hand: remembered, so its autoStart may start it by itself next time (2.11). One
      // that fails (its port in use) starts when its file is saved, as an autoStart server does.
      const handle = await startWorkspaceServers(this.state.workspace, {
        ids: [id],
        traffic: this.traffic,
        remember: true,
        startWhenSaved: (saved) => this.mayRetry(saved) && this.retryStarts(saved),
        onStarted: (server) => this.retried(server),
        onNotice: (notice) => this.retryFailed(notice),
      });
      const failure = handle.failures[0];
      for (const server of handle.servers) {
        this.running.set(server.id, server);
        this.waiting.delete(server.id);
        this.failed.delete(server.id);
      }
      if (!failure || failure.unknown || this.closed) await handle.unwatch();
      if (failure) {
        if (!failure.unknown && !this.closed) {
          this.retries.set(id, handle);
          this.failed.set(id, failure.message);
        }
        throw new ApiError(failure.unknown ? 404 : 400, failure.message);
      }
    } catch (error) {
      if (error instanceof ServerError) throw new ApiError(400, error.message);
      throw error;
    } finally {
      this.starting.delete(id);
    }
    return this.list();
  }

  async stop(id: string): Promise<ServerView[]> {
    await this.autoStarted;
    const server = this.running.get(id);
    this.running.delete(id);
    this.byHand.add(id);
    await server?.stop();
    // Stopped by hand: a save no longer starts it.
    await this.retries.get(id)?.stop();
    this.retries.delete(id);
    return this.list();
  }

  /** The running server of `id`, or the refusal: unknown (404) or not running (409). */
  private runningServer(id: string): RunningServer {
    const server = this.running.get(id);
    if (server) return server;
    if (!this.state.workspace.servers.some((e) => e.id === id)) throw new ApiError(404, `No server "${id}": there is no ${SERVERS_DIR}/${id}.yaml.`);
    throw new ApiError(409, `Server "${id}" is not running: start it first.`);
  }

  clients(id: string) {
    return this.runningServer(id).clients();
  }

  /**
   * The traffic panel's send: `data` to the client `to` (an id from `clients`) or to all, through
   * the kind's `push`; the typed text's `{{variables}}` are filled as a send's are (8.2).
   */
  async send(id: string, data: string, to: string | undefined, name: string | undefined): Promise<ServerSendDone> {
    const server = this.runningServer(id);
    if (!server.sendForm) throw new ApiError(400, `Server "${id}" is a ${server.kind} server: it answers requests and cannot send to clients from the panel.`);
    if (Buffer.byteLength(data) > MAX_SEND_BYTES) throw new ApiError(413, `The message is over ${MAX_SEND_BYTES / 1024 / 1024} MB; nothing was sent.`);
    const fill = await this.state.withSession((session) => session.panelFiller());
    await this.learnSecrets();
    let sent: number;
    const notReading: NonNullable<ServerSendDone['notReading']> = [];
    try {
      sent = server.send(data, { ...(to !== undefined ? { to } : {}), ...(name !== undefined ? { name } : {}), fill, notReading: (client, waitingBytes) => notReading.push({ client, waitingBytes }) });
    } catch (error) {
      throw new ApiError(400, (error as Error).message);
    }
    if (sent === 0 && notReading.length > 0) {
      throw new ApiError(409, `Not sent: ${notReadingText(notReading)}. It gets the next message once it has read what waits; a client that never reads can only be disconnected.`, { notReading });
    }
    if (sent === 0) {
      throw new ApiError(409, to !== undefined
        ? `Client ${to} of server "${id}" is no longer connected; nothing was sent. Pick another client or send to all.`
        : `Server "${id}" has no connected clients; nothing was sent.`);
    }
    return notReading.length > 0 ? { sent, notReading, note: `Not sent to every client: ${notReadingText(notReading)}.` } : { sent };
  }

  /** The server file in the editor's shape. */
  async editor(id: string): Promise<ServerEditorView> {
    const entry = this.state.workspace.servers.find((e) => e.id === id);
    if (entry) return serverEditorView(id, entry.value, await this.fileText(entry.file));
    const broken = unreadEntryFiles(this.state.workspace, 'server').get(id);
    if (broken) throw new ApiError(400, `${formatWarning(broken)} — fix the file in a text editor; the form edits files that parse.`);
    throw new ApiError(404, `No server "${id}": there is no ${SERVERS_DIR}/${id}.yaml.`);
  }

  /**
   * Saves an edit through the workspace writer under the workspace lock (nothing is written when
   * the edit does not pass the format's schema); the configuration is remembered as saved here.
   * A running server picks it up at once. `warning`: saved, but the kind refuses the settings.
   * `page`: the page whose call it is (a wait for the lock is said there).
   */
  async save(id: string, body: unknown, page?: string): Promise<ServerEditorView & { warning?: string }> {
    const entry = this.state.workspace.servers.find((e) => e.id === id);
    if (!entry) await this.editor(id); // the refusal for unknown and broken files
    const server = serverFromEdit(`${SERVERS_DIR}/${id}.yaml`, entry!.value, body);
    const root = this.state.workspace.root;
    // `base`: the server as the editor last read it. When the file no longer holds it (an editor
    // or git changed it before the watcher's reload), nothing is written: 409 with the file's
    // version (`current`), as a request save does.
    const base = (body as { base?: unknown } | null)?.base;
    const savedId = await writing(this.state, async () => {
      if (base !== undefined) {
        const file = entry!.file;
        const read = parseResource('server', base);
        await checkFileHolds('server', root, file, read.ok ? read.value : undefined, async (current) => ({ current: serverEditorView(id, current, await this.fileText(file)) }));
      }
      return saveEntry(root, 'server', id, server, { retouch: typedSection(body, server) });
    }, page);
    const file = `${SERVERS_DIR}/${savedId}.yaml`;
    // Unchanged since, the watcher's report of this write reads nothing again.
    await this.state.reloadAfterOwnWrites(savedId === id ? [file] : [`${SERVERS_DIR}/${id}.yaml`, file]);
    const restartError = savedId === id ? undefined : await this.renamed(id, savedId);
    await this.known.remember(savedId, server).catch(() => undefined);
    this.waiting.delete(savedId);
    await this.running.get(savedId)?.reload();
    const warning = restartError ?? await checkServerSettings({ id: savedId, file, value: server }, root);
    return { ...serverEditorView(savedId, server, await this.fileText(file)), ...(warning ? { warning } : {}) };
  }

  /**
   * Server `from` was renamed to `to` with its file (2.1.4): what the app keeps under the id
   * follows. A running one is stopped and started again under the new id (its clients reconnect:
   * a server's id is in its traffic and its URL's owner, and a stop frees the port for the start);
   * returns why it did not start again, if it did not (the editor says it will not start like this).
   */
  private async renamed(from: string, to: string): Promise<string | undefined> {
    this.renames.push({ from, to, at: Date.now() });
    const server = this.running.get(from);
    this.running.delete(from);
    this.waiting.delete(from);
    this.failed.delete(from);
    this.byHand.delete(from);
    await this.retries.get(from)?.stop();
    this.retries.delete(from);
    await this.known.forget(from).catch(() => undefined);
    if (!server) return undefined;
    await server.stop();
    try {
      await this.start(to);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  /** A server file's text as it stands (undefined when it cannot be read: the view falls back to the format's rendering). */
  private async fileText(file: string): Promise<string | undefined> {
    const relative = path.normalize(file);
    if (await checkNoSymlinks(this.state.workspace.root, relative)) return undefined;
    return readTextFile(path.join(this.state.workspace.root, relative)).catch(() => undefined);
  }

  /**
   * A new server file of `kind`, with the port servers made in the app get (2.11), one no other
   * server file asks for; `page` as for `save`. One at a time: each sees the ports of those before.
   */
  create(name: string, kind: string, page?: string): Promise<ServerEditorView> {
    const made = this.creating.then(() => this.createNow(name, kind, page));
    this.creating = made.catch(() => undefined);
    return made;
  }

  private async createNow(name: string, kind: string, page?: string): Promise<ServerEditorView> {
    if (!(SERVER_KINDS as readonly string[]).includes(kind)) throw new ApiError(400, `kind: expected one of ${SERVER_KINDS.join(', ')}, got ${JSON.stringify(kind)}.`);
    const port = newServerPort(kind as ServerKind, await serverFilePorts(this.state.workspace, (file) => this.fileText(file)));
    const server = serverFromEdit(`the new ${kind} server`, undefined, { server: { name, kind, port } }) satisfies ServerFile;
    const root = this.state.workspace.root;
    const id = await writing(this.state, () => createEntry(root, 'server', server), page);
    await this.known.remember(id, server).catch(() => undefined);
    // The folder too: the first server's save creates it.
    await this.state.reloadAfterOwnWrites([SERVERS_DIR, `${SERVERS_DIR}/${id}.yaml`]);
    return serverEditorView(id, server);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    await this.autoStarted;
    await this.autoStartHandle?.stop();
    await Promise.allSettled([...this.retries.values()].map((retry) => retry.stop()));
    this.retries.clear();
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.allSettled(all.map((s) => s.stop()));
  }
}

/** The server kinds this version runs, as the panel draws them: from the kinds' own table, so a new kind needs no change in the page. */
export function serverKindsView(): ServerKindsView {
  const built = SERVER_KINDS.filter(isServerKindBuilt);
  return {
    kinds: built.map((kind) => ({ kind, ...SERVER_KIND_INFO[kind] })),
    newServer: { kinds: NEW_SERVER_KINDS.filter(isServerKindBuilt), picked: NEW_SERVER_KIND_PICKED },
  };
}

export function serverRoutes(servers: AppServers): Routes {
  return {
    /** What each server kind says about itself (names, traffic directions, the send, the editor's hint), and the new-server picker. */
    'GET /api/server-kinds': async () => serverKindsView(),
    'GET /api/servers': async () => servers.list(),
    'POST /api/servers/start': async ({ body }) => servers.start(field(body, 'id')),
    'POST /api/servers/stop': async ({ body }) => servers.stop(field(body, 'id')),
    /** The traffic so far (newest last); new records arrive on the live channel. */
    'GET /api/servers/traffic': async (): Promise<TrafficView[]> => servers.traffic.recent().map((r) => servers.shown(r)),
    /** A running server's open clients, for the send's "to" picker. */
    'GET /api/servers/clients': async ({ query }) => servers.clients(query.get('id') ?? ''),
    /** `{ id, data, to?, event? }`: sends to one client (`to`) or all; answers how many it reached. */
    'POST /api/servers/send': async ({ body }) => servers.send(field(body, 'id'), field(body, 'data'), optionalField(body, 'to') || undefined, optionalField(body, 'event')),
    'GET /api/server': async ({ query }) => servers.editor(query.get('id') ?? ''),
    'PUT /api/server': async ({ body, page }) => servers.save(field(body, 'id'), body, page),
    'POST /api/server': async ({ body, page }) => servers.create(field(body, 'name'), field(body, 'kind'), page),
  };
}

/** Clients a send skipped, in words: `client 127.0.0.1:50312 does not read what it is sent (1.4 MB wait unsent for it)`. */
function notReadingText(skipped: NonNullable<ServerSendDone['notReading']>): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return skipped.map((s) => `client ${s.client} does not read what it is sent (${mb(s.waitingBytes)} wait unsent for it)`).join('; ');
}
