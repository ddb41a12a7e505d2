/**
 * `ferry mv OLD NEW` (issue 20): one request or folder renamed and/or moved, through the same
 * functions the app's rename and move use (`moveRequest`, `relocateFolder`), so files are named by
 * 2.1's rules, `seq` stays and load tests follow. NEW is an
 * existing folder (move into it, keeping the name) or `Folder/New name` (`New name` at the root).
 */
import { baseFileName, fileNameKey } from './names.js';
import { moveRequest, relocateFolder, type MoveOptions } from './requests.js';
import { normalizeSelectPath } from './select.js';
import { stripYaml } from './tree.js';
import type { FolderNode, TreeNode } from './types.js';

export class MoveError extends Error {
  override name = 'MoveError';
}

export interface MovePlan {
  kind: 'request' | 'folder';
  from: string;
  /** The folder it goes into ('' = the collection root). */
  toFolder: string;
  /** The new display name, when it changes. */
  newName?: string;
}

/** Works out what `ferry mv OLD NEW` does in `tree`, refusing what it must not do; changes nothing. */
export function planMove(tree: FolderNode, oldText: string, newText: string): MovePlan {
  const old = normalizeSelectPath(oldText);
  const item = old === '' ? undefined : findItem(tree, old);
  if (!item) throw new MoveError(`No request or folder "${oldText}" under requests/. \`ferry ls\` lists the paths.`);
  if (item.type === 'broken') throw new MoveError(`"${oldText}" cannot be moved: ${item.warning.message}. Fix the file first.`);
  const kind = item.type;

  const raw = newText.replace(/\\/g, '/').trim();
  const target = normalizeSelectPath(raw);
  const parts = target.split('/').filter(Boolean);
  if (raw.startsWith('/') || /^[a-z]:/i.test(raw) || parts.some((p) => p === '.' || p === '..') || parts.length === 0) {
    throw new MoveError(`"${newText}" is not a place in this workspace: give a folder or Folder/Name relative to requests/, without "." or ".." parts.`);
  }
  const into = findFolder(tree, parts.join('/'));
  let toFolder: string;
  let newName: string | undefined;
  if (into && into !== item) {
    toFolder = into.path;
  } else {
    const parentPath = parts.slice(0, -1).join('/');
    const parent = parentPath === '' ? tree : findFolder(tree, parentPath);
    if (!parent) throw new MoveError(`No folder "${parentPath}" to move into. Create it first (the app, or mkdir requests/${parentPath}).`);
    toFolder = parent.path;
    const last = parts[parts.length - 1]!;
    newName = kind === 'request' ? stripYaml(last) : last;
  }
  if (kind === 'folder' && (toFolder === item.path || toFolder.startsWith(`${item.path}/`))) {
    throw new MoveError(`Cannot move folder "${item.path}" into itself ("${toFolder}").`);
  }
  const name = newName ?? nodeName(item);
  const currentFolder = item.path.includes('/') ? item.path.slice(0, item.path.lastIndexOf('/')) : '';
  if (name === nodeName(item) && toFolder === currentFolder) throw new MoveError(`"${item.path}" is already there with that name; nothing to do.`);
  // Onto an existing name: refused, never suffixed or overwritten.
  const destination = toFolder === '' ? tree : findFolder(tree, toFolder)!;
  const wantedFile = fileNameKey(baseFileName(name, fileBase(item)));
  const clash = destination.children.find((c) => c !== item && (fileNameKey(nodeName(c)) === fileNameKey(name) || fileNameKey(fileBase(c)) === wantedFile));
  if (clash && (clash.type === 'folder') !== (kind === 'folder')) {
    // Not a clash on disk (Health/ beside Health.yaml), but one name in the folder: spec 2.1's
    // taken names are any sibling's, file or folder, and a path such as `ferry run Health` must
    // name one of them.
    const where = toFolder === '' ? 'the collection root' : toFolder;
    const mine = kind === 'folder' ? `folder "${item.path}"` : `request "${item.path}"`;
    const theirs = clash.type === 'folder' ? 'a folder' : 'a request';
    const asRun = toFolder === '' ? name : `${toFolder}/${name}`;
    throw new MoveError(
      `Cannot name ${mine} "${name}" in ${where}: "${clash.path}" there is ${theirs} of that name, and in one folder a request and a folder cannot share a name (names are compared ignoring case; \`ferry run ${asRun}\` must name one of them). Choose another name, or rename or move "${clash.path}" first.`,
    );
  }
  if (clash) throw new MoveError(`"${clash.path}" already exists there; choose another name, or move or delete that one first.`);
  return { kind, from: item.path, toFolder, ...(newName !== undefined && newName !== nodeName(item) ? { newName } : {}) };
}

/**
 * Carries out a plan as one move (workspace/move-journal.ts: with `journal`, a kill at any moment
 * leaves it undone or finished by the next writer); returns the new path under requests/.
 */
export async function applyMove(root: string, tree: FolderNode, plan: MovePlan, options: MoveOptions = {}): Promise<string> {
  if (plan.kind === 'folder') return relocateFolder(root, plan.from, plan.toFolder, plan.newName, options);
  const node = findItem(tree, plan.from);
  const value = plan.newName !== undefined && node?.type === 'request' ? { ...node.request, name: plan.newName } : undefined;
  return moveRequest(root, plan.from, plan.toFolder, { ...options, ...(value ? { value } : {}) });
}

function nodeName(node: TreeNode): string {
  return node.type === 'request' ? node.request.name : node.type === 'folder' ? node.name : stripYaml(node.path.split('/').pop()!);
}

function fileBase(node: TreeNode): string {
  return stripYaml(node.path.split('/').pop()!);
}

function findFolder(tree: FolderNode, folderPath: string): FolderNode | undefined {
  const found = findItem(tree, folderPath);
  return found?.type === 'folder' ? found : undefined;
}

/** A request (extension optional) or folder by its path, any case. */
function findItem(folder: FolderNode, wanted: string): TreeNode | undefined {
  const lower = wanted.toLowerCase();
  for (const child of folder.children) {
    const p = child.path.toLowerCase();
    if (child.type === 'folder') {
      if (p === lower) return child;
      if (lower.startsWith(`${p}/`)) {
        const inner = findItem(child, wanted);
        if (inner) return inner;
      }
    } else if (p === lower || p === `${lower}.yaml`) {
      return child;
    }
  }
  return undefined;
}
