/**
 * `ferry env ls|use|new|rename|rm|reset`: the environments of the workspace and the one active on this
 * computer (spec 2.10). `run`, `serve` and `load` use the active one when `-e` is absent. Parsing
 * and printing only: the core is variables/environment.ts and variables/manage-environments.ts.
 */
import type { Command } from 'commander';
import { WorkspaceData } from '../appdata/index.js';
import { listEnvironments, NoEnvironmentError, RunError, useEnvironment } from '../variables/index.js';
// Not through variables/index.js, which every run loads: only `ferry env` changes environments.
import { createEnvironment, deleteEnvironment, renameEnvironment } from '../variables/manage-environments.js';
import { forgetScriptValues } from '../variables/script-values.js';
import { WorkspaceBusyError } from '../appdata/index.js';
import { ENVIRONMENTS_DIR, MAX_NAME_LENGTH, NameError, WorkspaceError } from '../workspace/index.js';
import { environmentProblems } from './environment-problems.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT_CODES_HELP } from './exit-codes.js';
import { escapedOutput, paint } from './output.js';
import { examples } from './examples.js';

export function registerEnv(program: Command, ctx: CliContext): void {
  const env = program
    .command('env')
    .description('list, add, rename and delete environments, choose the active one (kept on this computer, used when -e is absent), and forget the values scripts set')
    .addHelpText('after', examples([["ferry env ls", "the environments, the active one marked"], ["ferry env use staging", "make staging the default for -e"], ["ferry env new Staging --copy-of Local", "a new environment with Local's variables"]]));
  env
    .command('ls')
    .description('list the environments, the active one marked')
    .addHelpText('after', examples([["ferry env ls", "the environments, the active one marked"], ["ferry env ls --json", "as JSON"]]))
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const rows = await listEnvironments(ws, new WorkspaceData(ws.id, ws.root));
      const problems = environmentProblems(ws, rows.map((r) => r.id));
      if (options.json) {
        ctx.output.out(JSON.stringify(rows, null, 2));
        for (const line of problems) ctx.output.err(line);
        return;
      }
      if (rows.length === 0) {
        ctx.output.out(problems.length ? `No environment can be used: every file in ${ENVIRONMENTS_DIR}/ has a problem (below).` : 'No environments. Add one with `ferry env new NAME` (or as environments/NAME.yaml).');
        for (const line of problems) ctx.output.err(line);
        return;
      }
      for (const line of problems) ctx.output.err(line);
      const c = paint(ctx.output);
      const width = Math.max(...rows.map((r) => r.id.length));
      for (const row of rows) {
        // The id is padded only when a name or the mark follows it: no trailing spaces on a row.
        const after = [row.name === row.id ? '' : c.dim(row.name), row.active ? c.dim('(active)') : ''].filter(Boolean);
        ctx.output.out(`${row.active ? c.green('*') : ' '} ${after.length ? `${row.id.padEnd(width)}  ${after.join('  ')}` : row.id}`);
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
        ctx.output.err(id ? `ferry: ${id} is the active environment on this computer; run, serve, load and export use it without -e, and so do the app and ferry mcp.` : 'ferry: no active environment on this computer.');
      } catch (error) {
        if (error instanceof RunError) throw new CliError(error.message);
        throw error;
      }
    });
  env
    .command('new')
    .description('add an environment (environments/NAME.yaml), empty or a copy of another')
    .addHelpText('after', examples([["ferry env new Staging", "environments/Staging.yaml, no variables"], ["ferry env new 'QA 2' --copy-of QA", "QA's variables, and its secret values on this computer"]]))
    .argument('<name>', `display name (1–${MAX_NAME_LENGTH} characters); the file name comes from it`)
    .option('--copy-of <env>', "start with this environment's variables (id or name), secret values included")
    .action(async (name: string, options: { copyOf?: string }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const id = await managing(() => createEnvironment(ws, new WorkspaceData(ws.id, ws.root), name, { copyOf: options.copyOf, writer: 'ferry env new' }));
      ctx.output.err(`ferry: added environments/${id}.yaml${options.copyOf !== undefined ? ` (a copy of ${options.copyOf})` : ''}.`);
    });

  env
    .command('rename')
    .description('rename an environment: its file follows, and so do its secret values, script values and active mark on this computer')
    .addHelpText('after', examples([["ferry env rename staging 'Staging EU'", "environments/Staging EU.yaml"]]))
    .argument('<env>', 'environment id (file name) or display name')
    .argument('<name>', `the new display name (1–${MAX_NAME_LENGTH} characters)`)
    .action(async (wanted: string, name: string, _options: unknown, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const id = await managing(() => renameEnvironment(ws, new WorkspaceData(ws.id, ws.root), wanted, name, { writer: 'ferry env rename' }));
      ctx.output.err(`ferry: renamed to "${name}" (environments/${id}.yaml).`);
    });

  env
    .command('rm')
    .description("delete an environment's file, and its secret and script values on this computer")
    .addHelpText('after', examples([["ferry env rm old-staging", "deletes environments/old-staging.yaml"]]))
    .argument('<env>', 'environment id (file name) or display name')
    .action(async (wanted: string, _options: unknown, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const data = new WorkspaceData(ws.id, ws.root);
      const outcome = await managing(() => deleteEnvironment(ws, data, wanted, { writer: 'ferry env rm' }).then(
        (id) => ({ id }),
        (error: unknown) => {
          if (error instanceof NoEnvironmentError) return { missing: error };
          throw error;
        },
      ));
      // Removing what is not there succeeds with a notice, as every remove command (docs/running.md, exit codes).
      if ('missing' in outcome) {
        ctx.output.err(`ferry: No environment "${outcome.missing.wanted}"; nothing deleted. ${outcome.missing.known}`);
        return;
      }
      ctx.output.err(`ferry: deleted environments/${outcome.id}.yaml.`);
    });

  env
    .command('reset')
    .description('forget the values scripts set on this computer (pm.environment.set…), which win over the files in later runs: one environment\'s, or all')
    .addHelpText('after', examples([["ferry env reset Local", "the values scripts set in Local"], ["ferry env reset", "every value scripts set: environments, workspace variables, globals"]]))
    .argument('[env]', 'environment id (file name) or display name; none = every value scripts set in the workspace')
    .action(async (wanted: string | undefined, _options: unknown, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const forgotten = await managing(() => forgetScriptValues(ws, new WorkspaceData(ws.id, ws.root), wanted));
      // Names come from scripts and environment files: escaped wherever the lines go (a log read later on a terminal).
      const err = escapedOutput(ctx.output).err;
      // Nothing to forget succeeds with a notice, as removing what is not there (docs/running.md, exit codes).
      if (forgotten.length === 0) {
        err(`ferry: scripts have set no values ${wanted === undefined ? 'in this workspace' : `in environment ${wanted}`} on this computer; nothing to forget.`);
        return;
      }
      for (const { where, names } of forgotten) err(`ferry: forgot the values scripts set in ${where}: ${names.join(', ')}.`);
      err('ferry: the next run starts from the files\' values (secret values scripts set stay: ferry secret unset removes them).');
    });

  for (const sub of env.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}

/** Runs a change of environments; what the user can fix becomes a CliError (exit 2). */
async function managing<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (error instanceof RunError || error instanceof NameError || error instanceof WorkspaceBusyError || error instanceof WorkspaceError) throw new CliError(error.message);
    throw error;
  }
}
