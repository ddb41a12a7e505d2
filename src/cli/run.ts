/**
 * `ferry run [PATH...]`: runs requests, folders or the whole workspace (spec 1.8, 4.8).
 * Options use the names Newman and Bruno users already type. Parsing and printing only: the
 * work is a `Session` (`src/session/`) running in the runner, reporters come from the runner's
 * reporter table, data files from `src/variables/`.
 */
import path from 'node:path';
import { Option, type Command } from 'commander';
import {
  createReporter,
  isReporterName,
  prepareWorkspaceReportFile,
  removeEmptyFolders,
  ProgressReporter,
  REPORTER_NAMES,
  ReportFileError,
  SelectError,
  selectRequests,
  ReportFileWriter,
  REPORT_BODY_BYTES,
  RunStop,
  type Reporter,
  type ReporterName,
  type ReportSink,
  type RunItem,
} from '../runner/index.js';
import { Session } from '../session/index.js';
import { isLinkedRequestsFolder, type Workspace } from '../workspace/index.js';
import { parseVarOptions, VarOptionError } from '../template/index.js';
import { DataFileError, readDataFile, RunError, type DataRow } from '../variables/index.js';
import { fromShellPaths, openWorkspaceFor, type CliContext } from './context.js';
import { checkEnvOption } from './env-option.js';
import { CliError, EXIT, onCtrlC } from './exit-codes.js';
import { MAX_TIMER_MS } from '../model/constants.js';
import { examples } from './examples.js';
import { preferQuickStart } from '../scripts/host/quick-start.js';
import { startCompilingQuickJS } from '../scripts/host/wasm-module.js';
import { hasScripts } from '../request/index.js';
import { requestKind } from '../protocols/index.js';

/** Runs of at most this many sends run scripts on baseline WebAssembly code (scripts/host/quick-start.ts). */
const QUICK_START_SENDS = 200;

interface RunFlags {
  env?: string;
  folder?: string[];
  var?: string[];
  iterations?: string;
  data?: string;
  bail?: boolean;
  delayMs?: string;
  timeoutMs?: string;
  insecure?: boolean;
  allowPrograms?: boolean;
  allowFilesOutside?: boolean;
  reporter?: string[];
  outJson?: string;
  outJunit?: string;
  outHtml?: string;
  verbose?: boolean;
  reportBodies?: boolean;
  startServers?: boolean;
}

// No default value: commander would print "(default: [])" in the help.
const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

const renamed = (newman: string, ferry: string) => `${newman} is Newman's spelling: in Ferry use ${ferry}.`;
const CERTIFICATES = 'docs/running.md, Certificates';
const NO_COLOR_OPTION = 'Ferry has no --color option: set NO_COLOR=1 for no colour, FORCE_COLOR=1 for colour into a pipe or a file.';

/**
 * Newman's options that Ferry has under another name, or not as an option (CI lines are pasted
 * from Newman's): taken, hidden from the help, only to be refused with what to type in Ferry
 * instead of commander's "unknown option". `value` is what was given, for a line to copy.
 */
