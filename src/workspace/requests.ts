/**
 * Creating, renaming, moving and deleting requests and folders. File names follow display
 * names (2.1.4); load tests that send a moved request are updated in place (2.12).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileProblemReason } from '../support/system-error.js';
import { deepEqual, type FolderFile, type RequestFile, type ResourceKind } from '../model/index.js';
import { checkNoSymlinks } from './files.js';
import { checkDisplayName, checkNewDisplayName, uniqueFileName } from './names.js';
// The steps' module loads only when something moves: `ferry run` loads no more than it needs.
import type { MoveStep } from './move-journal.js';
import { readResource } from './read-resource.js';
import { removalAside, removalOver } from './removal-aside.js';
import { formatWarning } from './warning-text.js';
import { checkResourceValue, saveResource } from './save.js';
import { FOLDER_FILE, MAX_TREE_DEPTH, notAFolderRefusal, REQUESTS_DIR, stripYaml } from './tree.js';

export class NameError extends Error {
  override name = 'NameError';
}

/**
 * A name given now (`checkNewDisplayName`). `kept`, when given, is the name the item has on disk:
 * the same name is saved again as it is even when it holds a control character (a hand edit, an
 * import), so an item whose name was never given through Ferry can still be saved.
 */
export function requireName(name: unknown, kept?: string): string {
  const problem = name === kept ? checkDisplayName(name) : checkNewDisplayName(name);
  if (problem) throw new NameError(problem);
  return name as string;
}

/** `requireName` of a name saved into `file`: read for its name only when the name would be refused as new. */
export async function requireSavedName(name: unknown, kind: ResourceKind, file: string, shown: string): Promise<void> {
  if (checkNewDisplayName(name) === undefined) return;
  const current = await readResource(kind, file, shown).catch(() => undefined);
  requireName(name, current?.ok ? (current.value as { name?: string }).name : undefined);
}

/**
 * Refuses a path relative to `requests/` that could leave it (`..`), or that names something other
 * than a tree item (`.`, a dot-name, a backslash): the tree never holds such paths.
 */
function checkTreePath(treePath: string, what: string): void {
  const parts = treePath.split('/').filter(Boolean);
  if (treePath.includes('\\') || path.isAbsolute(treePath) || parts.some((p) => p.startsWith('.'))) {
    throw new Error(`"${treePath}" is not a ${what} path: give it relative to requests/, with / between folders, without "." or ".." parts.`);
  }
}

/** Absolute path of a folder under `requests/`, refusing links and escapes. */
async function folderDir(root: string, folderPath: string): Promise<string> {
  checkTreePath(folderPath, 'folder');
  const rel = path.join(REQUESTS_DIR, ...folderPath.split('/').filter(Boolean));
  const problem = await checkNoSymlinks(root, rel);
  if (problem) throw new Error(`Cannot use folder "${folderPath}": ${problem}.`);
  return path.join(root, rel);
}

/**
 * Refuses to write into folder `folderPath` when it, or a folder on its way from `requests/`, is a
 * pipe, a socket or a file: said as what it is (never opened), not as mkdir's EEXIST or ENOTDIR.
 */
function checkFoldersOnWay(root: string, folderPath: string, what: string): void {
  let dir = REQUESTS_DIR;
  for (const part of ['', ...folderPath.split('/').filter(Boolean)]) {
    if (part) dir = `${dir}/${part}`;
    const notFolder = notAFolderRefusal(root, dir, 'try again');
    if (notFolder) throw new Error(`Cannot create ${what}: ${notFolder}`);
  }
}

/**
 * Refuses to put something `levels` folder levels deep (1 = a folder at the collection root): the
 * tree is read to 32 levels only (spec 2.1.8), so anything deeper would vanish from the workspace.
 */
function checkLevels(levels: number, what: string): void {
  if (levels > MAX_TREE_DEPTH) {
    throw new Error(`${what} would be ${levels} folder levels deep; the request tree is read to ${MAX_TREE_DEPTH} levels, so it would not be seen. Choose a folder nearer the top.`);
  }
}

/** Folder levels of a tree path ('' = the collection root, 0). */
function levelsOf(folderPath: string): number {
  return folderPath.split('/').filter(Boolean).length;
}

/** Folder levels below `dir` (0 when it has no subfolder); dot-names and links skipped, as the reader does. */
async function subfolderLevels(dir: string): Promise<number> {
  let deepest = 0;
  for (const entry of await fs.readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory() && !entry.name.startsWith('.')) deepest = Math.max(deepest, 1 + (await subfolderLevels(path.join(dir, entry.name))));
  }
  return deepest;
}

