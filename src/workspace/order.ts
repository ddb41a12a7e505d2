/**
 * Reordering the request tree (2.1.6: `seq` is the position among siblings): an item is placed
 * before a sibling (or last), and every sibling's `seq` is written as its position, 1, 2, 3…,
 * so the order no longer depends on names. Files are edited in place (comments kept); a file
 * whose `seq` is already right is not written. A folder without `_folder.yaml` gets one holding
 * its name and `seq`.
 */
import path from 'node:path';
import { checkNoSymlinks } from './files.js';
import { saveResource } from './save.js';
import { findFolder, FOLDER_FILE, REQUESTS_DIR } from './tree.js';
import type { FolderNode, TreeNode } from './types.js';

/** Places `itemPath` before `beforePath` (a sibling), or last when `beforePath` is absent. Returns the files written. */
export async function placeItem(root: string, tree: FolderNode, itemPath: string, beforePath?: string): Promise<string[]> {
  const parentPath = path.posix.dirname(itemPath) === '.' ? '' : path.posix.dirname(itemPath);
  const parent = parentPath ? findFolder(tree, parentPath) : tree;
  const siblings = parent?.children ?? [];
  const item = siblings.find((c) => c.path === itemPath);
  if (!item) throw new Error(`No request or folder "${itemPath}" under requests/.`);
  if (item.type === 'broken') throw new Error(`requests/${itemPath} does not parse; fix it before moving it.`);
  let order = siblings.filter((c) => c !== item);
  if (beforePath !== undefined) {
    const at = order.findIndex((c) => c.path === beforePath);
    if (at < 0) throw new Error(`"${beforePath}" is not beside "${itemPath}" in requests/${parentPath}; an item is placed among its own folder's items.`);
    order = [...order.slice(0, at), item, ...order.slice(at)];
  } else order = [...order, item];
  const written: string[] = [];
  let position = 0;
  for (const node of order) {
    // A file that does not parse keeps its place in the count but is not written.
    position++;
    const file = await writeSeq(root, node, position);
    if (file) written.push(file);
  }
  return written;
}

async function writeSeq(root: string, node: TreeNode, seq: number): Promise<string | undefined> {
  if (node.type === 'broken') return undefined;
  if (node.type === 'request' ? node.request.seq === seq : node.settings.seq === seq) return undefined;
  const relative = node.type === 'request' ? path.join(REQUESTS_DIR, node.path) : path.join(REQUESTS_DIR, node.path, FOLDER_FILE);
  const linked = await checkNoSymlinks(root, relative);
  if (linked) throw new Error(`Cannot reorder: ${linked}.`);
  if (node.type === 'request') await saveResource(path.join(root, relative), 'request', { ...node.request, seq });
  else await saveResource(path.join(root, relative), 'folder', { ...node.settings, name: node.name, seq });
  return relative.split(path.sep).join('/');
}
