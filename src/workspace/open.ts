/** Finding, creating and opening a workspace folder (spec 2.1–2.2, 7, 9). */
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeDirs } from '../support/make-dirs.js';
import { describeSystemError } from '../support/system-error.js';
import { FORMAT_VERSION, WORKSPACE_FILE, type RequestFile, type RequestSummary, type ResourceKind, type ResourceValue, type Variable } from '../model/index.js';
import { readTextFile, writeFileAtomic } from './files.js';
import { checkDisplayName } from './names.js';
import { parseYamlData, readResource } from './read-resource.js';
import { isSymbolicLink, isYamlFile, LISTING_READER, readRequestTree, REQUESTS_DIR, stripYaml, symlinkMessage, WHOLE_READER, type TreeReader } from './tree.js';
import { selectRequests, SelectError } from './select.js';
import { readRequestTreePart } from './tree-part.js';
import { ListingCache, type ListingCacheOptions } from './listing-cache.js';
import type { Entry, FolderNode, Warning, Workspace } from './types.js';
import { resourceText } from './save.js';
import { renderYaml } from './yaml-file.js';

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
  const problem = checkDisplayName(displayName);
  if (problem) throw new WorkspaceError(`The workspace name is not allowed: ${problem}`);
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
}

/** The workspace `openWorkspace` gives for these options: request summaries when they may ask for a listing. */
export type OpenedWorkspace<O extends OpenOptions> = Workspace<
  O extends { listing?: infer L } ? (unknown extends L ? RequestFile : [L] extends [false | undefined] ? RequestFile : RequestSummary) : RequestFile
>;

/**
 * Opens the workspace in `root`. Broken files become warnings; only a missing or unusable
 * `ferry.yaml` (or a newer format version) refuses to open.
 */
export async function openWorkspace<O extends OpenOptions = { requests?: readonly string[] }>(root: string, options: O = {} as O): Promise<OpenedWorkspace<O>> {
  const absolute = path.resolve(root);
  const filePath = path.join(absolute, WORKSPACE_FILE);
  let text: string;
  try {
    if (isSymbolicLink(filePath)) throw new WorkspaceError(workspaceFileLinkMessage(absolute));
    text = await readTextFile(filePath);
  } catch (error) {
    if (error instanceof WorkspaceError) throw error;
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new WorkspaceError(`${absolute} is not a Ferry workspace: it has no ${WORKSPACE_FILE}. Create one with \`ferry init\`.`);
    }
    throw new WorkspaceError((error as Error).message);
  }
  const parsed = parseYamlData(text);
  if (!parsed.ok) {
    const { line, column, message } = parsed.error;
    throw new WorkspaceError(`${WORKSPACE_FILE}:${line}:${column}: YAML syntax error: ${message}. Fix the file and try again.`);
  }
  const version = (parsed.data as { version?: unknown } | null)?.version;
  if (typeof version === 'number' && version > FORMAT_VERSION) {
    throw new WorkspaceError(
      `This workspace was created by a newer version of Ferry (format version ${version}; this Ferry reads version ${FORMAT_VERSION}). Update Ferry to open it.`,
    );
  }
  const outcome = await readResource('workspace', filePath, WORKSPACE_FILE);
  if (!outcome.ok) {
    const w = outcome.warning;
    throw new WorkspaceError(`${WORKSPACE_FILE}:${w.line ?? 1}:${w.column ?? 1}: ${w.message}`);
  }
  const file = outcome.value;
  if (file.version !== FORMAT_VERSION) {
    throw new WorkspaceError(`${WORKSPACE_FILE}: version must be ${FORMAT_VERSION}, got ${file.version}.`);
  }
  const warnings: Warning[] = [];
  if (!file.id) {
    file.id = randomUUID();
    try {
      await writeFileAtomic(filePath, resourceText('workspace', file, text));
    } catch (error) {
      // A read-only checkout still opens. The id then comes from the folder path, so this
      // computer's data for it stays the same from one open to the next.
      file.id = `path-${createHash('sha256').update(absolute).digest('hex').slice(0, 32)}`;
      warnings.push({ file: WORKSPACE_FILE, message: `${WORKSPACE_FILE} has no id and Ferry could not write one (${reason(error)}); using ${file.id} until the file can be written. Add an id line, or make the folder writable.` });
    }
  }
  try {
    await ensureDirs(absolute);
  } catch (error) {
    warnings.push({ file: REQUESTS_DIR, message: `Could not create ${REQUESTS_DIR}/ and ${ENVIRONMENTS_DIR}/ (${reason(error)}); the workspace opens without them.` });
  }

  const cache = options.listing && options.listingCache ? ListingCache.open(options.listingCache, absolute) : undefined;
  const read = (cache?.reader() ?? (options.listing ? LISTING_READER : WHOLE_READER)) as TreeReader<RequestSummary>;
  const part = readPart(absolute, options.requests, warnings, read);
  const [tree, environments, servers, loadtests] = await Promise.all([
    part ?? readRequestTree(absolute, warnings, read),
    readEntries(absolute, ENVIRONMENTS_DIR, 'environment', warnings),
    readEntries(absolute, SERVERS_DIR, 'server', warnings),
    readEntries(absolute, LOADTESTS_DIR, 'loadtest', warnings),
  ]);
  cache?.save(part === undefined);
  warnSecretValues(WORKSPACE_FILE, file.variables, warnings);
  for (const environment of environments) warnSecretValues(environment.file, environment.value.variables, warnings);
  warnings.sort((a, b) => a.file.localeCompare(b.file));
  const workspace: Workspace<RequestSummary> = { root: absolute, file, id: file.id, tree, environments, servers, loadtests, warnings, ...(part ? { part: [...options.requests!] } : {}) };
  return workspace as OpenedWorkspace<O>;
}

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

