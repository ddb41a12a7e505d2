/**
 * Proxies (issue 20) over real sockets: an HTTP forward proxy (absolute form), a CONNECT tunnel
 * for https, Basic proxy credentials and 407, a SOCKS5 proxy, NO_PROXY matching, the environment
 * variables, a request that goes direct, and an unreachable proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpAgents, SendError, sendHttp } from '../../src/protocols/http/http.js';
import { ProxyRules, resolveProxyConfig, type ProxyConfig } from '../../src/protocols/http/proxy-rules.js';
import { closedPort, startHttp1, startHttpProxy, startSocks5Proxy, startTlsHttp1Only, type Peer, type TestProxy } from '../support/servers/index.js';
import { preparedRequest } from './prepared.js';

/** Tests reach 127.0.0.1, which goes direct unless noProxy opts loopback in. */
const through = (proxy: string, noProxy: string[] = []): ProxyConfig => ({ http: proxy, https: proxy, noProxy: ['<-loopback>', ...noProxy] });

async function send(agents: HttpAgents, url: string, settings = {}) {
  try {
    return await sendHttp(preparedRequest(url, {}, settings), { agents });
  } finally {
    await agents.close();
  }
}

describe('HTTP proxies', () => {
  let target: Peer;
  let secure: Peer;
  let open: TestProxy;
  let guarded: TestProxy;
  beforeAll(async () => {
    [target, secure, open, guarded] = await Promise.all([startHttp1(), startTlsHttp1Only(), startHttpProxy(), startHttpProxy({ credentials: 'ann:s3cret' })]);
  });
  afterAll(async () => {
    await Promise.all([target, secure, open, guarded].map((s) => s.close()));
  });

  it('sends http:// requests to the proxy in absolute form', async () => {
    const result = await send(new HttpAgents({ proxy: through(open.url) }), `${target.url}/via?x=1`);
    expect(result.status).toBe(200);
    expect(result.headers).toContainEqual(['via', '1.1 test-proxy']);
    expect(open.seen.at(-1)!.line).toBe(`GET ${target.url}/via?x=1`);
  });

  it('tunnels https:// requests with CONNECT', async () => {
    const before = open.seen.length;
    const result = await send(new HttpAgents({ proxy: through(open.url) }), `${secure.url}/tunnel`, { verifyTls: false });
    expect(result.status).toBe(200);
    expect(open.seen.slice(before).map((s) => s.line)).toEqual([`CONNECT ${new URL(secure.url).host}`]);
    expect(secure.seen.at(-1)!.url).toBe('/tunnel');
  });

  it('keeps repeated headers, each on its own line, through the proxy and the tunnel (undici\'s proxy agent kept the last)', async () => {
    const headers = [{ name: 'X-Tag', value: 'one' }, { name: 'X-Tag', value: 'two' }, { name: 'x-tag', value: 'three' }];
    const lines = (raw: string[]) => raw.flatMap((name, i) => (i % 2 === 0 && name.toLowerCase() === 'x-tag' ? [`${name}: ${raw[i + 1]}`] : []));
    const agents = () => new HttpAgents({ proxy: through(open.url) });
    expect((await sendHttp(preparedRequest(`${target.url}/repeat`, { headers }), { agents: agents() })).status).toBe(200);
    expect(lines(open.rawHeaders.at(-1)!)).toEqual(['X-Tag: one', 'X-Tag: two', 'x-tag: three']);
    expect((await sendHttp(preparedRequest(`${secure.url}/repeat`, { headers }, { verifyTls: false }), { agents: agents() })).status).toBe(200);
    expect(lines(secure.seen.at(-1)!.rawHeaders)).toEqual(['X-Tag: one', 'X-Tag: two', 'x-tag: three']);
  });

  it('sends proxy credentials as Basic, in both forms', async () => {
    const proxy = guarded.url.replace('http://', 'http://ann:s3cret@');
    expect((await send(new HttpAgents({ proxy: through(proxy) }), `${target.url}/auth`)).status).toBe(200);
    expect((await send(new HttpAgents({ proxy: through(proxy) }), `${secure.url}/auth`, { verifyTls: false })).status).toBe(200);
    const expected = `Basic ${Buffer.from('ann:s3cret').toString('base64')}`;
    expect(guarded.seen.slice(-2).map((s) => s.authorization)).toEqual([expected, expected]);
  });

  it('407: says the proxy wants credentials, or refused the ones sent, naming it without the password', async () => {
    const none = await send(new HttpAgents({ proxy: through(guarded.url) }), `${target.url}/x`).catch((e: unknown) => e);
    expect(none).toBeInstanceOf(SendError);
    expect((none as SendError).message).toContain(`the proxy ${guarded.url} asks for a user name and password (407 Proxy Authentication Required)`);
    const wrong = guarded.url.replace('http://', 'http://ann:nope@');
    const refused = await send(new HttpAgents({ proxy: through(wrong) }), `${secure.url}/x`, { verifyTls: false }).catch((e: unknown) => e);
    expect((refused as SendError).message).toContain(`the proxy ${guarded.url} refused the user name and password Ferry sent (407`);
    expect((refused as SendError).message).not.toContain('nope');
  });

  it('an unreachable proxy is named as such, not the target', async () => {
    const port = await closedPort();
    const error = await send(new HttpAgents({ proxy: through(`http://127.0.0.1:${port}`) }), `${target.url}/x`).catch((e: unknown) => e);
    expect((error as SendError).message).toMatch(new RegExp(`^could not reach the proxy http://127\\.0\\.0\\.1:${port} to send to 127\\.0\\.0\\.1:${target.port}: nothing is listening there\\.`));
    expect((error as SendError).kind).toBe('proxy');
  });

  it('settings.proxy: false, noProxy and loopback go direct', async () => {
    const before = open.seen.length;
    expect((await send(new HttpAgents({ proxy: through(open.url) }), `${target.url}/direct`, { proxy: false })).status).toBe(200);
    expect((await send(new HttpAgents({ proxy: through(open.url, ['127.0.0.0/8']) }), `${target.url}/cidr`)).status).toBe(200);
    expect((await send(new HttpAgents({ proxy: { http: open.url, https: open.url, noProxy: [] } }), `${target.url}/loopback`)).status).toBe(200);
    expect(open.seen.length).toBe(before);
  });
});

