/**
 * Every Postman collection of the shared corpus through Newman (Postman's runner, from
 * node_modules) and through `ferry import` + `ferry run`, against the same loopback echo servers
 * (postman-echo's stand-in, over HTTP and HTTPS). The collection's hosts are pointed at them in a
 * copy (the fixture is never edited), and each request gets an `X-Item` header with its place, so
 * what the servers receive is told apart item by item, redirect hops and auth retries included.
 * Compared per item: method, request target, headers (minus each client's own) and body, as
 * received; the tests' names, verdicts and messages; whether it failed with an error; what its
 * scripts logged; and the globals and collection variables the scripts left at the end.
 *
 * Where the two differ on purpose (docs/import.md "What a run sends, compared with Newman",
 * docs/scripts.md "Coming from Postman / Newman") the difference is either normalized away below
 * (each rule says why) or the item is left out in KNOWN, with the reason; an item that only sends
 * differently (its tests, console lines and verdict still the same) has just its requests left out,
 * in SENT_KNOWN. A collection that cannot be compared at all says why in NOT_COMPARED; every other
 * corpus collection is compared.
 */
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EchoServer, type ReceivedRequest, startEchoServer, testCertificate } from '../support/servers/index.js';
import { WorkspaceData } from '../../src/appdata/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { CORPUS } from '../support/corpus.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

interface NewmanCursor { position: number; iteration: number }
interface NewmanExecution {
  cursor: NewmanCursor;
  item: { name: string };
  requestError?: { message: string };
  assertions?: { assertion: string; skipped?: boolean; error?: { message: string } }[];
  testScript?: { error?: { message: string } }[];
  prerequestScript?: { error?: { message: string } }[];
}
interface NewmanRun {
  on(event: string, fn: (error: Error | null, args: never) => void): NewmanRun;
}
const newman = createRequire(import.meta.url)('newman') as { run(options: Record<string, unknown>): NewmanRun };

const folder = path.join(CORPUS, 'postman');

const OAUTH2 = 'Ferry gets an OAuth 2.0 token through the grant when sending (running.md, oauth2); Newman sends a token saved in the collection, else none';

/** Collections not compared at all, and why. */
const NOT_COMPARED: Record<string, string> = {
  'invalid-schema-v999': 'an unknown schema version: Ferry refuses the import (docs/import.md), Newman runs nothing',
  'v1-newman-sample': 'the v1 format, which Ferry does not import (it says to export as v2.1); Newman still reads it',
  'v21-url-edge-cases': "its scripts set the host (postman-echo.com) at run time, so it cannot be pointed at loopback for Newman; corpus-run.test.ts runs it through Ferry with --var",
  'v21-binary-file-body': 'its one request has a binary body whose file is not in the export: Newman sends no body (and warns), Ferry refuses the request naming the file',
  'v21-params-yaak': 'its one request has a form-data file outside the workspace: Newman sends the form without it (and warns), Ferry refuses the request',
  'v21-pm-sendrequest': 'its one request calls pm.sendRequest, which Ferry does not have (scripts.md)',
  'v21-ntlm-auth': 'NTLM in both its requests: Newman waits for a 401, Ferry starts the handshake with its first send (import.md)',
  'v21-oauth2-variants': `every request has OAuth 2.0: ${OAUTH2}`,
};

/** Variables a collection uses and does not define (Newman would look their names up as hosts): given to both runs, `ECHO` being the plain echo server's origin. */
const VARIABLES: Record<string, Record<string, string>> = {
  'v20-complex-bodies': { base_url: 'ECHO' },
  'v21-auth-all-types-yaak': { 'vault:hello': 'ECHO' },
};

