/**
 * `ferry app` in Chromium: a folder's settings (its context menu's Settings…) and the
 * workspace's (⚙ Workspace settings under the tree) edited with the request editor's parts;
 * `_folder.yaml` and `ferry.yaml` checked on disk, and `ferry run` (bin/ferry.js, its own
 * process) of a request inside sending the folder's auth and headers to a real server. Closing
 * with edits asks first; a file changed on disk meanwhile is taken, or, with edits, shows the
 * conflict bar. A request set to inherit says which auth it gets and opens those settings. Get token
 * in a folder's settings fetches the token of the auth it holds, which a run of a request inside uses.
 * Rename… in the same menu offers the folder's display name.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { AppServer } from '../../src/app/server/index.js';
import { ARTIFACTS, browserMissing, closeAppPage, drawn, holdRequest, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { listenLoopback } from '../support/servers/listen.js';
import { startAuthServer, type AuthServer } from './token-servers.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const BIN = path.resolve(import.meta.dirname, '../../bin/ferry.js');

/** A server that keeps the headers of every request it gets. */
function startRecorder(): Promise<{ base: string; seen: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const seen: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    seen.push(req.headers);
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, seen, close }));
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: folder and workspace settings', () => {
  let ws: TempWorkspace;
  let recorder: Awaited<ReturnType<typeof startRecorder>>;
  let auth: AuthServer;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  const asked: string[] = [];
  /** The prompts the page showed (dismissed), with the value each offered. */
  const prompts: Array<{ message: string; value: string }> = [];
  let confirmAnswer = true;

  /** `ferry` as shipped, in its own process, on the test's workspace and data folder. */
  const shipped = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [BIN, '-w', ws.root, ...args], { env: { ...process.env, FERRY_DATA_DIR: ws.dataDir, NO_COLOR: '1' }, timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });

  beforeAll(async () => {
    recorder = await startRecorder();
    auth = await startAuthServer();
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Users/_folder.yaml': '# the team folder\nname: Users\n',
      'requests/Users/Who.yaml': { name: 'Who', url: '{{base}}/who' },
      'requests/Team- Blue/_folder.yaml': { name: 'Team: Blue' },
      'requests/Shop/_folder.yaml': '# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n',
      'requests/Shop/List items.yaml': { name: 'List items', url: '{{base}}/items', openapi: { operation: 'GET /items' } },
      'specs/shop.yaml': 'openapi: 3.0.3\ninfo: {title: Shop, version: "1"}\npaths:\n  /items:\n    get:\n      responses:\n        \'200\': {description: ok, content: {application/json: {schema: {type: array}}}}\n',
      'requests/Broken/_folder.yaml': 'name: Broken\nheaders: [unclosed\n',
      'requests/Broken/Inside.yaml': { name: 'Inside', url: '{{base}}/inside' },
      'requests/Vault/_folder.yaml': {
        name: 'Vault',
        auth: { type: 'oauth2', grantType: 'password', tokenUrl: '{{authBase}}/token', clientId: 'app', username: 'ada', password: 'pw-1', authUrl: 'https://id.example/authorize', pkce: false },
      },
    }, { workspace: { variables: [{ key: 'base', value: recorder.base }, { key: 'authBase', value: auth.url }] }, stepTimeoutMs: 30_000, onDialog: (d) => {
      asked.push(d.message());
      if (d.type() === 'prompt') return void d.dismiss().then(() => prompts.push({ message: d.message(), value: d.defaultValue() }));
      void (d.type() === 'confirm' && !confirmAnswer ? d.dismiss() : d.accept());
    } }));
    await page.getByRole('treeitem', { name: /Users/ }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await recorder?.close();
    await auth?.close();
  });

  it("edits a folder's auth and headers: _folder.yaml holds them, and ferry run of a request inside sends them", async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => dialog.locator('h3').textContent()).toBe('Folder settings: Users requests/Users/_folder.yaml');
    await dialog.getByLabel('Auth type').selectOption('bearer');
    await dialog.getByLabel('Auth Token').fill('folder-token-1');
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await dialog.getByLabel('Header key 1').fill('X-Team');
    await dialog.getByLabel('Header value 1').fill('blue');
    // Esc with edits asks first; saying no keeps the dialog and what was typed.
    confirmAnswer = false;
    await page.keyboard.press('Escape');
    await expect.poll(() => asked.at(-1)).toBe('Discard your changes to these settings? (Cancel, then Save to keep them.)');
    expect(await dialog.getByLabel('Header value 1').inputValue()).toBe('blue');
    confirmAnswer = true;
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-folder-settings.png') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    const file = await fs.readFile(path.join(ws.root, 'requests/Users/_folder.yaml'), 'utf8');
    expect(file.startsWith('# the team folder\nname: Users\n')).toBe(true);
    expect(parse(file)).toEqual({ name: 'Users', auth: { type: 'bearer', token: 'folder-token-1' }, headers: [{ key: 'X-Team', value: 'blue' }] });

    const run = await shipped(['run', 'Users/Who.yaml']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(recorder.seen.at(-1)).toMatchObject({ authorization: 'Bearer folder-token-1', 'x-team': 'blue' });
  }, 90_000);

  it("a request set to inherit says which auth it gets and whose, and opens those settings; a change there shows at once", async () => {
    await page.getByRole('treeitem', { name: /Users/ }).click();
    await page.getByRole('treeitem', { name: /Who/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Who');
    await page.getByRole('tab', { name: 'Auth' }).click();
    const line = page.getByTestId('inherited-auth');
    await expect.poll(() => line.textContent()).toBe('Uses the nearest folder\'s auth, else the workspace\'s: now bearer, from folder “Users”. Folder settings…');
    await line.getByRole('button', { name: 'Folder settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => dialog.getByLabel('Auth type').inputValue()).toBe('bearer');
    await dialog.getByLabel('Auth type').selectOption('inherit');
    await dialog.getByLabel('Auth type').press('Control+s'); // the dialog's Save, not the request's
    await expect.poll(() => dialog.count()).toBe(0);
    // Nothing between: the workspace's (none by default).
    await expect.poll(() => line.textContent(), { timeout: 10_000 }).toBe('Uses the nearest folder\'s auth, else the workspace\'s: now none, from the workspace. Workspace settings…');
    // Back as it was for the next steps.
    await line.getByRole('button', { name: 'Workspace settings…' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Workspace settings' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    await fs.writeFile(path.join(ws.root, 'requests/Users/_folder.yaml'), '# the team folder\nname: Users\nauth:\n  type: bearer\n  token: folder-token-1\nheaders:\n  - key: X-Team\n    value: blue\n');
    await expect.poll(() => line.textContent(), { timeout: 10_000 }).toContain('now bearer, from folder “Users”');
  });

  it('edits the workspace settings from the sidebar; files changed on disk meanwhile are taken, or, with edits, show the conflict, and Keep mine saves over it', async () => {
    await page.getByRole('button', { name: '⚙ Workspace settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Workspace settings' });
    await expect.poll(() => dialog.locator('h3').textContent()).toBe('Workspace settings: Run tests ferry.yaml');
    // The workspace has nothing above it to inherit from.
    expect(await dialog.getByLabel('Auth type').locator('option').allTextContents()).toEqual(['none', 'basic', 'bearer', 'apiKey', 'oauth2']);
    const ferryYaml = path.join(ws.root, 'ferry.yaml');
    const original = await fs.readFile(ferryYaml, 'utf8');
    // No edits yet: a change on disk is taken at once.
    await fs.writeFile(ferryYaml, `${original}docs: written by git\n`);
    await dialog.getByRole('tab', { name: 'Docs' }).click();
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Docs' }).inputValue(), { timeout: 10_000 }).toBe('written by git');
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await dialog.getByLabel('Header key 1').fill('X-Workspace');
    await dialog.getByLabel('Header value 1').fill('ws-1');
    // With edits: the conflict, nothing written.
    await fs.writeFile(ferryYaml, `${original}docs: written by git again\n`);
    const conflict = dialog.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => conflict.getByRole('alert').textContent(), { timeout: 10_000 }).toBe('These settings changed on disk while you were editing them.');
    expect(await fs.readFile(ferryYaml, 'utf8')).not.toContain('X-Workspace');
    await conflict.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const saved = parse(await fs.readFile(ferryYaml, 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ version: 1, name: 'Run tests', variables: [{ key: 'base', value: recorder.base }, { key: 'authBase', value: auth.url }], headers: [{ key: 'X-Workspace', value: 'ws-1' }], docs: 'written by git' });

    const run = await shipped(['run', 'Users/Who.yaml']);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(recorder.seen.at(-1)).toMatchObject({ authorization: 'Bearer folder-token-1', 'x-team': 'blue', 'x-workspace': 'ws-1' });
  }, 90_000);

  it("Rename… offers the folder's display name (from _folder.yaml), not its directory's name", async () => {
    await page.getByRole('treeitem', { name: /Team: Blue/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Rename…' }).click();
    await expect.poll(() => prompts.at(-1)).toEqual({ message: 'New folder name', value: 'Team: Blue' });
    // Dismissed: nothing renamed.
    expect(parse(await fs.readFile(path.join(ws.root, 'requests/Team- Blue/_folder.yaml'), 'utf8'))).toEqual({ name: 'Team: Blue' });
  });

  it('a _folder.yaml that does not parse: the dialog says why, then opens the settings once the file is fixed on disk', async () => {
    await page.getByRole('treeitem', { name: /Broken/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => dialog.getByRole('alert').textContent()).toMatch(/^requests\/Broken\/_folder\.yaml:\d+:\d+: YAML syntax error: .*Fix requests\/Broken\/_folder\.yaml first/);
    expect(await dialog.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await fs.writeFile(path.join(ws.root, 'requests/Broken/_folder.yaml'), 'name: Broken\nheaders:\n  - key: X-Fixed\n    value: "1"\n');
    await expect.poll(() => dialog.getByRole('alert').count(), { timeout: 10_000 }).toBe(0);
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await expect.poll(() => dialog.getByLabel('Header key 1').inputValue()).toBe('X-Fixed');
    // OAuth 2.0 here: Get token fetches the token of the auth as the dialog holds it (not saved yet),
    // cached where the requests inside that inherit it look (their first send uses it).
    await dialog.getByRole('tab', { name: 'Auth' }).click();
    await dialog.getByLabel('Auth type').selectOption('oauth2');
    expect(await dialog.getByText(/^The token is fetched on Send/).textContent()).toBe('The token is fetched on Send (or with Get token) and cached on this computer, never in the workspace.');
    await dialog.getByLabel('Auth Token URL').fill('{{authBase}}/token');
    await dialog.getByLabel('Auth Client ID').fill('app');
    await dialog.getByLabel('Auth Client secret').fill('shh');
    await dialog.getByRole('button', { name: 'Get token' }).click();
    await expect.poll(() => dialog.getByTestId('token-status').textContent(), { timeout: 10_000 }).toMatch(/^Token obtained \(auth of folder Broken\), expires in (59 min|1 h): … \(7 characters\)$/);
    expect(auth.grants.client_credentials).toBe(1);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const run = await shipped(['run', 'Broken/Inside.yaml']);
    expect(run.code, run.stderr).toBe(0);
    expect(recorder.seen.at(-1)).toMatchObject({ authorization: 'Bearer token-1', 'x-fixed': '1' });
    expect(auth.grants.client_credentials).toBe(1);
  });

  it("a folder imported from a document has the tab API spec with the switch Check responses against the spec (7.1); other folders have no such tab", async () => {
    // The tabs' names, without the count a tab shows after its name (Headers 1).
    const tabs = async (dialog: ReturnType<Page['getByRole']>) => (await dialog.getByRole('tab').allTextContents()).map((t) => t.replace(/ \d+$/, ''));
    await page.getByRole('treeitem', { name: /Users/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    let dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => tabs(dialog)).toEqual(['Auth', 'Headers', 'Scripts', 'Docs']);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);

    // Checked: ferry run of a request inside fails on the check (the recorder answers an object, the spec an array).
    const checked = await shipped(['run', 'Shop/List items.yaml']);
    expect(checked.code, checked.stdout).toBe(1);
    expect(checked.stdout).toContain('Matches the API spec (GET /items -> 200)');

    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => tabs(dialog)).toEqual(['Auth', 'Headers', 'Scripts', 'Docs', 'API spec']);
    await dialog.getByRole('tab', { name: 'API spec' }).click();
    const toggle = dialog.getByRole('switch', { name: 'Check responses against the spec' });
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect.poll(() => dialog.getByTestId('settings-openapi').textContent()).toContain('kept as specs/shop.yaml');
    await toggle.uncheck();
    await expect.poll(() => dialog.getByTestId('settings-openapi').textContent()).toContain('The document stays linked, and Update from API spec keeps working.');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-folder-settings-api-spec.png') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await fs.readFile(path.join(ws.root, 'requests/Shop/_folder.yaml'), 'utf8')).toBe('# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n  validate: false\n');
    const off = await shipped(['run', 'Shop/List items.yaml']);
    expect(off.code, off.stdout).toBe(0);
    expect(off.stdout).not.toContain('Matches the API spec');

    // Opened again, the switch shows the file's value; flipping it back and closing asks first.
    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    await dialog.getByRole('tab', { name: 'API spec' }).click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await toggle.check();
    confirmAnswer = false;
    await page.keyboard.press('Escape');
    await expect.poll(() => asked.at(-1)).toBe('Discard your changes to these settings? (Cancel, then Save to keep them.)');
    confirmAnswer = true;
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await fs.readFile(path.join(ws.root, 'requests/Shop/_folder.yaml'), 'utf8')).toBe('# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n');

    // Switched off on disk (git, an editor) while the dialog is open and the switch untouched: it follows.
    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    await dialog.getByRole('tab', { name: 'API spec' }).click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await fs.writeFile(path.join(ws.root, 'requests/Shop/_folder.yaml'), '# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n  validate: false\n');
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(false);
    const before = asked.length;
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(asked.length).toBe(before);

    // With a header typed and the switch untouched, the switch still follows the file; the
    // settings on disk are those the dialog read, so no conflict bar, and the header stays.
    await page.getByRole('treeitem', { name: /Shop/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    await dialog.getByRole('tab', { name: 'API spec' }).click();
    await expect.poll(() => toggle.isChecked()).toBe(false);
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await dialog.getByLabel('Header key 1').fill('X-Shop');
    await fs.writeFile(path.join(ws.root, 'requests/Shop/_folder.yaml'), '# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n');
    await dialog.getByRole('tab', { name: 'API spec' }).click();
    await expect.poll(() => toggle.isChecked(), { timeout: 10_000 }).toBe(true);
    expect(await dialog.getByRole('group', { name: 'Changed on disk' }).count()).toBe(0);
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    expect(await dialog.getByLabel('Header key 1').inputValue()).toBe('X-Shop');
    // The header is an edit: Esc asks (confirmed here), and nothing is written.
    await page.keyboard.press('Escape');
    await expect.poll(() => asked.length).toBe(before + 1);
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await fs.readFile(path.join(ws.root, 'requests/Shop/_folder.yaml'), 'utf8')).toBe('# imported\nname: Shop\nopenapi:\n  spec: specs/shop.yaml\n');
  }, 90_000);

  it('the command palette opens the workspace settings too; Esc without edits closes without asking', async () => {
    const before = asked.length;
    await page.locator('body').press('Control+k');
    await page.keyboard.type('workspace settings');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Workspace settings' });
    await expect.poll(() => dialog.locator('h3').textContent()).toBe('Workspace settings: Run tests ferry.yaml');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(asked.length).toBe(before);
  });

  it('OAuth 2.0 shows only the chosen grant\'s fields; the hidden ones keep their values in the saved file, and switching the auth type away and back brings them back', async () => {
    await page.getByRole('treeitem', { name: /Vault/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await dialog.getByRole('tab', { name: 'Auth' }).click();
    /** The auth form's fields, by their accessible names, as shown. */
    const shown = () => dialog.locator('.auth-editor .form-grid :is(input, select)').evaluateAll((all) =>
      all.map((e) => e.getAttribute('aria-label') ?? e.closest('label')?.textContent?.trim() ?? ''));
    const common = ['Auth Token URL', 'Auth Client ID', 'Auth Client secret', 'Auth Scope', 'Auth Audience', 'Auth Client authentication', 'Auth Header prefix'];
    await expect.poll(() => dialog.getByLabel('Auth Grant type').inputValue()).toBe('password');
    expect(await shown()).toEqual(['Auth Grant type', ...common.slice(0, 5), 'Auth Username', 'Auth Password', ...common.slice(5)]);
    expect(await dialog.getByLabel('Auth Username').inputValue()).toBe('ada');
    expect(await dialog.getByTestId('auth-kept-fields').textContent()).toBe('Kept in the file for another grant, not used by password: authUrl.');

    await dialog.getByLabel('Auth Grant type').selectOption('authorizationCode');
    await expect.poll(shown).toEqual(['Auth Grant type', 'Auth Token URL', 'Auth Authorization URL', 'Auth Redirect URI', ...common.slice(1), 'PKCE (S256)']);
    await expect.poll(() => dialog.getByLabel('Auth Authorization URL').inputValue()).toBe('https://id.example/authorize');
    await expect.poll(() => dialog.getByLabel('PKCE (S256)').isChecked()).toBe(false);
    await expect.poll(() => dialog.getByTestId('auth-kept-fields').textContent()).toBe('Kept in the file for another grant, not used by authorizationCode: username, password.');

    await dialog.getByLabel('Auth Grant type').selectOption('clientCredentials');
    await expect.poll(shown).toEqual(['Auth Grant type', ...common]);
    await expect.poll(() => dialog.getByTestId('auth-kept-fields').textContent()).toBe('Kept in the file for another grant, not used by clientCredentials: authUrl, username, password.');
    // A slip of the type select (oauth2 → basic → oauth2) brings the OAuth 2.0 settings back, as in Postman.
    await dialog.getByLabel('Auth type').selectOption('basic');
    await expect.poll(() => dialog.getByLabel('Auth Username').inputValue()).toBe('');
    await dialog.getByLabel('Auth type').selectOption('oauth2');
    await expect.poll(() => dialog.getByLabel('Auth Grant type').inputValue()).toBe('clientCredentials');
    await expect.poll(() => dialog.getByLabel('Auth Client ID').inputValue()).toBe('app');
    await dialog.getByLabel('Auth Client ID').fill('app-2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const saved = parse(await fs.readFile(path.join(ws.root, 'requests/Vault/_folder.yaml'), 'utf8'));
    // clientCredentials is the default grant, which the file leaves out.
    expect(saved.auth).toEqual({ type: 'oauth2', tokenUrl: '{{authBase}}/token', clientId: 'app-2', username: 'ada', password: 'pw-1', authUrl: 'https://id.example/authorize', pkce: false });
  });

  it("a save refused because the file changed while it was on its way keeps its refusal on screen with the conflict bar (the read of that change does not replace it)", async () => {
    const file = path.join(ws.root, 'requests/Team- Blue/_folder.yaml');
    await page.getByRole('treeitem', { name: /Team: Blue/ }).click({ button: 'right' });
    await page.getByRole('menuitem', { name: 'Settings…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Folder settings' });
    await expect.poll(() => dialog.locator('h3').textContent()).toBe('Folder settings: Team: Blue requests/Team- Blue/_folder.yaml');
    await dialog.getByRole('tab', { name: 'Headers' }).click();
    await dialog.getByLabel('Header key 1').fill('X-Mine');
    await dialog.getByLabel('Header value 1').fill('1');
    // The save leaves the page; git changes the file before it arrives, and the watcher reports it meanwhile.
    const held = await holdRequest(page, /\/api\/folder\/settings$/, 'PUT');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await held.sent;
    await fs.writeFile(file, 'name: "Team: Blue"\ndocs: from git\n');
    // The read of that change, made once the save has answered (none while it is on its way).
    const reread = page.waitForResponse((r) => r.url().includes('/api/folder/settings?path=') && r.request().method() === 'GET', { timeout: 15_000 });
    held.release();
    await held.answered;
    await (await reread).finished();
    await drawn(page);
    const bar = dialog.getByRole('group', { name: 'Changed on disk' });
    await expect.poll(() => bar.count()).toBe(1);
    await expect.poll(() => dialog.getByRole('alert').allTextContents()).toEqual(['requests/Team- Blue/_folder.yaml changed on disk since the app read it; nothing was saved.']);
    expect(await fs.readFile(file, 'utf8')).toBe('name: "Team: Blue"\ndocs: from git\n');
    expect(await dialog.getByLabel('Header key 1').inputValue()).toBe('X-Mine');
    await bar.getByRole('button', { name: 'Keep mine (overwrite the file)' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(parse(await fs.readFile(file, 'utf8'))).toEqual({ name: 'Team: Blue', headers: [{ key: 'X-Mine', value: '1' }] });
  });
});
