/**
 * One request file taken again into an opened workspace, without reading the rest: the app's own
 * save of a request in place (app/server/workspace-state.ts). The file's text is read as the
 * tree reads it (the same value, the same warning, a broken node when it does not read), and the
 * workspace given back is a new object: the old one, which a session may still use, is unchanged.
 */
import { parseResource, type RequestFile } from '../model/index.js';
import { outcomeOfText } from './read-resource.js';
import { compareNodes, REQUESTS_DIR } from './tree.js';
import type { FolderNode, TreeNode, Workspace } from './types.js';

/**
 * `ws` with the request at `requestPath` read from `text`; undefined when the tree has no request
 * (or broken file) at that path, or holds only part of the tree: then only a whole read will do.
 */
export function withRequestText(ws: Workspace, requestPath: string, text: string): Workspace | undefined {
  if (ws.part) return undefined;
  const label = `${REQUESTS_DIR}/${requestPath}`;
  const outcome = outcomeOfText<RequestFile>('request', text, label, (data) => parseResource('request', data));
  const node: TreeNode = outcome.ok ? { type: 'request', path: requestPath, request: outcome.value } : { type: 'broken', path: requestPath, warning: outcome.warning };
  const tree = replaced(ws.tree, requestPath.split('/'), 1, node);
  if (!tree) return undefined;
  // The file's warning (a name out of bounds, or why it does not read) in place of the one it had, in open.ts's order.
  const warnings = ws.warnings.filter((w) => w.file !== label);
  if (outcome.warning) warnings.push(outcome.warning);
  warnings.sort((a, b) => a.file.localeCompare(b.file));
  return { ...ws, tree, warnings };
}

/** A copy of `folder` with the node at `parts` replaced (its folder re-ordered: `seq` may have changed). */
function replaced(folder: FolderNode, parts: string[], depth: number, node: TreeNode): FolderNode | undefined {
  const childPath = parts.slice(0, depth).join('/');
  const at = folder.children.findIndex((c) => c.path === childPath && (depth === parts.length ? c.type !== 'folder' : c.type === 'folder'));
  if (at < 0) return undefined;
  const child = folder.children[at]!;
  const next = depth === parts.length ? node : replaced(child as FolderNode, parts, depth + 1, node);
  if (!next) return undefined;
  const children = folder.children.slice();
  children[at] = next;
  if (depth === parts.length) children.sort(compareNodes);
  return { ...folder, children };
}
