/** The compact tree the server sends (shared/api.ts `CompactItem`) made whole again: paths, kinds, tags. */
import type { CompactFolder, CompactItem, CompactWorkspaceInfo, TreeItem, WorkspaceInfo } from '../shared/api.js';
import { api } from './api.js';

/** The folder a tree path is in (`''` for the collection root). */
export function parentOf(path: string): string {
  return path.split('/').slice(0, -1).join('/');
}

function expand(item: CompactItem, parent: string): TreeItem {
  const path = parent ? `${parent}/${item.f}` : item.f;
  if ('c' in item) return { type: 'folder', path, name: item.n, children: item.c.map((child) => expand(child, path)), ...(item.o === 1 ? { openapi: true } : {}) };
  if ('e' in item) return { type: 'broken', path, message: item.e, ...(item.w ? { code: item.w } : {}) };
  return { type: 'request', path, name: item.n, kind: item.k ?? 'http', method: item.m, tag: item.t ?? item.m, removed: item.x === 1 };
}

export function expandTree(root: CompactFolder): TreeItem & { type: 'folder' } {
  return { type: 'folder', path: '', name: root.n, children: root.c.map((child) => expand(child, '')) };
}

/** The workspace as the page shows it, fetched in the compact form. */
export async function fetchWorkspace(): Promise<WorkspaceInfo> {
  const { compactTree, ...rest } = await api.get<CompactWorkspaceInfo>('/api/workspace?tree=compact');
  return { ...rest, tree: expandTree(compactTree) };
}
