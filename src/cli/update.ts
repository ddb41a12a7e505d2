/**
 * `ferry update FOLDER [--from FILE|URL|-] [--dry-run] [--json]`: update a folder imported from
 * an OpenAPI document to a new version of it (spec 4.5). Prints the preview; `--dry-run` writes nothing.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { ImportError, readInput } from '../importers/index.js';
import { applyUpdate, formatPreview, locateFolder, planSummary, planUpdate, recoverInterruptedUpdate, UpdateWriteError } from '../importers/openapi/update/index.js';
import { checkNoSymlinks, openWorkspace } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { paint } from './output.js';
import { cliStatus } from './status.js';

interface UpdateOptions {
  from?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function registerUpdate(program: Command, ctx: CliContext): void {
  program
    .command('update')
    .description('update a folder imported from an OpenAPI document to a new version of the document')
    .argument('<folder>', 'the imported folder: its path under requests/ or its name')
    .option('--from <source>', 'the new version: a file, an http(s) URL, or - for standard input (default: where the folder was imported from)')
    .option('--dry-run', 'print the preview of the changes and write nothing')
    .option('--json', 'print the preview as JSON')
    .action(async (folder: string, options: UpdateOptions, command: Command) => {
      const ws = await openWorkspaceFor(command, ctx);
      if ((await recoverInterruptedUpdate(ws.root)) === 'running') {
        throw new CliError('Another `ferry update` of this workspace is running. Wait for it to finish, then update again.');
      }
      const from = options.from ?? (await knownSource(ws.root, folder));
      const spec = from === '-' || /^https?:\/\//i.test(from) ? from : path.resolve(options.from !== undefined ? ctx.cwd : ws.root, from);
      let plan;
      const status = cliStatus(ctx);
      try {
        status?.show(`→ Reading ${from === '-' ? 'standard input' : from}`);
        const input = await readInput(spec);
        status?.show(`→ Comparing the document with ${folder}`);
        plan = await planUpdate(ws.root, { folder, text: input.text, source: { ...input.source, label: from === '-' ? input.source.label : from } });
        if (!options.dryRun && plan.writes.length + plan.deletes.length > 0) {
          status?.show(`→ Writing ${plan.writes.length + plan.deletes.length} changes`);
          await applyUpdate(ws.root, plan);
        }
      } catch (error) {
        if (error instanceof ImportError) throw new CliError(error.message);
        if (error instanceof UpdateWriteError) throw new CliError(error.message, EXIT.failed);
        throw error;
      } finally {
        status?.clear();
      }
      const written = !options.dryRun && plan.writes.length + plan.deletes.length > 0;
      if (options.json) {
        ctx.output.out(JSON.stringify(planSummary(plan, written), null, 2));
        return;
      }
      const c = paint(ctx.output);
      const lines = [formatPreview(plan, c)];
      if (options.dryRun && !plan.upToDate) lines.push('', c.dim('Dry run: nothing was written. Run again without --dry-run to update.'));
      else if (written) lines.push('', c.green('Updated.'));
      ctx.output.out(lines.join('\n'));
    });
}

/** The URL or in-workspace file the folder was imported from (`openapi.source`). */
async function knownSource(root: string, folder: string): Promise<string> {
  let node;
  try {
    node = locateFolder(await openWorkspace(root), folder);
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(error.message);
    throw error;
  }
  if (!node.settings.openapi) {
    throw new CliError(`The folder "${folder}" was not imported from an OpenAPI document (its _folder.yaml has no openapi section), so it cannot be updated from one.`);
  }
  const source = node.settings.openapi.source;
  if (!source) {
    // Files outside the workspace and standard input are not recorded (docs/openapi.md).
    throw new CliError(`The folder "${folder}" does not record where its document came from (it was imported from a file outside the workspace or from standard input); give the new version with --from FILE|URL|-.`);
  }
  if (/^https?:\/\//i.test(source)) return source;
  // A recorded file is a path inside the workspace (docs/openapi.md); a _folder.yaml from elsewhere
  // must not make Ferry read files outside it, or through a link.
  const parts = source.split('/');
  const problem = path.isAbsolute(source) || source.includes('\\') || parts.includes('..')
    ? 'is not a path inside the workspace'
    : await checkNoSymlinks(root, source);
  if (problem) {
    throw new CliError(`The folder "${folder}" records its document as "${source}", which ${problem.startsWith('is ') ? problem : `cannot be read: ${problem}`}; give the new version with --from FILE|URL|-.`);
  }
  return source;
}
