/**
 * `ferry app` in Chromium: the response viewer's Pretty view highlighted by the answer's
 * Content-Type (JSON, XML, HTML, JavaScript, CSS; text/plain plain) with the modes code-modes.ts
 * loads when first shown, read-only, selectable and searchable; a body over 1 MB shown whole as
 * plain text; `{{name}}` in an answer or in Copy as code's snippet not marked as a variable (the
 * body editor still marks it). Answers from a real HTTP server on 127.0.0.1.
 */
import http from 'node:http';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppServer } from '../../src/app/server/index.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { defineContrast, lowContrast } from '../support/contrast.js';
import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage, showTheme, type PageLog } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

/** About 1.5 MB of JSON: under the 2 MB the page is given, over the 1 MB highlighted. */
const LARGE = JSON.stringify(Array.from({ length: 18_000 }, (_, i) => ({ id: i, name: `user ${i}`, email: `u${i}@example.com`, tags: ['a', 'b'], active: i % 2 === 0 })));

/** Each answer by path: its Content-Type and body. */
const ANSWERS: Record<string, [string, string]> = {
  '/user': ['application/json; charset=utf-8', '{"id":42,"name":"Ada","admin":true,"tags":["x"],"boss":null}'],
  '/feed': ['application/atom+xml', '<?xml version="1.0"?><feed lang="en"><!-- news --><title>News</title></feed>'],
  '/page': ['text/html', '<!doctype html><html><body class="x"><h1>Hi</h1></body></html>'],
  '/app.js': ['text/javascript', 'function greet(name) { return "hi " + name; } // say hi\nconst n = 42;'],
  '/site.css': ['text/css', 'body { color: red; margin: 0 4px; } /* base */'],
  '/note': ['text/plain', '<b>not markup</b> "not a string"'],
  '/json-as-text': ['text/plain', '{"a":1,"b":"two"}'],
  '/large': ['application/json', LARGE],
  // Minified: 500 KB on one line, about 60,000 tokens.
  '/min.js': ['application/javascript', `${'var a=1,b="x";f(a,b);'.repeat(23_000)}end();`],
  // A server's text holding braces: nothing fills them in.
  '/template': ['application/json', '{"greeting":"hello {{user}}","raw":"{{user}}"}'],
};

