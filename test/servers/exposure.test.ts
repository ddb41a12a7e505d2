/**
 * A server file can ask for host 0.0.0.0 (other devices too), and a cloned workspace's server
 * files are not the user's own: every start says so, on standard error, naming the file, and what
 * a proxy fallback then hands to the network. Servers here stay on 127.0.0.1; the message is
 * checked from the settings that would expose one.
 */
import { describe, expect, it } from 'vitest';
import { parseResource, type ServerFile } from '../../src/model/index.js';
import { exposureWarning } from '../../src/servers/index.js';
import { serveUntil } from '../../src/cli/serve.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir } from '../support/temp.js';
import { eventually, makeWorkspace } from './helpers.js';

function server(fields: Record<string, unknown>): ServerFile {
  const parsed = parseResource('server', { name: 'S', ...fields });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.value;
}

describe('servers other devices can reach', () => {
  it('get a warning naming the file; a proxy fallback is named too', () => {
    expect(exposureWarning('servers/a.yaml', server({ host: '0.0.0.0', port: 4010 }))).toBe(
      'servers/a.yaml listens on 0.0.0.0 (host), so other devices on the network can reach it. Set host: 127.0.0.1 to keep it on this computer.',
    );
    expect(exposureWarning('servers/p.yaml', server({ host: '0.0.0.0', http: { fallback: 'proxy', proxyUrl: 'http://127.0.0.1:6379' } }))).toBe(
      'servers/p.yaml listens on 0.0.0.0 (host), so other devices on the network can reach it, and it forwards every request no route matches to its proxyUrl. Set host: 127.0.0.1 to keep it on this computer.',
    );
    expect(exposureWarning('servers/l.yaml', server({ http: { fallback: 'proxy', proxyUrl: 'http://x' } }))).toBeUndefined();
  });

  it('ferry serve prints no warning for a server on 127.0.0.1 (the default)', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ servers: { api: { name: 'API', http: { routes: [{ path: '/x', body: 'x' }] } } } });
    const out: string[] = [];
    const err: string[] = [];
    let stop!: () => void;
    const done = serveUntil(await openWorkspace(root), [], { var: [], watch: false }, { out: (t) => void out.push(t), err: (t) => void err.push(t), color: false }, new Promise((r) => (stop = r)));
    await eventually(async () => out.length > 0);
    stop();
    expect(await done).toBe(0);
    expect(err).toEqual([]);
  });
});
