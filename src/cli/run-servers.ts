/**
 * `ferry run --start-servers`: the workspace's autoStart servers, started before the run and
 * stopped after it. A run goes on only once every one of them is up (as `docker compose up
 * --wait`, or a test runner whose global setup failed): one that cannot start stops the run before
 * any request is sent (exit 2), since requests that pass against whatever holds its port would
 * test nothing the run was asked to. The one exception: a `ferry serve` or `ferry app` of this
 * workspace that already serves the same file (docs/running.md, --start-servers).
 * The servers are loaded only here, when asked for: a run without the flag reads none of them.
 */
import type { Workspace } from '../workspace/index.js';
import type { ServerFailure, WorkspaceServers } from '../servers/index.js';
import type { CliContext } from './context.js';
import { CliError } from './exit-codes.js';
import { escapedOutput } from './output.js';
import { noAutoStartServer, notStartedRefusal, servedAlreadyNotice } from './server-failure.js';

export async function startAutoServers(
  ws: Workspace,
  environment: string | undefined,
  vars: Map<string, string>,
  allowFilesOutside: boolean,
  ctx: CliContext,
): Promise<{ stop(): Promise<void> }> {
  const { startWorkspaceServers, ServerError } = await import('../servers/index.js');
  // Recorded in the data folder as this run's, so a `ferry serve` refused their port names it.
  const { servingAs, servesAlready } = await import('../servers/serving-processes.js');
  servingAs('ferry run --start-servers');
  // The servers see the variables the run sees: the same environment (by id or name, else the
  // active one on this computer), script-set values, --var.
  let handle: WorkspaceServers;
  try {
    handle = await startWorkspaceServers(ws, { autoStartOnly: true, env: environment, vars, allowFilesOutsideWorkspace: allowFilesOutside, watch: false });
  } catch (error) {
    if (error instanceof ServerError) throw new CliError(error.message);
    throw error;
  }
  const served: Array<Required<Pick<ServerFailure, 'id' | 'heldBy'>>> = [];
  const failed: ServerFailure[] = [];
  for (const failure of handle.failures) {
    const entry = ws.servers.find((s) => s.id === failure.id);
    const holder = failure.heldBy;
    if (entry && holder && servesAlready(holder, { file: entry.file, kind: entry.value.kind, workspace: ws.root })) served.push({ id: failure.id, heldBy: holder });
    else failed.push(failure);
  }
  if (failed.length > 0) {
    // Those that did start go again: nothing is left listening, and the refusal is the run's last word.
    await handle.stop();
    throw new CliError(notStartedRefusal(failed));
  }
  // Server ids and messages name files a hand edit may give an ESC or U+202E: escaped into a pipe
  // or a CI log too, as `ferry serve` prints them (docs/servers.md, the traffic log).
  const err = escapedOutput(ctx.output).err;
  for (const { id, heldBy } of served) err(servedAlreadyNotice(id, heldBy));
  for (const server of handle.servers) {
    err(`Started server ${server.id} at ${server.clientUrl}`);
    const exposed = handle.exposed.find((notice) => notice.server === server.id);
    if (exposed) err(`ferry: ${exposed.message}`);
    const fields = handle.unknownFields.find((notice) => notice.server === server.id);
    if (fields) err(`ferry: ${fields.message}`);
  }
  if (handle.servers.length === 0 && served.length === 0) err(noAutoStartServer(ws));
  return handle;
}
