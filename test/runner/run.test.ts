import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fsSync, { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { Ajv } from 'ajv';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { CliReporter, createReporter, HtmlReporter, JsonReporter, JunitReporter, ReportFileWriter, runRequests, RunStop, type RunEvent, type RunOptions } from '../../src/runner/index.js';
import { readDataFile } from '../../src/variables/index.js';
import { closedPort, startHttp1, startTls, type Peer } from '../support/servers/index.js';
import { openedWorkspace } from './workspace.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { startDnsFixture } from '../support/dns-fixture.js';

let peer: Peer;
let tls: Peer;
let counter: http.Server;
let counterUrl = '';
let hits = 0;

beforeAll(async () => {
  [peer, tls] = await Promise.all([startHttp1(), startTls()]);
  // Answers "pending" twice, then "done": for settings.repeat.
  counter = http.createServer((req, res) => {
    hits++;
    res.writeHead(hits % 3 === 0 ? 200 : 202, { 'content-type': 'application/json' }).end(JSON.stringify({ state: hits % 3 === 0 ? 'done' : 'pending' }));
  });
  await new Promise<void>((resolve) => counter.listen(0, '127.0.0.1', resolve));
  counterUrl = `http://127.0.0.1:${(counter.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all([peer.close(), tls.close(), new Promise<void>((resolve) => counter.close(() => resolve()))]);
});
const setup = openedWorkspace;

async function run(setupResult: Awaited<ReturnType<typeof setup>>, options: Partial<RunOptions> = {}) {
  const events: RunEvent[] = [];
  const outcome = await runRequests({
    workspace: setupResult.ws,
    dataFolder: setupResult.data,
    settings: DEFAULT_SETTINGS,
    ...options,
    reporters: [{ onEvent: (e) => events.push(e) }, ...(options.reporters ?? [])],
  });
  return { ...outcome, events };
}

const test200 = "pm.test('status is 200', () => pm.response.to.have.status(200));";

describe('runs go on past per-request errors', () => {
  it('spec 2.7: settings.timeoutMs overrides the application setting for its request only, and 0 means no limit', async () => {
    const s = await setup({
      'requests/1 unlimited.yaml': { name: 'unlimited', seq: 1, url: `${peer.url}/slow?ms=400`, settings: { timeoutMs: 0 } },
      'requests/2 longer.yaml': { name: 'longer', seq: 2, url: `${peer.url}/slow?ms=400`, settings: { timeoutMs: 5000 } },
      'requests/3 app.yaml': { name: 'app', seq: 3, url: `${peer.url}/slow?ms=400` },
    });
    const { results } = await run(s, { settings: { ...DEFAULT_SETTINGS, timeoutMs: 150 } });
    expect(results.map((r) => [r.name, r.passed])).toEqual([['unlimited', true], ['longer', true], ['app', false]]);
    expect(results[2]!.error).toMatch(/timed out after 150 ms/);
  });

  it('refused, unknown host, timeout, TLS and redirect errors each fail one request with a clear message', async () => {
    const port = await closedPort();
    const s = await setup({
      'requests/01 ok.yaml': { name: 'ok', seq: 1, url: `${peer.url}/echo` },
      'requests/02 refused.yaml': { name: 'refused', seq: 2, url: `http://127.0.0.1:${port}/` },
      'requests/03 unknown.yaml': { name: 'unknown', seq: 3, url: 'http://no-such-host.invalid/' },
      'requests/04 slow.yaml': { name: 'slow', seq: 4, url: `${peer.url}/slow?ms=3000`, settings: { timeoutMs: 150 } },
      'requests/05 tls.yaml': { name: 'tls', seq: 5, url: `${tls.url}/echo` },
      'requests/06 loop.yaml': { name: 'loop', seq: 6, url: `${peer.url}/redirect/5`, settings: { maxRedirects: 2 } },
      'requests/07 after.yaml': { name: 'after', seq: 7, url: `${peer.url}/echo` },
    });
    // Names resolve through a DNS fixture on 127.0.0.1, so the unknown host is asked there, not of this computer's resolver.
    const dnsFixture = await startDnsFixture();
    const { results, summary } = await run(s, { lookup: dnsFixture.lookup }).finally(() => dnsFixture.close());
    expect(dnsFixture.asked).toContain('no-such-host.invalid');
    expect(results.map((r) => [r.name, r.passed])).toEqual([
      ['ok', true],
      ['refused', false],
      ['unknown', false],
      ['slow', false],
      ['tls', false],
      ['loop', false],
      ['after', true],
    ]);
    expect(results[1]!.error).toMatch(/connection refused/);
    expect(results[2]!.error).toMatch(/unknown host no-such-host\.invalid/);
    expect(results[3]!.error).toMatch(/timed out after 150 ms/);
    expect(results[4]!.error).toMatch(/TLS error.*--insecure/);
    expect(results[5]!.error).toMatch(/stopped after 2 redirects/);
    expect(summary).toMatchObject({ requests: 7, failedRequests: 5 });
  });

  it('--insecure and --timeout-ms override every request', async () => {
    const s = await setup({
      'requests/tls.yaml': { name: 'tls', url: `${tls.url}/echo`, settings: { verifyTls: true } },
      'requests/slow.yaml': { name: 'slow', url: `${peer.url}/slow?ms=3000`, settings: { timeoutMs: 60_000 } },
    });
    // Two runs, so the TLS send never races the short timeout on a busy machine.
    const secure = await run(s, { insecure: true, paths: ['tls'] });
    expect(secure.results[0]!.passed).toBe(true);
    expect(secure.results[0]!.httpVersion).toBe('2');
    const short = await run(s, { timeoutMs: 100, paths: ['slow'] });
    expect(short.results[0]!.error).toMatch(/timed out after 100 ms/);
  });
});

describe('OAuth 2.0 token requests', () => {
  it("follow the request's own verifyTls (a self-signed provider with verifyTls: false is reached)", async () => {
    // The TLS peer answers JSON that is no token: reached, the complaint is about the answer, not the certificate.
    const auth = { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `${tls.url}/json`, clientId: 'c', clientSecret: 's' };
    const s = await setup({
      'requests/lenient.yaml': { name: 'lenient', url: `${peer.url}/echo`, auth, settings: { verifyTls: false } },
      'requests/strict.yaml': { name: 'strict', url: `${peer.url}/echo`, auth },
    });
    const { results } = await run(s);
    const byName = Object.fromEntries(results.map((r) => [r.name, r.error ?? '']));
    expect(byName.strict).toMatch(/self-signed certificate|certificate/i);
    expect(byName.lenient).toMatch(/OAuth 2\.0 \(clientCredentials\) token request/);
    expect(byName.lenient).not.toMatch(/certificate/i);
  });
});

