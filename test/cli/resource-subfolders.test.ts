/**
 * A subfolder of environments/ (servers/, loadtests/) holding .yaml files is not read (spec 2.1.2):
 * `ferry ls`, `ferry run`, `ferry env ls` and the app say so once, naming it and what to do; an
 * `-e` that names nothing points at it. A Postman export dropped there says to import it, and the
 * command it gives does.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { startAppServer } from '../../src/app/server/index.js';
import { formatWarning, openWorkspace } from '../../src/workspace/index.js';
import type { WorkspaceInfo } from '../../src/app/shared/api.js';
import { tempDir } from '../support/temp.js';
import { ApiClient } from '../app/api-client.js';

const warning = 'environments/prod ü/ is not read: Ferry reads environments from the .yaml files directly in environments/ (the file name is the id), not from its subfolders, and this one holds prod ü/api.yaml. Move the files up into environments/, or start the folder\'s name with a dot if it is not meant for Ferry.';

let peer: Peer;
let temp: TempWorkspace;
beforeAll(async () => {
  peer = await startHttp1();
  temp = await makeWorkspace({
    'requests/ok.yaml': { name: 'ok', url: `${peer.url}/echo` },
    'environments/local.yaml': { name: 'Local' },
    'environments/prod ü/api.yaml': { name: 'API', variables: [{ key: 'host', value: 'x' }] },
    'loadtests/data/users.csv': 'user\nann\n',
    'servers/mocks/users.yaml': { name: 'Users' },
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await peer.close();
  await temp.cleanup();
});

describe('a subfolder of environments/ in the commands', () => {
  it('ferry ls --problems names it, and the servers/ one; loadtests/data/ is data, not warned', async () => {
    const result = await ferry(['-w', temp.root, 'ls', '--problems']);
    expect(result.stdout).toContain(warning);
    expect(result.stdout).toContain('servers/mocks/ is not read: Ferry reads servers from the .yaml files directly in servers/');
    expect(result.stdout).not.toContain('loadtests/');
    expect(result.stdout).toContain('2 files with problems.');
  });

  it('ferry run says it in full (the run reads environments/); the servers/ one is counted', async () => {
    const result = await ferry(['-w', temp.root, 'run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`! ${warning}`);
    expect(result.stdout).toContain('! 1 other file problem: run `ferry ls --problems` to see it.');
  });

  it('ferry run -e with an id found nowhere points at the subfolder', async () => {
    const result = await ferry(['-w', temp.root, 'run', '-e', 'api']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Environments here: local. Not read, being in a subfolder: environments/prod ü/ (move its .yaml files up into environments/).');
  });

  it('ferry serve: a subfolder is no server; asked for by its name, or with no server to start, the refusal points at it', async () => {
    const named = await ferry(['-w', temp.root, 'serve', 'mocks']);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe('ferry: No server "mocks": there is no servers/mocks.yaml. This workspace has no servers (servers/*.yaml). Not read, being in a subfolder: servers/mocks/ (move its .yaml files up into servers/).\n');
    const all = await ferry(['-w', temp.root, 'serve']);
    expect(all.code).toBe(1);
    expect(all.stderr).toBe('ferry: This workspace has no servers to start (add one under servers/). Not read, being in a subfolder: servers/mocks/ (move its .yaml files up into servers/).\n');
  });

  it('ferry env ls says it once, without calling it a file left out', async () => {
    const result = await ferry(['-w', temp.root, 'env', 'ls']);
    expect(result.stderr.trim()).toBe(`ferry: ${warning}`);
  });

  it('the app lists it with the workspace\'s other file warnings', async () => {
    const app = await startAppServer({ workspace: await openWorkspace(temp.root), webRoot: await tempDir() });
    try {
      const client = new ApiClient(app.port);
      await client.login(app.token);
      const info = (await client.call('GET', '/api/workspace')).body as WorkspaceInfo;
      // Printed by the page in the terminal's words; its code says what it is.
      expect(info.warnings.map(formatWarning)).toContain(warning);
      expect(info.warnings.find((w) => formatWarning(w) === warning)?.code).toBe('subfolder');
      expect(info.environments.map((e) => e.id)).toEqual(['local']);
      // The servers panel lists the subfolder with its warning, as it lists a file that does not read.
      const servers = (await client.call('GET', '/api/servers')).body as { id: string; error?: string }[];
      expect(servers).toEqual([expect.objectContaining({ id: 'mocks', error: expect.stringMatching(/^servers\/mocks\/ is not read: .*Move the files up into servers\//), errorCode: 'subfolder' })]);
    } finally {
      await app.close();
    }
  });

  it('a Postman environment export in environments/ is not read; the import the warning gives makes it an environment', async () => {
    const root = (await makeWorkspace({ 'requests/ok.yaml': { name: 'ok', url: `${peer.url}/echo` } })).root;
    const name = 'Staging EU.postman_environment.json';
    await fs.mkdir(path.join(root, 'environments'), { recursive: true });
    await fs.writeFile(path.join(root, 'environments', name), JSON.stringify({ name: 'Staging EU', values: [{ key: 'host', value: 'eu.example', enabled: true }], _postman_variable_scope: 'environment' }));
    const listed = await ferry(['ls', '--problems'], root);
    const said = `environments/${name} is not read: it is a Postman environment export, and Ferry reads its own .yaml files only. Import it with \`ferry import "environments/${name}"\`, then delete the export.`;
    expect(listed.stdout).toContain(said);
    const run = await ferry(['run'], root);
    expect(run.stdout).toContain(`! ${said}`);
    // Not a file left out of the list: the warning says what to do.
    expect((await ferry(['env', 'ls'], root)).stderr.trim()).toBe(`ferry: ${said}`);
    const imported = await ferry(['import', `environments/${name}`], root);
    expect(imported.code, imported.stderr).toBe(0);
    await fs.rm(path.join(root, 'environments', name));
    const after = await ferry(['env', 'ls', '--json'], root);
    expect(JSON.parse(after.stdout).map((e: { name: string }) => e.name)).toEqual(['Staging EU']);
    expect((await ferry(['ls', '--problems'], root)).stdout).not.toContain('postman');
  });

  it('ferry run says Requests/ in full: a run on Linux (CI) leaves its requests out', async () => {
    const root = (await makeWorkspace({ 'requests/ok.yaml': { name: 'ok', url: `${peer.url}/echo` }, 'Requests/other.yaml': { name: 'other', url: `${peer.url}/echo` } })).root;
    const run = await ferry(['run', 'ok'], root);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('! Requests/ must be named requests/ in lower case: on a file system that tells case apart (Linux, most CI) it is not read');
  });
});