const NEWMAN_OPTIONS: ReadonlyArray<readonly [flags: string, instead: (value: string) => string]> = [
  ['--reporters <names>', (v) => renamed('--reporters', `-r/--reporter ${v} (repeatable or comma-separated: ${REPORTER_NAMES.join(', ')})`)],
  ['--reporter-json-export <file>', (v) => renamed('--reporter-json-export', `--out-json ${v}`)],
  ['--reporter-junit-export <file>', (v) => renamed('--reporter-junit-export', `--out-junit ${v}`)],
  ['--reporter-html-export <file>', (v) => renamed('--reporter-html-export', `--out-html ${v}`)],
  ['--reporter-htmlextra-export <file>', (v) => renamed('--reporter-htmlextra-export', `--out-html ${v}`)],
  ['--iteration-count <n>', (v) => renamed('--iteration-count', `-n/--iterations ${v}`)],
  ['--iteration-data <file>', (v) => renamed('--iteration-data', `-d/--data ${v}`)],
  ['--delay-request <ms>', (v) => renamed('--delay-request', `--delay-ms ${v}`)],
  ['--timeout-request <ms>', (v) => renamed('--timeout-request', `--timeout-ms ${v}`)],
  ['--environment <name>', (v) => renamed('--environment', `-e/--env ${v} (an environment of the workspace, by id or name)`)],
  ['--global-var <key=value>', (v) => renamed('--global-var', `--var ${v} (it wins over every other definition)`)],
  ['-g, --globals <file>', (v) => `Ferry has no globals file (-g/--globals): import it once with \`ferry import ${v}\` (it becomes an environment) and choose it with -e NAME, or give each value with --var key=value.`],
  ['--timeout <ms>', (v) => `Ferry has no time limit on the whole run (--timeout): --timeout-ms N limits each request; for the whole run, use your CI's job timeout or \`timeout ${Math.ceil(Number(v) / 1000) || 60}s ferry run …\`.`],
  ['-x, --suppress-exit-code', () => 'Ferry has no option to ignore failures (-x/--suppress-exit-code): add `|| true` after the command where a failed run must not fail the job.'],
  ['--color <when>', () => NO_COLOR_OPTION],
  ['--no-color', () => NO_COLOR_OPTION],
  ['--ignore-redirects', () => "Ferry has no --ignore-redirects: set followRedirects: false in a request's settings, or for every request with `ferry config set followRedirects false`."],
  ['--ssl-extra-ca-certs <file>', () => `Ferry has no --ssl-extra-ca-certs: trust extra certificate authorities with \`ferry config set caFiles FILE\` (${CERTIFICATES}).`],
  ...(['--ssl-client-cert', '--ssl-client-key', '--ssl-client-cert-list'] as const).map(
    (flag) => [`${flag} <file>`, () => `Ferry has no ${flag}: set client certificates by host with \`ferry config set clientCertificates '[{"host":…,"certPath":…,"keyPath":…}]'\` (${CERTIFICATES}).`] as const,
  ),
  ['--cookie-jar <file>', () => "Ferry has no --cookie-jar: a run uses the workspace's cookie jar on this computer (`ferry cookies ls`, `ferry cookies clear`)."],
];

/** A Newman option given to `ferry run`, refused with what to type instead. */
function refuseNewmanOptions(command: Command, ctx: CliContext): void {
  for (const option of command.options) {
    const entry = NEWMAN_OPTIONS.find(([flags]) => flags === option.flags);
    if (!entry || command.getOptionValueSource(option.attributeName()) !== 'cli') continue;
    const value = command.getOptionValue(option.attributeName()) as unknown;
    // `--environment my.postman_environment.json`: the file is to be imported first, as with -e.
    if (option.long === '--environment') checkEnvOption(String(value), ctx.cwd);
    throw new CliError(entry[1](typeof value === 'string' ? value : ''));
  }
}

