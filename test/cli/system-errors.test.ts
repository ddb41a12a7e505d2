/**
 * What a file-system problem outside a request looks like: one line that says what could not be
 * read or made, where, why, and what to do — never Node's `EACCES: …, open '…'`.
 */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

describe('system errors as people read them', () => {
  it('ferry.yaml that is a folder', async () => {
    await isolatedDataDir();
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'ferry.yaml'));
    const result = await ferry(['-w', root, 'ls']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${path.join(root, 'ferry.yaml')} cannot be read (it is a folder, not a file); the workspace cannot open without it. It must be a file you may read.`);
  });

  it('a data folder whose path holds a file', async () => {
    const file = path.join(await tempDir(), 'not-a-folder');
    await fs.writeFile(file, '');
    const before = process.env.FERRY_DATA_DIR;
    process.env.FERRY_DATA_DIR = file;
    try {
      const result = await ferry(['config', 'set', 'timeoutMs', '5']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain(`Could not create the data folder ${file}: a part of that path is a file, not a folder. Remove it, or point FERRY_DATA_DIR at a folder.`);
      expect(result.stderr).not.toMatch(/EEXIST: file already exists/);
    } finally {
      process.env.FERRY_DATA_DIR = before;
    }
  });

  // Node 20's recursive mkdir loops forever at full CPU on a folder that can never be made
  // (/proc/x), deaf to Ctrl-C and SIGTERM; each command runs in a process of its own, so that a
  // regression ends in a timeout, not a hung test run.
  it.skipIf(process.platform !== 'linux')('a data folder that cannot be made (FERRY_DATA_DIR=/proc/…): each command ends at once, saying so, never spinning', async () => {
    const root = path.join(await tempDir(), 'ws');
    expect((await ferry(['init', root])).code).toBe(0);
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: procdata\nname: P\nvariables:\n  - key: token\n    secret: true\n');
    // A request to a closed port: the run has something to save (history) without a server.
    await fs.writeFile(path.join(root, 'requests', 'One.yaml'), 'name: One\nurl: http://127.0.0.1:9/\n');
    const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
    const data = '/proc/ferry-data-test';
    for (const args of [['config', 'set', 'timeoutMs', '5'], ['cookies', 'ls'], ['env', 'use', '--none'], ['secret', 'set', 'token'], ['ls'], ['run']]) {
      const result = spawnSync(process.execPath, [bin, '-w', root, ...args], { encoding: 'utf8', input: 'value', timeout: 20_000, killSignal: 'SIGKILL', env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' } });
      const label = args.join(' ');
      expect(result.signal, `ferry ${label} did not end within 20 s`).toBeNull();
      expect(result.stderr, label).not.toMatch(/\n\s+at /);
      // What needs the data folder fails naming it; what only reads it (cookies ls: no jar), caches
      // in it (ls) or saves at its end (run: a warning) goes on.
      if (['ls', 'run', 'cookies'].includes(args[0]!)) continue;
      expect(result.status, label).toBe(2);
      expect(result.stderr, label).toBe(`ferry: Could not create the folder ${data}: /proc does not allow new folders (ENOENT).\n`);
    }
  }, 120_000);

  it('ferry load merge of a missing file or a folder', async () => {
    await isolatedDataDir();
    const dir = await tempDir();
    const missing = await ferry(['load', 'merge', path.join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`${path.join(dir, 'nope.json')} cannot be read (it does not exist); give the result files that \`ferry load --out-json\` wrote.`);
    const folder = await ferry(['load', 'merge', dir]);
    expect(folder.stderr).toContain(`${dir} cannot be read (it is a folder, not a file)`);
  });
});
