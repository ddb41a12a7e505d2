/**
 * The traffic panel's send to a client that does not read what it is sent. A socket takes every
 * write and keeps what the client has not read yet in memory, without a limit: pushes to such a
 * client (a 1 MB message at a time) would pile up in the app's process. So a client with more than
 * MAX_PUSH_WAITING_BYTES still waiting is skipped, and the send says so (`PushOptions.notReading`);
 * it gets the next send once it has read what waits.
 */
import type { PushOptions } from '../../types.js';

export const MAX_PUSH_WAITING_BYTES = 1024 * 1024;

/** Whether the client `peer`, with `waiting` bytes unsent, is skipped by this send (and reported). */
export function notReading(peer: string, waiting: number, options: PushOptions): boolean {
  if (waiting <= MAX_PUSH_WAITING_BYTES) return false;
  options.notReading?.(peer, waiting);
  return true;
}
