/**
 * Opening, saving and closing the state sends share (a `RunContext`): one for a `ferry run`, one
 * for an app session that sends many times. The data folder is read once when it opens and
 * written when it saves; connections and the script sandbox end when it closes.
 */
import { AllowedPrograms, HISTORY_LIMIT, programPolicy, proxyWithCredentials, readSettings, WorkspaceData, type AppSettings, type EnvironmentMark } from '../appdata/index.js';
import { HttpAgents, resolveProxyConfig, type HostLookup } from '../protocols/index.js';
import { loadCookies, saveCookies } from './cookies.js';
import { loadVariableSnapshot, type Face, type PreparedSettings } from '../request/index.js';
import { resolveEnvironment, RunVariables, type ActiveEnvironmentNotice } from '../variables/index.js';
import type { Workspace } from '../workspace/index.js';
import { loadClientTls } from '../request/client-tls-files.js';
import { describeSystemError } from '../support/system-error.js';
import { RunContract, ScriptHost, type RunContext, type SendGuard } from './context.js';

export interface ContextOptions {
  workspace: Workspace;
  /** Environment id (file name) or display name; default: the active environment on this computer. */
  environment?: string;
  /** Told the active environment's name when `environment` is absent and it applies (the CLI prints it). */
  onActiveEnvironment?: ActiveEnvironmentNotice;
  /** `--var key=value`: win over every other definition. */
  vars?: ReadonlyMap<string, string>;
  /** Overrides every request's timeout. */
  timeoutMs?: number;
  /** Turns TLS verification off for every request. */
  insecure?: boolean;
  /** Body files outside the workspace may be sent (else the application setting decides). */
  allowFilesOutside?: boolean;
  /** Programs not yet allowed on this computer may start, and are added to its allow-list (`--allow-programs`). */
  allowPrograms?: boolean;
  onAuthorizeUrl?: (url: string) => void;
  /** Nobody can sign in in a browser (a CI job): why, and what to do instead (OAuth2Options.noBrowser). */
  noBrowser?: string;
  /** This computer's data for the workspace; `false` for none (nothing read or written). Default: the data folder. */
  dataFolder?: WorkspaceData | false;
  /** Application settings; default: read from the data folder. */
  settings?: AppSettings;
  /** How host names are resolved; default: this computer's resolver. */
  lookup?: HostLookup;
  /** Where HTTP_PROXY and the like are read (`useSystemProxy`); default: this process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Who shows the run's messages: the app's page words remedies for the app; default the command line. */
  face?: Face;
  /** Refuses a send before anything leaves (`ferry mcp`'s rule for secret values). */
  guard?: SendGuard;
  /**
   * The place in the record of environment renames taken as `workspace` was read (session/environment-mark.ts):
   * the renames recorded since are followed when values are saved. Default: taken now, after the read.
   */
  environmentMark?: EnvironmentMark;
}

export async function openRunContext(options: ContextOptions, iterations = 1, signal?: AbortSignal): Promise<RunContext> {
  const { workspace } = options;
  const data = options.dataFolder === false ? undefined : options.dataFolder ?? new WorkspaceData(workspace.id, workspace.root);
  const settings = options.settings ?? (await readSettings());
  const environmentId = await resolveEnvironment(workspace, options.environment, data, options.onActiveEnvironment);

  const overrides: Partial<PreparedSettings> = {};
  if (options.timeoutMs !== undefined) overrides.timeoutMs = options.timeoutMs;
  if (options.insecure) overrides.verifyTls = false;

  const [snapshot, cookies, agents] = await Promise.all([
    loadVariableSnapshot(workspace, data, environmentId, options.environmentMark),
    loadCookies(data?.cookieJarFile),
    openHttpAgents(settings, options),
  ]);
  return {
    workspace,
    data,
    settings,
    overrides,
    allowFilesOutside: options.allowFilesOutside ?? settings.filesOutsideWorkspace,
    agents,
    programs: programPolicy(data ? new AllowedPrograms(workspace.id, workspace.root) : undefined, options.allowPrograms === true),
    cookies,
    variables: new RunVariables(snapshot, options.vars ?? new Map()),
    scripts: new ScriptHost({ timeoutMs: settings.scriptTimeoutMs, memoryBytes: settings.scriptMemoryMb * 1024 * 1024 }),
    contract: new RunContract(workspace.root),
    oauthTokens: new Map(),
    onAuthorizeUrl: options.onAuthorizeUrl,
    ...(options.noBrowser ? { noBrowser: options.noBrowser } : {}),
    ...(options.face ? { face: options.face } : {}),
    ...(options.guard ? { guard: options.guard } : {}),
    history: [],
    iterations,
    signal,
  };
}

/**
 * This computer's HTTP connection pools by its settings: the proxy (its password from the secret
 * store) or, with useSystemProxy, HTTP_PROXY / HTTPS_PROXY / NO_PROXY from `env`; caFiles and
 * client certificates. Runs, app sessions and URL imports (url-network.ts) all open them here.
 */
export async function openHttpAgents(settings: AppSettings, options: { lookup?: HostLookup; env?: NodeJS.ProcessEnv } = {}): Promise<HttpAgents> {
  const [proxy, tls] = await Promise.all([proxyWithCredentials(settings), loadClientTls(settings)]);
  return new HttpAgents({ lookup: options.lookup, proxy: resolveProxyConfig({ ...settings, proxy }, options.env), tls });
}

/**
 * Writes what the sends so far changed: cookies, the values scripts set, history (taken out of
 * the context once written). Returns a message for each that could not be saved: a data folder
 * that cannot be written must not pass silently, the next run would miss these.
 */
export async function saveRunContext(ctx: RunContext): Promise<string[]> {
  const mask = ctx.variables.mask;
  // The data folder keeps the last HISTORY_LIMIT sends: a longer run passes only those.
  const history = ctx.history.splice(0).slice(-HISTORY_LIMIT).map((entry) => mask.history(entry));
  const saved = await Promise.allSettled([saveCookies(ctx.cookies, ctx.data?.cookieJarFile), ctx.variables.persist(ctx.data), ctx.data?.addHistory(...history)]);
  const what = ['the cookies', 'the values scripts set', 'the history'];
  const problems: string[] = [];
  saved.forEach((outcome, i) => {
    // A system error in one line that names the file ("Could not read …/history.json: it is a folder, not a file (EISDIR).").
    if (outcome.status === 'rejected') problems.push(`${what[i]} of this run could not be saved in the data folder: ${describeSystemError(outcome.reason)?.message ?? (outcome.reason as Error)?.message ?? String(outcome.reason)}`);
  });
  return problems;
}

/** Ends the context's connections and its script sandbox. */
export async function closeRunContext(ctx: RunContext): Promise<void> {
  await Promise.allSettled([ctx.agents.close(), ctx.scripts.dispose()]);
}
