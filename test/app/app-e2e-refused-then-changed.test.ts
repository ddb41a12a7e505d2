/**
 * `ferry app` in Chromium: a save refused for what it holds (400: an empty name, a key given twice,
 * a slip in a server's YAML, a negative weight) is on screen, then the file changes on disk (git,
 * an editor). What was typed is still an edit: it stays, with its refusal, and the conflict bar
 * says in its own words that the file changed (only a refusal for the conflict itself, a 409, says
 * that instead). Take the file's version drops the edit and its refusal; Keep mine saves the edit
 * over the file's version, refused again for what it holds until it is fixed, then written with
 * no conflict. The request editor took the file's version over the refused edit without a word
 * (its "Not saved" notice left on screen, and opening another request still asked about an edit
 * that was gone); the variables dialogs, the server editor and the load-test panel hid the bar's
 * words whenever any error showed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { browserMissing, closeAppPage, openWorkspacePage, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const SMOKE = 'name: Smoke\ntargets:\n  - request: Plain.yaml\n    weight: 1\nstages:\n  - { durationSecs: 6, target: 2 }\n';
const CHAT = 'name: Chat\nkind: websocket\nwebsocket:\n  mode: manual\n';

describe.skipIf(missing !== undefined)('ferry app in Chromium: a save refused for what it holds, then the file changed on disk', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let log: PageLog;
  /** The page's questions (window.confirm), each answered OK. */
  const asked: string[] = [];
  const file = (p: string) => path.join(ws.root, p);

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Plain.yaml': { name: 'Plain', seq: 1, url: 'http://127.0.0.1:9/plain' },
      'requests/Refused.yaml': { name: 'Refused', seq: 2, url: 'http://127.0.0.1:9/a' },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'one' }] },
      'servers/chat.yaml': CHAT,
      'loadtests/smoke.yaml': SMOKE,
    }, { viewport: { width: 1400, height: 1000 }, log: true, onDialog: (d) => { asked.push(d.message()); void d.accept(); } }));
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  it('the request editor: the refused edit stays with its notice and the bar; Take the file\'s version drops both, and opening another request asks nothing', async () => {
    await page.getByRole('treeitem', { name: /Refused/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Refused');
    await page.getByLabel('Request name').fill('');
    await page.getByLabel('URL').fill('http://127.0.0.1:9/typed');
    const refusal = page.getByRole('alert').filter({ hasText: 'Not saved: A name cannot be empty' });
    await expect.poll(() => refusal.count()).toBe(1);
    const from = log.mark();
    const outside = 'name: Refused\nseq: 2\nurl: http://127.0.0.1:9/from-git\n';
    await fs.writeFile(file('requests/Refused.yaml'), outside);
    await log.changeTaken('requests/Refused.yaml', /\/api\/request\?path=Refused\.yaml$/, from);
    const bar = page.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.textContent()).toContain('This request changed on disk while you were editing it.');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/typed');
    expect(await page.getByLabel('Request name').inputValue()).toBe('');
    expect(await refusal.count()).toBe(1);
    expect(await fs.readFile(file('requests/Refused.yaml'), 'utf8')).toBe(outside);

    await bar.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:9/from-git');
    expect(await page.getByLabel('Request name').inputValue()).toBe('Refused');
    await expect.poll(() => refusal.count()).toBe(0);
    expect(await bar.count()).toBe(0);
    // The refused edit is gone: leaving the request has nothing to ask about.
    asked.length = 0;
    await page.getByRole('treeitem', { name: /Plain/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Plain');
    expect(asked).toEqual([]);
    expect(await fs.readFile(file('requests/Refused.yaml'), 'utf8')).toBe(outside);
  });

  it('the environment dialog: the refusal stays beside the bar\'s own words; Keep mine is refused again for the key given twice, then, fixed, written over the file\'s version', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog', { name: 'Environment' });
    await expect.poll(() => dialog.getByLabel('Value 1', { exact: true }).inputValue()).toBe('one');
    await dialog.getByLabel('Value 1', { exact: true }).fill('mine');
    await dialog.getByLabel('Variable 2', { exact: true }).fill('who');
    await dialog.getByLabel('Value 2', { exact: true }).fill('twice');
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = dialog.getByRole('alert').filter({ hasText: 'is also the key of' });
    await expect.poll(() => refusal.textContent()).toContain('"who" is also the key of variables[0], and both are enabled');
    const from = log.mark();
    await fs.writeFile(file('environments/local.yaml'), 'name: Local\nvariables:\n  - key: who\n    value: from git\n');
    await log.changeTaken('environments/local.yaml', /\/api\/environment\/variables\?id=local$/, from);
    const bar = dialog.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.textContent()).toContain('These variables changed on disk while you were editing them.');
    expect(await refusal.textContent()).toContain('"who" is also the key of variables[0], and both are enabled');
    expect(await dialog.getByLabel('Value 1', { exact: true }).inputValue()).toBe('mine');
    expect(await dialog.getByLabel('Value 2', { exact: true }).inputValue()).toBe('twice');

    await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    // Refused again for what it holds (not for the change, now its base): the file is as git left it.
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(() => refusal.textContent()).toContain('"who" is also the key of variables[0], and both are enabled');
    expect(parse(await fs.readFile(file('environments/local.yaml'), 'utf8'))).toEqual({ name: 'Local', variables: [{ key: 'who', value: 'from git' }] });
    await dialog.getByRole('button', { name: 'Remove who' }).nth(1).click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(parse(await fs.readFile(file('environments/local.yaml'), 'utf8'))).toEqual({ name: 'Local', variables: [{ key: 'who', value: 'mine' }] });
  });

  it('the server editor: the refusal at its line stays beside the bar\'s own words; Take the file\'s version drops both', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.getByLabel('Servers', { exact: true }).getByRole('button', { name: 'Edit Chat' }).click();
    const editor = page.getByRole('dialog', { name: 'Server editor' });
    const yaml = editor.getByLabel('websocket section (YAML)');
    await expect.poll(() => yaml.textContent()).toContain('mode: manual');
    await yaml.click();
    await page.keyboard.press('ControlOrMeta+a');
    await page.keyboard.insertText('mode: sometimes\n');
    await editor.getByRole('button', { name: 'Save' }).click();
    const refusal = editor.getByTestId('server-edit-error');
    await expect.poll(() => refusal.textContent()).toContain('websocket.mode: expected one of');
    const from = log.mark();
    const outside = `${CHAT}  greeting: from git\n`;
    await fs.writeFile(file('servers/chat.yaml'), outside);
    await log.changeTaken('servers/chat.yaml', /\/api\/server\?id=chat$/, from);
    const bar = editor.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.textContent()).toContain('servers/chat.yaml changed on disk while you were editing it.');
    expect(await refusal.textContent()).toContain('websocket.mode: expected one of');
    expect(await yaml.textContent()).toContain('mode: sometimes');

    await bar.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => yaml.textContent()).toContain('greeting: from git');
    await expect.poll(() => refusal.count()).toBe(0);
    expect(await bar.count()).toBe(0);
    // Nothing typed is left: it closes without asking.
    asked.length = 0;
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    expect(asked).toEqual([]);
    expect(await fs.readFile(file('servers/chat.yaml'), 'utf8')).toBe(outside);
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
  });

  it('the load-test panel: the refusal of the field stays beside the bar\'s own words; Keep mine is refused again, then, fixed, written over the file\'s version', async () => {
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    const panel = page.getByRole('region', { name: 'Load tests' });
    await panel.getByRole('listitem').filter({ hasText: 'Smoke' }).click();
    await expect.poll(() => panel.getByLabel('Load test name').inputValue()).toBe('Smoke');
    await panel.getByLabel('Target 1 weight').fill('-1');
    await panel.getByLabel('Stage 1 target').fill('4');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = panel.getByRole('alert').filter({ hasText: 'targets[0].weight: must be 0 or more' });
    await expect.poll(() => refusal.count()).toBe(1);
    const from = log.mark();
    const outside = SMOKE.replace('target: 2', 'target: 9');
    await fs.writeFile(file('loadtests/smoke.yaml'), outside);
    await log.changeTaken('loadtests/smoke.yaml', /\/api\/loadtest\?id=smoke$/, from);
    const bar = panel.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.textContent()).toContain('loadtests/smoke.yaml changed on disk while you were editing it.');
    expect(await refusal.count()).toBe(1);
    expect(await panel.getByLabel('Target 1 weight').inputValue()).toBe('-1');
    expect(await panel.getByLabel('Stage 1 target').inputValue()).toBe('4');

    await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(() => refusal.count()).toBe(1);
    expect(await fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toBe(outside);
    await panel.getByLabel('Target 1 weight').fill('2');
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toBe(SMOKE.replace('weight: 1', 'weight: 2').replace('target: 2', 'target: 4'));
    await expect.poll(() => panel.textContent()).not.toContain('unsaved changes');
    expect(await panel.getByRole('alert').count()).toBe(0);
  });

  it('the load-test panel: a refusal for the conflict (409) stands in for the bar\'s words; another error in its place (a result file that does not read) gives them back', async () => {
    const panel = page.getByRole('region', { name: 'Load tests' });
    await expect.poll(() => panel.getByLabel('Load test name').inputValue()).toBe('Smoke');
    const before = await fs.readFile(file('loadtests/smoke.yaml'), 'utf8');
    await panel.getByLabel('Stage 1 target').fill('5');
    const from = log.mark();
    const outside = before.replace(/weight: \d+/, 'weight: 6');
    await fs.writeFile(file('loadtests/smoke.yaml'), outside);
    await log.changeTaken('loadtests/smoke.yaml', /\/api\/loadtest\?id=smoke$/, from);
    const bar = panel.getByRole('group', { name: 'Changed on disk' });
    const barWords = 'loadtests/smoke.yaml changed on disk while you were editing it.';
    await expect.poll(() => bar.textContent()).toContain(barWords);
    await panel.getByRole('button', { name: 'Save', exact: true }).click();
    const refusal = panel.getByRole('alert').filter({ hasText: 'loadtests/smoke.yaml changed on disk since the app read it; nothing was saved.' });
    await expect.poll(() => refusal.count()).toBe(1);
    await expect.poll(() => bar.textContent()).not.toContain(barWords);
    await panel.getByLabel('Open result file').setInputFiles({ name: 'notes.json', mimeType: 'application/json', buffer: Buffer.from('{"hello": 1}') });
    await expect.poll(() => panel.getByRole('alert').filter({ hasText: 'notes.json: is not a Ferry load result' }).count()).toBe(1);
    // The 409's words are gone from the screen: the bar says why it is there again.
    await expect.poll(() => bar.textContent()).toContain(barWords);
    expect(await refusal.count()).toBe(0);
    expect(await panel.getByLabel('Stage 1 target').inputValue()).toBe('5');
    await bar.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => bar.count()).toBe(0);
    await expect.poll(() => panel.getByLabel('Target 1 weight').inputValue()).toBe('6');
    expect(await fs.readFile(file('loadtests/smoke.yaml'), 'utf8')).toBe(outside);
  });
});
