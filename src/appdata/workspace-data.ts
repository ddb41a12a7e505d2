/**
 * One workspace's data on this computer: values set by scripts, the active environment, the
 * OAuth token cache, history, and where the cookie jar and secrets live.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { EnvironmentChanges, type EnvironmentMark, type HeldEnvironmentChanges } from './environment-changes.js';
import { JsonStore } from './json-store.js';
import { settingsFile, workspaceDataDir } from './paths.js';
import { isSealed, openValue, sealValue, SecretStore, type Sealed } from './secrets.js';
import { SendResults } from './send-results.js';

/** Script-set values per scope: `environment:<id>`, `collection` (workspace variables), `globals`. */
export type ScriptScope = `environment:${string}` | 'collection' | 'globals';

export interface CachedToken {
  accessToken: string;
  tokenType?: string;
  refreshToken?: string;
  /** Epoch milliseconds; absent = no expiry given. */
  expiresAt?: number;
  scope?: string;
}

export interface HistoryEntry {
  time: string;
  path?: string;
  method: string;
  url: string;
  status?: number;
  /** The status as the request's kind words it (`200 OK`, gRPC's `5 NOT_FOUND: no such user`); absent in entries of older versions. */
  statusLabel?: string;
  /** The kind's verdict on the status (HTTP below 400, gRPC OK, DNS NOERROR); absent in entries of older versions, read as HTTP's rule. */
  ok?: boolean;
  durationMs: number;
  error?: string;
}

export const HISTORY_LIMIT = 500;

function isCachedToken(value: unknown): value is CachedToken {
  return typeof value === 'object' && value !== null && typeof (value as CachedToken).accessToken === 'string';
}

/** Seals, in place, every token still stored plain. */
async function sealPlain(all: Record<string, Sealed | CachedToken>): Promise<void> {
  for (const [key, value] of Object.entries(all)) {
    if (!isSealed(value)) all[key] = await sealValue(JSON.stringify(value));
  }
}

/** Fields may be missing in a file written by hand or by an older Ferry. */
interface State {
  activeEnvironment?: string;
  /** JSON data as scripts set it (an older Ferry kept each as text). */
  scriptValues?: Record<string, Record<string, unknown>>;
}

export class WorkspaceData {
  readonly dir: string;
  readonly secrets: SecretStore;
  private readonly state: JsonStore<State>;
  /** Sealed with the secret store's key, as secret values are; an older Ferry wrote them plain. */
  private readonly tokens: JsonStore<Record<string, Sealed | CachedToken>>;
  private readonly history: JsonStore<HistoryEntry[]>;
  /** The app's answers, for its history (send-results.ts). */
  readonly results: SendResults;

  constructor(workspaceId: string, workspaceRoot: string) {
    this.dir = workspaceDataDir(workspaceId, workspaceRoot);
    this.secrets = new SecretStore(this.dir);
    this.state = new JsonStore(path.join(this.dir, 'state.json'), () => ({ scriptValues: {} }), 'the active environment and the values scripts set (pm.environment.set and the like) are lost: choose the environment again (`ferry env use NAME`, or in the app)');
    this.tokens = new JsonStore(path.join(this.dir, 'tokens.json'), () => ({}), 'the cached OAuth 2.0 tokens are lost: new ones are fetched at the next send');
    this.history = new JsonStore(path.join(this.dir, 'history.json'), () => [], 'the history of sends starts empty again');
    this.results = new SendResults(path.join(this.dir, 'results'));
    this.#environmentChanges = new EnvironmentChanges(this.dir);
  }

  /**
   * A mark of the stores a session reads once, when it opens (the values scripts set and the
   * active environment in state.json, the secret values in secrets.json, the cookie jar): it
   * changes whenever one of them is written, by this process or another (`ferry secret set`, a
   * `ferry run` whose scripts set values or that got cookies, while the app is open). Four
   * stats, no read.
   */
  async sessionMark(): Promise<string> {
    // And this computer's application settings (settings.json), also read once by a session: a
    // `ferry config set` while the app is open (the fix its messages give, such as
    // filesOutsideWorkspace, spec 7) holds from the next send.
    const files = [...['state.json', 'secrets.json', 'cookies.json'].map((name) => path.join(this.dir, name)), settingsFile()];
    const marks = await Promise.all(files.map((file) => fs.lstat(file).then((s) => `${s.ino}:${s.size}:${s.mtimeMs}`, () => '-')));
    return marks.join(' ');
  }

  /** The record of environment renames and deletes (environment-changes.ts), for runs under way in any process. */
  readonly #environmentChanges: EnvironmentChanges;
  /** Those changes and the saves of a run's values in this process, one at a time (other processes: the record's lock). */
  #scopeWork: Promise<unknown> = Promise.resolve();

  /** A mark of the environment renames and deletes so far: taken when a run reads its workspace (or its values), followed (`exclusive`) when it saves them. */
  environmentMark(): Promise<EnvironmentMark> {
    return this.#environmentChanges.mark();
  }

  /**
   * Runs `work` alone among environment renames, deletes and the saves of script values, in this
   * process and others; `work` gets the record of those changes (`since` follows an environment from a mark).
   */
  exclusive<T>(work: (changes: HeldEnvironmentChanges) => Promise<T>): Promise<T> {
    const held = () => this.#environmentChanges.hold(work);
    const done = this.#scopeWork.then(held, held);
    this.#scopeWork = done.catch(() => undefined);
    return done;
  }

