/**
 * Every tool's result goes through `answer`: the workspace is read, the work done, and the value
 * (or the error) masked with every secret value of the workspace before it leaves as text. An
 * error is a tool error (`isError: true`) whose text says what went wrong and what to do.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { TargetError } from '../codegen/index.js';
import { ImportError } from '../importers/index.js';
import { PrepareError } from '../request/index.js';
import { RunError, SelectError } from '../runner/index.js';
import { ServerError } from '../servers/index.js';
import type { SecretMask } from '../variables/index.js';
import type { Workspace } from '../workspace/index.js';
import { AgentError } from './errors.js';
import { maskDeep, maskText } from '../variables/workspace-mask.js';
import type { AgentState } from './state.js';

export interface ToolContext {
  ws: Workspace;
  /** Adds values to mask in this result (credentials in a form the stored secrets do not show). */
  alsoMask(add: (mask: SecretMask) => void): void;
}

/** Errors whose message is for the user as it is (the same ones the CLI prints without a stack). */
const USER_ERRORS = [AgentError, RunError, SelectError, PrepareError, TargetError, ImportError, ServerError];

function messageOf(error: unknown): string {
  if (USER_ERRORS.some((type) => error instanceof type)) return (error as Error).message;
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code && (error as Error).message) return (error as Error).message;
  return `Ferry failed inside (a bug; please report it): ${(error as Error)?.stack ?? String(error)}`;
}

export async function answer(state: AgentState, work: (ctx: ToolContext) => Promise<unknown>): Promise<CallToolResult> {
  let ws: Workspace | undefined;
  const extra: Array<(mask: SecretMask) => void> = [];
  const maskNow = async (): Promise<SecretMask | undefined> => {
    if (!ws) return undefined;
    // Read after the work: a script may have stored a secret value during it.
    const mask = await state.mask(ws);
    for (const add of extra) add(mask);
    return mask;
  };
  try {
    ws = await state.workspace();
    const value = await work({ ws, alsoMask: (add) => void extra.push(add) });
    const mask = await maskNow();
    const masked = mask ? maskDeep(value, mask) : value;
    return { content: [{ type: 'text', text: typeof masked === 'string' ? masked : JSON.stringify(masked, null, 2) }] };
  } catch (error) {
    const message = messageOf(error);
    const mask = await maskNow().catch(() => undefined);
    return { isError: true, content: [{ type: 'text', text: mask ? maskText(message, mask) : message }] };
  }
}
