/** Routes over the workspace write API: the tree, one request read and saved, create, move, delete, the environment. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { JsonStore, moveJournalFile, refuseLinkedFolder, WorkspaceBusyError } from '../../appdata/index.js';
import { deepEqual, parseResource, unknownFieldsWarning, type RequestFile } from '../../model/index.js';
import {
  checkNoSymlinks, createFolder, createRequest, deleteFolder, deleteRequest, FOLDER_FILE, formatWarning, moveFolder, moveRequest, placeItem, readResource, renameFolder, REQUESTS_DIR, saveRequest,
} from '../../workspace/index.js';
import { ApiError, field, optionalField, RawJson, type Routes } from './router.js';
import { MovedRequests } from './moved-requests.js';
import { compactWorkspaceInfo, workspaceInfo } from './tree-view.js';
import type { LiveChannel } from './live.js';
import type { WorkspaceState } from './workspace-state.js';

/** A request as the page sent it, checked against the format (never written when it would not read back). */
export function requestFrom(body: unknown): RequestFile {
  const parsed = parseResource('request', (body as { request?: unknown } | null)?.request);
  if (!parsed.ok) {
    const p = parsed.problems[0]!;
    throw new ApiError(400, `The request is not valid: ${p.path.join('.') || 'request'}: ${p.message}`);
  }
  return parsed.value;
}

/**
 * Runs a write of the call from `page` holding the workspace's write lock (one writer at a time: an import in a terminal
 * and a save in the app must not undo each other). Errors are messages for people (a taken name,
 * a link, a bad path): 400 with the message; another writer holding on: 409.
 */
export async function writing<T>(state: WorkspaceState, work: () => Promise<T>, page: string | undefined): Promise<T> {
  try {
    return await state.locked(work, page);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // `busy`: nothing was written, and the same save may go through once the other writer is done.
    if (error instanceof WorkspaceBusyError) throw new ApiError(409, error.message, { busy: true });
    throw new ApiError(400, (error as Error).message);
  }
}

