/**
 * A server that redirects to another origin must not collect the request's credentials there:
 * Authorization (tested in http.test.ts), the request's own Cookie header, and a Digest answer
 * computed from the request's password. Cookies from the jar still follow their own scoping.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { preparedRequest } from './prepared.js';

interface Seen {
  url: string;
  headers: http.IncomingHttpHeaders;
}

async function start(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[]; server: http.Server }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', headers: req.headers });
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let other: Awaited<ReturnType<typeof start>>;
let origin: Awaited<ReturnType<typeof start>>;
let agents: HttpAgents;

beforeAll(async () => {
  // The other origin: challenges for Digest on /challenge, answers 200 elsewhere.
  other = await start((req, res) => {
    if (req.url?.startsWith('/challenge') && !req.headers.authorization) {
      res.writeHead(401, { 'www-authenticate': 'Digest realm="evil", nonce="abc123", qop="auth", algorithm=MD5' });
      return res.end();
    }
    res.end('landed');
  });
  // The first origin: redirects to wherever `to` says, or to its own /same.
  origin = await start((req, res) => {
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) {
      res.writeHead(302, { location: to });
      return res.end();
    }
    res.end('same origin');
  });
  agents = new HttpAgents();
});
afterAll(async () => {
  await agents.close();
  other.server.close();
  origin.server.close();
});

function request(url: string, over: Partial<PreparedRequest> = {}): PreparedRequest {
  return preparedRequest(url, over, { maxRedirects: 5, httpVersion: 'http1' });
}

describe('redirects to another origin', () => {
  it('drop the request\'s own Cookie header, and keep it on the same origin', async () => {
    const headers = [{ name: 'Cookie', value: 'session=TOPSECRET' }, { name: 'X-Trace', value: 't1' }];
    const away = await sendHttp(request(`${origin.url}/?to=${encodeURIComponent(`${other.url}/landed`)}`, { headers }), { agents });
    expect(away.status).toBe(200);
    const landed = other.seen.at(-1)!;
    expect(landed.url).toBe('/landed');
    expect(landed.headers.cookie).toBeUndefined();
    expect(landed.headers['x-trace']).toBe('t1');
    expect(origin.seen.at(-1)!.headers.cookie).toBe('session=TOPSECRET');

    await sendHttp(request(`${origin.url}/?to=/same`, { headers }), { agents });
    expect(origin.seen.at(-1)!.url).toBe('/same');
    expect(origin.seen.at(-1)!.headers.cookie).toBe('session=TOPSECRET');
  });

  it('do not answer the other origin\'s Digest challenge with the request\'s password', async () => {
    const before = other.seen.length;
    const result = await sendHttp(
      request(`${origin.url}/?to=${encodeURIComponent(`${other.url}/challenge`)}`, { authType: 'digest', digest: { username: 'alice', password: 's3cret' } }),
      { agents },
    );
    expect(result.status).toBe(401);
    const hits = other.seen.slice(before);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.headers.authorization).toBeUndefined();
  });
});
