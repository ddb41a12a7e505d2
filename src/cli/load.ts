/**
 * `ferry load ID` and `ferry load merge FILE...` (spec 1.8, 2.12; docs/load.md). Parsing and
 * printing only: the work is `runLoadTest` / `mergeResults` in `src/load/`.
 */
import path from 'node:path';
import type { Command } from 'commander';
import pc from 'picocolors';
import { readSettings, WorkspaceData } from '../appdata/index.js';
import {
  defaultWorkers,
  LoadInputError,
  liveLine,
  mergeResults,
  missingSegments,
  MergeError,
  parseSegment,
  parseStages,
  planNotices,
  readResultFile,
  runLoadTest,
  SegmentError,
  StageError,
  summaryText,
  type LiveTotals,
  type LoadResult,
} from '../load/index.js';
import { prepareReportFile, prepareWorkspaceReportFile, removeEmptyFolders, ReportFileError, ReportFolder, writeReportFile } from '../runner/index.js';
import { StatusLine } from '../support/status-line.js';
import { parseVarOptions, VarOptionError } from '../template/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { checkEnvOption } from './env-option.js';
import { CliError, EXIT, EXIT_CODES_HELP, onCtrlC } from './exit-codes.js';
import { examples } from './examples.js';
import { closestName } from '../model/index.js';

interface LoadFlags {
  env?: string;
  var?: string[];
  workers?: string;
  stages?: string;
  segment?: string;
  reporter?: string;
  outJson?: string;
}

const collect = (value: string, previous: string[] | undefined) => [...(previous ?? []), value];

export function registerLoad(program: Command, ctx: CliContext): void {
  const load = program
    .command('load')
    .description('run a load test (loadtests/ID.yaml); `ferry load merge FILE...` combines segment results')
    .addHelpText('after', examples([["ferry load smoke", "run loadtests/smoke.yaml"], ["ferry load smoke --stages 30s:50 -e staging", "a quick try: 50 users for 30 s"], ["ferry load smoke --segment 1/2 --out-json a.json", "the first half, to merge later"]]))
    .argument('<id>', 'the load test: its file name under loadtests/ without .yaml')
    .option('-e, --env <name>', 'environment id or name (default: the active environment on this computer)')
    .option('--var <key=value>', 'set a variable; wins over every other definition (repeatable)', collect)
    .option('--workers <n>', `generator threads (default: up to one per core, here ${defaultWorkers()})`)
    .option('--stages <list>', 'override the stages for a quick try: "30s:50,1m30s:50" (duration:target, units ms s m h)')
    .option('--segment <i/n>', 'run the i-th of n equal parts of the test (merge the parts with ferry load merge)')
    .option('-r, --reporter <name>', 'cli (summary table, default) or json (the whole result on stdout)')
    .option('--out-json <file>', 'also write the whole result (JSON, histograms included) to FILE (- = stdout, in place of the summary)')
    // More than the id: said here, so a misspelt `merge` with its files gets the nearest spelling.
    .allowExcessArguments()
    .action(async (id: string, flags: LoadFlags, command: Command) => {
      // Ctrl-C, or SIGTERM (how CI cancels a job, and `timeout` or `docker stop` end a process): every
      // worker stops at once; the partial result is printed and written, exit 1 (as `ferry run`).
      // Taken from the command's start (and held while Ferry loaded, bin/ferry.js): one pressed while
      // the workspace opens ends the test the same way, before its first request.
      const interrupt = new AbortController();
      const stopListening = onCtrlC((signal) => {
        interrupt.abort();
        ctx.output.err(
          signal === 'SIGINT'
            ? 'ferry: stopping: requests in flight are cancelled; the partial result follows (Ctrl-C again to quit at once).'
            : `ferry: stopping (${signal}): requests in flight are cancelled; the partial result follows (a second ${signal} quits at once).`,
        );
      }, ['SIGINT', 'SIGTERM']);
      try {
        await loadCommand(id, flags, command, ctx, interrupt.signal);
      } finally {
        stopListening();
      }
    });

  load
    .command('merge')
    .description('combine the result files of segments exactly and judge the thresholds on the whole')
    .addHelpText('after', examples([["ferry load merge a.json b.json", "combine segment results and judge thresholds"]]))
    .argument('<files...>', 'result files written with --out-json')
    .option('-r, --reporter <name>', 'cli (summary table, default) or json (the merged result on stdout)')
    .option('--out-json <file>', 'also write the merged result to FILE (- = stdout, in place of the summary)')
    .action(async (files: string[], own: { reporter?: string; outJson?: string }) => {
      // `-r` and `--out-json` after `merge` are read by `load` (they are its options too).
      const flags = { ...load.opts<{ reporter?: string; outJson?: string }>(), ...own };
      const { json, outJson } = resultOutputs(flags, ctx);
      const outFolder = outJson ? await checkReportFile(outJson, undefined, undefined, ctx) : undefined;
      let merged: LoadResult;
      try {
        merged = mergeResults(await Promise.all(files.map((f) => readResultFile(path.resolve(ctx.cwd, f)))), files);
      } catch (error) {
        if (error instanceof MergeError) throw new CliError(error.message);
        throw error;
      }
      const missing = missingSegments(merged.segments.parts, merged.segments.of);
      if (missing.length > 0) {
        ctx.output.err(`ferry: segment${missing.length === 1 ? '' : 's'} ${missing.map((n) => `${n}/${merged.segments.of}`).join(', ')} missing: the thresholds judged only part of the test, so the merge fails (exit 1). Merge the result files of every segment.`);
      }
      await report(merged, { json, outJson, outFolder, ctx });
    });
  for (const sub of load.commands) sub.exitOverride().configureOutput(program.configureOutput()).addHelpText('after', `\n${EXIT_CODES_HELP}`);
}