async function siblingNames(dir: string, except?: string): Promise<string[]> {
  try {
    const entries = await fs.readdir(dir);
    return entries.filter((e) => e !== except).map(stripYaml);
  } catch {
    return [];
  }
}

/** Saves a new request in `folderPath` ('' = collection root); returns its request path. */
export async function createRequest(root: string, folderPath: string, request: RequestFile): Promise<string> {
  requireName(request.name);
  const dir = await folderDir(root, folderPath);
  checkLevels(levelsOf(folderPath), `Folder "${folderPath}"`);
  checkFoldersOnWay(root, folderPath, `request "${request.name}"`);
  await fs.mkdir(dir, { recursive: true });
  const fileName = `${uniqueFileName(request.name, await siblingNames(dir))}.yaml`;
  await saveResource(path.join(dir, fileName), 'request', request);
  return joinTreePath(folderPath, fileName);
}

/**
 * The path `createRequest` would give a request named `name` in `folderPath` now (a new unsaved
 * request is known by it until saved): the file name rules and the numbering among its siblings,
 * so it is never the path of a request that exists.
 */
export async function newRequestPath(root: string, folderPath: string, name: string): Promise<string> {
  const dir = await folderDir(root, folderPath);
  return joinTreePath(folderPath, `${uniqueFileName(name, await siblingNames(dir))}.yaml`);
}

function joinTreePath(folderPath: string, fileName: string): string {
  return folderPath ? `${folderPath.replace(/\/+$/, '')}/${fileName}` : fileName;
}

/** Creates a folder (with `_folder.yaml` when it has settings); returns its path. */
export async function createFolder(root: string, parentPath: string, name: string, settings?: Partial<FolderFile>): Promise<string> {
  requireName(name);
  const dir = await folderDir(root, parentPath);
  checkLevels(levelsOf(parentPath) + 1, `Folder "${name}"`);
  checkFoldersOnWay(root, parentPath, `folder "${name}"`);
  await fs.mkdir(dir, { recursive: true });
  const dirName = uniqueFileName(name, await siblingNames(dir));
  await fs.mkdir(path.join(dir, dirName));
  const folderPath = parentPath ? `${parentPath.replace(/\/+$/, '')}/${dirName}` : dirName;
  if (dirName !== name || (settings && Object.keys(settings).length > 0)) {
    const value = { seq: 0, auth: { type: 'inherit' as const }, headers: [], ...settings, name } as FolderFile;
    await saveResource(path.join(dir, dirName, FOLDER_FILE), 'folder', value);
  }
  return folderPath;
}

/**
 * Saves an existing request. When its name changed, the file is renamed to match and load
 * tests are updated, the content saved as one of the move's steps (one move: `MoveOptions`), so a
 * kill leaves the request as it was or as saved, never the new content under the old name;
 * returns the (possibly new) request path.
 */
export async function saveRequest(root: string, requestPath: string, request: RequestFile, options: MoveOptions = {}): Promise<string> {
  checkTreePath(requestPath, 'request');
  const problem = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (problem) throw new Error(`Cannot save "${requestPath}": ${problem}.`);
  const file = path.join(root, REQUESTS_DIR, requestPath);
  await requireSavedName(request.name, 'request', file, requestPath);
  const currentBase = stripYaml(path.posix.basename(requestPath));
  const folderPath = path.posix.dirname(requestPath) === '.' ? '' : path.posix.dirname(requestPath);
  // A name that makes no file name (`..`) keeps the file's own: an imported `get-users-id.yaml` stays so.
  const wanted = uniqueFileName(request.name, await siblingNames(path.dirname(file), path.posix.basename(requestPath)), currentBase);
  // A file named `-rf.yaml` before such names got their `_` (names.ts) keeps its name when saved.
  if (wanted === currentBase || (currentBase.startsWith('-') && wanted === `_${currentBase}`)) {
    await saveResource(file, 'request', request);
    return requestPath;
  }
  return moveRequest(root, requestPath, folderPath, { ...options, baseName: wanted, value: request });
}

export interface MoveOptions {
  /**
   * Told what the move could not do, for the user: a load test that names a moved request but
   * does not parse, left as it is.
   */
  onNotice?: (message: string) => void;
  /**
   * The move's journal: a file in this computer's data folder for the workspace (appdata's
   * `moveJournalFile`), so a move a kill interrupts is finished by the next writer (move-journal.ts).
   * The caller holds the workspace's write lock.
   */
  journal?: string;
}

export interface RequestMoveOptions extends MoveOptions {
  /** The file name to take (without `.yaml`), instead of one made from the display name. */
  baseName?: string;
  /** The request saved with this value as it moves (a new name: `ferry mv` renaming and moving in one go). */
  value?: RequestFile;
}

