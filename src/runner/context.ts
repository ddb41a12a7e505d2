/** What every send of one run (or one session) shares: one connection pool, one cookie jar, one script engine, one document cache. */
import { loadOnce } from '../support/load-once.js';
import { HISTORY_LIMIT, type AppSettings, type HistoryEntry, type WorkspaceData } from '../appdata/index.js';
import type { ContractCheckInput, ContractDocuments, ContractTestResult } from '../contract/index.js';
import { linkedDocumentPath } from '../contract/link.js';
import type { CookieStore, HttpAgents, ProgramPolicy, StreamMessage } from '../protocols/index.js';
import type { CachedToken } from '../appdata/index.js';
import type { Face, PreparedSettings } from '../request/index.js';
import type { ScriptEngine, ScriptLimits } from '../scripts/index.js';
import type { Workspace } from '../workspace/index.js';
import type { RunVariables } from '../variables/index.js';

const contractCheck = loadOnce(() => import('../contract/index.js'));

/** What is about to leave Ferry: where to, what it holds, and whether a pre-request script ran for it. */
export interface Outgoing {
  /** The URL it goes to. */
  url: string;
  /** What is sent (the prepared request, an OAuth 2.0 token request's settings). */
  carried: unknown;
  /** A pre-request script ran: it could have read a secret and changed its form beyond recognition. */
  scripted: boolean;
  /**
   * The values scripts stored for variables not declared secret (in this run, or earlier ones and
   * kept in the data folder): a script of an earlier send could have stored a secret there in a
   * form no check recognizes, which a send without a script of its own then carries.
   */
  stored?: readonly string[];
  /** Which request sends it (`Users/Draft.yaml`). */
  path: string;
  /** What is sent, for the message: "it" when absent, "its OAuth 2.0 token request". */
  what?: string;
}

/** Refuses what a send is about to send, before anything leaves: the reason (the send's error), or undefined to send. */
export type SendGuard = (out: Outgoing) => string | undefined;

export interface RunContext {
  workspace: Workspace;
  data?: WorkspaceData;
  settings: AppSettings;
  /** `--timeout-ms`, `--insecure`: win over each request's own settings. */
  overrides: Partial<PreparedSettings>;
  allowFilesOutside: boolean;
  /** Which programs requests may start (this computer's allow-list; `--allow-programs` adds to it). */
  programs?: ProgramPolicy;
  agents: HttpAgents;
  cookies: CookieStore;
  variables: RunVariables;
  scripts: ScriptHost;
  contract: RunContract;
  oauthTokens: Map<string, CachedToken>;
  /** OAuth 2.0 authorization code: shows the URL to open. */
  onAuthorizeUrl?: (url: string) => void;
  /** Nobody can sign in in a browser (a CI job): why, and what to do instead (OAuth2Options.noBrowser). */
  noBrowser?: string;
  /** Who shows the run's messages (the app's page, or the command line when absent). */
  face?: Face;
  /** Sends of this run, written to history once at the end (only the last `HISTORY_LIMIT` are kept: see `recordHistory`). */
  history: HistoryEntry[];
  /** Each stream message of a send as it is read (the app's response view). */
  onMessage?: (message: StreamMessage) => void;
  iterations: number;
  signal?: AbortSignal;
  /** `ferry mcp`'s rule for secret values (agent/secret-hosts.ts); other faces send as they are told. */
  guard?: SendGuard;
}

/** Creates the run's script engine on first use, so runs without scripts never load the sandbox (nor its host code). */
export class ScriptHost {
  private engine: Promise<ScriptEngine> | undefined;

  constructor(private readonly limits: ScriptLimits) {}

  get(): Promise<ScriptEngine> {
    this.engine ??= import('../scripts/index.js').then(({ ScriptEngine }) => ScriptEngine.create(this.limits));
    return this.engine;
  }

  async dispose(): Promise<void> {
    if (!this.engine) return;
    const engine = await this.engine.catch(() => undefined);
    engine?.dispose();
    this.engine = undefined;
  }
}

/**
 * The run's contract check (spec 7.1) with its document cache. Whether a request links a
 * document is read from the request and its folders first; the document reader and the schema
 * checker load only for the first request that does.
 */
export class RunContract {
  private documents: ContractDocuments | undefined;

  constructor(private readonly root: string) {}

  async test(input: Omit<ContractCheckInput, 'documents'>): Promise<ContractTestResult | null> {
    const link = linkedDocumentPath(input.request, input.folderChain);
    if ('skip' in link) {
      input.onSkip?.(link.skip);
      return null;
    }
    const contract = await contractCheck();
    this.documents ??= new contract.ContractDocuments(this.root);
    return contract.contractTestFor({ ...input, documents: this.documents });
  }
}

/**
 * Adds a send to the context's history. The data folder keeps the last `HISTORY_LIMIT` sends, so
 * a long run keeps no more than twice that (trimmed now and then, not on every send).
 */
export function recordHistory(ctx: RunContext, entry: HistoryEntry): void {
  ctx.history.push(entry);
  if (ctx.history.length >= 2 * HISTORY_LIMIT) ctx.history.splice(0, ctx.history.length - HISTORY_LIMIT);
}
