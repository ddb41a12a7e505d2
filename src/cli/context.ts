/** What every command gets: the output and the global options. */
import type { Command } from 'commander';
import { openWorkspaceFrom, WorkspaceError, type Workspace } from '../workspace/index.js';
import { CliError } from './exit-codes.js';
import type { Output } from './output.js';

export interface CliContext {
  output: Output;
  cwd: string;
  /** Set by the action when it ends; main returns it. */
  exitCode: number;
}

/** The global `-w, --workspace DIR` of the root command. */
export function workspaceOption(command: Command): string | undefined {
  let current: Command | null = command;
  while (current?.parent) current = current.parent;
  return (current?.opts() as { workspace?: string }).workspace;
}

export async function openWorkspaceFor(command: Command, ctx: CliContext): Promise<Workspace> {
  try {
    return await openWorkspaceFrom(workspaceOption(command), ctx.cwd);
  } catch (error) {
    if (error instanceof WorkspaceError) throw new CliError(error.message);
    throw error;
  }
}
