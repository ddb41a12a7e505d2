/** The example workspace: its mock API answers its requests, and their tests pass. */
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorkspaceData } from '../../src/appdata/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { ferry } from '../support/cli.js';
import { demoCopy } from '../support/demo.js';
import { isolatedDataDir } from '../support/temp.js';

describe('examples/demo', () => {
  it('ferry run --start-servers runs the collection against its own mock API and passes', async () => {
    await isolatedDataDir();
    // A copy on free ports, so the test never collides with a demo someone is running on 4010/4011.
    const { root, apiPort, eventsPort } = await demoCopy();
    const result = await ferry(['-w', root, 'run', '--start-servers', '-e', 'local', '-r', 'json']);
    expect(result.stderr).toContain(`Started server api at http://127.0.0.1:${apiPort}`);
    expect(result.stderr).toContain(`Started server events at http://127.0.0.1:${eventsPort}`);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toMatchObject({ requests: 4, failedRequests: 0, tests: 8, failedTests: 0 });
    const names = report.results.flatMap((r: { tests: { name: string }[] }) => r.tests.map((t) => t.name));
    expect(names).toContain('the workspace header reached the server');
    expect(names).toContain('the stream greets the user named in the URL');
    // Stopped after the run: the ports are free again.
    for (const port of [apiPort, eventsPort]) {
      await new Promise<void>((resolve, reject) => {
        const probe = net.connect(port, '127.0.0.1');
        probe.once('connect', () => reject(new Error(`port ${port} still answers after the run`)));
        probe.once('error', () => resolve());
      });
    }
  });

  it('the servers see the environment the run uses: the active one on this computer, else -e by name', async () => {
    await isolatedDataDir();
    const { root, apiPort: port } = await demoCopy();
    const api = path.join(root, 'servers', 'api.yaml');
    // The mock answers the environment's userId itself, so the test passes only if both sides use it.
    await fs.writeFile(api, (await fs.readFile(api, 'utf8')).replace('"id": {{request.params.id}}', '"id": {{userId}}'));
    const ws = await openWorkspace(root);
    await new WorkspaceData(ws.id, ws.root).setActiveEnvironment('local');
    const vars = ['--var', `baseUrl=http://127.0.0.1:${port}`];
    const active = await ferry(['-w', root, 'run', 'Users/Get user', '--start-servers', ...vars, '-r', 'json']);
    // On a failure, say why (a port taken between freePort and the server's start is the known way).
    expect(JSON.parse(active.stdout).summary, active.stdout + active.stderr).toMatchObject({ failedRequests: 0, failedTests: 0 });
    const byName = await ferry(['-w', root, 'run', 'Users/Get user', '--start-servers', '-e', 'LOCAL', ...vars, '-r', 'json']);
    expect(JSON.parse(byName.stdout).summary, byName.stdout + byName.stderr).toMatchObject({ failedRequests: 0, failedTests: 0 });
    const unknown = await ferry(['-w', root, 'run', '--start-servers', '-e', 'prod', ...vars]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No environment "prod". Environments here: local.');
  });

  it('--start-servers says why nothing started: no autoStart server, an unreadable file, a taken port (which stops the run)', async () => {
    await isolatedDataDir();
    const { root, apiPort: port } = await demoCopy();
    const api = path.join(root, 'servers', 'api.yaml');
    const events = path.join(root, 'servers', 'events.yaml');
    const original = await fs.readFile(api, 'utf8');
    const vars = ['--var', `baseUrl=http://127.0.0.1:${port}`];
    await fs.writeFile(api, original.replace('autoStart: true', 'autoStart: false'));
    await fs.writeFile(events, (await fs.readFile(events, 'utf8')).replace('autoStart: true', 'autoStart: false'));
    const none = await ferry(['-w', root, 'run', 'Health', '--start-servers', ...vars, '-r', 'json']);
    expect(none.code).toBe(1); // the request finds nothing listening
    expect(none.stderr).toContain(
      'ferry: --start-servers: no server started. No server has autoStart: true (servers/api.yaml, servers/events.yaml); set it on the ones the run needs.',
    );
    await fs.writeFile(api, 'name: [broken\n');
    const broken = await ferry(['-w', root, 'run', 'Health', '--start-servers', ...vars, '-r', 'json']);
    expect(broken.stderr).toContain('servers/api.yaml could not be read (see ferry ls).');

    const blocker = net.createServer((socket) => socket.destroy()); // not Ferry, holding the port
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', r));
    try {
      await fs.writeFile(api, original);
      const taken = await ferry(['-w', root, 'run', 'Health', '--start-servers', ...vars, '-r', 'json']);
      expect(taken.code).toBe(2);
      expect(taken.stderr).toContain(`ferry: --start-servers: server api did not start, so no request was sent: servers/api.yaml: port ${port} on 127.0.0.1 is already in use by another program.`);
      expect(taken.stderr).not.toContain('no server started');
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('--start-servers with a path that names no request says so before any server starts', async () => {
    await isolatedDataDir();
    const { root } = await demoCopy();
    const result = await ferry(['-w', root, 'run', 'Users/Nope', '--start-servers', '-e', 'local']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Users/Nope');
    expect(result.stderr).not.toContain('Started server');
  });
});