export function registerRun(program: Command, ctx: CliContext): void {
  const run = program
    .command('run')
    .description('run requests: request paths (Folder/Name.yaml, extension optional), folders, or the whole workspace')
    .addHelpText('after', examples([["ferry run", "every request, in tree order"], ["ferry run Users \"Orders/Create order\" -e staging", "a folder and a request"], ["ferry run --folder Users -n 3 -d rows.csv", "Newman's --folder, 3 iterations, data rows"], ["ferry run -r json --out-junit report.xml", "JSON on stdout, JUnit to a file"]]))
    .argument('[paths...]', 'requests or folders under requests/; none = the whole workspace')
    .option('-e, --env <name>', 'environment id or name (default: the active environment on this computer)')
    .option('--folder <path>', "a folder (or request) to run, as Newman's --folder: the same as giving its path as an argument (repeatable)", collect)
    .option('--var <key=value>', 'set a variable; wins over every other definition (repeatable)', collect)
    .addOption(new Option('--env-var <key=value>', 'alias of --var').argParser(collect).hideHelp())
    .option('-n, --iterations <n>', 'run everything N times (default: one per data row, else 1)')
    .option('-d, --data <file>', 'CSV or JSON rows of variables, one iteration each')
    .option('--bail', 'stop at the first failed request or test')
    .option('--delay-ms <n>', 'pause between requests')
    .option('--timeout-ms <n>', "whole-request timeout for every request (overrides each request's setting; 0 = none)")
    .option('-k, --insecure', 'do not verify TLS certificates')
    .option('--allow-programs', 'allow requests that start programs (MCP over stdio)')
    .option('--allow-files-outside', 'allow body files outside the workspace folder')
    .option('-r, --reporter <names>', `${REPORTER_NAMES.join(', ')} (repeatable or comma-separated; default cli)`, collect)
    .option('--out-json <file>', 'write the JSON report to FILE (implies -r json; - = stdout)')
    .option('--out-junit <file>', 'write the JUnit XML report to FILE (implies -r junit)')
    .option('--out-html <file>', 'write the HTML report (one self-contained page) to FILE (implies -r html)')
    .option('-v, --verbose', "print each response's status line, headers and body (bodies cut at 16 KB)")
    .option('--report-bodies', "keep each response's headers and body (up to 64 KB) in the JSON and HTML reports")
    .option('--start-servers', "start the workspace's servers marked autoStart before the run (one that cannot start: nothing is sent, exit 2), stop them after")
    .action(async (paths: string[], flags: RunFlags & { envVar?: string[] }, command: Command) => {
      // Ctrl-C, or SIGTERM (how CI cancels a job or ends one past its time limit, and `docker stop`
      // or `timeout` end a process): the request in flight is cancelled and the run ends with its
      // summary, reports (which say the run was stopped) and saved values; a second one quits at once.
      // Taken from the command's start (and held while Ferry loaded, bin/ferry.js), so one pressed
      // while the workspace opens ends the run the same way, before its first request.
      const interrupt = new AbortController();
      const stopListening = onCtrlC((signal) => {
        const by = signal === 'SIGINT' ? 'Ctrl-C' : signal;
        interrupt.abort(new RunStop(by));
        ctx.output.err(
          signal === 'SIGINT'
            ? 'ferry: stopping: the request in flight is cancelled; the summary and reports follow (Ctrl-C again to quit at once).'
            : `ferry: stopping (${signal}): the request in flight is cancelled; the summary and reports follow (a second ${signal} quits at once).`,
        );
      }, ['SIGINT', 'SIGTERM']);
      try {
        await runCommand(paths, flags, command, ctx, interrupt);
      } finally {
        // Last: a late copy of the Ctrl-C (SAME_CTRL_C_MS) must not kill the process while it closes.
        stopListening();
      }
    });
  // Newman's spellings, hidden from the help: refused with what to type instead (refuseNewmanOptions).
  for (const [flags] of NEWMAN_OPTIONS) run.addOption(new Option(flags).hideHelp());
}