describe('verdicts', () => {
  it('without tests a status of 400 or more fails; with tests the tests decide', async () => {
    const s = await setup({
      'requests/a.yaml': { name: 'plain 404', seq: 1, url: `${peer.url}/status?code=404` },
      'requests/b.yaml': { name: 'tested 404', seq: 2, url: `${peer.url}/status?code=404`, scripts: { postResponse: "pm.test('is 404', () => pm.response.to.have.status(404));" } },
      'requests/c.yaml': { name: 'failing test', seq: 3, url: `${peer.url}/echo`, scripts: { postResponse: "pm.test('wrong', () => pm.expect(1).to.eql(2));" } },
    });
    const { results, summary } = await run(s);
    expect(results.map((r) => r.passed)).toEqual([false, true, false]);
    expect(results[2]!.tests[0]).toMatchObject({ name: 'wrong', passed: false, message: expect.stringMatching(/expected 1 to deeply equal 2/) });
    expect(summary).toMatchObject({ tests: 2, failedTests: 1, failedRequests: 2 });
  });

  it('a request under a _folder.yaml that does not parse fails without being sent; the run goes on', async () => {
    const s = await setup({
      'requests/Secured/_folder.yaml': 'name: [unclosed\nauth: { type: bearer, token: t }',
      'requests/Secured/Inner/get.yaml': { name: 'inner', url: `${peer.url}/echo?inner` },
      'requests/outside.yaml': { name: 'outside', url: `${peer.url}/echo?outside` },
    });
    const before = peer.seen.length;
    const { results, events } = await run(s);
    expect(events.some((e) => e.type === 'warning' && /requests\/Secured\/_folder\.yaml/.test(e.message))).toBe(true);
    const inner = results.find((r) => r.name === 'inner')!;
    expect(inner.passed).toBe(false);
    expect(inner.status).toBeUndefined();
    expect(inner.error).toMatch(/^requests\/Secured\/_folder\.yaml:\d+:\d+: .*its requests are not sent; fix the file to run them\)$/);
    expect(results.find((r) => r.name === 'outside')!.passed).toBe(true);
    expect(peer.seen.slice(before).map((x) => x.url)).toEqual(['/echo?outside']);
  });

  it('a file a request needs that cannot be read fails that request with a message; the run goes on', async () => {
    const s = await setup({
      'requests/a.yaml': {
        name: 'oauth',
        seq: 1,
        url: `${peer.url}/echo?oauth`,
        auth: { type: 'oauth2', grantType: 'clientCredentials', tokenUrl: `${peer.url}/token`, clientId: 'c', clientSecret: 's' },
      },
      'requests/b.yaml': { name: 'plain', seq: 2, url: `${peer.url}/echo?plain` },
    });
    // The token cache (in the data folder) is a folder: reading it fails with EISDIR.
    await fs.mkdir(path.join(s.data.dir, 'tokens.json'), { recursive: true });
    const { results } = await run(s);
    expect(results[0]).toMatchObject({ name: 'oauth', passed: false });
    expect(results[0]!.error).toBe(`requests/a.yaml: Could not read ${path.join(s.data.dir, 'tokens.json')}: it is a folder, not a file (EISDIR).`);
    expect(results[1]).toMatchObject({ name: 'plain', passed: true });
  });

  it('--bail stops at the first failure', async () => {
    const s = await setup({
      'requests/a.yaml': { name: 'a', seq: 1, url: `${peer.url}/status?code=500` },
      'requests/b.yaml': { name: 'b', seq: 2, url: `${peer.url}/echo` },
    });
    const { results, bailed } = await run(s, { bail: true });
    expect(results).toHaveLength(1);
    expect(bailed).toBe(true);
    // Of 3 iterations asked for, 1 ran: the summary counts what ran, and the terminal says of how many.
    let text = '';
    const three = await run(s, { bail: true, iterations: 3, reporters: [new CliReporter({ write: (t) => void (text += t), color: false })] });
    expect(three.summary).toMatchObject({ requests: 1, failedRequests: 1, iterations: 1 });
    expect(text).toContain('\n  1 of 3 iterations\n');
    // --delay-ms: the second request starts at least that long after the first (a lower bound only: load cannot break it).
    const paced = await run(s, { delayMs: 150 });
    const [first, second] = paced.results.map((r) => Date.parse(r.startedAt));
    expect(second! - first!).toBeGreaterThanOrEqual(150);
  });

  it('Ctrl-C during the --delay-ms pause ends the run at once: the next request is not sent', async () => {
    const s = await setup({
      'requests/a.yaml': { name: 'a', seq: 1, url: `${peer.url}/echo?delay-a` },
      'requests/b.yaml': { name: 'b', seq: 2, url: `${peer.url}/echo?delay-b` },
    });
    const stop = new AbortController();
    const before = peer.seen.length;
    // Stop once the first result is in: the run is then in its pause before the second request,
    // longer than the test's own timeout, so a pause the stop does not cut fails the test.
    let html = '';
    const page = new HtmlReporter((text) => void (html += text));
    const outcome = await run(s, { delayMs: 120_000, signal: stop.signal, reporters: [page, { onEvent: (e) => void (e.type === 'request' && setTimeout(() => stop.abort(), 50)) }] });
    expect(outcome.interrupted).toBe(true);
    expect(outcome.results.map((r) => [r.name, r.passed])).toEqual([['a', true]]);
    expect(peer.seen.slice(before).some((x) => x.url.includes('delay-b'))).toBe(false);
    // The HTML page does not call a stopped run passed (the exit code is 1).
    expect(html).toContain('<span id="verdict" class="verdict-failed">STOPPED</span>');
    expect(html).toContain('stopped by Ctrl-C');
  });

  it('adds the contract check and judges by it', async () => {
    const spec = {
      openapi: '3.0.3',
      info: { title: 't', version: '1' },
      paths: { '/json': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['id', 'email'] } } } } } } } },
    };
    const s = await setup({
      'specs/api.json': JSON.stringify(spec),
      'requests/Api/_folder.yaml': { openapi: { spec: 'specs/api.json' } },
      'requests/Api/get.yaml': { name: 'get', url: `${peer.url}/json`, openapi: { operation: 'GET /json' } },
    });
    const { results } = await run(s);
    expect(results[0]!.tests).toEqual([{ name: 'Matches the API spec (GET /json -> 200)', passed: false, message: expect.stringContaining('email') }]);
    expect(results[0]!.passed).toBe(false);
  });
});

