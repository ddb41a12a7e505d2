/**
 * The same collection and environment run through Newman (Postman's runner, from node_modules) and
 * through `ferry import` + `ferry run`, against one loopback echo server that records every
 * request: what each sends must be the same, request by request (method, URL, headers, body).
 * The cases are the ones found to differ: bodies Postman does not send (pruned from GET, empty,
 * every form row switched off), `&`, `#` and line breaks in query parts, a repeated header, and a
 * variable given twice in the environment and in the collection (the last one is used).
 * A second collection runs scripts across the `pm` API with a CSV data file: both must report the
 * same requests in the same order, the same tests (names, which hold the values scripts read, and
 * verdicts and messages), and send the same URLs and bodies.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { importedWorkspace, newmanConsole } from '../support/newman.js';
import { listenLoopback, type Listening } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

interface NewmanExecution {
  item: { name: string };
  assertions?: { assertion: string; skipped?: boolean; error?: { message: string } }[];
  testScript?: { error?: { message: string } }[];
  prerequestScript?: { error?: { message: string } }[];
}
interface NewmanRun {
  on(event: 'done', fn: (error: Error | null, summary: { run: { failures: unknown[]; executions: NewmanExecution[] } }) => void): NewmanRun;
}
const newman = createRequire(import.meta.url)('newman') as { run(options: Record<string, unknown>): NewmanRun };

/** `headers`: as sent, in their order; `added`: Accept, Host and Connection (below), sorted. */
interface Seen { item: string; method: string; url: string; headers: string[]; added: string[]; body: string }

/**
 * Left out of the comparison: headers each client adds with values of its own (User-Agent,
 * Accept-Encoding, Newman's Postman-Token and Cache-Control), Content-Length (a multipart body's
 * length follows each client's boundary; the bodies are compared, the boundary aside), the item tag.
 */
const OWN_HEADERS = /^(user-agent|accept-encoding|postman-token|cache-control|content-length|x-item):/;
/**
 * Headers both clients add with the same values, each in its own place: Ferry's HTTP client
 * (undici) writes Host and Connection before all others, Newman's (Node's http) after them, and
 * Newman writes a form body's Content-Type after its Accept, Ferry before. Compared by value,
 * apart from the rest, whose order (the request's own headers, a repeated one) is compared.
 */
const ADDED_HEADERS = /^(host|connection|accept):/;

let server: http.Server;
let listening: Listening;
const seen: Seen[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = req.rawHeaders;
      const lines = raw.flatMap((name, i) => (i % 2 === 0 ? [`${name.toLowerCase()}: ${raw[i + 1]}`] : []));
      const boundary = /boundary=(\S+)/.exec(String(req.headers['content-type'] ?? ''))?.[1];
      let body = Buffer.concat(chunks).toString('utf8');
      if (boundary) body = body.split(boundary).join('BOUNDARY');
      seen.push({
        item: String(req.headers['x-item']),
        method: req.method!,
        url: req.url!,
        headers: lines.filter((h) => !OWN_HEADERS.test(h) && !ADDED_HEADERS.test(h)).map((h) => h.replace(/boundary=\S+/, 'boundary=BOUNDARY')),
        added: lines.filter((h) => ADDED_HEADERS.test(h)).sort(),
        body,
      });
      // What scripts read: the request as received, a few typed values, cookies and a repeated header.
      const query = Object.fromEntries(new URL(req.url!, 'http://x').searchParams);
      // A cookie only from /resp (of the scripted collection): the first test compares every header sent.
      const cookie: [string, string][] = req.url === '/resp' ? [['Set-Cookie', 'sess=abc; Path=/resp']] : [];
      res.writeHead(200, [['Content-Type', 'application/json'], ...cookie, ['X-Num', '42'], ['X-Multi', 'a'], ['X-Multi', 'b']]);
      res.end(JSON.stringify({ method: req.method, query, body, n: 1.5, arr: [1, 2, 3], nested: { a: { b: 'c' } }, nul: null }));
    });
  });
  listening = await listenLoopback(server, 'http');
});
afterAll(async () => {
  await listening.close();
});