describe('SOCKS5 proxies', () => {
  let target: Peer;
  let secure: Peer;
  let socks: TestProxy;
  let guarded: TestProxy;
  beforeAll(async () => {
    [target, secure, socks, guarded] = await Promise.all([startHttp1(), startTlsHttp1Only(), startSocks5Proxy(), startSocks5Proxy({ credentials: 'bo:pw' })]);
  });
  afterAll(async () => {
    await Promise.all([target, secure, socks, guarded].map((s) => s.close()));
  });

  it('carries http and https requests', async () => {
    expect((await send(new HttpAgents({ proxy: through(socks.url) }), `${target.url}/socks`)).status).toBe(200);
    expect((await send(new HttpAgents({ proxy: through(socks.url) }), `${secure.url}/socks`, { verifyTls: false })).status).toBe(200);
    expect(socks.seen.map((s) => s.line)).toEqual([`SOCKS 127.0.0.1:${target.port}`, `SOCKS ${new URL(secure.url).host}`]);
    expect(secure.seen.at(-1)!.url).toBe('/socks');
  });

  it('with user name and password (RFC 1929)', async () => {
    const proxy = guarded.url.replace('socks5://', 'socks5://bo:pw@');
    expect((await send(new HttpAgents({ proxy: through(proxy) }), `${target.url}/socks-auth`)).status).toBe(200);
    expect(guarded.seen.at(-1)).toEqual({ line: `SOCKS 127.0.0.1:${target.port}`, authorization: 'bo:pw' });
    const refused = await send(new HttpAgents({ proxy: through(guarded.url.replace('socks5://', 'socks5://bo:no@')) }), `${target.url}/x`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SendError);
    expect((refused as SendError).kind).toBe('proxy');
    expect((refused as SendError).message).toContain(guarded.url);
    expect((refused as SendError).message).not.toContain(':no@');
  });
});

