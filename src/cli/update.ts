/**
 * `ferry update FOLDER [--from FILE|URL|-] [--dry-run] [--json]`: update a folder imported from
 * an OpenAPI document to a new version of it (spec 4.5). Prints the preview; `--dry-run` writes nothing.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ImportError, readInput } from '../importers/index.js';
import { withNetworkFor } from './url-network.js';
import { applyServerUpdate, formatServerPreview, planServerUpdate, serverFileOf } from '../importers/openapi/index.js';
import { applyUpdate, formatPreview, knownDocumentSource, locateFolder, planSummary, planUpdate, recoverInterruptedUpdate, UpdateWriteError } from '../importers/openapi/update/index.js';
import type { FolderNode, Workspace } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { paint } from './output.js';
import { cliStatus } from './status.js';
import { interruptUntilWriting } from './stop-signal.js';
import { examples } from './examples.js';

interface UpdateOptions {
  from?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function registerUpdate(program: Command, ctx: CliContext): void {
  program
    .command('update')
    .description('update a folder imported from an OpenAPI document to a new version of the document')
    .addHelpText('after', examples([["ferry update Petstore", "from where it was imported"], ["ferry update Petstore --from openapi-v2.yaml --dry-run", "preview the changes of a new version"]]))
    .argument('<folder>', 'the imported folder (its path under requests/ or its name), or a server generated with import --as-server (servers/ID.yaml or ID)')
    .option('--from <source>', 'the new version: a file, an http(s) URL, or - for standard input (default: where the folder was imported from)')
    .option('--dry-run', 'print the preview of the changes and write nothing')
    .option('--json', 'print the preview as JSON')
    .action(async (folder: string, options: UpdateOptions, command: Command) => {
      const status = cliStatus(ctx);
      // Ctrl-C (or SIGTERM): while the document is read and compared nothing is written yet, so
      // the update quits at once; once it writes, it stops and is undone before its commit point,
      // finished after it. A second Ctrl-C quits at once (the next command undoes or finishes it).
      // Taken from the command's start (and held while Ferry loaded, bin/ferry.js), so one pressed
      // while the workspace opens says so too, not Node's silent end.
      const interrupt = interruptUntilWriting(status, 'nothing was updated.', ctx.output);
      try {
        await updateCommand(folder, options, command, ctx, status, interrupt);
      } finally {
        interrupt.dispose();
      }
    });
}

type Interrupt = ReturnType<typeof interruptUntilWriting>;

/** `ferry update`'s work; `interrupt` takes Ctrl-C and SIGTERM from the command's start. */
async function updateCommand(folder: string, options: UpdateOptions, command: Command, ctx: CliContext, status: ReturnType<typeof cliStatus>, interrupt: Interrupt): Promise<void> {
  const ws = await openWorkspaceFor(command, ctx);
  if (await isGeneratedServer(ws.root, folder)) {
    await updateServer(ctx, ws.root, folder, options, interrupt);
    return;
  }
  if ((await recoverInterruptedUpdate(ws.root)) === 'running') {
    throw new CliError('Another `ferry update` of this workspace is running. Wait for it to finish, then update again.');
  }
  // The folder is checked first: `ferry update NOPE --from x` names the unknown folder, not the file.
  const node = findImportedFolder(ws, folder);
  const from = options.from ?? (await knownSource(ws.root, folder, node));
  const spec = from === '-' || /^https?:\/\//i.test(from) ? from : path.resolve(options.from !== undefined ? ctx.cwd : ws.root, from);
  let plan;
  try {
    status?.show(`→ Reading ${from === '-' ? 'standard input' : from}`);
    const input = await withNetworkFor(spec, (network) => readInput(spec, network, 'update', ctx.stdin));
    status?.show(`→ Comparing the document with ${folder}`);
    plan = await planUpdate(ws.root, { folder, text: input.text, source: { ...input.source, label: from === '-' ? input.source.label : from } });
    if (!options.dryRun && plan.writes.length + plan.deletes.length > 0) {
      status?.show(`→ Writing ${plan.writes.length + plan.deletes.length} changes`);
      interrupt.startWriting();
      await applyUpdate(ws.root, plan, interrupt.signal);
    }
  } catch (error) {
    if (error === interrupt.signal.reason) throw new CliError('Interrupted: the update was undone; the workspace is as it was.', EXIT.failed);
    if (error instanceof ImportError) throw new CliError(error.message);
    if (error instanceof UpdateWriteError) throw new CliError(error.message, EXIT.failed);
    throw error;
  } finally {
    status?.clear();
  }
  const written = !options.dryRun && plan.writes.length + plan.deletes.length > 0;
  printOutcome(ctx, options, interrupt, { upToDate: plan.upToDate, written, json: () => planSummary(plan, written), preview: (c) => formatPreview(plan, c) });
}

