/** `ferry export REQUEST --lang LANG`: prints a request as cURL or code (spec 4.7). */
import type { Command } from 'commander';
import { formatTargetList, resolveTarget, TargetError } from '../codegen/index.js';
import { PrepareError } from '../request/index.js';
import { exportSavedRequest } from '../codegen/export-saved.js';
import { RunError, SelectError } from '../runner/index.js';
import { parseVarOptions, VarOptionError } from '../template/index.js';
import { fromShellPaths, openWorkspaceFor, type CliContext } from './context.js';
import { checkEnvOption } from './env-option.js';
import { CliError } from './exit-codes.js';
import { examples } from './examples.js';

interface ExportFlags {
  lang?: string;
  lib?: string;
  substitute: boolean;
  env?: string;
  var?: string[];
  list?: boolean;
  allowFilesOutside?: boolean;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function registerExport(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description('print an HTTP request as cURL or code in one of 16 languages')
    .addHelpText('after', examples([["ferry export \"Users/Get user\"", "as a cURL command"], ["ferry export \"Users/Get user\" --lang python -e local", "as Python, variables from the local environment"], ["ferry export \"Users/Create user\" --no-substitute", "keep {{variables}} as written"], ["ferry export --list", "the languages and libraries"]]))
    .argument('[request]', 'the request path under requests/ (Folder/Name.yaml, extension optional)')
    .option('-l, --lang <lang>', 'language (default: curl): curl, httpie, wget, powershell, javascript, python, go, java, kotlin, swift, csharp, php, ruby, rust, dart, c')
    .option('--lib <lib>', 'library or shell of the language (see --list)')
    .option('--no-substitute', 'keep {{variables}} as written (dynamic values still get a value)')
    .option('-e, --env <name>', 'environment id or name for the variables (default: the active one)')
    .option('--var <key=value>', 'set a variable (repeatable)', collect)
    .option('--allow-files-outside', 'allow body files outside the workspace folder')
    .option('--list', 'list the languages and libraries')
    .action(async (requestPath: string | undefined, flags: ExportFlags, command: Command) => {
      if (flags.list) {
        ctx.output.out(formatTargetList());
        return;
      }
      if (!requestPath) throw new CliError('Name the request to export, e.g. `ferry export "Users/Get user" --lang curl` (or `ferry export --list`).');
      // No --lang: cURL, the form every tool and bug report understands.
      const lang = flags.lang ?? 'curl';
      // A typo in --lang or --lib is the first thing to report, before the request is even read.
      try {
        resolveTarget(lang, flags.lib);
      } catch (error) {
        if (error instanceof TargetError) throw new CliError(error.message);
        throw error;
      }
      checkEnvOption(flags.env, ctx.cwd);
      let vars: Map<string, string>;
      try {
        vars = parseVarOptions(flags.var ?? []);
      } catch (error) {
        if (error instanceof VarOptionError) throw new CliError(error.message);
        throw error;
      }
      const ws = await openWorkspaceFor(command, ctx, { requests: [requestPath] });
      requestPath = fromShellPaths(ws, [requestPath], ctx.cwd, 'export')[0]!;
      try {
        const { code, secretsInCode } = await exportSavedRequest(ws, requestPath, {
          lang, lib: flags.lib, substitute: flags.substitute, environment: flags.env, vars, allowFilesOutside: flags.allowFilesOutside,
        });
        ctx.output.out(code);
        // The code is the user's to use; stderr says what in it is secret (stdout stays the code alone).
        if (secretsInCode.length > 0) {
          const advice = flags.substitute
            ? ' Export with --no-substitute to keep {{variables}} as written.'
            : '';
          ctx.output.err(`ferry: warning: the code holds secret values in plain text: ${secretsInCode.join(', ')}. Do not share or commit it as is.${advice}`);
        }
      } catch (error) {
        if (error instanceof RunError || error instanceof SelectError || error instanceof PrepareError || error instanceof TargetError) {
          throw new CliError(error.message);
        }
        throw error;
      }
    });
}