function collection(base: string) {
  const item = (name: string, request: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    name, ...extra, request: { ...request, header: [...((request.header as unknown[]) ?? []), { key: 'X-Item', value: name }] },
  });
  const url = (p: string, query: { key: string; value: string | null }[] = []) => ({ raw: `${base}/${p}`, protocol: 'http', host: ['127', '0', '0', '1'], port: String(listening.port), path: [p], query });
  return {
    info: { name: 'Parity', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'cv', value: 'first' }, { key: 'cv', value: 'last' }],
    item: [
      item('get with body', { method: 'GET', url: url('get'), body: { mode: 'raw', raw: '{"a":1}', options: { raw: { language: 'json' } } } }),
      item('get keeps body', { method: 'GET', url: url('keep'), body: { mode: 'raw', raw: 'x' } }, { protocolProfileBehavior: { disableBodyPruning: true } }),
      item('head with form', { method: 'HEAD', url: url('head'), body: { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }] } }),
      item('empty raw', { method: 'POST', url: url('empty'), body: { mode: 'raw', raw: '' } }),
      item('empty form', { method: 'PUT', url: url('form'), body: { mode: 'formdata', formdata: [] } }),
      item('rows off', { method: 'POST', url: url('off'), body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: '1', disabled: true }] } }),
      item('form sent', { method: 'POST', url: url('sent'), body: { mode: 'formdata', formdata: [{ key: 'a', value: '1', type: 'text' }, { key: 'b', value: '2', type: 'text', disabled: true }] } }),
      item('query parts', { method: 'GET', url: url('q', [{ key: 'b#a&r', value: null }, { key: 'x', value: 'a&b#c' }, { key: 'k=v', value: '1' }, { key: 'nl', value: '\nx\t' }]) }),
      item('repeated header', { method: 'GET', url: url('h'), header: [{ key: 'X-Tag', value: 'one' }, { key: 'X-Tag', value: 'two' }] }),
      item('variables', { method: 'GET', url: url('v', [{ key: 'env', value: '{{dup}}' }, { key: 'col', value: '{{cv}}' }]) }),
    ],
  };
}

const environment = { name: 'Env', values: [{ key: 'dup', value: '1', enabled: true }, { key: 'dup', value: '2', enabled: true }] };

describe('Newman and Ferry send the same requests for the same collection', () => {
  it('bodies, query parts, repeated headers and repeated variables', async () => {
    const dir = await tempDir('ferry-newman-parity-');
    const base = `http://127.0.0.1:${listening.port}`;
    const doc = collection(base);
    const colFile = path.join(dir, 'parity.postman_collection.json');
    const envFile = path.join(dir, 'env.postman_environment.json');
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(environment));

    const failures = await new Promise<unknown[]>((resolve, reject) => {
      newman.run({ collection: doc, environment, reporters: [], timeoutRequest: 5000 }).on('done', (error, summary) => (error ? reject(error) : resolve(summary.run.failures)));
    });
    expect(failures).toEqual([]);
    const byNewman = seen.splice(0);

    const root = await importedWorkspace(dir, colFile, envFile);
    const run = await ferry(['-w', root, 'run', '-e', 'Env', '--timeout-ms', '5000']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const byFerry = seen.splice(0);

    expect(byNewman.map((s) => s.item)).toEqual(doc.item.map((i) => i.name));
    for (const [i, mine] of byFerry.entries()) expect(mine, mine.item).toEqual(byNewman[i]);
    expect(byFerry).toHaveLength(byNewman.length);
    // What the cases are about, as both sent it.
    const of = (name: string) => byFerry.find((s) => s.item === name)!;
    expect([of('get with body').body, of('empty form').body, of('rows off').body, of('head with form').body]).toEqual(['', '', '', '']);
    expect(of('get keeps body').body).toBe('x');
    expect(of('query parts').url).toBe('/q?b%23a%26r&x=a%26b%23c&k%3Dv=1&nl=%0Ax%09');
    expect(of('repeated header').headers).toEqual(['x-tag: one', 'x-tag: two']);
    expect(of('variables').url).toBe('/v?env=2&col=last');
    // Accept, Host and Connection, sent by both to each: the same values.
    expect(new Set(byFerry.map((s) => s.added.join(', ')))).toEqual(new Set([`accept: */*, connection: keep-alive, host: 127.0.0.1:${listening.port}`]));
  });
});

