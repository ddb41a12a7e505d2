/**
 * The `ferry` command: parsing and printing only. Each command lives in its own file and calls
 * the core; `main` returns the exit code so tests and the app can call it directly. Only the
 * module of the command being run is imported (the table is in commands.ts): start-up is the
 * cost of that one command, not of all of them.
 */
import { Command, CommanderError, Help } from 'commander';
import type { CliContext } from './context.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { COMMANDS, commandNameOf } from './commands.js';
import { processOutput, type Output } from './output.js';
import { systemErrorMessage } from './system-error.js';
import { packageVersion } from '../support/package-root.js';

/**
 * The program for `argv`: the command it runs is registered from its module, every other one
 * as a row of the help only. `argv` omitted (or naming no command): help rows only; `all`: every
 * command's module (for tests that look at all of them).
 */
export async function buildProgram(ctx: CliContext, argv: readonly string[] = [], options: { all?: boolean } = {}): Promise<Command> {
  const program = new Command('ferry')
    .description('Ferry: a local-first API workbench. Requests, imports, mocks and tests that live in your git repository.')
    .version(packageVersion(), '-V, --version')
    .option('-w, --workspace <dir>', 'the workspace folder (default: found by walking up from the current folder)')
    .addHelpText('after', `\n${EXIT_CODES_HELP}`)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => ctx.output.out(text.replace(/\n$/, '')),
      writeErr: (text) => ctx.output.err(text.replace(/\n$/, '')),
      // commander says "error: unknown option"; every other message of Ferry starts with "ferry:".
      outputError: (text, write) => write(text.replace(/^error: /, 'ferry: ')),
    });
  const running = commandNameOf(argv);
  const terms = new Map<Command, string>();
  const all = options.all || COMMANDS.some((entry) => entry.name === running && entry.everyCommand);
  for (const entry of COMMANDS) {
    if (all || entry.name === running) {
      (await entry.load())(program, ctx);
    } else if (!entry.hidden) {
      const row = program.command(entry.name).description(entry.description).allowUnknownOption().allowExcessArguments();
      row.action(() => {
        throw new Error(`the module of \`ferry ${entry.name}\` was not loaded for ${JSON.stringify(argv)}`);
      });
      terms.set(row, entry.term);
    }
  }
  // A row not loaded has no options or arguments of its own: the help shows the table's term.
  program.configureHelp({ subcommandTerm: (command) => terms.get(command) ?? new Help().subcommandTerm(command) });
  for (const command of program.commands) {
    command.exitOverride().addHelpText('after', `\n${EXIT_CODES_HELP}`).configureOutput(program.configureOutput());
  }
  return program;
}

export async function main(argv: string[], options: { output?: Output; cwd?: string; stdin?: CliContext['stdin'] } = {}): Promise<number> {
  const ctx: CliContext = { output: options.output ?? processOutput(), cwd: options.cwd ?? process.cwd(), exitCode: EXIT.ok, stdin: options.stdin };
  // `ferry help NAME [SUB]`: as `ferry NAME [SUB] --help` (commander's own `help` knew one level
  // only, so `ferry help env use` showed env's help); NAME of no command is refused as `ferry NAME`
  // is, with the nearest spelling (commander printed the whole help).
  if (argv[0] === 'help' && argv[1] !== undefined && !argv[1].startsWith('-')) {
    argv = COMMANDS.some((entry) => entry.name === argv[1]) ? [...argv.slice(1), '--help'] : [argv[1]];
  }
  const program = await buildProgram(ctx, argv);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version are successes; everything else commander rejects is bad usage.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof CliError) {
      ctx.output.err(`ferry: ${error.message}`);
      return error.exitCode;
    }
    // Another writer (an import, an update, the app) holds the workspace: worth trying again.
    // Matched by name: importing appdata here would load it for every command's --help.
    if ((error as Error)?.name === 'WorkspaceBusyError') {
      ctx.output.err(`ferry: ${(error as Error).message}`);
      return EXIT.failed;
    }
    // A file of this computer's data folder that cannot be used as it is (a link, a damaged key), or
    // a file that cannot be written (read-only, in a read-only folder): said in one line.
    if ((error as Error)?.name === 'DataFolderError' || (error as Error)?.name === 'FileWriteError') {
      ctx.output.err(`ferry: ${(error as Error).message}`);
      return EXIT.usage;
    }
    // A stored application setting that cannot be used (a caFiles file deleted since): bad input, said in one line.
    if ((error as Error)?.name === 'SettingsError') {
      ctx.output.err(`ferry: ${(error as Error).message}`);
      return EXIT.usage;
    }
    const system = systemErrorMessage(error);
    if (system) {
      ctx.output.err(`ferry: ${system.message}`);
      return system.exitCode;
    }
    ctx.output.err(`ferry: ${(error as Error).stack ?? String(error)}`);
    return EXIT.failed;
  } finally {
    // However the command ended: what it made in advance and left unused goes (CliContext.atEnd).
    for (const task of ctx.atEnd ?? []) await task().catch(() => {});
  }
}
