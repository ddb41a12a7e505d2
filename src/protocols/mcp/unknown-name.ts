/**
 * A call that failed (or a tool that answered isError, as servers built with the SDK answer an
 * unknown tool) is checked against the server's list, to name a tool or prompt it does not have
 * with the ones it has. The listing only serves the message: it may take at most `NAME_CHECK_MS`
 * (or the request's own time limit, if shorter), and stops when `signal` does; a server that does
 * not answer it leaves the failure as it was (the SDK's own 60 s limit held the answer back).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { SendErrorKind } from '../send-error.js';
import { SendError } from '../send-error.js';

const NAME_CHECK_MS = 5000;

export async function unknownName(client: Client, what: 'tool' | 'prompt', name: string, limits: { timeoutMs: number; signal?: AbortSignal }, kind: SendErrorKind): Promise<SendError | undefined> {
  const options = { timeout: limits.timeoutMs > 0 ? Math.min(limits.timeoutMs, NAME_CHECK_MS) : NAME_CHECK_MS, ...(limits.signal ? { signal: limits.signal } : {}) };
  const listed = what === 'tool' ? client.listTools(undefined, options).then((l) => l.tools) : client.listPrompts(undefined, options).then((l) => l.prompts);
  const known = await listed.then((items) => items.map((t) => t.name)).catch(() => undefined);
  if (!known || known.includes(name)) return undefined;
  return new SendError(`the MCP server has no ${what} "${name}"; it has: ${known.join(', ') || '(none)'}.`, kind);
}
