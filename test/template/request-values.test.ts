import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVariableScope, compile, requestValuesFromHttp } from '../../src/template/index.js';
import { rows } from './helpers.js';

/**
 * A real HTTP server on 127.0.0.1 that answers every request with a template rendered at
 * `mock.body`, the way the mock server does. Requests are written byte for byte on a raw socket so
 * repeated headers, raw escapes and non-UTF-8 bodies arrive exactly as a client sent them.
 */
let template = compile('', 'mock.body');
const variables = buildVariableScope({
  workspace: { variables: rows({ greeting: 'hello', secretName: { secret: true } }) },
  secrets: () => 'SHOULD-NOT-APPEAR',
});
const ROUTE = ['users', ':id', 'files', '*'];

/** The test's own route matcher: `/users/:id/files/*`, raw (not decoded) parts. */
function matchRoute(path: string): Record<string, string> {
  const parts = path.split('/').slice(1);
  const params: Record<string, string> = {};
  ROUTE.forEach((part, i) => {
    if (part === '*') params['*'] = parts.slice(i).join('/');
    else if (part.startsWith(':')) params[part.slice(1)] = parts[i] ?? '';
  });
  return parts[0] === 'users' ? params : {};
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const url = req.url ?? '/';
    const request = requestValuesFromHttp({
      method: req.method ?? 'GET',
      url,
      rawHeaders: req.rawHeaders,
      body: Buffer.concat(chunks),
      pathParams: matchRoute(url.split('?')[0]!),
    });
    res.setHeader('content-type', 'text/plain; charset=utf-8');
    res.end(template.render({ variables, request }));
  });
});
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Sends raw request head (+ body) and returns the answer body. */
async function send(head: string, body: Buffer = Buffer.alloc(0)): Promise<string> {
  const socket = net.connect(port, '127.0.0.1');
  const length = body.length > 0 ? `Content-Length: ${body.length}\r\n` : '';
  socket.end(Buffer.concat([Buffer.from(`${head}\r\nHost: 127.0.0.1\r\n${length}Connection: close\r\n\r\n`, 'latin1'), body]));
  const chunks: Buffer[] = [];
  for await (const chunk of socket) chunks.push(chunk as Buffer);
  const answer = Buffer.concat(chunks).toString('utf8');
  return answer.slice(answer.indexOf('\r\n\r\n') + 4);
}

