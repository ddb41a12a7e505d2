/**
 * `ferry app` for one test: on a workspace made of `files` (makeWorkspace), with the workspace's
 * own data folder, and a call of its API as the page makes it (the session cookie); the app closed
 * and the workspace removed after the test, whether it passed or not.
 */
import { afterEach } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

/** One API call: the status and the answer's JSON (only these two, so a test can compare the whole answer). */
export type AppCall = <T = unknown>(method: string, url: string, body?: unknown) => Promise<{ status: number; body: T }>;

const opened: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of opened.splice(0).reverse()) await close();
});

/** `prepare`: done to the workspace before the app opens it (an import committed, say). */
export async function appForTest(files: Record<string, unknown>, prepare?: (ws: TempWorkspace) => Promise<void>): Promise<{ ws: TempWorkspace; app: AppServer; call: AppCall }> {
  const ws = await makeWorkspace(files);
  let app: AppServer | undefined;
  opened.push(async () => {
    await app?.close();
    await ws.cleanup();
  });
  process.env.FERRY_DATA_DIR = ws.dataDir;
  await prepare?.(ws);
  app = await startAppServer({ workspace: await openWorkspace(ws.root) });
  return { ws, app, call: await connect(app) };
}

async function connect(app: AppServer): Promise<AppCall> {
  const login = await fetch(app.url, { redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  return async <T = unknown>(method: string, url: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const res = await fetch(`http://127.0.0.1:${app.port}${url}`, {
      method, headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  };
}
