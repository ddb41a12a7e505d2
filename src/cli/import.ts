/**
 * `ferry import FILE|URL|-` and `ferry import --curl 'COMMAND'`: recognize, convert, and commit
 * all or nothing; print what was created and the notes (or the summary as JSON).
 */
import path from 'node:path';
import type { Command } from 'commander';
import { commitImport, convertInput, ImportError, importCurl, NoBaseUrlError, type ImportSummary } from '../importers/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError, EXIT } from './exit-codes.js';
import { interruptUntilWriting } from './stop-signal.js';
import { paint } from './output.js';
import { cliStatus } from './status.js';
import { checkNewDisplayName } from '../workspace/index.js';
import { examples } from './examples.js';
import { withNetworkFor } from './url-network.js';
import { preferSteadyYoungGeneration } from '../support/steady-young-generation.js';

interface ImportOptions {
  into?: string;
  name?: string;
  json?: boolean;
  curl?: string;
  baseUrl?: string;
  asServer?: boolean;
}

export function registerImport(program: Command, ctx: CliContext): void {
  program
    .command('import')
    .description('import a collection or environment export, an OpenAPI/Swagger document or a cURL command')
    .addHelpText('after', examples([["ferry import collection.postman_collection.json", "a Postman collection"], ["ferry import dev.postman_environment.json", "a Postman environment"], ["ferry import https://example.com/openapi.yaml --into APIs", "an OpenAPI document into the existing folder requests/APIs"], ["ferry import --curl \"curl https://example.com/users\"", "one cURL command"]]))
    .argument('[source]', 'a file, an http(s) URL, or - for standard input')
    .option('--into <folder>', 'an existing folder under requests/ to import into (default: the collection root)')
    .option('--name <name>', 'name of the imported folder, environment or request (with --as-server: the server id, servers/NAME.yaml)')
    .option('--curl <command>', 'import one cURL command as a request')
    .option('--base-url <url>', 'OpenAPI: base URL when the document does not say where the API runs')
    .option('--as-server', 'OpenAPI: write a mock API server (servers/NAME.yaml) that answers with the examples and checks requests, instead of requests')
    .option('--json', 'print the summary as JSON: {kind, name, requests, folders, environments, variables, notes}')
    .action(async (source: string | undefined, options: ImportOptions, command: Command) => {
      const progress = cliStatus(ctx);
      // Ctrl-C (or SIGTERM): while the input is read nothing is written yet, so the import quits
      // at once; once it writes, it stops at its next safe point and is undone (past its point of
      // no return, finished). A second Ctrl-C quits at once (the next command undoes the rest).
      // Taken from the command's start (and held while Ferry loaded, bin/ferry.js), so one pressed
      // while the workspace opens says so too, not Node's silent end.
      const interrupt = interruptUntilWriting(progress, 'nothing was imported.', ctx.output);
      try {
        await importCommand(source, options, command, ctx, progress, interrupt);
      } finally {
        interrupt.dispose();
      }
    });
}

/** `ferry import`'s work; `interrupt` takes Ctrl-C and SIGTERM from the command's start. */
async function importCommand(
  source: string | undefined,
  options: ImportOptions,
  command: Command,
  ctx: CliContext,
  progress: ReturnType<typeof cliStatus>,
  interrupt: ReturnType<typeof interruptUntilWriting>,
): Promise<void> {
  if (!source && options.curl === undefined) throw new CliError('Give a file, a URL, - (standard input), or --curl \'COMMAND\'.');
  if (source && options.curl !== undefined) throw new CliError('Give either a source or --curl, not both.');
  if (options.asServer && options.curl !== undefined) throw new CliError('--as-server is for OpenAPI and Swagger documents, not for --curl.');
  if (options.asServer && options.into !== undefined) throw new CliError('--as-server writes a server file under servers/; --into is for requests.');
  if (options.curl !== undefined && options.baseUrl !== undefined) throw new CliError('--base-url is for OpenAPI and Swagger documents, not for --curl.');
  const nameProblem = options.name === undefined ? undefined : checkNewDisplayName(options.name);
  if (nameProblem) throw new CliError(`--name: ${nameProblem}`);
  // The parsed document is one large structure kept to the end: no use growing V8's young generation for it.
  preferSteadyYoungGeneration();
  const ws = await openWorkspaceFor(command, ctx);
  const into = options.into?.replace(/^requests\//, '') ?? '';
  const baseDepth = into.split('/').filter(Boolean).length;
  let summary: ImportSummary;
  try {
    progress?.show(options.curl !== undefined ? '→ Reading the cURL command' : `→ Reading ${source === '-' ? 'standard input' : source}`);
    const result = options.curl !== undefined
      ? importCurl(options.curl, { name: options.name })
      : await withNetworkFor(source!, (network) =>
          convertInput(source === '-' || /^https?:\/\//i.test(source!) ? source! : path.resolve(ctx.cwd, source!), { name: options.name, baseDepth, baseUrl: options.baseUrl, workspaceRoot: ws.root, asServer: options.asServer }, network, ctx.stdin));
    if (options.baseUrl !== undefined && result.kind !== 'openapi') {
      const what = { postman: 'a collection export', environment: 'an environment export', globals: 'a globals export', curl: 'a cURL command' }[result.kind];
      result.notes.push(`--base-url was not used: it is for OpenAPI and Swagger documents, and this is ${what}.`);
    }
    // An environment goes to environments/ wherever it is imported from: say so rather than seem to honour --into.
    if (options.into !== undefined && (result.kind === 'environment' || result.kind === 'globals')) {
      result.notes.push(`--into was not used: it names a folder for requests, and ${result.kind === 'globals' ? 'a globals export' : 'an environment export'} has none; the environment is written to environments/.`);
    }
    interrupt.startWriting();
    summary = await commitImport({ root: ws.root, id: ws.id }, result, { into, signal: interrupt.signal, onProgress: progress && ((written, total) => progress.count('→ Writing files', written, total)) });
  } catch (error) {
    if (error === interrupt.signal.reason) throw new CliError('Interrupted: the import was undone; the workspace is as it was.', EXIT.failed);
    if (error instanceof NoBaseUrlError) throw new CliError(error.withWay('ferry import FILE --base-url https://api.example.com').message);
    if (error instanceof ImportError) throw new CliError(error.message);
    throw error;
  } finally {
    progress?.clear();
  }
  if (interrupt.signal.aborted) ctx.output.err('ferry: Interrupted too late to stop: the import was finished.');
  const { written, ...shape } = summary;
  if (options.json) {
    ctx.output.out(JSON.stringify(shape, null, 2));
    return;
  }
  const c = paint(ctx.output);
  const counts = [
    plural(summary.requests, 'request'), plural(summary.folders, 'folder'),
    plural(summary.environments, 'environment'), plural(summary.variables, 'workspace variable'),
  ];
  const lines = summary.servers !== undefined
    ? [`${c.green('Imported')} ${c.bold(`"${summary.name}"`)} as a mock API server`]
    : [`${c.green('Imported')} ${c.bold(`"${summary.name}"`)}: ${counts.join(', ')}`];
  if (written && written.length > 0) lines.push(`${c.dim('Wrote')} ${written.join(', ')}`);
  if (summary.notes.length > 0) lines.push('', c.yellow('Notes:'), ...summary.notes.map((n) => `  - ${n}`));
  ctx.output.out(lines.join('\n'));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
