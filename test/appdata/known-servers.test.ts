/** Server configurations this computer started or saved (2.11 autoStart), in a real data folder. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KnownServers, serverFingerprint, workspaceDataDir } from '../../src/appdata/index.js';
import { parseResource, type ServerFile } from '../../src/model/index.js';
import { tempDir } from '../support/temp.js';

function server(data: Record<string, unknown>): ServerFile {
  const parsed = parseResource('server', data);
  if (!parsed.ok) throw new Error('bad fixture');
  return parsed.value;
}

describe('KnownServers', () => {
  it('knows a configuration once remembered; any changed field makes another one; defaults written out do not', async () => {
    process.env.FERRY_DATA_DIR = await tempDir();
    const known = new KnownServers('ws-1', '/work/a');
    const first = server({ name: 'Chat', kind: 'websocket', websocket: { greeting: 'hi' } });
    expect(await known.isKnown('chat', first)).toBe(false);
    await known.remember('chat', first);
    expect(await known.isKnown('chat', first)).toBe(true);
    // The same content written with its defaults spelled out is the same configuration.
    expect(await known.isKnown('chat', server({ name: 'Chat', kind: 'websocket', host: '127.0.0.1', port: 0, websocket: { greeting: 'hi', mode: 'echo' } }))).toBe(true);
    expect(await known.isKnown('chat', server({ name: 'Chat', kind: 'websocket', websocket: { greeting: 'hello' } }))).toBe(false);
    // Another id, or the same workspace in another folder (a clone), does not know it.
    expect(await known.isKnown('other', first)).toBe(false);
    expect(await new KnownServers('ws-1', '/work/b').isKnown('chat', first)).toBe(false);
    // Kept in the data folder, as hashes only.
    const stored = await fs.readFile(path.join(workspaceDataDir('ws-1', '/work/a'), 'known-servers.json'), 'utf8');
    expect(JSON.parse(stored)).toEqual({ chat: [serverFingerprint('chat', first)] });
    expect(stored).not.toContain('hi');
  });

  it('keeps the last 20 configurations per server; hostile ids are plain keys', async () => {
    process.env.FERRY_DATA_DIR = await tempDir();
    const known = new KnownServers('ws-2', '/work/c');
    const versions = Array.from({ length: 22 }, (_, i) => server({ name: `v${i}` }));
    for (const v of versions) await known.remember('api', v);
    expect(await known.isKnown('api', versions[0]!)).toBe(false);
    expect(await known.isKnown('api', versions[1]!)).toBe(false);
    expect(await known.isKnown('api', versions[2]!)).toBe(true);
    expect(await known.isKnown('api', versions[21]!)).toBe(true);
    await known.remember('__proto__', versions[0]!);
    expect(await known.isKnown('__proto__', versions[0]!)).toBe(true);
    expect(await known.isKnown('constructor', versions[0]!)).toBe(false);
  });
});