/**
 * Scripts across the pm API. `P(name, fn)` records a passing test named after the value `fn`
 * gives (or the error's name), so the test names compare what each runner's scripts read.
 */
function scriptedCollection(base: string) {
  const P = "const P = (k, f) => { let v; try { const r = f(); v = r === undefined ? 'undefined' : JSON.stringify(r); } catch (e) { v = 'ERR ' + e.name; } pm.test(k + ' = ' + v, () => {}); };";
  const ev = (listen: string, lines: string[]) => ({ listen, script: { type: 'text/javascript', exec: [P, ...lines] } });
  const item = (name: string, request: Record<string, unknown>, pre: string[] | null, test: string[]) => ({
    name, request: { ...request, header: [...((request.header as unknown[]) ?? []), { key: 'X-Item', value: name }] }, event: [...(pre ? [ev('prerequest', pre)] : []), ev('test', test)],
  });
  return {
    info: { name: 'PmApi', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'colVar', value: 'cval' }, { key: 'shared', value: 'fromCollection' }],
    item: [
      item('vars', { method: 'GET', url: `${base}/vars?a={{envVar}}&n={{amount}}` }, [
        "pm.environment.set('num', 5); pm.environment.set('bool', false); pm.collectionVariables.set('cv2', 'x'); pm.globals.set('g', 'gv'); pm.variables.set('loc', 'L');",
        "P('env num', () => pm.environment.get('num'));",
        "P('env has missing', () => pm.environment.has('nope'));",
        "P('env name', () => pm.environment.name);",
        "P('cv has', () => pm.collectionVariables.has('cv2'));",
        "pm.collectionVariables.unset('cv2');",
        "P('cv has after unset', () => pm.collectionVariables.has('cv2'));",
        "P('variables shared', () => pm.variables.get('shared'));",
        "P('replaceIn', () => pm.variables.replaceIn('{{envVar}}-{{loc}}-{{missing}}-{{colVar}}'));",
        "P('iterationData', () => pm.iterationData.toObject());",
        "P('amount', () => pm.iterationData.get('amount'));",
        "P('info', () => [pm.info.requestName, pm.info.iteration, pm.info.iterationCount, pm.info.eventName]);",
      ], [
        "P('num in test', () => pm.environment.get('num'));",
        "P('loc in test', () => pm.variables.get('loc'));",
        "P('sent', () => pm.response.json().query);",
        "pm.test('amount from data', () => pm.expect(pm.iterationData.get('amount')).to.be.a('number').and.above(5));",
      ]),
      item('request', {
        method: 'POST', url: `${base}/echo/{{envVar}}?q=1&r={{colVar}}`, header: [{ key: 'X-H', value: '{{envVar}}' }, { key: 'Content-Type', value: 'application/json' }],
        body: { mode: 'raw', raw: '{"name":"{{envVar}}","user":"{{user}}"}', options: { raw: { language: 'json' } } },
      }, [
        "P('url', () => pm.request.url.toString());",
        "P('host path query', () => [pm.request.url.getHost(), pm.request.url.getPath(), pm.request.url.getQueryString(), pm.request.url.query.get('q')]);",
        "P('method', () => pm.request.method);",
        "P('header', () => [pm.request.headers.get('x-h'), pm.request.headers.has('X-H')]);",
        "P('body', () => [pm.request.body.mode, pm.request.body.raw]);",
        "pm.request.headers.upsert({ key: 'X-H', value: 'changed' }); pm.request.url.query.add({ key: 'added', value: '2' });",
      ], [
        "P('url sent', () => pm.request.url.toString());",
        "P('body sent', () => pm.request.body.raw);",
        "P('echo', () => [pm.response.json().body, pm.response.json().query]);",
        "pm.test('request header', () => pm.request.to.have.header('X-H', 'changed'));",
        // The headers as sent, those the client added included; Newman's own two (and the values each client has its own of) aside.
        "P('sent headers', () => pm.request.headers.map((h) => h.key).filter((k) => !/^(cache-control|postman-token)$/i.test(k)));",
        "P('sent by the HTTP layer', () => [pm.request.headers.get('Host'), pm.request.headers.get('Connection'), pm.request.headers.get('Content-Length'), request.headers['content-length']]);",
      ]),
      item('response', { method: 'GET', url: `${base}/resp` }, null, [
        "P('no description', () => [typeof pm.request.description, 'description' in request, typeof request.description, JSON.stringify(request).includes('description')]);",
        "P('code status', () => [pm.response.code, pm.response.status, pm.response.reason()]);",
        "P('headers', () => [pm.response.headers.get('x-num'), pm.response.headers.has('X-NUM'), typeof pm.response.responseTime]);",
        "P('json', () => pm.response.json().nested.a.b);",
        "P('legacy', () => [responseCode.code, postman.getResponseHeader('X-Num'), typeof responseBody]);",
        "pm.test('status', () => pm.response.to.have.status(200));",
        "pm.test('statusCode', () => pm.response.to.have.statusCode(200));",
        "pm.test('json', () => pm.response.to.be.json.and.to.have.jsonBody('nested.a.b', 'c'));",
        "pm.test('responseTime', () => pm.response.to.have.responseTime.below(10000));",
        "pm.test('chai', () => { pm.expect([1, 2, 3]).to.include.members([1, 2]); pm.expect({ a: { b: 1 } }).to.have.nested.property('a.b', 1); pm.expect('abc').to.match(/b/); });",
        "pm.test('F equal', () => pm.expect(1).to.equal(2));",
        "pm.test('F eql', () => pm.expect({ a: 1 }).to.eql({ a: 2 }));",
        "pm.test('F status', () => pm.response.to.have.status(404));",
        "pm.test('F success', () => pm.response.to.not.be.success);",
        "pm.test('F header', () => pm.response.to.have.header('X-Num', '43'));",
        "pm.test('F jsonBody', () => pm.response.to.have.jsonBody('nested.a.b', 'x'));",
        "pm.test('F body', () => pm.response.to.have.body('nope'));",
        "pm.test('F message', () => pm.expect(1, 'custom').to.equal(2));",
        "tests['legacy false'] = false;",
        "pm.test.skip('skipped', () => {});",
      ]),
      item('libraries', { method: 'GET', url: `${base}/lib`, description: 'Checks the *bundled* libraries.' }, null, [
        "P('description', () => [typeof pm.request.description, String(pm.request.description), pm.request.description, request.description]);",
        "P('lodash', () => [_.get({ a: { b: 1 } }, 'a.b'), require('lodash').chunk([1, 2, 3], 2)]);",
        "P('moment', () => require('moment')('2020-01-02T03:04:05Z').utc().format('YYYY/MM/DD HH:mm'));",
        "P('crypto', () => [CryptoJS.MD5('a').toString(), require('crypto-js').HmacSHA256('m', 'k').toString(CryptoJS.enc.Base64)]);",
        "P('base64', () => [atob('aGk='), btoa('hi'), Buffer.from('hi').toString('base64')]);",
        "P('xml2js', () => { let out; require('xml2js').parseString('<a><b>1</b></a>', (e, r) => { out = r; }); return out; });",
        "P('tv4', () => [tv4.validate({ id: 'x' }, { properties: { id: { type: 'integer' } } }), tv4.error.message]);",
        "P('uuid', () => require('uuid').v4().length);",
      ]),
      item('next', { method: 'GET', url: `${base}/next` }, null, ["pm.test('jumps', () => {}); postman.setNextRequest('last');"]),
      item('skipped by next', { method: 'GET', url: `${base}/never` }, null, ["pm.test('never', () => {});"]),
      item('last', { method: 'GET', url: `${base}/last?g={{g}}&num={{num}}&bool={{bool}}` }, null, ["P('globals', () => pm.globals.get('g'));"]),
    ],
  };
}