/** Moves (and optionally renames) a request file; returns the new path. */
export async function moveRequest(root: string, requestPath: string, toFolder: string, options: RequestMoveOptions = {}): Promise<string> {
  checkTreePath(requestPath, 'request');
  const linked = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (linked) throw new Error(`Cannot move "${requestPath}": ${linked}.`);
  const from = path.join(root, REQUESTS_DIR, requestPath);
  const dir = await folderDir(root, toFolder);
  checkLevels(levelsOf(toFolder), `Folder "${toFolder}"`);
  const outcome = await readResource('request', from, requestPath);
  if (!outcome.ok) throw new Error(outcome.warning.message);
  const value = options.value;
  if (value) {
    requireName(value.name, outcome.value.name);
    checkResourceValue(path.basename(from), 'request', value);
  }
  const fromFolder = path.posix.dirname(requestPath) === '.' ? '' : path.posix.dirname(requestPath);
  const sameFolder = normalizeTreePath(fromFolder) === normalizeTreePath(toFolder);
  const fileName = `${options.baseName ?? uniqueFileName((value ?? outcome.value).name, await siblingNames(dir, sameFolder ? path.posix.basename(requestPath) : undefined), stripYaml(path.posix.basename(requestPath)))}.yaml`;
  const newPath = toFolder ? `${toFolder}/${fileName}` : fileName;
  const steps: MoveStep[] = [];
  if (newPath !== requestPath) steps.push({ op: 'rename', from: requestPath, to: newPath });
  if (value && !deepEqual(value, outcome.value)) steps.push({ op: 'save', kind: 'request', path: newPath, value });
  if (newPath !== requestPath) steps.push({ op: 'retarget', folder: false, from: requestPath, to: newPath });
  const { runMoveSteps } = await import('./move-journal.js');
  await runMoveSteps(root, steps, options.journal, options.onNotice);
  return newPath;
}

export async function deleteRequest(root: string, requestPath: string): Promise<void> {
  checkTreePath(requestPath, 'request');
  const problem = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (problem) throw new Error(`Cannot delete "${requestPath}": ${problem}.`);
  // unlink, not rm: rm takes a file it may not remove for a folder and says ENOTDIR.
  await fs.unlink(path.join(root, REQUESTS_DIR, requestPath)).catch((error: NodeJS.ErrnoException) => {
    const folder = path.posix.dirname(requestPath) === '.' ? '' : `${path.posix.dirname(requestPath)}/`;
    throw removeFailure(`${REQUESTS_DIR}/${requestPath}`, { shown: `${REQUESTS_DIR}/${folder}`, folder: true }, error, 'nothing was removed');
  });
}

/**
 * Why a delete failed, in words: `what`, and what `refused` it (relative to the workspace): a
 * folder that does not allow removing what it holds, or a file that may not go.
 */
function removeFailure(what: string, refused: { shown: string; folder: boolean }, error: NodeJS.ErrnoException, done: string): Error {
  const why: Record<string, string> = refused.folder
    ? {
      EACCES: `permission denied: the folder ${refused.shown} does not allow removing what is in it. Make the folder writable, then try again.`,
      EPERM: `operation not permitted: the folder ${refused.shown} (or what is in it) cannot be changed. Make it writable (chmod u+w; chattr -i for an immutable one), then try again.`,
    }
    : { EPERM: `operation not permitted: ${refused.shown} cannot be removed (it is immutable or append-only). Make it removable (chattr -i; chattr -a), then try again.` };
  why.EROFS = 'the file system is read-only.';
  return new Error(`Could not delete ${what} (${done}): ${(error.code && why[error.code]) ?? error.message}`);
}

/** Renames a folder: its display name, and its directory, which moves the subtree. Returns the new path. */
export async function renameFolder(root: string, folderPath: string, newName: string, options: MoveOptions = {}): Promise<string> {
  requireName(newName);
  folderPath = normalizeTreePath(folderPath);
  if (!folderPath) throw new Error('The collection root has no folder name; rename the workspace instead.');
  return relocateFolder(root, folderPath, path.posix.dirname(folderPath) === '.' ? '' : path.posix.dirname(folderPath), newName, options);
}

/**
 * Folder `folderPath`'s settings file, `requests/<path>/_folder.yaml`, relative to the workspace
 * folder (with `/`): refused for the collection root (its settings are the workspace file's),
 * for paths that leave `requests/`, and for a link anywhere on the way (the file itself included).
 * Whether the folder is there is the caller's to say.
 */
