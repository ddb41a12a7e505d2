/**
 * `ferry app` in Chromium, the Copy as code dialog (spec 4.7): one entry per language and its
 * search, the library or shell choice above the code, the choice remembered (and a remembered
 * one that no longer exists falling back), highlighted code in a read-only CodeMirror view, Copy
 * and keyboard copy giving exactly the code `ferry export` gives, and a 1 MB body kept usable.
 */
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { exportSavedRequest } from '../../src/codegen/export-saved.js';
import { openWorkspace } from '../../src/workspace/index.js';

import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage, type PageLog } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { defineContrast, lowContrast } from '../support/contrast.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const SPEC_ORDER = ['cURL', 'HTTPie', 'Wget', 'PowerShell', 'JavaScript', 'Python', 'Go', 'Java', 'Kotlin', 'Swift', 'C#', 'PHP', 'Ruby', 'Rust', 'Dart', 'C'];
/** About 1 MB of JSON over 20,000 lines: cURL for bash keeps its line breaks, so the code has as many lines. */
const BIG = JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ n: i, text: 'x'.repeat(30) })), null, 0).replace(/\},/g, '},\n');

describe.skipIf(missing !== undefined)('ferry app in Chromium: Copy as code', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The page's log from before its first load: which script chunks (editors, modes) it has fetched. */
  let log: PageLog;

  beforeAll(async () => {
    ({ ws, app, browser, page, log } = await openWorkspacePage({
      'requests/Create.yaml': { name: 'Create', seq: 1, method: 'POST', url: 'http://127.0.0.1:9/things?x=1', headers: [{ key: 'X-Team', value: 'blue' }], body: { type: 'json', text: '{"name": "Ada"}' } },
      'requests/Big.yaml': { name: 'Big', seq: 2, method: 'POST', url: 'http://127.0.0.1:9/big', body: { type: 'json', text: BIG } },
    }, { stepTimeoutMs: 20_000, context: { permissions: ['clipboard-read', 'clipboard-write'] }, log: true }));
    await page.getByRole('treeitem', { name: /Create$/ }).click();
  }, 120_000);

  afterAll(() => closeAppPage({ browser, app, ws }));

  const dialog = () => page.getByRole('dialog', { name: 'Copy as code' });
  const search = () => dialog().getByRole('combobox', { name: 'Search languages' });
  const options = () => dialog().getByRole('listbox', { name: 'Languages' }).getByRole('option').allTextContents();
  const selected = () => dialog().getByRole('option', { selected: true }).textContent();
  /** The code's lines as the view shows them (short code: all of it is drawn). */
  const shown = () => dialog().getByTestId('code').locator('.cm-content').innerText();
  const open = async () => {
    await page.getByRole('button', { name: 'Copy as code' }).click();
    await expect.poll(() => dialog().getByTestId('code').locator('.cm-line').count()).toBeGreaterThan(0);
  };
  const close = async () => {
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
  };
  /** What `ferry export` gives for the request (the app's face, variables substituted). */
  const exported = async (request: string, lang: string, lib: string) => (await exportSavedRequest(await openWorkspace(ws.root), request, { lang, lib, substitute: true, face: 'app' })).code;
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  it('lists one entry per language in the spec\'s order; the search finds a language by its library or platform and says which', async () => {
    // The page's first load has neither the code view nor a language mode.
    expect(log.chunks().length).toBeGreaterThan(0);
    expect(['CodeView', 'python', 'shell', 'clike'].filter(log.fetched)).toEqual([]);
    await open();
    await expect.poll(options).toEqual(SPEC_ORDER);
    // cURL's shell for this computer (Linux: bash / zsh) is the default.
    await expect.poll(selected).toBe('cURL');
    const shell = dialog().getByRole('group', { name: 'Shell' });
    await expect.poll(() => shell.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as HTMLInputElement).labels![0]!.textContent!.trim()))).toEqual(['bash / zsh', 'Windows cmd', 'PowerShell (curl.exe)']);
    await expect.poll(() => shell.getByRole('radio', { name: 'bash / zsh' }).isChecked()).toBe(true);
    await search().fill('android');
    await expect.poll(options).toEqual(['Kotlin OkHttp 4']);
    await search().fill('node');
    await expect.poll(options).toEqual(['JavaScript fetch, axios']);
    await search().fill('py');
    await expect.poll(options).toEqual(['Python']);
    // The combobox drives the list: Enter takes the first match, the arrows move, the chosen one is its active descendant.
    await search().press('Enter');
    await expect.poll(selected).toBe('Python');
    const active = () => search().evaluate((e) => document.getElementById(e.getAttribute('aria-activedescendant') ?? '')?.textContent ?? null);
    await expect.poll(active).toBe('Python');
    expect(await search().getAttribute('aria-controls')).toBe(await dialog().getByRole('listbox').getAttribute('id'));
    await search().fill('');
    await search().press('ArrowDown');
    await expect.poll(selected).toBe('Go');
    await expect.poll(active).toBe('Go');
    await search().press('ArrowUp');
    await search().press('ArrowUp');
    await expect.poll(selected).toBe('JavaScript');
    // A library the search matched is the one chosen: "cmd" gives cURL for Windows cmd.
    await search().fill('cmd');
    await expect.poll(options).toEqual(['cURL Windows cmd']);
    await search().press('Enter');
    await expect.poll(() => dialog().getByRole('radio', { name: 'Windows cmd' }).isChecked()).toBe(true);
    await expect.poll(shown).toContain('curl.exe ^"http');
    await close();
  });

  it('shows the library or shell choice above the code; a language with one library shows it as text', async () => {
    await open();
    await search().fill('python');
    await search().press('Enter');
    const libraries = dialog().getByRole('group', { name: 'Library' });
    await expect.poll(() => libraries.getByRole('radio').count()).toBe(2);
    await libraries.getByRole('radio', { name: 'httpx' }).check();
    await expect.poll(shown).toContain('import httpx');
    await libraries.getByRole('radio', { name: 'requests' }).check();
    await expect.poll(shown).toContain('import requests');
    await search().fill('go');
    await search().press('Enter');
    await expect.poll(selected).toBe('Go');
    await expect.poll(() => dialog().getByRole('radio').count()).toBe(0);
    await expect.poll(() => dialog().locator('.code-library').textContent()).toMatch(/^Library net\/http /);
    await expect.poll(shown).toContain('net/http');
    // The choice is above the code.
    const choiceBox = (await dialog().locator('.code-library').boundingBox())!;
    const codeBox = (await dialog().getByTestId('code').boundingBox())!;
    expect(choiceBox.y + choiceBox.height).toBeLessThanOrEqual(codeBox.y);
    await close();
  });

  it('remembers the last language and each language\'s last library; one that no longer exists falls back to the default', async () => {
    await open();
    await search().fill('python');
    await search().press('Enter');
    await dialog().getByRole('radio', { name: 'httpx' }).check();
    await search().fill('javascript');
    await search().press('Enter');
    await dialog().getByRole('radio', { name: 'axios' }).check();
    await expect.poll(shown).toContain('axios');
    await close();
    await open();
    await expect.poll(selected).toBe('JavaScript');
    await expect.poll(() => dialog().getByRole('radio', { name: 'axios' }).isChecked()).toBe(true);
    await dialog().getByRole('option', { name: 'Python' }).click();
    await expect.poll(() => dialog().getByRole('radio', { name: 'httpx' }).isChecked()).toBe(true);
    await expect.poll(shown).toContain('import httpx');
    await close();

    // Remembered ids this version does not have: the default language, and a language's default library.
    await page.evaluate(() => {
      localStorage.setItem('ferry.codeLanguage', 'cobol');
      localStorage.setItem('ferry.codeLibraries', JSON.stringify({ python: 'urllib3', curl: 'fish' }));
    });
    await open();
    await expect.poll(selected).toBe('cURL');
    await expect.poll(() => dialog().getByRole('radio', { name: 'bash / zsh' }).isChecked()).toBe(true);
    await dialog().getByRole('option', { name: 'Python' }).click();
    await expect.poll(() => dialog().getByRole('radio', { name: 'requests' }).isChecked()).toBe(true);
    await close();
    // Not JSON: every language starts from its default; the last choice of the version before (one target id) is taken over.
    await page.evaluate(() => {
      localStorage.removeItem('ferry.codeLanguage');
      localStorage.setItem('ferry.codeLibraries', '{not json');
      localStorage.setItem('ferry.codeTarget', 'python/httpx');
    });
    await open();
    await expect.poll(selected).toBe('Python');
    await expect.poll(() => dialog().getByRole('radio', { name: 'httpx' }).isChecked()).toBe(true);
    await close();
  });

  it('highlights the code with the language\'s mode, loaded when first shown', async () => {
    await open();
    await search().fill('python');
    await search().press('Enter');
    await dialog().getByRole('radio', { name: 'requests' }).check();
    const token = (word: string) => dialog().getByTestId('code').locator('.cm-line span', { hasText: new RegExp(`^${word}$`) }).first();
    await expect.poll(() => token('import').count()).toBe(1);
    // A keyword is drawn in another colour than the line's plain text.
    expect(log.fetched('python')).toBe(true);
    expect(log.fetched('clike')).toBe(false);
    const colours = await token('import').evaluate((span) => [getComputedStyle(span).color, getComputedStyle(span.closest('.cm-line')!).color]);
    expect(colours[0]).not.toBe(colours[1]);
    await search().fill('');
    // Other modes: Go's `package`, C#'s `using`, PHP's opening tag, bash's quoted strings.
    for (const [name, word] of [['Go', 'package'], ['C#', 'using'], ['PHP', '<\\?php'], ['Rust', 'let']] as const) {
      await dialog().getByRole('option', { name, exact: true }).click();
      await expect.poll(() => token(word).count(), { message: `${name}: ${word} highlighted` }).toBe(1);
    }
    await dialog().getByRole('option', { name: 'cURL', exact: true }).click();
    await dialog().getByRole('radio', { name: 'bash / zsh' }).check();
    await expect.poll(() => dialog().getByTestId('code').locator('.cm-line span', { hasText: /^'http:\/\/127\.0\.0\.1:9\/things\?x=1'$/ }).count()).toBe(1);
    // The code cannot be edited.
    await dialog().getByTestId('code').locator('.cm-content').click();
    await page.keyboard.type('typed');
    expect(await shown()).not.toContain('typed');
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-code-dialog-light.png') });
    // Ctrl+F searches the code; Esc closes the search first, then the dialog.
    await page.keyboard.press('Control+f');
    const find = dialog().locator('.cm-search');
    await expect.poll(() => find.count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => find.count()).toBe(0);
    expect(await dialog().count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog().count()).toBe(0);
    // Focus goes back to what opened the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Copy as code');
  });

  it('highlighted code keeps 4.5:1 contrast in both themes (each token colour on the code\'s background)', async () => {
    await open();
    await page.evaluate(defineContrast);
    const toggle = page.getByRole('button', { name: 'Toggle theme' });
    const low: string[] = [];
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) {
        await close();
        await toggle.click();
        await open();
      }
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      // Each measured once its own code is highlighted (a token only that language's code has): the
      // box's language changes a moment before its code and mode do, and the code before it, also
      // highlighted, could be measured in its name otherwise.
      const own = { Python: 'import', Go: 'package', 'C#': 'using', PHP: '<\\?php', Rust: 'let', JavaScript: 'const', cURL: "'http://127\\.0\\.0\\.1:9/things\\?x=1'" };
      for (const [name, word] of Object.entries(own)) {
        await dialog().getByRole('option', { name, exact: true }).click();
        await expect.poll(() => dialog().getByTestId('code').locator('.cm-line span', { hasText: new RegExp(`^${word}$`) }).count(), { message: `${theme} ${name}: ${word} highlighted` }).toBeGreaterThan(0);
        low.push(...await lowContrast(dialog().getByTestId('code').locator('.cm-line span'), `${theme} ${name}`));
      }
      // A selection is drawn in the theme's colour (CodeMirror's own is for light pages).
      await dialog().getByTestId('code').locator('.cm-content').click();
      await page.keyboard.press('Control+a');
      const selection = await dialog().getByTestId('code').locator('.cm-selectionBackground').first().evaluate((e) => getComputedStyle(e).backgroundColor);
      expect(selection).toBe(theme === 'dark' ? 'rgb(38, 79, 120)' : 'rgb(200, 218, 252)');
      if (theme === 'dark') await page.screenshot({ path: path.join(ARTIFACTS, 'app-code-dialog-dark.png') });
    }
    expect(low).toEqual([]);
    await close();
    await toggle.click();
  }, 60_000); // fourteen languages drawn and measured: past 14 s on a loaded machine

  it('Copy, and a selection copied with the keyboard, give exactly the code ferry export gives', async () => {
    await open();
    for (const [name, lang, lib] of [['Python', 'python', 'requests'], ['C', 'c', 'libcurl']] as const) {
      await dialog().getByRole('option', { name, exact: true }).click();
      const code = await exported('Create.yaml', lang, lib);
      await expect.poll(shown).toContain(code.split('\n').find((l) => l.includes('127.0.0.1:9/things'))!.trim());
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await dialog().getByRole('button', { name: 'Copy' }).click();
      await expect.poll(clipboard).toBe(code);
      await page.evaluate(() => navigator.clipboard.writeText(''));
      await dialog().getByTestId('code').locator('.cm-content').click();
      await page.keyboard.press('Control+a');
      await page.keyboard.press('Control+c');
      await expect.poll(clipboard).toBe(code);
    }
    await close();
  });

  it('Copy waits for the chosen language\'s code: it never copies the previous language\'s', async () => {
    await open();
    await dialog().getByRole('option', { name: 'Python', exact: true }).click();
    await expect.poll(() => dialog().getByTestId('code').getAttribute('data-lang')).toBe('python/requests');
    // Go's code is held back in the page until released: a slow answer, as on a busy machine.
    let release!: () => void;
    const held = new Promise<void>((done) => { release = done; });
    await page.route('**/api/export', async (route) => {
      const response = await route.fetch();
      await held;
      await route.fulfill({ response });
    });
    await dialog().getByRole('option', { name: 'Go', exact: true }).click();
    const copy = dialog().getByRole('button', { name: 'Copy' });
    await expect.poll(() => copy.isDisabled()).toBe(true);
    release();
    await expect.poll(() => copy.isDisabled()).toBe(false);
    await page.unroute('**/api/export');
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await copy.click();
    await expect.poll(clipboard).toBe(await exported('Create.yaml', 'go', 'net-http'));
    await close();
  });

  it('a 1 MB body: the code opens, draws only what is on screen, scrolls with the keyboard, Copy copies all of it', async () => {
    await page.getByRole('treeitem', { name: /Big$/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Big');
    await page.getByRole('button', { name: 'Copy as code' }).click();
    await dialog().getByRole('option', { name: 'cURL', exact: true }).click();
    await dialog().getByRole('radio', { name: 'bash / zsh' }).check();
    const code = await exported('Big.yaml', 'curl', 'bash');
    expect(code.length).toBeGreaterThan(1_000_000);
    const lines = code.split('\n');
    await expect.poll(shown).toContain(lines[1]!.trim());
    // The view draws what is on screen, not the 20,000 lines.
    expect(await dialog().getByTestId('code').locator('.cm-line').count()).toBeLessThan(500);
    const content = dialog().getByTestId('code').locator('.cm-content');
    await content.click();
    await page.keyboard.press('Control+End');
    const scroller = dialog().getByTestId('code').locator('.cm-scroller');
    await expect.poll(() => scroller.evaluate((e) => e.scrollTop)).toBeGreaterThan(100_000);
    await expect.poll(shown).toContain(lines.at(-1)!.trim());
    await page.keyboard.press('PageUp');
    await expect.poll(() => scroller.evaluate((e) => e.scrollHeight - e.clientHeight - e.scrollTop)).toBeGreaterThan(100);
    await dialog().getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText().then((t) => t.length))).toBe(code.length);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);

    // Python holds the body on one line of 1.2 MB, highlighted by a stream parser: the page still answers.
    await dialog().getByRole('option', { name: 'Python', exact: true }).click();
    await expect.poll(() => dialog().getByTestId('code').getAttribute('data-lang')).toBe('python/requests');
    await expect.poll(shown).toContain('import requests');
    await expect.poll(() => dialog().getByTestId('code').locator('.cm-line span', { hasText: /^import$/ }).count()).toBe(1);
    // How fast is for bench/, not a timed test: the page answering keys within the polls' bounds is the check.
    await content.click();
    const long = (await exported('Big.yaml', 'python', 'requests')).split('\n').findIndex((l) => l.length > 1_000_000);
    await page.keyboard.press('Control+Home');
    for (let i = 0; i < long; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await expect.poll(() => scroller.evaluate((e) => e.scrollLeft)).toBeGreaterThan(1000);
    // The long line scrolls inside the code's box (it widened the box to 2 million pixels, cut off by the dialog).
    expect(await scroller.evaluate((e) => e.clientWidth)).toBeLessThan(1000);
    await close();
  });
});