describe('Newman and Ferry run the same scripts alike', () => {
  it('the pm API, chai and Postman assertions, libraries, a CSV data file and setNextRequest', async () => {
    const dir = await tempDir('ferry-newman-scripts-');
    const doc = scriptedCollection(`http://127.0.0.1:${listening.port}`);
    const colFile = path.join(dir, 'pm.postman_collection.json');
    const envFile = path.join(dir, 'env.postman_environment.json');
    const dataFile = path.join(dir, 'rows.csv');
    const env = { name: 'Env', values: [{ key: 'envVar', value: 'ev', enabled: true }, { key: 'shared', value: 'fromEnv', enabled: true }] };
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(env));
    await fs.writeFile(dataFile, 'user,amount\nann,10\nbob, 20\n');

    const executions = await new Promise<NewmanExecution[]>((resolve, reject) => {
      newman.run({ collection: doc, environment: env, iterationData: dataFile, reporters: [], timeoutRequest: 5000 }).on('done', (error, summary) => (error ? reject(error) : resolve(summary.run.executions)));
    });
    const byNewman = seen.splice(0);
    const newmanResults = executions.map((x) => ({
      name: x.item.name,
      tests: (x.assertions ?? []).map((a) => [a.assertion, a.skipped ? 'skipped' : a.error ? `fail: ${a.error.message}` : 'pass']),
      error: [...(x.prerequestScript ?? []), ...(x.testScript ?? [])].some((s) => s.error),
    }));

    const root = await importedWorkspace(dir, colFile, envFile);
    const run = await ferry(['-w', root, 'run', '-e', 'Env', '-d', dataFile, '--timeout-ms', '5000', '-r', 'json']);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as { results: { name: string; error: string | null; tests: { name: string; passed: boolean; skipped?: boolean; message: string | null }[] }[] };
    const byFerry = seen.splice(0);
    const ferryResults = report.results.map((r) => ({
      name: r.name,
      tests: r.tests.map((t) => [t.name, t.skipped ? 'skipped' : t.passed ? 'pass' : `fail: ${t.message}`]),
      error: r.error !== null,
    }));

    // Two iterations of vars, request, response, libraries, next, then last (setNextRequest skips one).
    const order = ['vars', 'request', 'response', 'libraries', 'next', 'last'];
    expect(newmanResults.map((r) => r.name)).toEqual([...order, ...order]);
    for (const [i, mine] of ferryResults.entries()) expect(mine, `${i}: ${mine.name}`).toEqual(newmanResults[i]);
    expect(ferryResults).toHaveLength(newmanResults.length);
    // What was sent: the same URLs and bodies, request by request.
    expect(byFerry.map((s) => [s.item, s.method, s.url, s.body])).toEqual(byNewman.map((s) => [s.item, s.method, s.url, s.body]));
    // A few of the values both agree on, spelled out.
    const tests = ferryResults.flatMap((r) => r.tests.map((t) => t[0]));
    expect(tests).toContain('amount = 10');
    expect(tests).toContain('amount = 20');
    expect(tests).toContain('tv4 = [false,"Invalid type: string (expected integer)"]');
    // The request's notes and the headers sent, Content-Length and Connection included, as Newman has them.
    expect(tests).toContain('description = ["object","Checks the *bundled* libraries.",{"content":"Checks the *bundled* libraries.","type":"text/plain"},"Checks the *bundled* libraries."]');
    expect(tests).toContain('no description = ["undefined",true,"undefined",false]');
    expect(tests).toContain('sent headers = ["X-H","Content-Type","X-Item","User-Agent","Accept","Host","Accept-Encoding","Connection","Content-Length"]');
    expect(tests).toContain(`sent by the HTTP layer = ["127.0.0.1:${listening.port}","keep-alive","26","26"]`);
    expect(byFerry.find((s) => s.item === 'last')?.url).toBe('/last?g=gv&num=5&bool=false');
  });
});

