/**
 * The page's first calls, started by the entry before the app's code is loaded and parsed, so
 * the tree and the last request travel while it is (the 1 s page-usable target, bench/app.ts).
 * Each is handed out once; later calls go to the server again.
 */
import type { AppView, RequestFile, WorkspaceInfo } from '../shared/api.js';
import { api } from './api.js';
import { fetchWorkspace } from './tree.js';

const last = localStorage.getItem('ferry.last');
let workspace: Promise<WorkspaceInfo> | undefined = fetchWorkspace();
let request: { path: string; answer: Promise<{ request: RequestFile }> } | undefined = last
  ? { path: last, answer: api.get<{ request: RequestFile }>(`/api/request?path=${encodeURIComponent(last)}`) }
  : undefined;
let view: Promise<AppView> | undefined = api.get<AppView>('/api/view');
// Not unhandled while nobody has taken them yet: the taker sees the failure.
workspace.catch(() => undefined);
request?.answer.catch(() => undefined);
view.catch(() => undefined);

/** The look kept on this computer (sidebar width, theme): the page waits for it, so nothing jumps once shown. */
export function takeInitialView(): Promise<AppView> | undefined {
  const taken = view;
  view = undefined;
  return taken;
}

export function takeInitialWorkspace(): Promise<WorkspaceInfo> | undefined {
  const taken = workspace;
  workspace = undefined;
  return taken;
}

export function takeInitialRequest(path: string): Promise<{ request: RequestFile }> | undefined {
  const taken = request?.path === path ? request.answer : undefined;
  request = undefined;
  return taken;
}
