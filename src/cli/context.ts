/** What every command gets: the output and the global options. */
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { openWorkspaceForUse } from '../session/open-workspace.js';
import type { RequestSummary } from '../model/index.js';
// Modules, not the folder's index: `ferry ls` loads this and should load no more than it uses.
import type { ListingCacheOptions } from '../workspace/listing-cache.js';
import { WorkspaceError } from '../workspace/open.js';
import { namesFolderOnly, SelectError, selectRequests } from '../workspace/select.js';
import { REQUESTS_DIR } from '../workspace/tree.js';
import { formatWarning, isUnknownFieldsWarning } from '../workspace/warning-text.js';
import type { Workspace } from '../workspace/types.js';
import { CliError } from './exit-codes.js';
import type { Output } from './output.js';

export interface CliContext {
  output: Output;
  cwd: string;
  /** Set by the action when it ends; main returns it. */
  exitCode: number;
  /** Where commands that read standard input (`ferry secret set`, `ferry import -`, `ferry update --from -`) read it; the process's stdin when unset. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /**
   * Run by main when the command has ended, however it ended (a refusal, a failure, success): what
   * the action made in advance and may leave unused (the folders of report files), in order.
   */
  atEnd?: Array<() => Promise<void>>;
}

/** The global `-w, --workspace DIR` of the root command. */
export function workspaceOption(command: Command): string | undefined {
  let current: Command | null = command;
  while (current?.parent) current = current.parent;
  return (current?.opts() as { workspace?: string }).workspace;
}

/**
 * `requests`: read only these requests and folders (and the folders above them), as run and export need.
 * `listing`: keep only each request's summary, as `ferry ls` needs (with `listingCache`, from that cache where files are unchanged).
 * `showsWarnings`: the command shows the workspace's warnings itself (run, ls, serve) or must print
 * nothing (tab completion); otherwise fields of `ferry.yaml` that do nothing (a typo) are said on stderr.
 */
export async function openWorkspaceFor(command: Command, ctx: CliContext, read: { requests?: readonly string[]; listing: true; listingCache?: ListingCacheOptions; showsWarnings?: boolean }): Promise<Workspace<RequestSummary>>;
export async function openWorkspaceFor(command: Command, ctx: CliContext, read?: { requests?: readonly string[]; listing?: false; showsWarnings?: boolean }): Promise<Workspace>;
export async function openWorkspaceFor(command: Command, ctx: CliContext, read: { requests?: readonly string[]; listing?: boolean; listingCache?: ListingCacheOptions; showsWarnings?: boolean } = {}): Promise<Workspace<RequestSummary>> {
  const ws = await openFor(command, ctx, read);
  if (!read.showsWarnings) {
    for (const warning of ws.warnings) if (warning.file === 'ferry.yaml' && isUnknownFieldsWarning(warning)) ctx.output.err(`ferry: ${formatWarning(warning)}`);
  }
  return ws;
}

async function openFor(command: Command, ctx: CliContext, read: { requests?: readonly string[]; listing?: boolean; listingCache?: ListingCacheOptions }): Promise<Workspace<RequestSummary>> {
  const option = workspaceOption(command);
  // Relative to the command's folder (ctx.cwd), which is not always the process's.
  const dir = option === undefined ? undefined : path.resolve(ctx.cwd, option);
  if (dir !== undefined) await checkWorkspaceFolder(dir);
  try {
    // An update from API spec that a crash or kill interrupted is finished (or undone) first.
    return await openWorkspaceForUse(dir, {
      cwd: ctx.cwd,
      ...(read.requests?.length ? { requests: read.requests } : {}),
      listing: read.listing === true,
      ...(read.listingCache ? { listingCache: read.listingCache } : {}),
      onRecovered: (recovery, moved) => ctx.output.err(recovery === 'import undone'
        ? 'ferry: an interrupted `ferry import` was undone (its partly written files removed); import again.'
        : recovery === 'move finished'
          ? `ferry: an interrupted move was finished: requests/${moved?.from} is now requests/${moved?.to}, load tests updated.`
          : `ferry: an interrupted \`ferry update\` was ${recovery === 'finished' ? 'finished' : 'undone (nothing of it had been applied)'}.`),
    });
  } catch (error) {
    if (error instanceof WorkspaceError) throw new CliError(error.message);
    throw error;
  }
}

/** `-w DIR` names a folder: say so plainly when it is missing or a file (before looking for ferry.yaml in it). */
async function checkWorkspaceFolder(dir: string): Promise<void> {
  const stat = await fs.stat(dir).catch(() => undefined);
  if (!stat) throw new CliError(`-w ${dir}: there is no such folder. Give the folder that holds ferry.yaml, or create one with \`ferry init ${dir}\`.`);
  if (!stat.isDirectory()) throw new CliError(`-w ${dir}: this is a file, not a folder. Give the folder that holds ferry.yaml.`);
}

/**
 * Request paths as the shell gives them. `ferry run`, `ls` and `export` take paths under
 * `requests/`; a user in `requests/Users` who tab-completes `get\ user.yaml`, or a CI line with
 * `$PWD/requests/…`, gives one relative to the current folder or an absolute one. A path that
 * names nothing in the workspace is read that way too; one that lies outside `requests/` is
 * refused, saying so. (Here, not in a module of its own: these commands load this one anyway.)
 */
export function fromShellPaths<R extends RequestSummary>(ws: Workspace<R>, paths: readonly string[], cwd: string, command: string): string[] {
  return paths.map((given) => {
    // A path of the workspace wins over the same words read from the current folder.
    try {
      selectRequests(ws.tree, [given], { warnings: ws.warnings });
      return given;
    } catch (error) {
      if (!(error instanceof SelectError)) throw error;
    }
    const requests = path.join(ws.root, REQUESTS_DIR);
    const absolute = path.resolve(cwd, given);
    const relative = path.relative(requests, absolute);
    const outside = relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
    if (!outside) return relative === '' ? '.' : `${relative.split(path.sep).join('/')}${namesFolderOnly(given) ? '/' : ''}`;
    // Said only of what is plainly a place on disk: a typo of a request name stays "No request or folder".
    if (path.isAbsolute(given) || given.split(/[\\/]/).includes('..') || existsSync(absolute)) {
      throw new CliError(`"${given}" is not under this workspace's requests/ folder (${requests}): ferry ${command} takes requests and folders there.`);
    }
    return given;
  });
}