export async function folderSettingsFile(root: string, folderPath: string): Promise<string> {
  checkTreePath(folderPath, 'folder');
  const parts = folderPath.split('/').filter(Boolean);
  if (parts.length === 0) throw new Error(`The collection root has no ${FOLDER_FILE}: its auth, headers, scripts and docs are the workspace file's.`);
  const relative = [REQUESTS_DIR, ...parts, FOLDER_FILE].join('/');
  const linked = await checkNoSymlinks(root, relative);
  if (linked) throw new Error(`Cannot use the settings of folder "${folderPath}": ${linked}.`);
  return relative;
}

/**
 * Removes folder settings file `relative` (from `folderSettingsFile`) when a save left it empty
 * (no setting, no unknown field, no comment) and its folder holds something else: an empty
 * `_folder.yaml` says nothing, and git keeps the folder by its other files. One that is all an
 * empty folder holds stays, or git would lose the folder. Returns whether it was removed.
 */
export async function removeEmptyFolderFile(root: string, relative: string): Promise<boolean> {
  const file = path.join(root, relative);
  const text = await fs.readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined || text.trim() !== '') return false;
  const others = (await fs.readdir(path.dirname(file))).filter((name) => name !== path.basename(file));
  if (others.length === 0) return false;
  await fs.rm(file);
  return true;
}

const NEW_FOLDER = { seq: 0, auth: { type: 'inherit' }, headers: [] } as unknown as FolderFile;

/** `a//b/` as `a/b`: the form tree paths and load test targets use. */
function normalizeTreePath(treePath: string): string {
  return treePath.split('/').filter(Boolean).join('/');
}

/**
 * A folder's `_folder.yaml`, or undefined when it has none. One that does not parse is refused:
 * writing the new name over it would lose what the user wrote.
 */
async function folderSettings(dir: string, folderPath: string): Promise<FolderFile | undefined> {
  const file = path.join(dir, FOLDER_FILE);
  const label = `${REQUESTS_DIR}/${folderPath}/${FOLDER_FILE}`;
  const outcome = await readResource('folder', file, label);
  if (outcome.ok) return outcome.value;
  if (await fs.lstat(file).then(() => true, () => false)) {
    throw new Error(`Cannot change folder "${folderPath}": ${formatWarning(outcome.warning)}. Fix ${label} first.`);
  }
  return undefined;
}

/**
 * Moves a folder (with its subtree) into `toParent` ('' = the collection root), keeping its display
 * name; load tests that send requests inside follow. Returns the new folder path.
 */
export async function moveFolder(root: string, folderPath: string, toParent: string, options: MoveOptions = {}): Promise<string> {
  folderPath = normalizeTreePath(folderPath);
  toParent = normalizeTreePath(toParent);
  if (!folderPath) throw new Error('The collection root cannot be moved.');
  const dir = await folderDir(root, folderPath);
  if (path.dirname(dir) === (await folderDir(root, toParent))) return folderPath;
  return relocateFolder(root, folderPath, toParent, undefined, options);
}

/**
 * Moves folder `folderPath` into `toParent` (it may be its own parent), named `newName` when
 * given, else keeping its display name, as one move (move-journal.ts): the directory renamed, the
 * display name written to `_folder.yaml` when the directory's name does not say it, load tests
 * that send requests inside pointed at their new paths. Returns the new folder path.
 */
export async function relocateFolder(root: string, folderPath: string, toParent: string, newName: string | undefined, options: MoveOptions = {}): Promise<string> {
  folderPath = normalizeTreePath(folderPath);
  toParent = normalizeTreePath(toParent);
  if (!folderPath) throw new Error('The collection root cannot be moved.');
  if (newName !== undefined) requireName(newName);
  if (toParent === folderPath || toParent.startsWith(`${folderPath}/`)) {
    throw new Error(`Cannot move folder "${folderPath}" into itself ("${toParent}").`);
  }
  const dir = await folderDir(root, folderPath);
  if (!(await fs.lstat(dir).catch(() => undefined))?.isDirectory()) throw new Error(`No folder "${folderPath}" under ${REQUESTS_DIR}/.`);
  const target = await folderDir(root, toParent);
  const sameParent = path.dirname(dir) === target;
  if (!sameParent) {
    const levels = levelsOf(toParent) + 1;
    checkLevels(levels + (await subfolderLevels(dir)), `Moved into "${toParent || 'the collection root'}", folder "${folderPath}" with its subfolders`);
  }
  const settings = await folderSettings(dir, folderPath);
  const displayName = newName ?? settings?.name ?? path.basename(dir);
  const dirName = uniqueFileName(displayName, await siblingNames(target, sameParent ? path.basename(dir) : undefined), path.basename(dir));
  const newPath = toParent ? `${toParent}/${dirName}` : dirName;
  const steps: MoveStep[] = [];
  if (newPath !== folderPath) steps.push({ op: 'rename', from: folderPath, to: newPath });
  // The tree shows `_folder.yaml`'s name, else the directory's: a suffixed directory (`Users 2`) must not become the display name.
  if ((settings?.name ?? dirName) !== displayName) steps.push({ op: 'save', kind: 'folder', path: newPath, value: { ...(settings ?? NEW_FOLDER), name: displayName } });
  if (newPath !== folderPath) steps.push({ op: 'retarget', folder: true, from: folderPath, to: newPath });
  const { runMoveSteps } = await import('./move-journal.js');
  await runMoveSteps(root, steps, options.journal, options.onNotice);
  return newPath;
}

