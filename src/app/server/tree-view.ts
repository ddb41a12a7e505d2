/** The sidebar's view of the workspace: names, kinds, badges (the kind table's tags), crossed-out requests. */
import { requestKind } from '../../protocols/index.js';
import { formatWarning, type FolderNode, type TreeNode, type Workspace } from '../../workspace/index.js';
import type { TreeItem, WorkspaceInfo } from '../shared/api.js';

function item(node: TreeNode): TreeItem {
  if (node.type === 'folder') return { type: 'folder', path: node.path, name: node.name, children: node.children.map(item) };
  if (node.type === 'broken') return { type: 'broken', path: node.path, message: formatWarning(node.warning) };
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

export function workspaceInfo(ws: Workspace, activeEnvironment: string | undefined): WorkspaceInfo {
  return {
    name: ws.file.name || ws.root,
    root: ws.root,
    tree: item(ws.tree as FolderNode) as TreeItem & { type: 'folder' },
    environments: ws.environments.map((e) => ({ id: e.id, name: e.value.name || e.id })),
    activeEnvironment: activeEnvironment && ws.environments.some((e) => e.id === activeEnvironment) ? activeEnvironment : null,
    warnings: ws.warnings.map(formatWarning),
  };
}
