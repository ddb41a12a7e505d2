/**
 * One workspace's data on this computer: values set by scripts, the active environment, the
 * OAuth token cache, history, allowed programs, and where the cookie jar and secrets live.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { JsonStore } from './json-store.js';
import { workspaceDataDir } from './paths.js';
import { SecretStore } from './secrets.js';

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
  durationMs: number;
  error?: string;
}

export const HISTORY_LIMIT = 500;

/** Fields may be missing in a file written by hand or by an older Ferry. */
interface State {
  activeEnvironment?: string;
  scriptValues?: Record<string, Record<string, string>>;
  allowedPrograms?: string[];
}

export class WorkspaceData {
  readonly dir: string;
  readonly secrets: SecretStore;
  private readonly state: JsonStore<State>;
  private readonly tokens: JsonStore<Record<string, CachedToken>>;
  private readonly history: JsonStore<HistoryEntry[]>;

  constructor(workspaceId: string, workspaceRoot: string) {
    this.dir = workspaceDataDir(workspaceId, workspaceRoot);
    this.secrets = new SecretStore(this.dir);
    this.state = new JsonStore(path.join(this.dir, 'state.json'), () => ({ scriptValues: {}, allowedPrograms: [] }));
    this.tokens = new JsonStore(path.join(this.dir, 'tokens.json'), () => ({}));
    this.history = new JsonStore(path.join(this.dir, 'history.json'), () => []);
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

  async scriptValues(scope: ScriptScope): Promise<Record<string, string>> {
    return { ...((await this.state.read()).scriptValues?.[scope] ?? {}) };
  }

  /** Applies script changes: a string sets, `null` unsets. */
  async updateScriptValues(scope: ScriptScope, changes: Record<string, string | null>): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.state.update((s) => {
      const values = ((s.scriptValues ??= {})[scope] ??= {});
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) delete values[key];
        else values[key] = value;
      }
    });
  }

  async clearScriptValues(scope: ScriptScope): Promise<void> {
    await this.state.update((s) => {
      if (s.scriptValues) delete s.scriptValues[scope];
    });
  }

  async token(key: string): Promise<CachedToken | undefined> {
    return (await this.tokens.read())[key];
  }

  async saveToken(key: string, token: CachedToken | undefined): Promise<void> {
    await this.tokens.update((all) => {
      if (token) all[key] = token;
      else delete all[key];
    });
  }

  /** Appends entries (a run passes all of its sends at once: one locked write). */
  async addHistory(...entries: HistoryEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.history.update((list) => {
      for (const entry of entries) list.push(entry); // no spread: its arguments are limited in number
      if (list.length > HISTORY_LIMIT) list.splice(0, list.length - HISTORY_LIMIT);
    });
  }

  async readHistory(): Promise<HistoryEntry[]> {
    return this.history.read();
  }

  /** A program may start only once its exact command, folder and environment were allowed here. */
  static programKey(command: string, cwd: string, env: Record<string, string>): string {
    const canonical = JSON.stringify([command, cwd, Object.entries(env).sort()]);
    return createHash('sha256').update(canonical).digest('hex');
  }

  async isProgramAllowed(key: string): Promise<boolean> {
    return (await this.state.read()).allowedPrograms?.includes(key) === true;
  }

  async allowProgram(key: string): Promise<void> {
    await this.state.update((s) => {
      const allowed = (s.allowedPrograms ??= []);
      if (!allowed.includes(key)) allowed.push(key);
    });
  }
}
