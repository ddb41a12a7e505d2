/**
 * The headers a send reports as sent (`sentHeaders`, what post-response scripts see as
 * `pm.request.headers`) are the ones the server received, those undici adds itself included
 * (Host over HTTP/1.1, Connection, Content-Length), in Postman's order: the request's own, then
 * User-Agent, Accept, Host, Accept-Encoding, Connection, Content-Length, Cookie. Real peers on
 * 127.0.0.1: HTTP/1.1 plain and over TLS, HTTP/2 cleartext, a forward proxy with credentials, a
 * redirect, and sends running at once on one pool.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CookieStore, HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { startH2c, startHttp1, startHttpProxy, startTlsHttp1Only, type Peer, type TestProxy } from '../support/servers/index.js';
import { preparedRequest } from './prepared.js';

let plain: Peer;
let tls: Peer;
let h2c: Peer;
let proxy: TestProxy;
let agents: HttpAgents;
beforeAll(async () => {
  [plain, tls, h2c, proxy] = await Promise.all([startHttp1(), startTlsHttp1Only(), startH2c(), startHttpProxy({ credentials: 'ann:s3cret' })]);
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  await Promise.all([plain, tls, h2c, proxy].map((s) => s.close()));
});

/** Header lines as `name: value`, names in lower case, sorted: what was sent, whatever the order. */
const lines = (pairs: readonly (readonly [string, string, true?])[]) => pairs.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort();
/** A peer's raw header list as pairs, HTTP/2's pseudo-headers left out. */
const received = (raw: string[]) => raw.flatMap((name, i) => (i % 2 === 0 && !name.startsWith(':') ? [[name, raw[i + 1]!] as [string, string]] : []));
const bytes = (text: string): PreparedRequest['body'] => ({ kind: 'bytes', bytes: new TextEncoder().encode(text), isText: true, source: 'text' } as PreparedRequest['body']);

async function sent(peer: Peer, request: PreparedRequest, ctx: { agents?: HttpAgents; cookies?: CookieStore } = {}) {
  const before = peer.seen.length;
  const result = await sendHttp(request, { agents: ctx.agents ?? agents, ...(ctx.cookies ? { cookies: ctx.cookies } : {}) });
  expect(result.status).toBe(200);
  return { headers: result.sentHeaders, wire: received(peer.seen.slice(before).at(-1)!.rawHeaders) };
}