/** `ferry run`'s work, from its flags to its exit code; `interrupt` is aborted by Ctrl-C or SIGTERM, also before the run begins. */
async function runCommand(paths: string[], flags: RunFlags & { envVar?: string[] }, command: Command, ctx: CliContext, interrupt: AbortController): Promise<void> {
  refuseNewmanOptions(command, ctx);
  const options = parseFlags(flags);
  checkEnvOption(options.env, ctx.cwd);
  paths = [...paths, ...(flags.folder ?? [])];
  // Only what the run sends is read: one request of a 30,000-request workspace opens fast.
  const ws = await openWorkspaceFor(command, ctx, { requests: paths, showsWarnings: true });
  paths = fromShellPaths(ws, paths, ctx.cwd, 'run');
  let rows: DataRow[] | undefined;
  if (options.dataFile) {
    try {
      rows = await readDataFile(path.resolve(ctx.cwd, options.dataFile));
    } catch (error) {
      if (error instanceof DataFileError) throw new CliError(sentence(error.message));
      throw error;
    }
  }

  // Report files are checked before the run, not found unwritable after it.
  const files = reportFiles(options);
  // Two reports written to one file: the last one would silently replace the other.
  const named = Object.entries(files).filter((entry): entry is [string, string] => entry[1] !== undefined);
  for (const [i, [name, file]] of named.entries()) {
    const twin = named.slice(i + 1).find(([, other]) => path.resolve(ctx.cwd, other) === path.resolve(ctx.cwd, file));
    if (twin) throw new CliError(`--out-${name} and --out-${twin[0]} both name ${file}: each report needs its own file.`);
  }
  // The folders made for them go again if the run is refused or ends with them empty.
  const made: string[] = [];
  (ctx.atEnd ??= []).push(() => removeEmptyFolders(made));
  try {
    for (const [name, file] of Object.entries(files)) {
      if (file) made.push(...(await prepareWorkspaceReportFile(path.resolve(ctx.cwd, file), `--out-${name}`, file, ws.root)));
    }
  } catch (error) {
    if (error instanceof ReportFileError) throw new CliError(error.message);
    throw error;
  }

  const reporters: Reporter[] = [];
  // On a terminal, a progress line on stderr while each request is in flight (first, so it
  // is erased before any reporter prints).
  if (ctx.output.status) reporters.push(new ProgressReporter(ctx.output.status));
  for (const name of options.reporters) reporters.push(createReporter(name, sinkFor(files[name], name, ctx), { verbose: options.verbose, bodies: options.reportBodies }));
  // Without the terminal report (-r json, -r junit), the run's warnings (file problems, a
  // setNextRequest loop cut off, values not saved) go to stderr, where CI logs show them.
  if (!options.reporters.includes('cli')) reporters.push({ onEvent: (event) => void (event.type === 'warning' && ctx.output.err(`ferry: warning: ${event.message}`)) });
  if (options.verbose && !options.reporters.includes('cli')) ctx.output.err(`ferry: warning: ${verboseUnseen(options.reporters, files)}`);

  let servers: { stop(): Promise<void> } | undefined;
  if (options.startServers) {
    // A path that names nothing is said before any server starts (and has to be stopped again).
    try {
      selectRequests(ws.tree, paths, { warnings: ws.warnings });
    } catch (error) {
      throw selectionFailure(error, ws, options.bail, paths);
    }
    // A Ctrl-C already pressed: no server is started only to be stopped again.
    // Loaded only when asked for, as the servers themselves: a run without the flag reads neither.
    if (!interrupt.signal.aborted) servers = await (await import('./run-servers.js')).startAutoServers(ws, options.env, options.vars, options.allowFilesOutside, ctx);
  }
  const items = selectedItems(ws, paths);
  if (items.length * (options.iterations ?? Math.max(rows?.length ?? 0, 1)) <= QUICK_START_SENDS) preferQuickStart();
  if (items.some((item) => runsScripts(ws, item))) {
    // QuickJS's WebAssembly compiles on V8's background threads; meanwhile the main thread
    // loads the first request's client, which would otherwise load after its scripts.
    startCompilingQuickJS();
    void loadFirstClient(items);
  }
  const session = new Session({
    workspace: ws,
    environment: options.env,
    onActiveEnvironment: (message) => ctx.output.err(`ferry: ${message}`),
    vars: options.vars,
    timeoutMs: options.timeoutMs,
    insecure: options.insecure,
    allowFilesOutside: options.allowFilesOutside || undefined,
    allowPrograms: options.allowPrograms || undefined,
    onAuthorizeUrl: (url) => ctx.output.err(`OAuth 2.0: open this URL in a browser to authorize, then come back:\n  ${url}\nWaiting for the redirect...`),
    ...(inCiJob(process.env, Boolean(process.stdin.isTTY || process.stderr.isTTY)) ? { noBrowser: NO_BROWSER_IN_CI } : {}),
  });
  try {
    const outcome = await session.run(paths, {
      iterations: options.iterations,
      data: rows,
      bail: options.bail,
      delayMs: options.delayMs,
      reporters,
      signal: interrupt.signal,
      keepResults: false,
      // Kept only when a reporter shows them: a run's memory then grows by one cut body at a time.
      ...(options.verbose || options.reportBodies ? { responses: { maxBodyBytes: REPORT_BODY_BYTES } } : {}),
    });
    // A run stopped by Ctrl-C has not passed, even when nothing it ran failed (stopped between requests).
    ctx.exitCode = outcome.summary.failedRequests > 0 || outcome.summary.failedTests > 0 || outcome.interrupted ? EXIT.failed : EXIT.ok;
  } catch (error) {
    if (error instanceof RunError || error instanceof ReportFileError) throw new CliError(error.message);
    throw selectionFailure(error, ws, options.bail, paths);
  } finally {
    // What the run changed was saved at its end (a failure there was a warning in its report).
    await session.close();
    await servers?.stop();
  }
}