/** Items left out of the comparison (by name), and why; the rest of the collection is compared. */
const KNOWN: Record<string, Record<string, string>> = {
  'v20-auth-helpers': { OAuth2: OAUTH2 },
  'v20-codegen-request-matrix': {
    'POST File': 'a form-data file not in the export: Newman sends the form without it (and warns), Ferry refuses the request naming the file',
    'Post file in file mode': 'a binary body with no file: Newman sends no body (and warns), Ferry refuses the request',
  },
  'v20-complex-bodies': {
    '{{base_url}}/api/users': 'a form-data file not in the export: Newman sends the form without it (and warns), Ferry refuses the request naming the file',
  },
  'v20-postman-echo': {
    'Delete Cookies': "Newman still sends the cookies the redirect's answer expires (Expires in 1970), and its test fails; Ferry drops them",
  },
  'v20-sandbox-legacy-apis': {
    r2: 'its test names hold {{$guid}} and {{$randomInt}}: new values on every run',
    BasicAuth: 'Ferry masks the Basic credentials in console lines (scripts.md)',
    DigestAuth: 'Digest with a stored nonce: Newman answers ahead with it, Ferry waits for the 401 (import.md); its tests differ with it',
  },
  'v21-auth-all-types-yaak': Object.fromEntries(['OAuth 2 Auth Code', 'OAuth 2 Auth Code (PKCE)', 'OAuth 2 Implicit', 'OAuth 2 Password', 'OAuth 2 Client Credentials'].map((item) => [item, OAUTH2])),
  'v21-custom-http-method': { 'form-data': 'a form-data file not in the export: Newman sends the form without it (and warns), Ferry refuses the request naming the file' },
  'v21-formdata-files-and-bodies': {
    'Single/multiple file upload via form-data': 'form-data files not in the export: Newman sends the form without them (and warns), Ferry refuses the request naming the file',
  },
  'v21-oauth1-variants': {
    type5: 'an RSA key Node cannot read: Newman sends the request unsigned (and warns), Ferry refuses it naming the key',
    type6: 'an RSA key Node cannot read: Newman sends the request unsigned (and warns), Ferry refuses it naming the key',
    type7: 'an RSA key Node cannot read: Newman sends the request unsigned (and warns), Ferry refuses it naming the key',
    'Optional values': 'an RSA key Node cannot read: Newman sends the request unsigned (and warns), Ferry refuses it naming the key',
  },
};

/**
 * Items whose results (tests, console, failure) are compared but whose requests as sent are not,
 * by name, and why: they send differently on purpose, and their scripts still see the same answers.
 */
const SENT_KNOWN: Record<string, Record<string, string>> = {
  'v20-auth-helpers': { DigestAuth: 'Digest with a stored nonce: Newman answers ahead with it, Ferry waits for the 401 (import.md)' },
  'v20-complex-bodies': { 'Test Request GraphQL Body': 'GraphQL: Ferry sends {query, variables, operationName} with the variables parsed (spec 2.5, import.md)' },
  'v20-draft-no-schema-url': {
    '201': 'a URL-encoded body with its own Content-Type header (application/json): Newman replaces it, Ferry keeps the header the request sets (running.md)',
    '200 ok': 'of the two items of this name, the POST one sends a URL-encoded body with its own Content-Type header (application/json): Newman replaces it, Ferry keeps the header the request sets (running.md)',
  },
  'v20-postman-echo': {
    'DigestAuth Success': 'the request carries its own stale Digest Authorization header: the request\'s own header wins in Ferry (import.md), then the 401 is answered',
    'Set Cookies': 'Newman adds a Referer header when following the redirect; Ferry adds none (running.md, followRedirects)',
    'OAuth2.0 Get Access Token': 'no OAuth 2.0 routes on the local echo server; compared elsewhere: the request with its form is the same',
  },
  'v20-sandbox-legacy-apis': { 'Recursive Res': '{{name{{i}}}}: only the innermost placeholder is filled (spec 8.2, import.md)' },
  'v21-auth-all-types-yaak': { JWT: 'Ferry adds typ: "JWT" to the JWT header (import.md)' },
  'v21-formdata-files-and-bodies': { 'Follow Redirects': 'Newman adds a Referer header when following the redirect; Ferry adds none (running.md, followRedirects)' },
  'v21-graphql-and-bodies': { 'POST graphql body(json) with raw': 'GraphQL: Ferry sends {query, variables, operationName} with the variables parsed (spec 2.5, import.md)' },
};

