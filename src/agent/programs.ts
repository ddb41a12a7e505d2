/**
 * A refused program, as the agent reads it. The command line tells a person to rerun with
 * `--allow-programs`; an agent has a shell and could do that itself, so `ferry mcp` says instead
 * to ask the user (docs/agents.md, "Safety": allowing a program is left to a person).
 */
import { PROGRAM_ALLOW_HINT } from '../protocols/index.js';

const AGENT_HINT = 'ask the user to check this command and allow it with `ferry programs allow` in this workspace; `ferry mcp` never allows programs itself, and an agent should not either.';

/** `error` with the command line's way to allow a program replaced by the agent's. */
export function refusalForAgent<T extends string | null | undefined>(error: T): T {
  return (typeof error === 'string' ? error.replaceAll(PROGRAM_ALLOW_HINT, AGENT_HINT) : error) as T;
}

/** Whether `error` says a program was refused (after `refusalForAgent`). */
export function isRefusedProgram(error: string | null | undefined): boolean {
  return typeof error === 'string' && error.includes(AGENT_HINT);
}
