/**
 * `ferry serve [SERVER...] [--env NAME] [--var key=value]`: starts the workspace's local servers,
 * prints each one's URL, then one line per request, until Ctrl-C stops them all cleanly.
 */
import type { Command } from 'commander';
import { DEFAULT_TRAFFIC_CAPACITY, hasServer, ServerError, serverIdOf, startWorkspaceServers, unknownServerMessage, type ServerNotice, type ServersHandle, TrafficLog } from '../servers/index.js';
import { parseVarOptions, VarOptionError } from '../template/index.js';
import { unknownFieldsWarning } from '../model/index.js';
import { formatWarning, subfoldersNotRead, unlistedFolderWarning, type Workspace } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { checkEnvOption } from './env-option.js';
import { CliError, EXIT } from './exit-codes.js';
import { fdPrinter, type LinePrinter, outputPrinter } from './line-printer.js';
import { escapedOutput, paint, paintErr, type Output } from './output.js';
import { ServerFileBurst } from './serve-burst.js';
import { failureLine } from './server-failure.js';
import { servingAs } from '../servers/serving-processes.js';
import { stopSignal } from './stop-signal.js';
import { TERMINAL_LINES_PER_SECOND, TrafficPrinter } from './traffic-printer.js';
import { examples } from './examples.js';
import { terminalLine } from '../support/terminal-text.js';

interface ServeOptions {
  env?: string;
  var?: string[];
  watch: boolean;
  json?: boolean;
}

export function registerServe(program: Command, ctx: CliContext): void {
  program
    .command('serve')
    .description('run local servers (mock APIs, event streams, WebSocket, Socket.IO, MCP, TCP, UDP, DNS, TCP relays) until Ctrl-C; one line per request or message')
    .addHelpText('after', examples([["ferry serve", "every server of the workspace"], ["ferry serve mock -e local --var delay=0", "one server with variables"], ["ferry serve --json", "traffic as JSON lines"]]))
    .argument('[server...]', 'server ids: file names under servers/ without .yaml (default: every server)')
    .option('-e, --env <name>', 'environment whose variables fill the templates (default: the active one)')
    .option('--var <key=value>', 'a variable that wins over all others (repeatable)', (value: string, all: string[] | undefined) => [...(all ?? []), value])
    .option('--no-watch', 'ignore edits of the server files while running')
    .option('--json', 'print servers and traffic as JSON lines')
    .addHelpText('after', '\nCtrl-C stops every server and exits 0, also when some server could not start (it was reported).\nExit code 1 means no server could start; 2, an unknown server id or bad usage.')
    .action(async (ids: string[], options: ServeOptions, command: Command) => {
      checkEnvOption(options.env, ctx.cwd);
      const ws = await openWorkspaceFor(command, ctx, { showsWarnings: true });
      // Traffic goes to standard output without blocking when it is a pipe or a file; a terminal
      // is written to as usual.
      const printer = ctx.output.fd !== undefined && !process.stdout.isTTY ? fdPrinter(ctx.output.fd) : undefined;
      const terminal = ctx.output.fd !== undefined && process.stdout.isTTY === true;
      // Its servers are recorded in the data folder as this command's (a later refusal names it).
      servingAs('ferry serve');
      ctx.exitCode = await serveUntil(ws, ids, options, ctx.output, stopSignal(), printer, terminal);
    });
}

/**
 * Runs the servers until `until` resolves; returns the exit code: 0 when every server started,
 * 1 when some could not (they were reported, the others ran), 1 when none could.
 */
