/**
 * `ferry env reset [ENV]` (found in a journey: a Postman collection whose test script counts runs
 * with pm.collectionVariables passed once and failed on every run after, since the value its
 * script saved wins over the file's, and no command could show or clear it). A real workspace,
 * a real HTTP server on 127.0.0.1, and `ferry run` with its scripts.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let server: http.Server;
let temp: TempWorkspace;

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('{"token": "t-1"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/login`;
  temp = await makeWorkspace(
    {
      'requests/Login.yaml': {
        name: 'Login', method: 'POST', url,
        scripts: {
          postResponse: [
            "pm.environment.set('token', pm.response.json().token);",
            "pm.collectionVariables.set('runs', String(Number(pm.collectionVariables.get('runs')) + 1));",
            "pm.globals.set('lastRun', 'yes');",
            "pm.test('first run', () => pm.expect(pm.collectionVariables.get('runs')).to.eql('1'));",
          ].join('\n'),
        },
      },
      'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', value: '' }] },
    },
    { variables: [{ key: 'runs', value: '0' }] },
  );
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  server.close();
  await temp.cleanup();
});

const run = () => ferry(['-w', temp.root, 'run', '-e', 'local', '-r', 'json']);
const firstRunTest = async () => JSON.parse((await run()).stdout).results[0].tests[0].passed as boolean;

describe('ferry env reset', () => {
  it('with nothing saved says so and succeeds', async () => {
    const result = await ferry(['-w', temp.root, 'env', 'reset']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('ferry: scripts have set no values in this workspace on this computer; nothing to forget.\n');
  });

  it('forgets one environment\'s values, then all of them, so the next run starts from the files', async () => {
    const files = await fs.readFile(path.join(temp.root, 'environments', 'local.yaml'), 'utf8');
    expect(await firstRunTest()).toBe(true);
    // The second run sees the count the first one saved.
    expect(await firstRunTest()).toBe(false);

    const one = await ferry(['-w', temp.root, 'env', 'reset', 'Local']);
    expect(one.code).toBe(0);
    expect(one.stderr).toContain('ferry: forgot the values scripts set in environment Local: token.\n');
    expect(one.stderr).not.toContain('t-1');
    expect(one.stderr).not.toMatch(/runs|lastRun/);
    // The workspace's count was not the environment's: still there.
    expect(await firstRunTest()).toBe(false);

    const all = await ferry(['-w', temp.root, 'env', 'reset']);
    expect(all.code).toBe(0);
    expect(all.stderr).toContain("ferry: forgot the values scripts set in the workspace's variables (pm.collectionVariables): runs.\n");
    expect(all.stderr).toContain('ferry: forgot the values scripts set in globals (pm.globals): lastRun.\n');
    expect(all.stderr).toContain('ferry: forgot the values scripts set in environment Local: token.\n');
    expect(await firstRunTest()).toBe(true);
    // Only this computer's data changed.
    expect(await fs.readFile(path.join(temp.root, 'environments', 'local.yaml'), 'utf8')).toBe(files);
  });

  it("prints a name a script gave escaped, so its control characters do not act on the terminal that reads the line", async () => {
    const hostile = await makeWorkspace({
      'requests/Set.yaml': {
        name: 'Set', method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        scripts: { postResponse: "pm.globals.set('a\\u001b[2Jb\\u202ec', 'x');" },
      },
    });
    try {
      expect((await ferry(['-w', hostile.root, 'run'])).code).toBe(0);
      const result = await ferry(['-w', hostile.root, 'env', 'reset']);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('ferry: forgot the values scripts set in globals (pm.globals): a\\x1b[2Jb\\u202ec.\n');
      expect(result.stderr).not.toMatch(/[\u001b\u202e]/);
    } finally {
      await hostile.cleanup();
    }
  });

  it('an unknown environment is refused with the ones there are', async () => {
    const result = await ferry(['-w', temp.root, 'env', 'reset', 'Nope']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No environment "Nope". Environments here: local.');
  });
});
