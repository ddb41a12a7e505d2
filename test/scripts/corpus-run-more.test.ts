/**
 * The rest of the corpus collections that carry scripts, through the same chain as
 * corpus-run.test.ts (`ferry import`, then `ferry run -r cli,json,junit`, the three reports
 * agreeing test by test). Stand-ins on loopback: postman-echo.com, httpbin.org and
 * echo.postman.com become the local echo server; newman's test servers become small local ones:
 * a raw echo on a plain socket (it accepts any method, such as `POSTMAN`) for port 4041, and the
 * redirect server (`/N` redirects to `/N-1` ... `/`, which echoes) for port 4042. Where a test
 * fails, it is because the collection itself expects it (noted below) or Ferry does something
 * differently and says so.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoServer, startEchoServer, testCertificate } from '../support/servers/index.js';
import { inCiJob } from '../../src/cli/run.js';
import { runCorpus as runCorpusWith, verdicts, type CorpusRun, type JsonResult } from './corpus-harness.js';

interface Local {
  port: number;
  seen: EchoServer['seen'];
  close(): Promise<void>;
}

/** newman's raw echo: any method, the request head and body sent back as text, over a plain socket. */
async function startSocketEcho(): Promise<Local> {
  const seen: EchoServer['seen'] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buffer = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buffer.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const request = buffer.subarray(0, end + 4 + length);
      buffer = buffer.subarray(end + 4 + length);
      const [method = '', target = ''] = head.split('\r\n')[0]!.split(' ');
      seen.push({ method, target });
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${request.length}\r\n\r\n`);
      socket.write(request);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** newman's redirect server: `/N` answers 302 to `/N-1`; `/` echoes url, method, headers and body as JSON. */
async function startRedirects(): Promise<Local> {
  const seen: EchoServer['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '' });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = Number((req.url ?? '/').slice(1));
      if (Number.isInteger(n) && n > 0) {
        res.writeHead(302, { location: `/${n - 1 === 0 ? '' : n - 1}` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ url: req.url, method: req.method, headers: req.headers, data: Buffer.concat(chunks).toString() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

let echo: EchoServer;
let plainEcho: EchoServer;
let raw: Local;
let redirects: Local;
beforeAll(async () => {
  [echo, plainEcho, raw, redirects] = await Promise.all([
    startEchoServer({ tls: await testCertificate() }),
    startEchoServer(),
    startSocketEcho(),
    startRedirects(),
  ]);
});
afterAll(() => Promise.all([echo.close(), plainEcho.close(), raw.close(), redirects.close()]));

function runCorpus(collection: string): Promise<CorpusRun> {
  const hosts: [string, string][] = [
    ['postman-echo.com', `127.0.0.1:${echo.port}`],
    ['https://httpbin.org', `https://127.0.0.1:${echo.port}`],
    ['http://echo.postman.com', `https://127.0.0.1:${echo.port}`],
    // Written without a scheme, these are plain HTTP.
    ['httpbin.org', `127.0.0.1:${plainEcho.port}`],
    ['localhost:5050', `127.0.0.1:${plainEcho.port}`],
    ['localhost:4041', `127.0.0.1:${raw.port}`],
    ['localhost:4042', `127.0.0.1:${redirects.port}`],
  ];
  return runCorpusWith(collection, { hosts, servers: [echo, plainEcho, raw, redirects] });
}

/** The one result of this display name (names here may hold a `/`). */
function result(run: CorpusRun, name: string): JsonResult {
  const found = run.json.results.filter((r) => r.name === name);
  expect(found, `one result named ${name}`).toHaveLength(1);
  return found[0]!;
}

/** Names of the failed tests of a result. */
const failedTests = (run: CorpusRun, name: string) => result(run, name).tests.filter((t) => !t.passed && !t.skipped).map((t) => t.name);

