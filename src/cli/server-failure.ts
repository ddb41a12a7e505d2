import type { ServerFailure } from '../servers/index.js';

/**
 * A server that could not start, for `ferry serve` and `ferry run --start-servers` alike, read as
 * the CLI's other errors (`ferry: ...`); a name matching no file under servers/ is said as it is.
 * Type-only import: `ferry run` loads the servers only when asked to start them.
 */
export function failureLine(failure: ServerFailure): string {
  return failure.unknown ? `ferry: ${failure.message}` : `ferry: server ${failure.id} did not start: ${failure.message}`;
}