/** `ferry load ID`'s work, from its flags to its exit code; `signal` is aborted by Ctrl-C or SIGTERM, also before the test begins. */
async function loadCommand(id: string, flags: LoadFlags, command: Command, ctx: CliContext, signal: AbortSignal): Promise<void> {
  if (command.args.length > 1) {
      // `ferry load help merge`, as `ferry env help use` works (commander took `help` for the id).
      const sub = id === 'help' ? command.commands.find((c) => c.name() === command.args[1]) : undefined;
      if (sub) sub.help();
      if (closestName(id, ['merge']) === 'merge') {
        throw new CliError(`unknown command '${id}' of ferry load (Did you mean merge?): \`ferry load merge FILE...\` combines result files; \`ferry load ID\` runs one load test.`);
      }
      throw new CliError(`too many arguments for 'load'. Expected 1 argument but got ${command.args.length}.`);
    }
    checkEnvOption(flags.env, ctx.cwd);
    const { json, outJson } = resultOutputs(flags, ctx);
    let stages;
    let segment;
    let vars;
    try {
      stages = flags.stages === undefined ? undefined : parseStages(flags.stages);
      segment = flags.segment === undefined ? undefined : parseSegment(flags.segment);
      vars = parseVarOptions(flags.var ?? []);
    } catch (error) {
      if (error instanceof StageError || error instanceof SegmentError || error instanceof VarOptionError) throw new CliError(error.message);
      throw error;
    }
    const workers = flags.workers === undefined ? undefined : wholeNumber(flags.workers, '--workers', 1, 256);
    const ws = await openWorkspaceFor(command, ctx);
    // As `ferry run`'s reports: inside the workspace, never through a linked folder.
    const outFolder = outJson ? await checkReportFile(outJson, flags.outJson!, ws.root, ctx) : undefined;
    const data = new WorkspaceData(ws.id, ws.root);
    const settings = await readSettings();

    const status = ctx.output.status ? new StatusLine(ctx.output.status) : undefined;
    let live: LiveTotals | undefined;
    let model: 'virtualUsers' | 'arrivalRate' = 'virtualUsers';
    const timer = status ? setInterval(() => live && status.show(liveLine(live.view(), model)), 1000) : undefined;
    let result: LoadResult;
    try {
      result = await runLoadTest({
        workspace: ws,
        id,
        environment: flags.env,
        onActiveEnvironment: (message) => ctx.output.err(`ferry: ${message}`),
        vars,
        ...(stages ? { stages } : {}),
        ...(segment ? { segment } : {}),
        ...(workers !== undefined ? { workers } : {}),
        data,
        settings,
        signal,
        onPlan: (plan) => {
          model = plan.test.model;
          for (const notice of planNotices(plan)) ctx.output.err(`ferry: ${notice}`);
        },
        onLive: (totals) => (live = totals),
      });
    } catch (error) {
      if (error instanceof LoadInputError) throw new CliError(error.message);
      throw error;
    } finally {
      if (timer) clearInterval(timer);
      status?.clear();
    }
    await report(result, { json, outJson, outFolder, ctx });
}