describe('the headers reported as sent are those the server received', () => {
  it('HTTP/1.1: the request\'s own, then User-Agent, Accept, Host, Accept-Encoding, Connection and Content-Length as undici wrote them', async () => {
    const post = await sent(plain, preparedRequest(`${plain.url}/echo`, { method: 'POST', headers: [{ name: 'X-Own', value: '1' }, { name: 'Content-Type', value: 'text/plain' }], body: bytes('héllo') }));
    expect(lines(post.headers)).toEqual(lines(post.wire));
    const host = new URL(plain.url).host;
    expect(post.headers.map(([name]) => name)).toEqual(['X-Own', 'Content-Type', 'User-Agent', 'Accept', 'Host', 'Accept-Encoding', 'Connection', 'Content-Length']);
    // Those the client added are marked (Postman's `system`); the request's own are not.
    expect(post.headers.slice(2)).toEqual([['User-Agent', expect.any(String), true], ['Accept', '*/*', true], ['Host', host, true], ['Accept-Encoding', 'gzip, deflate, br, zstd', true], ['Connection', 'keep-alive', true], ['Content-Length', '6', true]]);
    expect(post.headers.slice(0, 2)).toEqual([['X-Own', '1'], ['Content-Type', 'text/plain']]);

    // No body: a GET and a DELETE send no Content-Length, a POST sends 0 (undici's rule, read from the wire).
    for (const method of ['GET', 'DELETE', 'POST']) {
      const empty = await sent(plain, preparedRequest(`${plain.url}/echo`, { method }));
      expect(lines(empty.headers), method).toEqual(lines(empty.wire));
      expect(empty.headers.find(([name]) => name === 'Content-Length')?.[1], method).toBe(method === 'POST' ? '0' : undefined);
    }
  });

  it('headers the request sets itself keep their place and case; the jar\'s cookies come last', async () => {
    const cookies = CookieStore.fromSerialized(undefined);
    await sent(plain, preparedRequest(`${plain.url}/cookies/set`), { cookies });
    const own = await sent(plain, preparedRequest(`${plain.url}/echo`, { method: 'PUT', headers: [{ name: 'user-agent', value: 'mine' }, { name: 'Accept-Encoding', value: 'identity' }], body: bytes('xyz') }), { cookies });
    expect(lines(own.headers)).toEqual(lines(own.wire));
    expect(own.headers.map(([name]) => name)).toEqual(['user-agent', 'Accept-Encoding', 'Accept', 'Host', 'Connection', 'Content-Length', 'Cookie']);
    expect(own.headers.at(-1)).toEqual(['Cookie', 'session=abc; theme=dark', true]);
  });

  it('a Cookie header of the request\'s own keeps its place, the jar\'s cookies joined to it, on the wire and in the list', async () => {
    const cookies = CookieStore.fromSerialized(undefined);
    await sent(plain, preparedRequest(`${plain.url}/cookies/set`), { cookies });
    const headers = [{ name: 'X-First', value: '1' }, { name: 'Cookie', value: 'mine=1' }, { name: 'X-After', value: 'y' }, { name: 'cookie', value: 'two=2' }];
    const own = await sent(plain, preparedRequest(`${plain.url}/echo`, { headers }), { cookies });
    expect(lines(own.headers)).toEqual(lines(own.wire));
    // undici writes Host and Connection first.
    expect(own.wire.filter(([name]) => !/^(host|connection)$/i.test(name)).slice(0, 3)).toEqual([['X-First', '1'], ['Cookie', 'mine=1; two=2; session=abc; theme=dark'], ['X-After', 'y']]);
    // Marked as the client's, as Postman marks it (its runtime writes the line).
    expect(own.headers.slice(0, 3)).toEqual([['X-First', '1'], ['Cookie', 'mine=1; two=2; session=abc; theme=dark', true], ['X-After', 'y']]);
    // Without a jar, the request's own cookies alone.
    const alone = await sent(plain, preparedRequest(`${plain.url}/echo`, { headers }));
    expect(alone.headers.slice(0, 3)).toEqual([['X-First', '1'], ['Cookie', 'mine=1; two=2', true], ['X-After', 'y']]);
    expect(lines(alone.headers)).toEqual(lines(alone.wire));
  });

  it('over TLS, and for the last hop of a redirect (a 303 after a POST goes on as a GET without a body)', async () => {
    const secure = await sent(tls, preparedRequest(`${tls.url}/echo`, { method: 'PATCH', body: bytes('{"a":1}') }, { verifyTls: false }));
    expect(lines(secure.headers)).toEqual(lines(secure.wire));
    expect(secure.headers).toContainEqual(['Content-Length', '7', true]);

    const redirected = await sent(plain, preparedRequest(`${plain.url}/redirect/1?code=303`, { method: 'POST', body: bytes('gone after the redirect') }));
    expect(lines(redirected.headers)).toEqual(lines(redirected.wire));
    expect(redirected.headers.some(([name]) => name === 'Content-Length')).toBe(false);
  });

  it('HTTP/2: no Host or Connection (:authority is not a header), Content-Length as sent', async () => {
    const h2 = await sent(h2c, preparedRequest(`${h2c.url}/echo`, { method: 'POST', headers: [{ name: 'X-Own', value: '2' }], body: bytes('four') }, { httpVersion: 'http2' }));
    expect(h2c.seen.at(-1)!.httpVersion).toBe('2.0');
    expect(lines(h2.headers)).toEqual(lines(h2.wire));
    expect(h2.headers.map(([name]) => name)).toEqual(['X-Own', 'User-Agent', 'Accept', 'Accept-Encoding', 'Content-Length']);
    expect(h2.headers.at(-1)).toEqual(['Content-Length', '4', true]);
  });

  it('through a forward proxy: what the proxy received but its credentials', async () => {
    const at = proxy.url.replace('http://', 'http://ann:s3cret@');
    const via = new HttpAgents({ proxy: { http: at, https: at, noProxy: ['<-loopback>'] } });
    try {
      const result = await sendHttp(preparedRequest(`${plain.url}/echo`, { method: 'POST', body: bytes('via') }), { agents: via });
      expect(result.status).toBe(200);
      const atProxy = received(proxy.rawHeaders.at(-1)!);
      expect(atProxy.map(([name]) => name.toLowerCase())).toContain('proxy-authorization');
      expect(lines(result.sentHeaders)).toEqual(lines(atProxy.filter(([name]) => name.toLowerCase() !== 'proxy-authorization')));
      expect(result.sentHeaders).toContainEqual(['Content-Length', '3', true]);
      expect(result.sentHeaders.map(([name]) => name)).toContain('Host');
    } finally {
      await via.close();
    }
  });

  it('sends running at once on one connection pool each report their own', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => 'x'.repeat(i * 7 + 1));
    const results = await Promise.all(bodies.map((body, i) => sendHttp(preparedRequest(`${plain.url}/echo?n=${i}`, { method: 'POST', body: bytes(body) }), { agents })));
    for (const [i, result] of results.entries()) {
      const wire = plain.seen.find((s) => s.url === `/echo?n=${i}`)!;
      expect(lines(result.sentHeaders), `send ${i}`).toEqual(lines(received(wire.rawHeaders)));
      expect(result.sentHeaders, `send ${i}`).toContainEqual(['Content-Length', String(bodies[i]!.length), true]);
    }
  });
});
