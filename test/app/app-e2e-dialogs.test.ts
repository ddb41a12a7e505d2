/**
 * `ferry app` in Chromium, the dialogs of issue 19's last steps: the command palette (keyboard
 * only), importing a Postman collection and an OpenAPI document through the import dialog (files
 * checked on disk), updating the imported folder from a new version of its document with a
 * conflict (your edit kept), and the history of this computer's sends with a past answer opened.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page, Request, Route, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { AppServer } from '../../src/app/server/index.js';

import { ARTIFACTS, browserMissing, closeAppPage, drawn, gotoApp, holdRequest, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { listenLoopback } from '../support/servers/listen.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const CORPUS = path.resolve(import.meta.dirname, '../fixtures/corpus');

function startEcho(): Promise<{ base: string; hits(): number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    res.setHeader('content-type', 'application/json');
    if (req.url === '/health') res.setHeader('set-cookie', 'hc=ok-1; Path=/; HttpOnly');
    res.end(JSON.stringify({ method: req.method, url: req.url, answer: 'from-echo', token: req.headers['x-token'] ?? null }));
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, hits: () => hits, close }));
}

async function files(dir: string): Promise<string[]> {
  return ((await fs.readdir(dir, { recursive: true })) as string[]).map((f) => f.split(path.sep).join('/')).sort();
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: palette, imports, update from API spec, history', () => {
  let ws: TempWorkspace;
  let echo: Awaited<ReturnType<typeof startEcho>>;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let scratch: string;
  /** Dialogs the page shows, and how a confirm is answered (accepted unless a step says otherwise). */
  const dialogs: string[] = [];
  let confirmAnswer = true;
  const req = (p: string) => path.join(ws.root, 'requests', p);

  beforeAll(async () => {
    echo = await startEcho();
    scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-app-dialogs-'));
    ({ ws, app, browser, page } = await openWorkspacePage({
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'who', value: 'local' }] },
      'environments/staging.yaml': { name: 'Staging', variables: [{ key: 'who', value: 'staging' }] },
      'requests/Users/Get user.yaml': { name: 'Get user', url: '{{base}}/users/42' },
      'requests/Users/List users.yaml': { name: 'List users', url: '{{base}}/users' },
      'requests/Health.yaml': { name: 'Health', url: '{{base}}/health' },
      'requests/Imports/_folder.yaml': { name: 'Imports' },
    }, { workspace: { variables: [{ key: 'base', value: echo.base }] }, viewport: { width: 1400, height: 860 }, stepTimeoutMs: 30_000, onDialog: (d) => {
      dialogs.push(d.message());
      void (d.type() === 'confirm' && !confirmAnswer ? d.dismiss() : d.accept());
    } }));
    await page.getByRole('treeitem', { name: /Users/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await echo?.close();
    if (scratch) await fs.rm(scratch, { recursive: true, force: true });
  });

  const palette = () => page.getByRole('dialog', { name: 'Command palette' });

  it('opens a request from the command palette by a fuzzy name, with the keyboard only', async () => {
    await page.locator('body').press('Control+k');
    await expect.poll(() => palette().count()).toBe(1);
    await page.keyboard.type('usgu'); // Users / Get user
    await expect.poll(() => palette().getByRole('option').first().textContent()).toContain('Get user');
    // The letters of the best alignment are marked in the name: "us" is in the folder path (not shown), "G" and "u" in "Get user".
    await expect.poll(() => palette().getByRole('option').first().locator('mark').allTextContents()).toEqual(['G', 'u']);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-palette-light.png') });
    await page.keyboard.press('Enter');
    await expect.poll(() => palette().count()).toBe(0);
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Get user');
  });

  it('a request whose name holds " / " is found in the palette by its full name, shown with its own folder', async () => {
    // `Users / Admin` in folder api, and `Admin` in folder api/Users: the same "api / Users / Admin" to search.
    await ws.write('requests/api/Users - Admin.yaml', { name: 'Users / Admin', url: '{{base}}/admin' });
    await ws.write('requests/api/Users/Admin.yaml', { name: 'Admin', url: '{{base}}/users/admin' });
    try {
      await page.getByRole('treeitem', { name: /^api/ }).waitFor();
      const options = () => palette().getByRole('option');
      for (const [query, first, marks, detail] of [['Users / Admin', 'Users / Admin', ['Users', '/', 'Admin'], /api$/], ['admin', 'Admin', ['Admin'], /api \/ Users$/]] as const) {
        await page.locator('body').press('Control+k');
        await expect.poll(() => palette().count()).toBe(1);
        await page.keyboard.type(query);
        await expect.poll(() => options().first().locator('.palette-label').textContent()).toBe(first);
        await expect.poll(() => options().first().locator('mark').allTextContents()).toEqual(marks);
        await expect.poll(() => options().first().locator('.palette-detail').textContent()).toMatch(detail);
        await page.keyboard.press('Escape');
        await expect.poll(() => palette().count()).toBe(0);
      }
    } finally {
      await fs.rm(req('api'), { recursive: true, force: true });
      await page.getByRole('treeitem', { name: /^api/ }).waitFor({ state: 'detached' });
    }
  });

  it('works the request tree with the keyboard: Tab reaches the open request, arrows move and fold, Enter opens, Shift+F10 the menu', async () => {
    const focused = () => page.evaluate(() => [document.activeElement?.getAttribute('role'), document.activeElement?.getAttribute('data-path')].join(' '));
    await page.getByLabel('Filter requests').focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('Tab'); // past New request and New folder
    // Each key's move is drawn after its event: polled.
    await expect.poll(focused).toBe('treeitem Users/Get user.yaml');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(focused).toBe('treeitem Users');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => page.getByRole('treeitem', { name: /Users/ }).getAttribute('aria-expanded')).toBe('false');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    const focusedPath = () => page.evaluate(() => document.activeElement?.getAttribute('data-path') ?? '');
    await expect.poll(focusedPath).toMatch(/^Users\/.+\.yaml$/);
    const child = await focusedPath();
    await page.keyboard.press('ArrowDown');
    await expect.poll(focusedPath).not.toBe(child);
    const next = await focusedPath();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('treeitem', { selected: true }).getAttribute('data-path')).toBe(next);
    await page.keyboard.press('Shift+F10');
    await expect.poll(focused).toBe('menuitem ');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Copy as code…');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('code').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('code').count()).toBe(0);
  });

  it('switches the environment and opens dialogs from the palette; arrows move, Escape closes', async () => {
    await page.keyboard.press('Control+k');
    await page.keyboard.type('env stag');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Environment', { exact: true }).inputValue()).toBe('staging');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('zzzz-nothing');
    await expect.poll(() => palette().textContent()).toContain('Nothing matches');
    await page.keyboard.press('Escape');
    await expect.poll(() => palette().count()).toBe(0);

    await page.keyboard.press('Control+k');
    await page.keyboard.type('users');
    const second = (await palette().getByRole('option').nth(1).textContent()) ?? '';
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => palette().getByRole('option', { selected: true }).textContent()).toBe(second);
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await page.keyboard.type('cookies');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('dialog', { name: 'Cookies' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Cookies' }).count()).toBe(0);
  });

  it('imports a Postman collection into a folder from its menu: previewed, then written in its folders', async () => {
    const collection = await fs.readFile(path.join(CORPUS, 'postman/v20-multi-level-folders.postman_collection.json'), 'utf8');
    await page.getByRole('treeitem', { name: /Imports/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Import into folder…' }).click();
    await expect.poll(() => page.getByLabel('Import into').inputValue()).toBe('Imports');
    await page.getByLabel('Import text').fill(collection);
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('multi-level-folders-v2');
    const previewText = (await page.getByTestId('import-preview').textContent()) ?? '';
    expect(previewText).toContain('6 requests');
    expect(await files(req('Imports'))).not.toContain('multi-level-folders-v2');
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByTestId('import-done').textContent()).toContain('6 requests');
    await page.getByRole('button', { name: 'Done' }).click();
    const written = (await files(req('Imports/multi-level-folders-v2'))).filter((f) => f.endsWith('.yaml'));
    expect(written).toEqual(expect.arrayContaining(['F1/F1.R1.yaml', 'F1/F1.R2.yaml', 'F1/F1.R3.yaml', 'F2/F2.F3/F2.F3.R1.yaml', 'F2/F2.R1.yaml', 'R1.yaml']));
    expect(await fs.readFile(req('Imports/multi-level-folders-v2/F2/F2.F3/F2.F3.R1.yaml'), 'utf8')).toMatch(/name: F2\.F3\.R1/);
    if ((await page.getByRole('treeitem', { name: /Imports/ }).getAttribute('aria-expanded')) !== 'true') await page.getByRole('treeitem', { name: /Imports/ }).click();
    await expect.poll(() => page.getByRole('treeitem', { name: /multi-level-folders-v2/ }).count()).toBe(1);
  });

  it('imports an OpenAPI document chosen as a file: requests, the environment and the kept document written', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'File', exact: true }).click();
    await page.getByLabel('Import file').setInputFiles(path.join(CORPUS, 'openapi/oas30-petstore.yaml'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('Swagger Petstore');
    expect(await page.getByTestId('import-preview').textContent()).toContain('3 requests');
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByTestId('import-done').textContent()).toContain('3 requests');
    await page.getByRole('button', { name: 'Done' }).click();
    const written = await files(req('Swagger Petstore'));
    expect(written).toEqual(expect.arrayContaining(['_folder.yaml', 'pets', 'pets/List all pets.yaml', 'pets/Create a pet.yaml', 'pets/Info for a specific pet.yaml']));
    expect(await fs.readFile(req('Swagger Petstore/_folder.yaml'), 'utf8')).toMatch(/openapi:\n\s+spec: specs\/Swagger Petstore\.yaml/);
    expect(await files(path.join(ws.root, 'specs'))).toEqual(['Swagger Petstore.yaml']);
    expect(await fs.readFile(path.join(ws.root, 'environments/Swagger Petstore.yaml'), 'utf8')).toContain('baseUrl');
  });

  it('imports an environment export saved as UTF-16 (with its byte order mark) chosen as a file, as ferry import does (it was refused as binary data)', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'File', exact: true }).click();
    await page.getByLabel('Import file').setInputFiles(path.join(CORPUS, 'environments/env-utf16le-crlf.postman_environment.json'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await expect.poll(() => page.getByTestId('import-preview').textContent()).toContain('Localhost REST API - QA_master_localhost');
    await page.getByRole('dialog').getByRole('button', { name: 'Import', exact: true }).click();
    await expect.poll(() => page.getByTestId('import-done').textContent()).toContain('1 environments');
    await page.getByRole('button', { name: 'Done' }).click();
    const written = await fs.readFile(path.join(ws.root, 'environments/Localhost REST API - QA_master_localhost.yaml'), 'utf8');
    expect(written).toContain('key: servicePortNumber');
    expect(written).toContain('value: "44393"');
  });

  it('updates the imported folder from a new version: the plan with the conflict first, then the files', async () => {
    // The user edits the docs of "List all pets"; the new version changes the same docs (a conflict:
    // the user's edit is kept), drops GET /pets/{petId} and adds DELETE /pets/{petId}.
    const listPets = req('Swagger Petstore/pets/List all pets.yaml');
    await fs.writeFile(listPets, `${(await fs.readFile(listPets, 'utf8')).replace(/\n?docs:.*(\n  .*)*/, '')}\ndocs: My own notes on listing pets.\n`);
    const v2 = parse(await fs.readFile(path.join(CORPUS, 'openapi/oas30-petstore.yaml'), 'utf8'));
    v2.paths['/pets'].get.description = 'Lists the pets, newest first.';
    v2.paths['/pets/{petId}'] = { delete: { summary: 'Delete a pet', operationId: 'deletePet', tags: ['pets'], parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'string' } }], responses: { 204: { description: 'deleted' } } } };
    const v2File = path.join(scratch, 'petstore-v2.yaml');
    await fs.writeFile(v2File, stringify(v2));
    const before = await files(ws.root);

    await page.getByRole('treeitem', { name: /Swagger Petstore/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Update from API spec…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update from API spec' });
    // Chosen from a browser, the first import recorded no source: the dialog says so and offers a file.
    await expect.poll(() => dialog.textContent()).toContain('does not record where its document came from');
    await dialog.getByLabel('Document file').setInputFiles(v2File);
    await dialog.getByRole('button', { name: 'Preview changes' }).click();
    const plan = dialog.getByTestId('update-plan');
    await expect.poll(() => plan.textContent()).toContain('Preview (nothing written yet)');
    const text = (await plan.textContent()) ?? '';
    expect(text).toMatch(/Added \(1\).*DELETE \/pets\/\{petId\}.*Delete a pet/s);
    expect(text).toMatch(/No longer in the spec \(kept, marked\) \(1\).*GET \/pets\/\{petId\}/s);
    expect(await plan.getByTestId('kept').first().textContent()).toContain('docs');
    expect(await files(ws.root)).toEqual(before); // the preview wrote nothing
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-update-light.png') });

    await dialog.getByRole('button', { name: 'Update', exact: true }).click();
    await expect.poll(() => plan.textContent()).toContain('Updated.');
    await dialog.getByRole('button', { name: 'Done' }).click();
    expect(await fs.readFile(listPets, 'utf8')).toContain('docs: My own notes on listing pets.');
    expect(await fs.readFile(req('Swagger Petstore/pets/Info for a specific pet.yaml'), 'utf8')).toMatch(/removed: true/);
    expect(await fs.readFile(req('Swagger Petstore/pets/Delete a pet.yaml'), 'utf8')).toMatch(/method: DELETE/);
    expect(await fs.readFile(path.join(ws.root, 'specs/Swagger Petstore.yaml'), 'utf8')).toContain('deletePet');
    // Crossed out in the sidebar, with the tooltip.
    await page.locator('[data-path="Swagger Petstore"]').click();
    await page.locator('[data-path="Swagger Petstore/pets"]').click();
    const removed = page.getByRole('treeitem', { name: /Info for a specific pet/ });
    await expect.poll(() => removed.getAttribute('class')).toContain('removed');
    expect(await removed.getAttribute('title')).toBe('No longer in the API spec');
  });

  it('the update preview says which new variable takes your value of a renamed one, and the source it records', async () => {
    // The user gave petId a value; the next version (served at a URL) renames /pets/{petId} to /pets/{petNo}.
    const envFile = path.join(ws.root, 'environments/Swagger Petstore.yaml');
    const env = parse(await fs.readFile(envFile, 'utf8'));
    env.variables = env.variables.map((v: { key: string; value?: string }) => (v.key === 'petId' ? { ...v, value: 'my-pet-7' } : v));
    await fs.writeFile(envFile, stringify(env));
    const v3 = parse(await fs.readFile(path.join(ws.root, 'specs/Swagger Petstore.yaml'), 'utf8'));
    const op = v3.paths['/pets/{petId}'];
    delete v3.paths['/pets/{petId}'];
    for (const p of Object.values(op) as { parameters?: { name: string }[] }[]) for (const param of p.parameters ?? []) if (param.name === 'petId') param.name = 'petNo';
    v3.paths['/pets/{petNo}'] = op;
    const served = http.createServer((_req, res) => res.end(stringify(v3)));
    await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(served.address() as AddressInfo).port}/petstore-v3.yaml`;
    try {
      await page.getByRole('treeitem', { name: /Swagger Petstore/ }).click({ button: 'right' });
      await page.getByRole('menuitem', { name: 'Update from API spec…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Update from API spec' });
      await dialog.getByRole('button', { name: 'URL', exact: true }).click();
      await dialog.getByLabel('Document URL').fill(url);
      await dialog.getByRole('button', { name: 'Preview changes' }).click();
      const plan = dialog.getByTestId('update-plan');
      await expect.poll(() => plan.textContent()).toContain('Preview (nothing written yet)');
      const text = (await plan.textContent()) ?? '';
      expect(text).toContain('+ petNo (your value of petId)');
      expect(await plan.getByTestId('update-source').textContent()).toContain(`The recorded source becomes ${url}`);
      await dialog.getByRole('button', { name: 'Update', exact: true }).click();
      await expect.poll(() => plan.textContent()).toContain('Updated.');
      await dialog.getByRole('button', { name: 'Done' }).click();
      expect(await fs.readFile(req('Swagger Petstore/_folder.yaml'), 'utf8')).toContain(`source: ${url}`);
      expect(parse(await fs.readFile(envFile, 'utf8')).variables).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'petNo', value: 'my-pet-7' })]));
    } finally {
      const left = page.getByRole('dialog', { name: 'Update from API spec' });
      if (await left.count()) await left.getByRole('button', { name: 'Close' }).click(); // a failure here must not block the next steps
      served.closeAllConnections();
      await new Promise<void>((resolve) => served.close(() => resolve()));
    }
  });

  it('edits the workspace variables: a secret goes to this computer, only its key to ferry.yaml', async () => {
    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => dialog.getByLabel('Variable 1').inputValue()).toBe('base');
    await dialog.getByLabel('Variable 2').fill('apiToken');
    await dialog.getByLabel('Secret 2').check();
    await dialog.getByLabel('Value 2', { exact: true }).fill('ws-secret-77');
    // Esc or a click beside the dialog would drop what was typed: it asks first, and Cancel keeps it.
    confirmAnswer = false;
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5); // the backdrop
    confirmAnswer = true;
    expect(dialogs.slice(-2)).toEqual(Array(2).fill('Discard your changes to these variables? (Cancel, then Save to keep them.)'));
    expect(await dialog.getByLabel('Variable 2').inputValue()).toBe('apiToken');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fs.readFile(path.join(ws.root, 'ferry.yaml'), 'utf8')).toContain('apiToken');
    const all = await Promise.all((await files(ws.root)).map((f) => fs.readFile(path.join(ws.root, f), 'utf8').catch(() => '')));
    expect(all.join('\n')).not.toContain('ws-secret-77');
    // Sends use it.
    await page.getByRole('treeitem', { name: /Health/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Health');
    await page.getByRole('tab', { name: /Headers/ }).click();
    await page.getByLabel('Header key 1').fill('X-Token');
    await page.getByLabel('Header value 1').fill('{{apiToken}}');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent().catch(() => ''), { timeout: 15_000 }).toContain('ws-secret-77');
  });

  it('a variables save over a ferry.yaml changed outside meanwhile shows the conflict; nothing is lost', async () => {
    const file = path.join(ws.root, 'ferry.yaml');
    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => dialog.getByLabel('Variable 1').inputValue()).toBe('base');
    // Another editor adds a variable while the dialog holds an edit (the app's copy is not yet reloaded).
    await dialog.getByLabel('Variable 3').fill('typedHere');
    await dialog.getByLabel('Value 3', { exact: true }).fill('mine');
    const data = parse(await fs.readFile(file, 'utf8')) as { variables: unknown[] };
    data.variables.push({ key: 'fromOutside', value: 'kept' });
    await fs.writeFile(file, stringify(data));
    const outside = await fs.readFile(file, 'utf8');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('ferry.yaml changed on disk since the app read it; nothing was saved.').isVisible()).toBe(true);
    expect(await fs.readFile(file, 'utf8')).toBe(outside);
    // The file's version into the editor, then the edit again: both are saved.
    await dialog.getByRole('button', { name: "Take the file's version" }).click();
    await expect.poll(() => dialog.getByLabel('Variable 3').inputValue()).toBe('fromOutside');
    await dialog.getByLabel('Variable 4').fill('typedHere');
    await dialog.getByLabel('Value 4', { exact: true }).fill('mine');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => fs.readFile(file, 'utf8')).toContain('typedHere');
    const saved = parse(await fs.readFile(file, 'utf8')) as { variables: Array<{ key: string }> };
    expect(saved.variables.map((v) => v.key)).toEqual(['base', 'apiToken', 'fromOutside', 'typedHere']);
  });

  it('a variables save over a ferry.yaml changed outside: Keep mine writes what the dialog holds over it', async () => {
    const file = path.join(ws.root, 'ferry.yaml');
    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => dialog.getByLabel('Variable 4').inputValue()).toBe('typedHere');
    await dialog.getByLabel('Value 4', { exact: true }).fill('mine again');
    const data = parse(await fs.readFile(file, 'utf8')) as { variables: Array<{ key: string }> };
    data.variables.push({ key: 'lostOnPurpose', value: 'x' } as { key: string });
    await fs.writeFile(file, stringify(data));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.getByText('ferry.yaml changed on disk since the app read it; nothing was saved.').isVisible()).toBe(true);
    await dialog.getByRole('group', { name: 'Changed on disk' }).getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    // Saved: the dialog closes, and the file holds the dialog's variables, not the one added outside.
    await expect.poll(() => dialog.count()).toBe(0);
    const saved = parse(await fs.readFile(file, 'utf8')) as { variables: Array<{ key: string; value: string }> };
    expect(saved.variables.map((v) => v.key)).toEqual(['base', 'apiToken', 'fromOutside', 'typedHere']);
    expect(saved.variables.at(-1)!.value).toBe('mine again');
  });

  it('shows the cookies an answer sets and saves its body to a file', async () => {
    const response = page.getByLabel('Response');
    await response.getByRole('tab', { name: /^Cookies/ }).click();
    await expect.poll(() => response.getByRole('table', { name: 'Response cookies' }).textContent()).toMatch(/hc.*ok-1.*HttpOnly/);
    await response.getByRole('tab', { name: /^Body/ }).click();
    const [download] = await Promise.all([page.waitForEvent('download'), response.getByRole('link', { name: 'Save to file' }).click()]);
    const saved = await fs.readFile((await download.path())!, 'utf8');
    expect(JSON.parse(saved)).toMatchObject({ url: '/health', answer: 'from-echo' });
  });

  it('the variables dialog: Ctrl+S saves what it edits; while it holds edits not saved, leaving the page asks first', async () => {
    const file = path.join(ws.root, 'ferry.yaml');
    // Whether leaving the page now would ask (the browser asks when a beforeunload listener cancels the event).
    const leavingAsks = () => page.evaluate(() => {
      const leaving = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(leaving);
      return leaving.defaultPrevented;
    });
    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => dialog.getByLabel('Variable 4').inputValue()).toBe('typedHere');
    expect(await leavingAsks()).toBe(false);
    await dialog.getByLabel('Variable 5').fill('fromKeys');
    await expect.poll(leavingAsks).toBe(true);
    await dialog.getByLabel('Variable 5').press('Control+s');
    await expect.poll(() => dialog.count()).toBe(0);
    const saved = parse(await fs.readFile(file, 'utf8')) as { variables: Array<{ key: string }> };
    expect(saved.variables.map((v) => v.key)).toEqual(['base', 'apiToken', 'fromOutside', 'typedHere', 'fromKeys']);
    await expect.poll(leavingAsks).toBe(false);
  });

  it('a dialog opened from the keyboard takes the focus, keeps Tab inside, and gives the focus back when closed', async () => {
    const opener = page.getByRole('button', { name: 'Workspace variables' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => dialog.getByLabel('Variable 1').inputValue()).toBe('base');
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    const inDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? null);
    await expect.poll(inDialog).toBe('Workspace variables');
    // More Tabs (either way) than the dialog has stops: the focus never leaves it.
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press(i < 25 ? 'Tab' : 'Shift+Tab');
      expect(await inDialog(), `after ${i + 1} Tab presses`).toBe('Workspace variables');
    }
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Workspace variables');
    // The same for another dialog, opened with the keyboard from the top bar.
    await page.getByRole('button', { name: 'Cookies' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => inDialog()).toBe('Cookies');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByRole('dialog', { name: 'Cookies' }).count()).toBe(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cookies');
  });

  it('every dialog is the one modal shell: modal, named, titled, the focus inside; Esc, × and a click beside it close it', async () => {
    const shells: Array<[button: string, dialog: string, title: RegExp]> = [
      ['Cookies', 'Cookies', /^Cookies$/],
      ['History', 'History', /^History$/],
      ['Import', 'Import', /^Import$/],
      ['Workspace variables', 'Workspace variables', /^Workspace variables of /],
      ['New environment', 'New environment', /^New environment$/],
    ];
    const inDialog = () => page.evaluate(() => document.activeElement?.closest('[role="dialog"]')?.getAttribute('aria-label') ?? null);
    for (const [button, name, title] of shells) {
      for (const how of ['Escape', '×', 'beside'] as const) {
        await page.getByRole('button', { name: button, exact: true }).click();
        const dialog = page.getByRole('dialog', { name });
        await expect.poll(() => dialog.locator('header h3').textContent(), { message: `${name}: its title` }).toMatch(title);
        expect(await dialog.getAttribute('aria-modal')).toBe('true');
        await expect.poll(() => inDialog(), { message: `${name}: the focus inside` }).toBe(name);
        if (how === 'Escape') await page.keyboard.press('Escape');
        else if (how === '×') await dialog.locator('header').getByRole('button', { name: 'Close' }).click();
        else await page.mouse.click(3, 3);
        await expect.poll(() => dialog.count(), { message: `${name} closed by ${how}` }).toBe(0);
      }
    }
  }, 60_000); // fifteen dialogs opened and closed: past 12 s on a loaded machine

  it('lists this computer\'s sends in History and opens a past send\'s answer', async () => {
    await page.getByRole('treeitem', { name: /Health/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Health');
    // Health's answer from a step before is still shown, so the status says nothing of this send:
    // its own answer from the server (given once its history line is written) is waited for.
    const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/send', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Send' }).click();
    await sent;
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 15_000 }).toContain('200');
    // A run's sends are in the history too, without their answers.
    await page.getByRole('treeitem', { name: /Users/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Run folder' }).click();
    await page.getByLabel('Runner').getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => page.getByTestId('run-summary').textContent(), { timeout: 20_000 }).toMatch(/2 requests/);

    await page.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    const rows = dialog.getByRole('table', { name: 'Sends' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    await dialog.getByLabel('Filter history').fill('/health');
    await expect.poll(() => rows.count()).toBe(2); // sent in the step before and in this one; newest first
    await rows.first().click();
    const result = dialog.getByTestId('history-result');
    await expect.poll(() => result.getByTestId('status').textContent({ timeout: 100 }).catch(() => ''), { timeout: 10_000 }).toContain('200');
    await expect.poll(() => result.getByTestId('response-body').textContent()).toContain('from-echo');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-history-light.png') });

    await dialog.getByRole('button', { name: '← All sends' }).click();
    await dialog.getByLabel('Filter history').fill('/users/42');
    await rows.first().click();
    await expect.poll(() => result.getByLabel('Send summary').textContent()).toMatch(/Status 200/);
    await dialog.getByRole('button', { name: 'Open the request' }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Get user');
    // Nothing of the history went into the workspace.
    expect((await files(ws.root)).filter((f) => /history|results/.test(f))).toEqual([]);
  });

  it("History: a past send's answer read late is not shown for the send picked after it", async () => {
    await page.getByRole('treeitem', { name: /Get user/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Get user');
    const sent = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/send', { timeout: 15_000 });
    await page.getByRole('button', { name: 'Send' }).click();
    await sent;
    await page.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    const rows = dialog.getByRole('table', { name: 'Sends' }).locator('tbody tr');
    const result = dialog.getByTestId('history-result');
    await dialog.getByLabel('Filter history').fill('/health');
    await expect.poll(() => rows.count()).toBe(2);
    // Health's kept answer is read (from the server) and held from the page while Get user's is picked.
    const held = await holdRequest(page, /\/api\/history\/result\?/, 'GET', { reachServer: true });
    await rows.first().click();
    await held.sent;
    try {
      await dialog.getByRole('button', { name: '← All sends' }).click();
      await dialog.getByLabel('Filter history').fill('/users/42');
      // Newest first: the send from the editor just now, its whole answer kept.
      await rows.first().click();
      await expect.poll(() => result.getByTestId('response-body').textContent()).toContain('/users/42');
    } finally {
      held.release();
    }
    try {
      await held.answered;
      await drawn(page);
      expect(await result.getByTestId('response-body').textContent()).toContain('/users/42');
      expect(await result.getByTestId('response-body').textContent()).not.toContain('/health');
    } finally {
      // Closed either way: the tests after it start from the page without a dialog.
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count()).toBe(0);
    }
  });

  it('Ctrl+Enter inside a dialog does not send the request behind it; closed, it sends again', async () => {
    await page.getByRole('treeitem', { name: /Health/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Health');
    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace variables' });
    await dialog.getByLabel('Variable 1').focus();
    const before = echo.hits();
    const sends: string[] = [];
    const sent = (r: Request) => void (new URL(r.url()).pathname === '/api/send' && sends.push(r.url()));
    page.on('request', sent);
    try {
      await page.keyboard.press('Control+Enter');
      // A send starts in the key's handler and leaves the page once what it awaits (an open or a
      // switch of request: none here) has settled, before the next frame: the page's own request,
      // not the echo server's count after some time, says whether one left.
      await drawn(page);
      expect(sends).toEqual([]);
    } finally {
      await page.keyboard.press('Escape'); // closed even when the step fails, so the next steps can run
    }
    await expect.poll(() => dialog.count()).toBe(0);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/send', { timeout: 15_000 });
    await page.keyboard.press('Control+Enter');
    await answered;
    page.off('request', sent);
    expect(sends).toHaveLength(1);
    expect(echo.hits()).toBe(before + 1);
  });

  it('asks before deleting a request or a folder by the names the tree shows, saying which file or directory goes', async () => {
    confirmAnswer = false;
    await page.getByRole('treeitem', { name: /Health/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('treeitem', { name: /Users/ }).first().click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    expect(dialogs.slice(-2)).toEqual([
      'Delete request "Health"? Its file requests/Health.yaml is removed.',
      'Delete folder "Users" and everything in it? Its directory requests/Users/ is removed.',
    ]);
    await fs.access(req('Health.yaml'));
    await fs.access(req('Users/Get user.yaml'));
    confirmAnswer = true;
  });

  it('asks before the import dialog drops pasted text: Esc and a click beside it keep it when declined', async () => {
    confirmAnswer = false;
    // Pasted text survives Esc and a click beside the dialog when the user cancels; × then discards it.
    await page.getByRole('button', { name: 'Import' }).click();
    const importDialog = page.getByRole('dialog', { name: 'Import' });
    await page.getByLabel('Import text').fill('curl https://example.com/pasted');
    await page.keyboard.press('Escape');
    await page.mouse.click(5, 5); // the backdrop
    expect(dialogs.slice(-2)).toEqual(Array(2).fill('Discard what you entered to import? (Cancel to keep it.)'));
    expect(await page.getByLabel('Import text').inputValue()).toBe('curl https://example.com/pasted');
    confirmAnswer = true;
    await importDialog.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => importDialog.count()).toBe(0);
  });

  it('shows why a Duplicate was refused', async () => {
    // A refused duplicate (here: the workspace busy) says why, as other actions do.
    await page.route('**/api/request', (route) => (route.request().method() === 'POST'
      ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ error: 'The workspace is busy: another Ferry is writing it.' }) })
      : route.continue()));
    await page.getByRole('treeitem', { name: /Health/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Duplicate' }).click();
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'The workspace is busy' }).count()).toBe(1);
    await page.unroute('**/api/request');
    expect(await files(ws.root)).not.toContain('requests/Health copy.yaml');
  });

  it('an environment picked while a read of the workspace from before the pick is on its way: the read does not put the previous one back, and ✎ opens the one picked', async () => {
    // A tab of its own: what it holds back stays in it.
    const tab = await page.context().newPage();
    try {
      await gotoApp(tab, app);
      const picker = tab.getByLabel('Environment', { exact: true });
      await picker.selectOption('local');
      await expect.poll(() => tab.evaluate(async () => (await (await fetch('/api/workspace')).json()).activeEnvironment)).toBe('local');
      // The tree's reads are answered by the server at once (with Local) and held back from the
      // page until the switch has reached the server; the switch's answer is held until ✎ was clicked.
      let gate!: () => void;
      const open = new Promise<void>((resolve) => (gate = resolve));
      let readsWithFile = 0;
      await tab.route((url) => url.pathname === '/api/workspace', async (route) => {
        const answer = await route.fetch();
        if ((await answer.text()).includes('Pick.yaml')) readsWithFile++;
        await open;
        await route.fulfill({ response: answer });
      });
      let release!: () => void;
      const switched = new Promise<void>((resolve) => (release = resolve));
      let switchedOnServer = false;
      await tab.route((url) => url.pathname === '/api/environment', async (route) => {
        const answer = await route.fetch();
        switchedOnServer = true;
        await switched;
        await route.fulfill({ response: answer });
      });
      try {
        await fs.writeFile(req('Pick.yaml'), 'name: Pick\nurl: http://127.0.0.1:1/\n');
        await expect.poll(() => readsWithFile).toBeGreaterThan(0); // the file change's read, answered with Local
        await picker.selectOption('staging');
        await expect.poll(() => switchedOnServer).toBe(true);
        gate();
        await tab.getByRole('treeitem', { name: /Pick/ }).waitFor(); // the tab took the older read
        expect(await picker.inputValue()).toBe('staging');
        await tab.getByLabel('Edit environment').click();
        await expect.poll(() => tab.getByRole('dialog').getByLabel('Environment name').inputValue()).toBe('Staging');
      } finally {
        gate();
        release();
      }
      await tab.keyboard.press('Escape');
      await expect.poll(() => tab.getByRole('dialog').count()).toBe(0);
      expect(await picker.inputValue()).toBe('staging');
    } finally {
      await tab.close();
      await fs.rm(req('Pick.yaml'), { force: true });
    }
    await page.getByRole('treeitem', { name: /Pick/ }).waitFor({ state: 'detached' });
  });

  it('an environment file changed on disk while its dialog is open: taken at once without edits, the bar at once with them', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('local');
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Local');
    const file = path.join(ws.root, 'environments', 'local.yaml');
    await fs.writeFile(file, 'name: Local\nvariables:\n  - key: who\n    value: from disk\n');
    await expect.poll(() => dialog.getByLabel('Value 1', { exact: true }).inputValue()).toBe('from disk');
    await dialog.getByLabel('Value 1', { exact: true }).fill('mine');
    await fs.writeFile(file, 'name: Local\nvariables:\n  - key: who\n    value: again\n');
    await expect.poll(() => dialog.getByRole('group', { name: 'Changed on disk' }).textContent()).toContain('These variables changed on disk while you were editing them.');
    expect(await dialog.getByLabel('Value 1', { exact: true }).inputValue()).toBe('mine');
    await dialog.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(parse(await fs.readFile(file, 'utf8'))).toEqual({ name: 'Local', variables: [{ key: 'who', value: 'mine' }] });
  });

  it('the environment dialog\'s Cancel asks before dropping edits, as Esc and × do: declined, the edit stays; accepted, the file is unchanged; without edits it closes at once', async () => {
    const file = path.join(ws.root, 'environments', 'qa.yaml');
    const text = 'name: QA\nvariables:\n  - key: who\n    value: qa # as written by hand\n';
    await fs.writeFile(file, text);
    await expect.poll(() => page.getByLabel('Environment', { exact: true }).locator('option[value="qa"]').count()).toBe(1);
    await page.getByLabel('Environment', { exact: true }).selectOption('qa');
    const dialog = page.getByRole('dialog', { name: 'Environment', exact: true });
    const value = dialog.getByLabel('Value 1', { exact: true });
    const asked = dialogs.length;
    // Nothing typed: Cancel closes without a question.
    await page.getByLabel('Edit environment').click();
    await expect.poll(() => value.inputValue()).toBe('qa');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(dialogs.length).toBe(asked);

    await page.getByLabel('Edit environment').click();
    await expect.poll(() => value.inputValue()).toBe('qa');
    await value.fill('edited');
    confirmAnswer = false;
    try {
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialogs.slice(asked)).toEqual(['Discard your changes to these variables? (Cancel, then Save to keep them.)']);
      await page.keyboard.press('Escape');
      await dialog.locator('header').getByRole('button', { name: 'Close' }).click();
      await expect.poll(() => dialogs.slice(asked)).toEqual(Array(3).fill('Discard your changes to these variables? (Cancel, then Save to keep them.)'));
    } finally {
      confirmAnswer = true;
    }
    // Kept editing: the dialog and the edit are still there (the Cancel below needs the dialog open).
    expect(await dialog.count()).toBe(1);
    expect(await value.inputValue()).toBe('edited');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(dialogs.slice(asked)).toEqual(Array(4).fill('Discard your changes to these variables? (Cancel, then Save to keep them.)'));
    expect(await fs.readFile(file, 'utf8')).toBe(text);
    // Opened again, it shows the file's value: the edit was dropped, not kept somewhere.
    await page.getByLabel('Edit environment').click();
    await expect.poll(() => value.inputValue()).toBe('qa');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(dialogs.length).toBe(asked + 4);
  });

  it('an environment renamed in another tab while its dialog holds edits: Save writes them to it, under its new name', async () => {
    await page.getByLabel('Environment', { exact: true }).selectOption('staging');
    await page.getByLabel('Edit environment').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByLabel('Environment name').inputValue()).toBe('Staging');
    await dialog.getByLabel('Value 1', { exact: true }).fill('edited');
    // The other tab renames it as its dialog does: the variables saved with a new name.
    const renamed = await page.evaluate(async () => {
      const read = await (await fetch('/api/environment/variables?id=staging')).json();
      const body = { id: 'staging', name: 'Staging EU', variables: read.variables, base: read.variables, mark: read.mark };
      return (await fetch('/api/environment/variables', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;
    });
    expect(renamed).toBe(200);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    expect(parse(await fs.readFile(path.join(ws.root, 'environments', 'Staging EU.yaml'), 'utf8'))).toEqual({ name: 'Staging EU', variables: [{ key: 'who', value: 'edited' }] });
    expect(await fs.access(path.join(ws.root, 'environments', 'staging.yaml')).then(() => 'there', () => 'gone')).toBe('gone');
  });

  it('a request renamed or moved in another tab: this tab follows it there, with an edit whose save was under way', async () => {
    await fs.writeFile(req('Twice.yaml'), 'name: Twice\nurl: http://127.0.0.1:1/a\n');
    const other = await page.context().newPage();
    try {
      await gotoApp(other, app);
      for (const tab of [page, other]) {
        await tab.getByRole('treeitem', { name: /Twice/ }).click();
        await expect.poll(() => tab.getByLabel('Request name').inputValue()).toBe('Twice');
      }
      // Renamed in the other tab: this one follows, and says nothing of a deleted file.
      await other.getByLabel('Request name').fill('Twice renamed');
      await expect.poll(() => fs.access(req('Twice renamed.yaml')).then(() => true, () => false), { timeout: 10_000 }).toBe(true);
      await expect.poll(() => page.getByLabel('Request name').inputValue(), { timeout: 10_000 }).toBe('Twice renamed');
      expect(await page.getByTestId('unsaved-bar').count()).toBe(0);
      // This tab's edit reaches the server only after the other tab moved the request into Users: it is saved there.
      let held: Route | undefined;
      await page.route('**/api/request', async (route) => {
        if (route.request().method() === 'PUT' && !held) held = route;
        else await route.continue();
      });
      await page.getByLabel('URL').fill('http://127.0.0.1:1/edited');
      await expect.poll(() => held !== undefined, { timeout: 10_000 }).toBe(true);
      const moved = await other.evaluate(async () => (await fetch('/api/request/move', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'Twice renamed.yaml', folder: 'Users' }) })).status);
      expect(moved).toBe(200);
      await held!.continue();
      await expect.poll(() => fs.readFile(req('Users/Twice renamed.yaml'), 'utf8').catch(() => ''), { timeout: 10_000 }).toContain('/edited');
      await page.unroute('**/api/request');
      expect(parse(await fs.readFile(req('Users/Twice renamed.yaml'), 'utf8'))).toEqual({ name: 'Twice renamed', url: 'http://127.0.0.1:1/edited' });
      expect(await page.getByTestId('unsaved-bar').count()).toBe(0);
      expect(await fs.readdir(path.join(ws.root, 'requests'))).not.toContain('Twice renamed.yaml');
      expect(await fs.readdir(path.join(ws.root, 'requests'))).not.toContain('Twice.yaml');
    } finally {
      await other.close();
    }
  }, 60_000);

  it('a page whose live channel joins after a change was said (its tree read before): told so on joining, it reads the tree again and shows the new file', async () => {
    const other = await page.context().newPage();
    // The other page's channel is held until the change has been said to this page.
    let held: WebSocketRoute | undefined;
    await other.routeWebSocket(/\/api\/live/, (route) => {
      held = route;
    });
    try {
      await gotoApp(other, app);
      await other.getByRole('treeitem', { name: /Health/ }).waitFor({ timeout: 10_000 });
      await expect.poll(() => held !== undefined).toBe(true);
      await fs.writeFile(req('Late.yaml'), 'name: Late\nurl: http://127.0.0.1:1/late\n');
      // Said: this page, joined all along, shows it; the other one's read was before it.
      await page.getByRole('treeitem', { name: /Late/ }).waitFor({ timeout: 10_000 });
      expect(await other.getByRole('treeitem', { name: /Late/ }).count()).toBe(0);
      held!.connectToServer();
      await other.getByRole('treeitem', { name: /Late/ }).waitFor({ timeout: 10_000 });
    } finally {
      await other.close();
      await fs.rm(req('Late.yaml'), { force: true });
    }
  });

  it('an edit whose save was refused for what it holds (an empty name) is not dropped by opening another request: it asks first', async () => {
    await fs.writeFile(req('Refused.yaml'), 'name: Refused\nurl: http://127.0.0.1:1/a\n');
    await fs.writeFile(req('Elsewhere.yaml'), 'name: Elsewhere\nurl: http://127.0.0.1:1/b\n');
    await page.getByRole('treeitem', { name: /Elsewhere/ }).waitFor({ timeout: 10_000 });
    await page.getByRole('treeitem', { name: /Refused/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Refused');
    await page.getByLabel('Request name').fill('');
    await page.getByLabel('URL').fill('http://127.0.0.1:1/typed');
    await expect.poll(() => page.getByRole('alert').filter({ hasText: 'Not saved: A name cannot be empty' }).count()).toBe(1);
    dialogs.length = 0;
    confirmAnswer = false;
    try {
      await page.getByRole('treeitem', { name: /Elsewhere/ }).click();
      await expect.poll(() => dialogs.length).toBe(1);
    } finally {
      confirmAnswer = true;
    }
    expect(dialogs[0]).toBe('Your edit of Refused.yaml is not saved: A name cannot be empty; give a name of 1 to 200 characters. Discard it and open Elsewhere.yaml? (Cancel keeps it: fix it, and it is saved as you type.)');
    expect(await page.getByLabel('URL').inputValue()).toBe('http://127.0.0.1:1/typed');
    await page.getByLabel('Request name').fill('Refused');
    await expect.poll(() => fs.readFile(req('Refused.yaml'), 'utf8')).toContain('/typed');
    // Saved now: opening another request asks nothing.
    await page.getByRole('treeitem', { name: /Elsewhere/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Elsewhere');
    expect(dialogs).toHaveLength(1);
  }, 60_000);
});
