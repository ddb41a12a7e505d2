/** Unmatched requests forwarded to a real backend, and CORS. */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, exchanges, mock, rawHead, send } from './helpers.js';

const backends: http.Server[] = [];
afterEach(async () => {
  for (const server of backends.splice(0)) {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
});

/** A real backend: echoes what it got, or streams a slow answer on /stream. */
async function backend(): Promise<string> {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/base/stream')) {
      res.writeHead(200, { 'content-type': 'text/plain', 'x-backend': 'yes' });
      let n = 0;
      const tick = setInterval(() => {
        res.write(`chunk${n}\n`);
        if (++n === 3) {
          clearInterval(tick);
          res.end();
        }
      }, 20);
      return;
    }
    const hash = createHash('sha256');
    let size = 0;
    req.on('data', (c: Buffer) => {
      hash.update(c);
      size += c.length;
    });
    req.on('end', () => {
      res.writeHead(207, { 'Content-Type': 'application/json', 'X-Backend': 'yes', 'set-cookie': ['s=1', 't=2'], 'access-control-expose-headers': 'X-Backend' });
      res.end(JSON.stringify({ method: req.method, url: req.url, host: req.headers.host, custom: req.headers['x-custom'], connection: req.headers.connection, size, sha: hash.digest('hex') }));
    });
  });
  backends.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('fallback: proxy', () => {
  it('forwards unmatched requests to the templated backend URL, headers and body passed through', async () => {
    const base = await backend();
    const { url, handle } = await mock(
      { routes: [{ path: '/local', body: 'mine' }], fallback: 'proxy', proxyUrl: '{{backend}}/base/' },
      { variables: [{ key: 'backend', value: base }] },
    );
    expect((await send(`${url}/local`)).body).toBe('mine');
    const big = Buffer.alloc(3 * 1024 * 1024, 7);
    const answer = await send(`${url}/users/1?x=%20y`, { method: 'PUT', headers: { 'x-custom': 'c1', 'content-type': 'application/octet-stream' }, body: big });
    expect(answer.status).toBe(207);
    expect(answer.headers['x-backend']).toBe('yes');
    expect(answer.headers['set-cookie']).toEqual(['s=1', 't=2']);
    const seen = JSON.parse(answer.body);
    expect(seen).toMatchObject({ method: 'PUT', url: '/base/users/1?x=%20y', host: new URL(base).host, custom: 'c1', size: big.length });
    expect(seen.sha).toBe(createHash('sha256').update(big).digest('hex'));
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'proxy' && r.detail.status === 207 && r.bytesIn === big.length));
  });

  it('streams the backend answer as it comes', async () => {
    const base = await backend();
    const { url } = await mock({ routes: [], fallback: 'proxy', proxyUrl: `${base}/base` });
    const arrivals: number[] = [];
    const text = await new Promise<string>((resolve, reject) => {
      http.get(`${url}/stream`, { agent: false }, (res) => {
        let all = '';
        res.on('data', (c: Buffer) => {
          arrivals.push(Date.now());
          all += c.toString();
        });
        res.on('end', () => resolve(all));
      }).on('error', reject);
    });
    expect(text).toBe('chunk0\nchunk1\nchunk2\n');
    expect(arrivals.length).toBeGreaterThanOrEqual(2); // not buffered into one piece
  });

  it('answers 502 with an explanation when the backend is down', async () => {
    const base = await backend();
    const server = backends.pop()!;
    await new Promise((r) => server.close(r));
    const { url } = await mock({ routes: [], fallback: 'proxy', proxyUrl: base });
    const answer = await send(`${url}/x`);
    expect(answer.status).toBe(502);
    expect(answer.body).toContain('could not reach the backend');
    expect(answer.body).toContain('ECONNREFUSED');
  });

  it('with cors on, proxied answers and 502s carry the CORS headers too', async () => {
    const base = await backend();
    const { url } = await mock({ cors: true, routes: [], fallback: 'proxy', proxyUrl: `${base}/base` });
    const proxied = await send(`${url}/users/1`, { headers: { origin: 'https://app.example' } });
    expect(proxied.status).toBe(207);
    expect(proxied.headers['x-backend']).toBe('yes');
    expect(proxied.headers['access-control-allow-origin']).toBe('https://app.example');
    const server = backends.pop()!;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    const down = await send(`${url}/users/1`, { headers: { origin: 'https://app.example' } });
    expect(down.status).toBe(502);
    expect(down.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it("the backend's header names come back as it spelled them; CORS adds only what it did not send", async () => {
    const base = await backend();
    const { url } = await mock({ cors: true, routes: [], fallback: 'proxy', proxyUrl: `${base}/base` });
    const head = await rawHead(url, '/users/1', { headers: { Origin: 'https://app.example' } });
    expect(head[0]).toBe('HTTP/1.1 207 Multi-Status');
    const names = head.slice(1).map((line) => line.slice(0, line.indexOf(':')));
    expect(names).toEqual([
      'Content-Type', 'X-Backend', 'set-cookie', 'set-cookie', 'access-control-expose-headers',
      'Access-Control-Allow-Origin', 'Access-Control-Allow-Credentials', 'Vary', 'Connection', 'Transfer-Encoding',
    ]);
  });

  it('the backend URL takes variables and dynamic values, never request values (8.2)', async () => {
    const base = await backend();
    const { url } = await mock({ routes: [], fallback: 'proxy', proxyUrl: '{{backend}}/{{request.method}}' }, { variables: [{ key: 'backend', value: base }] });
    const seen = JSON.parse((await send(`${url}/users/1`)).body);
    // Left as written (then percent-encoded as any URL path), not filled with the client's method.
    expect(seen.url).toBe('/%7B%7Brequest.method%7D%7D/users/1');
  });

  it('refuses to start with fallback proxy and no usable proxyUrl', async () => {
    await expect(mock({ routes: [], fallback: 'proxy' })).rejects.toThrow(/servers\/api\.yaml:\d+:\d+: http\.proxyUrl: proxyUrl is empty/);
    await expect(mock({ routes: [], fallback: 'proxy', proxyUrl: 'ftp://x' })).rejects.toThrow(/must start with http/);
    await expect(mock({ routes: [], fallback: 'proxy', proxyUrl: '{{nothing}}/x' })).rejects.toThrow(/is not a URL/);
  });

  it('names a variable of proxyUrl that is not defined, in the URL or in its host, and does not start', async () => {
    await expect(mock({ routes: [], fallback: 'proxy', proxyUrl: '{{realApi}}' })).rejects.toThrow(
      'servers/api.yaml:5:13: http.proxyUrl: proxyUrl "{{realApi}}" is not a URL: the variable realApi is not defined (servers fill the environment\'s and ferry.yaml\'s variables, never secret ones); define it there or give it with ferry serve --var realApi=VALUE (fallback is proxy).',
    );
    // Braces parse in a host name: the server started, and every unmatched request failed to resolve it.
    await expect(mock({ routes: [], fallback: 'proxy', proxyUrl: 'http://{{host}}:8080/v2' }, { variables: [{ key: 'other', value: 'x' }] })).rejects.toThrow(
      'servers/api.yaml:5:13: http.proxyUrl: proxyUrl "http://{{host}}:8080/v2" still holds {{host}} where the host should be: the variable host is not defined',
    );
    // Defined, it is filled and the server starts.
    const base = await backend();
    const { url } = await mock({ routes: [], fallback: 'proxy', proxyUrl: 'http://{{host}}/base' }, { variables: [{ key: 'host', value: new URL(base).host }] });
    expect(JSON.parse((await send(`${url}/users/1`)).body).url).toBe('/base/users/1');
  });
});

describe('cors', () => {
  it('answers preflights and adds Access-Control-Allow-* headers to answers', async () => {
    const { url, handle } = await mock({ cors: true, routes: [{ path: '/api', method: 'POST', body: '{}', headers: [{ key: 'Access-Control-Allow-Origin', value: 'https://mine.example' }] }, { path: '/plain', body: 'p' }] });
    const preflight = await send(`${url}/api`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-token' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(preflight.headers['access-control-allow-headers']).toBe('content-type, x-token');
    expect(preflight.headers['access-control-allow-credentials']).toBe('true');
    expect(preflight.headers['content-length']).toBeUndefined(); // a 204 has no length (RFC 9110 8.6)
    const plain = await send(`${url}/plain`, { headers: { origin: 'https://app.example' } });
    expect(plain.headers['access-control-allow-origin']).toBe('https://app.example');
    expect((await send(`${url}/plain`)).headers['access-control-allow-origin']).toBe('*');
    // The route's own header wins; 404s carry CORS headers too.
    expect((await send(`${url}/api`, { method: 'POST', headers: { origin: 'https://app.example' } })).headers['access-control-allow-origin']).toBe('https://mine.example');
    expect((await send(`${url}/nope`, { headers: { origin: 'https://x.example' } })).headers['access-control-allow-origin']).toBe('https://x.example');
    await eventually(async () => exchanges(handle).some((r) => r.detail.note === 'preflight' && r.detail.status === 204));
  });

  it("a route's header in any case stands for the CORS header of that name; Ferry's own go out spelled as usual", async () => {
    const { url } = await mock({
      cors: true,
      routes: [{ path: '/own', headers: [{ key: 'access-control-allow-origin', value: 'https://mine.example' }, { key: 'VARY', value: 'Accept' }], body: 'own' }],
    });
    expect(await rawHead(url, '/own', { headers: { Origin: 'https://app.example' } })).toEqual([
      'HTTP/1.1 200 OK',
      'access-control-allow-origin: https://mine.example',
      'VARY: Accept',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Length: 3',
      'Access-Control-Allow-Credentials: true',
      'Access-Control-Expose-Headers: *',
      'Connection: close',
    ]);
    const notFound = await rawHead(url, '/nope');
    expect(notFound.slice(0, 3)).toEqual(['HTTP/1.1 404 Not Found', 'Content-Type: text/plain; charset=utf-8', expect.stringMatching(/^Content-Length: \d+$/)]);
    expect(notFound.slice(3)).toEqual(['Access-Control-Allow-Origin: *', 'Access-Control-Expose-Headers: *', 'Connection: close']);
    const preflight = await rawHead(url, '/own', { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PUT' } });
    expect(preflight).toEqual([
      'HTTP/1.1 204 No Content',
      'Access-Control-Allow-Origin: https://app.example',
      'Access-Control-Allow-Credentials: true',
      'Access-Control-Expose-Headers: *',
      'Vary: Origin',
      'Access-Control-Allow-Methods: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
      'Access-Control-Allow-Headers: *',
      'Access-Control-Max-Age: 86400',
      'Connection: close',
    ]);
  });

  it('a preflight for another method allows that one as well, as asked', async () => {
    const { url } = await mock({ cors: true, routes: [] });
    const answer = await send(`${url}/x`, { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'PURGE' } });
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-methods']).toBe('PURGE, GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    expect(answer.headers['access-control-allow-headers']).toBe('*');
  });

  it('without cors, a preflight is an ordinary unmatched OPTIONS request', async () => {
    const { url } = await mock({ routes: [{ path: '/api', method: 'GET', body: 'x' }] });
    const answer = await send(`${url}/api`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(answer.status).toBe(404);
    expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an explicit OPTIONS route answers preflights itself', async () => {
    const { url } = await mock({ cors: true, routes: [{ path: '/api', method: 'OPTIONS', status: 200, body: 'custom' }] });
    const answer = await send(`${url}/api`, { method: 'OPTIONS', headers: { origin: 'https://a.example', 'access-control-request-method': 'GET' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('custom');
  });
});
