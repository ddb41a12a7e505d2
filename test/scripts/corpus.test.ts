/**
 * Runs the scripts of real Postman collections from the shared corpus against a local server
 * that answers as postman-echo does. The test plays the runner's part: it reads the collection,
 * orders the scripts (collection, folders outer to inner, request), fills `{{variables}}`, sends
 * with undici, and follows setNextRequest.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request as send } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptEngine, type ScriptRequest, type ScriptVariables, type TestResult, type ConsoleEntry, type ScriptError } from '../../src/scripts/index.js';
import { CORPUS } from '../support/corpus.js';

const corpus = path.join(CORPUS, 'postman');

// ---- a local postman-echo look-alike -------------------------------------------------------
let server: http.Server;
let base: string;

function echoServer(): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://local');
      const args = Object.fromEntries(url.searchParams);
      const data = Buffer.concat(chunks).toString('utf8');
      const publicUrl = `https://postman-echo.com${req.url}`;
      const json = (status: number, body: unknown, headers: Record<string, string | string[]> = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
        res.end(req.method === 'HEAD' ? undefined : JSON.stringify(body));
      };
      const p = url.pathname;
      if (p === '/get') return json(200, { args, headers: req.headers, url: publicUrl });
      if (p === '/headers') return json(200, { headers: req.headers });
      if (['/post', '/put', '/patch', '/delete'].includes(p)) {
        const form = (req.headers['content-type'] ?? '').includes('urlencoded') ? Object.fromEntries(new URLSearchParams(data)) : {};
        return json(200, { args, data, files: {}, form, headers: req.headers, json: null, url: publicUrl });
      }
      const status = /^\/status\/(\d{3})$/.exec(p);
      if (status) return json(Number(status[1]), { status: Number(status[1]) });
      if (p === '/type/xml') {
        res.writeHead(200, { 'Content-Type': 'application/xml; charset=utf-8', 'Set-Cookie': 'sails.sid=abc; Path=/; HttpOnly' });
        return res.end('<?xml version="1.0" encoding="utf-8"?>\n<food><key>Homestyle Breakfast</key><value>950</value></food>');
      }
      if (p === '/type/html') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end('<html><body>hi</body></html>');
      }
      if (p === '/response-headers') return json(200, args, args);
      if (p === '/cookies/set') {
        return json(200, { cookies: args }, { 'Set-Cookie': Object.entries(args).map(([k, v]) => `${k}=${v}; Path=/`) });
      }
      return json(404, { error: 'not found' });
    });
  });
}

beforeAll(async () => {
  server = echoServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

// ---- reading a collection -----------------------------------------------------------------
interface PostmanEvent { listen: string; script?: { exec?: string | string[] } }
interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  event?: PostmanEvent[];
  request?: { method?: string; url?: string | { raw?: string }; header?: { key: string; value: string; disabled?: boolean }[]; body?: { mode?: string; raw?: string; urlencoded?: { key: string; value: string }[] } };
}
interface FlatRequest {
  name: string;
  item: PostmanItem;
  pre: { code: string; label: string }[];
  post: { code: string; label: string }[];
}

function scriptOf(events: PostmanEvent[] | undefined, listen: string, label: string): { code: string; label: string }[] {
  const event = events?.find((e) => e.listen === listen);
  const exec = event?.script?.exec;
  const code = Array.isArray(exec) ? exec.join('\n') : (exec ?? '');
  return code.trim() ? [{ code, label: `${label}: ${listen === 'test' ? 'postResponse' : 'preRequest'}` }] : [];
}

function flatten(items: PostmanItem[], chain: PostmanItem[], out: FlatRequest[], collection: PostmanItem): FlatRequest[] {
  for (const item of items) {
    if (item.item) {
      flatten(item.item, [...chain, item], out, collection);
      continue;
    }
    const levels = [collection, ...chain, item];
    const labelOf = (level: PostmanItem, i: number) => (i === 0 ? 'collection' : levels.slice(1, i + 1).map((l) => l.name).join('/'));
    out.push({
      name: item.name,
      item,
      pre: levels.flatMap((level, i) => scriptOf(level.event, 'prerequest', labelOf(level, i))),
      post: levels.flatMap((level, i) => scriptOf(level.event, 'test', labelOf(level, i))),
    });
  }
  return out;
}

async function loadCollection(file: string): Promise<FlatRequest[]> {
  const json = JSON.parse(await readFile(path.join(corpus, file), 'utf8')) as { info: { name: string }; item: PostmanItem[]; event?: PostmanEvent[] };
  return flatten(json.item, [], [], { name: json.info.name, event: json.event });
}

function toScriptRequest(item: PostmanItem): ScriptRequest {
  const r = item.request ?? {};
  const raw = typeof r.url === 'string' ? r.url : (r.url?.raw ?? '');
  const body = r.body?.mode === 'raw' ? { type: 'text', text: r.body.raw ?? '' }
    : r.body?.mode === 'urlencoded' ? { type: 'formUrlencoded', form: (r.body.urlencoded ?? []).map((f) => ({ key: f.key, value: f.value })) }
    : { type: 'none' };
  return {
    name: item.name,
    method: r.method ?? 'GET',
    url: raw,
    headers: (r.header ?? []).map((h) => ({ key: h.key, value: h.value, ...(h.disabled ? { enabled: false } : {}) })),
    body,
  };
}

// ---- playing the runner ---------------------------------------------------------------------
interface RunLog {
  tests: (TestResult & { request: string })[];
  console: ConsoleEntry[];
  errors: ScriptError[];
  order: string[];
  variables: ScriptVariables;
}

function fill(text: string, v: ScriptVariables): string {
  const lookup = (k: string) => [v.local, v.iterationData, v.environment, v.collection, v.globals].find((s) => s && k in s)?.[k];
  let out = text;
  for (let i = 0; i < 10; i++) {
    const next = out.replace(/\{\{([^{}]+)\}\}/g, (m, k: string) => {
      const value = lookup(k);
      return value === undefined ? m : String(value);
    });
    if (next === out) break;
    out = next;
  }
  return out;
}

async function runCollection(engine: ScriptEngine, requests: FlatRequest[], variables: ScriptVariables, maxSends = 20): Promise<RunLog> {
  const log: RunLog = { tests: [], console: [], errors: [], order: [], variables };
  let index = 0;
  for (let sends = 0; index < requests.length && sends < maxSends; sends++) {
    const current = requests[index]!;
    log.order.push(current.name);
    const info = { requestName: current.name, iteration: 0, inCollectionRun: true };
    const pre = await engine.runPreRequest({ scripts: current.pre, request: toScriptRequest(current.item), variables: log.variables, info });
    log.console.push(...pre.console);
    log.errors.push(...pre.errors);
    log.variables = pre.variables;
    const url = fill(pre.request.url, pre.variables).replace(/^https?:\/\/(postman-echo\.com|echo\.getpostman\.com)/, base);
    const headers = Object.fromEntries(pre.request.headers.filter((h) => h.enabled !== false).map((h) => [h.key, fill(h.value, pre.variables)]));
    let body: string | undefined;
    if (pre.request.body?.type === 'formUrlencoded') {
      body = new URLSearchParams((pre.request.body.form as { key: string; value: string }[]).map((f) => [f.key, fill(f.value, pre.variables)])).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (typeof pre.request.body?.text === 'string' && pre.request.body.type !== 'none') {
      body = fill(pre.request.body.text, pre.variables);
    }
    const started = performance.now();
    const res = await send(url, { method: pre.request.method as 'GET', headers, body });
    const bytes = new Uint8Array(await res.body.arrayBuffer());
    const responseHeaders: [string, string][] = [];
    for (const [name, value] of Object.entries(res.headers)) {
      for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined) responseHeaders.push([name, v]);
    }
    const post = await engine.runPostResponse({
      scripts: current.post, request: pre.request, variables: pre.variables, info,
      response: { code: res.statusCode, headers: responseHeaders, bodyBytes: bytes, responseTime: performance.now() - started, responseSize: bytes.length },
    });
    log.tests.push(...post.tests.map((t) => ({ ...t, request: current.name })));
    log.console.push(...post.console);
    log.errors.push(...post.errors);
    // Values of one request (pm.variables) do not carry to the next.
    log.variables = { ...post.variables, local: {} };
    const next = post.nextRequest !== undefined ? post.nextRequest : pre.nextRequest;
    if (next === null) break;
    if (next !== undefined) {
      index = requests.findIndex((r) => r.name === next);
      if (index < 0) break;
    } else {
      index++;
    }
  }
  return log;
}

const emptyVariables = (): ScriptVariables => ({ environment: {}, collection: {}, globals: {} });

let engine: ScriptEngine;
beforeAll(async () => {
  engine = await ScriptEngine.create();
});
afterAll(() => engine.dispose());

describe('Postman corpus collections', () => {
  it('v20-multi-level-folders: every request runs in order and every test passes', async () => {
    const requests = await loadCollection('v20-multi-level-folders.postman_collection.json');
    const log = await runCollection(engine, requests, emptyVariables());
    expect(log.errors).toEqual([]);
    expect(log.order).toEqual(['F1.R1', 'F1.R2', 'F1.R3', 'F2.F3.R1', 'F2.R1', 'R1']);
    expect(log.tests).toHaveLength(12);
    expect(log.tests.filter((t) => !t.passed)).toEqual([]);
    expect(log.variables.environment.count).toBe('5');
  });

  it('v20-set-next-request: the run follows setNextRequest through the loop and stops on null', async () => {
    const requests = await loadCollection('v20-set-next-request.postman_collection.json');
    const log = await runCollection(engine, requests, emptyVariables());
    expect(log.errors).toEqual([]);
    expect(log.order).toEqual(['post', 'method', 'html', 'method']);
    expect(log.tests.map((t) => [t.name, t.passed])).toEqual([['Success', true]]);
    expect(log.console.map((c) => c.text)).toContain('Setting next request to "html"');
  });

  it('v20-sandbox-legacy-apis: the legacy globals, xml2Json, lodash, tv4, CryptoJS and String#has work', async () => {
    const requests = (await loadCollection('v20-sandbox-legacy-apis.postman_collection.json')).filter((r) => r.name === 'r1');
    const log = await runCollection(engine, requests, emptyVariables(), 1);
    // tv4 (the JSON-schema validator Postman's sandbox still offers) is there, as in Newman.
    expect(log.errors).toEqual([]);
    expect(log.tests.map((t) => [t.name, t.passed])).toEqual([
      ['xml2Json', true], ['GetResponseHeader', true], ['GetResponseCookie', true], ['Correct global', true],
      ['Lodash working', true], ['SugarJS working', true], ['tv4 present', true], ['CryptoJS md5', true],
    ]);
    const lines = log.console.map((c) => c.text);
    expect(lines).toContain('{"food":{"key":"Homestyle Breakfast","value":"950"}}');
    // As Newman logs it: the reason, Postman's description of 200, the code, its standard name.
    expect(lines).toContain('Response code: {"name":"OK","detail":"Standard response for successful HTTP requests. The actual response will depend on the request method used. In a GET request, the response will contain an entity corresponding to the requested resource. In a POST request the response will contain an entity describing or containing the result of the action.","code":200,"standardName":"OK"}');
    expect(lines.find((l) => l.startsWith('RESCOOK: '))).toMatch(/"name":"sails.sid","value":"abc"/);
    expect(log.variables.globals).toEqual({ g1: '0' });
    expect(log.variables.environment).toEqual({ e1: '0' });
  });

  it('v20-postman-echo: request, header, status and cookie tests pass against the local echo server', async () => {
    const wanted = ['Request Headers', 'Response Headers', 'GET Request ', 'Response Status Code', 'Set Cookies'];
    const requests = (await loadCollection('v20-postman-echo.postman_collection.json')).filter((r) => wanted.includes(r.name));
    expect(requests.map((r) => r.name)).toEqual(['Set Cookies', 'Request Headers', 'Response Headers', 'GET Request ', 'Response Status Code']);
    const log = await runCollection(engine, requests, emptyVariables());
    expect(log.errors).toEqual([]);
    expect(log.tests.length).toBeGreaterThanOrEqual(12);
    expect(log.tests.filter((t) => !t.passed)).toEqual([]);
  });

  it('v21-url-edge-cases: collection-level pm.test.skip and pre-request pm.variables feed the URL', async () => {
    const requests = (await loadCollection('v21-url-edge-cases.postman_collection.json')).filter((r) => r.name === 'nested variables');
    const log = await runCollection(engine, requests, emptyVariables(), 1);
    expect(log.errors).toEqual([]);
    expect(log.tests.map((t) => [t.name, t.skipped ? 'skipped' : t.passed])).toEqual([
      ['Status code is 200 for "nested variables"', 'skipped'],
      ['Request URL', true],
    ]);
  });

  it('v21-pm-sendrequest: the unavailable pm.sendRequest fails with its name, the earlier test still counts', async () => {
    const requests = await loadCollection('v21-pm-sendrequest.postman_collection.json');
    const log = await runCollection(engine, requests, emptyVariables(), 1);
    expect(log.tests.map((t) => [t.name, t.passed])).toEqual([['Status code is 200', true]]);
    expect(log.errors).toHaveLength(1);
    expect(log.errors[0]!.message).toMatch(/^Nested request test: postResponse: Error: pm\.sendRequest is not available in Ferry/);
  });
});
