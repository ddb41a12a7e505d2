/**
 * Debian's Chromium driven by playwright-core (which downloads nothing), for the app's
 * end-to-end tests; the built UI, built here when missing. Tests skip with the reason when
 * Chromium is absent (CI installs it with .ci/install-peers.sh).
 */
import { expect } from 'vitest';
import { existsSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Dialog, type Locator, type Page, type Route } from 'playwright-core';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

export const CHROMIUM = process.env.FERRY_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install Debian's chromium, as .ci/install-peers.sh does, or set FERRY_CHROMIUM)`;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Without the background-networking flags Chromium keeps calling home, which this machine's closed network refuses.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

const ROOT = path.resolve(import.meta.dirname, '../..');
export const WEB_ROOT = path.join(ROOT, 'dist/app/web');

/** Builds the UI with Vite (as `npm run build` does) when dist/app/web is missing. */
export async function ensureBuiltUi(): Promise<void> {
  if (existsSync(path.join(WEB_ROOT, 'index.html'))) return;
  const { build } = await import('vite');
  // As shipped: under Vitest's NODE_ENV=test, Vite would bundle React's development build.
  const before = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(ROOT, 'src/app/web/vite.config.ts'), logLevel: 'warn' });
  } finally {
    if (before === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = before;
  }
}

/** Screenshots go here (gitignored): CI keeps them as artifacts. */
export const ARTIFACTS = path.join(ROOT, 'test-artifacts/app');

export interface AppPage {
  app: AppServer;
  browser: Browser;
  page: Page;
}

export interface AppPageOptions {
  /** The page's size (1400 × 900 unless given). */
  viewport?: { width: number; height: number };
  /** More browser-context options (downloads…). */
  context?: BrowserContextOptions;
  /** How long a step may wait for its locator (8 s: a step that cannot happen fails with its locator, not the test's timeout). */
  stepTimeoutMs?: number;
  /** Answers the page's alert/confirm/prompt dialogs. */
  onDialog?: (dialog: Dialog) => void;
  /** Open the app's URL (with its token) at once: true unless a test opens it itself. */
  goto?: boolean;
  /** Log the page (`logPage`, returned as `log`) from before its first load, so no early request or live message is missed. */
  log?: boolean;
}

/** `ferry app` on the temporary workspace `ws` (its data folder made the app's) and a Chromium page for it. Close with `closeAppPage`. */
export async function openAppPage(ws: TempWorkspace, options: AppPageOptions & { log: true }): Promise<AppPage & { log: PageLog }>;
export async function openAppPage(ws: TempWorkspace, options?: AppPageOptions): Promise<AppPage>;
export async function openAppPage(ws: TempWorkspace, options: AppPageOptions = {}): Promise<AppPage & { log?: PageLog }> {
  await ensureBuiltUi();
  process.env.FERRY_DATA_DIR = ws.dataDir;
  const app = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: WEB_ROOT });
  let browser: Browser | undefined;
  // A set-up that fails part-way closes what it opened: its caller is given nothing to close.
  try {
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: options.viewport ?? { width: 1400, height: 900 }, colorScheme: 'light', ...options.context });
    const page = await context.newPage();
    page.setDefaultTimeout(options.stepTimeoutMs ?? 8_000);
    if (options.onDialog) page.on('dialog', options.onDialog);
    const log = options.log ? logPage(page) : undefined;
    await fs.mkdir(ARTIFACTS, { recursive: true });
    if (options.goto !== false) await gotoApp(page, app);
    return { app, browser, page, ...(log ? { log } : {}) };
  } catch (error) {
    await closeAppPage({ app, browser });
    throw error;
  }
}

/**
 * Opens the printed link and waits for the app itself: the link's own page sets the cookie and goes
 * on to `/`. Up to 30 s, not a step's 8 s: a first load on a loaded machine parses the whole bundle.
 */
export async function gotoApp(page: Page, app: AppServer): Promise<void> {
  await page.goto(app.url, { timeout: 30_000 });
  await page.waitForURL(`http://127.0.0.1:${app.port}/`, { timeout: 30_000 });
}

export interface WorkspacePageOptions extends AppPageOptions {
  /** ferry.yaml's own fields (makeWorkspace's `workspace`). */
  workspace?: Record<string, unknown>;
  /** Done to the workspace before the app opens it (a binary file written, a folder copied in). */
  prepare?: (ws: TempWorkspace) => Promise<void>;
}

/**
 * What most Chromium tests start from: a workspace made of `files` (makeWorkspace) and
 * `openAppPage` on it. Close with `closeAppPage`, given `ws` too; a set-up that fails removes the
 * workspace itself.
 */
