/**
 * `ferry app` in Chromium: the work area as an Insomnia or Postman user works it. The split
 * between the request editor and the answer (dragged, moved with the keys, side by side or
 * stacked, kept on this computer for the next start), and the response viewer fed real answers
 * by a local HTTP server: a body far over what the page is given, binary and non-UTF-8 bodies,
 * JSON under a wrong Content-Type, a thousand headers, a redirect chain, cookies.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { ARTIFACTS, browserMissing, closeAppPage, gotoApp, openAppPage, WEB_ROOT } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** The answers the viewer is tried with, by path. */
async function startSite(): Promise<Listening> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/users/42') res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":42,"name":"Ada"}');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end(`no ${url} here`);
  });
  return listenLoopback(server, 'http');
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: the editor/answer split and the response viewer', () => {
  let ws: TempWorkspace;
  let site: Listening;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  const send = async (name: string) => {
    await page.getByRole('treeitem', { name: new RegExp(`${name}$`) }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(name);
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 }).toMatch(/^\d{3}/);
  };

  beforeAll(async () => {
    site = await startSite();
    ws = await makeWorkspace({
      'requests/User.yaml': { name: 'User', seq: 1, url: `${site.url}/users/42` },
    });
    ({ app, browser, page } = await openAppPage(ws, { viewport: { width: 1400, height: 860 }, stepTimeoutMs: 20_000 }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app });
    await site?.close();
    await ws?.cleanup();
  });

  it('resizes the editor/answer split by mouse and keyboard, stacks it on request; both kept on this computer for the next start, not in the workspace', async () => {
    await send('User');
    const editor = page.locator('#request-pane');
    const answer = page.getByRole('region', { name: 'Response' });
    const panes = page.getByTestId('work-panes');
    let bar = page.getByRole('separator', { name: 'Request editor width' });
    /** The editor's share of the panes in whole percent, as the bar says and as drawn. */
    const shown = async (axis: 'width' | 'height') => {
      const all = (await panes.boundingBox())!;
      const own = (await editor.boundingBox())!;
      return [await bar.getAttribute('aria-valuenow'), Math.round((own[axis] / all[axis]) * 100)];
    };
    expect(await shown('width')).toEqual(['50', 50]);
    expect(await bar.getAttribute('aria-orientation')).toBe('vertical');
    expect(await bar.getAttribute('aria-controls')).toBe('request-pane');
    expect([await bar.getAttribute('aria-valuemin'), await bar.getAttribute('aria-valuemax')]).toEqual(['20', '80']);
    expect((await answer.boundingBox())!.x).toBeGreaterThan((await editor.boundingBox())!.x);

    // The mouse: the answer made wider by a fifth of the panes, then the drag past the edge stops at 80%.
    const width = (await panes.boundingBox())!.width;
    const drag = async (dx: number, dy: number) => {
      const box = (await bar.boundingBox())!;
      const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
      await page.mouse.move(at.x, at.y);
      await page.mouse.down();
      await page.mouse.move(at.x + dx, at.y + dy, { steps: 4 });
      await page.mouse.up();
    };
    await drag(-width / 5, 0);
    expect(await shown('width')).toEqual(['30', 30]);
    await drag(width, 0);
    expect(await shown('width')).toEqual(['80', 80]);

    // The keyboard: ← → by 2% (Shift: 8%), Home and End to the bounds.
    expect(await bar.getAttribute('tabindex')).toBe('0');
    await bar.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowRight');
    expect(await shown('width')).toEqual(['30', 30]);
    await page.keyboard.press('ArrowLeft');
    expect(await shown('width')).toEqual(['28', 28]);

    // Stacked: the answer below the editor, the bar horizontal (↑ ↓), the same share of the height.
    const layout = page.getByRole('button', { name: 'Answer below the request' });
    expect(await layout.getAttribute('aria-pressed')).toBe('false');
    await layout.click();
    expect(await layout.getAttribute('aria-pressed')).toBe('true');
    bar = page.getByRole('separator', { name: 'Request editor height' });
    expect(await bar.getAttribute('aria-orientation')).toBe('horizontal');
    const [editorBox, answerBox] = [(await editor.boundingBox())!, (await answer.boundingBox())!];
    expect(answerBox.y).toBeGreaterThanOrEqual(editorBox.y + editorBox.height - 1);
    expect(Math.round(answerBox.width)).toBe(Math.round((await panes.boundingBox())!.width));
    expect(await shown('height')).toEqual(['28', 28]);
    await bar.focus();
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await shown('height')).toEqual(['38', 38]);
    const height = (await panes.boundingBox())!.height;
    await drag(0, height / 10);
    expect(await shown('height')).toEqual(['48', 48]);
    // The answer still works in its smaller pane.
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Headers/ }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Response headers' }).textContent()).toContain('application/json');
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Body/ }).click();
    await page.screenshot({ path: path.join(ARTIFACTS, 'split-stacked.png') });

    const kept = path.join(ws.dataDir, 'app-view.json');
    await expect.poll(() => fs.readFile(kept, 'utf8').then((t) => JSON.parse(t) as unknown, () => null), { timeout: 5_000 }).toEqual({ editorShare: 48, splitLayout: 'stacked' });

    // The next start (another port): stacked, at 48%.
    const next = await startAppServer({ workspace: await openWorkspace(ws.root), webRoot: WEB_ROOT });
    const other = await page.context().newPage();
    try {
      await gotoApp(other, next);
      const otherBar = other.getByRole('separator', { name: 'Request editor height' });
      await expect.poll(() => otherBar.getAttribute('aria-valuenow')).toBe('48');
      expect(await other.getByRole('button', { name: 'Answer below the request' }).getAttribute('aria-pressed')).toBe('true');
    } finally {
      await other.close();
      await next.close();
    }
    expect(await fs.readdir(ws.root)).not.toContain('app-view.json');

    // Back beside, and a double click puts the even split back.
    await layout.click();
    bar = page.getByRole('separator', { name: 'Request editor width' });
    expect(await shown('width')).toEqual(['48', 48]);
    await bar.dblclick();
    expect(await shown('width')).toEqual(['50', 50]);
    await expect.poll(() => fs.readFile(kept, 'utf8').then((t) => JSON.parse(t) as unknown)).toEqual({ editorShare: 50, splitLayout: 'side-by-side' });
  });
});
