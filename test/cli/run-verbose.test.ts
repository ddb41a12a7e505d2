/**
 * `ferry run -v/--verbose` and `--report-bodies` (issue 21): each response's status line, headers
 * and body on the terminal report (long bodies cut with a note, binary ones as a size, control
 * characters escaped), and in the JSON report behind `--report-bodies`, bounded, with secrets masked.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

const BIG = `${'0123456789abcdef'.repeat(8 * 1024)}`; // 128 KB
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]), Buffer.alloc(3000, 7)]);

let server: http.Server;
let base = '';
let temp: TempWorkspace;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    if (p === '/json') return void res.writeHead(200, { 'content-type': 'application/json', 'x-trace': 'abc' }).end('{"id":7,"name":"Ada","token":"s3cr3t-value"}');
    if (p === '/big') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(BIG);
    if (p === '/lines') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('line one\nline two\n');
    if (p === '/png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (p === '/hostile') return void res.writeHead(418, { 'content-type': 'text/html', 'x-evil': '<b>bold</b>' }).end('<script>alert(1)</script>\u001b[2J\r fake line');
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  temp = await makeWorkspace({
    'requests/a json.yaml': { name: 'a json', seq: 1, url: `${base}/json`, headers: [{ key: 'x-key', value: '{{token}}' }] },
    'requests/b big.yaml': { name: 'b big', seq: 2, url: `${base}/big` },
    'requests/c png.yaml': { name: 'c png', seq: 3, url: `${base}/png` },
    'requests/d hostile.yaml': { name: 'd hostile', seq: 4, url: `${base}/hostile` },
    'requests/e empty.yaml': { name: 'e empty', seq: 5, url: `${base}/none` },
    'requests/f lines.yaml': { name: 'f lines', seq: 6, url: `${base}/lines` },
  }, { variables: [{ key: 'token', secret: true }] });
  process.env.FERRY_DATA_DIR = temp.dataDir;
  expect((await ferry(['-w', temp.root, 'secret', 'set', 'token'], temp.root, 's3cr3t-value\n')).code).toBe(0);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await temp.cleanup();
});

describe('ferry run --verbose', { timeout: 120_000 }, () => {
  it("prints each response's status line, headers and body; cuts long bodies; shows binary as a size; escapes control characters", async () => {
    const result = await ferry(['-w', temp.root, 'run', '--verbose']);
    const out = result.stdout;
    expect(out).toMatch(/✓ a json a json\.yaml\n {4}GET [^\n]*\/json 200 OK[^\n]*\n {4}HTTP\/1\.1 200 OK\n {4}content-type: application\/json\n {4}x-trace: abc\n/);
    // Off a terminal JSON comes as it was sent; a secret a server echoes is masked.
    expect(out).toContain('    {"id":7,"name":"Ada","token":"***"}\n');
    expect(out).not.toContain('s3cr3t-value');
    const big = /\n {4}(0123456789abcdef[0-9a-f]*)\n {4}… body cut at 16\.0 kB of 128\.0 kB\n/.exec(out);
    expect(big?.[1]).toHaveLength(16 * 1024);
    expect(out).toMatch(/ {4}content-type: image\/png\n(?: {4}[\w-]+: .*\n)* {4}\[binary body, 2\.9 kB\]\n/);
    expect(out).toContain('    x-evil: <b>bold</b>\n');
    expect(out).toContain('    <script>alert(1)</script>\\x1b[2J\\r fake line\n');
    // A body ending in a line feed: its lines, then the blank line after the response, no indented empty one.
    expect(out).toContain('\n    line one\n    line two\n\n');
    expect(out).not.toMatch(/\u001b/);
    expect(out).toMatch(/✓ e empty e empty\.yaml\n {4}GET [^\n]*\n {4}HTTP\/1\.1 204 No Content\n/);
  });

  it('-v pretty-prints JSON on a terminal (where colour is used)', async () => {
    const { main } = await import('../../src/cli/main.js');
    let stdout = '';
    await main(['-w', temp.root, 'run', 'a json', '-v'], { output: { out: (t) => void (stdout += `${t}\n`), err: () => {}, color: true } });
    expect(stdout).toContain('    {\n      "id": 7,\n      "name": "Ada",\n      "token": "***"\n    }\n');
  });

  it('-v without the terminal report (-r json, -r junit) says on stderr that it shows nothing there and what to use; stdout stays the report alone', async () => {
    for (const reporter of ['json', 'junit']) {
      const result = await ferry(['-w', temp.root, 'run', 'a json', '-v', '-r', reporter]);
      expect(result.code, reporter).toBe(0);
      expect(result.stderr, reporter).toBe(
        `ferry: warning: -v shows responses in the terminal report, which -r ${reporter} does not print: add -r cli with --out-${reporter} FILE to see them, or --report-bodies to keep them in the JSON or HTML report.\n`,
      );
      expect(result.stdout, reporter).not.toContain('Ada');
    }
    expect((await ferry(['-w', temp.root, 'run', 'a json', '-v', '-r', 'cli,json', '--out-json', path.join(temp.root, 'v.json')])).stderr).toBe('');
  });

  it('without --verbose prints no response', async () => {
    const result = await ferry(['-w', temp.root, 'run']);
    expect(result.stdout).not.toMatch(/content-type|Ada|0123456789abcdef/);
  });
});

describe('--report-bodies', { timeout: 120_000 }, () => {
  it("adds each response's headers and body to the JSON report, cut at 64 KB with a truncated flag; binary as a size", async () => {
    const file = path.join(temp.root, 'report.json');
    await ferry(['-w', temp.root, 'run', '--out-json', file, '--report-bodies']);
    const report = JSON.parse(await fs.readFile(file, 'utf8'));
    const byName = (name: string) => report.results.find((r: { name: string }) => r.name === name).response;
    expect(byName('a json')).toEqual({
      headers: expect.arrayContaining([{ name: 'content-type', value: 'application/json' }, { name: 'x-trace', value: 'abc' }]),
      body: '{"id":7,"name":"Ada","token":"***"}',
      bodySize: 44,
      truncated: false,
    });
    expect(byName('b big')).toMatchObject({ body: BIG.slice(0, 64 * 1024), bodySize: 128 * 1024, truncated: true });
    expect(byName('c png')).toMatchObject({ body: null, bodySize: PNG.length, truncated: false, binary: true });
    expect(byName('d hostile').body).toBe('<script>alert(1)</script>\u001b[2J\r fake line');
    expect(byName('e empty')).toMatchObject({ body: null, bodySize: 0, truncated: false });

    await ferry(['-w', temp.root, 'run', '--out-json', file]);
    const plain = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(plain.results.every((r: Record<string, unknown>) => !('response' in r))).toBe(true);
  });
});
