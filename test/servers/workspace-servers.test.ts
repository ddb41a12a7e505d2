/** startWorkspaceServers: what `ferry serve`, `ferry run --start-servers` and the app share. */
import { afterEach, describe, expect, it } from 'vitest';
import { ServerError, startWorkspaceServers, type WorkspaceServers } from '../../src/servers/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { isolatedDataDir } from '../support/temp.js';
import { makeWorkspace, send } from './helpers.js';

const handles: WorkspaceServers[] = [];
afterEach(async () => {
  while (handles.length) await handles.pop()!.stop();
});

const hello = { name: 'API', http: { routes: [{ path: '/who', body: '{{who}} on {{stage}}' }] } };

describe('startWorkspaceServers', () => {
  it('takes the environment by display name, --var values over it, and names the environment used', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({
      environments: { staging: [{ key: 'stage', value: 'staging' }, { key: 'who', value: 'env' }] },
      servers: { api: hello, open: { ...hello, host: '0.0.0.0', autoStart: true } },
    });
    const handle = await startWorkspaceServers(await openWorkspace(root), { env: 'STAGING', vars: new Map([['who', 'cli']]), ids: ['api'], watch: false });
    handles.push(handle);
    expect(handle.environment).toBe('staging');
    expect(handle.exposed).toEqual([]);
    expect((await send(`${handle.servers[0]!.url}/who`)).body).toBe('cli on staging');

    const auto = await startWorkspaceServers(await openWorkspace(root), { autoStartOnly: true, watch: false });
    handles.push(auto);
    expect(auto.servers.map((s) => s.id)).toEqual(['open']);
    expect(auto.environment).toBeUndefined();
    expect(auto.exposed).toEqual([{ server: 'open', level: 'warning', message: expect.stringContaining('servers/open.yaml listens on 0.0.0.0 (host)') }]);
  });

  it('refuses an unknown environment before anything starts', async () => {
    await isolatedDataDir();
    const root = await makeWorkspace({ environments: { local: [] }, servers: { api: hello } });
    const started = startWorkspaceServers(await openWorkspace(root), { env: 'nope', watch: false });
    await expect(started).rejects.toThrow(ServerError);
    await expect(started).rejects.toThrow('No environment "nope". Environments here: local.');
  });
});
