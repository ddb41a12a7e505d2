/** What an SSE request sends unless it says otherwise (kept apart from sse.ts, so the kind table loads no client). */
import type { PreparedRequest } from '../../request/prepared.js';

/**
 * The prepared request with what an event source sends unless the request sets it: `Accept:
 * text/event-stream`, and `Accept-Encoding: identity` (events are read as they arrive, and a
 * compressed stream could not be read that way).
 */
export function withStreamHeaders(prepared: PreparedRequest): PreparedRequest {
  const has = (name: string) => prepared.headers.some((h) => h.name.toLowerCase() === name);
  const headers = [...prepared.headers];
  if (!has('accept')) headers.push({ name: 'Accept', value: 'text/event-stream' });
  if (!has('accept-encoding')) headers.push({ name: 'Accept-Encoding', value: 'identity' });
  return { ...prepared, headers };
}
