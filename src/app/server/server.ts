/**
 * `ferry app`'s server: 127.0.0.1 only, the built UI, the JSON API over the core and the one
 * live channel, all behind one guard (guard.ts). Closing it closes what it started: the
 * listener, the live channel, the watchers, the live connections, the workspace's servers it
 * started and the session.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onSetAside } from '../../appdata/set-aside.js';
import { settingsFile } from '../../appdata/index.js';
import type { Workspace } from '../../workspace/index.js';
import { checkHostAndOrigin, hasSessionCookie, isToken, newToken, sessionCookie } from './guard.js';
import { LiveChannel, pageId } from './live.js';
import { MAX_IMPORT_JSON_BYTES, tooLarge } from '../../importers/detect.js';
import { ApiError, readJson, sendJson, type BodyLimit, type Routes } from './router.js';
import { appSettingsRoutes } from './routes-app-settings.js';
import { catalogRoutes } from './routes-catalog.js';
import { environmentRoutes } from './routes-environments.js';
import { AppLoadRuns, loadRoutes } from './routes-load.js';
import { historyRoutes } from './routes-history.js';
import { updateRoutes } from './routes-update.js';
import { viewRoutes } from './routes-view.js';
import { AppConnections, connectionRoutes } from './routes-connections.js';
import { sendRoutes } from './routes-send.js';
import { AppServers, serverRoutes } from './routes-servers.js';
import { settingsRoutes } from './routes-settings.js';
import { toolRoutes } from './routes-tools.js';
import { workspaceRoutes } from './routes-workspace.js';
import { findWebRoot, serveStatic } from './static-files.js';
import { compactTree } from './tree-view.js';
import { lockWaitNotice, PAGE_HEADER } from '../shared/api.js';
import { watchWorkspace } from './watch.js';
import { watchSettingsFile } from './watch-settings.js';
import { WorkspaceState } from './workspace-state.js';

export interface AppServerOptions {
  workspace: Workspace;
  /** 0 (default) picks a free port. */
  port?: number;
  /** The built UI's folder; default: found beside the server (static-files.ts). */
  webRoot?: string;
  /** The session token; default: a fresh random one. */
  token?: string;
}

export interface AppServer {
  /** The URL to open: it carries the token, exchanged for the session cookie on first load. */
  url: string;
  port: number;
  token: string;
  /** Reads the workspace again (the watcher does this on every change). */
  state: WorkspaceState;
  close(): Promise<void>;
}

