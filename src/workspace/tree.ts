/** Reads the request tree under `requests/` (spec 2.1.6–2.1.9, 2.3, 2.9). */
import { lstatSync, readdirSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { fileProblemReason, notUtf8Name } from '../support/system-error.js';
import { DEFAULT_SEQ } from '../model/constants.js';
import type { FolderSummary, RequestFile, RequestSummary } from '../model/index.js';
import type { ReadOutcomeOf } from './read-resource.js';
import { leftoverWarning } from './removal-aside.js';
import type { FolderNode, FolderSettings, TreeNode, Warning } from './types.js';
import type { WarningCode } from './warning-code.js';

export const MAX_TREE_DEPTH = 32;
export const FOLDER_FILE = '_folder.yaml';
export const REQUESTS_DIR = 'requests';

// Case-insensitive tests without a lower-cased copy of each of 30,000 names (`ferry ls`). The same
// as comparing `toLowerCase()`: no other character lower-cases to one of these letters.
const YAML_NAME = /\.yaml$/i;
const FOLDER_FILE_NAME = /^_folder\.yaml$/i;

/** True for `_folder.yaml` in any case. */
export function isFolderFile(name: string): boolean {
  return FOLDER_FILE_NAME.test(name);
}

export function isYamlFile(name: string): boolean {
  return YAML_NAME.test(name);
}

const YML_NAME = /\.yml$/i;

/** True for a name ending in `.yml` (any case): a YAML file Ferry does not read, but says so (`ymlWarning`). */
export function isYmlFile(name: string): boolean {
  return YML_NAME.test(name);
}

/**
 * A `.yml` file where Ferry reads `.yaml` ones (requests/, environments/, servers/, loadtests/):
 * not read, and said so with the name to give it, rather than left out without a word. `label`
 * is its path in the workspace; undefined for any other name.
 */
export function ymlWarning(label: string): Warning | undefined {
  if (!isYmlFile(label)) return undefined;
  const renamed = `${path.posix.basename(label).slice(0, -4)}.yaml`;
  return { file: label, message: `${label} is not read: Ferry reads .yaml files only. Rename it to ${renamed}.`, code: 'yml', namesFile: true };
}

export function stripYaml(name: string): string {
  return isYamlFile(name) ? name.slice(0, -5) : name;
}

/**
 * Synchronous on purpose: ten thousand small reads are several times faster without the
 * thread-pool round trip of the promise API (bench/open-workspace.ts).
 */
export async function readRequestTree<R extends RequestSummary>(root: string, warnings: Warning[], read: TreeReader<R>): Promise<FolderNode<R>> {
  // Entries below are checked as they are listed; `requests/` itself must be a folder too (not a link, nor a pipe).
  const notFolder = notAFolderWarning(root, REQUESTS_DIR, { link: REQUESTS_LINK_MESSAGE, unread: '; its requests were not read' });
  if (notFolder) {
    warnings.push(notFolder);
    return { type: 'folder', path: '', name: '', settings: { ...read.folderDefaults }, children: [] };
  }
  return readFolder(root, '', 0, warnings, read);
}

/**
 * Why one of the workspace's folders (`requests/`, `environments/`, …) is no folder, from lstat
 * alone, so a pipe there is never opened: 'link', or the reason in the words of a skipped entry
 * (`it is a named pipe, not a folder`) with what to do; undefined for a folder or nothing there.
 */
export function notAFolder(absolute: string): 'link' | { reason: string; fix: string } | undefined {
  let stat;
  try {
    stat = lstatSync(absolute);
  } catch {
    return undefined; // missing, or unreadable: the listing says why
  }
  if (stat.isSymbolicLink()) return 'link';
  if (stat.isDirectory()) return undefined;
  if (stat.isFile()) return { reason: 'it is a file, not a folder', fix: 'Make it a folder.' };
  return { reason: `it is ${specialFileWords(stat)}, not a folder`, fix: 'Replace it with a folder.' };
}

/**
 * The warning of one of the workspace's folders (`dir`: `requests`, `environments`, …) that is no
 * folder (`notAFolder`), or undefined: `words.link` for a link, else what it is and what to do,
 * with `words.unread` (what was therefore not read) after the reason.
 */
export function notAFolderWarning(root: string, dir: string, words: { link: string; unread?: string }): Warning | undefined {
  const notFolder = notAFolder(path.join(root, dir));
  if (!notFolder) return undefined;
  if (notFolder === 'link') return { file: dir, message: words.link, code: 'symlink', namesFile: true };
  return { file: dir, message: `${dir}/ ${CANNOT_BE_READ} (${notFolder.reason})${words.unread ?? ''}. ${notFolder.fix}`, code: 'not-a-folder', namesFile: true };
}

/**
 * Why nothing can be written into the workspace folder `dir` (`servers`, `requests/Users`, …) when
 * it is a pipe, a socket or a file (`notAFolder`; a link is each caller's own refusal), in the
 * words of its warning: `servers/ cannot be written to (it is a named pipe, not a folder); nothing
 * was written. Replace it with a folder, then ${then}.`; undefined for a folder or nothing there.
 */
export function notAFolderRefusal(root: string, dir: string, then: string): string | undefined {
  const notFolder = notAFolder(path.join(root, dir));
  if (!notFolder || notFolder === 'link') return undefined;
  return `${dir}/ cannot be written to (${notFolder.reason}); nothing was written. ${notFolder.fix.replace(/\.$/, '')}, then ${then}.`;
}

/** `requests/` itself a link: nothing of the tree is read, so say what to do. */
const REQUESTS_LINK_MESSAGE = `${REQUESTS_DIR} is a symbolic link; Ferry never follows links, so no request was read. Put the real folder in its place (remove the link, then move or copy the folder it points to here as ${REQUESTS_DIR}/).`;

/** True when `file` is a symbolic link (false when it is missing). */
export function isSymbolicLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

export function symlinkMessage(label: string): string {
  return `${symlinkWords(label)}${SKIPPED}`;
}

/** `label is a symbolic link; Ferry never follows links`: the start of every message about one. */
function symlinkWords(label: string): string {
  return `${label} is a symbolic link; Ferry never follows links`;
}

/**
 * The warning for a listed entry Ferry skips, or undefined for a file or folder (read as usual).
 * A link is never followed; a named pipe, socket or device is never opened (opening a pipe waits
 * for a writer), and is said rather than left out without a word. Under requests/ and directly in
 * environments/, servers/ and loadtests/, whatever its name, as a link is.
 */
export function skippedEntryWarning(entry: Dirent, label: string): Warning | undefined {
  if (entry.isSymbolicLink()) return { file: label, message: symlinkMessage(label), code: 'symlink', namesFile: true };
  if (entry.isFile() || entry.isDirectory()) return undefined;
  const code = specialFileCode(entry);
  return { file: label, message: `${notRegularFile(label, SPECIAL_FILE_WORDS[code])}${SKIPPED} ${SPECIAL_FIX}`, code, namesFile: true };
}

const SKIPPED = ', so it was skipped.';
const SPECIAL_FIX = 'Put a regular file in its place, or remove it.';

/** `label is a named pipe, not a regular file; Ferry reads regular files only`: the start of every message about one (`what`: `specialFileWords`). */
export function notRegularFile(label: string, what: string): string {
  return `${label} is ${what}, not a regular file; Ferry reads regular files only`;
}

/** The file types Dirent and Stats both tell. */
type FileType = Pick<Dirent, 'isFIFO' | 'isSocket' | 'isBlockDevice' | 'isCharacterDevice'>;

/** The warning code of a file that is neither a regular file, a folder nor a link. */
type SpecialFileCode = Extract<WarningCode, 'fifo' | 'socket' | 'device' | 'unknown-type'>;

function specialFileCode(entry: FileType): SpecialFileCode {
  return entry.isFIFO() ? 'fifo' : entry.isSocket() ? 'socket' : entry.isBlockDevice() || entry.isCharacterDevice() ? 'device' : 'unknown-type';
}

const SPECIAL_FILE_WORDS: Record<SpecialFileCode, string> = { fifo: 'a named pipe', socket: 'a socket', device: 'a device', 'unknown-type': 'of an unknown type' };

/** What a file that is neither a regular file, a folder nor a link is, in the words every message about one uses. */
export function specialFileWords(entry: FileType): string {
  return SPECIAL_FILE_WORDS[specialFileCode(entry)];
}

/**
 * A skipped entry's warning (a link, pipe, socket or device: its code) as the reason a named item
 * cannot be used, without "so it was skipped" (`servers/m.yaml is a named pipe, not a regular
 * file; Ferry reads regular files only`); undefined for any other warning. Made from the code and
 * the path, in the words of the warning, never read back from them.
 */
export function skippedEntryReason(warning: Warning): string | undefined {
  const { file, code } = warning;
  if (code === 'symlink') return symlinkWords(file);
  return code !== undefined && Object.hasOwn(SPECIAL_FILE_WORDS, code) ? notRegularFile(file, SPECIAL_FILE_WORDS[code as SpecialFileCode]) : undefined;
}

/** The entries of a folder under `requests/` (none when it is missing; a warning when unreadable). */
export function listFolder(root: string, relPath: string, warnings: Warning[]): Dirent[] {
  const listed = listFolderOrProblem(root, relPath);
  if (Array.isArray(listed)) return listed;
  if (listed) warnings.push(listed);
  return [];
}

/**
 * Whether `warning` says `requests/` itself could not be listed, or was not because it is a
 * symbolic link or no folder (a run of nothing would pass).
 */
export function isUnreadableRequestsFolder(warning: Warning): boolean {
  return warning.file === REQUESTS_DIR && UNREAD_FOLDER.has(warning.code);
}

const UNREAD_FOLDER: ReadonlySet<WarningCode | undefined> = new Set<WarningCode>(['symlink', 'not-a-folder', 'unreadable']);

/** Whether `warning` says `requests/` itself is a symbolic link (not followed, so no request was read). */
export function isLinkedRequestsFolder(warning: Warning): boolean {
  return warning.file === REQUESTS_DIR && warning.code === 'symlink';
}

const CANNOT_BE_READ = 'cannot be read';

/** The entries of a folder under `requests/`, or why it cannot be read (undefined when it is missing). */
function listFolderOrProblem(root: string, relPath: string): Dirent[] | Warning | undefined {
  const label = path.posix.join(REQUESTS_DIR, relPath);
  try {
    return readdirSync(path.join(root, REQUESTS_DIR, relPath), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      const notUtf8 = notUtf8Name(label);
      return notUtf8 ? { file: label, message: notUtf8, code: 'unreadable', namesFile: true } : undefined;
    }
    const fix = code === 'EACCES' || code === 'EPERM' ? " Check the folder's permissions." : code === 'ENOTDIR' ? ' Make it a folder.' : '';
    return { file: label, message: `${label}/ ${CANNOT_BE_READ} (${fileProblemReason(error)}); its requests were not read.${fix}`, code: 'unreadable', namesFile: true };
  }
}

/** A folder node without children: its `_folder.yaml` read from `entries` (its listing). */
export function folderNode<R extends RequestSummary>(root: string, relPath: string, entries: readonly Dirent[], warnings: Warning[], read: TreeReader<R>): FolderNode<R> {
  const label = path.posix.join(REQUESTS_DIR, relPath);
  let settings = { ...read.folderDefaults };
  let folderFile: Dirent | undefined;
  for (const entry of entries) {
    if (!isFolderFile(entry.name)) continue;
    // A link, pipe, socket or device named so is said here (readFolder leaves it to this), also
    // for a folder above a request a run reads alone (tree-part.ts), whose settings it inherits.
    const skipped = skippedEntryWarning(entry, path.posix.join(label, entry.name));
    if (skipped) warnings.push(skipped);
    else folderFile ??= entry;
  }
  if (relPath !== '' && folderFile) {
    const outcome = read.folder(path.join(root, REQUESTS_DIR, relPath, folderFile.name), path.posix.join(label, folderFile.name));
    if (outcome.ok) settings = outcome.value;
    if (outcome.warning) warnings.push(outcome.warning);
  } else if (folderFile) {
    const file = `${REQUESTS_DIR}/${folderFile.name}`;
    warnings.push({ file, message: `${file} is not read: the collection root has no folder settings; put them in ferry.yaml (auth, headers, scripts).`, code: 'root-folder-file', namesFile: true });
  }
  const name = relPath === '' ? '' : settings.name ?? path.posix.basename(relPath);
  return { type: 'folder', path: relPath, name, settings, children: [] };
}

/** A folder and everything under it, in tree order (`entries`: its listing, when already made). */
export function readFolder<R extends RequestSummary>(root: string, relPath: string, depth: number, warnings: Warning[], read: TreeReader<R>, entries = listFolder(root, relPath, warnings)): FolderNode<R> {
  const node = folderNode<R>(root, relPath, entries, warnings, read);
  const children: TreeNode<R>[] = [];
  // Each file's path from the folder's: one path.join per folder, not per file (30,000 of them in `ferry ls`).
  const dir = path.join(root, REQUESTS_DIR, relPath);
  for (const entry of entries) {
    if (entry.name.startsWith('.')) {
      // Ignored (2.1.7), but for what a folder delete that did not finish left at its hidden name.
      const leftover = leftoverWarning(dir, path.posix.join(REQUESTS_DIR, relPath), entry.name, entry.isDirectory(), (name) => hasEntry(entries, name));
      if (leftover) warnings.push(leftover);
      continue;
    }
    const childRel = relPath === '' ? entry.name : `${relPath}/${entry.name}`;
    const childLabel = `${REQUESTS_DIR}/${childRel}`;
    const skipped = skippedEntryWarning(entry, childLabel);
    if (skipped) {
      // `_folder.yaml`'s is said by folderNode.
      if (!isFolderFile(entry.name)) warnings.push(skipped);
      continue;
    }
    if (entry.isDirectory()) {
      if (depth + 1 > MAX_TREE_DEPTH) {
        warnings.push({ file: childLabel, message: `${childLabel} is deeper than ${MAX_TREE_DEPTH} folder levels and was not read.`, code: 'too-deep', namesFile: true });
        continue;
      }
      // A folder that cannot be listed is a broken item, as a file that cannot be read: a run that
      // includes it fails there instead of passing without its requests.
      const listed = listFolderOrProblem(root, childRel);
      if (listed !== undefined && !Array.isArray(listed)) {
        warnings.push(listed);
        children.push({ type: 'broken', path: childRel, warning: listed });
      } else {
        children.push(readFolder(root, childRel, depth + 1, warnings, read, listed ?? []));
      }
    } else if (entry.isFile() && isYamlFile(entry.name)) {
      if (!isFolderFile(entry.name)) children.push(requestNode(root, childRel, childLabel, warnings, read, `${dir}${path.sep}${entry.name}`));
    } else if (entry.isFile()) {
      const yml = ymlWarning(childLabel);
      if (yml) warnings.push(yml);
    }
  }
  children.sort(compareNodes);
  node.children = children;
  return node;
}

/** Whether `entries` has one named `name`, case aside (names compare so, 2.1.4). */
function hasEntry(entries: readonly Dirent[], name: string): boolean {
  const lower = name.toLowerCase();
  return entries.some((entry) => entry.name.toLowerCase() === lower);
}

/**
 * How the tree's files become values: whole (a run, the app) or only what a listing shows
 * (`ferry ls`), from the file itself or from the listing cache. Either way the same warnings.
 */
export interface TreeReader<R extends RequestSummary> {
  request(absolute: string, label: string): ReadOutcomeOf<R>;
  folder(absolute: string, label: string): ReadOutcomeOf<FolderSettings<R>>;
  /** A folder's settings when it has no `_folder.yaml` (or a broken one). */
  folderDefaults: FolderSettings<R>;
}

/** A listing's folder settings when it has no `_folder.yaml` (or a broken one). */
export const LISTING_FOLDER_DEFAULTS: FolderSummary = { seq: DEFAULT_SEQ };

/** A request file as a node of the tree: the request, or the broken file with its warning. */
export function requestNode<R extends RequestSummary>(root: string, relPath: string, label: string, warnings: Warning[], read: TreeReader<R>, absolute = path.join(root, REQUESTS_DIR, relPath)): TreeNode<R> {
  const outcome = read.request(absolute, label);
  if (outcome.warning) warnings.push(outcome.warning);
  if (outcome.ok) return { type: 'request', path: relPath, request: outcome.value };
  return { type: 'broken', path: relPath, warning: outcome.warning };
}

/**
 * `localeCompare(b, 'en', { sensitivity: 'base', numeric: true })`, without a collator made for each
 * call. Made at the first comparison: the first collator of a process loads ICU's collation data
 * (~10 ms of CPU), which a run of one request in a folder never needs.
 */
let collator: Intl.Collator | undefined;
const nameCollator = () => (collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true }));