/**
 * A selection's failure as the command line says it; any other error as it is. With `--bail`, a
 * path that is one of Newman's `--bail` modifiers (`--bail failure`) is said to be one.
 */
function selectionFailure(error: unknown, ws: Workspace, bail = false, paths: readonly string[] = []): unknown {
  if (!(error instanceof SelectError)) return error;
  // Nothing found because requests/ is a link: that is the message, not "no request".
  const linked = ws.warnings.find(isLinkedRequestsFolder);
  if (linked) return new CliError(linked.message);
  const modifier = bail ? paths.find((p) => /^(failure|folder)(,(failure|folder))*$/i.test(p) && error.message.includes(`"${p}"`)) : undefined;
  const hint = modifier ? ` --bail takes no value in Ferry (it stops at the first failed request or test, as Newman's --bail failure): leave out "${modifier}".` : '';
  return new CliError(`${error.message}${hint}`);
}

/**
 * A CI job (`CI` set, as most CI servers set it, and no terminal on stdin or stderr): nobody is
 * there to open the authorization URL, so the OAuth 2.0 authorization code grant fails at once
 * instead of waiting 5 minutes for a browser (docs/running.md). `CI=false` or `CI=0` is no CI job.
 */
export function inCiJob(env: NodeJS.ProcessEnv, terminal: boolean): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return !terminal && ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

const NO_BROWSER_IN_CI =
  'this run is not interactive (CI is set and there is no terminal), so Ferry does not wait for one. ' +
  "Get a token beforehand and pass it with --var (ferry run --var token=…, with the request's auth set to bearer {{token}}), or use the client credentials grant, which needs no browser.";

/** The requests the run will send; a selection that fails gives none (the run reports it). */
function selectedItems(ws: Workspace, paths: string[]): RunItem[] {
  try {
    return selectRequests(ws.tree, paths);
  } catch {
    return [];
  }
}

/** Loads the client library of the first request's kind; a failure is the send's to report. */
async function loadFirstClient(items: RunItem[]): Promise<void> {
  const first = items.find((item) => item.node.type === 'request');
  if (first?.node.type !== 'request') return;
  await requestKind(first.node.request.kind).loadClient?.().catch(() => undefined);
}

/** Whether a send of this item runs a script. */
function runsScripts(ws: Workspace, item: RunItem): boolean {
  return item.node.type === 'request' && hasScripts(ws.file, item.folders, item.node.request, item.node.path);
}

interface ParsedRunOptions {
  env?: string;
  vars: Map<string, string>;
  iterations?: number;
  dataFile?: string;
  bail: boolean;
  delayMs?: number;
  timeoutMs?: number;
  insecure: boolean;
  allowFilesOutside: boolean;
  allowPrograms: boolean;
  reporters: ReporterName[];
  outJson?: string;
  outJunit?: string;
  outHtml?: string;
  verbose: boolean;
  reportBodies: boolean;
  startServers: boolean;
}

/** `--out-json`, `--out-junit`, `--out-html`: the report file of each reporter that has one (`--out-NAME`). */
function reportFiles(options: { outJson?: string; outJunit?: string; outHtml?: string }): Partial<Record<ReporterName, string>> {
  return { json: options.outJson, junit: options.outJunit, html: options.outHtml };
}

function wholeNumber(text: string | undefined, flag: string, min: number, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new CliError(`${flag} takes a whole number ${max === Number.MAX_SAFE_INTEGER ? `of ${min} or more` : `from ${min} to ${max}`}, not "${text}".`);
  }
  return n;
}