describe('which requests go through the proxy', () => {
  const rules = (noProxy: string[], proxy = 'http://proxy.corp:3128') => new ProxyRules({ http: proxy, https: proxy, noProxy });
  const via = (r: ProxyRules, url: string) => r.proxyFor(new URL(url)) !== undefined;

  it('NO_PROXY: names cover their subdomains, with or without a leading dot or *.', () => {
    for (const entry of ['example.com', '.example.com', '*.example.com']) {
      const r = rules([entry]);
      expect(via(r, 'https://example.com/'), entry).toBe(false);
      expect(via(r, 'https://api.example.com/'), entry).toBe(false);
      expect(via(r, 'https://notexample.com/'), entry).toBe(true);
    }
    expect(via(rules(['EXAMPLE.com']), 'http://Example.COM./')).toBe(false);
  });

  it('NO_PROXY: ports, IP addresses, CIDR ranges (v4 and v6) and *', () => {
    const r = rules(['api.test:8443', '10.1.2.3', '192.168.0.0/16', 'fd00::/8', '[2001:db8::1]']);
    expect(via(r, 'https://api.test:8443/')).toBe(false);
    expect(via(r, 'https://api.test/')).toBe(true);
    expect(via(r, 'http://10.1.2.3/')).toBe(false);
    expect(via(r, 'http://10.1.2.4/')).toBe(true);
    expect(via(r, 'http://192.168.44.1/')).toBe(false);
    expect(via(r, 'http://[fd12::1]/')).toBe(false);
    expect(via(r, 'http://[2001:db8::1]:8080/')).toBe(false);
    expect(via(r, 'http://[2001:db8::2]/')).toBe(true);
    expect(via(rules(['*']), 'https://anything.test/')).toBe(false);
  });

  it('loopback goes direct unless noProxy holds <-loopback>', () => {
    for (const url of ['http://localhost:1/', 'http://api.localhost/', 'http://127.0.0.9/', 'http://[::1]/']) {
      expect(via(rules([]), url), url).toBe(false);
      expect(via(rules(['<-loopback>']), url), url).toBe(true);
    }
  });

  it('ws:// and wss:// follow http:// and https://', () => {
    const r = new ProxyRules({ http: 'http://plain:1', https: 'http://secure:1', noProxy: [] });
    expect(r.proxyFor(new URL('ws://a.test/'))).toBe('http://plain:1');
    expect(r.proxyFor(new URL('wss://a.test/'))).toBe('http://secure:1');
  });

  it('the setting wins; else HTTP_PROXY, HTTPS_PROXY, ALL_PROXY and NO_PROXY in either case (lower first)', () => {
    const env = { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', HTTPS_PROXY: 'http://s:2', NO_PROXY: 'corp.test' };
    expect(resolveProxyConfig({ proxy: '', noProxy: ['x.test'], useSystemProxy: true }, env)).toEqual({
      http: 'http://lower:1', https: 'http://s:2', noProxy: ['x.test', 'corp.test'],
    });
    expect(resolveProxyConfig({ proxy: 'socks5://p:9', noProxy: [], useSystemProxy: true }, env)).toEqual({
      http: 'socks5://p:9', https: 'socks5://p:9', noProxy: ['corp.test'],
    });
    expect(resolveProxyConfig({ proxy: '', noProxy: [], useSystemProxy: false }, env)).toBeUndefined();
    expect(resolveProxyConfig({ proxy: '', noProxy: [], useSystemProxy: true }, { all_proxy: 'http://all:3' })).toEqual({
      http: 'http://all:3', https: 'http://all:3', noProxy: [],
    });
    expect(resolveProxyConfig({ proxy: '', noProxy: [], useSystemProxy: true }, {})).toBeUndefined();
  });
});