/** How an update ends, a folder's or a server's: a Ctrl-C that came too late, then the JSON summary or the preview and its last line. */
function printOutcome(ctx: CliContext, options: UpdateOptions, interrupt: Interrupt, outcome: { upToDate: boolean; written: boolean; json(): unknown; preview(c: ReturnType<typeof paint>): string }): void {
  if (interrupt.signal.aborted) ctx.output.err('ferry: Interrupted too late to stop: the update was finished.');
  if (options.json) {
    ctx.output.out(JSON.stringify(outcome.json(), null, 2));
    return;
  }
  const c = paint(ctx.output);
  const lines = [outcome.preview(c)];
  if (options.dryRun && !outcome.upToDate) lines.push('', c.dim('Dry run: nothing was written. Run again without --dry-run to update.'));
  else if (outcome.written) lines.push('', c.green('Updated.'));
  ctx.output.out(lines.join('\n'));
}

/** `servers/ID.yaml` or `ID` naming a server file (a mock generated with `ferry import --as-server`). */
async function isGeneratedServer(root: string, argument: string): Promise<boolean> {
  if (!argument.startsWith('servers/') && existsSync(path.join(root, 'requests', argument))) return false;
  return existsSync(path.join(root, serverFileOf(argument)));
}

/** `ferry update SERVER --from FILE|URL|-`: the generated routes follow the new document (issue 22). */
async function updateServer(ctx: CliContext, root: string, argument: string, options: UpdateOptions, interrupt: Interrupt): Promise<void> {
  if (options.from === undefined) {
    throw new CliError(`A server file does not record where its document came from; give the new version with --from FILE|URL|-.`);
  }
  const spec = options.from === '-' || /^https?:\/\//i.test(options.from) ? options.from : path.resolve(ctx.cwd, options.from);
  let plan;
  try {
    const input = await withNetworkFor(spec, (network) => readInput(spec, network, 'update', ctx.stdin));
    plan = await planServerUpdate(root, { server: argument, text: input.text, from: options.from });
    if (!options.dryRun && !plan.upToDate) {
      // A few files, each written whole (temporary file + rename): a Ctrl-C now lets them all be written.
      interrupt.startWriting();
      await applyServerUpdate(plan);
    }
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(error.message);
    throw error;
  }
  const { writes, deletes, ...shape } = plan;
  const written = !options.dryRun && writes.length > 0;
  printOutcome(ctx, options, interrupt, { upToDate: plan.upToDate, written, json: () => ({ ...shape, written }), preview: (c) => formatServerPreview(plan, c) });
}

/** The folder to update, by path or name; an unknown one is the first thing said. */
function findImportedFolder(ws: Workspace, folder: string): FolderNode {
  try {
    return locateFolder(ws, folder);
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(error.message);
    throw error;
  }
}

/** The URL or in-workspace file the folder was imported from (`openapi.source`). */
async function knownSource(root: string, folder: string, node: FolderNode): Promise<string> {
  try {
    return await knownDocumentSource(root, folder, node);
  } catch (error) {
    if (error instanceof ImportError) throw new CliError(error.message);
    throw error;
  }
}