export function workspaceRoutes(state: WorkspaceState, live: LiveChannel): Routes {
  const root = () => state.workspace.root;
  const movedRequests = new MovedRequests();
  /**
   * Every move and rename is journaled (workspace/move-journal.ts): a killed app leaves none half
   * done. What it could not do (a load test that does not parse) goes into `notices`, for the answer.
   */
  const moves = async (notices: string[]) => {
    const journal = moveJournalFile(state.workspace.id, state.workspace.root);
    // Never written through a linked folder of the data folder (appdata/json-store.ts): a 400 naming the link.
    await refuseLinkedFolder(journal);
    return { journal, onNotice: (message: string) => void notices.push(message) };
  };
  const withNotices = <T extends object>(value: T, notices: string[]) => (notices.length > 0 ? { ...value, notices } : value);
  /** The request file as the format reads it; 404 when it is not there (deleted, moved or renamed elsewhere). */
  const readOnDisk = async (requestPath: string): Promise<RequestFile> => {
    if (!requestPath || requestPath.split('/').some((p) => p === '..' || p.startsWith('.'))) throw new ApiError(400, 'Give the request path under requests/.');
    // O_NOFOLLOW guards the file itself; a linked folder on the way would lead out of the workspace.
    const linked = await checkNoSymlinks(root(), path.join(REQUESTS_DIR, ...requestPath.split('/')));
    if (linked) throw new ApiError(400, `Cannot open ${REQUESTS_DIR}/${requestPath}: ${linked}.`);
    const file = path.join(root(), REQUESTS_DIR, ...requestPath.split('/'));
    const found = await fs.lstat(file).catch(() => undefined);
    if (!found) {
      // Moved or renamed by the app (another tab): where it is now, for the page to follow.
      const movedTo = movedRequests.where(requestPath);
      if (movedTo !== undefined && (await fs.lstat(path.join(root(), REQUESTS_DIR, ...movedTo.split('/'))).catch(() => undefined))) {
        throw new ApiError(404, `${REQUESTS_DIR}/${requestPath} was moved or renamed in the app (another tab): it is ${REQUESTS_DIR}/${movedTo} now.`, { gone: true, movedTo });
      }
      throw new ApiError(404, `${REQUESTS_DIR}/${requestPath} is no longer in the workspace (deleted, moved or renamed outside the app).`, { gone: true });
    }
    const outcome = await readResource('request', file, `${REQUESTS_DIR}/${requestPath}`);
    if (!outcome.ok) throw new ApiError(400, formatWarning(outcome.warning));
    return outcome.value;
  };
  /**
   * `written`: the request files and folders the call wrote or removed (paths under requests/);
   * `moved`: the request or folder it moved or renamed (`folder`: with all under it), which
   * rewrote the load tests sending a moved request. When the watcher then reports only those,
   * unchanged since this read, it does not read again.
   */
  const done = async <T>(value: T, written: string[], moved?: { from: string; to: string; folder?: true }): Promise<T> => {
    // The page asks for the tree next: read the folder now rather than wait for the watcher.
    const under = (p: string) => [REQUESTS_DIR, ...p.split('/').filter(Boolean)].join('/');
    const loadTests = moved ? state.workspace.loadtests.map((entry) => entry.file) : [];
    if (moved) movedRequests.note(moved.from, moved.to);
    await state.reloadAfterOwnWrites([...written.map(under), ...loadTests], moved?.folder && { from: under(moved.from), to: under(moved.to) });
    return value;
  };
  /**
   * The request last opened in the app, per workspace on this computer (its data folder): the
   * page opens it again at the next start. Not in the page's storage, which is per port, and
   * `ferry app` takes a free port each start.
   */
  const lastOpened = () => new JsonStore<{ path?: string }>(path.join(state.data.dir, 'app-last-request.json'), () => ({}), 'the app does not open the request you had open last');
  return {
    /**
     * The request last opened, with its file's content; else `?else=` (the one the page's own
     * storage remembers, as earlier versions kept it); `{}` when neither is there any more.
     */
    'GET /api/request/last': async ({ query }) => {
      const { path: kept } = await lastOpened().read();
      for (const last of [kept, query.get('else')]) {
        if (typeof last !== 'string' || last === '') continue;
        const request = await readOnDisk(last).catch((error: unknown) => {
          if (error instanceof ApiError) return undefined;
          throw error;
        });
        if (request) return { path: last, request };
      }
      return {};
    },

    /** Keeps `path` (a request of the workspace) as the one last opened. */
    'PUT /api/request/last': async ({ body }) => {
      const opened = field(body, 'path');
      await readOnDisk(opened);
      await lastOpened().update((kept) => {
        kept.path = opened;
      });
      return {};
    },

    /** `?tree=compact` (the page): the tree in its compact form, built once per read of the folder. */
    'GET /api/workspace': async ({ query }) => {
      const active = await state.data.activeEnvironment();
      // The tree and the count of changes said so far, taken together (no await between them).
      return query.get('tree') === 'compact' ? new RawJson(compactWorkspaceInfo(state.workspace, active, live.changes)) : workspaceInfo(state.workspace, active, live.changes);
    },

    'GET /api/request': async ({ query }) => {
      const requestPath = query.get('path') ?? '';
      return { path: requestPath, request: await readOnDisk(requestPath) };
    },

    /**
     * Saves an edited request in place (comments and order kept); a new name renames the file.
     * `base` is the request as the page last read it: when the file no longer holds it (an
     * editor, git or another tab wrote it meanwhile) nothing is written and the answer is 409
     * with the file's version, so the page shows the conflict instead of overwriting that edit.
     * A file that is gone (deleted, moved) is a 404: a save never writes a deleted request back.
     */
    'PUT /api/request': async ({ body, page }) => {
      const request = requestFrom(body);
      const requestPath = field(body, 'path');
      const base = (body as { base?: unknown }).base;
      const notices: string[] = [];
      const saved = await writing(state, async () => {
        const current = await readOnDisk(requestPath);
        if (base !== undefined && !deepEqual(requestFrom({ request: base }), current)) {
          throw new ApiError(409, `${REQUESTS_DIR}/${requestPath} changed on disk since the app read it; nothing was saved.`, { request: current });
        }
        return saveRequest(root(), requestPath, request, await moves(notices));
      }, page);
      // The request as the format reads it back: the page compares it with what the watcher reports.
      const answer = withNotices({ path: saved, request }, notices);
      if (saved !== requestPath) return done(answer, [requestPath, saved], { from: requestPath, to: saved });
      // Saved in place (the page saves as you type): neither the answer nor the next request's opening
      // waits for the whole workspace to be read again (0.5 s at 10,000 requests, blocking the server):
      // the workspace takes this one file, and the watcher's report of the write costs no read either
      // (else it is marked changed, and the next call that needs it reads it first: server.ts).
      state.tookOwnSave(saved);
      return answer;
    },

    /**
     * What the editor's request (saved or not) has that requests do not (a typo: `hedaers:`), worked
     * out as the user edits; the line `ferry run` prints for the file (docs/workspace.md).
     */
    'POST /api/request/notices': async ({ body }) => {
      const notice = unknownFieldsWarning('request', `${REQUESTS_DIR}/${field(body, 'path')}`, requestFrom(body));
      return { notices: notice ? [notice] : [] };
    },

    'POST /api/request': async ({ body, page }) => {
      const request = (body as { request?: unknown }).request === undefined
        ? requestFrom({ request: { name: field(body, 'name'), method: optionalField(body, 'method') ?? 'GET' } })
        : requestFrom(body);
      const created = await writing(state, () => createRequest(root(), optionalField(body, 'folder') ?? '', request), page);
      movedRequests.forget(created);
      return done({ path: created }, [created]);
    },

    'DELETE /api/request': async ({ query, page }) => {
      const deleted = query.get('path') ?? '';
      await writing(state, () => deleteRequest(root(), deleted), page);
      movedRequests.forget(deleted);
      return done({}, [deleted]);
    },

    'POST /api/request/move': async ({ body, page }) => {
      const notices: string[] = [];
      const from = field(body, 'path');
      const moved = await writing(state, async () => moveRequest(root(), from, optionalField(body, 'folder') ?? '', await moves(notices)), page);
      return done(withNotices({ path: moved }, notices), [from, moved], { from, to: moved });
    },

    'POST /api/folder': async ({ body, page }) => {
      const created = await writing(state, () => createFolder(root(), optionalField(body, 'parent') ?? '', field(body, 'name')), page);
      return done({ path: created }, [created, `${created}/${FOLDER_FILE}`]);
    },

    'POST /api/folder/move': async ({ body, page }) => {
      const notices: string[] = [];
      const from = field(body, 'path');
      const moved = await writing(state, async () => moveFolder(root(), from, optionalField(body, 'parent') ?? '', await moves(notices)), page);
      return done(withNotices({ path: moved }, notices), [], { from, to: moved, folder: true });
    },

    /** Renames a folder as the CLI does (its directory follows the name; load tests follow, 2.12). */
    'POST /api/folder/rename': async ({ body, page }) => {
      const notices: string[] = [];
      const from = field(body, 'path');
      const renamed = await writing(state, async () => renameFolder(root(), from, field(body, 'name'), await moves(notices)), page);
      // The same directory when only the display name changed: its _folder.yaml was written.
      return done(withNotices({ path: renamed }, notices), [`${renamed}/${FOLDER_FILE}`], { from, to: renamed, folder: true });
    },

    /** Places a request or folder before a sibling (`before`), or last; every sibling's `seq` is written as its position (2.1.6). */
    'POST /api/tree/place': async ({ body, page }) => {
      // The tree as it is on disk now (a move may have just happened); the app's writes not reported
      // yet (a save as you type just before) stay its own.
      await state.reloadAfterOwnWrites([]);
      const written = await writing(state, () => placeItem(root(), state.workspace.tree, field(body, 'path'), optionalField(body, 'before')), page);
      // `written`: paths from the workspace folder; unchanged since, the watcher's report of them reads nothing more.
      await state.reloadAfterOwnWrites(written);
      return { written };
    },

    'DELETE /api/folder': async ({ query, page }) => {
      const deleted = query.get('path') ?? '';
      await writing(state, () => deleteFolder(root(), deleted), page);
      return done({}, [deleted]);
    },

    /** Names for `{{` completion: workspace and active environment variables (never their values). */
    'GET /api/variables': async () => {
      const active = await state.data.activeEnvironment();
      const environment = state.workspace.environments.find((e) => e.id === active);
      const names = [...state.workspace.file.variables, ...(environment?.value.variables ?? [])].filter((v) => v.enabled).map((v) => v.key);
      return { names: [...new Set(names)].sort() };
    },

    /** The active environment is kept on this computer (2.10); sends from now on use it. */
    'POST /api/environment': async ({ body }) => {
      const id = optionalField(body, 'id');
      if (id !== undefined && !state.workspace.environments.some((e) => e.id === id)) throw new ApiError(404, `No environment "${id}".`);
      await state.data.setActiveEnvironment(id);
      state.retire();
      return { activeEnvironment: id ?? null };
    },
  };
}