export async function openWorkspacePage(files: Record<string, unknown>, options: WorkspacePageOptions & { log: true }): Promise<AppPage & { ws: TempWorkspace; log: PageLog }>;
export async function openWorkspacePage(files: Record<string, unknown>, options?: WorkspacePageOptions): Promise<AppPage & { ws: TempWorkspace }>;
export async function openWorkspacePage(files: Record<string, unknown>, { workspace, prepare, ...options }: WorkspacePageOptions = {}): Promise<AppPage & { ws: TempWorkspace; log?: PageLog }> {
  const ws = await makeWorkspace(files, workspace);
  try {
    await prepare?.(ws);
    return { ws, ...(await openAppPage(ws, options)) };
  } catch (error) {
    await ws.cleanup();
    throw error;
  }
}

/** Closes what `openAppPage` opened (any part may be missing when set-up failed), and removes `ws` when given (`openWorkspacePage`'s). */
export async function closeAppPage(opened: Partial<AppPage> & { ws?: TempWorkspace }): Promise<void> {
  await opened.browser?.close();
  await opened.app?.close();
  await opened.ws?.cleanup();
}

/**
 * The response body as the viewer shows it, line breaks included: the highlighted view's lines
 * (its element's text has none between them; a short body is drawn whole), or the plain text.
 */
export function responseText(within: Page | Locator): Promise<string> {
  return within.getByTestId('response-body').first().evaluate((el) => (el.classList.contains('cm-content')
    ? [...el.querySelectorAll(':scope > .cm-line')].map((line) => line.textContent ?? '').join('\n')
    : el.textContent ?? ''));
}

/** Waits for the app to write `file` with what `test` wants (its saves are asynchronous); a timeout says what the file holds. */
export async function waitForFile(file: string, test: (text: string) => boolean, timeoutMs = 10_000): Promise<string> {
  const started = Date.now();
  for (;;) {
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    if (test(text)) return text;
    if (Date.now() - started > timeoutMs) throw new Error(`${file} did not get the expected content; it holds:\n${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface HeldRequest {
  /** The request has left the page (its body is the content as it was when Save was pressed); with `reachServer`, the server has answered it too. */
  sent: Promise<void>;
  release(): void;
  /**
   * The answer has reached the page. What the page does with it is drawn later, at a moment no
   * wait can guess: a test then waits for something on the page only the taken answer gives.
   */
  answered: Promise<void>;
}

/**
 * Holds the page's next `method` request to `url` until `release`: on its way to the real server,
 * or, with `reachServer`, after the server has answered it (the file is written, the watcher may
 * report it), its answer kept from the page until then.
 */
export async function holdRequest(page: Page, url: RegExp, method: string, { reachServer = false } = {}): Promise<HeldRequest> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const sent = new Promise<void>((resolve) => (arrived = resolve));
  let taken = false;
  const handler = async (route: Route) => {
    if (taken || route.request().method() !== method) return route.fallback();
    taken = true;
    if (reachServer) {
      const response = await route.fetch();
      arrived();
      await released;
      await route.fulfill({ response });
    } else {
      arrived();
      await released;
      await route.continue();
    }
    await page.unroute(url, handler);
  };
  await page.route(url, handler);
  const answered = page.waitForResponse((r) => url.test(r.url()) && r.request().method() === method, { timeout: 15_000 })
    .then(async (response) => void await response.finished());
  return { sent, release, answered };
}

/** Where a page's log was: what comes after it is waited for. */
export interface LogMark {
  frames: number;
  requests: number;
}

export interface PageLog {
  mark(): LogMark;
  /** The live channel's messages so far, in order (a mark's `frames` counts them). */
  readonly frames: readonly string[];
  /** The script chunks the page has fetched so far (`CodeView-….js`): the app fetches its editors and modes when shown. */
  chunks(): string[];
  /** Whether the chunk `name` (`python`, `CodeView`) has been fetched. */
  fetched(name: string): boolean;
  /**
   * Waits for a change of `file` on disk to be taken by the page: the watcher's report of it on
   * the live channel since `from`, and the read of the open file again it makes the editor do
   * (GETs of `read` since `from`; none while a save is on its way), answered and drawn. Only then
   * does "no conflict shown" or "the edit still there" say something: before, nothing was asked.
   */
  changeTaken(file: string, read: RegExp, from: LogMark): Promise<void>;
  /**
   * Waits for the page's requests to `url` since `from` (one at least) to be answered, or to fail
   * (cancelled by the page), and for what the page does with the answers to be drawn: what a
   * late answer could wrongly show is only absent once it has come.
   */
  answered(url: RegExp, from: LogMark): Promise<void>;
}

/** What React does with an event is drawn by the next frame but one at the latest (its effects run before it). */
export function drawn(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
}

/** Logs the live channel's messages to `page` and its requests: call it before the app is opened in it (as `openAppPage(ws, { log: true })` does). */
export function logPage(page: Page): PageLog {
  const frames: string[] = [];
  const requests: Array<{ method: string; url: string; done: Promise<unknown> }> = [];
  page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
  // `done`: answered whole, or failed (response() gives null then). One nobody waits for rejects
  // when the page closes first: marked handled, so it is no unhandled rejection (waiters still see it).
  page.on('request', (r) => {
    const done = r.response().then((answer) => answer?.finished());
    done.catch(() => {});
    requests.push({ method: r.method(), url: r.url(), done });
  });
  const chunks = () => requests.map((r) => /\/assets\/([^/]+\.js)$/.exec(r.url)?.[1]).filter((chunk) => chunk !== undefined);
  return {
    mark: () => ({ frames: frames.length, requests: requests.length }),
    frames,
    chunks,
    fetched: (name) => chunks().some((chunk) => chunk.startsWith(`${name}-`)),
    changeTaken: async (file, read, from) => {
      await expect.poll(() => frames.slice(from.frames).some((f) => f.includes('"changed"') && f.includes(JSON.stringify(file))), { message: `the watcher's report of ${file}` }).toBe(true);
      await drawn(page);
      for (const r of requests.slice(from.requests).filter((r) => r.method === 'GET' && read.test(r.url))) await r.done;
      await drawn(page);
    },
    answered: async (url, from) => {
      const asked = requests.slice(from.requests).filter((r) => url.test(r.url));
      if (asked.length === 0) throw new Error(`the page sent no request to ${url} to wait for`);
      for (const r of asked) await r.done;
      await drawn(page);
    },
  };
}

