/**
 * API key auth in a header: the key goes to the request's origin only. A redirect to another
 * origin drops it, as it drops Authorization; a redirect within the origin keeps it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS, WorkspaceData } from '../../src/appdata/index.js';
import { runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from './workspace.js';

const seen: Array<{ port: number; url: string; key?: string }> = [];
const servers: http.Server[] = [];
let first = '';
let other = '';

async function start(): Promise<string> {
  const server = http.createServer((req, res) => {
    const port = (server.address() as AddressInfo).port;
    seen.push({ port, url: req.url ?? '', ...(req.headers['x-api-key'] ? { key: String(req.headers['x-api-key']) } : {}) });
    const to = new URL(req.url ?? '/', 'http://x').searchParams.get('to');
    if (to) res.writeHead(302, { location: to }).end();
    else res.end('ok');
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  first = await start();
  other = await start();
});
afterAll(() => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

describe('API key auth across redirects', () => {
  it('drops the key header on a redirect to another origin and keeps it within the origin', async () => {
    const auth = { type: 'apiKey', key: 'X-Api-Key', value: 'k-123', location: 'header' };
    const s = await openedWorkspace({
      'requests/1 away.yaml': { name: 'away', seq: 1, url: `${first}/start?to=${encodeURIComponent(`${other}/landed`)}`, auth },
      'requests/2 same.yaml': { name: 'same', seq: 2, url: `${first}/start?to=/here`, auth },
    });
    const outcome = await runRequests({ workspace: s.ws, dataFolder: new WorkspaceData(s.ws.id, s.ws.root), settings: DEFAULT_SETTINGS });
    expect(outcome.summary.failedRequests).toBe(0);
    const paths = seen.map((x) => [new URL(x.url, 'http://x').pathname, x.key]);
    expect(paths).toEqual([
      ['/start', 'k-123'],
      ['/landed', undefined],
      ['/start', 'k-123'],
      ['/here', 'k-123'],
    ]);
  });
});
