/** `ferry ... | head`: the reader leaves early; Ferry must not print a stack trace for EPIPE. */
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const RUN_FERRY = path.join(import.meta.dirname, '..', 'servers', 'support', 'run-ferry.ts');

describe('ferry writing into a closed pipe', () => {
  it('ls --json | head -c 100: no EPIPE stack trace, ferry exits 0', async () => {
    const data = await isolatedDataDir();
    const ws = path.join(await tempDir(), 'ws');
    expect((await ferry(['init', ws])).code).toBe(0);
    // Well over a pipe's 64 KB buffer, so the writes are still going when the reader leaves.
    for (let i = 0; i < 1500; i++) await fs.writeFile(path.join(ws, 'requests', `Request number ${i}.yaml`), `name: Request number ${i}\nurl: http://127.0.0.1:1/${i}\n`);
    const child = spawn('bash', ['-c', `set -o pipefail; "${process.execPath}" --import tsx "${RUN_FERRY}" -w "${ws}" ls --json | head -c 100 >/dev/null`], {
      env: { ...process.env, FERRY_DATA_DIR: data, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
  }, 30_000);
});