/**
 * Deletes a folder with everything in it, all or nothing as far as the system lets Ferry know: what
 * would refuse the removal inside (a subfolder that allows no removal, an immutable file) is looked
 * for first (removable.ts); then the folder is moved aside by one rename within the folder holding
 * it, which that folder refuses (not writable, immutable) with nothing removed, to a dot-name the
 * workspace reader and the app's watcher pass over (2.1.7), and removed there. Only what the look
 * cannot see stops the removal part-way: the rest is put back and the refusal says so.
 */
export async function deleteFolder(root: string, folderPath: string): Promise<void> {
  if (!folderPath) throw new Error('The collection root cannot be deleted.');
  const dir = await folderDir(root, folderPath);
  if (!(await fs.lstat(dir).catch(() => undefined))?.isDirectory()) throw new Error(`No folder "${folderPath}" under ${REQUESTS_DIR}/.`);
  const what = `${REQUESTS_DIR}/${folderPath.replace(/\/+$/, '')}/`;
  const shown = (absolute: string, folder: boolean) => ({ shown: `${path.relative(root, absolute).split(path.sep).join('/')}${folder ? '/' : ''}`, folder });
  // Loaded only for a delete, as the move steps are: `ferry run` loads no more than it needs.
  const { removalRefusal } = await import('./removable.js');
  const refusal = await removalRefusal(dir);
  if (refusal) throw removeFailure(what, shown(refusal.path, refusal.folder), refusal.error, 'nothing was removed');
  const aside = removalAside(dir);
  try {
    await fs.rename(dir, aside).catch((error: NodeJS.ErrnoException) => {
      throw removeFailure(what, shown(path.dirname(dir), true), error, 'nothing was removed');
    });
    await fs.rm(aside, { recursive: true }).catch(async (error: NodeJS.ErrnoException) => {
      const notBack = await fs.rename(aside, dir).then(() => undefined, (failed: NodeJS.ErrnoException) => failed);
      // What could not be removed (rm says ENOTDIR for a file it may not remove): the folder holding it
      // refused, named where it is now: back at the folder's name, or still in the aside.
      const refusedIn = error.path ? path.dirname(error.path) : aside;
      const refused = shown(notBack ? refusedIn : path.join(dir, path.relative(aside, refusedIn)), true);
      const why = error.code === 'ENOTDIR' ? Object.assign(error, { code: 'EPERM' }) : error;
      if (!notBack) throw removeFailure(what, refused, why, 'part of it may be gone already; the rest is still there');
      // The user must learn where their requests are: the aside, which Ferry does not read.
      const kept = shown(aside, true).shown;
      const failure = removeFailure(what, refused, why, `part of it may be gone already; the rest could not be put back and is in ${kept}`);
      throw new Error(`${failure.message} ${notPutBack(what, kept, notBack)}`);
    });
  } finally {
    // Removed, put back, or left in the aside: a read from now on says such a leftover.
    removalOver(aside);
  }
}

/**
 * Why what is left of a folder delete (`kept`, its hidden name) was not put back at the folder's
 * name (`what`), and what the user can do: the requests left there are not read until renamed.
 */
function notPutBack(what: string, kept: string, error: NodeJS.ErrnoException): string {
  const taken = error.code === 'EEXIST' || error.code === 'ENOTEMPTY' || error.code === 'ENOTDIR' || error.code === 'EISDIR';
  const because = taken ? `${what} is there again (made while it was being deleted)` : `renaming it back failed (${fileProblemReason(error)})`;
  const back = taken ? 'to a name not taken' : `back to ${what}`;
  return `It was not put back: ${because}. Ferry does not read a folder whose name starts with a dot: to keep what is left, rename ${kept} ${back}; else delete it.`;
}

export { loadTargetPath } from './tree.js';