describe('request values over a real HTTP request (spec 8.2)', () => {
  const cases: [what: string, tpl: string, head: string, body: string | Buffer, expected: string][] = [
    ['method', '{{request.method}}', 'PUT /a HTTP/1.1', '', 'PUT'],
    ['path as sent, not decoded, no query', '{{request.path}}', 'GET /a%20b/c+d?x=1 HTTP/1.1', '', '/a%20b/c+d'],
    ['url: path and query as sent', '{{request.url}}', 'GET /a%20b?x=%41&y=1+2 HTTP/1.1', '', '/a%20b?x=%41&y=1+2'],
    ['body as text', '{{request.body}}', 'POST / HTTP/1.1', '{"name":"Ada"}', '{"name":"Ada"}'],
    ['body: non-UTF-8 bytes become U+FFFD', '{{request.body}}', 'POST / HTTP/1.1', Buffer.from([0x41, 0xff, 0x42]), 'A\uFFFDB'],
    ['body: multi-byte UTF-8 kept', '{{request.body}}', 'POST / HTTP/1.1', 'żółw ✓', 'żółw ✓'],
    ['body missing: empty', '[{{request.body}}]', 'GET / HTTP/1.1', '', '[]'],
    ['body: no reaching inside', '[{{request.body.name}}]', 'POST / HTTP/1.1', '{"name":"Ada"}', '[]'],
    ['path parameter, decoded', '{{request.params.id}}', 'GET /users/a%20b%2Fc/files/x HTTP/1.1', '', 'a b/c'],
    ['path parameter: + stays +', '{{request.params.id}}', 'GET /users/a+b/files/x HTTP/1.1', '', 'a+b'],
    ['wildcard, decoded', '{{request.params.*}}', 'GET /users/1/files/docs/read%20me.md HTTP/1.1', '', 'docs/read me.md'],
    ['unknown path parameter: empty', '[{{request.params.nope}}]', 'GET /users/1/files/x HTTP/1.1', '', '[]'],
    ['query, decoded with + and %', '{{request.query.q}}', 'GET /?q=caf%C3%A9+au+lait HTTP/1.1', '', 'café au lait'],
    ['query: first when repeated', '{{request.query.q}}', 'GET /?q=1&q=2 HTTP/1.1', '', '1'],
    ['query: name case-sensitive', '[{{request.query.Q}}]', 'GET /?q=1 HTTP/1.1', '', '[]'],
    ['query: name decoded', '{{request.query.a b}}', 'GET /?a%20b=1&a+b=2 HTTP/1.1', '', '1'],
    ['query: without "=" is empty', '[{{request.query.flag}}]', 'GET /?flag HTTP/1.1', '', '[]'],
    ['query: bad escapes stay as written', '{{request.query.q}}', 'GET /?q=%zz%41%E2%82 HTTP/1.1', '', '%zzA\uFFFD'],
    ['query: "=" inside the value', '{{request.query.q}}', 'GET /?q=a=b HTTP/1.1', '', 'a=b'],
    ['query missing: empty', '[{{request.query.q}}]', 'GET / HTTP/1.1', '', '[]'],
    ['header, name in any case', '{{request.headers.x-TRACE}}', 'GET / HTTP/1.1\r\nX-Trace: abc', '', 'abc'],
    ['header: first when repeated', '{{request.headers.x-a}}', 'GET / HTTP/1.1\r\nX-A: one\r\nx-a: two', '', 'one'],
    ['header missing: empty', '[{{request.headers.x-none}}]', 'GET / HTTP/1.1', '', '[]'],
    ['unknown request key: empty', '[{{request.cookies}}] [{{request.}}] [{{request.query.}}]', 'GET / HTTP/1.1', '', '[] [] []'],
    ['spaces around the name', '{{ request.method }}', 'DELETE / HTTP/1.1', '', 'DELETE'],
    ['variables beside request values', '{{greeting}} {{request.method}}', 'GET / HTTP/1.1', '', 'hello GET'],
  ];
  it.each(cases)('%s', async (_what, tpl, head, body, expected) => {
    template = compile(tpl, 'mock.body');
    expect(await send(head, typeof body === 'string' ? Buffer.from(body) : body)).toBe(expected);
  });

  const injections = ['{{$uuid}}', '{{secretName}}', '{{greeting}}', '{{request.method}}', '{{message}}'];
  it.each(injections)('client text holding %s comes back literally', async (injected) => {
    const escaped = encodeURIComponent(injected);
    template = compile('{{request.query.q}}|{{request.headers.x-in}}|{{request.body}}|{{request.params.id}}', 'mock.body');
    const answer = await send(`POST /users/${escaped}/files/x?q=${escaped} HTTP/1.1\r\nX-In: ${injected}`, Buffer.from(injected));
    expect(answer).toBe([injected, injected, injected, injected].join('|'));
  });
});

describe('request values without a request', () => {
  it('every request value is empty', () => {
    const tpl = compile('[{{request.method}}{{request.url}}{{request.body}}{{request.query.a}}]', 'sse.event');
    expect(tpl.render({})).toBe('[]');
  });
  it('{{request.headers.host}} of an HTTP/2 request is its :authority', () => {
    const request = requestValuesFromHttp({ method: 'GET', url: '/', rawHeaders: [':authority', 'example.test:8443', ':path', '/'] });
    expect(compile('{{request.headers.Host}}|{{request.headers.:authority}}', 'mock.body').render({ request })).toBe('example.test:8443|example.test:8443');
    const both = requestValuesFromHttp({ method: 'GET', url: '/', rawHeaders: ['Host', 'h1.test', ':authority', 'h2.test'] });
    expect(compile('{{request.headers.host}}', 'mock.body').render({ request: both })).toBe('h1.test');
  });

  it('an event stream has no body and no path parameters', () => {
    const request = requestValuesFromHttp({ method: 'GET', url: '/events?topic=a', rawHeaders: ['Accept', 'text/event-stream'] });
    const tpl = compile('{{request.query.topic}} {{request.headers.accept}} [{{request.body}}] [{{request.params.id}}]', 'sse.event');
    expect(tpl.render({ request })).toBe('a text/event-stream [] []');
  });
});