/**
 * `JSON.stringify(pm.request)` (Postman's Request.toJSON) and `JSON.stringify(pm.request.url)` as
 * scripts log them before and after the send, for each body mode and auth, with variables. The
 * lines are compared whole but for what each client has of its own (the id, which Newman's
 * pm.request lacks, and the values of the headers each client adds: see `same`).
 */
function jsonCollection(base: string) {
  const log = [
    "console.log(pm.info.eventName, 'request', JSON.stringify(pm.request));",
    "console.log(pm.info.eventName, 'toJSON', JSON.stringify(pm.request.toJSON()) === JSON.stringify(pm.request));",
    "console.log(pm.info.eventName, 'url', JSON.stringify(pm.request.url.toJSON()));",
  ];
  const event = [{ listen: 'prerequest', script: { exec: log } }, { listen: 'test', script: { exec: log } }];
  const item = (name: string, request: Record<string, unknown>) => ({ name, event, request: { ...request, header: [...((request.header as unknown[]) ?? []), { key: 'X-Item', value: name }] } });
  return {
    info: { name: 'Json', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'v', value: 'cv' }],
    item: [
      item('get', { method: 'GET', url: `${base}/get/:id?a=1&b={{v}}#top`, header: [{ key: 'X-A', value: '{{v}}' }, { key: 'X-Off', value: 'x', disabled: true }] }),
      item('path variable', { method: 'GET', url: { raw: '{{base}}/p/:id?a=1', host: ['{{base}}'], path: ['p', ':id'], query: [{ key: 'a', value: '1' }], variable: [{ key: 'id', value: '7' }] } }),
      item('raw json', { method: 'POST', url: `${base}/raw`, header: [{ key: 'Content-Type', value: 'application/json' }], body: { mode: 'raw', raw: '{"a":"{{v}}"}', options: { raw: { language: 'json' } } } }),
      item('urlencoded', { method: 'POST', url: `${base}/u`, body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: 'plain' }, { key: 'b', value: '2', disabled: true }, { key: 'k{{v}}', value: 'x-{{v}}' }, { key: 'off{{v}}', value: '{{v}}', disabled: true }] } }),
      item('formdata', { method: 'POST', url: `${base}/f`, body: { mode: 'formdata', formdata: [{ key: 'a', value: 'plain', type: 'text' }, { key: 'k{{v}}', value: 'x-{{v}}', type: 'text' }, { key: 'off', value: '{{v}}', type: 'text', disabled: true }] } }),
      item('bearer', { method: 'GET', url: `${base}/b`, auth: { type: 'bearer', bearer: [{ key: 'token', value: '{{v}}', type: 'string' }] } }),
      item('basic', { method: 'GET', url: `${base}/ba`, description: 'notes', auth: { type: 'basic', basic: [{ key: 'username', value: 'u{{v}}', type: 'string' }, { key: 'password', value: 'p', type: 'string' }] } }),
      item('own cookie', { method: 'GET', url: `${base}/c`, header: [{ key: 'Cookie', value: 'mine=1' }, { key: 'X-After', value: 'y' }] }),
      item('apikey header', { method: 'GET', url: `${base}/kh`, auth: { type: 'apikey', apikey: [{ key: 'key', value: 'X-{{v}}', type: 'string' }, { key: 'value', value: '{{v}}', type: 'string' }, { key: 'in', value: 'header', type: 'string' }] } }),
      item('apikey query', { method: 'GET', url: `${base}/kq`, auth: { type: 'apikey', apikey: [{ key: 'key', value: 'q{{v}}', type: 'string' }, { key: 'value', value: '{{v}}', type: 'string' }, { key: 'in', value: 'query', type: 'string' }] } }),
    ],
  };
}