/** `seq` first; at equal `seq` folders before requests, then by name. */
export function compareNodes<R extends RequestSummary>(a: TreeNode<R>, b: TreeNode<R>): number {
  const seqA = nodeSeq(a);
  const seqB = nodeSeq(b);
  if (seqA !== seqB) return seqA - seqB;
  const folderA = a.type === 'folder' ? 0 : 1;
  const folderB = b.type === 'folder' ? 0 : 1;
  if (folderA !== folderB) return folderA - folderB;
  return compareNames(nodeName(a), nodeName(b));
}

/** Display names in sidebar order (2.1.6 "then by name"): numbers by value, case aside, then as written. */
export function compareNames(nameA: string, nameB: string): number {
  const order = nameCollator().compare(nameA, nameB);
  return order !== 0 ? order : nameA < nameB ? -1 : nameA > nameB ? 1 : 0;
}

function nodeSeq<R extends RequestSummary>(node: TreeNode<R>): number {
  if (node.type === 'folder') return node.settings.seq;
  if (node.type === 'request') return node.request.seq;
  return Number.MAX_SAFE_INTEGER;
}

export function nodeName<R extends RequestSummary>(node: TreeNode<R>): string {
  if (node.type === 'folder') return node.name;
  if (node.type === 'request') return node.request.name;
  return stripYaml(path.posix.basename(node.path));
}

