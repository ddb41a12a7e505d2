/**
 * A session: what the app keeps open while someone works, and what `ferry run` runs in. It opens
 * on a workspace with an environment, `--var`s, settings and data rows, and keeps one state across
 * sends (connection pools, the cookie jar, OAuth tokens, variables scripts set, one script
 * sandbox), as a run does. `send` takes a saved request's path or an unsaved request (edited in
 * the app, not on disk) placed in a folder; `run` runs paths as `ferry run` does. Both give the
 * runner's `RequestResult`s: one shape for every face. `connect` opens a request of a streaming
 * kind as a live connection (send, kind operations, close by id); closing the session closes them.
 */
import { parseResource, WORKSPACE_FILE, type Auth, type RequestFile } from '../model/index.js';
import { randomUUID } from 'node:crypto';
import type { RequestKind } from '../model/index.js';
import { checkOutgoing, type ConnectionEnd, type ConnectionInfo, type CookieStore, type KindCatalog, type LiveConnection, type ProtocolResult, type StreamMessage } from '../protocols/index.js';
import {
  closeRunContext,
  connectItem,
  describeItem,
  fetchItemToken,
  iterationCount,
  openRunContext,
  runItems,
  saveRunContext,
  selectRequests,
  SelectError,
  sendItem,
  type ContextOptions,
  type RequestResult,
  type RunContext,
  type RunItem,
  type RunOutcome,
  type RunPlan,
} from '../runner/index.js';
import type { FetchedToken } from '../request/index.js';
import { render } from '../template/index.js';
import type { DataRow } from '../variables/index.js';
import { environmentMarkOf } from './environment-mark.js';
import { FOLDER_FILE, normalizeSelectPath, unsavedItem, type Workspace } from '../workspace/index.js';

export interface SessionOptions extends ContextOptions {
  /** Data-file rows: a send reads the first (as a run's first iteration does); a run, one per iteration. */
  data?: ReadonlyArray<DataRow>;
}

/** A request that is not on disk (or differs from it), and where it sits: its folders' auth, headers and scripts apply. */
export interface UnsavedRequest {
  request: RequestFile;
  /** Its path under `requests/` as if saved (`Users/Draft.yaml`); its folder must exist. */
  path: string;
}

/** A saved request's path under `requests/` (extension optional), or an unsaved request. */
export type SendTarget = string | UnsavedRequest;

export interface SendOptions {
  /** Cancels the send: it ends with "the request was cancelled." */
  signal?: AbortSignal;
  /** Each stream message as it is read (SSE events as they arrive), before the send ends. */
  onMessage?: (message: StreamMessage) => void;
  /**
   * OAuth 2.0 authorization code: shows the provider's sign-in URL to this send's user (the app's
   * page opens it); absent, the session's own (`ferry run` prints it).
   */
  onAuthorizeUrl?: (url: string) => void;
}

export interface ConnectOptions {
  /** Every message both ways, as it happens (the session keeps none: the face keeps what it shows). */
  onMessage?: (message: StreamMessage) => void;
  /** Once, however the connection ends (closed here, by the peer, an error, or the session closing). */
  onEnd?: (end: ConnectionEnd) => void;
  /** Cancels connecting. */
  signal?: AbortSignal;
}

/** A live connection of this session, as faces list it. */
export interface OpenConnection {
  id: string;
  /** The request's path under `requests/` (an unsaved request's as if saved). */
  path: string;
  kind: RequestKind;
  /** As prepared (variables filled). */
  url: string;
  openedAt: string;
  info: ConnectionInfo;
  /** Pre-request script errors; the connection was opened anyway, as a send is sent anyway. */
  scriptErrors: string[];
  console: string[];
}

/** A connection id this session does not have (never opened, or already ended). */
export class UnknownConnectionError extends Error {
  override name = 'UnknownConnectionError';
}

export class Session {
  private context: Promise<RunContext> | undefined;
  private closed = false;
  private readonly live = new Map<string, { view: OpenConnection; connection: LiveConnection }>();

  /** Opens on first use, so a run's own errors (an unknown path) come before the environment's; `Session.open` opens at once. */
  constructor(private readonly options: SessionOptions) {}

  /** A session opened now: an unknown environment or an unreadable data folder fails here. */
  static async open(options: SessionOptions): Promise<Session> {
    const session = new Session(options);
    await session.ready();
    return session;
  }

  get workspace(): Workspace {
    return this.options.workspace;
  }

  /** Sends one request in this session's state; the result is masked like a run's (no secret values). */
  async send(target: SendTarget, options: SendOptions = {}): Promise<RequestResult> {
    return (await this.exchange(target, options)).result;
  }