async function report(result: LoadResult, options: { json: boolean; outJson?: string; outFolder?: ReportFolder; ctx: CliContext }): Promise<void> {
  const { ctx } = options;
  const text = `${JSON.stringify(result, null, 2)}\n`;
  if (options.outJson) {
    try {
      await writeReportFile(options.outJson, text, '--out-json', options.outFolder);
    } catch (error) {
      if (error instanceof ReportFileError) throw new CliError(error.message);
      throw error;
    }
  }
  if (options.json) ctx.output.out(text.replace(/\n$/, ''));
  else {
    const colors = pc.createColors(ctx.output.color);
    ctx.output.out(summaryText(result, { green: colors.green, red: colors.red, bold: colors.bold, dim: colors.dim }));
  }
  ctx.exitCode = result.passed ? EXIT.ok : EXIT.failed;
}

/**
 * Where the result goes: `json` on stdout (`-r json`, or `--out-json -`: `-` is stdout, as for
 * `ferry run` and `curl -o -`, never a file named "-"), `outJson` the file to write it to.
 */
function resultOutputs(flags: { reporter?: string; outJson?: string }, ctx: CliContext): { json: boolean; outJson?: string } {
  const json = reporterIsJson(flags.reporter);
  if (flags.outJson !== '-') return { json, outJson: flags.outJson === undefined ? undefined : path.resolve(ctx.cwd, flags.outJson) };
  if (flags.reporter !== undefined && !json) throw new CliError('--out-json - puts the result on stdout, where -r cli prints the summary: give --out-json a FILE, or leave out -r cli.');
  return { json: true };
}

function reporterIsJson(name: string | undefined): boolean {
  const value = (name ?? 'cli').trim().toLowerCase();
  if (value !== 'cli' && value !== 'json') throw new CliError(`Unknown reporter "${name}". Reporters of ferry load: cli, json.`);
  return value === 'json';
}

/**
 * Checks `--out-json FILE` before anything runs; with `workspaceRoot`, a linked folder of the
 * workspace on its way is refused too. The folders made for it go again when the command ends
 * with them empty (a load test refused after this check).
 */
async function checkReportFile(file: string, display: string | undefined, workspaceRoot: string | undefined, ctx: CliContext): Promise<ReportFolder> {
  try {
    const made = workspaceRoot !== undefined ? await prepareWorkspaceReportFile(file, '--out-json', display ?? file, workspaceRoot) : await prepareReportFile(file, '--out-json');
    (ctx.atEnd ??= []).push(() => removeEmptyFolders(made));
    // The folder as checked: checked again before the result is put in place.
    return new ReportFolder(file);
  } catch (error) {
    if (error instanceof ReportFileError) throw new CliError(error.message);
    throw error;
  }
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max) throw new CliError(`${flag} takes a whole number from ${min} to ${max}, not "${text}".`);
  return n;
}
