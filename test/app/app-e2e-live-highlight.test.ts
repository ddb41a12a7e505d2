/**
 * `ferry app` in Chromium: the live panel's messages pretty as the response viewer's Pretty body
 * (a JSON or `<?xml` message indented and highlighted in the editors' colours, plain text plain, a
 * message over 1 MB indented but plain, Pretty off as received), drawn as spans only once near
 * the view (the live list: a list's height ahead, so a scroll shows no row plain): a flood of a
 * few thousand messages leaves most rows plain and the page answering; an SSE answer's events alike. A real WebSocket server (`ws`) and SSE stream on 127.0.0.1.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { AppServer } from '../../src/app/server/index.js';
import type { TempWorkspace } from '../runner/workspace.js';
import { defineContrast, lowContrast } from '../support/contrast.js';
import { ARTIFACTS, browserMissing, closeAppPage, openWorkspacePage, showTheme } from './browser.js';

const missing = browserMissing();
if (missing) console.warn(`app end-to-end tests skipped: ${missing}`);

const JSON_MESSAGE = '{"user":"ada","id":9007199254740993,"admin":true,"tags":["x"],"boss":null}';
const PLAIN_MESSAGE = 'hello {"not": json} from {{user}}';
const XML_MESSAGE = '<?xml version="1.0"?><note to="ada"><!-- greeting --><body>hi</body></note>';
/** About 1.2 MB of JSON: past the 1 MB the response viewer highlights. */
const LARGE_MESSAGE = JSON.stringify({ rows: Array.from({ length: 20_000 }, (_, i) => ({ id: i, name: `user ${i}`, email: `u${i}@example.com` })) });

