/**
 * `ferry serve` refused a port that another `ferry serve` holds: it says that Ferry holds it
 * (which process, serving which file of which workspace) and how to stop it, where it used to say
 * "another program". Two real processes of bin/ferry.js on a real port of 127.0.0.1; a port held
 * by a program that is not Ferry still reads "another program".
 */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry, ferryProcess } from '../support/cli.js';
import { freePort } from '../support/servers/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

/** Polls every 10 ms (at most 30 s) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function workspaceWithMock(name: string, port: number): Promise<string> {
  const ws = path.join(await tempDir(), name);
  expect((await ferry(['init', ws])).code).toBe(0);
  await fs.mkdir(path.join(ws, 'servers'), { recursive: true });
  await fs.writeFile(path.join(ws, 'servers', 'api.yaml'), `name: API\nkind: http\nport: ${port}\nroutes:\n  - method: GET\n    path: /ping\n    response:\n      status: 200\n      body: pong\n`);
  return ws;
}

describe('ferry serve on a port another ferry serve holds', () => {
  it('names the other ferry serve (process, file, workspace) and how to stop it; its record goes when it stops', async () => {
    const data = await isolatedDataDir();
    const port = await freePort();
    const first = await workspaceWithMock('first', port);
    const second = await workspaceWithMock('second', port);
    const holder = ferryProcess(['-w', first, 'serve'], { FERRY_DATA_DIR: data });
    try {
      await until(() => holder.output.stdout.includes(`http://127.0.0.1:${port}`), 'the first serve to listen');
      const refused = ferryProcess(['-w', second, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done, refused.output.stderr).toBe(1);
      expect(refused.output.stderr).toBe(
        `ferry: server api did not start: servers/api.yaml: port ${port} is already in use by another ferry serve (process ${holder.child.pid}, serving servers/api.yaml of the workspace ${first}). Stop that one (Ctrl-C where it runs, or kill ${holder.child.pid}), or set another port in servers/api.yaml (0 = any free port).\n` +
          'ferry: No server could start.\n',
      );
      // The same workspace served twice says so.
      const again = ferryProcess(['-w', first, 'serve', '--json'], { FERRY_DATA_DIR: data });
      expect(await again.done).toBe(1);
      expect(again.output.stdout).toContain(`another ferry serve (process ${holder.child.pid}, serving servers/api.yaml of this workspace)`);
    } finally {
      holder.child.kill('SIGINT');
      expect(await holder.done).toBe(0);
    }
    // Its record went with it: nothing left in the data folder.
    expect(await fs.readdir(path.join(data, 'serving'))).toEqual([]);
  }, 90_000);

  it('a port held by a program that is not Ferry still reads "another program"', async () => {
    const data = await isolatedDataDir();
    const other = net.createServer();
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const port = (other.address() as net.AddressInfo).port;
    try {
      const ws = await workspaceWithMock('ws', port);
      const refused = ferryProcess(['-w', ws, 'serve'], { FERRY_DATA_DIR: data });
      expect(await refused.done).toBe(1);
      expect(refused.output.stderr).toContain(`servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program. Stop that program, or set another port (0 = any free port).`);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  }, 60_000);
});
