/**
 * What post-response scripts see of the request as sent, as in Newman: the legacy `request` object
 * (logged as JSON by old collections) and `pm.request.headers` hold the headers the client added —
 * User-Agent, Accept, Host, Accept-Encoding, Connection, Content-Length and the jar's cookies, as
 * the server received them — after the request's own, in Postman's order; `request.id` is
 * `pm.request.id` and `pm.info.requestId` and `request.description` the request's notes;
 * `responseCookies` lists the jar's cookies for the URL as Newman writes them. A real run against
 * a local server that sets a cookie.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from '../runner/workspace.js';

let server: http.Server;
let origin = '';
/** The header lines each request arrived with, by its path. */
const arrived = new Map<string, string[]>();
beforeAll(async () => {
  server = http.createServer((req, res) => {
    arrived.set(req.url!, req.rawHeaders);
    if (req.url === '/set') res.setHeader('Set-Cookie', 'sid=abc; Path=/');
    req.resume().on('end', () => res.end('ok'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('the request as sent, in post-response scripts', () => {
  it('legacy request: the path as id, the notes as description, the headers the client added and the cookies after the request\'s own', async () => {
    const s = await openedWorkspace({
      'requests/A.yaml': { name: 'A', seq: 1, url: `${origin}/set` },
      'requests/B.yaml': {
        name: 'B',
        seq: 2,
        docs: 'Reads the session.',
        url: `${origin}/read`,
        headers: [{ key: 'X-Own', value: '1' }],
        scripts: {
          preRequest: 'console.log(JSON.stringify(request.headers));',
          postResponse: "console.log(JSON.stringify(request));\nconsole.log(pm.request.headers.get('Host'), pm.request.headers.has('User-Agent'));\nconsole.log(JSON.stringify(responseCookies), postman.getResponseCookie('sid').value);",
        },
      },
    });
    const { results } = await runRequests({ workspace: s.ws, dataFolder: s.data, settings: DEFAULT_SETTINGS });
    const b = results.find((r) => r.name === 'B')!;
    expect(b.error ?? null).toBeNull();
    // Before sending: the request's own headers only, as in Newman.
    expect(b.console[0]).toBe('{"x-own":"1"}');
    const legacy = JSON.parse(b.console[1]!) as { id: string; name: string; description: string; headers: Record<string, string>; method: string; url: string; data: unknown };
    expect(Object.keys(legacy)).toEqual(['id', 'name', 'description', 'headers', 'method', 'url', 'data']);
    expect(legacy).toMatchObject({ id: 'B.yaml', name: 'B', description: 'Reads the session.', method: 'GET', url: `${origin}/read`, data: {} });
    // Newman's order: the request's own, those the client adds (Newman's also has its Cache-Control and Postman-Token), the cookies.
    expect(Object.keys(legacy.headers)).toEqual(['x-own', 'user-agent', 'accept', 'host', 'accept-encoding', 'connection', 'cookie']);
    expect(legacy.headers).toMatchObject({ 'x-own': '1', accept: '*/*', host: origin.slice('http://'.length), cookie: 'sid=abc' });
    expect(b.console[2]).toBe(`${origin.slice('http://'.length)} true`);
    // responseCookies: the jar's cookies for the URL (this one was set by A), written as Newman writes them.
    expect(b.console[3]).toBe(`[{"name":"sid","expires":null,"maxAge":0,"domain":"127.0.0.1","path":"/","secure":false,"httpOnly":false,"hostOnly":true,"value":"abc"}] abc`);
  });

  it('pm.request.headers after sending: every header the server received, Content-Length and Connection included; pm.request.id is the path', async () => {
    const s = await openedWorkspace({
      'requests/Orders/Create.yaml': {
        name: 'Create',
        method: 'POST',
        url: `${origin}/orders`,
        body: { type: 'json', text: '{"item":"tea","n":2}' },
        scripts: { postResponse: 'console.log(JSON.stringify(pm.request.headers.toJSON().map((h) => [h.key, h.value])));\nconsole.log(pm.request.id, request.id, pm.info.requestId);' },
      },
    });
    const { results } = await runRequests({ workspace: s.ws, dataFolder: s.data, settings: DEFAULT_SETTINGS });
    expect(results[0]!.error ?? null).toBeNull();
    const seen = JSON.parse(results[0]!.console[0]!) as [string, string][];
    const raw = arrived.get('/orders')!;
    const wire = raw.flatMap((name, i) => (i % 2 === 0 ? [`${name.toLowerCase()}: ${raw[i + 1]}`] : []));
    expect(seen.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort()).toEqual(wire.sort());
    // As Newman lists them (but for its Cache-Control and Postman-Token): the body's type, the client's, the length sent.
    expect(seen.map(([name]) => name)).toEqual(['Content-Type', 'User-Agent', 'Accept', 'Host', 'Accept-Encoding', 'Connection', 'Content-Length']);
    expect(seen.at(-1)).toEqual(['Content-Length', '20']);
    expect(results[0]!.console[1]).toBe('Orders/Create.yaml Orders/Create.yaml Orders/Create.yaml');
  });
});
