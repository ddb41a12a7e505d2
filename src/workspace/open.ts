/** Finding, creating and opening a workspace folder (spec 2.1–2.2, 7, 9). */
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { makeDirs } from '../support/make-dirs.js';
import { describeSystemError, fileProblemReason } from '../support/system-error.js';
import { FORMAT_VERSION, newerFormatProblem, WORKSPACE_FILE } from '../model/constants.js';
import type { EnvironmentFile, EnvironmentSummary, RequestFile, RequestSummary, ResourceKind, WorkspaceFile, WorkspaceSummary } from '../model/index.js';
import { MAX_YAML_BYTES, readTextFile, writeFileAtomic } from './files.js';
import { sizeOverLimit } from '../support/human-units.js';
import { checkNewDisplayName } from './names.js';
import type { ReadOutcomeOf } from './read-resource.js';
import { secretValueKeys, warnSecretValues } from './secret-values.js';
import { compareNames, isSymbolicLink, isYamlFile, notAFolderWarning, readRequestTree, REQUESTS_DIR, skippedEntryWarning, stripYaml, symlinkMessage, type TreeReader, ymlWarning } from './tree.js';
import { selectRequests, SelectError } from './select.js';
import { readRequestTreePart } from './tree-part.js';
import { ListingCache, NeedsParsing, type ListingCacheOptions } from './listing-cache.js';
import type { Entry, FolderNode, Warning, Workspace } from './types.js';
import { renderYaml } from './yaml-file.js';
import { caseMisnamedFolderWarnings, postmanExportWarning, subfolderWarning } from './unread-entries.js';

/** The model's schemas and the YAML parsers, loaded when a file must be read (not by a listing the cache gives whole). */
const loadParsing = () => import('./parsing.js');

export const ENVIRONMENTS_DIR = 'environments';
export const SERVERS_DIR = 'servers';
export const LOADTESTS_DIR = 'loadtests';
export const SPECS_DIR = 'specs';

/** A refusal to open: the message says what is wrong and what to do. */
export class WorkspaceError extends Error {
  override name = 'WorkspaceError';
}

