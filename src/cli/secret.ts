/**
 * `ferry secret ls|set|unset`: the values of secret variables on this computer (spec 2.10, 5.2).
 * A secret variable is declared in a workspace file with `secret: true` and an empty value; its
 * value lives only in this computer's encrypted secret store. Values are read from standard input
 * (or asked for without echo on a terminal) so they never land in shell history or `ps`.
 * Parsing and printing only: which scope a secret belongs to is `src/variables/secret-scopes.ts`.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { read } from 'read';
import { dataDir, WorkspaceData } from '../appdata/index.js';
import {
  environmentSecretScopes,
  listSecretVariables,
  RunError,
  secretScopeFor,
  SecretScopeError,
  secretVariable,
  workspaceSecretScope,
  type SecretScope,
} from '../variables/index.js';
import type { Workspace } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { checkEnvOption } from './env-option.js';
import { CliError, EXIT, EXIT_CODES_HELP } from './exit-codes.js';
import { paint } from './output.js';
import { commandArg } from '../support/terminal-text.js';
import { examples } from './examples.js';
import { environmentProblems } from './environment-problems.js';

/** A secret value read from standard input is at most this long (a certificate chain fits easily). */
export const MAX_SECRET_BYTES = 1024 * 1024;

/** The core's refusals (unknown environment, variable not declared secret) become usage errors. */
async function usage<T>(work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RunError || error instanceof SecretScopeError) throw new CliError(error.message);
    throw error;
  }
}

const scopeFor = (ws: Workspace, env: string | undefined, cwd: string): Promise<SecretScope> => {
  checkEnvOption(env, cwd);
  return usage(() => secretScopeFor(ws, env));
};

type Input = NodeJS.ReadableStream & { isTTY?: boolean };

