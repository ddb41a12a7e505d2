/**
 * The scripts of real Postman collections (the shared corpus), through the whole chain:
 * `ferry init`, `ferry import` of the export file, the imported URLs pointed at local servers
 * through the workspace API, then `ferry run -r cli,json,junit`. Every `pm.test` and legacy
 * `tests[...]` result must show, per test and under the script's own name, in all three reports;
 * what the local servers answer as the collection expects must pass; what Ferry cannot do (or
 * does differently) must fail with a message that says so, never silently.
 *
 * All traffic stays on loopback: postman-echo.com and httpbin.org become the local echo server
 * (HTTPS, self-signed, hence `-k`), newman's raw-echo server on port 4041 becomes a local one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoServer, startEchoServer, startRawEchoServer, testCertificate } from '../support/servers/index.js';
import { makeWorkspace } from '../runner/workspace.js';
import { ferry } from '../support/cli.js';
import { runCorpus as runCorpusWith, verdicts, type JsonReport } from './corpus-harness.js';

let echo: EchoServer;
let raw: EchoServer;
beforeAll(async () => {
  [echo, raw] = await Promise.all([startEchoServer({ tls: await testCertificate() }), startRawEchoServer()]);
});
afterAll(() => Promise.all([echo.close(), raw.close()]));

/** Hosts the collections name, as written in their URLs, and the local server standing in for each. */
function localStandIns(): [string, string][] {
  return [
    ['postman-echo.com', `127.0.0.1:${echo.port}`],
    ['httpbin.org', `127.0.0.1:${echo.port}`],
    ['localhost:4041', `127.0.0.1:${raw.port}`],
    ['127.1:4041', `127.1:${raw.port}`],
  ];
}

/** The collections' hosts go to the local servers of this file. */
const runCorpus = (collection: string, extraArgs: string[] = []) => runCorpusWith(collection, { hosts: localStandIns(), servers: [echo, raw] }, extraArgs);

