/**
 * The HTML report (issue 21) opened in Debian's Chromium (playwright-core): the numbers it shows
 * match the JSON report of the same run, the filters and the search work, failed tests show open,
 * bodies appear with --report-bodies, the timeline is drawn, nothing is loaded from the network,
 * and hostile names and bodies stay text. Skipped, with the reason, when Chromium is absent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { escapeHtml } from '../../src/runner/index.js';
import { browserMissing, launchBrowser } from '../app/browser.js';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from './workspace.js';

const missing = browserMissing();
if (missing) console.warn(`HTML report browser tests skipped: ${missing}`);

const HOSTILE_NAME = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_BODY = '</script><script>window.__pwned=2</script><!-- <b>';
/** A test name a script made with a bidi override: shown escaped, as the app shows names, not reordered. */
const BIDI_TEST = 'ok \u202edeliaf';

let server: http.Server;
let temp: TempWorkspace;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/hostile') return void res.writeHead(200, { 'content-type': 'text/html', 'x-name': '<svg onload=alert(1)>' }).end(HOSTILE_BODY);
    if (p === '/missing') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"marker":"findable-body-text"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  temp = await makeWorkspace({
    'requests/Users/get user.yaml': { name: 'get user', seq: 1, url: `${base}/user`, scripts: { postResponse: "pm.test('status is 200', () => pm.response.to.have.status(200)); pm.test('is admin', () => pm.expect(pm.response.json().admin).to.equal(true)); pm.test('two lines', () => { throw new Error('first line\\nsecond line'); });" } },
    'requests/Users/missing.yaml': { name: 'missing', seq: 2, url: `${base}/missing` },
    'requests/hostile.yaml': { name: HOSTILE_NAME, seq: 3, url: `${base}/hostile?q=<script>`, scripts: { postResponse: `pm.test(${JSON.stringify(HOSTILE_BODY)}, () => {}); pm.test(${JSON.stringify(BIDI_TEST)}, () => {});` } },
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await temp.cleanup();
});

describe('escapeHtml', () => {
  it('escapes markup and quotes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
  });
});

describe('ferry run --out-html', () => {
  it('writes one self-contained page: no external link, the data inside a script element no markup can close', async () => {
    const html = path.join(temp.root, 'out', 'report.html');
    const result = await ferry(['-w', temp.root, 'run', '--out-html', html, '--report-bodies']);
    expect(result.code).toBe(1);
    const text = await fs.readFile(html, 'utf8');
    expect(text.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(text).not.toMatch(/(src|href)=["']?(https?:)?\/\//i);
    expect(text).toContain("default-src 'none'");
    // Exactly the page's two script elements, whatever the names and bodies held.
    expect(text.match(/<script[\s>]/g)).toHaveLength(2);
    expect(text.match(/<\/script>/g)).toHaveLength(2);
    expect(text).not.toContain('<img');
    expect((await ferry(['-w', temp.root, 'run', '-r', 'cli,html'])).stderr).toMatch(/the HTML report needs a file: add --out-html FILE/);
  });
});

describe.skipIf(missing !== undefined)('the HTML report in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the numbers of the JSON report of the same run; filters, search, open failures, bodies, timeline; hostile text stays text; no network', { timeout: 120_000 }, async () => {
    const html = path.join(temp.root, 'out', 'browser.html');
    const json = path.join(temp.root, 'out', 'browser.json');
    await ferry(['-w', temp.root, 'run', '-n', '2', '--out-html', html, '--out-json', json, '--report-bodies']);
    const report = JSON.parse(await fs.readFile(json, 'utf8'));
    expect(report.summary).toMatchObject({ requests: 6, failedRequests: 4, tests: 10, failedTests: 4 });

    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('dialog', (dialog) => {
      errors.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    await page.goto(pathToFileURL(html).href);
    const text = (selector: string) => page.locator(selector).innerText();

    expect(await text('#sum-requests')).toBe(String(report.summary.requests));
    expect(await text('#sum-failed-requests')).toBe(String(report.summary.failedRequests));
    expect(await text('#sum-tests')).toBe(String(report.summary.tests));
    expect(await text('#sum-failed-tests')).toBe(String(report.summary.failedTests));
    expect(await text('#sum-iterations')).toBe(String(report.summary.iterations));
    expect(await text('#verdict')).toBe('FAILED');
    expect(await page.locator('tr.row').count()).toBe(report.results.length);
    expect(await text('#shown')).toBe(`${report.results.length} matching requests`);

    await page.click('[data-filter="failed"]');
    expect(await page.locator('tr.row').count()).toBe(report.summary.failedRequests);
    // Failed tests show open, with their messages.
    const open = page.locator('tr.detail.failed details[open]');
    expect(await open.count()).toBe(report.summary.failedRequests);
    const adminFailure = report.results.find((r: { name: string }) => r.name === 'get user').tests.find((t: { passed: boolean }) => !t.passed);
    expect(await open.first().innerText()).toContain(`✗ is admin: ${adminFailure.message}`);
    // A message of several lines keeps its line breaks (a schema's errors come one a line).
    expect(await open.first().innerText()).toContain('✗ two lines: first line\nsecond line');
    await page.click('[data-filter="passed"]');
    expect(await page.locator('tr.row').count()).toBe(report.results.filter((r: { passed: boolean }) => r.passed).length);

    await page.click('[data-filter="all"]');
    await page.fill('#search', 'MISSING');
    expect(await page.locator('tr.row').count()).toBe(2);
    expect(await text('#shown')).toBe('2 matching requests');
    await page.fill('#search', '');

    // Bodies (--report-bodies) and hostile text, shown as text.
    const hostileRow = page.locator('tr.row', { hasText: HOSTILE_NAME }).first();
    expect(await hostileRow.locator('.name').innerText()).toBe(HOSTILE_NAME);
    const hostileDetail = hostileRow.locator('xpath=following-sibling::tr[1]');
    await hostileDetail.locator('summary', { hasText: 'Details' }).click();
    await hostileDetail.locator('details.response summary').click();
    expect(await hostileDetail.locator('pre.body').innerText()).toBe(HOSTILE_BODY);
    expect(await hostileDetail.innerText()).toContain('ok \\u202edeliaf');
    expect(await page.locator('body').innerText()).not.toContain('\u202e');
    expect(await hostileDetail.locator('pre.headers').innerText()).toContain('x-name: <svg onload=alert(1)>');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    expect(await page.locator('#timeline rect.bar').count()).toBe(report.results.length);
    expect(errors).toEqual([]);
    expect(requested).toEqual([pathToFileURL(html).href]);
    await page.close();
  });
});
