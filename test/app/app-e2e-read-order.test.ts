/**
 * `ferry app` in Chromium: an editor's read of its file again (a file of the workspace changed on
 * disk) that answers late is not put back over newer news of the file. The editors took any read
 * whose file was still the open one, so a read asked before a Save and answered after it showed the
 * file as it was before the save (a saved edit undone on screen, the file holding it), and of two
 * reads asked for changes in a row, the older answering last showed the file before the latest
 * change (the request editor too); the load-test list, read again on each change, listed a load
 * test deleted since, and of two load tests picked in a row the first could open. Each first read
 * is held here between the real server and the page until the newer news is shown; once it has
 * reached the page and been drawn, the newer news must still be shown.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, drawn, holdRequest, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const SMOKE = 'name: Smoke\ntargets:\n  - request: Plain.yaml\n    weight: 1\nstages:\n  - { durationSecs: 6, target: 2 }\n';

describe.skipIf(missing !== undefined)('ferry app in Chromium: late reads of an open file', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  const file = (p: string) => path.join(ws.root, p);
  const panel = () => page.getByRole('region', { name: 'Load tests' });

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'loadtests/smoke.yaml': SMOKE,
    }, { viewport: { width: 1400, height: 1000 }, log: true }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('a read asked before Save and answered after it does not put the file as it was before the save back', async () => {
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    await panel().getByRole('listitem').filter({ hasText: 'Smoke' }).click();
    await expect.poll(() => panel().getByLabel('Load test name').inputValue()).toBe('Smoke');
    const heading = panel().locator('summary');
    // Another file changing makes the editor read its own again: that read reaches the server (the
    // load test as it is, weight 1) and its answer is held from the page.
    const held = await holdRequest(page, /\/api\/loadtest\?id=/, 'GET', { reachServer: true });
    await fs.writeFile(file('loadtests/other.yaml'), SMOKE.replace('Smoke', 'Other'));
    await held.sent;
    const from = log.mark();
    try {
      await panel().getByLabel('Target 1 weight').fill('4');
      await panel().getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(() => fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toContain('weight: 4');
      await expect.poll(() => heading.textContent()).toBe('Smoke loadtests/smoke.yaml');
      // The save's own write, reported by the watcher, and the read it made (none while the save
      // was on its way) taken: the held answer comes last.
      await log.changeTaken('loadtests/smoke.yaml', /\/api\/loadtest\?id=/, from);
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    expect(await panel().getByLabel('Target 1 weight').inputValue()).toBe('4');
    expect(await heading.textContent()).toBe('Smoke loadtests/smoke.yaml');
    expect(await fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toContain('weight: 4');
    await fs.rm(file('loadtests/other.yaml'));
    await expect.poll(() => panel().getByRole('listitem').filter({ hasText: 'Other' }).count()).toBe(0);
  });

  it('of two reads for changes on disk in a row, the older answering last does not put back the file before the latest change', async () => {
    const before = await fs.readFile(file('loadtests/smoke.yaml'), 'utf8');
    const weight = panel().getByLabel('Target 1 weight');
    const shownBefore = await weight.inputValue();
    const held = await holdRequest(page, /\/api\/loadtest\?id=/, 'GET', { reachServer: true });
    await fs.writeFile(file('loadtests/other.yaml'), SMOKE.replace('Smoke', 'Other'));
    await held.sent;
    try {
      // Changed on disk after the held read had it: the next read shows it.
      await fs.writeFile(file('loadtests/smoke.yaml'), before.replace(/weight: \d+/, 'weight: 6'));
      await expect.poll(() => weight.inputValue()).toBe('6');
    } finally {
      held.release();
    }
    expect(shownBefore).not.toBe('6');
    await held.answered;
    await drawn(page);
    expect(await weight.inputValue()).toBe('6');
    expect(await panel().locator('summary').textContent()).toBe('Smoke loadtests/smoke.yaml');
    await fs.rm(file('loadtests/other.yaml'));
    await expect.poll(() => panel().getByRole('listitem').filter({ hasText: 'Other' }).count()).toBe(0);
  });

  it('the load-test list: an older read answering last does not list again a load test deleted since', async () => {
    const gone = () => panel().getByRole('listitem').filter({ hasText: 'Gone' }).count();
    await fs.writeFile(file('loadtests/gone.yaml'), SMOKE.replace('Smoke', 'Gone'));
    await expect.poll(gone).toBe(1);
    // Another file added makes the panel read the list again: that read (Gone listed) is held.
    const held = await holdRequest(page, /\/api\/loadtests$/, 'GET', { reachServer: true });
    await fs.writeFile(file('loadtests/other.yaml'), SMOKE.replace('Smoke', 'Other'));
    await held.sent;
    try {
      await fs.rm(file('loadtests/gone.yaml'));
      await expect.poll(gone).toBe(0);
      await expect.poll(() => panel().getByRole('listitem').filter({ hasText: 'Other' }).count()).toBe(1);
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    expect(await gone()).toBe(0);
    await fs.rm(file('loadtests/other.yaml'));
    await expect.poll(() => panel().getByRole('listitem').filter({ hasText: 'Other' }).count()).toBe(0);
  });

  it('the request editor: of two reads for changes of its file in a row, the older answering last does not put back the file before the latest change', async () => {
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    const url = page.getByLabel('URL');
    await expect.poll(() => url.inputValue()).toBe('http://127.0.0.1:9/plain');
    const text = await fs.readFile(file('requests/Plain.yaml'), 'utf8');
    const held = await holdRequest(page, /\/api\/request\?path=Plain\.yaml$/, 'GET', { reachServer: true });
    await fs.writeFile(file('requests/Plain.yaml'), text.replace('/plain', '/two'));
    await held.sent;
    try {
      await fs.writeFile(file('requests/Plain.yaml'), text.replace('/plain', '/three'));
      await expect.poll(() => url.inputValue()).toBe('http://127.0.0.1:9/three');
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    expect(await url.inputValue()).toBe('http://127.0.0.1:9/three');
    expect(await fs.readFile(file('requests/Plain.yaml'), 'utf8')).toContain('/three');
  });

  it('load tests: of two picked in a row, the first answering last is not the one opened', async () => {
    // Still open from the tests above; run alone (-t), opened here.
    if ((await panel().count()) === 0) await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    await fs.writeFile(file('loadtests/second.yaml'), SMOKE.replace('Smoke', 'Second'));
    const item = (name: string) => panel().getByRole('listitem').filter({ hasText: name });
    await expect.poll(() => item('Second').count()).toBe(1);
    // Second open first: a click on the load test already open reads nothing (Smoke is, after the tests above).
    await item('Second').click();
    await expect.poll(() => panel().getByLabel('Load test name').inputValue()).toBe('Second');
    const held = await holdRequest(page, /\/api\/loadtest\?id=smoke$/, 'GET', { reachServer: true });
    await item('Smoke').click();
    await held.sent;
    try {
      await item('Second').click();
      await expect.poll(() => panel().getByLabel('Load test name').inputValue()).toBe('Second');
    } finally {
      held.release();
    }
    await held.answered;
    await drawn(page);
    expect(await panel().getByLabel('Load test name').inputValue()).toBe('Second');
    expect(await panel().locator('summary').textContent()).toBe('Second loadtests/second.yaml');
    await fs.rm(file('loadtests/second.yaml'));
    await expect.poll(() => item('Second').count()).toBe(0);
  });
});