// ---- the collections ---------------------------------------------------------------------------
describe('Postman corpus collections through ferry import and ferry run', () => {
  it('v20-multi-level-folders: legacy tests[...] of every request pass, in tree order across folders', async () => {
    const run = await runCorpus('v20-multi-level-folders');
    expect(run.code).toBe(0);
    expect(run.json.results.map((r) => r.name)).toEqual(['F1.R1', 'F1.R2', 'F1.R3', 'F2.F3.R1', 'F2.R1', 'R1']);
    for (const r of run.json.results) {
      expect(verdicts(r)).toEqual([['Status code is 200', true], ['Request executed in correct order', true]]);
    }
    // F1.R1's test is `getEnvironmentVariable("count") === 0`: the number its pre-request script
    // set must reach it as a number (the legacy API leaves 0 unconverted, as Postman's did).
    expect(run.json.summary).toMatchObject({ requests: 6, failedRequests: 0, tests: 12, failedTests: 0 });
    expect(run.junit).toHaveLength(12);
    expect(run.served).toEqual(Array.from({ length: 6 }, () => ({ method: 'GET', target: '/get' })));
    expect(run.stdout).toMatch(/multi-level-folders-v2 \/ F2 \/ F2\.F3\/\n✓ F2\.F3\.R1/);
  });

  it('v20-set-next-request: the run follows setNextRequest through the loop and stops on null', async () => {
    const run = await runCorpus('v20-set-next-request');
    expect(run.code).toBe(0);
    // `{{method}}` in the URL comes from postman.setEnvironmentVariable, with no environment chosen.
    expect(run.json.results.map((r) => [r.name, new URL(r.url).pathname])).toEqual([
      ['post', '/post'], ['method', '/get'], ['html', '/type/html'], ['method', '/headers'],
    ]);
    expect(run.json.results.flatMap(verdicts)).toEqual([['Success', true]]);
    expect(run.served.map((x) => `${x.method} ${x.target}`)).toEqual(['POST /post', 'GET /get', 'GET /type/html', 'GET /headers']);
    expect(run.junit.map((c) => c.name)).toEqual(['post - status 200 OK', 'method - status 200 OK', 'html - status 200 OK', 'method - Success']);
    expect(run.stdout).toContain('│ Setting next request to "html"');
    expect(run.stdout.indexOf('✓ html ')).toBeLessThan(run.stdout.lastIndexOf('✓ method '));
  });

  it('v20-sandbox-legacy-apis: legacy globals, xml2Json, lodash, tv4, CryptoJS, dynamic variables pass', async () => {
    const run = await runCorpus('v20-sandbox-legacy-apis');
    expect(run.code).toBe(0);
    const r1 = run.byName('r1');
    expect(verdicts(r1)).toEqual([
      ['xml2Json', true], ['GetResponseHeader', true], ['GetResponseCookie', true], ['Correct global', true],
      ['Lodash working', true], ['SugarJS working', true], ['tv4 present', true], ['CryptoJS md5', true],
    ]);
    // tv4 (the JSON-schema validator Postman's sandbox still offers) is there, as in Newman.
    expect(r1.passed).toBe(true);
    expect(r1.error).toBeNull();
    expect(r1.console).toContain('{"food":{"key":"Homestyle Breakfast","value":"950"}}');
    // The jar's cookies for the URL, written as Newman writes them.
    expect(r1.console.find((l) => l.startsWith('RESCOOK: '))).toBe('RESCOOK:  [{"name":"sails.sid","expires":null,"maxAge":0,"domain":"127.0.0.1","path":"/","secure":false,"httpOnly":true,"hostOnly":true,"value":"abc"}]');

    // r2 posts {{$guid}}, {{$timestamp}}, {{$randomInt}} and the globals/environment r1 set.
    const r2 = run.byName('r2');
    expect(r2.passed).toBe(true);
    expect(r2.tests.map((t) => t.name)).toEqual([
      'Status code is 200', expect.stringMatching(/^Correct GUID: [0-9a-f-]{36}$/), expect.stringMatching(/^Correct Random: \d+$/),
      expect.stringMatching(/^Correct Timestamp: \d{10}$/), 'Correct global', 'Correct global2', 'Correct envVar', 'Correct envVar2',
    ]);
    for (const name of ['r3', 'r4', 'delete', 'head', 'options', 'r2 copy', 'BasicAuth', 'DigestAuth']) {
      expect(run.byName(name).passed, name).toBe(true);
      expect(run.byName(name).tests.every((t) => t.passed), name).toBe(true);
    }
    expect(verdicts(run.byName('head'))).toEqual([['Status code is 200', true], ['Body is correct', true]]);
    // Only the innermost placeholder of `{{name{{i}}}}` is filled (spec 8.2 rule 6); the request has no tests.
    expect(run.byName('Recursive Res').url).toMatch(/\/get\?a=\{\{name1\}\}$/);
    expect(run.json.summary).toMatchObject({ requests: 11, failedRequests: 0, failedTests: 0 });
  });

  it('v20-postman-echo: auth (OAuth 1.0 too), cookies, headers, methods and utilities pass; the draft OAuth 2.0 requests fail clearly', async () => {
    const run = await runCorpus('v20-postman-echo');
    expect(run.code).toBe(1);
    const failing = ['OAuth2.0 Get Access Token', 'OAuth2.0 Get Resource'];
    for (const r of run.json.results.filter((x) => !failing.includes(x.name))) {
      expect(r.error, r.name).toBeNull();
      expect(r.tests.length, r.name).toBeGreaterThan(0);
      expect(r.tests.filter((t) => !t.passed), r.name).toEqual([]);
    }
    expect(verdicts(run.byName('DigestAuth Success'))).toEqual([['response code is 200', true], ['body contains authenticated', true]]);
    expect(verdicts(run.byName('Delete Cookies'))).toEqual([
      ['Status code is 200', true], ['Body contains key cookies', true], ['Body does not contain cookie foo2', true],
    ]);
    expect(verdicts(run.byName('GZip Compressed Response'))).toEqual([
      ['response code is 200', true], ['Body contains gzipped', true], ['Body contains headers', true], ['Body contains method', true],
    ]);

    // The echo server recomputes the OAuth 1.0 signature (RFC 5849) with the published secret.
    expect(verdicts(run.byName('OAuth1.0 Verify Signature'))).toEqual([['response code is 200', true], ['Body contains status pass', true]]);
    // The local echo server has no OAuth 2.0 routes: a 404, and each test fails under its own name.
    expect(run.byName('OAuth2.0 Get Access Token').status).toBe(404);
    expect(verdicts(run.byName('OAuth2.0 Get Access Token'))).toEqual([
      ['response code is 200', false], ['body has access token', false], ['body has bearer type', false],
    ]);
    expect(run.json.summary).toMatchObject({ requests: 22, failedRequests: 2, failedTests: 6 });
    expect(run.stdout).toMatch(/Failures\n {2}1\. Postman Echo \(V2\)\/\[draft\] Auth- OAuth2\.0\/OAuth2\.0 Get Access Token\.yaml\n {5}response code is 200/);
  });

  it('v21-url-edge-cases: URL parsing and encoding cases pass or fail each with a clear message', async () => {
    // `--var` wins over the scripts' pm.variables.set: the host and port they set go local.
    const run = await runCorpus('v21-url-edge-cases', ['--var', 'host.name=127.0.0.1', '--var', `:p=${echo.port}`]);
    expect(run.code).toBe(1);
    expect(run.importNotes.join('\n')).toMatch(/The request setting disableUrlEncoding is not imported .*whatwg-url\/Disabled Encoding\/query encoding/);
    const passing = [
      'reserved chars in variables', '// in protocol', 'multiple ???', 'multiple &&&', 'multiple : and @ in auth',
      'retain ? in empty query param', 'retain & in empty query params', 'retain && in empty query params',
      'retain &foo in query param', 'retain foo& in query param', 'disabled query param', 'params with empty key or value',
      'path unicode characters', 'path pre-encoded', 'query unicode characters', 'query pre-encoded',
      // Query parts with line breaks, `&` and `#` are encoded as Postman sends them.
      'newlines', 'params with & and #',
    ];
    for (const name of passing) {
      const r = run.byName(name);
      expect(r.error, name).toBeNull();
      expect(r.passed, name).toBe(true);
      // The collection-level pm.test.skip shows as skipped, named with pm.info.requestName.
      expect(verdicts(r), name).toEqual([[`Status code is 200 for "${name}"`, 'skipped'], [expect.stringMatching(/^Request (URL|Payload)$/), true]]);
    }
    // Redirects (httpbin.org/redirect-to, local here) are followed; their tests are pm.test.skip.
    const redirects = run.json.results.filter((x) => x.path.includes('/On Redirect/'));
    expect(redirects.length).toBeGreaterThan(0);
    for (const r of redirects) {
      expect(r.passed).toBe(true);
      expect(r.tests.every((t) => t.skipped)).toBe(true);
    }

    // Where Ferry differs from Postman, or the local server cannot be what the script expects:
    const failed = (name: string) => {
      const r = run.byName(name);
      expect(r.passed, name).toBe(false);
      return r;
    };
    // Only the innermost placeholder counts (spec 8.2 rule 6): `{{host.{{one}}}}` leaves `{{host.1}}`.
    expect(failed('nested variables').error).toMatch(/the URL still holds \{\{host\.1\}\} where the host should be/);
    const message = (name: string, test: string) => failed(name).tests.find((t) => t.name === test)?.message;
    // A blank raw URL beside structured parts: the parts win, as in Postman (issue 21), and path
    // ["", "get"] joins to `//get`, which is not the local echo's `/get` route (no `url` in its answer).
    expect(failed('\\\\ in path').error).toBeNull();
    expect(message('\\\\ in path', 'Request URL')).toBe("expected undefined to equal 'https://httpbin.org/get'");
    // WHATWG URL parsing removes `.` path segments (Postman keeps them).
    expect(message('Encoding/path encoding', 'Request Payload')).toMatch(/^expected 'GET \/%20\/!\/%22.* to include 'GET \/%20\/!\/%22/);
    // The script wants newman's server on port 4041 and a `Host` header spelled so.
    expect(message('IP shorthands', 'Request Payload')).toMatch(/to include 'Host: 127\.0\.0\.1:4041'$/);
    // disableUrlEncoding is not imported (the import said so): Ferry encodes `"`, `<`, `>`.
    const disabled = run.json.results.filter((r) => r.path.includes('/Disabled Encoding/'));
    expect(disabled.map((r) => [r.name, r.passed])).toEqual([['path encoding', false], ['query encoding', false]]);
    expect(disabled[1]!.tests[1]!.message).toMatch(/^expected 'GET \/\?q=%22%27%3C=%3E/);

    expect(run.json.summary).toMatchObject({ requests: 26, failedRequests: 6 });
    expect(run.junit.filter((c) => c.skipped).length).toBe(run.json.results.reduce((n, r) => n + r.tests.filter((t) => t.skipped).length, 0));
  });

  it('v21-pm-sendrequest: the unavailable pm.sendRequest fails with its name; the test before it still counts', async () => {
    const run = await runCorpus('v21-pm-sendrequest');
    expect(run.code).toBe(1);
    expect(run.importNotes).toContain(
      "Scripts use sendRequest, which Ferry's script API does not have; they will fail when run: Nested request in test/Nested request test (post-response).",
    );
    const r = run.byName('Nested request test');
    expect(verdicts(r)).toEqual([['Status code is 200', true]]);
    expect(r.error).toMatch(/^requests\/Nested request in test\/Nested request test\.yaml: postResponse: Error: pm\.sendRequest is not available in Ferry/);
    expect(run.junit.map((c) => [c.name, Boolean(c.error), Boolean(c.failure)])).toEqual([
      ['Nested request test', true, false],
      ['Nested request test - Status code is 200', false, false],
    ]);
    expect(run.stdout).toMatch(/1 request, 1 failed\n {2}1 test\n/);
  });
});

// ---- the fixes these runs called for, each on its own --------------------------------------
/** Runs a hand-written workspace (no environment) with `-r json`; returns the exit code and report. */
async function runSmall(files: Record<string, unknown>): Promise<{ code: number; report: JsonReport }> {
  const temp = await makeWorkspace(files);
  process.env.FERRY_DATA_DIR = temp.dataDir;
  try {
    const run = await ferry(['-w', temp.root, 'run', '-k', '-r', 'json']);
    return { code: run.code, report: JSON.parse(run.stdout) as JsonReport };
  } finally {
    await temp.cleanup();
  }
}

const passedTests = (...names: string[]) => names.map((name) => ({ name, passed: true, message: null }));

describe('fixes found by running the corpus', () => {
  it('runner: values scripts set keep their type for later scripts of the run, and environment values fill {{ }} with no environment chosen', async () => {
    const { code, report } = await runSmall({
      'requests/a set.yaml': {
        name: 'a set',
        url: `${echo.url}/get`,
        scripts: { preRequest: "pm.environment.set('path', 'headers'); pm.environment.set('n', 0); pm.collectionVariables.set('flag', true); pm.globals.set('list', [1, 'two']);" },
      },
      'requests/b use.yaml': {
        name: 'b use',
        seq: 1,
        url: `${echo.url}/{{path}}`,
        scripts: {
          postResponse: [
            "pm.test('number kept', () => pm.expect(pm.environment.get('n')).to.equal(0));",
            "pm.test('boolean kept', () => pm.expect(pm.collectionVariables.get('flag')).to.equal(true));",
            "pm.test('array kept', () => pm.expect(pm.globals.get('list')).to.eql([1, 'two']));",
          ].join('\n'),
        },
      },
    });
    expect(report.results[1]!.url).toBe(`${echo.url}/headers`);
    expect(report.results[1]!.tests).toEqual(passedTests('number kept', 'boolean kept', 'array kept'));
    expect(code).toBe(0);
  });

  it('request: credentials in the URL go as Basic auth, `https:\\\\host` is https://host, a bare `?` is sent', async () => {
    const { code, report } = await runSmall({
      'requests/r.yaml': {
        name: 'r',
        url: `https:\\\\us%40r:p%40ss@127.0.0.1:${echo.port}/get?`,
        scripts: {
          postResponse: [
            "pm.test('URL credentials as Basic', () => pm.expect(pm.response.json().headers.authorization).to.equal('Basic ' + btoa('us@r:p@ss')));",
            "pm.test('bare ? sent', () => pm.expect(pm.response.json().url).to.equal('https://postman-echo.com/get?'));",
          ].join('\n'),
        },
      },
      'requests/s.yaml': {
        name: 's',
        seq: 1,
        url: `https://us:pw@127.0.0.1:${echo.port}/get`,
        auth: { type: 'bearer', token: 'tok' },
        scripts: { postResponse: "pm.test('explicit auth wins', () => pm.expect(pm.response.json().headers.authorization).to.equal('Bearer tok'));" },
      },
    });
    expect(report.results.map((r) => r.url)).toEqual([`https://127.0.0.1:${echo.port}/get?`, `https://127.0.0.1:${echo.port}/get`]); // credentials not shown
    expect(report.results.flatMap((r) => r.tests)).toEqual(passedTests('URL credentials as Basic', 'bare ? sent', 'explicit auth wins'));
    expect(code).toBe(0);
  });
});
