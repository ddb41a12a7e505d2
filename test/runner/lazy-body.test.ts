/**
 * The response body crosses into the script sandbox only when a script reads it: a download
 * bigger than the script memory limit can still be checked for its status (Postman can).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS } from '../../src/appdata/index.js';
import { runRequests } from '../../src/runner/index.js';
import { openedWorkspace } from './workspace.js';

const bigBytes = 80 * 1024 * 1024; // over the default scriptMemoryMb (64)
// Over the size sent with the phase (64 K characters), under the memory limit: asked of the host when read.
const mediumBody = JSON.stringify({ name: 'é', pad: 'y'.repeat(200 * 1024) });
let server: http.Server;
let url = '';

beforeAll(async () => {
  const chunk = Buffer.alloc(1024 * 1024, 'x');
  server = http.createServer((req, res) => {
    if (req.url === '/small') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":1,"name":"é"}');
      return;
    }
    if (req.url === '/medium') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(mediumBody);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bigBytes) });
    for (let i = 0; i < bigBytes / chunk.length; i++) res.write(chunk);
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function runOne(path: string, postResponse: string) {
  const s = await openedWorkspace({ 'requests/big.yaml': { name: 'big download', url: `${url}${path}`, scripts: { postResponse } } });
  const { results } = await runRequests({ workspace: s.ws, dataFolder: s.data, settings: { ...DEFAULT_SETTINGS, maxResponseMb: 100 }, reporters: [] });
  return results[0]!;
}

describe('the response body is handed to scripts only when they read it', () => {
  it('a script that checks only the status passes on a body bigger than the script memory', async () => {
    const result = await runOne('/big', "pm.test('status', () => pm.response.to.have.status(200)); pm.test('size', () => pm.expect(pm.response.size().body).to.equal(" + bigBytes + '));');
    expect(result.error).toBeUndefined();
    expect(result.tests.map((t) => [t.name, t.passed])).toEqual([['status', true], ['size', true]]);
    expect(result.passed).toBe(true);
  }, 60_000);

  it('a script that reads that body fails with a message naming the request, the limit and what to do', async () => {
    const result = await runOne('/big', "pm.test('status', () => pm.response.to.have.status(200)); pm.response.text();");
    expect(result.passed).toBe(false);
    expect(result.error).toMatch(/the response body of "big download" \(about 80 MB\) does not fit in the script memory limit of 64 MB: raise scriptMemoryMb, lower maxResponseMb, or do not read the body/);
    // What the script did before it read the body still counts.
    expect(result.tests.map((t) => [t.name, t.passed])).toEqual([['status', true]]);
  }, 60_000);

  it.each(['/small', '/medium'])('a body read several ways gives the same text each time (%s: sent with the phase, or asked for)', async (path) => {
    const expected = path === '/small' ? '{"id":1,"name":"é"}' : mediumBody;
    const result = await runOne(path, [
      `const expected = ${JSON.stringify(expected)};`,
      'const first = pm.response.text();',
      "pm.test('same text', () => pm.expect(pm.response.text()).to.equal(first));",
      "pm.test('utf-8', () => pm.expect(first === expected).to.equal(true));",
      "pm.test('json', () => pm.expect(pm.response.json().name).to.equal('é'));",
      "pm.test('legacy', () => pm.expect(responseBody).to.equal(first));",
      "pm.test('to.have.body', () => pm.response.to.have.body(first));",
    ].join('\n'));
    expect(result.error).toBeUndefined();
    expect(result.tests.every((t) => t.passed), JSON.stringify(result.tests)).toBe(true);
    expect(result.tests).toHaveLength(5);
  });
});
