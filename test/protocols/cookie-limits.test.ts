/**
 * A hostile server cannot grow the persisted cookie jar without bound: a cookie over 4,096 bytes
 * is ignored (as browsers do), and a domain keeps at most 50 cookies, the oldest going first
 * (RFC 6265 6.1's minimums). Real server on 127.0.0.1, real jar file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { HttpAgents, sendHttp } from '../../src/protocols/http/http.js';
import { loadCookies, saveCookies } from '../../src/runner/cookies.js';
import { MAX_COOKIES_PER_DOMAIN } from '../../src/protocols/http/cookie-jar.js';
import type { PreparedRequest } from '../../src/request/prepared.js';
import { preparedRequest } from './prepared.js';

let server: http.Server;
let base = '';
let agents: HttpAgents;
let dir = '';

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const from = Number(url.searchParams.get('from') ?? 0);
    const count = Number(url.searchParams.get('count') ?? 0);
    const size = Number(url.searchParams.get('size') ?? 1);
    const cookies = Array.from({ length: count }, (_, i) => `c${from + i}=${'v'.repeat(size)}; Path=/`);
    res.writeHead(200, { 'set-cookie': cookies }).end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  agents = new HttpAgents();
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-cookie-limits-'));
});
afterAll(async () => {
  await agents.close();
  server.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const get = (url: string): PreparedRequest => preparedRequest(url, {}, { maxRedirects: 5, httpVersion: 'http1' });

describe('cookie jar limits', () => {
  it('ignores a cookie over 4,096 bytes and keeps one within', async () => {
    const jar = await loadCookies(path.join(dir, 'big.json'));
    await sendHttp(get(`${base}/?from=0&count=1&size=5000`), { agents, cookies: jar });
    await sendHttp(get(`${base}/?from=1&count=1&size=4000`), { agents, cookies: jar });
    expect(jar.cookieHeader(`${base}/`)).toBe(`c1=${'v'.repeat(4000)}`);
  });

  it('keeps at most 50 cookies a domain across sends and runs, the newest', async () => {
    const file = path.join(dir, 'many.json');
    for (let run = 0; run < 3; run++) {
      const jar = await loadCookies(file);
      await sendHttp(get(`${base}/?from=${run * 40}&count=40`), { agents, cookies: jar });
      await saveCookies(jar, file);
    }
    const jar = await loadCookies(file);
    const names = jar.cookieHeader(`${base}/`).split('; ').map((pair) => pair.split('=')[0]);
    expect(MAX_COOKIES_PER_DOMAIN).toBe(50);
    expect(names).toHaveLength(50);
    expect(new Set(names)).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `c${70 + i}`)));
  });
});
