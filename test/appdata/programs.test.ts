/** The allow-list of programs per workspace on this computer (spec 2.8, 5.4). */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AllowedPrograms, programPolicy, workspaceDataDir } from '../../src/appdata/index.js';
import { isolatedDataDir } from '../support/temp.js';

const program = { command: 'node server.js --port 1', cwd: '/tmp/ws', env: { B: 'two', A: 'sekrit' } };

describe('allowed programs', () => {
  it('match on the exact command, folder and environment (order of the variables aside); values are not stored', async () => {
    await isolatedDataDir();
    const list = new AllowedPrograms('ws', '/tmp/ws');
    const entry = await list.allow(program);
    expect(await list.isAllowed({ ...program, env: { A: 'sekrit', B: 'two' } })).toBe(true);
    expect(await list.isAllowed({ ...program, command: 'node server.js --port 2' })).toBe(false);
    expect(await list.isAllowed({ ...program, cwd: '/tmp/ws/sub' })).toBe(false);
    expect(await list.isAllowed({ ...program, env: { A: 'other', B: 'two' } })).toBe(false);
    expect(await list.isAllowed({ ...program, env: {} })).toBe(false);
    expect(entry.envNames).toEqual(['A', 'B']);
    const stored = await fs.readFile(path.join(workspaceDataDir('ws', '/tmp/ws'), 'programs.json'), 'utf8');
    expect(stored).not.toContain('sekrit');
    // Another workspace (or another clone) has its own list.
    expect(await new AllowedPrograms('ws', '/tmp/other').isAllowed(program)).toBe(false);
    expect(await list.allow(program)).toEqual(entry); // once
    expect(await list.revoke(entry.id.slice(0, 4))).toEqual([entry]);
    expect(await list.isAllowed(program)).toBe(false);
  });

  it('the run policy: listed programs start; others only with allowNew, which records them', async () => {
    await isolatedDataDir();
    const list = new AllowedPrograms('ws', '/tmp/ws');
    expect(await programPolicy(list, false).allow(program)).toBe(false);
    expect(await programPolicy(list, true).allow(program)).toBe(true);
    expect(await programPolicy(list, false).allow(program)).toBe(true);
    expect(await programPolicy(undefined, false).allow(program)).toBe(false);
  });
});