/** Walks up from `start` to the first folder holding `ferry.yaml`, as git does for `.git`. */
export async function findWorkspaceRoot(start: string): Promise<string | undefined> {
  let current = path.resolve(start);
  for (;;) {
    try {
      const stat = await fs.lstat(path.join(current, WORKSPACE_FILE));
      if (stat.isFile()) return current;
    } catch {
      // not here; keep walking up
    }
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Creates a new workspace in `dir` (created if needed). Refuses a folder that already is one. */
export async function initWorkspace(dir: string, name?: string): Promise<string> {
  const root = path.resolve(dir);
  const displayName = name ?? path.basename(root);
  // Checked before anything is created, so a refused name leaves no folder behind.
  const problem = checkNewDisplayName(displayName);
  if (problem) throw new WorkspaceError(`The workspace name is not allowed: ${problem}`);
  await refuseInsideResourceFolder(root);
  try {
    await makeDirs(root);
  } catch (error) {
    throw new WorkspaceError(cannotCreate(root, error));
  }
  const file = path.join(root, WORKSPACE_FILE);
  try {
    await fs.lstat(file);
    throw new WorkspaceError(`${file} already exists: this folder is a workspace already.`);
  } catch (error) {
    if (error instanceof WorkspaceError) throw error;
  }
  await writeFileAtomic(file, renderYaml({ version: FORMAT_VERSION, id: randomUUID(), name: displayName }));
  await ensureDirs(root);
  return root;
}

/**
 * A workspace inside another one's requests/ (environments/, servers/, loadtests/) would be read as
 * part of it: its ferry.yaml as a request or an environment, its folders as folders of requests.
 * Anywhere else under another workspace (a monorepo's packages/api) is fine.
 */
async function refuseInsideResourceFolder(root: string): Promise<void> {
  const outer = await findWorkspaceRoot(path.dirname(root));
  if (!outer) return;
  const folder = path.relative(outer, root).split(path.sep)[0];
  if (folder === undefined || ![REQUESTS_DIR, ENVIRONMENTS_DIR, SERVERS_DIR, LOADTESTS_DIR].includes(folder)) return;
  throw new WorkspaceError(`${root} is inside the ${folder}/ folder of the workspace ${outer}, whose files there would be read as its own (ferry.yaml as a request or environment). Choose a folder outside ${path.join(outer, folder)}/.`);
}

/** Why the workspace folder cannot be made, and what to do. */
function cannotCreate(root: string, error: unknown): string {
  const { code, path: where } = error as NodeJS.ErrnoException;
  const at = where ?? root;
  const reason = code === 'ENOENT'
    ? `${path.dirname(at)} does not allow new folders`
    : code === 'ENOTDIR' ? `a part of the path is a file, not a folder`
    : (describeSystemError(error)?.message.replace(/^Could not [^:]*: /, '').replace(/\.$/, '') ?? (error as Error).message);
  return `Cannot create the workspace folder ${root}: ${reason}${code === 'ENOENT' || code === 'ENOTDIR' ? ` (${code})` : ''}. Choose a folder you can write to.`;
}

async function ensureDirs(root: string): Promise<void> {
  for (const dir of [REQUESTS_DIR, ENVIRONMENTS_DIR]) {
    try {
      await fs.mkdir(path.join(root, dir));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

export interface OpenOptions {
  /**
   * Read only the requests and folders these paths name (as `ferry run` and `ferry export` take
   * them), with the folders above them: the tree then holds just that part (`Workspace.part`).
   * A path the part read cannot find plainly makes it read the whole tree instead.
   */
  requests?: readonly string[];
  /**
   * Keep only each request's summary (name, kind, method, seq, openapi: what `ferry ls` shows and
   * orders by). The same files are read and checked, with the same warnings; far less is built and kept.
   */
  listing?: boolean;
  /**
   * With `listing`: keep what each file gives a listing in this cache, and take unchanged files
   * from it (`listing-cache.ts`). The listing is the same with or without it.
   */
  listingCache?: ListingCacheOptions;
  /**
   * Called once `ferry.yaml` gave the workspace's id, before any environment or request is read,
   * and waited for: a session takes its place in the data folder's record of environment renames
   * here (session/environment-mark.ts), so a rename recorded after it is one the read may not see.
   */
  onIdentified?: (id: string, root: string) => Promise<void>;
}

/** The workspace `openWorkspace` gives for these options: request summaries when they may ask for a listing. */
export type OpenedWorkspace<O extends OpenOptions> = Workspace<
  O extends { listing?: infer L } ? (unknown extends L ? RequestFile : [L] extends [false | undefined] ? RequestFile : RequestSummary) : RequestFile
>;

/**
 * Opens the workspace in `root`. Broken files become warnings, `ferry.yaml` too (spec 2.1.9: the
 * workspace still opens, without that file's settings: `fileProblem`); only a missing `ferry.yaml`,
 * a linked one or a newer format version refuses to open.
 */
export async function openWorkspace<O extends OpenOptions = { requests?: readonly string[] }>(root: string, options: O = {} as O): Promise<OpenedWorkspace<O>> {
  const absolute = path.resolve(root);
  const filePath = path.join(absolute, WORKSPACE_FILE);
  const cache = options.listing && options.listingCache ? ListingCache.open(options.listingCache, absolute) : undefined;
  if (isSymbolicLink(filePath)) throw new WorkspaceError(workspaceFileLinkMessage(absolute));
  const cached = cache?.lookUp(filePath, WORKSPACE_FILE);
  const warnings: Warning[] = [];
  // A listing keeps only what it shows of ferry.yaml (`WorkspaceSummary`); the secret variables given a value are warned about either way.
  let file: WorkspaceFile | WorkspaceSummary;
  let secretValues: string[];
  let fileProblem: string | undefined;
  if (cached && 'outcome' in cached && cached.outcome.ok) {
    file = cached.outcome.value as WorkspaceSummary;
    secretValues = file.secretValues;
  } else {
    const read = await readWorkspaceFile(absolute, filePath, warnings);
    file = read.file;
    fileProblem = read.problem;
    secretValues = secretValueKeys(read.file.variables);
    if (options.listing) {
      const parsing = await loadParsing();
      file = parsing.summaryOf('workspace', read.file) as WorkspaceSummary;
      // Loaded already: the cache reads any other changed file with them, without a first attempt.
      if (cache) cache.parsing ??= parsing.LISTING_PARSING;
      // Kept only as read: a file given an id just now is read again next time.
      if (cache && cached && 'identity' in cached) cache.keep(WORKSPACE_FILE, read.written ? undefined : cached.identity, { ok: true, value: file });
    }
  }
  const id = file.id!;
  await options.onIdentified?.(id, absolute);
  try {
    await ensureDirs(absolute);
  } catch (error) {
    warnings.push({ file: REQUESTS_DIR, message: `Could not create ${REQUESTS_DIR}/ and ${ENVIRONMENTS_DIR}/ (${fileProblemReason(error)}); the workspace opens without them.` });
  }
  warnings.push(...(await caseMisnamedFolderWarnings(absolute)));

  // A listing with a cache reads through it, and loads the parsers only if a file must be read.
  const parsing = cache ? undefined : await loadParsing();
  const read = (cache?.reader() ?? (options.listing ? parsing!.LISTING_READER : parsing!.WHOLE_READER)) as TreeReader<RequestSummary>;
  const readFile: ReadFile = cache
    ? (kind, absolute, label) => withParsing(cache, () => cache.read(kind, absolute, label))
    : options.listing
      ? async (kind, absolute, label) => {
        const text = parsing!.LISTING_PARSING.readText(absolute, label);
        return text.ok ? parsing!.LISTING_PARSING.outcome(kind, text.text, label) : text;
      }
      : (kind, absolute, label) => parsing!.readResource(kind, absolute, label);
  const [[part, tree], environments, servers, loadtests] = await Promise.all([
    withParsing(cache, async (found) => {
      // Each attempt with warnings of its own: one stopped by a file to read leaves none.
      const part = readPart(absolute, options.requests, found, read);
      return [part, part ?? (await readRequestTree(absolute, found, read))] as const;
    }, warnings),
    readEntries<{ seq?: number }>(absolute, ENVIRONMENTS_DIR, 'environment', warnings, readFile, byId),
    readEntries<{ seq?: number }>(absolute, SERVERS_DIR, 'server', warnings, readFile, bySeqThenName),
    readEntries<{ seq?: number }>(absolute, LOADTESTS_DIR, 'loadtest', warnings, readFile, bySeqThenName),
  ]);
  cache?.save(part === undefined);
  warnSecretValues(WORKSPACE_FILE, secretValues, warnings);
  for (const environment of environments) {
    const keys = options.listing ? (environment.value as EnvironmentSummary).secretValues : secretValueKeys((environment.value as EnvironmentFile).variables);
    warnSecretValues(environment.file, keys, warnings);
  }
  warnings.sort((a, b) => a.file.localeCompare(b.file));
  const workspace = { root: absolute, file, id, tree, environments, servers, loadtests, warnings, ...(part ? { part: [...options.requests!] } : {}), ...(fileProblem ? { fileProblem } : {}) };
  return workspace as unknown as OpenedWorkspace<O>;
}

/**
 * `read` from the listing cache; when a file must be read first, the parsers are loaded and `read`
 * runs again (its reads so far were from the cache or checks: nothing is lost but their time).
 * `warnings`: what a successful attempt reported is added to them.
 */
async function withParsing<T>(cache: ListingCache | undefined, read: (warnings: Warning[]) => T | Promise<T>, warnings: Warning[] = []): Promise<T> {
  const found: Warning[] = [];
  try {
    const value = await read(found);
    warnings.push(...found);
    return value;
  } catch (error) {
    if (!(error instanceof NeedsParsing) || !cache) throw error;
  }
  cache.parsing ??= (await loadParsing()).LISTING_PARSING;
  found.length = 0;
  const value = await read(found);
  warnings.push(...found);
  return value;
}

/**
 * Reads and checks `ferry.yaml`: a newer format is refused before its fields are checked, and a
 * file without an id is given one (`written`). Every refusal is a `WorkspaceError` saying what to do.
 * A file that does not parse or fit the format is a warning (`problem`): the workspace opens with
 * the defaults of its fields (brokenWorkspaceFile).
 */
async function readWorkspaceFile(absolute: string, filePath: string, warnings: Warning[]): Promise<{ file: IdentifiedWorkspaceFile; written: boolean; problem?: string }> {
  let text: string;
  try {
    text = await readTextFile(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      if (hasYmlWorkspaceFile(absolute)) throw new WorkspaceError(ymlWorkspaceFileMessage(absolute));
      throw new WorkspaceError(`${absolute} is not a Ferry workspace: it has no ${WORKSPACE_FILE}. Create one with \`ferry init\`.`);
    }
    // Over 50 MB (spec 2.1.8): said as every file's size is, with what to do (it is readable).
    const size = (await fs.lstat(filePath).catch(() => undefined))?.size;
    if (size !== undefined && size > MAX_YAML_BYTES) {
      throw new WorkspaceError(`${filePath} is ${sizeOverLimit(size, MAX_YAML_BYTES)}; YAML files over 50 MB are not read, and the workspace cannot open without it. Make it smaller (keep large values in files beside it), then open the workspace again.`);
    }
    throw new WorkspaceError(`${filePath} cannot be read (${fileProblemReason(error)}); the workspace cannot open without it. It must be a file you may read.`);
  }
  const { parseYamlData, readResource, resourceText, unknownFieldsWarning } = await loadParsing();
  const parsed = parseYamlData(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    return brokenWorkspaceFile(absolute, text, { file: WORKSPACE_FILE, line, column, message: `YAML syntax error: ${message}` }, warnings);
  }
  const newer = newerFormatProblem(parsed.data);
  if (newer !== undefined) throw new WorkspaceError(newer);
  const outcome = await readResource('workspace', filePath, WORKSPACE_FILE);
  if (!outcome.ok) return brokenWorkspaceFile(absolute, text, outcome.warning, warnings);
  if (outcome.warning) warnings.push(outcome.warning); // a name out of bounds: read as written
  const file = outcome.value;
  // Without a version the file is read as this format's (its fields kept, not dropped), and said so
  // (below: unless Ferry writes the line now, with the id).
  const versionMissing = file.version === undefined;
  file.version ??= FORMAT_VERSION;
  const noVersion = () => warnings.push({ file: WORKSPACE_FILE, line: 1, column: 1, message: `no version: read as format version ${FORMAT_VERSION}. Add the line \`version: ${FORMAT_VERSION}\` (Ferry writes it the next time it saves this file).` });
  // A misspelt field (`varaibles:`) is kept but does nothing: said wherever the workspace's warnings are shown.
  const unknown = unknownFieldsWarning('workspace', WORKSPACE_FILE, file);
  if (unknown) warnings.push({ file: WORKSPACE_FILE, message: unknown.slice(WORKSPACE_FILE.length + 2), code: 'unknown-fields' });
  if (file.version !== FORMAT_VERSION) {
    const { parseYaml, positionOf } = await loadParsing();
    const yamlText = parseYaml(text);
    const { line, column } = yamlText.ok ? positionOf(yamlText.parsed, ['version']) : { line: 1, column: 1 };
    return brokenWorkspaceFile(absolute, text, { file: WORKSPACE_FILE, line, column, message: `version must be ${FORMAT_VERSION}, got ${file.version}` }, warnings);
  }
  if (file.id) {
    if (versionMissing) noVersion();
    return { file: file as IdentifiedWorkspaceFile, written: false };
  }
  file.id = randomUUID();
  try {
    await writeFileAtomic(filePath, resourceText('workspace', file, text));
  } catch (error) {
    if (versionMissing) noVersion();
    // A read-only checkout still opens. The id then comes from the folder path, so this
    // computer's data for it stays the same from one open to the next.
    file.id = pathId(absolute);
    warnings.push({ file: WORKSPACE_FILE, message: `${WORKSPACE_FILE} has no id and Ferry could not write one (${fileProblemReason(error)}); using ${file.id} until the file can be written. Add an id line, or make the folder writable.`, namesFile: true });
  }
  return { file: file as IdentifiedWorkspaceFile, written: true };
}

/**
 * A `ferry.yaml` that does not parse or fit the format (a merge conflict, a typo): the workspace
 * opens with that file's fields at their defaults, under the file's own id when a plain `id:` line
 * holds one (so this computer's secrets and active environment are found), else one from the
 * folder path, as for a read-only checkout. Nothing writes to the file until it reads again.
 */
async function brokenWorkspaceFile(absolute: string, text: string, problem: Warning, warnings: Warning[]): Promise<{ file: IdentifiedWorkspaceFile; written: boolean; problem: string }> {
  const { parseResource } = await loadParsing();
  const ids = [...text.matchAll(/^id:[ \t]*(["']?)([A-Za-z0-9_-]{1,64})\1[ \t]*(?:#.*)?$/gm)];
  const id = ids.length === 1 ? ids[0]![2]! : pathId(absolute);
  const defaults = parseResource('workspace', { version: FORMAT_VERSION, id, name: path.basename(absolute) });
  if (!defaults.ok) throw new Error(`the workspace file's defaults do not fit the format: ${defaults.problems[0]?.message}`);
  const message = `${problem.message.replace(/\.$/, '')}. The workspace opens without this file's variables, auth, headers and scripts, and nothing is saved to it, until it is fixed.`;
  warnings.push({ ...problem, file: WORKSPACE_FILE, message });
  return { file: defaults.value as IdentifiedWorkspaceFile, written: false, problem: `${WORKSPACE_FILE}${problem.line !== undefined ? `:${problem.line}:${problem.column ?? 1}` : ''}: ${problem.message}` };
}

/** The id of a workspace whose file holds none that can be used: from the folder path, the same on every open. */
function pathId(absolute: string): string {
  return `path-${createHash('sha256').update(absolute).digest('hex').slice(0, 32)}`;
}

/** `ferry.yaml` once opened: with an id (its own, or one given). */
type IdentifiedWorkspaceFile = WorkspaceFile & { id: string };

/** The part of the tree `requests` names, when each of them selects there as it would in the whole tree. */
function readPart<R extends RequestSummary>(root: string, requests: readonly string[] | undefined, warnings: Warning[], read: TreeReader<R>): FolderNode<R> | undefined {
  if (!requests?.length) return undefined;
  const found: Warning[] = [];
  const part = readRequestTreePart(root, requests, found, read);
  if (!part) return undefined;
  try {
    selectRequests(part, requests);
  } catch (error) {
    if (error instanceof SelectError) return undefined;
    throw error;
  }
  // Paths that overlap (`A` and `A/b`) read some files twice: each warning once.
  const seen = new Set<string>();
  for (const warning of found) {
    const key = `${warning.file}\n${warning.message}`;
    if (!seen.has(key)) warnings.push(warning);
    seen.add(key);
  }
  return part;
}

/** How a file of the workspace is read: from the file, or through the listing cache. */
type ReadFile = (kind: ResourceKind, absolute: string, label: string) => Promise<ReadOutcomeOf<unknown>>;

type EntryOrder = (a: Entry<unknown>, b: Entry<unknown>) => number;

/** Environments (the spec gives them no order): by a `seq` when a file has one, then by id, as always. */
const byId: EntryOrder = (a, b) => seqOf(a.value) - seqOf(b.value) || a.id.localeCompare(b.id);

/** Servers and load tests (2.11, 2.12: `seq` is the sidebar position): by `seq`, then by name as the request tree (2.1.6), then by id. */
const bySeqThenName: EntryOrder = (a, b) => seqOf(a.value) - seqOf(b.value) || compareNames(nameOf(a.value), nameOf(b.value)) || a.id.localeCompare(b.id);

/** Reads one flat folder of resources (environments, servers, load tests); ids are file names. */
async function readEntries<T extends { seq?: number }>(root: string, dir: string, kind: ResourceKind, warnings: Warning[], readResource: ReadFile, order: EntryOrder): Promise<Entry<T>[]> {
  // Never listed when no folder: a link is not followed, a pipe not opened.
  const notFolder = notAFolderWarning(root, dir, { link: symlinkMessage(dir) });
  if (notFolder) {
    warnings.push(notFolder);
    return [];
  }
  let names: string[];
  try {
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    names = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      // Every link, pipe, socket or device is said, whatever its name (a linked folder of environments too), as under requests/.
      const skipped = skippedEntryWarning(entry, `${dir}/${entry.name}`);
      if (skipped) {
        warnings.push(skipped);
      } else if (entry.isDirectory()) {
        // Not read (one item per file, directly here); one that holds .yaml files is said once.
        const subfolder = await subfolderWarning(root, dir, entry.name);
        if (subfolder) warnings.push(subfolder);
      } else if (!isYamlFile(entry.name)) {
        const unread = entry.isFile() ? ymlWarning(`${dir}/${entry.name}`) ?? postmanExportWarning(dir, entry.name) : undefined;
        if (unread) warnings.push(unread);
      } else if (entry.isFile()) {
        names.push(entry.name);
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') warnings.push({ file: dir, message: `${dir}/ cannot be read (${fileProblemReason(error)}).`, code: 'unreadable', namesFile: true });
    return [];
  }
  const results = await Promise.all(
    names.map(async (name) => {
      const relative = `${dir}/${name}`;
      const outcome = await readResource(kind, path.join(root, dir, name), relative);
      if (!outcome.ok) {
        warnings.push(outcome.warning);
        return undefined;
      }
      if (outcome.warning) warnings.push(outcome.warning); // a name out of bounds: read as written
      return { id: stripYaml(name), file: relative, value: outcome.value as T };
    }),
  );
  return results
    .filter((e): e is Entry<T> => e !== undefined)
    .sort(order);
}

function nameOf(value: unknown): string {
  const name = (value as { name?: unknown }).name;
  return typeof name === 'string' ? name : '';
}

function seqOf(value: unknown): number {
  const seq = (value as { seq?: unknown }).seq;
  return typeof seq === 'number' ? seq : 0;
}

/** `ferry.yaml` a link: the folder is not opened (links are never followed); what to do instead. */
function workspaceFileLinkMessage(dir: string): string {
  return `${path.join(dir, WORKSPACE_FILE)} is a symbolic link; Ferry never follows links, so ${dir} is not opened as a workspace. Put the real file in its place (remove the link, then move or copy the file it points to here), or open the folder that holds the real ${WORKSPACE_FILE} with -w.`;
}

/** The nearest folder from `start` up whose `ferry.yaml` is a symbolic link. */
function linkedWorkspaceFile(start: string): string | undefined {
  return walkUp(start, (dir) => isSymbolicLink(path.join(dir, WORKSPACE_FILE)));
}

/** The nearest folder from `start` up for which `holds` is true. */
function walkUp(start: string, holds: (dir: string) => boolean): string | undefined {
  let current = path.resolve(start);
  for (;;) {
    if (holds(current)) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** A workspace file named `ferry.yml` (a common spelling): never read, but the reason nothing opens. */
function hasYmlWorkspaceFile(dir: string): boolean {
  try {
    return lstatSync(path.join(dir, 'ferry.yml')).isFile();
  } catch {
    return false;
  }
}

function ymlWorkspaceFileMessage(dir: string): string {
  return `${dir} has ferry.yml, but Ferry reads ${WORKSPACE_FILE} only. Rename it to ${WORKSPACE_FILE}.`;
}

/** Opens the workspace given with `-w`, or the one found above the current folder. */
export async function openWorkspaceFrom<O extends OpenOptions = { requests?: readonly string[] }>(dir: string | undefined, cwd = process.cwd(), options: O = {} as O): Promise<OpenedWorkspace<O>> {
  if (dir) return openWorkspace(dir, options);
  const found = await findWorkspaceRoot(cwd);
  if (!found) {
    // A linked ferry.yaml on the way up is why nothing was found: say so rather than "no workspace".
    const linked = linkedWorkspaceFile(cwd);
    if (linked) throw new WorkspaceError(workspaceFileLinkMessage(linked));
    const misnamed = walkUp(cwd, hasYmlWorkspaceFile);
    if (misnamed) throw new WorkspaceError(ymlWorkspaceFileMessage(misnamed));
    throw new WorkspaceError(`No Ferry workspace here: neither ${cwd} nor a folder above it has a ${WORKSPACE_FILE}. Use -w DIR, or create one with \`ferry init\`.`);
  }
  return openWorkspace(found, options);
}