describe('scripts in runs', () => {
  it('runs workspace, folder and request scripts in order, keeps variables, honours skipRequest and setNextRequest', async () => {
    const s = await setup(
      {
        'requests/F/_folder.yaml': { scripts: { preRequest: "console.log('folder');" } },
        'requests/F/1 first.yaml': {
          name: 'first',
          seq: 1,
          url: `${peer.url}/json`,
          scripts: { preRequest: "console.log('request');", postResponse: "pm.collectionVariables.set('userId', String(pm.response.json().id)); pm.execution.setNextRequest('third');" },
        },
        'requests/F/2 second.yaml': { name: 'second', seq: 2, url: `${peer.url}/echo` },
        'requests/F/3 third.yaml': { name: 'third', seq: 3, url: `${peer.url}/echo?user={{userId}}`, scripts: { postResponse: test200 } },
        'requests/F/4 fourth.yaml': { name: 'fourth', seq: 4, url: `${peer.url}/echo`, scripts: { preRequest: 'pm.execution.skipRequest();' } },
      },
      { scripts: { preRequest: "console.log('workspace');" } },
    );
    const { results } = await run(s);
    expect(results.map((r) => r.name)).toEqual(['first', 'third', 'fourth']);
    expect(results[0]!.console).toEqual(['workspace', 'folder', 'request']);
    expect(results[1]!.url).toBe(`${peer.url}/echo?user=7`);
    expect(results[2]!.skipped).toMatch(/skipRequest/);
    // Script-set values are kept on this computer, written once at the end of the run.
    expect(await s.data.scriptValues('collection')).toEqual({ userId: '7' });
  });

  it('a failed pre-request script still sends the request with what it changed, runs the tests, and fails the request', async () => {
    const s = await setup({
      'requests/broken pre.yaml': {
        name: 'broken pre',
        url: `${peer.url}/echo`,
        scripts: {
          preRequest: "pm.request.headers.upsert({ key: 'X-Before', value: 'set' });\nnull.boom;",
          postResponse: test200,
        },
      },
    });
    const before = peer.seen.length;
    const { results } = await run(s);
    expect(peer.seen.length - before).toBe(1);
    expect(peer.seen[before]!.headers['x-before']).toBe('set');
    expect(results[0]!.status).toBe(200);
    expect(results[0]!.tests).toEqual([expect.objectContaining({ name: 'status is 200', passed: true })]);
    expect(results[0]!.error).toMatch(/^requests\/broken pre\.yaml: preRequest: TypeError: .*\(line 2/);
    expect(results[0]!.passed).toBe(false);
  });

  it('values set by scripts are kept on this computer, win over the files in later runs, and never touch workspace files', async () => {
    const s = await setup(
      {
        'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', value: 'from-file' }] },
        'requests/1 set.yaml': { name: 'set', seq: 1, url: `${peer.url}/echo?token={{token}}&ws={{wsVar}}`, scripts: { postResponse: "pm.environment.set('token', 'from-script'); pm.collectionVariables.set('wsVar', 'scripted'); pm.globals.set('g', 'global');" } },
        'requests/2 use.yaml': { name: 'use', seq: 2, url: `${peer.url}/echo?token={{token}}&ws={{wsVar}}&g={{g}}` },
      },
      { variables: [{ key: 'wsVar', value: 'from-ferry-yaml' }] },
    );
    const files = ['ferry.yaml', 'environments/local.yaml', 'requests/1 set.yaml', 'requests/2 use.yaml'];
    const before = await Promise.all(files.map((f) => fs.readFile(path.join(s.temp.root, f), 'utf8')));
    const first = await run(s, { environment: 'local' });
    expect(first.results.map((r) => new URL(r.url).search)).toEqual(['?token=from-file&ws=from-ferry-yaml', '?token=from-script&ws=scripted&g=global']);
    const second = await run(s, { environment: 'local', paths: ['2 use'] });
    expect(new URL(second.results[0]!.url).search).toBe('?token=from-script&ws=scripted&g=global');
    expect(await s.data.scriptValues('environment:local')).toEqual({ token: 'from-script' });
    expect(await Promise.all(files.map((f) => fs.readFile(path.join(s.temp.root, f), 'utf8')))).toEqual(before);
    expect((await fs.readdir(s.temp.root)).sort()).toEqual(['environments', 'ferry.yaml', 'requests']);
  });

  it("unset of a variable the files define hides it for the rest of the run, as Newman's unset; clear() hides the scope's; the next run has the files' values again", async () => {
    const s = await setup(
      {
        'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', value: 'from-file' }, { key: 'other', value: 'o' }, { key: 'both', value: 'env' }] },
        'requests/1 unset.yaml': { name: 'unset', seq: 1, url: `${peer.url}/echo?token={{token}}`, scripts: { postResponse: "pm.environment.unset('token'); pm.environment.unset('both'); pm.collectionVariables.unset('wsVar');" } },
        'requests/2 use.yaml': {
          name: 'use', seq: 2, url: `${peer.url}/echo?token={{token}}&ws={{wsVar}}&other={{other}}&both={{both}}`,
          scripts: { preRequest: "console.log(JSON.stringify([pm.environment.get('token'), pm.environment.has('token'), pm.variables.get('wsVar'), pm.environment.get('other'), pm.variables.get('both')])); pm.environment.clear();" },
        },
        'requests/3 cleared.yaml': { name: 'cleared', seq: 3, url: `${peer.url}/echo?other={{other}}&both={{both}}&token={{token}}`, scripts: { preRequest: "pm.environment.set('token', 'again');" } },
        'requests/4 plain.yaml': { name: 'plain', seq: 4, url: `${peer.url}/echo?token={{token}}&ws={{wsVar}}&other={{other}}&both={{both}}` },
      },
      { variables: [{ key: 'wsVar', value: 'from-ferry-yaml' }, { key: 'both', value: 'workspace' }] },
    );
    const first = await run(s, { environment: 'local' });
    expect(first.results.map((r) => decodeURIComponent(new URL(r.url).search))).toEqual([
      '?token=from-file',
      '?token={{token}}&ws={{wsVar}}&other={{other}}&both=workspace',
      '?other={{other}}&both=workspace&token=again',
      '?token=again&ws={{wsVar}}&other={{other}}&both=workspace',
    ]);
    expect(first.results[1]!.console).toEqual(['[null,false,null,"o","workspace"]']);
    const second = await run(s, { environment: 'local', paths: ['4 plain'] });
    expect(decodeURIComponent(new URL(second.results[0]!.url).search)).toBe('?token=again&ws=from-ferry-yaml&other=o&both=env');
  });

  it('pre-request scripts change the URL, method, headers, body and auth that are sent', async () => {
    const s = await setup({
      'requests/r.yaml': {
        name: 'r',
        url: `${peer.url}/nowhere`,
        headers: [{ key: 'X-Gone', value: '1' }],
        body: { type: 'json', text: '{"from":"file"}' },
        auth: { type: 'basic', username: 'u', password: 'p' },
        scripts: {
          preRequest: [
            `pm.request.url = '${peer.url}/echo?changed={{who}}';`,
            "pm.variables.set('who', 'script');",
            "pm.request.method = 'PUT';",
            "pm.request.headers.upsert({ key: 'X-Script', value: 'yes' });",
            "pm.request.headers.remove('X-Gone');",
            "pm.request.body.update('{\"from\":\"script\"}');",
            "pm.request.auth = { type: 'bearer', token: 'script-token' };",
          ].join('\n'),
        },
      },
    });
    const before = peer.seen.length;
    const { results } = await run(s);
    expect(results[0]).toMatchObject({ passed: true, method: 'PUT', url: `${peer.url}/echo?changed=script` });
    const seen = peer.seen[before]!;
    expect(seen.method).toBe('PUT');
    expect(seen.url).toBe('/echo?changed=script');
    expect(seen.headers['x-script']).toBe('yes');
    expect(seen.headers['x-gone']).toBeUndefined();
    expect(seen.headers.authorization).toBe('Bearer script-token');
    expect(seen.body.toString()).toBe('{"from":"script"}');
    expect(seen.headers['content-type']).toBe('application/json');
    // Nothing of it is written back to the request file.
    expect(await fs.readFile(path.join(s.temp.root, 'requests', 'r.yaml'), 'utf8')).toContain('/nowhere');
  });

  it('pm.variables.set values last the whole collection run (later requests, later iterations), as in Newman', async () => {
    const s = await setup({
      'requests/1 a.yaml': { name: 'a', seq: 1, url: `${peer.url}/echo?l={{l}}`, scripts: { preRequest: "pm.variables.set('l', (pm.variables.get('l') || '') + 'A');" } },
      'requests/2 b.yaml': { name: 'b', seq: 2, url: `${peer.url}/echo?l={{l}}`, scripts: { postResponse: "pm.variables.set('l', pm.variables.get('l') + 'B'); pm.test('sees a', () => pm.expect(pm.variables.get('l')).to.match(/^(AB)*AB$/));" } },
    });
    const before = peer.seen.length;
    const { results } = await run(s, { iterations: 2 });
    expect(results.map((r) => r.passed)).toEqual([true, true, true, true]);
    expect(peer.seen.slice(before).map((r) => r.url)).toEqual(['/echo?l=A', '/echo?l=A', '/echo?l=ABA', '/echo?l=ABA']);
    // A new run starts without them.
    const again = peer.seen.length;
    await run(s);
    expect(peer.seen[again]!.url).toBe('/echo?l=A');
  });

  it('Ctrl-C while settings.repeat waits between attempts stops at once, saying it was stopped (not timed out)', async () => {
    // The wait between attempts is longer than the test's own timeout: one the stop does not cut fails the test.
    const s = await setup({
      'requests/poll.yaml': { name: 'poll', url: `${peer.url}/echo?repeat-stop`, settings: { repeat: { condition: 'false', intervalMs: 120_000, timeoutMs: 240_000 } } },
    });
    const stop = new AbortController();
    const before = peer.seen.length;
    void peer.waitForRequest((x) => x.url.includes('repeat-stop'), before).then(() => setTimeout(() => stop.abort(), 300));
    const { results } = await run(s, { signal: stop.signal });
    expect(results[0]!.passed).toBe(false);
    expect(results[0]!.error).toMatch(/stopped before the repeat condition held \(1 attempt\)$/);
    expect(results[0]!.error).not.toMatch(/did not hold within|\.;/);
    expect(peer.seen.slice(before).filter((x) => x.url.includes('repeat-stop'))).toHaveLength(1);
  });

  it('a report that cannot be written at the end does not keep the other reports from being written', async () => {
    const s = await setup({ 'requests/a.yaml': { name: 'a', url: `${peer.url}/echo` } });
    const gone = path.join(s.temp.root, 'gone');
    const kept = path.join(s.temp.root, 'kept');
    await Promise.all([fs.mkdir(gone), fs.mkdir(kept)]);
    const sink = (file: string) => {
      const writer = new ReportFileWriter(file, `--out-${path.extname(file).slice(1)}`);
      return { write: (text: string) => writer.write(text), end: () => writer.end(), color: false };
    };
    // The first report's folder is removed during the run (after the check a CLI run makes before it).
    const removeFirst = { onEvent: (e: RunEvent) => void (e.type === 'request' && fsSync.rmSync(gone, { recursive: true })) };
    const running = run(s, { reporters: [removeFirst, createReporter('json', sink(path.join(gone, 'r.json'))), createReporter('junit', sink(path.join(kept, 'r.xml'))), createReporter('html', sink(path.join(kept, 'r.html')))] });
    await expect(running).rejects.toThrow(/^--out-json .*gone\/r\.json: during the run .*gone was moved or removed: the report was not written\. Keep the report's folder in place during the run \(or give another path\), then run again\.$/);
    expect(await fs.readFile(path.join(kept, 'r.xml'), 'utf8')).toMatch(/<testcase name="a - status 200 OK"/);
    expect(await fs.readFile(path.join(kept, 'r.html'), 'utf8')).toContain('<!DOCTYPE html>');
  });

  it('settings.repeat sends again until the condition holds', async () => {
    hits = 0;
    const s = await setup({
      'requests/poll.yaml': { name: 'poll', url: `${counterUrl}/job`, settings: { repeat: { condition: "pm.response.json().state === 'done'", intervalMs: 10, timeoutMs: 5000 } } },
      'requests/never.yaml': { name: 'never', url: `${peer.url}/status?code=503`, settings: { repeat: { intervalMs: 20, timeoutMs: 100 } } },
    });
    const { results } = await run(s);
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    expect(byName.poll).toMatchObject({ passed: true, attempts: 3, status: 200 });
    expect(byName.never!.passed).toBe(false);
    expect(byName.never!.error).toMatch(/repeat condition did not hold within 100 ms/);
  });

  it('settings.repeat with an empty condition: until the request\'s tests pass, or without tests until the status is below 400 (spec 2.7)', async () => {
    // The counter answers 202 twice, then 200.
    hits = 0;
    const tested = await setup({ 'requests/tested.yaml': { name: 'tested', url: `${counterUrl}/job`, settings: { repeat: { intervalMs: 10, timeoutMs: 5000 } }, scripts: { postResponse: test200 } } });
    expect((await run(tested)).results[0]).toMatchObject({ passed: true, attempts: 3, status: 200 });
    hits = 0;
    const untested = await setup({ 'requests/untested.yaml': { name: 'untested', url: `${counterUrl}/job`, settings: { repeat: {} } } });
    expect((await run(untested)).results[0]).toMatchObject({ passed: true, attempts: 1, status: 202 });
  });
});

