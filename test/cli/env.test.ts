/** `ferry env ls|use`: the active environment, kept on this computer, used by run without -e. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

let ws: string;
beforeEach(async () => {
  await isolatedDataDir();
  ws = await tempDir();
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: env-cli\nname: Envs\n');
  await fs.mkdir(path.join(ws, 'environments'));
  await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), 'name: Staging Env\nvariables:\n  - key: a\n    value: "1"\n');
  await fs.writeFile(path.join(ws, 'environments', 'prod.yaml'), 'name: prod\n');
});

describe('ferry env', () => {
  it('use by name or id, ls marks it (text and JSON), --none clears it', async () => {
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).toContain('"active": false');
    const used = await ferry(['-w', ws, 'env', 'use', 'Staging Env']);
    expect(used.code).toBe(0);
    expect(used.stderr).toContain('staging is the active environment on this computer');
    const rows = JSON.parse((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout) as Array<{ id: string; active: boolean; variables: number }>;
    expect(rows.find((r) => r.id === 'staging')).toMatchObject({ active: true, variables: 1 });
    expect(rows.find((r) => r.id === 'prod')!.active).toBe(false);
    expect((await ferry(['-w', ws, 'env', 'ls'])).stdout).toMatch(/\* staging\s+Staging Env\s+\(active\)/);
    expect((await ferry(['-w', ws, 'env', 'use', '--none'])).code).toBe(0);
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).not.toContain('"active": true');
  });

  it('refuses an unknown environment, naming the ones there are, and keeps the active one', async () => {
    await ferry(['-w', ws, 'env', 'use', 'prod']);
    const refused = await ferry(['-w', ws, 'env', 'use', 'nope']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('No environment "nope". Environments here: ');
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).toMatch(/"id": "prod",\s+"name": "prod",\s+"active": true/);
    expect((await ferry(['-w', ws, 'env', 'use'])).stderr).toContain('Name one environment, or give --none');
  });
});