export function parseFlags(flags: RunFlags & { envVar?: string[] }): ParsedRunOptions {
  let vars: Map<string, string>;
  try {
    vars = parseVarOptions([...(flags.envVar ?? []), ...(flags.var ?? [])]);
  } catch (error) {
    if (error instanceof VarOptionError) throw new CliError(error.message);
    throw error;
  }
  const names = (flags.reporter ?? []).flatMap((r) => r.split(',')).map((r) => r.trim().toLowerCase()).filter(Boolean);
  for (const name of names) {
    if (isReporterName(name)) continue;
    // Newman's HTML reporters (newman-reporter-html, -htmlextra): Ferry's html is the one to ask for.
    const html = /^html/.test(name) ? " (html writes one self-contained page, as Newman's htmlextra: -r html --out-html FILE)" : '';
    throw new CliError(`Unknown reporter "${name}". Reporters: ${REPORTER_NAMES.join(', ')}${html}.`);
  }
  const outs = Object.entries(reportFiles(flags)).filter((entry): entry is [ReporterName, string] => Boolean(entry[1]));
  // `--out-json -`: that report on stdout (as `-` is for curl -o and most tools), in place of the
  // terminal report, not a file named "-".
  const dash = outs.some(([, file]) => file === '-');
  for (const [name] of outs) if (!names.includes(name)) names.push(...(names.length === 0 && !dash ? ['cli'] : []), name);
  const reporters = [...new Set(names.length ? names : ['cli'])] as ReporterName[];
  const file = (given: string | undefined) => (given === '-' ? undefined : given);
  // One report at most goes to stdout: each one without a report file (`-r json --out-junit
  // r.xml > report.json` is fine).
  const files = reportFiles({ outJson: file(flags.outJson), outJunit: file(flags.outJunit), outHtml: file(flags.outHtml) });
  const onStdout = reporters.filter((r) => !files[r]);
  if (onStdout.length > 1) {
    const others = (name: string) => onStdout.filter((r) => r !== name).join(' and ');
    if (onStdout.includes('json')) throw new CliError(`Only one report can go to stdout, and ${others('json')} already does: the JSON report needs a file: add --out-json FILE.`);
    if (onStdout.includes('html')) throw new CliError(`Only one report can go to stdout, and ${others('html')} already does: the HTML report needs a file: add --out-html FILE.`);
    throw new CliError(`Only one report can go to stdout, and ${others('junit')} already does: the JUnit report needs a file: add --out-junit FILE.`);
  }
  return {
    env: flags.env,
    vars,
    iterations: wholeNumber(flags.iterations, '--iterations', 1),
    dataFile: flags.data,
    bail: Boolean(flags.bail),
    delayMs: wholeNumber(flags.delayMs, '--delay-ms', 0, MAX_TIMER_MS),
    timeoutMs: wholeNumber(flags.timeoutMs, '--timeout-ms', 0, MAX_TIMER_MS),
    insecure: Boolean(flags.insecure),
    allowFilesOutside: Boolean(flags.allowFilesOutside),
    allowPrograms: Boolean(flags.allowPrograms),
    reporters,
    outJson: files.json,
    outJunit: files.junit,
    outHtml: files.html,
    verbose: Boolean(flags.verbose),
    reportBodies: Boolean(flags.reportBodies),
    startServers: Boolean(flags.startServers),
  };
}

/**
 * To the report file (written in pieces, put in place at the end), or to stdout (parseFlags
 * lets at most one report go there), whole lines at a time as `out` prints lines.
 */
function sinkFor(file: string | undefined, name: ReporterName, ctx: CliContext): ReportSink {
  if (file) {
    const writer = new ReportFileWriter(path.resolve(ctx.cwd, file), `--out-${name}`);
    return { write: (text) => writer.write(text), end: () => writer.end(), color: false };
  }
  let partial = '';
  return {
    color: ctx.output.color,
    write: (text) => {
      const all = partial + text;
      const cut = all.lastIndexOf('\n');
      partial = all.slice(cut + 1);
      if (cut >= 0) ctx.output.out(all.slice(0, cut));
    },
    end: () => {
      if (partial) ctx.output.out(partial);
      partial = '';
    },
  };
}

/** `-v` feeds the terminal report only (docs/running.md, Verbose): what to ask for when the run prints none. */
function verboseUnseen(reporters: readonly ReporterName[], files: Partial<Record<ReporterName, string>>): string {
  const onStdout = reporters.find((name) => !files[name]);
  const add = onStdout ? `add -r cli with --out-${onStdout} FILE` : 'add -r cli';
  return `-v shows responses in the terminal report, which -r ${reporters.join(',')} does not print: ${add} to see them, or --report-bodies to keep them in the JSON or HTML report.`;
}

/** Messages of the core sometimes start in lower case ("data file x does not exist."); ferry prints sentences. */
function sentence(message: string): string {
  return message.charAt(0).toUpperCase() + message.slice(1);
}
