import type { ServerFailure } from '../servers/index.js';
import type { ServingHolder } from '../servers/serving-processes.js';
import { terminalLine } from '../support/terminal-text.js';
import { unreadEntryFiles, type Workspace } from '../workspace/index.js';

/**
 * A server that could not start, for `ferry serve` and `ferry run --start-servers` alike, read as
 * the CLI's other errors (`ferry: ...`); a name matching no file under servers/ is said as it is.
 * Type-only import: `ferry run` loads the servers only when asked to start them.
 */
export function failureLine(failure: ServerFailure): string {
  return failure.unknown ? `ferry: ${failure.message}` : `ferry: server ${failure.id} did not start: ${failure.message}`;
}

/**
 * `ferry run --start-servers` found nothing to start: said once, so that the run's "connection
 * refused" that follows has its reason next to it.
 */
export function noAutoStartServer(ws: Workspace): string {
  const files = ws.servers.map((s) => s.file);
  const broken = [...unreadEntryFiles(ws, 'server').values()].map((w) => w.file);
  if (files.length === 0 && broken.length === 0) return 'ferry: --start-servers: this workspace has no servers (add one under servers/).';
  const unreadable = broken.length > 0 ? ` ${broken.join(', ')} could not be read (see ferry ls).` : '';
  const none = files.length > 0 ? ` No server has autoStart: true (${files.join(', ')}); set it on the ones the run needs.` : '';
  return `ferry: --start-servers: no server started.${none}${unreadable}`;
}

/**
 * `ferry run --start-servers` refused: servers marked autoStart did not start, so nothing was sent.
 * Each named with its reason in the words `ferry serve` uses; escaped here, as the message is
 * printed as it is (and is the JSON error object's) where the run's other lines are escaped.
 */
export function notStartedRefusal(failures: readonly ServerFailure[]): string {
  const why = (failure: ServerFailure) => terminalLine(failure.message);
  if (failures.length === 1) return `--start-servers: server ${terminalLine(failures[0]!.id)} did not start, so no request was sent: ${why(failures[0]!)}`;
  const lines = failures.map((failure) => `  server ${terminalLine(failure.id)}: ${why(failure)}`);
  return [`--start-servers: ${failures.length} servers did not start, so no request was sent:`, ...lines].join('\n');
}

/** A server `ferry run --start-servers` did not start because a `ferry serve` or `ferry app` of this workspace serves its file already (`servesAlready`). */
export function servedAlreadyNotice(id: string, holder: ServingHolder): string {
  return `ferry: server ${id} was not started: ${holder.file} is already served by ${holder.command} (process ${holder.pid}) of this workspace; using it (its answers use that process's environment and --var values, not this run's).`;
}
