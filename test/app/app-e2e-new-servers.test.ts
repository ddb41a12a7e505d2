/**
 * `ferry app` in Chromium, new servers made with + Server (spec 2.11): each gets its kind's app
 * port unless a server file of the workspace already asks for it, then the next port none asks
 * for; the list, the editor and the files on disk say the same. Nothing is started (the ports
 * are fixed ones others may use).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { browserMissing, closeAppPage, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

describe.skipIf(missing !== undefined)('ferry app in Chromium: new servers', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The names the next + Server prompts are answered with. */
  const names: string[] = [];

  beforeAll(async () => {
    ({ ws, app, browser, page } = await openWorkspacePage({ 'servers/existing.yaml': { name: 'Existing', port: 3000 } }, { onDialog: (d) => void d.accept(names.shift()) }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('two HTTP mock servers made in the app after one in the file: 3001 and 3002, in the list, the editor and the files', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    const panel = page.getByLabel('Servers', { exact: true });
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    await expect.poll(() => panel.getByLabel('New server kind').locator('option').count()).toBeGreaterThan(1);
    await panel.getByLabel('New server kind').selectOption('http');
    for (const [name, port] of [['Mock two', 3001], ['Mock three', 3002]] as const) {
      names.push(name);
      await panel.getByRole('button', { name: '+ Server' }).click();
      await expect.poll(() => editor.getByLabel('Server name').inputValue()).toBe(name);
      expect(await editor.getByLabel('Server port').inputValue()).toBe(String(port));
      await page.keyboard.press('Escape');
      await expect.poll(() => editor.count()).toBe(0);
      await expect.poll(() => panel.locator(`tr[data-server="${name}"]`).textContent()).toContain(`127.0.0.1:${port}`);
      expect(await fs.readFile(path.join(ws.root, `servers/${name}.yaml`), 'utf8')).toBe(`name: ${name}\nport: ${port}\n`);
    }
    expect(await panel.locator('tr[data-server="existing"]').textContent()).toContain('127.0.0.1:3000');
  });
});