/** The value from a pipe (one trailing line break dropped), or asked for without echo on a terminal. */
async function readValue(input: Input, name: string): Promise<string> {
  if (input.isTTY) {
    try {
      return await read({ prompt: `Value for ${name}: `, silent: true, replace: '', input, output: process.stderr });
    } catch (error) {
      // Ctrl-C at the prompt (`read` rejects with "canceled"): one line below the prompt, not a stack.
      if ((error as Error)?.message !== 'canceled') throw error;
      process.stderr.write('\n');
      throw new CliError('Interrupted: no value was stored.', EXIT.failed);
    }
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += bytes.length;
    if (size > MAX_SECRET_BYTES) throw new CliError(`The value on standard input is larger than 1 MB; a secret value may be at most 1 MB.`);
    chunks.push(bytes);
  }
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export function registerSecret(program: Command, ctx: CliContext): void {
  const secret = program
    .command('secret')
    .description("the values of secret variables, kept on this computer only (encrypted), never in the workspace")
    .addHelpText('after', examples([['printf %s "$TOKEN" | ferry secret set apiToken --env staging', 'from a pipe, for the staging environment'], ['ferry secret set dbPassword', 'asks without echo on a terminal'], ['ferry secret ls', 'which secret variables have a value here']]));

  secret
    .command('ls')
    .description('list the secret variables of the workspace and its environments, and whether this computer has a value')
    .addHelpText('after', examples([["ferry secret ls", "every secret variable"], ["ferry secret ls -e staging --json", "one environment's, as JSON"]]))
    .option('-e, --env <name>', 'only this environment (id or name)')
    .option('--json', 'print the list as JSON')
    .action(async (options: { env?: string; json?: boolean }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const data = new WorkspaceData(ws.id, ws.root);
      const scopes = options.env === undefined ? [workspaceSecretScope(ws), ...environmentSecretScopes(ws)] : [await scopeFor(ws, options.env, ctx.cwd)];
      const rows = await listSecretVariables(data, scopes);
      // An environment file that cannot be read may declare secrets too: said, not left out unsaid (spec 2.1.9).
      const problems = options.env === undefined ? environmentProblems(ws, ws.environments.map((e) => e.id)) : [];
      if (options.json) {
        ctx.output.out(JSON.stringify(rows, null, 2));
        for (const line of problems) ctx.output.err(line);
        return;
      }
      if (rows.length === 0) {
        ctx.output.out(problems.length ? 'No secret variables in the files that can be read; the environment files below cannot be, and may declare some.' : 'No secret variables. Declare one in ferry.yaml or an environment file with `secret: true`.');
        for (const line of problems) ctx.output.err(line);
        return;
      }
      for (const line of problems) ctx.output.err(line);
      const c = paint(ctx.output);
      const scopeWidth = Math.max(...rows.map((r) => r.scope.length));
      const nameWidth = Math.max(...rows.map((r) => r.name.length));
      for (const row of rows) {
        const state = row.stored ? c.green('set') : row.unreadable ? c.yellow('not set: the stored value cannot be read') : c.yellow('not set');
        ctx.output.out(`${row.scope.padEnd(scopeWidth)}  ${row.name.padEnd(nameWidth)}  ${state}`);
      }
      // Values stored with another key (a data folder copied from another computer, secret.key replaced).
      const unreadable = rows.filter((row) => row.unreadable);
      if (unreadable.length > 0) {
        ctx.output.err(`ferry: ${unreadable.length === 1 ? 'a stored value' : `${unreadable.length} stored values`} cannot be decrypted with this computer's key (${path.join(dataDir(), 'secret.key')}): stored with another key, it is used as not set. Set ${unreadable.length === 1 ? 'it' : 'each'} again with \`ferry secret set NAME [-e ENV]\`.`);
      }
    });

  secret
    .command('set')
    .description('store the value of a secret variable, read from standard input (asked for without echo on a terminal)')
    .addHelpText('after', examples([["ferry secret set apiKey -e staging", "asked for without echo"], ["printf %s \"$TOKEN\" | ferry secret set token", "from standard input"]]))
    .argument('<name>', 'the variable, declared with `secret: true`')
    .option('-e, --env <name>', 'the environment (id or name) that declares it; without it, ferry.yaml')
    .action(async (name: string, options: { env?: string }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const scope = await scopeFor(ws, options.env, ctx.cwd);
      await usage(() => secretVariable(scope, name));
      const value = await readValue(ctx.stdin ?? process.stdin, name);
      // Empty: most often a CI variable that was not set (`printf %s "$TOKEN" |`); a run with it would fail far from here.
      if (value === '') {
        const env = options.env === undefined ? '' : ` -e ${commandArg(options.env)}`;
        const given = (ctx.stdin ?? process.stdin).isTTY ? 'No value was given' : 'No value on standard input';
        throw new CliError(`${given} for ${name}: nothing was stored. Give the value on standard input (printf %s "$TOKEN" | ferry secret set ${name}${env}), or remove this computer's value with ferry secret unset ${name}${env}.`);
      }
      await new WorkspaceData(ws.id, ws.root).secrets.set(scope.id, name, value);
      ctx.output.err(`ferry: stored the value of ${name} (${scope.label}) on this computer.`);
    });

  secret
    .command('unset')
    .description("forget this computer's value of a secret variable")
    .addHelpText('after', examples([["ferry secret unset apiKey -e staging", "forget this computer's value"]]))
    .argument('<name>', 'the variable')
    .option('-e, --env <name>', 'the environment (id or name) that declares it; without it, ferry.yaml')
    .action(async (name: string, options: { env?: string }, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      const scope = await scopeFor(ws, options.env, ctx.cwd);
      const secrets = new WorkspaceData(ws.id, ws.root).secrets;
      // A value stored earlier can be removed even after the variable left the file.
      // Removing what is not there succeeds with a notice, as every remove command (docs/running.md, exit codes).
      if (!(await secrets.has(scope.id, name))) {
        ctx.output.err(`ferry: this computer has no value for ${name} (${scope.label}); nothing removed.`);
        return;
      }
      await secrets.delete(scope.id, name);
      ctx.output.err(`ferry: removed the value of ${name} (${scope.label}) from this computer.`);
    });

  for (const sub of secret.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}
