/**
 * The TCP, UDP and DNS requests of examples/protocols pass against the example's own peers
 * (socket-peers.mjs, fixed loopback ports 4030, 4031, 4053), run with `ferry run` from a copy.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

const example = path.join(import.meta.dirname, '..', '..', 'examples', 'protocols');
let peers: ChildProcess;

beforeAll(async () => {
  peers = spawn(process.execPath, [path.join(example, 'socket-peers.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    peers.stdout!.once('data', () => resolve());
    peers.once('exit', (code) => reject(new Error(`socket-peers.mjs exited (${code})`)));
  });
});
afterAll(() => new Promise<void>((resolve) => {
  if (peers.exitCode !== null) return resolve();
  peers.once('exit', () => resolve());
  peers.kill('SIGTERM');
}));

it('examples/protocols: the Sockets and DNS requests pass', async () => {
  const root = await tempDir();
  for (const folder of ['Sockets', 'DNS']) await fs.cp(path.join(example, 'requests', folder), path.join(root, 'requests', folder), { recursive: true });
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: protocols-sockets\nname: Protocols\n');
  process.env.FERRY_DATA_DIR = await tempDir('ferry-data-');
  const result = await ferry(['-w', root, 'run', '-r', 'json']);
  const report = JSON.parse(result.stdout) as { results: Array<{ path: string; passed: boolean; error: string | null; tests: unknown[] }> };
  expect(report.results.filter((r) => !r.passed)).toEqual([]);
  expect(report.results.map((r) => r.path).sort()).toEqual(['DNS/Api address.yaml', 'DNS/Localhost.yaml', 'DNS/Mail servers.yaml', 'DNS/No such name.yaml', 'Sockets/Ping.yaml', 'Sockets/Shout bytes.yaml', 'Sockets/Shout.yaml']);
  expect(result.code).toBe(0);
});