/** A secret variable's value belongs in this computer's secret store; one written in the file is ignored (2.10). */
function warnSecretValues(fileLabel: string, variables: readonly Variable[], warnings: Warning[]): void {
  for (const variable of variables) {
    if (variable.secret && variable.value !== '') {
      warnings.push({
        file: fileLabel,
        message: `${fileLabel}: the secret variable "${variable.key}" has a value in the file. Ferry ignores it (secret values come from this computer's secret store); remove it from the file, and from your git history if it is real.`,
      });
    }
  }
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOTDIR') return 'it is a file, not a folder';
  return (error as Error).message;
}

/** Reads one flat folder of resources (environments, servers, load tests); ids are file names. */
async function readEntries<K extends ResourceKind>(root: string, dir: string, kind: K, warnings: Warning[]): Promise<Entry<ResourceValue<K>>[]> {
  if (isSymbolicLink(path.join(root, dir))) {
    warnings.push({ file: dir, message: symlinkMessage(dir) });
    return [];
  }
  let names: string[];
  try {
    const entries = await fs.readdir(path.join(root, dir), { withFileTypes: true });
    names = [];
    for (const entry of entries) {
      if (entry.name.startsWith('.') || !isYamlFile(entry.name)) continue;
      if (entry.isSymbolicLink()) {
        warnings.push({ file: `${dir}/${entry.name}`, message: symlinkMessage(`${dir}/${entry.name}`) });
      } else if (entry.isFile()) {
        names.push(entry.name);
      }
    }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') warnings.push({ file: dir, message: `${dir}/ cannot be read (${reason(error)}).` });
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
      return { id: stripYaml(name), file: relative, value: outcome.value };
    }),
  );
  return results
    .filter((e): e is Entry<ResourceValue<K>> => e !== undefined)
    .sort((a, b) => seqOf(a.value) - seqOf(b.value) || a.id.localeCompare(b.id));
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
  let current = path.resolve(start);
  for (;;) {
    if (isSymbolicLink(path.join(current, WORKSPACE_FILE))) return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** Opens the workspace given with `-w`, or the one found above the current folder. */
export async function openWorkspaceFrom<O extends OpenOptions = { requests?: readonly string[] }>(dir: string | undefined, cwd = process.cwd(), options: O = {} as O): Promise<OpenedWorkspace<O>> {
  if (dir) return openWorkspace(dir, options);
  const found = await findWorkspaceRoot(cwd);
  if (!found) {
    // A linked ferry.yaml on the way up is why nothing was found: say so rather than "no workspace".
    const linked = linkedWorkspaceFile(cwd);
    if (linked) throw new WorkspaceError(workspaceFileLinkMessage(linked));
    throw new WorkspaceError(`No Ferry workspace here: neither ${cwd} nor a folder above it has a ${WORKSPACE_FILE}. Use -w DIR, or create one with \`ferry init\`.`);
  }
  return openWorkspace(found, options);
}
