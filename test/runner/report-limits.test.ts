/**
 * Reports stay bounded whatever a server answers and a script makes of it: a test named after a
 * 2 MB answer, a failure message and a thrown error quoting it are cut (saying how much more there
 * was) in every report; the JUnit file stays well-formed XML with control characters, lone
 * surrogates, `]]>` and `--` in the text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { WebSocketServer } from 'ws';
import { ferry } from '../support/cli.js';
import { makeWorkspace } from './workspace.js';
import { RESULT_LIMITS } from '../../src/runner/result-limits.js';
import { HTML_BODY_CHARS } from '../../src/runner/reporters/html.js';

const BODY_BYTES = 2 * 1024 * 1024;
const HOSTILE = 'x\x1b[2J\x00\x0b\u0085\ud800]]>--<!-- \ufffe';
let server: http.Server;
let base = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('a'.repeat(req.url === '/wide' ? 100_000 : BODY_BYTES));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('report size', () => {
  it('a test name, failure message and error made from a 2 MB answer are cut in every report; JUnit stays well-formed', { timeout: 60_000 }, async () => {
    const t = await makeWorkspace({
      'requests/big.yaml': {
        name: 'big',
        url: `${base}/`,
        scripts: {
          postResponse: [
            `const hostile = ${JSON.stringify(HOSTILE)};`,
            'const text = pm.response.text();',
            'pm.test(hostile + text, () => { throw new Error(hostile + text); });',
            "pm.test('short name', () => {});",
            'throw new Error(hostile + text);',
          ].join('\n'),
        },
      },
    });
    const out = (name: string) => path.join(t.root, '..', name);
    process.env.FERRY_DATA_DIR = t.dataDir;
    const run = await ferry(['-w', t.root, 'run', '-n', '3', '--report-bodies', '--out-json', out('r.json'), '--out-junit', out('r.xml'), '--out-html', out('r.html')]);
    expect(run.code).toBe(1);

    const json = await fs.readFile(out('r.json'), 'utf8');
    const junit = await fs.readFile(out('r.xml'), 'utf8');
    const html = await fs.readFile(out('r.html'), 'utf8');
    // 3 sends, each a 64 KB body and a few cut texts: far below the megabytes each would hold uncut.
    for (const text of [json, junit, html, run.stdout]) expect(text.length).toBeLessThan(400_000);

    const result = JSON.parse(json).results[0];
    const [cut, short] = result.tests;
    expect(cut.name.startsWith(HOSTILE)).toBe(true);
    expect(cut.name).toMatch(new RegExp(`… \\(${BODY_BYTES + HOSTILE.length - RESULT_LIMITS.testName} more characters\\)$`));
    expect(cut.message).toMatch(/… \(\d+ more characters\)$/);
    expect(cut.message.length).toBeLessThan(RESULT_LIMITS.message + 50);
    expect(short.name).toBe('short name');
    expect(result.error.length).toBeLessThan(RESULT_LIMITS.message + 50);
    expect(result.error).toMatch(/more characters\)/);

    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).toContain(']]&gt;--&lt;!--');
    expect(junit).toContain('more characters)');
    expect(run.stdout).toContain('more characters)');
  });

  it('the HTML page holds at most 20 MB of bodies: past it a send keeps its headers and says its body was left out; the JSON report keeps every body', { timeout: 120_000 }, async () => {
    const t = await makeWorkspace({ 'requests/wide.yaml': { name: 'wide', url: `${base}/wide` } });
    const out = (name: string) => path.join(t.root, '..', name);
    process.env.FERRY_DATA_DIR = t.dataDir;
    const sends = 400; // 400 × 64 KB kept of each 100 KB body: 25.6 MB, past the page's 20 MB
    const run = await ferry(['-w', t.root, 'run', '-n', String(sends), '--report-bodies', '--out-json', out('w.json'), '--out-html', out('w.html')]);
    expect(run.code).toBe(0);
    const html = await fs.readFile(out('w.html'), 'utf8');
    expect(html.length).toBeLessThan(22 * 1024 * 1024); // 20 MB of bodies, and the rest of the page
    const data = JSON.parse(/<script id="ferry-data" type="application\/json">([^]*?)<\/script>/.exec(html)![1]!);
    const rows = data.results as Array<{ response: { body: string | null; bodySize: number; headers: unknown[]; leftOut?: true } }>;
    expect(rows).toHaveLength(sends);
    const kept = rows.filter((r) => r.response.body !== null);
    expect(kept.length).toBe(Math.floor(HTML_BODY_CHARS / (64 * 1024 + 2))); // each as a JSON string, quotes and all
    expect(rows.slice(0, kept.length)).toEqual(kept); // the first ones, in order
    for (const r of rows.slice(kept.length)) expect(r.response).toMatchObject({ body: null, bodySize: 100_000, leftOut: true, headers: expect.arrayContaining([{ name: 'content-type', value: 'text/plain' }]) });
    expect(html).toContain('left out: this page already holds');
    const json = JSON.parse(await fs.readFile(out('w.json'), 'utf8'));
    expect(json.results.every((r: { response: { body: string | null } }) => r.response.body?.length === 64 * 1024)).toBe(true);
  });

  it('the HTML page leaves out the messages of streaming sends, which it does not show; the JSON report keeps them', { timeout: 60_000 }, async () => {
    // Each connection gets 100 messages of 60 KB: 6 MB a send in the data of a page that never showed them.
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    wss.on('connection', (socket) => {
      for (let i = 0; i < 100; i++) socket.send('m'.repeat(60_000));
      socket.close(1000, 'done');
    });
    await new Promise((resolve) => wss.once('listening', resolve));
    try {
      const t = await makeWorkspace({ 'requests/stream.yaml': { name: 'stream', kind: 'websocket', url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/` } });
      const out = (name: string) => path.join(t.root, '..', name);
      process.env.FERRY_DATA_DIR = t.dataDir;
      const run = await ferry(['-w', t.root, 'run', '-n', '3', '--out-json', out('s.json'), '--out-html', out('s.html')]);
      expect(run.code).toBe(0);
      const html = await fs.readFile(out('s.html'), 'utf8');
      expect(html.length).toBeLessThan(200_000);
      const data = JSON.parse(/<script id="ferry-data" type="application\/json">([^]*?)<\/script>/.exec(html)![1]!);
      expect(data.results).toHaveLength(3);
      expect(data.results[0].stream).toMatchObject({ events: 100 });
      expect(data.results[0].messages).toBeUndefined();
      const json = JSON.parse(await fs.readFile(out('s.json'), 'utf8'));
      expect(json.results[0].messages).toHaveLength(100);
    } finally {
      await new Promise((resolve) => wss.close(resolve));
    }
  });
});