  /**
   * As `send`, with the answer itself (headers and body) for a face that shows it (the app's
   * response viewer). The answer is not masked: it is what the server sent to this user.
   */
  async exchange(target: SendTarget, options: SendOptions = {}): Promise<{ result: RequestResult; response?: ProtocolResult }> {
    const item = this.itemFor(target);
    const ctx = await this.ready();
    // Per-send fields on a copy; the pools, jar, variables, sandbox and history stay shared.
    const sendCtx: RunContext = { ...ctx, iterations: 1, signal: options.signal, onMessage: options.onMessage, onAuthorizeUrl: options.onAuthorizeUrl ?? ctx.onAuthorizeUrl };
    const first = this.options.data?.[0];
    ctx.variables.iterationData = first ? { ...first } : {};
    const outcome = await sendItem(item, sendCtx, { iteration: 0, iterationCount: 1 });
    ctx.variables.mask.result(outcome.result);
    return { result: outcome.result, ...(outcome.response ? { response: outcome.response } : {}) };
  }

  /**
   * "Get token": the OAuth 2.0 token a send of this request would use (its own auth or its
   * folders' / the workspace's, variables filled), fetched and cached exactly as a send does, so
   * the next send uses it; the request itself is not sent and no script runs. The token comes
   * back masked.
   */
  async fetchToken(target: SendTarget, options: Pick<SendOptions, 'signal' | 'onAuthorizeUrl'> = {}): Promise<FetchedToken> {
    const item = this.itemFor(target);
    return this.tokenOf(item, await this.ready(), options);
  }

  /**
   * "Get token" in the settings of a folder (`folder`, its path under `requests/`) or of the
   * workspace (`''`), for the auth given (as the settings dialog holds it, saved or not): the
   * token a request inside set to `inherit` would get, with the same variables, fetched and cached
   * under the same key (the settings with variables filled), so that request's send finds it.
   */
  async fetchSettingsToken(folder: string, auth: Auth, options: Pick<SendOptions, 'signal' | 'onAuthorizeUrl'> = {}): Promise<FetchedToken> {
    const inherits = parseResource('request', { name: 'Get token', auth: { type: 'inherit' } });
    if (!inherits.ok) throw new Error('a request set to inherit does not read');
    const item = unsavedItem(this.workspace.tree, folder ? `${folder}/${FOLDER_FILE}` : FOLDER_FILE, inherits.value);
    const ctx = await this.ready();
    if (folder) {
      const own = item.folders.at(-1)!;
      item.folders[item.folders.length - 1] = { ...own, settings: { ...own.settings, auth } };
      return this.tokenOf(item, ctx, options, `requests/${own.path}/${FOLDER_FILE}`);
    }
    return this.tokenOf(item, { ...ctx, workspace: { ...ctx.workspace, file: { ...ctx.workspace.file, auth } } }, options, WORKSPACE_FILE);
  }

  private async tokenOf(item: RunItem, ctx: RunContext, options: Pick<SendOptions, 'signal' | 'onAuthorizeUrl'>, where?: string): Promise<FetchedToken> {
    const first = this.options.data?.[0];
    ctx.variables.iterationData = first ? { ...first } : {};
    try {
      return await fetchItemToken(item, { ...ctx, signal: options.signal, onAuthorizeUrl: options.onAuthorizeUrl ?? ctx.onAuthorizeUrl }, where);
    } catch (error) {
      // A provider's error may echo what was sent: masked as a send's messages are.
      if (error instanceof Error) error.message = ctx.variables.mask.text(error.message);
      throw error;
    }
  }

  /**
   * Opens a request of a streaming kind as a live connection (the kind's `connect`), prepared as
   * a send prepares it, in this session's state. It stays open until `disconnect`, the peer, an
   * error, or `close` of the session ends it; `onEnd` says which.
   */
  async connect(target: SendTarget, options: ConnectOptions = {}): Promise<OpenConnection> {
    const item = this.itemFor(target);
    const ctx = await this.ready();
    const first = this.options.data?.[0];
    ctx.variables.iterationData = first ? { ...first } : {};
    const id = randomUUID();
    const opened = await connectItem(item, ctx, { onMessage: (message) => options.onMessage?.(message) }, options.signal);
    const node = item.node as { path: string; request: { kind: RequestKind } };
    const view: OpenConnection = {
      id,
      path: node.path,
      kind: node.request.kind,
      url: opened.url,
      openedAt: new Date().toISOString(),
      info: opened.connection.info,
      scriptErrors: opened.scriptErrors.map((e) => ctx.variables.mask.text(e)),
      console: opened.console.map((c) => ctx.variables.mask.text(c)),
    };
    this.live.set(id, { view, connection: opened.connection });
    void opened.connection.ended.then((end) => {
      this.live.delete(id);
      options.onEnd?.(end);
    });
    if (this.closed) await opened.connection.close(); // the session closed while connecting
    return view;
  }

