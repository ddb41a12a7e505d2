/** The sidebar's view of the workspace: names, kinds, badges (the kind table's tags), crossed-out requests. */
import { requestKind } from '../../protocols/index.js';
import { formatWarning, type FolderNode, type TreeNode, type Workspace } from '../../workspace/index.js';
import type { CompactFolder, CompactItem, CompactWorkspaceInfo, TreeItem, WorkspaceInfo } from '../shared/api.js';

function item(node: TreeNode): TreeItem {
  if (node.type === 'folder') return { type: 'folder', path: node.path, name: node.name, children: node.children.map(item), ...(node.settings.openapi ? { openapi: true } : {}) };
  if (node.type === 'broken') return { type: 'broken', path: node.path, message: formatWarning(node.warning), ...(node.warning.code ? { code: node.warning.code } : {}) };
  const { request } = node;
  return {
    type: 'request',
    path: node.path,
    name: request.name,
    kind: request.kind,
    method: request.method.toUpperCase(),
    tag: requestKind(request.kind).tag(request.method.toUpperCase()),
    removed: request.openapi?.removed === true,
  };
}

function fileName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** One item in the compact form (shared/api.ts `CompactItem`): what the page cannot derive, nothing more. */
function compact(node: TreeNode): CompactItem {
  if (node.type === 'folder') return { f: fileName(node.path), n: node.name, c: node.children.map(compact), ...(node.settings.openapi ? { o: 1 as const } : {}) };
  if (node.type === 'broken') return { f: fileName(node.path), e: formatWarning(node.warning), ...(node.warning.code ? { w: node.warning.code } : {}) };
  const { request } = node;
  const method = request.method.toUpperCase();
  const tag = requestKind(request.kind).tag(method);
  return {
    f: fileName(node.path), n: request.name, m: method,
    ...(request.kind === 'http' ? {} : { k: request.kind }),
    ...(tag === method ? {} : { t: tag }),
    ...(request.openapi?.removed === true ? { x: 1 as const } : {}),
  };
}

/** Built and serialized once per read of the workspace: every page load and every reload of the tree reuses it. */
const compactTrees = new WeakMap<Workspace, string>();

/** The compact tree as JSON text. */
export function compactTree(ws: Workspace): string {
  let tree = compactTrees.get(ws);
  if (tree === undefined) {
    tree = JSON.stringify(compact(ws.tree as FolderNode));
    compactTrees.set(ws, tree);
  }
  return tree;
}

function common(ws: Workspace, activeEnvironment: string | undefined, changes: number): Omit<WorkspaceInfo, 'tree'> {
  return {
    changes,
    name: ws.file.name || ws.root,
    root: ws.root,
    environments: ws.environments.map((e) => ({ id: e.id, name: e.value.name || e.id })),
    activeEnvironment: activeEnvironment && ws.environments.some((e) => e.id === activeEnvironment) ? activeEnvironment : null,
    warnings: ws.warnings,
  };
}

/** `changes`: the live channel's count of `changed` events sent, taken with the tree (LiveChannel.changes). */
export function workspaceInfo(ws: Workspace, activeEnvironment: string | undefined, changes: number): WorkspaceInfo {
  return { ...common(ws, activeEnvironment, changes), tree: item(ws.tree as FolderNode) as TreeItem & { type: 'folder' } };
}

/** `CompactWorkspaceInfo` as JSON text: the rest is small, the tree is spliced in as it was serialized. */
export function compactWorkspaceInfo(ws: Workspace, activeEnvironment: string | undefined, changes: number): string {
  const rest = JSON.stringify(common(ws, activeEnvironment, changes) satisfies Omit<CompactWorkspaceInfo, 'compactTree'>);
  return `${rest.slice(0, -1)},"compactTree":${compactTree(ws)}}`;
}