describe.skipIf(missing !== undefined)('ferry app in Chromium: the response viewer highlights the body by its type', () => {
  let ws: TempWorkspace;
  let site: Listening;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  /** The page's log from before its first load: which script chunks (editors, modes) it has fetched. */
  let log: PageLog;
  const names: Record<string, string> = { '/user': 'User', '/feed': 'Feed', '/page': 'Page', '/app.js': 'Script', '/site.css': 'Style', '/note': 'Note', '/json-as-text': 'JSON as text', '/large': 'Large', '/min.js': 'Minified', '/template': 'Template' };

  const send = async (name: string) => {
    await page.getByRole('treeitem', { name: new RegExp(`${name}$`) }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe(name);
    // Its own answer from the server: the status shown may still be an earlier send's 200.
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/send', { timeout: 20_000 });
    await page.getByRole('button', { name: 'Send' }).click();
    await answered;
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 20_000 }).toMatch(/^200/);
  };
  const code = () => page.getByTestId('response-code');
  /** The highlighted body's lines as drawn. */
  const lines = () => code().locator('.cm-line').allTextContents();
  /** A token of the body drawn as its own span, by its exact text. */
  const token = (text: string) => code().locator('.cm-line span', { hasText: new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  /** The token's colour and its line's (plain text) colour. */
  const colours = (text: string) => token(text).first().evaluate((span) => [getComputedStyle(span).color, getComputedStyle(span.closest('.cm-line')!).color]);

  beforeAll(async () => {
    site = await listenLoopback(http.createServer((req, res) => {
      const answer = ANSWERS[req.url ?? ''];
      if (answer) res.writeHead(200, { 'content-type': answer[0] }).end(answer[1]);
      else res.writeHead(404).end();
    }), 'http');
    ({ ws, app, browser, page, log } = await openWorkspacePage(Object.fromEntries(Object.entries(names).map(([at, name], i) => [`requests/${name}.yaml`, {
      name, seq: i + 1, url: `${site.url}${at}`,
      // A body that is a template: `{{user}}` filled in when sent (left as written: no such variable).
      ...(name === 'Template' ? { method: 'POST', body: { type: 'json', text: '{"who": "{{user}}"}' } } : {}),
    }])), { stepTimeoutMs: 20_000, context: { permissions: ['clipboard-read', 'clipboard-write'] }, log: true }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    await site?.close();
  });

  it('highlights a JSON answer with a mode the first load does not carry; read-only, selected and copied whole, searched with Ctrl+F', async () => {
    await page.getByRole('treeitem', { name: /User$/ }).waitFor();
    expect(log.chunks().length).toBeGreaterThan(0);
    expect(['CodeView', 'CodeEditor'].filter(log.fetched)).toEqual([]);
    await send('User');
    await expect.poll(() => token('"Ada"').count()).toBe(1);
    expect(log.fetched('CodeView')).toBe(true);
    const pretty = '{\n  "id": 42,\n  "name": "Ada",\n  "admin": true,\n  "tags": [\n    "x"\n  ],\n  "boss": null\n}';
    expect((await lines()).join('\n')).toBe(pretty);
    // Keys, strings, numbers and literals each in another colour than plain text; keys apart from strings.
    for (const text of ['"name"', '"Ada"', '42', 'true', 'null']) {
      const [own, line] = await colours(text);
      expect(own, text).not.toBe(line);
    }
    expect((await colours('"name"'))[0]).not.toBe((await colours('"Ada"'))[0]);
    expect(await page.getByRole('textbox', { name: 'Response body' }).getAttribute('aria-readonly')).toBe('true');

    // Read-only: typing changes nothing; Ctrl+A and Ctrl+C copy the whole body as shown.
    await code().locator('.cm-content').click();
    await page.keyboard.type('zz');
    expect((await lines()).join('\n')).toBe(pretty);
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Control+c');
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(pretty);

    // Ctrl+F: the editors' search panel, its matches marked; Esc closes it.
    await page.keyboard.press('Control+f');
    const find = code().getByRole('textbox', { name: 'Find' });
    await find.waitFor();
    await find.fill('"x"');
    await page.keyboard.press('Enter');
    await expect.poll(() => code().locator('.cm-searchMatch').count()).toBe(1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'response-highlighted.png') });
    await page.keyboard.press('Escape');
    await expect.poll(() => code().locator('.cm-search').count()).toBe(0);

    // Raw stays the body as sent, plain.
    await page.getByRole('button', { name: 'raw', exact: true }).click();
    await expect.poll(() => page.getByTestId('response-body').textContent()).toBe(ANSWERS['/user']![1]);
    await expect.poll(() => code().count()).toBe(0);
    await page.getByRole('button', { name: 'pretty', exact: true }).click();
    await expect.poll(() => token('"Ada"').count()).toBe(1);
  });

  it('XML, HTML, JavaScript and CSS by their type; text/plain stays plain, and JSON under text/plain indented is JSON', async () => {
    const cases: Array<[string, string[]]> = [
      ['Feed', ['feed', 'lang', '"en"', '<!-- news -->']],
      ['Page', ['h1', 'class', '"x"']],
      ['Script', ['function', '"hi "', '42', '// say hi']],
      ['Style', ['red', '4px', '/* base */']],
      ['JSON as text', ['"a"', '"two"', '1']],
    ];
    for (const [name, tokens] of cases) {
      await send(name);
      await expect.poll(() => token(tokens[0]!).count(), { message: name }).toBeGreaterThan(0);
      for (const text of tokens) {
        const [own, line] = await colours(text);
        expect(own, `${name}: ${text}`).not.toBe(line);
      }
    }
    // Markup indented as before, now highlighted.
    await send('Feed');
    await expect.poll(lines).toEqual(['<?xml version="1.0"?>', '<feed lang="en">', '  <!-- news -->', '  <title>News</title>', '</feed>']);
    await send('Note');
    await expect.poll(() => page.getByTestId('response-body').textContent()).toBe(ANSWERS['/note']![1]);
    await expect.poll(() => page.locator('pre.body[data-testid="response-body"]').count()).toBe(1);
    await expect.poll(() => code().count()).toBe(0);
  });

  it('highlighted bodies keep 4.5:1 contrast in both themes', async () => {
    await page.evaluate(defineContrast);
    const low: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      // Each measured once its own body is drawn (a token only it has): the body before it, also
      // highlighted, could be measured in its name otherwise.
      for (const [name, own] of [['User', '"Ada"'], ['Feed', 'feed'], ['Page', 'h1'], ['Script', 'function'], ['Style', 'red']] as const) {
        await send(name);
        await expect.poll(() => token(own).count(), { message: name }).toBeGreaterThan(0);
        low.push(...await lowContrast(code().locator('.cm-line span'), `${theme} ${name}`));
      }
      if (theme === 'dark') await page.screenshot({ path: path.join(ARTIFACTS, 'response-highlighted-dark.png') });
    }
    expect(low).toEqual([]);
    await showTheme(page, 'light');
  }, 60_000); // ten sends, each highlighted and measured: past 14 s on a loaded machine

  it('a JSON body over 1 MB: its first 512 KB highlighted, Show all draws it whole as plain text; a 500 KB minified script highlighted on one line; the page keeps answering', async () => {
    await send('Large');
    await expect.poll(() => page.getByTestId('body-shown').textContent()).toMatch(/^Showing the first 512\.0 KB of 1\.\d MB\./);
    await expect.poll(() => token('"user 0"').count()).toBe(1);
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => page.locator('pre.body[data-testid="response-body"]').count()).toBe(1);
    expect(await code().count()).toBe(0);
    expect(await page.getByTestId('body-shown').count()).toBe(0);
    const facts = await page.evaluate(() => {
      const text = document.querySelector('[data-testid="response-body"]')?.textContent ?? '';
      return { length: text.length, head: text.slice(0, 40), tail: text.slice(-30) };
    });
    expect(facts.length).toBeGreaterThan(LARGE.length);
    expect(facts.head).toBe('[\n  {\n    "id": 0,\n    "name": "user 0",');
    expect(facts.tail).toMatch(/"active": false\n {2}\}\n\]$/);
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Headers/ }).click();
    await page.getByRole('table', { name: 'Response headers' }).waitFor();
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Body/ }).click();
    // A minified script: 500 KB on one line, highlighted and wrapped; the page keeps answering.
    await send('Minified');
    await expect.poll(() => token('"x"').count()).toBeGreaterThan(0);
    expect(await code().locator('.cm-line').count()).toBe(1);
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Headers/ }).click();
    await page.getByRole('table', { name: 'Response headers' }).waitFor();
    await page.getByRole('tablist', { name: 'Parts of the answer' }).getByRole('tab', { name: /^Body/ }).click();
    await expect.poll(() => token('"x"').count()).toBeGreaterThan(0);
    // A small answer next is highlighted again.
    await send('User');
    await expect.poll(() => token('"Ada"').count()).toBe(1);
  });

  it('a long highlighted body in History scrolls inside its box, at most 60% of the window high', async () => {
    await page.getByRole('button', { name: 'History' }).click();
    const dialog = page.getByRole('dialog', { name: 'History' });
    await dialog.getByLabel('Filter history').fill('/large');
    await dialog.getByRole('table', { name: 'Sends' }).locator('tbody tr').first().click();
    const shown = dialog.getByTestId('response-code');
    await expect.poll(() => shown.locator('.cm-line span', { hasText: /^"user 0"$/ }).count(), { timeout: 10_000 }).toBe(1);
    const box = await shown.locator('.cm-scroller').evaluate((el) => ({ scrolls: el.scrollHeight > el.clientHeight, height: el.getBoundingClientRect().height, window: window.innerHeight }));
    expect(box.scrolls).toBe(true);
    expect(box.height).toBeLessThanOrEqual(box.window * 0.6 + 1);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('{{user}} in an answer is not marked as a variable (nothing fills it in), nor in Copy as code; the body editor, a template, marks it', async () => {
    await send('Template');
    await expect.poll(() => token('"hello {{user}}"').count()).toBe(1);
    expect((await lines()).join('\n')).toBe('{\n  "greeting": "hello {{user}}",\n  "raw": "{{user}}"\n}');
    // Highlighted as JSON (the string's colour), with no variable mark inside it.
    const [own, line] = await colours('"hello {{user}}"');
    expect(own).not.toBe(line);
    expect(await code().locator('.cm-variable').count()).toBe(0);
    expect(await code().locator('.cm-line span').count()).toBeGreaterThan(2);

    // The request's body is a template: its editor marks {{user}}.
    await page.getByRole('tablist', { name: 'Parts of the request' }).getByRole('tab', { name: /^Body/ }).click();
    await expect.poll(() => page.locator('.code-editor[data-label="Body"] .cm-variable').allTextContents()).toEqual(['{{user}}']);

    // Copy as code: the undefined {{user}} stays in the snippet as written, as code that another program runs, unmarked.
    await page.getByRole('button', { name: 'Copy as code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Copy as code' });
    await expect.poll(() => dialog.getByTestId('code').locator('.cm-content').innerText()).toContain('{{user}}');
    await expect.poll(() => dialog.getByTestId('code').locator('.cm-line span').count()).toBeGreaterThan(0);
    expect(await dialog.locator('.cm-variable').count()).toBe(0);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });
});