/** The page may talk only to this server; scripts only from it; it may not be framed. */
function pageHeaders(port: number): Record<string, string> {
  const self = `http://127.0.0.1:${port} http://localhost:${port}`;
  return {
    'content-security-policy': [
      "default-src 'self'", `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port} ${self}`, "img-src 'self' data: blob:",
      // CodeMirror sets styles on its elements.
      "style-src 'self' 'unsafe-inline'", "frame-src blob:", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'none'",
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** Calls that only stop what runs: allowed while the workspace is refused (WorkspaceState.refused). */
const STOPPING = new Set(['POST /api/servers/stop', 'POST /api/load/stop', 'POST /api/connections/close', 'POST /api/cancel']);

/**
 * Calls that read the request file on disk themselves (opening, saving, the last one opened): they
 * do not wait for the workspace's read after a save in place, so the next request opens at once.
 * Every other call works on the workspace as read after the last change (a run right after a save
 * sends what was saved).
 */
const READ_FROM_DISK = new Set(['GET /api/request', 'PUT /api/request', 'POST /api/request/notices', 'GET /api/request/last', 'PUT /api/request/last']);

/**
 * Calls that write workspace files and then take them as the app's own (WorkspaceState.ownWrite):
 * the watcher's report of their writes waits until they are marked. Not an import: it may be
 * downloading for a while first (routes-tools.ts runs only its write so).
 */
const OWN_WRITES = new Set([
  'PUT /api/request', 'POST /api/request', 'DELETE /api/request', 'POST /api/request/move', 'POST /api/folder', 'POST /api/folder/move', 'POST /api/folder/rename',
  'POST /api/tree/place', 'DELETE /api/folder', 'PUT /api/environment/variables', 'PUT /api/workspace/variables', 'POST /api/environments',
  'POST /api/environments/delete', 'PUT /api/folder/settings', 'PUT /api/workspace/settings', 'PUT /api/loadtest', 'POST /api/loadtest', 'POST /api/loadtest/delete',
  'PUT /api/server', 'POST /api/server', 'POST /api/update/apply',
]);

/**
 * Calls whose body carries an import's text or a document's new version, read up to 50 MB (spec
 * 8.1). The page sends it as JSON, where a character may take up to 6 (a quote or backslash 2, a
 * control character 6: \u0001), so a 50 MB text may arrive as 300 MB; past that, it is over 50 MB
 * whatever it holds. (A file of quotes once met the 60 MB every other call takes.)
 */
const textLimit = (refusal: () => Error): BodyLimit => ({ bytes: MAX_IMPORT_JSON_BYTES, refusal: () => new ApiError(400, refusal().message) });
const IMPORT_TEXT = textLimit(() => tooLarge('The import', undefined));
const BODY_LIMITS: Readonly<Record<string, BodyLimit>> = {
  'POST /api/import/preview': IMPORT_TEXT, 'POST /api/import': IMPORT_TEXT, 'POST /api/import/curl': IMPORT_TEXT,
  'POST /api/update/preview': textLimit(() => tooLarge('The new version', undefined, 'update')),
};

/**
 * The answer to the printed link: the cookie, on a page of its own that goes on to `/`. Not a
 * redirect: when the link is opened by another page (the private file `ferry app` opens, a link
 * in a chat), the browser counts a redirect as part of that page's cross-site navigation and
 * holds the SameSite=Strict cookie back from `/`, which was refused; the page's own step to `/`
 * starts on this server. It names no other place (no referrer, nothing loaded).
 */
function enterPage(res: ServerResponse, cookie: string): void {
  res.writeHead(200, {
    'set-cookie': cookie, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store',
    'referrer-policy': 'no-referrer', 'content-security-policy': `default-src 'none'; script-src '${ENTER_SCRIPT_HASH}'; frame-ancestors 'none'`, 'x-content-type-options': 'nosniff',
  });
  res.end(ENTER_PAGE);
}

/**
 * The link's page replaces itself with `/` (`location.replace`): its address, with the token, is
 * not left in the tab's history for Back to return to. Without scripts, a refresh (which the HTML
 * standard also makes a replacement, though not every browser does).
 */
const ENTER_SCRIPT = "location.replace('/')";
const ENTER_SCRIPT_HASH = `sha256-${createHash('sha256').update(ENTER_SCRIPT).digest('base64')}`;
const ENTER_PAGE = `<!doctype html><meta charset="utf-8"><script>${ENTER_SCRIPT}</script><noscript><meta http-equiv="refresh" content="0;url=/"></noscript><title>Ferry</title><a href="/">Open the app</a>\n`;

function forbidden(res: ServerResponse, why: string): void {
  res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`Forbidden: ${why}.\n`);
}

export async function startAppServer(options: AppServerOptions): Promise<AppServer> {
  const token = options.token ?? newToken();
  const webRoot = options.webRoot ?? findWebRoot();
  const state = new WorkspaceState(options.workspace);
  const live = new LiveChannel();
  // A damaged data file set aside while the app runs is said in the page, not on the terminal behind it.
  const stopNotices = onSetAside((notice) => live.notify(notice.message));
  // A save waiting for another Ferry process's write lock (an import in a terminal) says so in the
  // page (browser tab) that made it: another tab did not start it and has nothing to wait for.
  state.onLockWait = (holder, page) => live.publish({ type: 'notice', message: lockWaitNotice(holder) }, page);
  state.onLockWaitOver = (page) => live.publish({ type: 'lockWaitOver' }, page);
  const servers = new AppServers(state, live);
  const loadRuns = new AppLoadRuns(state, live);
  const connections = new AppConnections(state, live);
  const routes: Routes = { ...workspaceRoutes(state, live), ...settingsRoutes(state), ...environmentRoutes(state), ...sendRoutes(state, live), ...toolRoutes(state), ...serverRoutes(servers), ...loadRoutes(state, loadRuns), ...historyRoutes(state), ...updateRoutes(state), ...connectionRoutes(connections), ...catalogRoutes(state), ...appSettingsRoutes(), ...viewRoutes() };
  let port = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = checkHostAndOrigin(req, port);
    if (refused) return forbidden(res, refused);
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    // The printed URL's token, once: it becomes the cookie and leaves the address bar.
    if (url.searchParams.has('token')) {
      if (!isToken(url.searchParams.get('token'), token)) return forbidden(res, 'this link is not the one `ferry app` printed (or the app was restarted)');
      return enterPage(res, sessionCookie(token, port));
    }
    if (!hasSessionCookie(req, token, port)) return forbidden(res, 'open the link that `ferry app` printed');
    if (!url.pathname.startsWith('/api/')) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return forbidden(res, 'only GET for pages');
      return serveStatic(webRoot, url.pathname, res, pageHeaders(port));
    }
    if (!READ_FROM_DISK.has(`${req.method} ${url.pathname}`)) await state.fresh();
    if (state.refused !== undefined && !STOPPING.has(`${req.method} ${url.pathname}`)) {
      // Fixed meanwhile (the file put back)? Else nothing is read from or written over the old copy;
      // what only stops something (a server, a load test, a connection) still works.
      await state.reload().catch(() => undefined);
      if (state.refused !== undefined) return sendJson(res, 409, { error: state.refused });
    }
    const route = routes[`${req.method} ${url.pathname}`];
    if (!route) return sendJson(res, 404, { error: `No API route ${req.method} ${url.pathname}.` });
    // A state-changing call must say it is JSON: a plain HTML form cannot, even from this origin.
    if (req.method !== 'GET' && !(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return sendJson(res, 415, { error: 'Send JSON (content-type: application/json).' });
    }
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const body = req.method === 'GET' ? {} : await readJson(req, BODY_LIMITS[`${req.method} ${url.pathname}`]);
      const work = () => route({ query: url.searchParams, body, signal: controller.signal, page: pageId(req.headers[PAGE_HEADER]) });
      sendJson(res, 200, await (OWN_WRITES.has(`${req.method} ${url.pathname}`) ? state.ownWrite(work) : work()));
    } catch (error) {
      if (error instanceof ApiError) sendJson(res, error.status, { ...error.details, error: error.message });
      // A file that cannot be written (read-only, its folder read-only, the disk full): the message says which and what to do.
      else if ((error as Error)?.name === 'FileWriteError') sendJson(res, 400, { error: (error as Error).message });
      // Another Ferry process kept the workspace's lock past the wait (an import, an update from API spec): nothing was written, worth trying again.
      else if ((error as Error)?.name === 'WorkspaceBusyError') sendJson(res, 409, { error: (error as Error).message, busy: true });
      else {
        // The page gets the message; the stack (install paths, code) goes to the terminal running the app.
        process.stderr.write(`ferry app: ${req.method} ${url.pathname} failed: ${(error as Error).stack ?? String(error)}\n`);
        sendJson(res, 500, { error: `Ferry could not do this: ${(error as Error).message ?? String(error)} (details in the terminal running ferry app).` });
      }
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    const refused = checkHostAndOrigin(req, port) ?? (hasSessionCookie(req, token, port) ? undefined : 'open the link that `ferry app` printed');
    if (refused || url.pathname !== '/api/live') {
      socket.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nForbidden: ${refused ?? 'no such channel'}.\n`);
      return;
    }
    live.accept(req, socket, head);
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Loopback only: other computers cannot reach it, whatever the firewall says.
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    // The port is taken (or refused): nothing keeps running, so `ferry app` can exit with the reason.
    await Promise.allSettled([servers.close(), loadRuns.close(), connections.closeAll()]);
    stopNotices();
    live.close();
    await state.close();
    throw error;
  }
  port = (server.address() as AddressInfo).port;
  servers.begin();
  // Built before the browser asks for it: the page opens while the URL is still being printed.
  setImmediate(() => compactTree(state.workspace));

  const watcher = watchWorkspace(state.workspace.root, (paths) => {
    // The app's own saves, still as it wrote them, are in the workspace already: no read (0.5 s at
    // 10,000 requests). Checked once the read in flight (a rename's, say) is over and has said what it took.
    void state.settled().then(() => (state.onlyOwnWrites(paths) ? undefined : state.reload())).then(
      () => live.publish({ type: 'changed', paths }),
      () => live.publish({ type: 'changed', paths }),
    );
  });

  // This computer's settings changed outside the page (`ferry config set`): an open Application settings dialog reads them again.
  const settingsWatcher = watchSettingsFile(settingsFile(), () => live.publish({ type: 'appSettings' }));

  return {
    url: `http://127.0.0.1:${port}/?token=${token}`,
    port,
    token,
    state,
    async close() {
      watcher.close();
      settingsWatcher.close();
      await loadRuns.close();
      await connections.closeAll();
      await servers.close();
      stopNotices();
      live.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await state.close();
    },
  };
}