describe('more corpus collections through ferry import and ferry run', () => {
  it.each(['v21-graphql-and-bodies', 'v21-formdata-files-and-bodies'])('%s: the body scripts pass but for the two checks the collection itself gets wrong', async (collection) => {
    const run = await runCorpus(collection);
    expect(run.code).toBe(1);
    // The collection expects 281 characters for a 277-character body, and posted data for a DELETE that sends none.
    expect(failedTests(run, 'POST Raw Text')).toEqual(['response matches the data posted']);
    expect(failedTests(run, 'DELETE Request')).toEqual(['response matches the data sent in request']);
    expect(verdicts(result(run, 'PUT Request'))).toEqual([['response is valid JSON', true], ['response has PUT data', true], ['response matches the data sent in request', true]]);
    const others = run.json.results.filter((r) => !['POST Raw Text', 'DELETE Request', 'Single/multiple file upload via form-data'].includes(r.name));
    for (const r of others) expect([r.name, r.passed, r.error]).toEqual([r.name, true, null]);
    if (collection === 'v21-formdata-files-and-bodies') {
      // Files are not part of an export (the import says so); the request fails naming the part and the path.
      expect(run.importNotes.join('\n')).toMatch(/Files are not part of an export; choose them again for: .*form field "single file"/);
      expect(result(run, 'Single/multiple file upload via form-data').error).toMatch(/the multipart part "single file" file <file path> does not exist/);
    }
    expect(run.json.summary).toMatchObject({ failedTests: 2 });
  });

  it('v20-codegen-request-matrix: legacy tests run on every request; its copy-pasted POST checks fail as written; file bodies fail clearly', async () => {
    const run = await runCorpus('v20-codegen-request-matrix');
    expect(run.code).toBe(1);
    for (const name of ['Request Headers', 'Request Headers (With special Characters)', 'Request Headers with disabled headers', 'GET Request with disabled query', 'PUT Request', 'PATCH Request', 'DELETE Request', 'OPTIONS to postman echo']) {
      expect(result(run, name).tests.length, name).toBeGreaterThan(0);
      expect(failedTests(run, name), name).toEqual([]);
    }
    // One script pasted on every POST: 256 characters of data and text/plain, whatever the request sends.
    for (const name of ['POST Raw Text', 'POST json with raw', 'POST text/xml with raw', 'POST urlencoded data']) {
      expect(verdicts(result(run, name)), name).toEqual([
        ['response is valid JSON', true], ['response has post data', true], ['response matches the data posted', false], ['content-type equals text/plain', false],
      ]);
    }
    expect(result(run, 'POST File').error).toMatch(/the multipart part "file" file \/some\/path\/file\.txt lies outside the workspace folder/);
    expect(result(run, 'Post file in file mode').error).toMatch(/body type is binary but no file is chosen/);
  });

  it('v21-custom-http-method: a custom method (POSTMAN) goes out as written; a body switched off is not sent', async () => {
    const run = await runCorpus('v21-custom-http-method');
    expect(run.served.filter((x) => x.method === 'POSTMAN')).toHaveLength(2);
    // The script compares raw header bytes: Ferry's HTTP client writes content-length in lower case.
    expect(result(run, 'raw').tests[0]!.message).toMatch(/^expected 'POSTMAN \/ HTTP\/1\.1\\r\\nhost: 127\.0\.0\.1…' to include 'Content-Length: 16'$/);
    // The body was switched off in Postman: neither it nor a Content-Type is sent.
    expect(result(run, 'body disabled').tests[0]!.message).toMatch(/to include 'Content-Length: 0'/);
    expect(result(run, 'form-data').error).toMatch(/the multipart part "dataFile" file test\/integration\/custom-http-method\/upload-file\.csv does not exist/);
  });

  it('v21-protocol-profile-behavior: redirects followed or not and maxRedirects pass; the Postman-only behaviours fail, and the import said so', async () => {
    const run = await runCorpus('v21-protocol-profile-behavior');
    expect(run.code).toBe(1);
    for (const name of ['followRedirects: true', 'followRedirects: false', 'followOriginalHttpMethod: true', 'removeRefererHeaderOnRedirect: true', 'removeRefererHeaderOnRedirect: true + initial referer', 'maxRedirects']) {
      expect(verdicts(result(run, name)).every(([, passed]) => passed === true), name).toBe(true);
    }
    // Ferry keeps the method on a 302 (except after POST, as browsers do) and adds no Referer.
    expect(failedTests(run, 'followOriginalHttpMethod: false')).toEqual(['Response body sanity']);
    expect(failedTests(run, 'removeRefererHeaderOnRedirect: false')).toEqual(['Response body sanity']);
    const notes = run.importNotes.join('\n');
    expect(notes).toMatch(/The request setting followOriginalHttpMethod is not imported/);
    expect(notes).toMatch(/The request setting removeRefererHeaderOnRedirect is not imported/);
    expect(run.served.filter((x) => x.target === '/11')).toEqual([{ method: 'POST', target: '/11' }]);
  });

  it('v20-auth-helpers and v20-hawk-auth: OAuth 1.0 and Hawk are signed and checked by the echo server', async () => {
    const helpers = await runCorpus('v20-auth-helpers');
    // OAuth 1.0 with addParamsToHeader off: the parameters go in the query of this bodiless POST, in Postman's order.
    expect(result(helpers, 'OAuth').url).toMatch(/\/post\?oauth_consumer_key=ds&oauth_signature_method=HMAC-SHA1&oauth_timestamp=1415542860&oauth_nonce=yPmTxQ&oauth_version=1\.0&oauth_signature=/);
    expect(result(helpers, 'OAuth').status).toBe(200);
    // The run is a child without a terminal: where CI is set (this suite in CI), Ferry does not wait
    // for a browser at all, and says so before looking at the redirect address.
    expect(result(helpers, 'OAuth2').error).toMatch(inCiJob(process.env, false) ? /needs someone to sign in in a browser: this run is not interactive/ : /redirectUri must be a loopback address/);
    expect(helpers.importNotes.join('\n')).toMatch(/implicit grant was imported as authorization code with PKCE/);
    const hawk = await runCorpus('v20-hawk-auth');
    // The collection saved Postman's last Authorization header; Ferry signs afresh over it.
    expect(verdicts(hawk.json.results[0]!)).toEqual([['should authenticate correctly', true]]);
    expect(hawk.served).toEqual([{ method: 'GET', target: '/auth/hawk' }]);
  });
});