describe('iterations and data files', () => {
  it('CSV columns named like Object.prototype members are variables, as in a JSON row', async () => {
    const s = await setup({});
    const csv = path.join(s.temp.root, 'proto.csv');
    await fs.writeFile(csv, '__proto__,constructor,toString\nP,C,T\n');
    const [row] = await readDataFile(csv);
    expect(Object.entries(row!)).toEqual([['__proto__', 'P'], ['constructor', 'C'], ['toString', 'T']]);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
  });

  it('CSV rows become variables, one iteration each', async () => {
    const s = await setup({ 'requests/r.yaml': { name: 'r', url: `${peer.url}/echo?user={{user}}&note={{note}}` } });
    const csv = path.join(s.temp.root, 'rows.csv');
    await fs.writeFile(csv, 'user,note\nada,"hello, world"\n"bob ""b""",x\n');
    const rows = await readDataFile(csv);
    const { results } = await run(s, { data: rows });
    expect(results.map((r) => [r.iteration, new URL(r.url).searchParams.get('user'), new URL(r.url).searchParams.get('note')])).toEqual([
      [0, 'ada', 'hello, world'],
      [1, 'bob "b"', 'x'],
    ]);
  });

  it('a CSV saved with ; between columns (Excel where the decimal mark is a comma) is read by its columns, not as one column named "user;note"', async () => {
    const s = await setup({});
    const csv = path.join(s.temp.root, 'semi.csv');
    await fs.writeFile(csv, '\uFEFFuser;price;note\r\nada;1,5;"a; b"\r\nbob;2;\r\n');
    expect(await readDataFile(csv)).toEqual([{ user: 'ada', price: '1,5', note: 'a; b' }, { user: 'bob', price: 2, note: '' }]);
    // A comma in the first line keeps commas: a ; in a column's name or value stays text.
    await fs.writeFile(csv, 'user,note;x\nada,b;c\n');
    expect(await readDataFile(csv)).toEqual([{ user: 'ada', 'note;x': 'b;c' }]);
    // One column, nothing to split.
    await fs.writeFile(csv, 'user\nada\n');
    expect(await readDataFile(csv)).toEqual([{ user: 'ada' }]);
  });

  it('JSON rows, with --iterations reusing the last row; --var wins over data', async () => {
    const s = await setup({ 'requests/r.yaml': { name: 'r', url: `${peer.url}/echo?user={{user}}&n={{n}}&fixed={{fixed}}` } });
    const file = path.join(s.temp.root, 'rows.json');
    await fs.writeFile(file, JSON.stringify([{ user: 'ada', n: 1, fixed: 'data' }, { user: 'bob', n: 2, fixed: 'data' }]));
    const { results } = await run(s, { data: await readDataFile(file), iterations: 3, vars: new Map([['fixed', 'cli']]) });
    expect(results.map((r) => new URL(r.url).search)).toEqual(['?user=ada&n=1&fixed=cli', '?user=bob&n=2&fixed=cli', '?user=bob&n=2&fixed=cli']);
  });

  it('scripts see --var values as environment values that win, as Newman shows --env-var', async () => {
    const s = await setup({
      'requests/r.yaml': {
        name: 'r',
        url: `${peer.url}/echo?token={{token}}`,
        scripts: { preRequest: "console.log(pm.environment.get('token'), pm.variables.get('token'), pm.variables.replaceIn('{{ token }}'), pm.environment.has('__proto__'));" },
      },
    }, { variables: [{ key: 'token', value: 'from-file' }] });
    const { results } = await run(s, { vars: new Map([['token', 'cli'], ['__proto__', 'p']]) });
    expect(new URL(results[0]!.url).searchParams.get('token')).toBe('cli');
    expect(results[0]!.console).toEqual(['cli cli cli true']);
  });

  it('a JSON row gives scripts its values as the file has them (numbers, objects); templates get their String(), as Newman', async () => {
    const s = await setup({
      'requests/r.yaml': {
        name: 'r',
        url: `${peer.url}/echo?n={{n}}&obj={{obj}}`,
        scripts: {
          postResponse: [
            "pm.test('number', () => pm.expect(pm.iterationData.get('n')).to.equal(1));",
            "pm.test('object', () => pm.expect(pm.iterationData.toObject().obj).to.eql({ k: [1, true] }));",
            "pm.test('legacy data', () => pm.expect(data.n).to.equal(1));",
          ].join('\n'),
        },
      },
    });
    const file = path.join(s.temp.root, 'rows.json');
    await fs.writeFile(file, JSON.stringify([{ n: 1, obj: { k: [1, true] } }]));
    const { results } = await run(s, { data: await readDataFile(file) });
    expect(results[0]!.tests.map((t) => [t.name, t.passed, t.message])).toEqual([['number', true, undefined], ['object', true, undefined], ['legacy data', true, undefined]]);
    expect(decodeURIComponent(new URL(results[0]!.url).search)).toBe('?n=1&obj=[object Object]');
  });

  it('a CSV number reaches scripts as a number, as Newman reads it; quoted fields and numbers written otherwise (0123, 1.50) stay text', async () => {
    const s = await setup({
      'requests/r.yaml': {
        name: 'r',
        url: `${peer.url}/echo?amount={{amount}}&zip={{zip}}&price={{price}}&sp={{sp}}`,
        scripts: { postResponse: "pm.test(JSON.stringify(pm.iterationData.toObject()), () => pm.expect(pm.iterationData.get('amount')).to.equal(10));" },
      },
    });
    const csv = path.join(s.temp.root, 'typed.csv');
    await fs.writeFile(csv, 'user,amount,price,neg,zip,cents,flag,quoted,sp\nann,10,1.5,-3,0123,1.50,true,"7", 8 \n');
    const { results } = await run(s, { data: await readDataFile(csv) });
    expect(results[0]!.tests.map((t) => [t.name, t.passed])).toEqual([
      ['{"user":"ann","amount":10,"price":1.5,"neg":-3,"zip":"0123","cents":"1.50","flag":"true","quoted":"7","sp":8}', true],
    ]);
    // Templates get the text as written: the zero of 0123 is kept (Newman would send 123).
    expect(new URL(results[0]!.url).search).toBe('?amount=10&zip=0123&price=1.5&sp=8');
  });

  it('bad data files are refused with the reason', async () => {
    const s = await setup({});
    const bad = path.join(s.temp.root, 'bad.json');
    await fs.writeFile(bad, '{"not": "a list"}');
    await expect(readDataFile(bad)).rejects.toThrow(/must hold a JSON array/);
    await fs.writeFile(bad, '[1]');
    await expect(readDataFile(bad)).rejects.toThrow(/item 1 is not an object/);
    const csv = path.join(s.temp.root, 'bad.csv');
    await fs.writeFile(csv, 'a,b\n1,2,3\n');
    await expect(readDataFile(csv)).rejects.toThrow(/line 2 has 3 fields/);
    // Lines are counted as written: blank lines and line breaks inside quotes too.
    await fs.writeFile(csv, 'a,b\n\n1,"x\ny"\n2,3,4\n');
    await expect(readDataFile(csv)).rejects.toThrow(/line 5 has 3 fields but the first line names 2/);
    await fs.writeFile(csv, 'a,b\n"1,2\n');
    await expect(readDataFile(csv)).rejects.toThrow(/is not valid CSV: Quote Not Closed: .*line 2\. Close the quote, or double a quote inside a quoted field/);
    await expect(readDataFile(path.join(s.temp.root, 'missing.csv'))).rejects.toThrow(/does not exist/);
  });
});

