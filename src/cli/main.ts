/**
 * The `ferry` command: parsing and printing only. Each command lives in its own file and calls
 * the core; `main` returns the exit code so tests and the app can call it directly. Only the
 * module of the command being run is imported (the table is in commands.ts): start-up is the
 * cost of that one command, not of all of them.
 */
import { Command, CommanderError, Help } from 'commander';
import type { CliContext } from './context.js';
import { CliError, endHeldSignals, EXIT, EXIT_CODES_HELP, holdSignals, type HeldSignals } from './exit-codes.js';
import { COMMANDS, commandIndexOf, commandNameOf } from './commands.js';
import { processOutput, type Output } from './output.js';
import { systemErrorMessage } from './system-error.js';
import { reworded } from './usage-errors.js';
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
      // A missing argument or unknown subcommand is reworded to name the command (usage-errors.ts).
      outputError: (text, write) => write(withPrefixSuggestion(reworded(text.replace(/^error: /, 'ferry: '), runningCommand(program, argv)), () => runningCommand(program, argv) ?? program)),
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

export async function main(argv: string[], options: { output?: Output; cwd?: string; stdin?: CliContext['stdin']; heldSignals?: HeldSignals } = {}): Promise<number> {
  if (options.heldSignals) holdSignals(options.heldSignals);
  const output = options.output ?? processOutput();
  // Whether the command printed anything on stdout: a failure's JSON error object goes only where nothing has.
  let printed = false;
  const ctx: CliContext = { output: { ...output, out: (text) => ((printed = true), output.out(text)) }, cwd: options.cwd ?? process.cwd(), exitCode: EXIT.ok, stdin: options.stdin };
  // `ferry help NAME [SUB]`: as `ferry NAME [SUB] --help` (commander's own `help` knew one level
  // only, so `ferry help env use` showed env's help); NAME of no command is refused as `ferry NAME`
  // is, with the nearest spelling (commander printed the whole help).
  if (argv[0] === 'help' && argv[1] !== undefined && !argv[1].startsWith('-')) {
    argv = COMMANDS.some((entry) => entry.name === argv[1]) ? [...argv.slice(1), '--help'] : [argv[1]];
  }
  // `ferry NAME --help` for a NAME that is no command: refused as `ferry NAME` is (commander
  // printed the whole help and exited 0, as if `send` were a command with nothing to say).
  const named = commandNameOf(argv);
  if (named !== undefined && !COMMANDS.some((entry) => entry.name === named)) argv = argv.filter((word) => word !== '--help' && word !== '-h');
  const program = await buildProgram(ctx, argv);
  argv = withoutHelpForUnknownSubcommand(program, argv);
  // Signals held while Ferry loaded: a command that takes Ctrl-C does so as its action starts
  // (`ferry run`: onCtrlC first thing); for any other, Node's own handling once the action began.
  program.hook('preAction', () => void setImmediate(endHeldSignals));
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    const command = runningCommand(program, argv);
    // Loaded on a failure only (not for --help, which ends here too): a run that works reads no file more.
    const refused = !(error instanceof CommanderError && error.exitCode === 0);
    const hint = command && refused ? (await import('./dash-argument.js')).dashArgumentHint(command, argv.slice(argv.indexOf(command.name()) + 1)) : undefined;
    const failure = failureOf(error, ctx, hint);
    // Asked for JSON on stdout (`--json`, `-r json`, `--out-json -`): a failure is JSON there too,
    // so `ferry run -r json > report.json` or `ferry ls --json | jq` get an object to read, not nothing.
    if (failure.exitCode !== EXIT.ok && !printed && wantsJsonOnStdout(program, argv)) {
      output.out(JSON.stringify({ error: { message: failure.message, exitCode: failure.exitCode } }));
    }
    return failure.exitCode;
  } finally {
    // However the command ended: what it made in advance and left unused goes (CliContext.atEnd).
    for (const task of ctx.atEnd ?? []) await task().catch(() => {});
    endHeldSignals();
  }
}