  /**
   * What the request's target offers (gRPC methods, MCP tools, resources and prompts), prepared
   * as a send prepares it, in this session's state; a `DescribeError` says why not.
   */
  async describe(target: SendTarget, signal?: AbortSignal): Promise<KindCatalog> {
    const item = this.itemFor(target);
    const ctx = await this.ready();
    const first = this.options.data?.[0];
    ctx.variables.iterationData = first ? { ...first } : {};
    return describeItem(item, ctx, signal);
  }

  /** Sends one composed message on a live connection (its shape is checked: it may come from a page). */
  async sendMessage(id: string, message: unknown): Promise<void> {
    await this.connection(id).send(checkOutgoing(message));
  }

  /** A kind-specific operation of a live connection (MQTT `subscribe`…). */
  async callOperation(id: string, operation: string, params: Record<string, unknown> = {}): Promise<unknown> {
    return this.connection(id).call(operation, params);
  }

  /** Closes a live connection; resolves once it ended. */
  async disconnect(id: string): Promise<void> {
    await this.connection(id).close();
  }

  /** The live connections open now, oldest first. */
  connections(): OpenConnection[] {
    return [...this.live.values()].map((c) => c.view);
  }

  private connection(id: string): LiveConnection {
    const found = this.live.get(id);
    if (!found) throw new UnknownConnectionError(`No open connection ${JSON.stringify(id)}: it was closed or never opened; connect again.`);
    return found.connection;
  }

  /** Runs requests and folders (none: the whole workspace) as `ferry run` does; what changed is saved at its end. */
  async run(paths: readonly string[] = [], plan: RunPlan & Pick<SendOptions, 'onAuthorizeUrl'> & { byName?: boolean } = {}): Promise<RunOutcome> {
    // `byName: false`: paths only (the app's API), no folder or request found by its name at any depth.
    const items = selectRequests(this.workspace.tree, paths, { byName: plan.byName, warnings: this.workspace.warnings });
    const data = plan.data ?? this.options.data;
    const iterations = iterationCount({ ...plan, data });
    const ctx = await this.ready();
    return runItems({ ...ctx, iterations, signal: plan.signal, onAuthorizeUrl: plan.onAuthorizeUrl ?? ctx.onAuthorizeUrl }, items, { ...plan, data }, () => saveRunContext(ctx));
  }

  /**
   * Text the user typed to send from a server's traffic panel, with its `{{variables}}` filled as a
   * send's would be (spec 8.2: the active environment, values scripts set, secrets from this
   * computer's store, dynamic values). Returns a filler for the text, bound to the variables now.
   */
  async panelFiller(): Promise<(text: string) => string> {
    const variables = (await this.ready()).variables.scope();
    return (text) => render(text, 'panel.send', { variables });
  }

  /** The session's cookie jar (the data folder's, loaded on first use): listed and edited by the app; `save` writes it. */
  async cookieJar(): Promise<CookieStore> {
    return (await this.ready()).cookies;
  }

  /** Writes cookies, script-set values and history of the sends so far; returns what could not be saved. */
  async save(): Promise<string[]> {
    if (!this.context) return [];
    return saveRunContext(await this.context);
  }

  /** Saves, then ends connections and the sandbox. The session cannot send after this. */
  async close(): Promise<string[]> {
    if (this.closed) return [];
    this.closed = true;
    await Promise.allSettled([...this.live.values()].map((c) => c.connection.close()));
    if (!this.context) return [];
    const ctx = await this.context.catch(() => undefined);
    if (!ctx) return [];
    const [problems] = await Promise.all([saveRunContext(ctx), closeRunContext(ctx)]);
    return problems;
  }

  private ready(): Promise<RunContext> {
    if (this.closed) return Promise.reject(new Error('This session is closed; open a new one.'));
    // The place in the record of environment renames taken as the workspace was read, when it was.
    this.context ??= openRunContext({ ...this.options, environmentMark: this.options.environmentMark ?? environmentMarkOf(this.options.workspace) });
    // A failed opening (an unknown environment) may be retried after the cause is fixed.
    this.context.catch(() => (this.context = undefined));
    return this.context;
  }

  private itemFor(target: SendTarget): RunItem {
    if (typeof target === 'string') {
      const items = selectRequests(this.workspace.tree, [target]);
      const wanted = normalizeSelectPath(target).toLowerCase();
      const item = items.length === 1 ? items[0]! : undefined;
      if (!item || (item.node.path.toLowerCase() !== wanted && item.node.path.toLowerCase() !== `${wanted}.yaml`)) {
        throw new SelectError(`"${target}" is a folder; send sends one request (run a folder with run).`);
      }
      return item;
    }
    return unsavedItem(this.workspace.tree, target.path, target.request);
  }
}
