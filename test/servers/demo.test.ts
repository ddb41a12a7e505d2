/** The example workspace: its mock API answers its requests, and their tests pass. */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

describe('examples/demo', () => {
  it('ferry run --start-servers runs the collection against its own mock API and passes', async () => {
    await isolatedDataDir();
    // A copy on a free port, so the test never collides with a demo someone is running on 4010.
    const root = path.join(await tempDir(), 'demo');
    await fs.cp(path.join(import.meta.dirname, '..', '..', 'examples', 'demo'), root, { recursive: true });
    const port = await freePort();
    const api = path.join(root, 'servers', 'api.yaml');
    await fs.writeFile(api, (await fs.readFile(api, 'utf8')).replace('port: 4010', `port: ${port}`));
    const result = await ferry(['-w', root, 'run', '--start-servers', '-e', 'local', '--var', `baseUrl=http://127.0.0.1:${port}`, '-r', 'json']);
    expect(result.stderr).toContain(`Started server api at http://127.0.0.1:${port}`);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toMatchObject({ requests: 3, failedRequests: 0, tests: 7, failedTests: 0 });
    const names = report.results.flatMap((r: { tests: { name: string }[] }) => r.tests.map((t) => t.name));
    expect(names).toContain('the workspace header reached the server');
  });
});
