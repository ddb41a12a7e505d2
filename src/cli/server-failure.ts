import type { ServerFailure } from '../servers/index.js';
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
