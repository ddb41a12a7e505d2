/**
 * Reading only the part of the request tree that some paths name (issue 21): running or exporting
 * one request of a 30,000-request workspace reads that request, the folders above it with their
 * `_folder.yaml`, and nothing else. The pieces are the full reader's (`tree.ts`), so a request
 * inherits exactly what it inherits from a full read.
 */
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { namesFolderOnly, normalizeSelectPath } from './select.js';
import type { RequestSummary } from '../model/index.js';
import { compareNodes, folderNode, FOLDER_FILE, isYamlFile, listFolder, MAX_TREE_DEPTH, notAFolder, readFolder, requestNode, REQUESTS_DIR, type TreeReader } from './tree.js';
import type { FolderNode, TreeNode, Warning } from './types.js';

/**
 * The tree holding only what `paths` name: for each, the folders down to it (each with its
 * settings) and the request file, or the whole folder, it names. Undefined when a path is not
 * found plainly (missing, ambiguous in case, through a link, too deep, empty, requests/ no folder): the caller then
 * reads the whole tree, whose selection gives the message ("Did you mean ...").
 */
export function readRequestTreePart<R extends RequestSummary>(root: string, paths: readonly string[], warnings: Warning[], read: TreeReader<R>): FolderNode<R> | undefined {
  if (paths.length === 0 || notAFolder(path.join(root, REQUESTS_DIR))) return undefined;
  const listings = new Map<string, Dirent[]>();
  const list = (relPath: string): Dirent[] => {
    let entries = listings.get(relPath);
    if (!entries) listings.set(relPath, (entries = listFolder(root, relPath, warnings)));
    return entries;
  };
  const top = folderNode<R>(root, '', list(''), warnings, read);
  for (const raw of paths) {
    const wanted = normalizeSelectPath(raw);
    if (wanted === '' || wanted === '.' || wanted.includes('//')) return undefined;
    const parts = wanted.split('/');
    const folderOnly = namesFolderOnly(raw);
    if (parts.length > MAX_TREE_DEPTH + 1) return undefined;
    let folder = top;
    for (const [index, part] of parts.entries()) {
      const last = index === parts.length - 1;
      const entries = list(folder.path);
      if (last && !folderOnly) {
        const file = only(entries.filter((e) => isRequestFile(e) && (e.name.toLowerCase() === part.toLowerCase() || e.name.toLowerCase() === `${part.toLowerCase()}.yaml`)));
        if (file === null) return undefined;
        // A folder of the same name beside it (`Users/` and `Users.yaml`): the whole tree's selection says which to give.
        if (file && !isYamlFile(part) && entries.some((e) => e.isDirectory() && e.name.toLowerCase() === part.toLowerCase())) return undefined;
        if (file) {
          const relPath = join(folder.path, file.name);
          if (!folder.children.some((c) => c.path === relPath)) add(folder, requestNode(root, relPath, `${REQUESTS_DIR}/${relPath}`, warnings, read));
          break;
        }
      }
      const dir = only(entries.filter((e) => e.isDirectory() && !e.name.startsWith('.') && e.name.toLowerCase() === part.toLowerCase()));
      if (!dir) return undefined;
      const relPath = join(folder.path, dir.name);
      const existing = folder.children.find((c): c is FolderNode<R> => c.type === 'folder' && c.path === relPath);
      if (index + 1 > MAX_TREE_DEPTH) return undefined;
      if (last) {
        // The whole folder, read as the full reader reads it (replacing a chain-only node).
        if (existing) folder.children.splice(folder.children.indexOf(existing), 1);
        add(folder, readFolder(root, relPath, index + 1, warnings, read));
        break;
      }
      folder = existing ?? add(folder, folderNode<R>(root, relPath, list(relPath), warnings, read));
    }
  }
  return top;
}

/** The one entry of a listing, undefined when there is none, null when several differ only in case. */
function only(entries: Dirent[]): Dirent | undefined | null {
  if (entries.length > 1) return null;
  return entries[0];
}

function isRequestFile(entry: Dirent): boolean {
  return entry.isFile() && !entry.name.startsWith('.') && isYamlFile(entry.name) && entry.name.toLowerCase() !== FOLDER_FILE;
}

function join(folderPath: string, name: string): string {
  return folderPath === '' ? name : `${folderPath}/${name}`;
}

function add<R extends RequestSummary, T extends TreeNode<R>>(folder: FolderNode<R>, node: T): T {
  folder.children.push(node);
  folder.children.sort(compareNodes);
  return node;
}
