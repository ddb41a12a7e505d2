/**
 * A run whose requests cannot be read does not pass: `requests/` that is not a folder (or cannot be
 * listed) stops the run before anything is sent (exit 2), and a folder inside it that cannot be
 * listed is a failed item of the run, as a file that does not parse is. Real files; the second
 * case runs `ferry` as the user nobody when the tests run as root (root reads any folder).
 */
import { spawn, spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
const NOBODY = 65534;
let server: http.Server;
let url = '';

beforeAll(async () => {
  server = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function workspace(): Promise<string> {
  const root = path.join(await tempDir(), 'ws');
  expect((await ferry(['init', root])).code).toBe(0);
  for (const folder of ['Users', 'Open']) {
    await fs.mkdir(path.join(root, 'requests', folder));
    await fs.writeFile(path.join(root, 'requests', folder, `${folder}.yaml`), `name: ${folder}\nurl: ${url}\n`);
  }
  return root;
}

/** Runs bin/ferry.js as `uid` (when given), with its own data folder. */
function run(args: string[], uid?: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, NO_COLOR: '1', FERRY_DATA_DIR: path.join(args[1]!, '..', 'data') }, stdio: ['ignore', 'pipe', 'pipe'], ...(uid !== undefined ? { uid, gid: uid } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('a run whose requests cannot be read', () => {
  it('requests/ that is a file: refused before anything is sent, exit 2', async () => {
    await isolatedDataDir();
    const root = await workspace();
    await fs.rm(path.join(root, 'requests'), { recursive: true });
    await fs.writeFile(path.join(root, 'requests'), 'not a folder');
    for (const reporter of ['cli', 'json']) {
      const result = await ferry(['-w', root, 'run', '-r', reporter]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('requests/ cannot be read (it is a file, not a folder); its requests were not read. Make it a folder. Nothing was run.');
      expect(result.stdout).not.toContain('PASSED');
    }
  });

  it('requests/ that is a symbolic link: a run of the whole workspace is refused (exit 2), not passed with 0 requests', async () => {
    await isolatedDataDir();
    const root = await workspace();
    // The real folder elsewhere (a monorepo's link, or one planted in a cloned repository).
    const real = path.join(path.dirname(root), 'real-requests');
    await fs.rename(path.join(root, 'requests'), real);
    await fs.symlink(real, path.join(root, 'requests'));
    for (const reporter of ['cli', 'json']) {
      const result = await ferry(['-w', root, 'run', '-r', reporter]);
      expect(result.code, reporter).toBe(2);
      expect(result.stderr, reporter).toContain('ferry: requests is a symbolic link; Ferry never follows links, so no request was read. Put the real folder in its place (remove the link, then move or copy the folder it points to here as requests/). Nothing was run.');
      expect(result.stdout, reporter).not.toContain('PASSED');
    }
  });

  it('a folder that cannot be listed fails the run where it stands; the others run', async (ctx) => {
    const root = await workspace();
    const asRoot = process.getuid?.() === 0;
    if (asRoot) {
      // Everything nobody needs: the workspace (made writable for its data folder) and this package.
      const readable = spawnSync(process.execPath, ['-e', `require('fs').readFileSync(${JSON.stringify(BIN)})`], { uid: NOBODY, gid: NOBODY });
      if (readable.status !== 0) return ctx.skip();
      await fs.chmod(path.dirname(root), 0o777); // the test's own temporary folder (its data folder goes there)
      await fs.chmod(root, 0o777);
      for (const entry of await fs.readdir(root, { recursive: true })) await fs.chmod(path.join(root, entry), 0o777);
    }
    await fs.chmod(path.join(root, 'requests', 'Users'), 0o000);
    try {
      const result = await run(['-w', root, 'run'], asRoot ? NOBODY : undefined);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/✓ Open/);
      expect(result.stdout).toMatch(/✗ Users[\s\S]*requests\/Users\/ cannot be read \(permission denied\); its requests were not read\. Check the folder's permissions\./);
      expect(result.stdout).toContain('FAILED');
    } finally {
      await fs.chmod(path.join(root, 'requests', 'Users'), 0o755);
    }
  });

  it('a file or folder whose name is not valid UTF-8 is said to be so (not "disappeared", not an empty folder); the run fails where it stands', async () => {
    await isolatedDataDir();
    const root = await workspace();
    // Bytes no UTF-8 decoder accepts (a Latin-1 name from an old archive): Node lists them as U+FFFD.
    const bytes = (dir: string, name: string) => Buffer.concat([Buffer.from(path.join(root, dir) + path.sep), Buffer.from(name, 'latin1')]);
    await fs.writeFile(bytes('requests/Open', 'caf\xe9.yaml'), `name: cafe\nurl: ${url}\n`);
    await fs.mkdir(bytes('requests', 'D\xfcsseldorf'));
    await fs.writeFile(Buffer.concat([bytes('requests', 'D\xfcsseldorf'), Buffer.from('/get.yaml')]), `name: get\nurl: ${url}\n`);
    await fs.writeFile(bytes('environments', 'st\xe4ge.yaml'), 'name: stage\n');
    const ls = await ferry(['-w', root, 'ls']);
    for (const label of ['requests/Open/caf\ufffd.yaml', 'requests/D\ufffdsseldorf', 'environments/st\ufffdge.yaml']) {
      expect(ls.stdout, label).toContain(`${label} has a name that is not valid UTF-8 (shown here with \ufffd), so Ferry cannot open it: rename it to a UTF-8 name.`);
    }
    expect(ls.stdout).not.toContain('disappeared');
    const result = await ferry(['-w', root, 'run']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✓ Users/);
    expect(result.stdout).toMatch(/✗ D\ufffdsseldorf[\s\S]*not valid UTF-8/);
  });
});
