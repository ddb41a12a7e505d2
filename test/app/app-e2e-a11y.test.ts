/**
 * `ferry app` in Chromium for keyboard and screen-reader users: what the accessibility tree says
 * (names, roles, states, live regions) and what the keyboard alone can do (open a request, send
 * it, hear its status, use the command palette), and the colours of text in both themes
 * (WCAG AA, 4.5:1, computed from the page's own styles).
 */
import http from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';

import { browserMissing, closeAppPage, openWorkspacePage } from './browser.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { listenLoopback } from '../support/servers/listen.js';
import { defineContrast } from '../support/contrast.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** Answers `/fail…` with 500, anything else with 200 and a small JSON body. */
function startSite(): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    res.statusCode = req.url?.startsWith('/fail') ? 500 : 200;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ url: req.url }));
  });
  return listenLoopback(server, 'http').then(({ url, close }) => ({ base: url, close }));
}

/** What has the keyboard: its role or tag, and its accessible label or text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    if (!e || e === document.body) return 'body';
    return `${e.getAttribute('role') ?? e.tagName.toLowerCase()} ${e.getAttribute('aria-label') ?? e.textContent?.trim().slice(0, 60) ?? ''}`;
  });
}

/**
 * The controls of an ARIA snapshot that have no accessible name, or one of glyphs only (×, +):
 * a screen reader says "button" or "times" for them.
 */
function unnamed(snapshot: string): string[] {
  const roles = 'checkbox|button|textbox|combobox|searchbox|tab|treeitem|radio|spinbutton|option|link|menuitem';
  return snapshot.split('\n').map((l) => l.trim()).filter((l) => new RegExp(`^- (${roles})( \\[|:|$)`).test(l) || new RegExp(`^- (${roles}) "[^\\p{L}\\p{N}"]*"`, 'u').test(l));
}