describe('reports', () => {
  it('JUnit: a suite per folder, every iteration, failures, valid against the schema', async () => {
    const s = await setup({
      'requests/Users/_folder.yaml': { name: 'Users & <Admins>' },
      'requests/Users/get.yaml': { name: 'get "one"', url: `${peer.url}/echo`, scripts: { postResponse: `${test200}\npm.test('fails', () => pm.expect('a\\u0001b').to.eql('c'));` } },
      'requests/root.yaml': { name: 'root', url: `${peer.url}/status?code=500` },
      'requests/skipped.yaml': { name: 'skipped', url: `${peer.url}/echo`, scripts: { preRequest: 'pm.execution.skipRequest();' } },
      'requests/broken.yaml': 'name: [unclosed',
    });
    let xml = '';
    let json = '';
    await run(s, { iterations: 2, reporters: [new JunitReporter((t) => void (xml += t)), new JsonReporter((t) => void (json += t))] });
    const schema = await fs.readFile(path.join(import.meta.dirname, 'fixtures', 'junit-10.xsd'), 'utf8');
    const validation = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: schema }] });
    expect(validation.errors).toEqual([]);
    expect(validation.valid).toBe(true);
    expect(xml).toContain('<testsuite name="Users &amp; &lt;Admins&gt;"');
    expect(xml).toContain('name="get &quot;one&quot; - status is 200 [iteration 1]"');
    expect(xml).toContain('name="get &quot;one&quot; - status is 200 [iteration 2]"');
    expect(xml).toMatch(/name="root - status 500 Internal Server Error \[iteration 2\]"[^>]*>\s*<failure message="status 500/);
    expect(xml).toMatch(/<skipped message="a pre-request script called skipRequest\(\)"/);
    expect(xml).toMatch(/<error message="requests\/broken.yaml/);
    expect(xml).toMatch(/time="\d+\.\d{3}"/);

    const report = JSON.parse(json);
    expect(report.version).toBe(1);
    expect(report.summary).toMatchObject({ requests: 8, iterations: 2 });
    expect(Object.keys(report.results[0])).toEqual(expect.arrayContaining(['path', 'name', 'kind', 'method', 'url', 'status', 'durationMs', 'error', 'iteration', 'tests']));
  });
});

