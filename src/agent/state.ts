/**
 * What `ferry mcp` keeps between tool calls: the workspace folder, the servers it started, the
 * last answer of each saved request it sent (for check_contract) and the last run's report.
 *
 * Agents edit the workspace's files between calls, so each call reads the folder afresh and
 * sends in a session of its own, saved and closed when the call ends; cookies, values scripts
 * set and history carry over through this computer's data folder, as from one `ferry run` to the
 * next.
 */
import { WorkspaceData } from '../appdata/index.js';
import type { ContractResponse } from '../contract/index.js';
import type { JsonReport } from '../runner/index.js';
import { TrafficLog, type WorkspaceServers } from '../servers/index.js';
import { openWorkspaceForUse, Session, type SessionOptions } from '../session/index.js';
import type { SecretMask } from '../variables/index.js';
import { WorkspaceError, type Workspace } from '../workspace/index.js';
import { AgentError } from './errors.js';
import { workspaceSecretMask } from '../variables/workspace-mask.js';
import { chosenHosts, secretGuard } from './secret-hosts.js';

/** `environment` and `variables` as tools take them (`-e` and `--var` of the command line). */
export interface VariableChoice {
  environment?: string;
  variables?: Record<string, string>;
}

export class AgentState {
  /** Servers started by start_server, by id; stopped when `ferry mcp` ends. */
  readonly servers = new Map<string, WorkspaceServers>();
  /** Ids of servers a start_server call is starting now (not yet in `servers`). */
  readonly starting = new Set<string>();
  /** Set once `ferry mcp` ends: a server that finishes starting afterwards is stopped at once. */
  closed = false;
  /** One traffic log for every server started here. */
  readonly traffic = new TrafficLog();
  /** The last answer of each saved request sent by send_request, by its path (lower case). */
  readonly lastResponses = new Map<string, ContractResponse & { path: string; at: string }>();
  lastRun: JsonReport | undefined;
  private data: WorkspaceData | undefined;
  /** The hosts the workspace named when `ferry mcp` started: where secret values may go (secret-hosts.ts). */
  private hosts: Promise<Set<string>> | undefined;

  constructor(readonly root: string) {}

  /**
   * Reads the hosts secret values may go to, from the workspace as it is now: called when `ferry
   * mcp` starts, before the agent could edit a file in this session. A workspace (or data folder)
   * that cannot be read now names none: secret values then go nowhere, and the refusal says so.
   */
  rememberChosenHosts(): void {
    this.hosts ??= this.workspace().then((ws) => chosenHosts(ws, this.dataFolder(ws))).catch(() => new Set<string>());
  }

  /** The workspace as it is on disk now (an interrupted `ferry update` is finished first). */
  async workspace(): Promise<Workspace> {
    try {
      return await openWorkspaceForUse(this.root, { cwd: this.root });
    } catch (error) {
      if (error instanceof WorkspaceError) throw new AgentError(error.message);
      throw error;
    }
  }

  /** This computer's data folder for the workspace (read the workspace first). */
  dataFolder(ws: Workspace): WorkspaceData {
    this.data ??= new WorkspaceData(ws.id, ws.root);
    return this.data;
  }

  /** Every secret value stored for the workspace on this computer, read now (a send may have stored one). */
  mask(ws: Workspace): Promise<SecretMask> {
    return workspaceSecretMask(ws, this.dataFolder(ws));
  }

  /** Runs `work` in a new session on `ws`, saved and closed afterwards. */
  async withSession<T>(ws: Workspace, choice: VariableChoice, work: (session: Session) => Promise<T>): Promise<T> {
    this.rememberChosenHosts();
    const [hosts, mask] = await Promise.all([this.hosts!, this.mask(ws)]);
    const options: SessionOptions = {
      workspace: ws,
      // Secret values go only to the hosts the user chose.
      guard: secretGuard(hosts, mask),
      dataFolder: this.dataFolder(ws),
      ...(choice.environment !== undefined ? { environment: choice.environment } : {}),
      vars: new Map(Object.entries(choice.variables ?? {})),
      // Messages name the tools' arguments, not the command line's flags.
      face: 'agent',
      // No allowPrograms: only what a person allowed on this computer (`ferry programs allow`) starts.
    };
    const session = new Session(options);
    try {
      return await work(session);
    } finally {
      await session.close();
    }
  }

  /** Stops every server started here; resolves when their ports are free. */
  async close(): Promise<void> {
    this.closed = true;
    const handles = [...new Set(this.servers.values())];
    this.servers.clear();
    await Promise.allSettled(handles.map((h) => h.stop()));
  }
}