describe.skipIf(missing !== undefined)('ferry app in Chromium: keyboard and screen readers', () => {
  let ws: TempWorkspace;
  let site: Awaited<ReturnType<typeof startSite>>;
  let app: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    site = await startSite();
    ({ ws, app, browser, page } = await openWorkspacePage({
      'environments/local.yaml': { name: 'Local', variables: [] },
      'requests/Users/_folder.yaml': { name: 'Users', seq: 1 },
      'requests/Users/Get user.yaml': { name: 'Get user', seq: 1, url: '{{base}}/users/42' },
      'requests/Users/Broken.yaml': { name: 'Broken', seq: 2, url: '{{base}}/fail' },
      'requests/Health.yaml': { name: 'Health', seq: 2, url: '{{base}}/health' },
    }, { workspace: { variables: [{ key: 'base', value: site.base }] } }));
    await page.getByRole('tree').waitFor();
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await site?.close();
  });

  it('the sidebar is a named tree whose items say their level, position and name (no caret glyph)', async () => {
    const tree = page.getByRole('tree', { name: 'Requests' });
    await expect.poll(() => tree.count()).toBe(1);
    const users = tree.getByRole('treeitem', { name: 'Users', exact: true });
    await expect.poll(() => users.getAttribute('aria-expanded')).toBe('false');
    expect(await users.getAttribute('aria-level')).toBe('1');
    expect(await users.getAttribute('aria-posinset')).toBe('1');
    expect(await users.getAttribute('aria-setsize')).toBe('2');
    // The keyboard alone: focus the folder, → opens it, ↓ moves into it.
    await users.focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => users.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    const getUser = tree.getByRole('treeitem', { name: 'GET Get user' });
    await expect.poll(() => getUser.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await getUser.getAttribute('aria-level')).toBe('2');
    expect(await getUser.getAttribute('aria-posinset')).toBe('1');
    expect(await getUser.getAttribute('aria-setsize')).toBe('2');
    const health = tree.getByRole('treeitem', { name: 'GET Health' });
    expect(await health.getAttribute('aria-level')).toBe('1');
    expect(await health.getAttribute('aria-posinset')).toBe('2');
  });

  it('keyboard only: Enter opens the request, the URL is edited, Ctrl+Enter sends, the status is announced', async () => {
    const tree = page.getByRole('tree');
    const users = tree.locator('[data-path="Users"]');
    await users.focus();
    if ((await users.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowRight');
    await tree.getByRole('treeitem', { name: 'GET Get user' }).focus();
    await page.keyboard.press('Enter');
    const url = page.getByRole('textbox', { name: 'URL' });
    await expect.poll(() => url.inputValue()).toBe('{{base}}/users/42');
    // The answer's live region exists before the send, and the same one says what came back.
    const response = page.getByRole('region', { name: 'Response' });
    const live = response.getByRole('status');
    await expect.poll(() => live.count()).toBe(1);
    await live.evaluate((e) => { (window as unknown as { liveBefore: Element }).liveBefore = e; });
    await url.focus();
    await page.keyboard.press('End');
    await page.keyboard.type('?from=keyboard');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => live.textContent()).toMatch(/^Response: 200 OK, \d+ ms/);
    expect(await live.evaluate((e) => e === (window as unknown as { liveBefore: Element }).liveBefore)).toBe(true);
    await expect.poll(() => page.getByTestId('response-body').textContent()).toContain('/users/42?from=keyboard');
    // A failed status says so in words, not only in red.
    await tree.getByRole('treeitem', { name: 'GET Broken' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => url.inputValue()).toBe('{{base}}/fail');
    await page.keyboard.press('Control+Enter');
    await expect.poll(() => live.textContent()).toMatch(/^Response: 500 Internal Server Error, \d+ ms/);
  });

  it('the command palette is a modal dialog: Tab stays in it, the current match is announced, Esc gives the focus back', async () => {
    const url = page.getByRole('textbox', { name: 'URL' });
    await url.focus();
    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await expect.poll(() => palette.getAttribute('aria-modal')).toBe('true');
    const search = palette.getByRole('combobox');
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.type('health');
    // The match the arrows are on is the combobox's active descendant (a screen reader reads it).
    const active = async () => search.evaluate((e) => document.getElementById(e.getAttribute('aria-activedescendant') ?? '')?.textContent ?? null);
    await expect.poll(active).toContain('Health');
    await page.keyboard.press('Tab');
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    await page.keyboard.press('Shift+Tab');
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    // Ctrl+Enter while the palette is open sends nothing behind it.
    await page.keyboard.press('Control+Enter');
    expect(await page.getByRole('region', { name: 'Response' }).getByRole('status').textContent()).toMatch(/^Response: 500/);
    await page.keyboard.press('Escape');
    await expect.poll(() => palette.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('input URL');
  });

  it('request and answer tabs: ← → switch by keyboard, and the part shown is a tab panel named by its tab', async () => {
    const editor = page.getByRole('region', { name: 'Request editor' });
    const tabs = editor.getByRole('tablist', { name: 'Parts of the request' });
    await tabs.getByRole('tab', { selected: true }).focus();
    const first = await tabs.getByRole('tab', { selected: true }).textContent();
    await page.keyboard.press('ArrowRight');
    const picked = editor.getByRole('tab', { selected: true });
    await expect.poll(() => picked.textContent()).not.toBe(first);
    const name = (await picked.textContent())!;
    await expect.poll(() => picked.evaluate((e) => e === document.activeElement)).toBe(true);
    const panel = editor.getByRole('tabpanel');
    await expect.poll(() => panel.count()).toBe(1);
    // There is always one panel: polled until it is the picked tab's.
    await expect.poll(() => panel.evaluate((e) => document.getElementById(e.getAttribute('aria-labelledby') ?? '')?.textContent)).toBe(name);
    expect(await picked.getAttribute('aria-controls')).toBe(await panel.getAttribute('id'));
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => editor.getByRole('tab', { selected: true }).textContent()).toBe(first);

    const answer = page.getByRole('region', { name: 'Response' });
    await answer.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('End');
    await expect.poll(() => answer.getByRole('tab', { selected: true }).textContent()).toBe('Timings');
    await expect.poll(() => answer.getByRole('tabpanel', { name: 'Timings' }).count()).toBe(1);
    await page.keyboard.press('Home');
    await expect.poll(() => answer.getByRole('tabpanel', { name: 'Body' }).count()).toBe(1);
  });

  it('copy as code: the language search drives its list as a combobox, the chosen language its active descendant', async () => {
    await page.getByRole('button', { name: 'Copy as code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy as code' });
    const search = dialog.getByRole('combobox', { name: 'Search languages' });
    await expect.poll(() => search.evaluate((e) => e === document.activeElement)).toBe(true);
    expect(await search.getAttribute('aria-controls')).toBe(await dialog.getByRole('listbox', { name: 'Languages' }).getAttribute('id'));
    const active = () => search.evaluate((e) => {
      const option = document.getElementById(e.getAttribute('aria-activedescendant') ?? '');
      return option ? `${option.getAttribute('aria-selected')} ${option.textContent}` : null;
    });
    await expect.poll(active).toMatch(/^true /);
    const first = await active();
    await page.keyboard.press('ArrowDown');
    await expect.poll(active).not.toBe(first);
    await expect.poll(active).toMatch(/^true /);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => focused(page)).toBe('button Copy as code');
  });

  it('the live-updates dot says its state in words', async () => {
    const dot = page.getByRole('status', { name: /^Live updates/ });
    await expect.poll(() => dot.getAttribute('aria-label')).toBe('Live updates: on');
  });

  it('every control of the request editor (multipart parts too), the variables dialog and the import dialog has a name; the import source says which is chosen', async () => {
    await page.getByRole('tree').getByRole('treeitem', { name: 'GET Health' }).click();
    const editor = page.getByRole('region', { name: 'Request editor' });
    await editor.getByRole('tab', { name: 'Body' }).click();
    await editor.getByRole('combobox', { name: 'Body type' }).selectOption('multipart');
    await editor.getByRole('table', { name: 'Multipart parts' }).getByRole('textbox').first().fill('avatar');
    await expect.poll(() => editor.getByRole('table', { name: 'Multipart parts' }).getByRole('row').count()).toBe(3);
    expect(unnamed(await editor.ariaSnapshot())).toEqual([]);
    expect(await editor.getByRole('checkbox', { name: 'Part 1 is a file' }).isChecked()).toBe(false);
    await editor.getByRole('button', { name: 'Remove part avatar' }).click();
    await editor.getByRole('combobox', { name: 'Body type' }).selectOption('none');

    await page.getByRole('button', { name: 'Workspace variables' }).click();
    const variables = page.getByRole('dialog', { name: 'Workspace variables' });
    await expect.poll(() => variables.getByRole('checkbox', { name: 'Enabled 1', exact: true }).isChecked()).toBe(true);
    expect(unnamed(await variables.ariaSnapshot())).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => variables.count()).toBe(0);

    // A refusal in the environment dialogs is an alert, as in the other editors: a screen reader says it.
    await page.getByRole('button', { name: 'New environment' }).click();
    const added = page.getByRole('dialog', { name: 'New environment' });
    await added.getByLabel('New environment name').fill('Local');
    await added.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => added.getByRole('alert').textContent()).toBe('An environment named "Local" exists already (environments/local.yaml); give another name.');
    await added.getByLabel('New environment name').fill('');
    await page.keyboard.press('Escape');
    await expect.poll(() => added.count()).toBe(0);

    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const importer = page.getByRole('dialog', { name: 'Import' });
    const from = importer.getByRole('group', { name: 'Import from' });
    // Paste is the first choice.
    await expect.poll(() => from.getByRole('button', { name: /^Paste/ }).getAttribute('aria-pressed')).toBe('true');
    await from.getByRole('button', { name: 'OpenAPI URL' }).click();
    await expect.poll(() => from.getByRole('button', { name: 'OpenAPI URL' }).getAttribute('aria-pressed')).toBe('true');
    expect(await from.getByRole('button', { name: /^Paste/ }).getAttribute('aria-pressed')).toBe('false');
    expect(unnamed(await importer.ariaSnapshot())).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => importer.count()).toBe(0);
  });

  it('the focused control has an outline in both themes: top-bar button, tree row, its menu item, tab, URL field', async () => {
    const outline = () => page.evaluate(() => {
      const e = document.activeElement as HTMLElement;
      const style = getComputedStyle(e);
      return `${e.getAttribute('role') ?? e.tagName.toLowerCase()}: ${style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 ? 'outline' : 'none'}`;
    });
    const toggle = page.getByRole('button', { name: 'Toggle theme' });
    const seen: string[] = [];
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await toggle.click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      // Reached by the keyboard, as a keyboard user would (:focus-visible).
      await page.getByRole('button', { name: 'History', exact: true }).focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      seen.push(`${theme} ${await outline()}`);
      await page.getByRole('tree').getByRole('treeitem', { name: 'GET Health' }).focus();
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowDown');
      seen.push(`${theme} ${await outline()}`);
      await page.keyboard.press('Shift+F10');
      await expect.poll(() => focused(page)).toBe('menuitem Duplicate');
      await page.keyboard.press('ArrowDown');
      seen.push(`${theme} ${await outline()}`);
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('menu').count()).toBe(0);
      await page.getByRole('tablist', { name: 'Parts of the request' }).getByRole('tab', { selected: true }).focus();
      await page.keyboard.press('ArrowRight');
      seen.push(`${theme} ${await outline()}`);
      await page.keyboard.press('ArrowLeft');
      await page.getByRole('textbox', { name: 'URL' }).focus();
      seen.push(`${theme} ${await outline()}`);
    }
    const parts = ['button: outline', 'treeitem: outline', 'menuitem: outline', 'tab: outline', 'input: outline'];
    expect(seen).toEqual([...parts.map((p) => `light ${p}`), ...parts.map((p) => `dark ${p}`)]);
  });

  it('text keeps 4.5:1 contrast in both themes: body, muted, error, the status badge, a primary button', async () => {
    await page.evaluate(defineContrast);
    const ratios = async () => page.evaluate(() => {
      const ratio = window.ferryContrast.of;
      // Samples on the page's two backgrounds (the window's and the panels': sidebar, top bar).
      const make = (parent: Element, cls: string) => {
        const p = document.createElement('span');
        p.className = cls;
        p.textContent = 'sample';
        parent.append(p);
        return p;
      };
      const out: Record<string, number> = {};
      const main = document.querySelector('.response')!;
      const side = document.querySelector('.sidebar')!;
      for (const [where, parent] of [['window', main], ['panel', side]] as const) {
        for (const cls of ['', 'muted', 'error', 'ok', 'warn', 'bad']) {
          const s = make(parent, cls);
          out[`${cls || 'text'} on ${where}`] = ratio(s);
          s.remove();
        }
      }
      out['status badge'] = ratio(document.querySelector('[data-testid="status"]')!);
      const button = document.createElement('button');
      button.className = 'primary';
      button.textContent = 'Send';
      side.append(button);
      out['primary button'] = ratio(button);
      button.className = 'danger';
      out['danger button'] = ratio(button);
      button.remove();
      return out;
    });
    // An answer on the page: its status badge is measured too.
    await page.getByRole('tree').getByRole('treeitem', { name: 'GET Health' }).click();
    await expect.poll(() => page.getByRole('textbox', { name: 'URL' }).inputValue()).toBe('{{base}}/health');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('200 OK');
    const toggle = page.getByRole('button', { name: 'Toggle theme' });
    const failing: string[] = [];
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await toggle.click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      for (const [what, r] of Object.entries(await ratios())) if (r < 4.5) failing.push(`${theme}: ${what} ${r}:1`);
    }
    expect(failing).toEqual([]);
  });
  it('a selection is marked by more than a light background (an accent bar at 3:1), and text on it, like the live and load panels\' colours, keeps 4.5:1 in both themes', async () => {
    /** Each selected item's indicator against its background and its list's; each text sample's ratio. */
    await page.evaluate(defineContrast);
    const measure = () => page.evaluate(() => {
      const { between, behind } = window.ferryContrast;
      const holder = document.createElement('div');
      document.body.append(holder);
      // The real selected tree row, and the lists' selected options built from the page's classes.
      holder.innerHTML = `
        <div class="palette"><ul><li class="on"><span class="palette-group">Requests</span><span class="palette-label">Health</span><span class="palette-detail">GET /health</span></li></ul></div>
        <div class="code-dialog"><div class="targets"><ul><li class="on">curl <small>shell</small></li></ul></div></div>
        <div class="runner load-panel"><div class="load-list"><ul><li class="on">Smoke</li></ul></div></div>
        <div class="live-panel"><ol class="live-messages"><li class="sent"><span class="dir">↑</span><span class="muted">12:00:01</span><pre class="text">ping</pre></li><li class="received"><span class="dir">↓</span><pre class="text">pong</pre></li></ol></div>
        <div class="runner"><details class="run-messages" open><ol><li class="sent">→ ping</li><li>← pong</li></ol></details></div>`;
      const row = document.querySelector('.tree .row.selected')!;
      const samples: HTMLElement[] = [];
      for (const cls of ['muted', 'badge m-get', 'badge m-post', 'badge m-put', 'badge m-patch', 'badge m-delete', 'badge m-sse']) {
        const s = document.createElement('span');
        s.className = cls;
        s.textContent = 'GET';
        row.append(s);
        samples.push(s);
      }
      const selected: Record<string, Element> = {
        'tree row': row, 'palette option': holder.querySelector('.palette li.on')!,
        'code language': holder.querySelector('.targets li.on')!, 'load test': holder.querySelector('.load-list li.on')!,
      };
      const out: Record<string, number> = {};
      for (const [what, e] of Object.entries(selected)) {
        const bar = getComputedStyle(e).boxShadow.match(/rgba?\([^)]*\)/)?.[0];
        out[`${what} mark on its background`] = bar ? between(bar, behind(e)) : 0;
        out[`${what} mark on the list`] = bar ? between(bar, behind(e.parentElement)) : 0;
      }
      const texts: Array<[string, Element]> = [
        ...samples.map((s) => [`selected row ${s.className}`, s] as [string, Element]),
        ['palette group', holder.querySelector('.palette-group')!], ['palette detail', holder.querySelector('.palette-detail')!],
        ['code language', holder.querySelector('.targets li.on')!], ['code language note', holder.querySelector('.targets small')!],
        ['live sent arrow', holder.querySelector('li.sent .dir')!], ['live sent time', holder.querySelector('li.sent .muted')!],
        ['live sent text', holder.querySelector('li.sent .text')!], ['live received arrow', holder.querySelector('li.received .dir')!],
        ['run sent message', holder.querySelector('.run-messages li.sent')!],
      ];
      for (const [what, e] of texts) out[what] = between(getComputedStyle(e).color, behind(e));
      for (const s of samples) s.remove();
      holder.remove();
      return out;
    });
    // The load panel's styles come with it: opened once, they stay on the page.
    await page.getByRole('button', { name: 'Load tests', exact: true }).click();
    await page.getByRole('region', { name: 'Load tests' }).waitFor();
    await page.getByRole('button', { name: 'Close load tests' }).click();
    await expect.poll(() => page.getByRole('region', { name: 'Load tests' }).count()).toBe(0);
    await page.getByRole('tree').getByRole('treeitem', { name: 'GET Health' }).click();
    await expect.poll(() => page.locator('.tree .row.selected').count()).toBe(1);
    const toggle = page.getByRole('button', { name: 'Toggle theme' });
    const failing: string[] = [];
    for (const theme of ['light', 'dark']) {
      if ((await page.evaluate(() => document.documentElement.dataset.theme)) !== theme) await toggle.click();
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      for (const [what, r] of Object.entries(await measure())) if (r < (what.includes(' mark ') ? 3 : 4.5)) failing.push(`${theme}: ${what} ${r}:1`);
    }
    expect(failing).toEqual([]);
  });

  it('a request file that does not load: its tree row says why to a screen reader, not only in a tooltip', async () => {
    await ws.write('requests/Bad.yaml', 'name: [unclosed\n');
    const row = page.getByRole('tree').getByRole('treeitem', { name: /Bad\.yaml/ });
    await expect.poll(() => row.count()).toBe(1);
    // Named: its path, then why (polled first: the row's title and text are read once it says why).
    await expect.poll(() => page.getByRole('tree').getByRole('treeitem', { name: /^Bad\.yaml does not load: requests\/Bad\.yaml:\d+:\d+: YAML syntax error/ }).count()).toBe(1);
    const title = (await row.getAttribute('title'))!;
    expect(title).toContain('Bad.yaml');
    const name = await row.evaluate((e) => e.textContent);
    // The tooltip's words are in the row's own text (its accessible name), after its path.
    expect(name).toContain(title);
    // The list of file warnings prints the warning the API sends in the terminal's words (formatWarning, as ferry ls --problems).
    await expect.poll(() => page.locator('details.warnings li').allTextContents()).toContainEqual(expect.stringMatching(/^requests\/Bad\.yaml:\d+:\d+: YAML syntax error/));
  });

  it('run results and history say passed, failed and kept in words, not by a glyph or colour alone', async () => {
    await page.getByRole('button', { name: 'Run all' }).click();
    const runner = page.getByRole('region', { name: 'Runner' });
    await runner.getByRole('button', { name: 'Run', exact: true }).click();
    await expect.poll(() => runner.getByTestId('run-summary').count()).toBe(1);
    const results = runner.getByRole('table', { name: 'Run results' });
    expect(await results.getByRole('columnheader').first().textContent()).toBe('Result');
    const marks = await results.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent));
    expect(marks.length).toBeGreaterThan(2);
    for (const mark of marks) expect(mark).toMatch(/^(✓ passed|✗ failed|○ skipped)$/);
    await runner.getByRole('button', { name: 'Close runner' }).click();

    await page.getByRole('button', { name: 'History', exact: true }).click();
    const history = page.getByRole('dialog', { name: 'History' });
    const rows = history.getByRole('table', { name: 'Sends' }).locator('tbody tr');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    // The app's sends keep their whole answer: the ● says so in words too.
    const texts = await rows.allTextContents();
    expect(texts.filter((t) => t.includes('● whole answer kept')).length).toBeGreaterThan(0);
    expect(texts.filter((t) => t.includes('●') && !t.includes('● whole answer kept'))).toEqual([]);
    await page.keyboard.press('Escape');
    await expect.poll(() => history.count()).toBe(0);
  });

  it("a tree row's menu, by keyboard: its action keeps the focus on the row, and a dialog it opens gives it back there", async () => {
    const tree = page.getByRole('tree');
    await tree.getByRole('treeitem', { name: 'GET Health' }).focus();
    await page.keyboard.press('Shift+F10');
    await expect.poll(() => focused(page)).toBe('menuitem Duplicate');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => focused(page)).toBe('menuitem Copy as code…');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Copy as code' });
    await expect.poll(() => dialog.count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    const focusedRow = () => page.evaluate(() => (document.activeElement?.getAttribute('role') === 'treeitem' ? document.activeElement.getAttribute('data-path') : String(document.activeElement?.tagName)));
    await expect.poll(focusedRow).toBe('Health.yaml');
    // An action without a dialog: the focus stays in the tree, not on the page's body.
    await page.keyboard.press('Shift+F10');
    await expect.poll(() => focused(page)).toBe('menuitem Duplicate');
    await page.keyboard.press('Enter');
    await expect.poll(() => tree.getByRole('treeitem', { name: 'GET Health copy' }).count()).toBe(1);
    await expect.poll(focusedRow).toMatch(/^Health/);
    // Delete: the row goes, and the row now at its place has the keyboard.
    const copy = tree.getByRole('treeitem', { name: 'GET Health copy' });
    await copy.focus();
    const at = await copy.getAttribute('data-index');
    await page.keyboard.press('Shift+F10');
    await expect.poll(() => focused(page)).toBe('menuitem Duplicate');
    await page.keyboard.press('ArrowUp'); // wraps to the last item
    await expect.poll(() => focused(page)).toBe('menuitem Delete');
    page.once('dialog', (d) => void d.accept());
    await page.keyboard.press('Enter');
    await expect.poll(() => tree.getByRole('treeitem', { name: 'GET Health copy' }).count()).toBe(0);
    const rowCount = await tree.getByRole('treeitem').count();
    await expect.poll(() => page.evaluate(() => `${document.activeElement?.getAttribute('role')} ${document.activeElement?.getAttribute('data-index')}`)).toBe(`treeitem ${Math.min(Number(at), rowCount - 1)}`);
  });

});
