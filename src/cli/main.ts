/**
 * The `ferry` command: parsing and printing only. Each command lives in its own file and calls
 * the core; `main` returns the exit code so tests and the app can call it directly.
 */
import { createRequire } from 'node:module';
import { Command, CommanderError } from 'commander';
import type { CliContext } from './context.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { registerApp } from './app.js';
import { registerExport } from './export.js';
import { registerImport } from './import.js';
import { registerInit } from './init.js';
import { registerRun } from './run.js';
import { registerCompletion } from './completion.js';
import { registerConfig } from './config.js';
import { registerEnv } from './env.js';
import { registerLoad } from './load.js';
import { registerLs } from './ls.js';
import { registerPrograms } from './programs.js';
import { registerSecret } from './secret.js';
import { registerServe } from './serve.js';
import { registerUpdate } from './update.js';
import { processOutput, type Output } from './output.js';
import { systemErrorMessage } from './system-error.js';

const COMMANDS: Array<(program: Command, ctx: CliContext) => void> = [
  // The order of `ferry --help`, as the README's table: workspace, run, serve, import, export, settings.
  registerInit,
  registerLs,
  registerEnv,
  registerRun,
  registerServe,
  registerLoad,
  registerImport,
  registerUpdate,
  registerExport,
  registerConfig,
  registerSecret,
  registerPrograms,
  registerApp,
  registerCompletion,
];

function version(): string {
  const require = createRequire(import.meta.url);
  return (require('../../package.json') as { version: string }).version;
}

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('ferry')
    .description('Ferry: a local-first API workbench. Requests, imports, mocks and tests that live in your git repository.')
    .version(version(), '-V, --version')
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
  for (const register of COMMANDS) register(program, ctx);
  for (const command of program.commands) {
    command.exitOverride().addHelpText('after', `\n${EXIT_CODES_HELP}`).configureOutput(program.configureOutput());
  }
  return program;
}

export async function main(argv: string[], options: { output?: Output; cwd?: string; stdin?: CliContext['stdin'] } = {}): Promise<number> {
  const ctx: CliContext = { output: options.output ?? processOutput(), cwd: options.cwd ?? process.cwd(), exitCode: EXIT.ok, stdin: options.stdin };
  const program = buildProgram(ctx);
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
    const system = systemErrorMessage(error);
    if (system) {
      ctx.output.err(`ferry: ${system.message}`);
      return system.exitCode;
    }
    ctx.output.err(`ferry: ${(error as Error).stack ?? String(error)}`);
    return EXIT.failed;
  }
}