describe('secret variables without a value on this computer', () => {
  it('an environment id the shell would split is given to -e in quotes', async () => {
    const s = await setup({
      'environments/Staging- EU.yaml': { name: 'Staging: EU', variables: [{ key: 'token', value: '', secret: true }] },
      'requests/a.yaml': { name: 'a', url: `${peer.url}/echo?t={{token}}` },
    });
    const { events } = await run(s, { environment: 'Staging- EU' });
    expect(events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual([
      'secret variable with no value on this computer, sent as written ({{token}}): token (environment Staging: EU). Set it with `ferry secret set NAME` (-e "Staging- EU" for the environment\'s), or give it with --var NAME=VALUE (in CI, from a secret of the CI system).',
    ]);
  });

  it('a run that uses one is warned once, naming how to give it (a CI machine has no secret store); one given some way, or not used, is not', async () => {
    const s = await setup(
      {
        'environments/ci.yaml': {
          name: 'CI',
          variables: [
            { key: 'token', value: '', secret: true },
            { key: 'stored', value: '', secret: true },
            { key: 'unused', value: '', secret: true },
            { key: 'fromRow', value: '', secret: true },
          ],
        },
        'requests/F/_folder.yaml': { headers: [{ key: 'X-Stored', value: '{{stored}}' }] },
        'requests/F/a.yaml': { name: 'a', url: `${peer.url}/echo?t={{ token }}&r={{fromRow}}&k={{apiKey}}` },
        'requests/F/b.yaml': { name: 'b', url: `${peer.url}/echo?t={{token}}` },
      },
      { variables: [{ key: 'apiKey', value: '', secret: true }] },
    );
    await s.data.secrets.set('ci', 'stored', 'kept-here');
    const { events } = await run(s, { environment: 'ci', iterations: 2, data: [{ fromRow: 'r1' }] });
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual([
      'secret variables with no value on this computer, sent as written ({{token}}): token (environment CI), apiKey (ferry.yaml). Set each with `ferry secret set NAME` (-e ci for the environment\'s), or give them with --var NAME=VALUE (in CI, from a secret of the CI system).',
    ]);
    // In the words of the face that shows it: the app has no -e or --var, an agent asks the user.
    const inApp = await run(s, { environment: 'ci', data: [{ fromRow: 'r1' }], face: 'app' });
    expect(inApp.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual([
      'secret variables with no value on this computer, sent as written ({{token}}): token (environment CI), apiKey (ferry.yaml). Type their values in the variables dialog ({ } for ferry.yaml\'s, ✎ beside the environment for an environment\'s): kept on this computer, never in the file.',
    ]);
    const byAgent = await run(s, { environment: 'ci', data: [{ fromRow: 'r1' }], face: 'agent' });
    expect((byAgent.events.find((e) => e.type === 'warning') as { message: string }).message).toMatch(/\. Ask the user to set them \(`ferry secret set NAME`, or the app's variables dialog\), or give them in the tool's variables\.$/);
    // No environment chosen: the variables only environments define, and how to choose one, by face.
    const noEnv = async (face: 'app' | 'agent') => (await run(s, { data: [{ fromRow: 'r1' }], face })).events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(await noEnv('app')).toContain('no environment chosen, and {{stored}}, {{token}} are defined only in environment ci: sent as written. Choose one in the environment menu.');
    expect(await noEnv('agent')).toContain("no environment chosen, and {{stored}}, {{token}} are defined only in environment ci: sent as written. Choose one: the tool's environment argument (ci), or ask the user which.");
    const given = await run(s, { environment: 'ci', vars: new Map([['token', 'x'], ['apiKey', 'y']]), data: [{ fromRow: 'r1' }] });
    expect(given.events.filter((e) => e.type === 'warning')).toEqual([]);
    // A login request whose script sets the token for the next ones: not warned about.
    await s.temp.write('requests/F/0 login.yaml', { name: 'login', seq: -1, url: `${peer.url}/echo`, scripts: { postResponse: 'pm.environment.set("token", "t"); pm.collectionVariables.set(`apiKey`, "k");' } });
    const login = await run({ ...s, ws: await openWorkspace(s.temp.root) }, { environment: 'ci', data: [{ fromRow: 'r1' }] });
    expect(login.events.filter((e) => e.type === 'warning')).toEqual([]);
  });
});

describe('a data row whose value is null for a secret variable', () => {
  it('hides the secret as it hides any value (as Newman), and says so; a null gives no value, so a secret with none is warned about', async () => {
    const s = await setup({
      'environments/ci.yaml': {
        name: 'CI',
        variables: [
          { key: 'token', value: '', secret: true },
          { key: 'none', value: '', secret: true },
        ],
      },
      'requests/a.yaml': { name: 'a', url: `${peer.url}/echo?t={{token}}&n={{none}}`, scripts: { postResponse: "console.log(pm.environment.get('token'), JSON.stringify(pm.variables.get('token')))" } },
    });
    await s.data.secrets.set('ci', 'token', 'kept-here');
    const rows: Record<string, null | string>[] = [{ token: null, none: null }, { token: 'from-row', none: null }, { token: null }];
    const { events, results } = await run(s, { environment: 'ci', iterations: 3, data: rows });
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual([
      'secret variable with no value on this computer, sent as written ({{none}}): none (environment CI). Set it with `ferry secret set NAME` (-e ci for the environment\'s), or give it with --var NAME=VALUE (in CI, from a secret of the CI system).',
      'data file rows give secret variable null, sent as written there ({{token}}), the value on this computer not used (a null in a row hides every value of its name, as in Newman): token (environment; rows 1, 3). Leave the name out of those rows to use the secret\'s value.',
    ]);
    // What went out: the null rows' {{token}} as written; the row's own value where it has one.
    expect(results.map((r) => decodeURIComponent(new URL(r.url).search))).toEqual(['?t={{token}}&n={{none}}', '?t=from-row&n={{none}}', '?t={{token}}&n={{none}}']);
    // Scripts read the environment's secret and the row's null, as Newman's read an environment value and the null.
    expect(results.map((r) => r.console[0])).toEqual(['*** null', '*** "from-row"', '*** null']);

    // --var wins over the row: nothing hidden, nothing said about it.
    const given = await run(s, { environment: 'ci', vars: new Map([['token', 'x'], ['none', 'y']]), data: rows });
    expect(given.events.filter((e) => e.type === 'warning')).toEqual([]);
    // Rows that leave the name out use the secret's value: nothing to say.
    const leftOut = await run(s, { environment: 'ci', data: [{ none: 'n' }] });
    expect(leftOut.events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(decodeURIComponent(new URL(leftOut.results[0]!.url).search)).toBe('?t=***&n=n');
    // Many rows: the first five named; with fewer iterations (-n), only the rows they read.
    const eight = Array.from({ length: 8 }, () => ({ token: null, none: 'n' }));
    const many = await run(s, { environment: 'ci', data: eight });
    expect((many.events.find((e) => e.type === 'warning') as { message: string }).message).toContain('token (environment; rows 1, 2, 3, 4, 5 and 3 more)');
    const two = await run(s, { environment: 'ci', data: eight, iterations: 2 });
    expect((two.events.find((e) => e.type === 'warning') as { message: string }).message).toContain('token (environment; rows 1, 2). Leave');
    // No environment chosen: a null gives the environment's variable no value either.
    const noEnv = await run(s, { data: [{ token: null }] });
    expect(noEnv.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message)).toEqual([expect.stringMatching(/^no environment chosen, and \{\{token\}\}, \{\{none\}\} are defined only in environment ci: sent as written\./)]);
  });
});

describe('the JSON report schema (docs/json-report.schema.json)', () => {
  it('real reports match it: tests, failures, errors, skipped, broken files, repeats, bodies, iterations, a stopped run; a report that breaks it does not', async () => {
    const schema = JSON.parse(await fs.readFile(path.join(import.meta.dirname, '..', '..', 'docs', 'json-report.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    hits = 0;
    const s = await setup({
      'requests/Users/get.yaml': { name: 'get', url: `${peer.url}/echo`, scripts: { postResponse: `${test200}\nconsole.log('seen');\npm.test('fails', () => pm.expect(1).to.eql(2));\npm.test.skip('later', () => {});` } },
      'requests/root.yaml': { name: 'root', url: `${peer.url}/status?code=500` },
      'requests/poll.yaml': { name: 'poll', url: counterUrl, settings: { repeat: { condition: "pm.response.json().state === 'done'", intervalMs: 1, timeoutMs: 5000 } } },
      'requests/skipped.yaml': { name: 'skipped', url: `${peer.url}/echo`, scripts: { preRequest: 'pm.execution.skipRequest();' } },
      'requests/refused.yaml': { name: 'refused', url: `http://127.0.0.1:${await closedPort()}/` },
      'requests/throws.yaml': { name: 'throws', url: `${peer.url}/echo`, scripts: { postResponse: "throw new Error('boom');" } },
      'requests/broken.yaml': 'name: [unclosed',
    });
    let full = '';
    await run(s, { iterations: 2, responses: { maxBodyBytes: 65536 }, reporters: [new JsonReporter((t) => void (full += t), { bodies: true })] });
    const report = JSON.parse(full);
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true);
    // What the schema was checked against: each kind of entry is there.
    expect(report.results.some((r: { attempts?: number }) => (r.attempts ?? 0) > 1)).toBe(true);
    expect(report.results.some((r: { response?: unknown }) => r.response)).toBe(true);
    expect(report.results.some((r: { skipped: string | null }) => r.skipped)).toBe(true);
    expect(report.results.some((r: { tests: Array<{ skipped?: boolean }> }) => r.tests.some((t) => t.skipped))).toBe(true);

    // A run stopped by SIGTERM as `ferry run` stops it.
    const stop = new AbortController();
    let stopped = '';
    await run(s, { paths: ['Users'], signal: stop.signal, reporters: [{ onEvent: (e) => void (e.type === 'request' && stop.abort(new RunStop('SIGTERM'))) }, new JsonReporter((t) => void (stopped += t))] });
    const partial = JSON.parse(stopped);
    expect(partial.summary).toMatchObject({ interrupted: true, stoppedBy: 'SIGTERM' });
    expect(validate(partial), JSON.stringify(validate.errors)).toBe(true);

    // The schema holds the report to its shape: a renamed or mistyped field fails it.
    expect(validate({ ...report, summary: { ...report.summary, failedRequests: '1' } })).toBe(false);
    const { status: _status, ...withoutStatus } = report.results[0];
    expect(validate({ ...report, results: [withoutStatus] })).toBe(false);
  });
});

describe('the data folder', () => {
  it('a save that fails at the end of the run is reported, not dropped', async () => {
    const s = await setup({ 'requests/1.yaml': { name: 'one', url: `${peer.url}/echo` } });
    // A disk that refuses the write (root ignores file modes, so the failure is simulated here).
    s.data.addHistory = async () => {
      throw new Error('ENOSPC: no space left on device');
    };
    const { events, results } = await run(s);
    expect(results[0]!.passed).toBe(true);
    const warnings = events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toEqual(['the history of this run could not be saved in the data folder: ENOSPC: no space left on device']);
  });

  it('pm.request.url.variables reads and changes the path parameters (:id), as in Postman; the send uses the new value', async () => {
    const s = await setup({
      'requests/r.yaml': {
        name: 'r', url: `${peer.url}/echo/:id/:part`, pathParams: [{ key: 'id', value: '7' }, { key: 'part', value: '{{p}}' }],
        scripts: {
          preRequest: "console.log(JSON.stringify([pm.request.url.variables.toObject(), pm.request.url.variables.get('id'), pm.request.url.variables.count()])); pm.request.url.variables.upsert({ key: 'id', value: '9' });",
          // After the send the URL has the values, and (as Newman's) no longer lists them as variables.
          postResponse: "console.log(pm.request.url.getPath(), String(pm.request.url.variables.get('id')));",
        },
      },
    }, { variables: [{ key: 'p', value: 'x' }] });
    const { results } = await run(s);
    expect(results[0]!.console).toEqual(['[{"id":"7","part":"{{p}}"},"7",2]', '/echo/9/x undefined']);
    expect(new URL(results[0]!.url).pathname).toBe('/echo/9/x');
  });

  it('after the send, pm.request has the form rows, GraphQL fields and auth as sent: a dynamic value the server got, a switched-off row filled', async () => {
    const log = "console.log(JSON.stringify(pm.request.body)); console.log(JSON.stringify(pm.request.toJSON().auth || null));";
    const s = await setup({
      'requests/1 form.yaml': {
        name: 'form', seq: 1, method: 'POST', url: `${peer.url}/echo`,
        body: { type: 'formUrlencoded', form: [{ key: 'id', value: '{{$guid}}' }, { key: 'k{{v}}', value: '{{v}}-x' }, { key: 'off', value: '{{v}}', enabled: false }] },
        auth: { type: 'apiKey', key: 'X-{{v}}', value: '{{$guid}}', location: 'header' },
        scripts: { postResponse: log },
      },
      'requests/2 multipart.yaml': {
        name: 'multipart', seq: 2, method: 'POST', url: `${peer.url}/echo`,
        body: { type: 'multipart', multipart: [{ key: 'n', value: '{{$randomInt}}' }, { key: 'f{{v}}', value: 'a{{v}}' }] },
        scripts: { postResponse: log },
      },
      'requests/3 graphql.yaml': {
        name: 'graphql', seq: 3, method: 'POST', url: `${peer.url}/echo`,
        body: { type: 'graphql', graphql: { query: 'query { a(x: "{{v}}", id: "{{$guid}}") }', variables: '{"v":"{{v}}"}' } },
        scripts: { postResponse: log },
      },
    }, { variables: [{ key: 'v', value: 'val' }] });
    const from = peer.seen.length;
    const { results } = await run(s);
    const [form, multipart, graphql] = results.map((r) => r.console.map((line) => JSON.parse(line) as Record<string, unknown>));
    const sent = peer.seen.slice(from);
    // The form's rows as the server got them (the same guid), the switched-off row filled too.
    const formSent = new URLSearchParams(sent[0]!.body.toString('utf8'));
    expect(form![0]).toEqual({ mode: 'urlencoded', urlencoded: [{ key: 'id', value: formSent.get('id') }, { key: 'kval', value: 'val-x' }, { disabled: true, key: 'off', value: 'val' }] });
    expect(formSent.get('id')).toMatch(/^[0-9a-f-]{36}$/);
    // The auth's settings filled (a dynamic value in them is filled again, not the one sent).
    expect(form![1]).toMatchObject({ type: 'apikey', apikey: [{ key: 'key', value: 'X-val' }, { key: 'value' }, { key: 'in', value: 'header' }] });
    expect(sent[0]!.headers['x-val']).toMatch(/^[0-9a-f-]{36}$/);
    const n = /name="n"\r\n\r\n(\d+)\r\n/.exec(sent[1]!.body.toString('utf8'))![1];
    expect(multipart![0]).toMatchObject({ mode: 'formdata', formdata: [{ key: 'n', value: n }, { key: 'fval', value: 'aval' }] });
    const gql = JSON.parse(sent[2]!.body.toString('utf8')) as { query: string };
    expect(graphql![0]).toMatchObject({ mode: 'graphql', graphql: { query: gql.query, variables: '{"v":"val"}' } });
    expect(gql.query).toMatch(/^query \{ a\(x: "val", id: "[0-9a-f-]{36}"\) \}$/);
  });

  it('history is written once per run, cookies are kept between runs', async () => {
    const s = await setup({
      'requests/1.yaml': { name: 'set', seq: 1, url: `${peer.url}/cookies/set` },
      'requests/2.yaml': { name: 'echo', seq: 2, url: `${peer.url}/echo` },
    });
    await run(s);
    const history = await s.data.readHistory();
    expect(history.map((h) => h.path)).toEqual(['1.yaml', '2.yaml']);
    const before = peer.seen.length;
    await run(s, { paths: ['2'] });
    expect(peer.seen[before]!.headers.cookie).toBe('session=abc; theme=dark');
  });
});
