/**
 * `ferry app` in Chromium: the environment dialog reading its file again. A first read that
 * failed (the workspace refused while ferry.yaml was a newer Ferry's) said so and offered an
 * empty table to type into; once the file reads, the error went on showing beside the variables.
 * A save refused for the conflict (409, its refusal standing in for the bar's words) with nothing
 * typed, then another change read: the dialog took the file's newest version, but the bar (with
 * the older version it offered) and the refusal stayed. Real files, the real app, no mocked answer:
 * a read is only held back from the page.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { until } from './api-client.js';
import { browserMissing, closeAppPage, holdRequest, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const READ = /\/api\/environment\/variables\?id=local$/;
const local = (who: string) => `name: Local\nvariables:\n  - key: who\n    value: ${who}\n`;

describe.skipIf(missing !== undefined)('ferry app in Chromium: the environment dialog reading its file again', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  const file = (p: string) => path.join(ws.root, p);
  const dialog = () => page.getByRole('dialog', { name: 'Environment' });
  const value = () => dialog().getByLabel('Value 1').inputValue();

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({ 'requests/Plain.yaml': { name: 'Plain', url: 'http://127.0.0.1:9/' }, 'environments/local.yaml': local('one') }, { log: true }));
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
    // The pick shows at once and is saved by a POST: each test reloads the page, which must find it saved.
    await until('the picked environment saved', async () => (await page.evaluate(async () => (await (await fetch('/api/workspace')).json()).activeEnvironment)) === 'local');
  }, 120_000);

  // Each test on a fresh page: one that failed leaves no dialog open for the next.
  beforeEach(async () => {
    await page.reload();
    await page.getByRole('button', { name: 'Edit environment' }).waitFor();
  });

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('a first read that failed: nothing to type into meanwhile, and once the file reads its error is gone and the variables show', async () => {
    const original = await fs.readFile(file('ferry.yaml'), 'utf8');
    await fs.writeFile(file('ferry.yaml'), 'version: 2\nid: from-the-future\nname: Next\n');
    // Put back whatever happens: the next test needs the workspace.
    onTestFinished(() => fs.writeFile(file('ferry.yaml'), original));
    // Refused once the app has read it (the watcher's report, or a call's own look).
    await expect.poll(() => page.evaluate(async () => (await fetch('/api/workspace')).status)).toBe(409);
    await page.getByRole('button', { name: 'Edit environment' }).click();
    const refusal = dialog().getByRole('alert').filter({ hasText: 'created by a newer version of Ferry' });
    await expect.poll(() => refusal.count()).toBe(1);
    // Nothing read: no table, no name, no Save to put typing over the file with.
    expect(await dialog().getByLabel('Value 1').count()).toBe(0);
    expect(await dialog().getByRole('button', { name: 'Save' }).count()).toBe(0);

    const from = log.mark();
    await fs.writeFile(file('ferry.yaml'), original);
    await log.changeTaken('ferry.yaml', READ, from);
    await expect.poll(value).toBe('one');
    await expect.poll(() => refusal.count()).toBe(0);
    expect(await dialog().getByLabel('Environment name').inputValue()).toBe('Local');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
  });

  it('a save refused for the conflict with nothing typed, then another change read: the newest version shows, the bar and the refusal go', async () => {
    // local.yaml is still as beforeAll wrote it ('one'): written again here, its watcher report and
    // read could come late enough to be the read held below, and Save go before 'two' was seen.
    await page.getByRole('button', { name: 'Edit environment' }).click();
    await expect.poll(value).toBe('one');

    // The change's read is held from the page: Save goes on the version the dialog read.
    const held = await holdRequest(page, READ, 'GET');
    await fs.writeFile(file('environments/local.yaml'), local('two'));
    await held.sent;
    await dialog().getByRole('button', { name: 'Save' }).click();
    const refusal = dialog().getByRole('alert').filter({ hasText: 'environments/local.yaml changed on disk since the app read it; nothing was saved.' });
    await expect.poll(() => refusal.count()).toBe(1);
    const bar = dialog().getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.count()).toBe(1);
    // The refusal says it: the bar has no words of its own.
    expect(await bar.textContent()).not.toContain('changed on disk while you were editing them');
    held.release();
    await held.answered;

    const from = log.mark();
    await fs.writeFile(file('environments/local.yaml'), local('three'));
    await log.changeTaken('environments/local.yaml', READ, from);
    await expect.poll(value).toBe('three');
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(() => refusal.count()).toBe(0);
    expect(await fs.readFile(file('environments/local.yaml'), 'utf8')).toBe(local('three'));
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog().count()).toBe(0);
  });
});
