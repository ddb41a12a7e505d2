/**
 * `ferry programs ls|allow|revoke`: the programs this workspace may start on this computer
 * (spec 2.8, 5.4; MCP servers over stdio). `ferry run --allow-programs` adds those a run needs;
 * here they are listed, allowed ahead of a run, or taken back.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { AllowedPrograms, AmbiguousProgramIdError, type AllowedProgram } from '../appdata/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT_CODES_HELP } from './exit-codes.js';
import { examples } from './examples.js';

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

function describe(entry: AllowedProgram, root: string): string {
  const cwd = path.relative(root, entry.cwd) || '.';
  return `${entry.id}  ${entry.command}  (folder ${cwd}${entry.envNames.length ? `; env ${entry.envNames.join(', ')}` : ''}; allowed ${entry.allowedAt.slice(0, 10)})`;
}

export function registerPrograms(program: Command, ctx: CliContext): void {
  const programs = program.command('programs').description('programs this workspace may start on this computer (MCP servers over stdio)').addHelpText('after', examples([["ferry programs ls", "the programs allowed for this workspace"], ["ferry programs allow \"node mcp-server.js\"", "allow one"]]));

  programs
    .command('ls')
    .description('list the allowed programs')
    .addHelpText('after', examples([["ferry programs ls", "the programs allowed for this workspace"], ["ferry programs ls --json", "as JSON"]]))
    .option('--json', 'print the list as JSON (environment variables by name only)')
    .action(async (flags: { json?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const list = await new AllowedPrograms(ws.id, ws.root).list();
      if (flags.json) {
        // The folder as the text shows it; no `key` (a hash of the environment's values).
        ctx.output.out(JSON.stringify(list.map((entry) => ({ id: entry.id, command: entry.command, cwd: path.relative(ws.root, entry.cwd) || '.', envNames: entry.envNames, allowedAt: entry.allowedAt })), null, 2));
        return;
      }
      if (list.length === 0) ctx.output.out('No programs are allowed for this workspace on this computer.');
      for (const entry of list) ctx.output.out(describe(entry, ws.root));
      ctx.exitCode = 0;
    });

  programs
    .command('allow')
    .description('allow a program: its exact command line, folder and environment, as the request has them (variables filled)')
    .addHelpText('after', examples([["ferry programs allow \"node mcp-server.js\"", "allow this command line"], ["ferry programs allow \"python server.py\" --cwd tools --env MODE=dev", "with its folder and environment"]]))
    .argument('<command>', 'the command line, quoted as one argument')
    .option('--cwd <dir>', 'the start folder, relative to the workspace folder (default: the workspace folder)')
    .option('--env <key=value>', 'an environment variable of the request (repeatable)', collect)
    .action(async (line: string, flags: { cwd?: string; env?: string[] }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const env: Record<string, string> = {};
      for (const pair of flags.env ?? []) {
        const eq = pair.indexOf('=');
        if (eq <= 0) throw new CliError(`--env ${pair}: give KEY=VALUE.`);
        env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      const entry = await new AllowedPrograms(ws.id, ws.root).allow({ command: line.trim(), cwd: path.resolve(ws.root, flags.cwd ?? '.'), env });
      ctx.output.out(`Allowed on this computer: ${describe(entry, ws.root)}`);
      ctx.exitCode = 0;
    });

  programs
    .command('revoke')
    .description('take back an allowed program, by the id `ferry programs ls` shows')
    .addHelpText('after', examples([["ferry programs revoke 3f2a", "take back one by id"], ["ferry programs revoke --all", "take back every one"]]))
    .argument('[id]', 'the id (or its start)')
    .option('--all', 'take back every program of this workspace')
    .action(async (id: string | undefined, flags: { all?: boolean }, command: Command) => {
      if (!id && !flags.all) throw new CliError('give the id of the program to take back (ferry programs ls shows them), or --all.');
      const ws = await openWorkspaceFor(command, ctx);
      const removed = await new AllowedPrograms(ws.id, ws.root).revoke(flags.all ? { all: true } : id!).catch((error: unknown) => {
        throw error instanceof AmbiguousProgramIdError ? new CliError(error.message) : error;
      });
      // Removing what is not there succeeds with a notice, as every remove command (docs/running.md, exit codes).
      if (removed.length === 0) {
        ctx.output.err(flags.all ? 'ferry: no program is allowed for this workspace; nothing revoked.' : `ferry: no allowed program has the id ${id}; nothing revoked (ferry programs ls lists them).`);
      }
      for (const entry of removed) ctx.output.out(`Revoked: ${describe(entry, ws.root)}`);
      ctx.exitCode = 0;
    });
  // Subcommands exit through main (not process.exit) and show the exit codes, as the others do.
  for (const sub of programs.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}
