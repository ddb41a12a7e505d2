/** `ferry init [DIR] [--name NAME]`: creates a workspace. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { initWorkspace, WorkspaceError } from '../workspace/index.js';
import { workspaceOption, type CliContext } from './context.js';
import { CliError } from './exit-codes.js';
import { examples } from './examples.js';

export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('create a workspace: ferry.yaml, requests/ and environments/')
    .addHelpText('after', examples([["ferry init", "make the current folder a workspace"], ["ferry init api-tests --name \"API tests\"", "a new folder with a display name"]]))
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
        ctx.output.out(`Created a Ferry workspace in ${root}\n\n${nextSteps(root, ctx.cwd)}`);
      } catch (error) {
        if (error instanceof WorkspaceError) throw new CliError(error.message);
        throw error;
      }
    });
}

/** What a new user does next, with the folder to go to when it is not the current one. */
export function nextSteps(root: string, cwd: string): string {
  const relative = path.relative(cwd, root);
  const go = relative === '' ? [] : [[`cd ${/[\s'"$`\\]/.test(relative) ? JSON.stringify(relative) : relative}`, 'go to the workspace']];
  const steps = [
    ...go,
    ['ferry import FILE', 'bring in a Postman collection, an OpenAPI document or a cURL command'],
    ['ferry ls', 'list the requests, environments and servers'],
    ['ferry run', 'run every request with its tests (or name a folder or request)'],
    ['ferry app', 'open the app in your browser to edit and send requests'],
  ];
  const width = Math.max(...steps.map(([command]) => command!.length));
  return ['Next steps:', ...steps.map(([command, what]) => `  ${command!.padEnd(width)}  ${what}`), '', 'Commit the folder to git: requests are plain YAML files; secrets stay on this computer.'].join('\n');
}