describe.skipIf(missing !== undefined)('ferry app in Chromium: stream messages highlighted', () => {
  let ws: TempWorkspace;
  let app: AppServer;
  let browser: Browser;
  let page: Page;
  let server: http.Server;
  let wss: WebSocketServer;

  beforeAll(async () => {
    // An SSE answer too (GET /events): a JSON event and a plain one, then the end.
    server = http.createServer((req, res) => {
      if (req.url !== '/events') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: reading\ndata: {"temp":21.5,"unit":"C"}\n\nevent: note\ndata: plain words {not json}\n\n');
    });
    wss = new WebSocketServer({ server, maxPayload: 4 * 1024 * 1024 });
    // "greet": the four messages, one of each; "flood N": N small JSON messages at once.
    wss.on('connection', (socket) => socket.on('message', (data) => {
      const text = data.toString();
      if (text === 'greet') for (const message of [JSON_MESSAGE, PLAIN_MESSAGE, XML_MESSAGE, LARGE_MESSAGE]) socket.send(message);
      const flood = /^flood (\d+)$/.exec(text);
      // In bursts of 250 (the app passes the page at most 500 a batch, counting more as not shown).
      if (flood) {
        let seq = 0;
        const burst = () => {
          for (let i = 0; i < 250 && seq < Number(flood[1]); i++) {
            seq++;
            socket.send(JSON.stringify({ seq, kind: 'tick', payload: { ok: seq % 2 === 0, label: `tick ${seq}` } }));
          }
          if (seq < Number(flood[1])) setTimeout(burst, 100);
        };
        burst();
      }
    }));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    ({ ws, app, browser, page } = await openWorkspacePage({
      'requests/Feed.yaml': { name: 'Feed', seq: 1, kind: 'websocket', url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/feed`, body: { type: 'text', text: 'greet' } },
      'requests/Readings.yaml': { name: 'Readings', seq: 2, kind: 'sse', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/events` },
    }, { viewport: { width: 1400, height: 1000 }, stepTimeoutMs: 20_000 }));
  }, 120_000);

  afterAll(async () => {
    await closeAppPage({ browser, app, ws });
    for (const client of wss?.clients ?? []) client.terminate();
    wss?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  const panel = () => page.getByLabel('Live connection');
  const list = () => panel().getByLabel('Messages', { exact: true });
  const received = (n: number) => list().locator('li.received').nth(n).locator('pre.text');
  /** A token drawn as its own span in `text`, by its exact text. */
  const token = (text: Locator, exact: string) => text.locator('span', { hasText: new RegExp(`^${exact.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
  /** The token's colour and its message's (plain text) colour. */
  const colours = (text: Locator, exact: string) => token(text, exact).first().evaluate((span) => [getComputedStyle(span).color, getComputedStyle(span.closest('pre')!).color]);

  it('a JSON and an XML message indented and highlighted, plain text plain, a message over 1 MB indented but plain; Pretty off shows them as received', async () => {
    await page.getByRole('treeitem', { name: /Feed/ }).click();
    await expect.poll(() => panel().getByLabel('Message', { exact: true }).inputValue()).toBe('greet');
    await panel().getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => panel().getByRole('status').textContent()).toContain('Connected to');
    await panel().getByRole('button', { name: 'Send', exact: true }).click();
    await expect.poll(() => list().locator('li.received').count(), { timeout: 10_000 }).toBe(4);

    // JSON: indented from its text (the 64-bit id as sent), keys, strings, numbers and literals coloured, keys apart from strings.
    const json = received(0);
    await expect.poll(() => json.getAttribute('data-highlighted')).toBe('true');
    expect(await json.textContent()).toBe('{\n  "user": "ada",\n  "id": 9007199254740993,\n  "admin": true,\n  "tags": [\n    "x"\n  ],\n  "boss": null\n}');
    for (const text of ['"user"', '"ada"', '9007199254740993', 'true', 'null']) {
      const [own, line] = await colours(json, text);
      expect(own, text).not.toBe(line);
    }
    expect((await colours(json, '"user"'))[0]).not.toBe((await colours(json, '"ada"'))[0]);
    // The editors' colours: the same as the response viewer's for a JSON key.
    expect(await json.getAttribute('data-lang')).toBe('json');

    // Plain text (braces and {{…}} in it are nothing): as sent, no spans.
    const plain = received(1);
    expect(await plain.textContent()).toBe(PLAIN_MESSAGE);
    expect(await plain.getAttribute('data-lang')).toBeNull();
    expect(await plain.locator('span').count()).toBe(0);

    // XML (`<?xml` first): indented, element names, attributes, values and the comment coloured.
    const xml = received(2);
    await expect.poll(() => xml.getAttribute('data-highlighted')).toBe('true');
    expect(await xml.textContent()).toBe('<?xml version="1.0"?>\n<note to="ada">\n  <!-- greeting -->\n  <body>hi</body>\n</note>');
    for (const text of ['note', 'to', '"ada"', '<!-- greeting -->']) {
      const [own, line] = await colours(xml, text);
      expect(own, text).not.toBe(line);
    }

    // Over 1 MB: indented as the response viewer indents it, but plain.
    const large = received(3);
    await large.scrollIntoViewIfNeeded();
    await expect.poll(() => large.evaluate((pre) => pre.textContent!.slice(0, 60))).toMatch(/^\{\n {2}"rows": \[\n {4}\{\n {6}"id": 0,\n {6}"name": "user 0",/);
    expect(await large.getAttribute('data-lang')).toBeNull();
    expect(await large.locator('span').count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, 'app-live-highlighted.png') });

    // Pretty off: each as received, plain; on again: highlighted again.
    await panel().getByLabel('Pretty').uncheck();
    await expect.poll(() => json.textContent()).toBe(JSON_MESSAGE);
    expect(await list().locator('pre.text span').count()).toBe(0);
    expect(await xml.textContent()).toBe(XML_MESSAGE);
    await panel().getByLabel('Pretty').check();
    await expect.poll(() => token(json, '"ada"').count()).toBe(1);
  });

  it('highlighted messages keep 4.5:1 contrast in both themes, sent and received', async () => {
    // A sent JSON message too (its row has the sent background).
    await panel().getByLabel('Format').selectOption('json');
    await panel().getByLabel('Message', { exact: true }).fill('{"say": "hi", "n": 1, "ok": false}');
    await panel().getByRole('button', { name: 'Send', exact: true }).click();
    const sent = list().locator('li.sent').last().locator('pre.text');
    // Below the 1.2 MB message: highlighted once scrolled to.
    await expect.poll(() => sent.textContent()).toContain('"say": "hi"');
    await sent.scrollIntoViewIfNeeded();
    await expect.poll(() => sent.getAttribute('data-highlighted')).toBe('true');
    await page.evaluate(defineContrast);
    const low: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      await showTheme(page, theme);
      const spans = list().locator('pre.text[data-highlighted] span');
      expect(await spans.count()).toBeGreaterThan(10);
      low.push(...await lowContrast(spans, theme));
    }
    expect(low).toEqual([]);
    await showTheme(page, 'light');
  });

  it('a flood of 3,000 JSON messages: only the rows in view and a list\'s height ahead are highlighted, the rest plain until scrolled near; the page keeps answering', async () => {
    await panel().getByLabel('Format').selectOption('text');
    await panel().getByLabel('Message', { exact: true }).fill('flood 3000');
    await panel().getByRole('button', { name: 'Send', exact: true }).click();
    // The page keeps the newest 1,000 (docs/app.md); each shown indented.
    await expect.poll(() => list().locator('li').last().locator('pre.text').textContent(), { timeout: 30_000 }).toMatch(/^\{\n {2}"seq": 3000,\n {2}"kind": "tick"/);
    await expect.poll(() => list().locator('li').count()).toBe(1000);
    expect(await panel().locator('.live-count').textContent()).toMatch(/^1000 messages/);
    const highlighted = () => list().locator('pre.text[data-highlighted]').count();
    await expect.poll(highlighted).toBeGreaterThan(0);
    const rows = await list().locator('li').count();
    expect(await highlighted()).toBeLessThan(rows / 4);

    // A list's height ahead: once the rows just below the view are highlighted (waited for), a
    // scroll by most of the list's height shows none plain, read in the same task as the scroll,
    // before anything could be drawn after it. (Highlighted only once shown, they were plain then.)
    const aheadHighlighted = () => list().evaluate((ol) => {
      const box = ol.getBoundingClientRect();
      const near = [...ol.querySelectorAll('li')].filter((li) => li.getBoundingClientRect().bottom > box.top && li.getBoundingClientRect().top < box.bottom + ol.clientHeight * 0.8);
      return near.length > 0 && near.every((li) => li.querySelector('pre.text[data-highlighted]'));
    });
    const plainOnScroll = () => list().evaluate((ol) => {
      ol.scrollTop += ol.clientHeight * 0.8;
      const box = ol.getBoundingClientRect();
      const inView = [...ol.querySelectorAll('li')].filter((li) => li.getBoundingClientRect().bottom > box.top && li.getBoundingClientRect().top < box.bottom);
      return inView.filter((li) => !li.querySelector('pre.text[data-highlighted]')).length;
    });
    for (let step = 0; step < 3; step++) {
      await expect.poll(aheadHighlighted).toBe(true);
      expect(await plainOnScroll(), `scroll ${step + 1}`).toBe(0);
    }

    // Scrolled to the end: the last rows are highlighted then.
    await list().evaluate((ol) => ol.scrollTo(0, ol.scrollHeight));
    await expect.poll(() => list().locator('li').last().locator('pre.text').getAttribute('data-highlighted')).toBe('true');

    // The page answers: the search filters the 1,000 rows, and a match is highlighted.
    await panel().getByLabel('Search messages').fill('"tick 2999"');
    await expect.poll(() => list().locator('li').count()).toBe(1);
    await expect.poll(() => list().locator('li pre.text').getAttribute('data-highlighted')).toBe('true');
    await panel().getByLabel('Search messages').fill('');
    await expect.poll(() => list().locator('li').count()).toBe(1000);
    await panel().getByRole('button', { name: 'Disconnect' }).click();
    await expect.poll(() => panel().getByRole('status').textContent()).toContain('Ended: closed by you');
  });

  it("an SSE answer's events: a JSON event indented and highlighted, a plain one plain", async () => {
    await page.getByRole('treeitem', { name: /Readings/ }).click();
    await expect.poll(() => page.getByLabel('Request name').inputValue()).toBe('Readings');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.getByTestId('status').textContent(), { timeout: 10_000 }).toMatch(/^200/);
    await page.getByLabel('Response').getByRole('tab', { name: /^Events/ }).click();
    const events = page.getByLabel('Response').getByRole('list', { name: 'Events' }).locator('li pre.text');
    await expect.poll(() => events.count()).toBe(2);
    await expect.poll(() => events.first().getAttribute('data-highlighted')).toBe('true');
    expect(await events.first().textContent()).toBe('{\n  "temp": 21.5,\n  "unit": "C"\n}');
    const [own, line] = await colours(events.first(), '"temp"');
    expect(own).not.toBe(line);
    expect(await events.nth(1).textContent()).toBe('plain words {not json}');
    expect(await events.nth(1).getAttribute('data-lang')).toBeNull();
    expect(await events.nth(1).locator('span').count()).toBe(0);
  });
});
