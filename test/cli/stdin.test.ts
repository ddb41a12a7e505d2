/**
 * Commands that read standard input (`ferry import -`, `ferry update --from -`), run in process
 * with `ferry(args, cwd, stdin)`: the text given is their standard input (the command line's
 * `stdin`), not the test process's. The imported request is then sent to a real loopback server.
 */
import { promises as fs } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry, initedWorkspace } from '../support/cli.js';

const received: Array<{ method?: string; url?: string; headers: IncomingHttpHeaders; body: string }> = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push({ method: request.method, url: request.url, headers: request.headers, body });
    response.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
});
let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** An OpenAPI document of the test server with the given paths (GET each, answered 201). */
function openapi(paths: string[]): string {
  const entries = paths.map((p) => `  ${p}:\n    get:\n      operationId: get${p.replace(/\W/g, '')}\n      responses:\n        '201':\n          description: ok\n`);
  return `openapi: 3.0.3\ninfo:\n  title: Piped\n  version: '1'\nservers:\n  - url: ${base}\npaths:\n${entries.join('')}`;
}

describe('standard input given to the command', () => {
  it('ferry import - with a cURL command on stdin: the request is made from it, and sends what the command said', async () => {
    const { ws } = await initedWorkspace();
    const curl = `curl -X POST '${base}/items?tag=piped' -H 'X-Trace: from-stdin' -H 'Content-Type: application/json' --data '{"name":"kept"}'\n`;
    const imported = await ferry(['-w', ws, 'import', '-', '--name', 'Piped item', '--json'], ws, curl);
    expect(imported.code, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ kind: 'curl', requests: 1 });
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual(['Piped item.yaml']);

    const before = received.length;
    const run = await ferry(['-w', ws, 'run', 'Piped item'], ws);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(received.slice(before)).toEqual([
      expect.objectContaining({ method: 'POST', url: '/items?tag=piped', body: '{"name":"kept"}', headers: expect.objectContaining({ 'x-trace': 'from-stdin', 'content-type': 'application/json' }) }),
    ]);
  });

  it('ferry import - with nothing on stdin: refused, naming the empty input, nothing written', async () => {
    const { ws } = await initedWorkspace();
    const result = await ferry(['-w', ws, 'import', '-'], ws, '');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ferry: There is nothing to import: the input is empty\./);
    expect(await fs.readdir(path.join(ws, 'requests'))).toEqual([]);
  });

  it('ferry update FOLDER --from - reads the new version of the document from stdin', async () => {
    const { ws } = await initedWorkspace();
    const first = path.join(ws, 'v1.yaml');
    await fs.writeFile(first, openapi(['/pets']));
    const imported = await ferry(['-w', ws, 'import', first, '--name', 'Piped'], ws);
    expect(imported.code, imported.stderr).toBe(0);
    const updated = await ferry(['-w', ws, 'update', 'Piped', '--from', '-'], ws, openapi(['/pets', '/owners']));
    expect(updated.code, updated.stderr).toBe(0);
    const listed = JSON.parse((await ferry(['-w', ws, 'ls', '--json'], ws)).stdout) as { requests: Array<{ path: string }> };
    expect(listed.requests.map((request) => request.path).sort()).toEqual(['Piped/getowners.yaml', 'Piped/getpets.yaml']);
  });
});
