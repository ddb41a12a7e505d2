/**
 * Creating, renaming, moving and deleting requests and folders. File names follow display
 * names (2.1.4); load tests that send a moved request are updated in place (2.12).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FolderFile, RequestFile } from '../model/index.js';
import { checkNoSymlinks } from './files.js';
import { checkDisplayName, uniqueFileName } from './names.js';
import { LOADTESTS_DIR } from './open.js';
import { readResource } from './read-resource.js';
import { formatWarning } from './warning-text.js';
import { saveResource } from './save.js';
import { FOLDER_FILE, MAX_TREE_DEPTH, REQUESTS_DIR, isYamlFile, stripYaml } from './tree.js';

export class NameError extends Error {
  override name = 'NameError';
}

function requireName(name: unknown): string {
  const problem = checkDisplayName(name);
  if (problem) throw new NameError(problem);
  return name as string;
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
  await fs.mkdir(dir, { recursive: true });
  const fileName = `${uniqueFileName(request.name, await siblingNames(dir))}.yaml`;
  await saveResource(path.join(dir, fileName), 'request', request);
  return folderPath ? `${folderPath.replace(/\/+$/, '')}/${fileName}` : fileName;
}

/** Creates a folder (with `_folder.yaml` when it has settings); returns its path. */
export async function createFolder(root: string, parentPath: string, name: string, settings?: Partial<FolderFile>): Promise<string> {
  requireName(name);
  const dir = await folderDir(root, parentPath);
  checkLevels(levelsOf(parentPath) + 1, `Folder "${name}"`);
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
 * tests are updated; returns the (possibly new) request path.
 */
export async function saveRequest(root: string, requestPath: string, request: RequestFile): Promise<string> {
  requireName(request.name);
  checkTreePath(requestPath, 'request');
  const problem = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (problem) throw new Error(`Cannot save "${requestPath}": ${problem}.`);
  const file = path.join(root, REQUESTS_DIR, requestPath);
  await saveResource(file, 'request', request);
  const currentBase = stripYaml(path.posix.basename(requestPath));
  const folderPath = path.posix.dirname(requestPath) === '.' ? '' : path.posix.dirname(requestPath);
  const wanted = uniqueFileName(request.name, await siblingNames(path.dirname(file), path.posix.basename(requestPath)));
  if (wanted === currentBase) return requestPath;
  return moveRequest(root, requestPath, folderPath, wanted);
}

/** Moves (and optionally renames) a request file; returns the new path. */
export async function moveRequest(root: string, requestPath: string, toFolder: string, baseName?: string): Promise<string> {
  checkTreePath(requestPath, 'request');
  const linked = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (linked) throw new Error(`Cannot move "${requestPath}": ${linked}.`);
  const from = path.join(root, REQUESTS_DIR, requestPath);
  const dir = await folderDir(root, toFolder);
  checkLevels(levelsOf(toFolder), `Folder "${toFolder}"`);
  await fs.mkdir(dir, { recursive: true });
  const outcome = await readResource('request', from, requestPath);
  if (!outcome.ok) throw new Error(outcome.warning.message);
  const fileName = `${baseName ?? uniqueFileName(outcome.value.name, await siblingNames(dir))}.yaml`;
  const newPath = toFolder ? `${toFolder}/${fileName}` : fileName;
  if (newPath === requestPath) return requestPath;
  await fs.rename(from, path.join(dir, fileName));
  await updateLoadTestTargets(root, (target) => (target.toLowerCase() === requestPath.toLowerCase() ? newPath : undefined));
  return newPath;
}

export async function deleteRequest(root: string, requestPath: string): Promise<void> {
  checkTreePath(requestPath, 'request');
  const problem = await checkNoSymlinks(root, path.join(REQUESTS_DIR, requestPath));
  if (problem) throw new Error(`Cannot delete "${requestPath}": ${problem}.`);
  await fs.rm(path.join(root, REQUESTS_DIR, requestPath));
}

/** Renames a folder: its display name, and its directory, which moves the subtree. Returns the new path. */
export async function renameFolder(root: string, folderPath: string, newName: string): Promise<string> {
  requireName(newName);
  folderPath = normalizeTreePath(folderPath);
  if (!folderPath) throw new Error('The collection root has no folder name; rename the workspace instead.');
  const dir = await folderDir(root, folderPath);
  const parent = path.dirname(dir);
  const parentPath = path.posix.dirname(folderPath) === '.' ? '' : path.posix.dirname(folderPath);
  const dirName = uniqueFileName(newName, await siblingNames(parent, path.basename(dir)));
  const existing = await folderSettings(dir, folderPath);
  if (existing || dirName !== newName) {
    await saveResource(path.join(dir, FOLDER_FILE), 'folder', { ...(existing ?? NEW_FOLDER), name: newName });
  }
  const newPath = parentPath ? `${parentPath}/${dirName}` : dirName;
  if (dirName !== path.basename(dir)) {
    await fs.rename(dir, path.join(parent, dirName));
    await updateLoadTestTargets(root, movedUnder(folderPath, newPath));
  }
  return newPath;
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
export async function moveFolder(root: string, folderPath: string, toParent: string): Promise<string> {
  folderPath = normalizeTreePath(folderPath);
  toParent = normalizeTreePath(toParent);
  if (!folderPath) throw new Error('The collection root cannot be moved.');
  if (toParent === folderPath || toParent.startsWith(`${folderPath}/`)) {
    throw new Error(`Cannot move folder "${folderPath}" into itself ("${toParent}").`);
  }
  const dir = await folderDir(root, folderPath);
  const target = await folderDir(root, toParent);
  if (path.dirname(dir) === target) return folderPath;
  const levels = levelsOf(toParent) + 1;
  checkLevels(levels + (await subfolderLevels(dir)), `Moved into "${toParent || 'the collection root'}", folder "${folderPath}" with its subfolders`);
  const settings = await folderSettings(dir, folderPath);
  const displayName = settings?.name ?? path.basename(dir);
  await fs.mkdir(target, { recursive: true });
  const dirName = uniqueFileName(displayName, await siblingNames(target));
  // A suffixed directory name (`Users 2`) must not become the display name.
  if (!settings && dirName !== displayName) await saveResource(path.join(dir, FOLDER_FILE), 'folder', { ...NEW_FOLDER, name: displayName });
  const newPath = toParent ? `${toParent}/${dirName}` : dirName;
  await fs.rename(dir, path.join(target, dirName));
  await updateLoadTestTargets(root, movedUnder(folderPath, newPath));
  return newPath;
}

/** A load test target's new path when folder `from` became `to` (names compared without case), else undefined. */
function movedUnder(from: string, to: string): (target: string) => string | undefined {
  const prefix = `${from}/`;
  const lower = prefix.toLowerCase();
  return (target) => (target.toLowerCase().startsWith(lower) ? `${to}/${target.slice(prefix.length)}` : undefined);
}

export async function deleteFolder(root: string, folderPath: string): Promise<void> {
  if (!folderPath) throw new Error('The collection root cannot be deleted.');
  const dir = await folderDir(root, folderPath);
  await fs.rm(dir, { recursive: true });
}

/**
 * A load test's target (`targets[].request`, `thresholds[].target`) as the request path it names:
 * `.yaml` may be left out and a leading `/` is ignored; paths compare in any case (load/plan.ts).
 */
export function loadTargetPath(target: string): string {
  return (/\.ya?ml$/i.test(target) ? target : `${target}.yaml`).replace(/^\/+/, '');
}

/**
 * Rewrites `targets[].request` and `thresholds[].target` of every load test whose request path
 * `rename` gives a new one for, editing files in place; a target written without `.yaml` stays so.
 */
async function updateLoadTestTargets(root: string, renamePath: (requestPath: string) => string | undefined): Promise<void> {
  const rename = (target: string): string => {
    const renamed = renamePath(loadTargetPath(target));
    if (renamed === undefined) return target;
    return /\.ya?ml$/i.test(target) ? renamed : stripYaml(renamed);
  };
  // A linked loadtests/ is skipped when the workspace is read; its target is never written either.
  if (await checkNoSymlinks(root, LOADTESTS_DIR)) return;
  const dir = path.join(root, LOADTESTS_DIR);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => isYamlFile(n) && !n.startsWith('.'));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const outcome = await readResource('loadtest', file, `${LOADTESTS_DIR}/${name}`);
    if (!outcome.ok) continue;
    let changed = false;
    const targets = outcome.value.targets.map((t) => {
      const renamed = rename(t.request);
      if (renamed === t.request) return t;
      changed = true;
      return { ...t, request: renamed };
    });
    // A threshold's `target` names a request path too (2.12): it follows the request.
    const thresholds = outcome.value.thresholds.map((t) => {
      const renamed = t.target === undefined ? undefined : rename(t.target);
      if (renamed === t.target) return t;
      changed = true;
      return { ...t, target: renamed };
    });
    if (changed) await saveResource(file, 'loadtest', { ...outcome.value, targets, thresholds });
  }
}