export async function serveUntil(
  ws: Workspace,
  ids: string[],
  options: ServeOptions,
  given: Output,
  until: Promise<void>,
  printer: LinePrinter = outputPrinter((text) => given.out(text)),
  /** Standard output is a terminal: past a few hundred requests a second, one summary line a second. */
  terminal = false,
): Promise<number> {
  let overrides;
  try {
    overrides = parseVarOptions(options.var ?? []);
  } catch (error) {
    if (error instanceof VarOptionError) throw new CliError(error.message);
    throw error;
  }
  // Only names that match no file under servers/: bad usage (exit 2), refused before anything
  // else is said (the environment in use) or started, as `ferry run NOPE` is.
  if (ids.length > 0 && ids.every((id) => !hasServer(ws, serverIdOf(id)))) {
    throw new CliError([...new Set(ids.map(serverIdOf))].map((id) => unknownServerMessage(ws, id)).join('\nferry: '));
  }
  // Names (a server's, a file's) come from the workspace: escaped into a pipe or a file too, as the
  // traffic lines are (a log is read on a terminal later). --json is written as JSON writes it.
  const output = options.json === true ? given : escapedOutput(given);
  const c = paint(output);
  // Lines on stderr are coloured as stderr is: `ferry serve 2>serve.log` on a terminal gets no codes in the file.
  const e = paintErr(output);
  const json = options.json === true;
  // A branch checked out under a running serve: its many file events are one line (JSON keeps each).
  const burst = new ServerFileBurst((line) => output.err(e.yellow(`ferry: ${line}`)));
  const noticeLine = (notice: ServerNotice) => {
    if (notice.level === 'info') output.out(c.dim(`~ ${notice.message}`));
    else output.err(e.yellow(`ferry: ${notice.message}`)); // on standard error as the CLI's other messages
  };

  let handle;
  try {
    // As for `ferry run`: an environment id (file name) or a display name, else the active one here.
    handle = await startWorkspaceServers(ws, {
      ids,
      env: options.env,
      onActiveEnvironment: (message) => output.err(`ferry: ${message}`),
      vars: overrides,
      watch: options.watch !== false,
      // Started by hand: the app's autoStart may start these configurations by themselves later (2.11).
      remember: true,
      // Printed as they come and never listed again: none kept (kept records cost the servers CPU).
      traffic: new TrafficLog(DEFAULT_TRAFFIC_CAPACITY, 0),
      // A server that could not start, or a file added while serving, starts when its file is saved.
      startWhenSaved: true,
      onStarted: (server) => {
        if (json) output.out(JSON.stringify({ type: 'server', id: server.id, name: server.name, kind: server.kind, url: server.clientUrl }));
        else burst.add({ event: 'started', id: server.id, url: server.clientUrl, print: () => output.err(`ferry: server ${server.id} started: ${server.name}  ${server.clientUrl}  ${server.kind} · servers/${server.id}.yaml`) });
      },
      onNotice: (notice) => {
        if (json) output.out(JSON.stringify({ type: 'notice', ...notice }));
        else if (notice.event !== undefined) burst.add({ event: notice.event, id: notice.server, print: () => noticeLine(notice) });
        else noticeLine(notice);
      },
    });
  } catch (error) {
    if (error instanceof ServerError) throw new CliError(error.message);
    throw error;
  }
  for (const failure of handle.failures) {
    if (json) output.out(JSON.stringify({ type: 'failure', id: failure.id, message: failure.message }));
    output.err(e.red(failureLine(failure)));
  }
  if (handle.servers.length === 0) {
    await handle.stop();
    // Nothing to serve: refused as an error, so `--json` gets the error object on stdout (main.ts).
    const unlisted = unlistedFolderWarning(ws, 'server');
    if (handle.failures.length === 0) throw new CliError(unlisted ? `No server to start: ${formatWarning(unlisted)}` : `This workspace has no servers to start (add one under servers/).${subfoldersNotRead(ws, 'server')}`, EXIT.failed);
    output.err('ferry: No server could start.');
    return EXIT.failed; // only unknown names were refused above, as bad usage
  }
  printStarted(handle, output, json, handle.environment);
  // A misspelt field (`rotues:`) is kept but does nothing: one line per file read, as `ferry run` says it.
  const workspaceFields = unknownFieldsWarning('workspace', 'ferry.yaml', ws.file);
  // A server file that reads with a warning (a number where text goes: `value: 007` is 7) starts,
  // and its warning is said once, at its line, as `ferry run` says a request file's.
  const fileWarnings = ws.servers
    .filter((entry) => handle.servers.some((server) => server.id === entry.id))
    .flatMap((entry) => ws.warnings.filter((warning) => warning.file === entry.file).map((warning) => ({ server: entry.id, level: 'warning' as const, message: formatWarning(warning) })));
  for (const notice of [...(workspaceFields ? [{ level: 'warning' as const, message: workspaceFields }] : []), ...fileWarnings, ...handle.unknownFields]) {
    if (json) output.out(JSON.stringify({ type: 'notice', ...notice }));
    else output.err(e.yellow(`ferry: ${notice.message}`));
  }
  for (const notice of handle.exposed) {
    if (json) output.out(JSON.stringify({ type: 'notice', ...notice }));
    output.err(e.yellow(`ferry: ${notice.message}`));
  }
  const traffic = new TrafficPrinter(printer, c, { json, linesPerSecond: terminal ? TERMINAL_LINES_PER_SECOND : undefined });
  const unsubscribe = handle.traffic.subscribe(traffic.print);
  await until;
  burst.flush();
  // Requests answered before the stop are printed above `Stopping…`, which is written at once: their
  // records reach the listener a turn after they are added, and the printer may be gathering them.
  await new Promise((resolve) => setImmediate(resolve));
  await printer.flush();
  if (!json) output.out(c.dim('Stopping…'));
  await handle.stop();
  // The requests the stop cut short (a client mid-request, an open stream) are printed too: their
  // records reach the listener a turn after they are added.
  await new Promise((resolve) => setImmediate(resolve));
  unsubscribe();
  traffic.finish();
  await printer.flush();
  if (!json) output.out(`Stopped ${handle.servers.length} server${handle.servers.length === 1 ? '' : 's'}.`);
  // Ctrl-C is a clean stop (issue 10: exit 0). A server that could not start was reported when it
  // failed and the others served; only "nothing could start" ends with 1, above.
  return EXIT.ok;
}

function printStarted(handle: ServersHandle, output: Output, json: boolean, environment: string | undefined): void {
  if (json) {
    for (const s of handle.servers) output.out(JSON.stringify({ type: 'server', id: s.id, name: s.name, kind: s.kind, url: s.clientUrl }));
    return;
  }
  const c = paint(output);
  // One-line labels, escaped before they are padded (a line feed as `\n`), so the columns line up.
  const names = handle.servers.map((s) => terminalLine(s.name));
  const width = Math.max(...names.map((name) => name.length));
  const lines = handle.servers.map((s, i) => `  ${c.bold(names[i]!.padEnd(width))}  ${c.cyan(s.clientUrl)}  ${c.dim(`${s.kind} · servers/${terminalLine(s.id)}.yaml`)}`);
  const env = environment ? ` with environment ${environment}` : '';
  output.out([`Serving${env} (Ctrl-C stops):`, ...lines].join('\n'));
}