let plain: EchoServer;
let tls: EchoServer;
const received: ReceivedRequest[] = [];
beforeAll(async () => {
  const record = (r: ReceivedRequest) => void received.push(r);
  [plain, tls] = await Promise.all([startEchoServer({ record }), startEchoServer({ tls: await testCertificate(), record })]);
});
afterAll(() => Promise.all([plain.close(), tls.close()]));

type Json = Record<string, unknown>;

/**
 * The collection with every `http(s)://host[:port]` in its requests and variables pointed at the
 * echo server of that scheme, and an `X-Item: N` header on each request (N its place in the tree).
 */
function pointAtEcho(doc: Json): Json {
  const port = (scheme: string) => (scheme === 'https' ? tls.port : plain.port);
  const text = (s: string) => s.replace(/\b(https?):\/\/([^/?#\s"]*@)?[A-Za-z0-9.*-]+(:\d+)?/g, (_m, scheme: string, credentials?: string) => `${scheme}://${credentials ?? ''}127.0.0.1:${port(scheme)}`);
  // A URL written without a scheme (`httpbin.org/get`) is http in both clients.
  const bare = (s: string) => (/^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?(\/|$)/.test(s) ? s.replace(/^[^/]+/, `127.0.0.1:${plain.port}`) : text(s));
  let items = 0;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const o = v as Json;
    const out: Json = Object.fromEntries(Object.entries(o).map(([k, x]) => [k, k === 'response' ? x : k === 'url' && typeof x === 'string' ? bare(x) : walk(x)]));
    // A URL given in parts: Newman reads the parts, not `raw`, so the host goes in both.
    const host = Array.isArray(o.host) ? o.host.join('.') : o.host;
    if (typeof host === 'string' && host && !host.includes('{{') && ('path' in o || 'raw' in o)) {
      const scheme = String(o.protocol ?? 'http').replace(/:$/, '');
      Object.assign(out, { host: ['127', '0', '0', '1'], port: String(port(scheme)) });
      if (typeof o.raw === 'string' && !/^https?:\/\//.test(o.raw)) out.raw = o.raw.replace(host + (o.port ? `:${String(o.port)}` : ''), `127.0.0.1:${port(scheme)}`);
    }
    if (out.request && typeof out.request === 'object') {
      const request = out.request as Json;
      const tag = String(items++);
      // Headers may be one string of lines (collection v2.0).
      const header = typeof request.header === 'string' ? `${request.header.replace(/\n?$/, '\n')}X-Item: ${tag}\n` : [...((request.header as unknown[] | undefined) ?? []), { key: 'X-Item', value: tag }];
      out.request = { ...request, header };
    }
    return out;
  };
  const { info, ...rest } = doc;
  return { info, ...(walk(rest) as Json) };
}

/** Headers each client adds on its own (each with its own values), and the item tag. */
const OWN_HEADERS = /^(connection|user-agent|accept-encoding|postman-token|cache-control|content-length|x-item):/;
/** The parts of signing auth that are new on every send (time, nonce, what is computed from them). */
const RANDOM_PARTS = /\b(ts|mac|timestamp|nonce|signature|oauth_nonce|oauth_timestamp|oauth_signature|cnonce|response)=("[^"]*"|[^;,\s]*)/g;

interface Sent { item: string; method: string; target: string; headers: string[]; body: string }

function sent(r: ReceivedRequest): Sent {
  const lines = r.rawHeaders.flatMap((name, i) => (i % 2 === 0 ? [`${name.toLowerCase()}: ${r.rawHeaders[i + 1]}`] : []));
  const type = lines.find((l) => l.startsWith('content-type:')) ?? '';
  const boundary = /boundary=(\S+)/.exec(type)?.[1];
  let body = r.body.toString('utf8');
  if (boundary) body = body.split(boundary).join('BOUNDARY');
  // URL-encoded forms: Newman encodes as encodeURIComponent, Ferry as HTML forms (import.md); compared decoded.
  if (type.includes('application/x-www-form-urlencoded')) body = JSON.stringify([...new URLSearchParams(body)]);
  const headers = lines
    .filter((h) => !OWN_HEADERS.test(h))
    .map((h) => h.replace(/boundary=\S+/, 'boundary=BOUNDARY').replace(RANDOM_PARTS, '$1=…').replace(/^(x-amz-date|x-amz-content-sha256): .*/, '$1: …').replace(/Signature=\w+/, 'Signature=…'));
  // Header order is each client's own; a repeated header keeps its order (stable sort).
  headers.sort((a, b) => (a.split(':')[0]! < b.split(':')[0]! ? -1 : a.split(':')[0]! > b.split(':')[0]! ? 1 : 0));
  return { item: String(lines.find((l) => l.startsWith('x-item:'))?.slice(8)), method: r.method, target: r.target, headers, body };
}

/**
 * Logged text: echoed request headers (and the legacy `request.headers`) without the values each
 * client has its own of (User-Agent, Accept-Encoding, Newman's Cache-Control and Postman-Token, the
 * item tag), wherever they stood in the object (Connection and Content-Length, which both list as
 * sent, are compared), and without `accept`: both send the same `*\/*` (compared in what the
 * servers received, `sent` above), but an echo lists the headers in the order they came, and
 * Ferry's HTTP client (undici) writes Host and Connection before all others where Newman writes
 * them after its Accept, so in an echoed object (v20-set-next-request logs postman-echo's answer)
 * `accept` alone would stand elsewhere (docs/import.md, "What a run sends, compared with Newman"); the
 * legacy `request.id`, which Newman gives as the item's id (made up afresh on each run for a
 * collection without ids) and Ferry as the request's path (scripts.md); the legacy
 * `request.description` of a request whose collection wrote an empty one (`"description": ""`):
 * Newman gives `''`, Ferry none, an empty `docs` being no `docs` (scripts.md); and a logged
 * response time and response Date header, measurements.
 */
const ownInLog = (line: string) =>
  line
    .replace(/"(user-agent|accept|cache-control|postman-token|accept-encoding|x-item)":"[^"]*",?/g, '')
    .replace(/,}/g, '}')
    .replace(/\{"id":"[^"]*","name":("(?:[^"\\]|\\.)*")(,"description":"")?/g, '{"id":…,"name":$1')
    .replace(/^(Response time: )\d+$/, '$1…')
    .replace(/"Date":"[^"]*"/g, '"Date":"…"');

/**
 * A console call as one line: Newman leaves the layout to its reporters, Ferry writes objects as
 * JSON (scripts.md); both compared so. (`%s` placeholders do not occur in the corpus.)
 */
const logLine = (messages: unknown[]) => messages.map((m) => (typeof m === 'string' ? m : m === undefined ? 'undefined' : JSON.stringify(m))).join(' ');

interface ItemResult { name: string; tests: string[][]; failed: boolean; console: string[] }

/** What stays apart from the comparison: a request that tried to reach a host off loopback. */
const OFF_LOOPBACK = /ENOTFOUND|EAI_AGAIN|unknown host/;

/** The globals and collection variables at the end of a run, as values (Ferry's data folder keeps their type, as Newman's export does). */
interface EndValues { globals: Record<string, unknown>; collection: Record<string, unknown> }

async function runNewman(file: string, variables: Record<string, string>): Promise<{ results: ItemResult[]; end: EndValues }> {
  // Lines by the item's place in the run, not its name or id: two items may share both (v20-draft-no-schema-url's).
  const place = (c: NewmanCursor) => `${c.iteration}:${c.position}`;
  const logs: { item: string; line: string }[] = [];
  type Values = { values?: { members?: { key: string; value: unknown }[] } };
  let end: EndValues = { globals: {}, collection: {} };
  const executions = await new Promise<NewmanExecution[]>((resolve, reject) => {
    newman.run({ collection: file, envVar: Object.entries(variables).map(([key, value]) => ({ key, value })), reporters: [], insecure: true, timeoutRequest: 5000 })
      .on('console', (_e, o: { messages: unknown[]; cursor: NewmanCursor }) => void logs.push({ item: place(o.cursor), line: logLine(o.messages) }))
      .on('done', (error, summary: { run: { executions: NewmanExecution[] }; globals: Values; collection: { variables: { members: { key: string; value: unknown }[] } } }) => {
        const pairs = (members: { key: string; value: unknown }[] = []) => Object.fromEntries(members.map((m) => [m.key, m.value]));
        if (!error) end = { globals: pairs(summary.globals.values?.members), collection: pairs(summary.collection.variables.members) };
        return error ? reject(error) : resolve(summary.run.executions);
      });
  });
  // Newman's own deprecation warnings for the legacy API are not the scripts' lines.
  const lines = logs.filter((l) => !/^Using ".*" is deprecated/.test(l.line));
  // Newman reports a Digest retry as a second execution of the item; one result per item, as Ferry's.
  const once = executions.filter((x, i) => executions[i - 1]?.item !== x.item);
  for (const x of once) expect(x.requestError?.message ?? '', x.item.name).not.toMatch(OFF_LOOPBACK);
  const results = once.map((x) => ({
    name: x.item.name,
    tests: (x.assertions ?? []).map((a) => [a.assertion, a.skipped ? 'skipped' : a.error ? `fail: ${a.error.message}` : 'pass']),
    failed: Boolean(x.requestError) || [...(x.prerequestScript ?? []), ...(x.testScript ?? [])].some((s) => s.error),
    console: lines.filter((l) => l.item === place(x.cursor)).map((l) => ownInLog(l.line)),
  }));
  return { results, end };
}

async function runFerry(file: string, dir: string, variables: Record<string, string>): Promise<{ results: ItemResult[]; end: EndValues }> {
  await isolatedDataDir();
  const root = path.join(dir, 'ws');
  expect((await ferry(['init', root, '--name', 'Parity'])).code).toBe(0);
  const imported = await ferry(['-w', root, 'import', file]);
  expect(imported.stderr).toBe('');
  // As in a CI job: an OAuth 2.0 authorization code grant fails at once instead of waiting for a browser.
  const ci = process.env.CI;
  process.env.CI = 'true';
  const run = await ferry(['-w', root, 'run', '-k', '--timeout-ms', '5000', '-r', 'json', ...Object.entries(variables).flatMap(([key, value]) => ['--var', `${key}=${value}`])]);
  if (ci === undefined) delete process.env.CI;
  else process.env.CI = ci;
  expect(run.stderr).toBe('');
  const report = JSON.parse(run.stdout) as { results: { name: string; error: string | null; console: string[]; tests: { name: string; passed: boolean; skipped?: boolean; message: string | null }[] }[] };
  for (const r of report.results) expect(r.error ?? '', r.name).not.toMatch(OFF_LOOPBACK);
  // What scripts set is kept in the data folder (scripts.md, "Where values set by scripts go").
  const ws = await openWorkspace(root);
  const data = new WorkspaceData(ws.id, ws.root);
  const end = { globals: await data.scriptValues('globals'), collection: await data.scriptValues('collection') };
  const results = report.results.map((r) => ({
    name: r.name,
    tests: r.tests.map((t) => [t.name, t.skipped ? 'skipped' : t.passed ? 'pass' : `fail: ${t.message}`]),
    failed: r.error !== null,
    console: r.console.map(ownInLog),
  }));
  return { results, end };
}

const collections = (await fs.readdir(folder)).filter((f) => f.endsWith('.postman_collection.json')).map((f) => f.replace(/\.postman_collection\.json$/, ''));
const compared = collections.filter((c) => !(c in NOT_COMPARED));

describe('Newman and Ferry run each corpus collection alike', () => {
  it('every corpus collection is compared or says why not', () => {
    expect(compared.length).toBeGreaterThan(20);
    expect(Object.keys(NOT_COMPARED).filter((c) => !collections.includes(c))).toEqual([]);
    expect(Object.keys(KNOWN).filter((c) => !compared.includes(c))).toEqual([]);
    expect(Object.keys(SENT_KNOWN).filter((c) => !compared.includes(c))).toEqual([]);
  });

  it.each(compared)('%s', async (name) => {
    const dir = await tempDir('ferry-newman-corpus-');
    let doc = JSON.parse(await fs.readFile(path.join(folder, `${name}.postman_collection.json`), 'utf8')) as Json;
    // An export from Postman's API wraps the collection in `collection`.
    doc = doc.collection ? { ...doc, collection: pointAtEcho(doc.collection as Json) } : pointAtEcho(doc);
    const file = path.join(dir, `${name}.postman_collection.json`);
    await fs.writeFile(file, JSON.stringify(doc));

    const variables = Object.fromEntries(Object.entries(VARIABLES[name] ?? {}).map(([key, value]) => [key, value.replace('ECHO', plain.url)]));
    received.length = 0;
    const { results: byNewman, end: newmanEnd } = await runNewman(file, variables);
    const newmanSent = received.splice(0).map(sent);
    const { results: byFerry, end: ferryEnd } = await runFerry(file, dir, variables);
    const ferrySent = received.splice(0).map(sent);

    const known = KNOWN[name] ?? {};
    const sentKnown = SENT_KNOWN[name] ?? {};
    expect([...Object.keys(known), ...Object.keys(sentKnown)].filter((item) => !byNewman.some((r) => r.name === item)), 'KNOWN and SENT_KNOWN name items of this collection').toEqual([]);
    expect(byFerry.map((r) => r.name)).toEqual(byNewman.map((r) => r.name));
    const results = byNewman.map((mine, i) => [mine, byFerry[i]!] as const).filter(([n]) => !(n.name in known));
    expect(results.length, 'items compared').toBeGreaterThan(0);
    for (const [n, f] of results) expect(f, n.name).toEqual(n);

    // What the servers received from the left-out items (by their X-Item numbers) is not compared.
    const leftOut = itemNumbers(doc, [...Object.keys(known), ...Object.keys(sentKnown)]);
    // Requests with no X-Item are Ferry's own OAuth 2.0 token requests, of left-out items only.
    const keep = (s: Sent) => !leftOut.has(s.item) && s.item !== 'undefined';
    expect(ferrySent.filter(keep)).toEqual(newmanSent.filter(keep));

    // The values scripts left: the same globals; the collection variables they set, the same values.
    expect(ferryEnd.globals, 'globals at the end').toEqual(newmanEnd.globals);
    for (const [key, value] of Object.entries(ferryEnd.collection)) expect(value, `collection variable ${key} at the end`).toBe(newmanEnd.collection[key]);
  });
});

/** The X-Item numbers pointAtEcho gave the items of these names. */
function itemNumbers(doc: Json, names: string[]): Set<string> {
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!v || typeof v !== 'object') return;
    const o = v as Json;
    const request = o.request as Json | undefined;
    const header = request?.header;
    const tag = Array.isArray(header) ? (header as { key: string; value: string }[]).find((h) => h.key === 'X-Item')?.value : typeof header === 'string' ? /X-Item: (\d+)/.exec(header)?.[1] : undefined;
    if (tag !== undefined && names.includes(String(o.name))) out.add(tag);
    for (const [k, x] of Object.entries(o)) if (k !== 'response') walk(x);
  };
  walk(doc);
  return out;
}