  /**
   * Environment `from` is now `to`: its secret values, script values and active mark move; runs
   * that read them before save under `to`. Recorded first: killed part-way, a run still follows
   * the environment's file, and renaming back finds what was not moved.
   */
  renameEnvironmentData(from: string, to: string): Promise<void> {
    return this.exclusive(async (changes) => {
      await changes.record(from, to);
      await this.secrets.copyScope(from, to);
      await this.secrets.deleteScope(from);
      await this.moveScriptValues(`environment:${from}`, `environment:${to}`);
      if ((await this.activeEnvironment()) === from) await this.setActiveEnvironment(to);
    });
  }

  /** Environment `id` is gone: its secret values, script values and active mark too; runs that read them before keep nothing for it. */
  deleteEnvironmentData(id: string): Promise<void> {
    return this.exclusive(async (changes) => {
      await changes.record(id, undefined);
      await this.secrets.deleteScope(id);
      await this.clearScriptValues(`environment:${id}`);
      if ((await this.activeEnvironment()) === id) await this.setActiveEnvironment(undefined);
    });
  }

  /** The cookie jar file (tough-cookie's serialized form), owned by the HTTP client. */
  get cookieJarFile(): string {
    return path.join(this.dir, 'cookies.json');
  }

  async activeEnvironment(): Promise<string | undefined> {
    return (await this.state.read()).activeEnvironment;
  }

  async setActiveEnvironment(id: string | undefined): Promise<void> {
    await this.state.update((s) => {
      s.activeEnvironment = id;
    });
  }

  async scriptValues(scope: ScriptScope): Promise<Record<string, unknown>> {
    return { ...((await this.state.read()).scriptValues?.[scope] ?? {}) };
  }

  /** The scopes that hold values scripts set, each with the names of its values. */
  async scriptValueNames(): Promise<Array<{ scope: ScriptScope; names: string[] }>> {
    const all = (await this.state.read()).scriptValues ?? {};
    return Object.entries(all)
      .map(([scope, values]) => ({ scope: scope as ScriptScope, names: Object.keys(values ?? {}) }))
      .filter((entry) => entry.names.length > 0);
  }

  /** Applies script changes: `set` values (JSON data, `null` included) are stored, `unset` names removed. */
  async updateScriptValues(scope: ScriptScope, set: Readonly<Record<string, unknown>>, unset: readonly string[] = []): Promise<void> {
    if (Object.keys(set).length === 0 && unset.length === 0) return;
    await this.state.update((s) => {
      const all = (s.scriptValues ??= {});
      if (!Object.hasOwn(all, scope)) Object.defineProperty(all, scope, { value: {}, enumerable: true, writable: true, configurable: true });
      const values = all[scope]!;
      for (const key of unset) delete values[key];
      // Defined, not assigned: `values.__proto__ = x` would change the prototype and save nothing.
      for (const [key, value] of Object.entries(set)) Object.defineProperty(values, key, { value, enumerable: true, writable: true, configurable: true });
    });
  }

  /** Script-set values of one scope moved to another (a renamed environment's new id). */
  async moveScriptValues(from: ScriptScope, to: ScriptScope): Promise<void> {
    await this.state.update((s) => {
      const all = s.scriptValues;
      if (!all || !Object.hasOwn(all, from)) return;
      Object.defineProperty(all, to, { value: all[from], enumerable: true, writable: true, configurable: true });
      delete all[from];
    });
  }

  async clearScriptValues(scope: ScriptScope): Promise<void> {
    await this.state.update((s) => {
      if (s.scriptValues) delete s.scriptValues[scope];
    });
  }

  async token(key: string): Promise<CachedToken | undefined> {
    const all = await this.tokens.read();
    if (!Object.hasOwn(all, key)) return undefined;
    const stored = all[key];
    if (!isSealed(stored)) {
      // A plain token an older Ferry kept: used, and the whole file is sealed now.
      await this.sealPlainTokens();
      return isCachedToken(stored) ? stored : undefined;
    }
    try {
      const token = JSON.parse(await openValue(stored)) as unknown;
      return isCachedToken(token) ? token : undefined;
    } catch {
      // Sealed with another key (secret.key was replaced) or altered: fetched again.
      return undefined;
    }
  }

  async saveToken(key: string, token: CachedToken | undefined): Promise<void> {
    const sealed = token ? await sealValue(JSON.stringify(token)) : undefined;
    await this.tokens.update(async (all) => {
      if (sealed) Object.defineProperty(all, key, { value: sealed, enumerable: true, writable: true, configurable: true });
      else delete all[key];
      await sealPlain(all);
    });
  }

  private async sealPlainTokens(): Promise<void> {
    await this.tokens.update(sealPlain);
  }

  /**
   * Adds entries (a run passes all of its sends at once: one locked write), the list kept in the
   * order of the sends' times: runs save when they end, so a long run saves its sends after those
   * of a short run that ran meanwhile (two `ferry run`s, the app). Past the limit the oldest go.
   */
  async addHistory(...entries: HistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.history.update((list) => {
      const before = list.length;
      for (const entry of entries) list.push(entry); // no spread: its arguments are limited in number
      // ISO times in UTC compare as text; the sort is stable, and only needed when sends of another run came between.
      const inOrder = list.every((entry, i) => i <= Math.max(0, before - 1) || String(list[i - 1]!.time) <= String(entry.time));
      if (!inOrder) list.sort((a, b) => (String(a.time) < String(b.time) ? -1 : String(a.time) > String(b.time) ? 1 : 0));
      if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
    });
  }

  async readHistory(): Promise<HistoryEntry[]> {
    return this.history.read();
  }
}
