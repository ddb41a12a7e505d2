/**
 * DNS rebinding: a web page can make a browser send requests to 127.0.0.1 under its own host
 * name and read the answers as same-origin, through a mock's routes and its proxy fallback too.
 * A server on 127.0.0.1 answers only requests addressed to a loopback name; others get 403.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedDataDir } from '../support/temp.js';
import type { HttpExchangeRecord } from '../../src/servers/http-traffic.js';
import { mock, rawHead, send } from './helpers.js';

let backend: http.Server;
let backendUrl = '';
const backendSeen: string[] = [];

beforeAll(async () => {
  backend = http.createServer((req, res) => {
    backendSeen.push(req.url ?? '');
    res.end('internal data');
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => backend.close(() => resolve())));

describe('servers on 127.0.0.1', () => {
  it('refuse a request addressed to another host name, routes and proxy alike', async () => {
    await isolatedDataDir();
    const { url, handle } = await mock({ routes: [{ path: '/hello', body: 'hi' }], fallback: 'proxy', proxyUrl: backendUrl });
    const port = new URL(url).port;
    for (const path of ['/hello', '/secret']) {
      const refused = await send(`${url}${path}`, { headers: { Host: `attacker.example:${port}` } });
      expect(refused.status).toBe(403);
      expect(refused.body).toContain(`Ferry's server on 127.0.0.1 only answers requests addressed to 127.0.0.1, localhost, [::1] or a name under .localhost (this one was for "attacker.example:${port}")`);
    }
    expect(backendSeen).toEqual([]);
    // Each refusal is in the traffic log, with the Host it was addressed to.
    const refusedRecords = (handle.traffic.recent() as HttpExchangeRecord[]).filter((r) => r.detail.note === 'foreignHost');
    expect(refusedRecords.map((r) => [r.summary, r.note, r.level, r.detail.status, r.detail.host])).toEqual(['/hello', '/secret'].map((p) =>
      [`403 GET ${p}`, 'refused: addressed to another host name', 'warning', 403, `attacker.example:${port}`]));
    expect(refusedRecords.every((r) => r.server === 'api' && r.bytesOut > 0)).toBe(true);
    // Loopback names, with or without the port, in any case, pass.
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST`, `[::1]:${port}`, `app.localhost:${port}`]) {
      expect((await send(`${url}/hello`, { headers: { Host: host } })).body).toBe('hi');
    }
    expect((await send(`${url}/secret`)).body).toBe('internal data');
    expect(backendSeen).toEqual(['/secret']);
  });

  it('checks every request of a keep-alive connection: a Host that changes to a foreign name is refused', async () => {
    await isolatedDataDir();
    const { url } = await mock({ routes: [{ path: '/hello', body: 'hi' }] });
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (host: string) =>
      new Promise<{ status: number; socket: unknown }>((resolve, reject) => {
        const req = http.get(`${url}/hello`, { agent, headers: { Host: host } }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, socket: req.socket }));
        });
        req.on('error', reject);
      });
    try {
      const first = await get('localhost');
      const again = await get('localhost');
      const foreign = await get('attacker.example');
      expect([first.status, again.status, foreign.status]).toEqual([200, 200, 403]);
      // One connection for all three: the check cached for it did not let the foreign name through.
      expect(again.socket).toBe(first.socket);
      expect(foreign.socket).toBe(first.socket);
    } finally {
      agent.destroy();
    }
  });

  it('writes the 403 head with header names as written, as the HTTP mock does (not `content-type`)', async () => {
    await isolatedDataDir();
    const { url } = await mock({ routes: [{ path: '/hello', body: 'hi' }] });
    const head = await rawHead(url, '/hello', { headers: { Host: `attacker.example:${new URL(url).port}` } });
    expect(head[0]).toBe('HTTP/1.1 403 Forbidden');
    expect(head.filter((line) => /^content-(type|length):/i.test(line))).toEqual(['Content-Type: text/plain; charset=utf-8', expect.stringMatching(/^Content-Length: \d+$/)]);
  });
});
