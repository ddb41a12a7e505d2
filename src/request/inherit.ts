/**
 * What a request takes from its folders and the workspace (spec 2.2, 2.9, 5.1): headers, auth
 * and the chain of scripts. `folders` is the chain `walkRequests` gives: outermost (the
 * collection root) first, the request's own folder last.
 */
import { scriptParts, type Auth, type FolderFile, type KeyValue, type RequestFile, type WorkspaceFile } from '../model/index.js';

export interface FolderLike {
  /** Path relative to `requests/` (`''` for the collection root). */
  path: string;
  settings: Pick<FolderFile, 'auth' | 'headers' | 'scripts'>;
}

export interface EffectiveAuth {
  auth: Auth;
  /** Where it came from: `request`, `workspace`, or `folder:<path>`. */
  source: string;
}

/**
 * `inherit` takes the nearest folder with a non-inherit auth, then the workspace's. `none`
 * anywhere on the way stops inheritance (it is a non-inherit auth).
 */
export function effectiveAuth(request: Pick<RequestFile, 'auth'>, folders: readonly FolderLike[], workspace: Pick<WorkspaceFile, 'auth'>): EffectiveAuth {
  const own = request.auth as Auth;
  if (own.type !== 'inherit') return { auth: own, source: 'request' };
  for (let i = folders.length - 1; i >= 0; i--) {
    const folder = folders[i]!;
    const auth = folder.settings.auth as Auth;
    if (auth.type !== 'inherit') return { auth, source: `folder:${folder.path}` };
  }
  const fromWorkspace = workspace.auth as Auth;
  // A workspace set to `inherit` has nothing above it: treat it as none.
  return { auth: fromWorkspace.type === 'inherit' ? { type: 'none' } : fromWorkspace, source: 'workspace' };
}

/** A header row after inheritance; text is not yet filled in. */
export interface RawHeader {
  key: string;
  value: string;
}

/**
 * Enabled headers of the workspace, then folders outer to inner, then the request. An inner
 * level's header of a name replaces every outer header of that name (case-insensitive);
 * repeated names within one level are all kept.
 */
export function mergedHeaders(workspace: Pick<WorkspaceFile, 'headers'>, folders: readonly FolderLike[], request: Pick<RequestFile, 'headers'>): RawHeader[] {
  const levels: KeyValue[][] = [workspace.headers, ...folders.map((f) => f.settings.headers), request.headers];
  let merged: RawHeader[] = [];
  for (const level of levels) {
    const rows = level.filter((h) => h.enabled !== false && h.key !== '');
    if (rows.length === 0) continue;
    const names = new Set(rows.map((h) => h.key.toLowerCase()));
    merged = merged.filter((h) => !names.has(h.key.toLowerCase()));
    for (const row of rows) merged.push({ key: row.key, value: row.value });
  }
  return merged;
}

export interface ScriptSourceLike {
  code: string;
  label: string;
}

/**
 * Scripts of one phase in execution order: workspace, folders outer to inner, the request's own.
 * A field with SCRIPT_BREAK lines gives one script per part, `(script N)` in its label; each part
 * keeps its lines' numbers in error messages (blank lines stand for the lines before it).
 */
export function scriptChain(
  workspace: Pick<WorkspaceFile, 'scripts'>,
  folders: readonly FolderLike[],
  request: Pick<RequestFile, 'scripts'>,
  requestPath: string,
  phase: 'preRequest' | 'postResponse',
): ScriptSourceLike[] {
  const out: ScriptSourceLike[] = [];
  const add = (code: string | undefined, label: string) => {
    if (code === undefined || code.trim() === '') return;
    const parts = scriptParts(code);
    if (parts.length === 1) return void out.push({ code, label: `${label}: ${phase}` });
    parts.forEach((part, i) => {
      if (part.code.trim() !== '') out.push({ code: '\n'.repeat(part.line - 1) + part.code, label: `${label}: ${phase} (script ${i + 1})` });
    });
  };
  add(workspace.scripts?.[phase], 'ferry.yaml');
  for (const folder of folders) {
    if (folder.path !== '') add(folder.settings.scripts?.[phase], `requests/${folder.path}/_folder.yaml`);
  }
  add(request.scripts?.[phase], `requests/${requestPath}`);
  return out;
}

/** Whether a send of the request runs any script (the workspace's, a folder's or its own, either phase). */
export function hasScripts(
  workspace: Pick<WorkspaceFile, 'scripts'>,
  folders: readonly FolderLike[],
  request: Pick<RequestFile, 'scripts'>,
  requestPath: string,
): boolean {
  return scriptChain(workspace, folders, request, requestPath, 'preRequest').length > 0 || scriptChain(workspace, folders, request, requestPath, 'postResponse').length > 0;
}
