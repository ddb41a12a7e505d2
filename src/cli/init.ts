/** `ferry init [DIR] [--name NAME]`: creates a workspace. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { initWorkspace, WorkspaceError } from '../workspace/index.js';
import { workspaceOption, type CliContext } from './context.js';
import { CliError } from './exit-codes.js';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create a workspace: ferry.yaml, requests/ and environments/')
    .argument('[dir]', 'folder to make a workspace (created if needed; default: -w DIR, else the current folder)')
    .option('--name <name>', 'display name (default: the folder name)')
    .action(async (dir: string | undefined, options: { name?: string }, command: Command) => {
      // `ferry -w DIR init` means that folder too; given both ways, they must agree.
      const option = workspaceOption(command);
      if (dir !== undefined && option !== undefined && path.resolve(ctx.cwd, dir) !== path.resolve(ctx.cwd, option)) {
        throw new CliError(`init got two folders: ${dir} and -w ${option}. Give the folder once.`);
      }
      const target = path.resolve(ctx.cwd, dir ?? option ?? '.');
      const existing = await fs.lstat(target).catch(() => undefined);
      if (existing && !existing.isDirectory()) {
        throw new CliError(`${target} is a file, not a folder. Give a new or existing folder for the workspace.`);
      }
      try {
        const root = await initWorkspace(target, options.name);
        ctx.output.out(`Created a Ferry workspace in ${root}`);
      } catch (error) {
        if (error instanceof WorkspaceError) throw new CliError(error.message);
        throw error;
      }
    });
}