/** The live channel's messages the page's app has handled. */
export interface LiveTaken {
  /** How many it has handled so far: what comes after is waited for. */
  count(): Promise<number>;
  /** Waits for one holding each of `parts`, handled after the first `from`, and for what the app did with it to be drawn. */
  since(from: number, parts: string[]): Promise<void>;
}

/**
 * Has `page` note each live-channel message once the app's handler of it has run: Playwright's
 * frame event says the message reached the browser, not that the page took it. Call it before
 * the app is opened in the page.
 */
export async function liveTaken(page: Page): Promise<LiveTaken> {
  await page.addInitScript(() => {
    const Native = window.WebSocket;
    const taken: string[] = [];
    (window as unknown as { ferryLiveTaken: string[] }).ferryLiveTaken = taken;
    window.WebSocket = class extends Native {
      constructor(url: string | URL, protocols?: string | string[]) {
        super(url, protocols);
        // Added before the app's handler, so it runs first: its task runs once every handler has.
        this.addEventListener('message', (message) => {
          const text = String(message.data);
          setTimeout(() => taken.push(text));
        });
      }
    };
  });
  const handled = () => page.evaluate(() => (window as unknown as { ferryLiveTaken?: string[] }).ferryLiveTaken ?? []);
  return {
    count: async () => (await handled()).length,
    since: async (from, parts) => {
      await expect.poll(async () => (await handled()).slice(from).some((m) => parts.every((p) => m.includes(p))), { message: `a live message with ${parts.join(', ')} handled by the page` }).toBe(true);
      await drawn(page);
    },
  };
}

/**
 * Copy as code writes what the editor has not saved yet (the debounced save, and a save on its way)
 * before its dialog opens: once the code shows, whatever the steps before set going has reached the
 * file, and nothing of theirs is left to write it later. The dialog is closed again.
 */
export async function savesDone(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Copy as code' }).click();
  await expect.poll(() => page.getByTestId('code').count()).toBe(1);
  await page.getByRole('dialog', { name: 'Copy as code' }).getByRole('button', { name: 'Close' }).click();
  await expect.poll(() => page.getByRole('dialog', { name: 'Copy as code' }).count()).toBe(0);
}

/** The app in `theme`: its Toggle theme button pressed when it shows the other one, then waited for. */
export async function showTheme(page: Page, theme: 'light' | 'dark'): Promise<void> {
  const shown = () => page.evaluate(() => document.documentElement.dataset.theme);
  if ((await shown()) !== theme) await page.getByRole('button', { name: 'Toggle theme' }).click();
  await expect.poll(shown).toBe(theme);
}