/** Every request of a folder in tree order (depth first), with the chain of folders above it. */
export function* walkRequests(folder: FolderNode, chain: FolderNode[] = []): Generator<{ node: import('./types.js').RequestNode; folders: FolderNode[] }> {
  const folders = [...chain, folder];
  for (const child of folder.children) {
    if (child.type === 'request') yield { node: child, folders };
    else if (child.type === 'folder') yield* walkRequests(child, folders);
  }
}

/** Every folder under `folder` in tree order (depth first), not `folder` itself. */
export function* walkFolders<R extends RequestSummary = RequestFile>(folder: FolderNode<R>): Generator<FolderNode<R>> {
  for (const child of folder.children) {
    if (child.type !== 'folder') continue;
    yield child;
    yield* walkFolders(child);
  }
}

/** Finds a folder by its path relative to `requests/` (case-insensitive, like the file names). */
export function findFolder<R extends RequestSummary = RequestFile>(root: FolderNode<R>, relPath: string): FolderNode<R> | undefined {
  const parts = relPath.split('/').filter(Boolean);
  let current: FolderNode<R> | undefined = root;
  for (const part of parts) {
    current = current.children.find(
      (c): c is FolderNode<R> => c.type === 'folder' && path.posix.basename(c.path).toLowerCase() === part.toLowerCase(),
    );
    if (!current) return undefined;
  }
  return current;
}

/**
 * A load test's target (`targets[].request`, `thresholds[].target`) as the request path it names:
 * `.yaml` may be left out and a leading `/` is ignored; paths compare in any case (load/plan.ts).
 */
export function loadTargetPath(target: string): string {
  return (/\.ya?ml$/i.test(target) ? target : `${target}.yaml`).replace(/^\/+/, '');
}