describe('Newman and Ferry give scripts the same pm.request as JSON', () => {
  it('JSON.stringify(pm.request) and pm.request.url.toJSON() before and after the send', async () => {
    const dir = await tempDir('ferry-newman-json-');
    const doc = jsonCollection(`http://127.0.0.1:${listening.port}`);
    const colFile = path.join(dir, 'json.postman_collection.json');
    const env = { name: 'Env', values: [{ key: 'base', value: `http://127.0.0.1:${listening.port}`, enabled: true }] };
    const envFile = path.join(dir, 'env.postman_environment.json');
    await fs.writeFile(colFile, JSON.stringify(doc));
    await fs.writeFile(envFile, JSON.stringify(env));

    const byNewman = await newmanConsole({ collection: doc, environment: env });
    seen.splice(0);

    const root = await importedWorkspace(dir, colFile, envFile);
    const run = await ferry(['-w', root, 'run', '-e', 'Env', '--timeout-ms', '5000', '-r', 'json']);
    expect(run.stderr).toBe('');
    seen.splice(0);
    const report = JSON.parse(run.stdout) as { results: { name: string; console: string[] }[] };
    const byFerry = report.results.flatMap((r) => r.console);

    // Ferry's pm.request has an id, the request's path (scripts.md, "The request's id"); Newman's none.
    const ids = byFerry.filter((line) => / request /.test(line)).map((line) => (JSON.parse(line.replace(/^\w+ request /, '')) as { id: string }).id);
    expect(ids).toEqual(doc.item.flatMap((i) => [`Json/${i.name}.yaml`, `Json/${i.name}.yaml`]));
    expect(byNewman).toHaveLength(doc.item.length * 6);
    for (const [i, line] of byFerry.entries()) expect(same(line), `${i}: ${byNewman[i]}`).toBe(same(byNewman[i]!));
    expect(byFerry).toHaveLength(byNewman.length);
    // What the cases are about, as both log them.
    const line = (n: number) => JSON.parse(byFerry[n]!.replace(/^\w+ \w+ /, '')) as Record<string, unknown>;
    expect(line(0)).toMatchObject({ url: { protocol: 'http', path: ['get', ':id'], hash: 'top', host: ['127', '0', '0', '1'], query: [{ key: 'a', value: '1' }, { key: 'b', value: '{{v}}' }], variable: [{ type: 'any', key: 'id' }] } });
    expect((line(3).header as unknown[]).slice(0, 4)).toMatchObject([{ key: 'X-A', value: 'cv' }, { disabled: true, key: 'X-Off', value: 'x' }, { key: 'X-Item', value: 'get' }, { key: 'User-Agent', system: true }]);
    expect(line(6 * 5)).toMatchObject({ auth: { type: 'bearer', bearer: [{ type: 'string', value: '{{v}}', key: 'token' }] } });
    // After the send, a form's rows (switched-off ones too) and the auth's settings are filled, as in Newman.
    expect(line(6 * 3 + 3)).toMatchObject({ body: { mode: 'urlencoded', urlencoded: [{ key: 'a', value: 'plain' }, { disabled: true, key: 'b', value: '2' }, { key: 'kcv', value: 'x-cv' }, { disabled: true, key: 'offcv', value: 'cv' }] } });
    expect(line(6 * 4 + 3)).toMatchObject({ body: { mode: 'formdata', formdata: [{ key: 'a', value: 'plain' }, { key: 'kcv', value: 'x-cv' }, { disabled: true, key: 'off', value: 'cv' }] } });
    expect(line(6 * 5 + 3)).toMatchObject({ auth: { type: 'bearer', bearer: [{ type: 'string', value: 'cv', key: 'token' }] } });
    expect(line(6 * 6 + 3)).toMatchObject({ auth: { type: 'basic', basic: [{ type: 'string', value: 'ucv', key: 'username' }, { type: 'string', value: 'p', key: 'password' }] } });
    expect(line(6 * 9 + 3)).toMatchObject({ url: { query: [{ key: 'qcv', value: 'cv' }] }, auth: { type: 'apikey', apikey: [{ type: 'string', value: 'qcv', key: 'key' }, { type: 'string', value: 'cv', key: 'value' }, { type: 'string', value: 'query', key: 'in' }] } });
    expect((line(6 * 7 + 3).header as unknown[]).slice(0, 3)).toEqual([{ key: 'Cookie', value: 'mine=1', system: true }, { key: 'X-After', value: 'y' }, { key: 'X-Item', value: 'own cookie' }]);
  });
});