/** What an error thrown by a command ends with: said on stderr (commander said its own), the message and the exit code. */
function failureOf(error: unknown, ctx: CliContext, hint?: string): { message: string; exitCode: number } {
  // A bad-usage refusal of a line where a word was read as short options says so (dash-argument.ts).
  const said = (message: string, exitCode: number) => {
    if (hint && exitCode === EXIT.usage) message = `${message} ${hint}`;
    ctx.output.err(`ferry: ${message}`);
    return { message, exitCode };
  };
  if (error instanceof CommanderError) {
    // Help and version are successes; everything else commander rejects is bad usage.
    const message = error.message.replace(/^error: /, '');
    if (error.exitCode === 0) return { message, exitCode: EXIT.ok };
    // Commander has said its own line; the hint is one of its own.
    if (!hint) return { message, exitCode: EXIT.usage };
    ctx.output.err(`ferry: ${hint}`);
    return { message: `${message} ${hint}`, exitCode: EXIT.usage };
  }
  if (error instanceof CliError) return said(error.message, error.exitCode);
  // Another writer (an import, an update, the app) holds the workspace: worth trying again.
  // Matched by name: importing appdata here would load it for every command's --help.
  const name = (error as Error)?.name;
  if (name === 'WorkspaceBusyError') return said((error as Error).message, EXIT.failed);
  // A file of this computer's data folder that cannot be used as it is (a link, a damaged key), or
  // a file that cannot be written (read-only, in a read-only folder): said in one line.
  // A stored application setting that cannot be used (a caFiles file deleted since): bad input, said in one line.
  if (name === 'DataFolderError' || name === 'FileWriteError' || name === 'SettingsError') return said((error as Error).message, EXIT.usage);
  const system = systemErrorMessage(error);
  if (system) return said(system.message, system.exitCode);
  ctx.output.err(`ferry: ${(error as Error).stack ?? String(error)}`);
  return { message: (error as Error)?.message ?? String(error), exitCode: EXIT.failed };
}

/**
 * Whether the command line asks for JSON alone on stdout: `--json`, or, with no other report
 * asked for, `--out-json -` or `-r json` (`--reporter json`) without `--out-json FILE`. Read from
 * the options commander has parsed, also when it then refused the line (an unknown option after them).
 */
function wantsJsonOnStdout(program: Command, argv: readonly string[]): boolean {
  const command = runningCommand(program, argv);
  if (!command) return false;
  // `ferry load merge` takes `-r` and `--out-json` given before `merge` too.
  const opts = { ...command.parent?.opts(), ...command.opts() } as { json?: unknown; outJson?: unknown; reporter?: unknown };
  if (opts.json === true) return true;
  const reporters = [opts.reporter ?? []].flat().flatMap((r) => String(r).split(',')).map((r) => r.trim().toLowerCase()).filter(Boolean);
  // Another report asked for (`-r cli`, `-r junit`) may be the one on stdout.
  if (!reporters.every((r) => r === 'json')) return false;
  return opts.outJson === '-' || (reporters.length > 0 && opts.outJson === undefined);
}

/**
 * Commander suggests the nearest spelling of an unknown option, which for a beginning (`--rep`,
 * `--out`) is often `--help`: an option that begins one or more of the command's own is the one
 * suggested, or the ones it may begin.
 */
function withPrefixSuggestion(text: string, commandOf: () => Command): string {
  const flag = /^ferry: unknown option '(--[^'=]+)/.exec(text)?.[1];
  if (!flag) return text;
  const longs: string[] = [];
  for (let command: Command | null = commandOf(); command; command = command.parent) {
    for (const option of new Help().visibleOptions(command)) if (option.long?.startsWith(flag)) longs.push(option.long);
  }
  if (longs.length === 0) return text;
  const suggestion = longs.length === 1 ? `(Did you mean ${longs[0]}?)` : `(Did you mean one of ${longs.join(', ')}?)`;
  return `${text.split('\n')[0]}\n${suggestion}`;
}

/**
 * `ferry env NAME --help` (so `ferry help env NAME`) and `ferry env help NAME`, for a NAME that is
 * no subcommand of the group: the line without the help request, so it is refused as `ferry env
 * NAME` is (unknown command, the nearest spelling, exit 2). Commander printed the group's help
 * and exited 0, as if `ferry env lss` were a command with nothing to say. Only for a group (no
 * arguments of its own): `ferry load ID --help` takes any word as its test's id.
 */
function withoutHelpForUnknownSubcommand(program: Command, argv: string[]): string[] {
  const at = commandIndexOf(argv);
  const group = at === undefined ? undefined : program.commands.find((c) => c.name() === argv[at]);
  if (at === undefined || !group || group.commands.length === 0 || group.registeredArguments.length > 0) return argv;
  const rest = argv.slice(at + 1);
  const subAt = commandIndexOf(rest);
  const sub = subAt === undefined ? undefined : rest[subAt]!;
  if (subAt === undefined || group.commands.some((c) => c.name() === sub || c.aliases().includes(sub!))) return argv;
  const helpWord = rest.indexOf('help');
  const kept = rest.filter((word, i) => word !== '--help' && word !== '-h' && !(i === helpWord && i < subAt));
  return [...argv.slice(0, at + 1), ...kept];
}

/** The command (or subcommand: `ferry env ls`, `ferry load merge`) `argv` runs. */
function runningCommand(program: Command, argv: readonly string[]): Command | undefined {
  let command: Command | undefined = program.commands.find((c) => c.name() === commandNameOf(argv));
  for (let depth = 0; command && command.commands.length > 0 && depth < 4; depth++) {
    const sub: Command | undefined = command.commands.find((c) => argv.includes(c.name()) && c.name() !== 'help');
    if (!sub) break;
    command = sub;
  }
  return command;
}
