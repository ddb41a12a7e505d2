/**
 * The page's first calls, started by the entry before the app's code is loaded and parsed, so
 * the tree and the last request travel while it is (the 1 s page-usable target, bench/app.ts).
 * Each is handed out once; later calls go to the server again.
 */
import type { AppView, RequestFile, WorkspaceInfo } from '../shared/api.js';
import { api } from './api.js';
import { fetchWorkspace } from './tree.js';

let workspace: Promise<WorkspaceInfo> | undefined = fetchWorkspace();
/** The request last opened in this workspace on this computer, with its content (none: `{}`); else the one this port's storage remembers (earlier versions kept it there). */
const remembered = localStorage.getItem('ferry.last');
let last: Promise<LastRequest> | undefined = api.get<LastRequest>(`/api/request/last${remembered ? `?else=${encodeURIComponent(remembered)}` : ''}`);
let view: Promise<AppView> | undefined = api.get<AppView>('/api/view');
// Not unhandled while nobody has taken them yet: the taker sees the failure.
workspace.catch(() => undefined);
last.catch(() => undefined);
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

export interface LastRequest {
  path?: string;
  request?: RequestFile;
}

export function takeInitialLast(): Promise<LastRequest> | undefined {
  const taken = last;
  last = undefined;
  return taken;
}
