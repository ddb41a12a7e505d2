import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HttpAgents, SendError, sendHttp } from '../../src/protocols/http/http.js';
import { loadCookies, saveCookies } from '../../src/runner/cookies.js';
import { closedPort, startH2c, startHttp1, startTls, startTlsHttp1Only, type Peer } from '../support/servers/index.js';
import { startDnsFixture } from '../support/dns-fixture.js';
import { preparedRequest } from './prepared.js';

const req = preparedRequest;

const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

let h1: Peer;
let h2c: Peer;
let tls: Peer;
let agents: HttpAgents;

beforeAll(async () => {
  [h1, h2c, tls] = await Promise.all([startHttp1(), startH2c(), startTls()]);
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  await Promise.all([h1.close(), h2c.close(), tls.close()]);
});

describe('HTTP versions', () => {
  it('speaks HTTP/1.1 and reuses the connection', async () => {
    const before = h1.connections;
    const first = await sendHttp(req(`${h1.url}/echo`), { agents });
    for (let i = 0; i < 4; i++) await sendHttp(req(`${h1.url}/echo`), { agents });
    expect(first.status).toBe(200);
    expect(first.httpVersion).toBe('1.1');
    expect(JSON.parse(text(first.body)).httpVersion).toBe('1.1');
    expect(first.remoteAddress).toBe('127.0.0.1');
    expect(first.timings.totalMs).toBeGreaterThan(0);
    expect(first.timings.firstByteMs).toBeLessThanOrEqual(first.timings.totalMs);
    // One connection for all five: the next send waits for undici to free the first one.
    expect(h1.connections - before).toBe(1);
  });

  it('reports HTTP/1.1 on a reused connection after a failed HTTP/2 attempt to the same origin', async () => {
    const fresh = new HttpAgents();
    try {
      await sendHttp(req(`${h1.url}/echo`), { agents: fresh });
      // Prior-knowledge HTTP/2 to a server that speaks only HTTP/1.1 fails (after connecting).
      await expect(sendHttp(req(`${h1.url}/echo`, {}, { httpVersion: 'http2', timeoutMs: 3000 }), { agents: fresh })).rejects.toThrow();
      const reused = await sendHttp(req(`${h1.url}/echo`), { agents: fresh });
      expect(reused.timings.connectMs).toBe(0);
      expect(reused.httpVersion).toBe('1.1');
      expect(JSON.parse(text(reused.body)).httpVersion).toBe('1.1');
    } finally {
      await fresh.close();
    }
  });

  it('speaks HTTP/2 over cleartext with prior knowledge', async () => {
    const r = await sendHttp(req(`${h2c.url}/echo`, {}, { httpVersion: 'http2' }), { agents });
    expect(r.httpVersion).toBe('2');
    expect(JSON.parse(text(r.body)).httpVersion).toBe('2.0');
  });

  it('negotiates HTTP/2 over TLS by ALPN, and HTTP/1.1 when asked', async () => {
    const auto = await sendHttp(req(`${tls.url}/echo`, {}, { verifyTls: false }), { agents });
    expect(auto.httpVersion).toBe('2');
    expect(JSON.parse(text(auto.body)).httpVersion).toBe('2.0');
    const one = await sendHttp(req(`${tls.url}/echo`, {}, { verifyTls: false, httpVersion: 'http1' }), { agents });
    expect(JSON.parse(text(one.body)).httpVersion).toBe('1.1');
  });

  it('times DNS, connect, TLS, first byte and total on a new connection, and no set-up on a reused one', async () => {
    // A resolver of its own, so the DNS step is really taken (and counted) on the way.
    let asked = 0;
    const own = new HttpAgents({
      lookup: ((host: string, options: unknown, done: (...args: unknown[]) => void) => {
        asked++;
        setTimeout(() => done(null, [{ address: '127.0.0.1', family: 4 }]), 5);
      }) as never,
    });
    try {
      const named = tls.url.replace('127.0.0.1', 'peer.ferry.test');
      const first = await sendHttp(req(`${named}/echo`, {}, { verifyTls: false }), { agents: own });
      expect(asked).toBe(1);
      const t = first.timings;
      expect(t.dnsMs).toBeGreaterThan(0);
      expect(t.connectMs).toBeGreaterThan(0);
      expect(t.tlsMs).toBeGreaterThan(0);
      expect(t.firstByteMs).toBeGreaterThanOrEqual(t.dnsMs + t.connectMs + t.tlsMs - 0.05);
      expect(t.totalMs).toBeGreaterThanOrEqual(t.firstByteMs);
      const again = await sendHttp(req(`${named}/echo`, {}, { verifyTls: false }), { agents: own });
      expect([again.timings.dnsMs, again.timings.connectMs, again.timings.tlsMs]).toEqual([0, 0, 0]);
      expect(again.timings.totalMs).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
  });

  it('gives each of two sends in flight at once the timings and peer of its own connection', async () => {
    const own = new HttpAgents();
    const other = await startHttp1();
    try {
      const [a, b] = await Promise.all([
        sendHttp(req(`${tls.url}/echo`, {}, { verifyTls: false }), { agents: own }),
        sendHttp(req(`${other.url}/echo`), { agents: own }),
      ]);
      expect(a.timings.tlsMs).toBeGreaterThan(0);
      expect(b.timings.connectMs).toBeGreaterThan(0);
      expect(b.timings.tlsMs).toBe(0);
      expect(a.remotePort).toBe(Number(new URL(tls.url).port));
      expect(b.remotePort).toBe(Number(new URL(other.url).port));
    } finally {
      await own.close();
      await other.close();
    }
  });

  it('refuses a self-signed certificate unless verification is off', async () => {
    const error = await sendHttp(req(`${tls.url}/echo`), { agents }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SendError);
    expect((error as SendError).kind).toBe('tls');
    expect((error as Error).message).toMatch(/self-signed certificate.*--insecure/);
  });

  it('http:// to a TLS server: the reset says to use https:// (it said only that the connection was closed)', async () => {
    const error = (await sendHttp(req(tls.url.replace('https:', 'http:') + '/echo'), { agents }).catch((e: unknown) => e)) as SendError;
    expect(error).toBeInstanceOf(SendError);
    expect(error.kind).toBe('reset');
    expect(error.message).toMatch(new RegExp(`^the connection to ${new URL(tls.url).host.replace(/\\./g, '\\.')} was closed before a complete response arrived \\([A-Z_]+\\); if it is a TLS server, use https://\\.$`));
  });

  it('says what to do when http2 is forced on a server that speaks only HTTP/1.1', async () => {
    const only1 = await startTlsHttp1Only();
    try {
      const overTls = (await sendHttp(req(`${only1.url}/echo`, {}, { verifyTls: false, httpVersion: 'http2' }), { agents }).catch((e: unknown) => e)) as SendError;
      expect(overTls.kind).toBe('protocol');
      expect(overTls.message).toMatch(/^localhost:\d+ does not speak HTTP\/2: its TLS handshake offered no h2 protocol.*Set settings\.httpVersion to auto or http1/);
      const cleartext = (await sendHttp(req(`${h1.url}/echo`, {}, { httpVersion: 'http2' }), { agents }).catch((e: unknown) => e)) as SendError;
      expect(cleartext.kind).toBe('protocol');
      expect(cleartext.message).toMatch(/did not answer in HTTP\/2 .*prior knowledge.*Set settings\.httpVersion to auto or http1/);
      // auto still works with both.
      expect((await sendHttp(req(`${only1.url}/echo`, {}, { verifyTls: false }), { agents })).httpVersion).toBe('1.1');
    } finally {
      await only1.close();
    }
  });

  it('refuses HTTP/3 with a clear message', async () => {
    await expect(sendHttp(req(`${h1.url}/echo`, {}, { httpVersion: 'http3' }), { agents })).rejects.toThrow(/HTTP\/3 is not supported yet/);
  });
});

describe('network errors are clear', () => {
  it('connection refused', async () => {
    const port = await closedPort();
    await expect(sendHttp(req(`http://127.0.0.1:${port}/`), { agents })).rejects.toThrow(/connection refused by 127\.0\.0\.1:\d+/);
  });

  it('unknown host (asked of a DNS fixture on 127.0.0.1, never of the network)', async () => {
    const dnsFixture = await startDnsFixture({ localhost: '127.0.0.1' });
    const resolving = new HttpAgents({ lookup: dnsFixture.lookup });
    try {
      await expect(sendHttp(req('http://no-such-host.invalid/'), { agents: resolving })).rejects.toThrow(/unknown host no-such-host\.invalid/);
      // A name the fixture knows resolves to loopback and is really connected to.
      const ok = await sendHttp(req(`${h1.url.replace('127.0.0.1', 'localhost')}/echo`), { agents: resolving });
      expect(ok.status).toBe(200);
      expect(dnsFixture.asked).toEqual(['no-such-host.invalid', 'localhost']);
    } finally {
      await resolving.close();
      await dnsFixture.close();
    }
  });

  it('whole-request timeout', async () => {
    const error = (await sendHttp(req(`${h1.url}/slow?ms=3000`, {}, { timeoutMs: 150 }), { agents }).catch((e: unknown) => e)) as SendError;
    expect(error.kind).toBe('timeout');
    expect(error.message).toMatch(/timed out after 150 ms/);
  });
});

describe('redirects', () => {
  it('follows up to maxRedirects and reports the chain', async () => {
    const r = await sendHttp(req(`${h1.url}/redirect/3`), { agents });
    expect(r.status).toBe(200);
    expect(r.redirects).toHaveLength(3);
    expect(r.url).toBe(`${h1.url}/echo`);
    // Every hop to the same origin reuses the one connection.
    const fresh = new HttpAgents();
    const before = h1.connections;
    await sendHttp(req(`${h1.url}/redirect/3`), { agents: fresh });
    await fresh.close();
    expect(h1.connections - before).toBe(1);
  });

  it('stops with a message past maxRedirects', async () => {
    await expect(sendHttp(req(`${h1.url}/redirect/5`, {}, { maxRedirects: 2 }), { agents })).rejects.toThrow(/stopped after 2 redirects \(maxRedirects is 2\)/);
  });

  it('returns the redirect itself when following is off', async () => {
    const r = await sendHttp(req(`${h1.url}/redirect/1`, {}, { followRedirects: false }), { agents });
    expect(r.status).toBe(302);
    expect(r.headers.find(([n]) => n.toLowerCase() === 'location')?.[1]).toBe('/echo');
  });

  it('turns POST into GET on 303 and keeps it on 307', async () => {
    const body = { kind: 'bytes' as const, source: 'text' as const, bytes: Buffer.from('payload'), isText: true };
    const r303 = await sendHttp(req(`${h1.url}/redirect/1?code=303`, { method: 'POST', body, headers: [{ name: 'Content-Type', value: 'text/plain' }] }), { agents });
    expect(JSON.parse(text(r303.body)).method).toBe('GET');
    const r307 = await sendHttp(req(`${h1.url}/redirect/1?code=307`, { method: 'POST', body }), { agents });
    const echoed = JSON.parse(text(r307.body));
    expect(echoed.method).toBe('POST');
    expect(Buffer.from(echoed.body, 'base64').toString()).toBe('payload');
  });
});

describe('responses', () => {
  it.each(['gzip', 'deflate', 'br', 'zstd'])('decodes %s', async (coding) => {
    const r = await sendHttp(req(`${h1.url}/encoded?coding=${coding}`), { agents });
    expect(text(r.body)).toBe('decoded body ✓');
    expect(r.bodySize).not.toBe(r.body.length);
  });

  it('sends a User-Agent, Accept: */* and, with decompress on, the encodings it decodes, unless the request sets them', async () => {
    const before = h1.seen.length;
    await sendHttp(req(`${h1.url}/echo?defaults`), { agents });
    await sendHttp(req(`${h1.url}/echo?own`, { headers: [{ name: 'user-agent', value: 'mine/1' }, { name: 'Accept-Encoding', value: 'identity' }, { name: 'ACCEPT', value: 'application/xml' }] }), { agents });
    await sendHttp(req(`${h1.url}/echo?raw`, {}, { decompress: false }), { agents });
    const [defaults, own, raw] = h1.seen.slice(before).map((x) => x.headers);
    expect(defaults!['user-agent']).toMatch(/^Ferry\/\d+\.\d+\.\d+/);
    // As Postman, Insomnia and curl send it (spec 4.7: a header added at send time).
    expect(defaults!.accept).toBe('*/*');
    expect(defaults!['accept-encoding']).toBe('gzip, deflate, br, zstd');
    expect([own!['user-agent'], own!['accept-encoding'], own!.accept]).toEqual(['mine/1', 'identity', 'application/xml']);
    expect(raw!['accept-encoding']).toBeUndefined();
    expect(raw!['user-agent']).toMatch(/^Ferry\//);
  });

  it('keeps encoded bytes when decompress is off', async () => {
    const r = await sendHttp(req(`${h1.url}/encoded?coding=gzip`, {}, { decompress: false }), { agents });
    expect(r.body[0]).toBe(0x1f);
    expect(r.body[1]).toBe(0x8b);
  });

  it('reads response headers up to 1 MB (undici stops at 16 KB) and names the limit past it', async () => {
    const raw = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (data) => {
        const size = Number(/size=(\d+)/.exec(data.toString())?.[1] ?? 0);
        socket.end(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(size)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`);
      });
    });
    await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`;
    try {
      const big = await sendHttp(req(`${base}/?size=100000`), { agents });
      expect(big.headers.find(([n]) => n === 'X-Big')?.[1]).toHaveLength(100_000);
      const error = (await sendHttp(req(`${base}/?size=2000000`), { agents }).catch((e: unknown) => e)) as SendError;
      expect(error.message).toMatch(/answered with response headers larger than Ferry reads \(1 MB in all\)/);
    } finally {
      raw.close();
    }
  });

  it('keeps repeated headers in wire order', async () => {
    const r = await sendHttp(req(`${h1.url}/repeated`), { agents });
    expect(r.headers.filter(([n]) => n.toLowerCase() === 'x-many').map(([, v]) => v)).toEqual(['one', 'two']);
    expect(r.headers.filter(([n]) => n.toLowerCase() === 'set-cookie')).toHaveLength(2);
    expect(r.size).toBe(r.headersSize + r.bodySize);
  });

  it('answers a Digest challenge (SHA-256, qop auth)', async () => {
    const ok = await sendHttp(req(`${h1.url}/digest`, { authType: 'digest', digest: { username: 'alice', password: 's3cret' } }), { agents });
    expect(ok.status).toBe(200);
    expect(text(ok.body)).toBe('digest ok');
    const wrong = await sendHttp(req(`${h1.url}/digest`, { authType: 'digest', digest: { username: 'alice', password: 'nope' } }), { agents });
    expect(wrong.status).toBe(401);
  });
});

describe('cookie jar', () => {
  it('stores cookies, sends them back, and persists them in the data folder', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-cookies-'));
    try {
      const file = path.join(dir, 'cookies.json');
      const jar = await loadCookies(file);
      await sendHttp(req(`${h1.url}/cookies/set`), { agents, cookies: jar });
      const echoed = JSON.parse(text((await sendHttp(req(`${h1.url}/echo`, { headers: [{ name: 'Cookie', value: 'mine=1' }] }), { agents, cookies: jar })).body));
      expect(echoed.headers.cookie).toBe('mine=1; session=abc; theme=dark');
      await saveCookies(jar, file);
      const again = await loadCookies(file);
      expect(again.cookieHeader(`${h1.url}/x`)).toBe('session=abc; theme=dark');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
