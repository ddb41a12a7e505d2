/**
 * Clients that do not read what they are sent. A socket takes every write and keeps what the
 * client has not read yet in memory, without a limit: pushes to such a client (a 1 MB message at a
 * time) would pile up in the app's process. So for the traffic panel's send, a client with more
 * than MAX_PUSH_WAITING_BYTES still waiting is skipped, and the send says so
 * (`PushOptions.notReading`); it gets the next send once it has read what waits.
 */
import type { PushOptions } from '../../types.js';

export const MAX_PUSH_WAITING_BYTES = 1024 * 1024;

/**
 * A stream the server writes to on its own (Socket.IO's queue, an SSE stream, an MCP HTTP+SSE
 * session's answers) is closed, its client gone for good, once more than this waits unsent: the
 * client does not read, and all of it would stay in memory.
 */
export const MAX_UNREAD_STREAM_BYTES = 8 * 1024 * 1024;

/** Whether the client `peer`, with `waiting` bytes unsent, is skipped by this send (and reported). */
export function notReading(peer: string, waiting: number, options: PushOptions): boolean {
  if (waiting <= MAX_PUSH_WAITING_BYTES) return false;
  options.notReading?.(peer, waiting);
  return true;
}
