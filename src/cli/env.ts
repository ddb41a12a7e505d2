/**
 * `ferry env ls|use`: the environments of the workspace and the one active on this computer
 * (spec 2.10). `run`, `serve` and `load` use the active one when `-e` is absent. Parsing and
 * printing only: the core is variables/environment.ts.
 */
import type { Command } from 'commander';
import { WorkspaceData } from '../appdata/index.js';
import { listEnvironments, RunError, useEnvironment } from '../variables/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT_CODES_HELP } from './exit-codes.js';
import { paint } from './output.js';
import { examples } from './examples.js';

export function registerEnv(program: Command, ctx: CliContext): void {
  const env = program
    .command('env')
    .description('list the environments and choose the active one (kept on this computer, used when -e is absent)')
    .addHelpText('after', examples([["ferry env ls", "the environments, the active one marked"], ["ferry env use staging", "make staging the default for -e"]]));
  env
    .command('ls')
    .description('list the environments, the active one marked')
    .addHelpText('after', examples([["ferry env ls", "the environments, the active one marked"], ["ferry env ls --json", "as JSON"]]))
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const rows = await listEnvironments(ws, new WorkspaceData(ws.id, ws.root));
      if (options.json) {
        ctx.output.out(JSON.stringify(rows, null, 2));
        return;
      }
      if (rows.length === 0) {
        ctx.output.out('No environments. Add one as environments/NAME.yaml.');
        return;
      }
      const c = paint(ctx.output);
      const width = Math.max(...rows.map((r) => r.id.length));
      for (const row of rows) {
        const name = row.name === row.id ? '' : `  ${c.dim(row.name)}`;
        ctx.output.out(`${row.active ? c.green('*') : ' '} ${row.id.padEnd(width)}${name}${row.active ? `  ${c.dim('(active)')}` : ''}`);
      }
    });

  env
    .command('use')
    .description('make an environment (id or name) the active one on this computer')
    .addHelpText('after', examples([["ferry env use staging", "use staging when -e is absent"], ["ferry env use --none", "no active environment"]]))
    .argument('[name]', 'environment id (file name) or display name')
    .option('--none', 'no active environment')
    .action(async (name: string | undefined, options: { none?: boolean }, command: Command) => {
      if ((name === undefined) === !options.none) throw new CliError('Name one environment, or give --none for no active environment.');
      const ws = await openWorkspaceFor(command, ctx);
      try {
        const id = await useEnvironment(ws, new WorkspaceData(ws.id, ws.root), name);
        ctx.output.err(id ? `ferry: ${id} is the active environment on this computer; run, serve and load use it without -e.` : 'ferry: no active environment on this computer.');
      } catch (error) {
        if (error instanceof RunError) throw new CliError(error.message);
        throw error;
      }
    });
  for (const sub of env.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}