describe('Newman and Ferry give post-response scripts an inherited auth as sent', () => {
  it("pm.request.auth and toJSON().auth after the send: the collection's auth, filled; a request without auth none", async () => {
    const dir = await tempDir('ferry-newman-auth-');
    const base = `http://127.0.0.1:${listening.port}`;
    const log = ["console.log(pm.info.eventName, JSON.stringify(pm.request.toJSON().auth), String(pm.request.headers.get('Authorization')));"];
    const event = [{ listen: 'test', script: { exec: log } }];
    const doc = {
      info: { name: 'Auth', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
      variable: [{ key: 'v', value: 'cv' }],
      auth: { type: 'bearer', bearer: [{ key: 'token', value: 'x{{v}}', type: 'string' }] },
      item: [
        { name: 'inherited', event, request: { method: 'GET', url: `${base}/i`, header: [{ key: 'X-Item', value: 'inherited' }] } },
        { name: 'own none', event, request: { method: 'GET', url: `${base}/n`, auth: { type: 'noauth' }, header: [{ key: 'X-Item', value: 'own none' }] } },
      ],
    };
    const colFile = path.join(dir, 'auth.postman_collection.json');
    await fs.writeFile(colFile, JSON.stringify(doc));
    const byNewman = await newmanConsole({ collection: doc });
    seen.splice(0);
    const root = await importedWorkspace(dir, colFile);
    const run = await ferry(['-w', root, 'run', '--timeout-ms', '5000', '-r', 'json']);
    expect(run.stderr).toBe('');
    seen.splice(0);
    const byFerry = (JSON.parse(run.stdout) as { results: { console: string[] }[] }).results.flatMap((r) => r.console);
    expect(byFerry).toEqual(byNewman);
    expect(byFerry[0]).toBe('test {"type":"bearer","bearer":[{"type":"string","value":"xcv","key":"token"}]} Bearer xcv');
  });
});

/**
 * A logged line with what each client has of its own made alike: Ferry's `id` (checked apart),
 * the values of the headers each client adds itself (User-Agent, Accept-Encoding) and Newman's own
 * two (Cache-Control, Postman-Token), the Content-Type Ferry lists for a form body (Newman sends one
 * but does not list it), a multipart body's length (the boundary is each client's own), and a Basic
 * credential, which Ferry masks in console lines (scripts.md).
 */
function same(line: string): string {
  const match = /^(\w+ request )(.*)$/.exec(line);
  if (!match) return line;
  const request = JSON.parse(match[2]!) as { id?: string; header?: { key: string; value: string }[]; body?: { mode: string } };
  delete request.id;
  const form = request.body?.mode === 'formdata' || request.body?.mode === 'urlencoded';
  request.header = request.header
    ?.filter((h) => !/^(cache-control|postman-token)$/i.test(h.key) && !(form && /^content-type$/i.test(h.key)))
    .map((h) => (/^(user-agent|accept-encoding)$/i.test(h.key) || (request.body?.mode === 'formdata' && /^content-length$/i.test(h.key)) ? { ...h, value: 'own' }
      : /^authorization$/i.test(h.key) && h.value.startsWith('Basic ') ? { ...h, value: 'Basic ***' } : h));
  return match[1]! + JSON.stringify(request);
}
