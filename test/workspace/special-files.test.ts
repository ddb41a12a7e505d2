/**
 * Named pipes, sockets and devices in the workspace's folders (docs/workspace.md, Reading): never
 * opened (opening a pipe for reading waits for a writer), and each said once, as a link is, by
 * every reader: the workspace read whole and as a listing (with its cache), `ferry ls`, `ferry
 * run` and the app's API. Real FIFOs (the `mkfifo` program) and a real Unix socket.
 */
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/app/server/index.js';
import { formatWarning, openWorkspace } from '../../src/workspace/index.js';
import { ApiClient, until } from '../app/api-client.js';
import { ferry, ferryProcess } from '../support/cli.js';
import { listenLoopback } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const mkfifo = (file: string) => execFileSync('mkfifo', [file]);

/** A Unix socket file at `file`, there until the test ends (closing the listener removes it). */
async function socketFile(file: string): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(file, resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
}

/**
 * A workspace with one regular file of each kind and, beside them, a pipe where each reader looks:
 * a request, a folder's `_folder.yaml`, a file of another name, an environment, a server, a load
 * test's data file; a socket among the requests; and a dot-named pipe (ignored, as dot-names are).
 */
async function workspaceWithPipes(url = 'http://127.0.0.1:9/'): Promise<string> {
  const root = await tempDir();
  const files: Record<string, string> = {
    'ferry.yaml': 'version: 1\nid: pipes-ws\nname: Pipes\n',
    'requests/Good.yaml': `name: Good\nurl: ${url}\n`,
    'requests/Sub/Inner.yaml': `name: Inner\nurl: ${url}\n`,
    'environments/local.yaml': 'name: Local\n',
    'servers/real.yaml': 'name: Real\nport: 0\n',
    'loadtests/smoke.yaml': 'name: Smoke\ntargets:\n  - request: Good.yaml\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  for (const pipe of ['requests/Pipe.yaml', 'requests/notes.txt', 'requests/Sub/_folder.yaml', 'requests/.hidden.yaml', 'environments/staging.yaml', 'servers/mock.yaml', 'loadtests/users.csv']) {
    mkfifo(path.join(root, pipe));
  }
  await socketFile(path.join(root, 'requests', 'api.sock'));
  return root;
}

const skipped = (file: string, what = 'a named pipe') => `${file} is ${what}, not a regular file; Ferry reads regular files only, so it was skipped. Put a regular file in its place, or remove it.`;

/** Every warning of the workspace above, in the workspace's order (by path). */
const EXPECTED = [
  skipped('environments/staging.yaml'),
  skipped('loadtests/users.csv'),
  skipped('requests/api.sock', 'a socket'),
  skipped('requests/notes.txt'),
  skipped('requests/Pipe.yaml'),
  skipped('requests/Sub/_folder.yaml'),
  skipped('servers/mock.yaml'),
];

describe('named pipes, sockets and devices in the workspace', () => {
  it('are skipped, each said once, by the whole read and by the listing, with and without its cache; the files beside them read', async () => {
    const root = await workspaceWithPipes();
    const whole = await openWorkspace(root);
    expect(whole.warnings.map((w) => w.message)).toEqual(EXPECTED);
    expect(whole.warnings.map((w) => w.file)).toEqual(['environments/staging.yaml', 'loadtests/users.csv', 'requests/api.sock', 'requests/notes.txt', 'requests/Pipe.yaml', 'requests/Sub/_folder.yaml', 'servers/mock.yaml']);
    // The message begins with the path: printed as it is (no `path: path is …`).
    expect(whole.warnings.map(formatWarning)).toEqual(EXPECTED);
    // Good and the folder Sub (its name from the folder, the pipe named _folder.yaml not read) with Inner.
    expect(whole.tree.children.map((c) => (c.type === 'folder' ? `${c.name}/ ${c.children.map((i) => i.path).join(' ')}` : c.path))).toEqual(['Sub/ Sub/Inner.yaml', 'Good.yaml']);
    expect(whole.environments.map((e) => e.id)).toEqual(['local']);
    expect(whole.servers.map((s) => s.id)).toEqual(['real']);
    expect(whole.loadtests.map((l) => l.id)).toEqual(['smoke']);

    const cache = { dir: await tempDir(), version: 'test' };
    for (const round of ['no cache', 'cache written', 'cache read']) {
      const listing = await openWorkspace(root, { listing: true, ...(round === 'no cache' ? {} : { listingCache: cache }) });
      expect(listing.warnings, round).toEqual(whole.warnings);
      expect(listing.tree.children.map((c) => c.path), round).toEqual(['Sub', 'Good.yaml']);
      expect(listing.environments.map((e) => e.id), round).toEqual(['local']);
    }
    // A run of one request reads only its part of the tree: the pipe beside it is not its problem.
    const part = await openWorkspace(root, { requests: ['Sub/Inner.yaml'] });
    expect(part.part).toEqual(['Sub/Inner.yaml']);
    expect(part.warnings.map((w) => w.file)).toEqual(['environments/staging.yaml', 'loadtests/users.csv', 'requests/Sub/_folder.yaml', 'servers/mock.yaml']);
  });

  it('ferry ls lists each one and ferry ls --problems prints it, without hanging on the pipes (processes of their own)', async () => {
    const root = await workspaceWithPipes();
    const env = { FERRY_DATA_DIR: await tempDir() };
    for (const round of ['cold', 'warm']) {
      const ls = ferryProcess(['-w', root, 'ls'], env, 20_000);
      expect(await ls.done, `${round}: ${ls.output.stderr}`).toBe(0);
      expect(ls.output.stdout).toContain(['Warnings', ...EXPECTED.map((line) => `  ${line}`)].join('\n'));
      expect(ls.output.stdout).toMatch(/GET\s+Good\s+Good\.yaml/);
    }
    const problems = ferryProcess(['-w', root, 'ls', '--problems'], env, 20_000);
    expect(await problems.done).toBe(0);
    expect(problems.output.stdout).toBe(`${[...EXPECTED, '', '7 files with problems.'].join('\n')}\n`);
  }, 60_000);

  it('ferry run runs the requests beside them, fails those under a folder whose settings are a pipe, says the pipe a path names, and an environment that is one', async () => {
    const peer = http.createServer((_req, res) => res.end('ok'));
    const listening = await listenLoopback(peer, 'http');
    closers.push(() => listening.close());
    const root = await workspaceWithPipes(`${listening.url}/`);
    const env = { FERRY_DATA_DIR: await tempDir() };

    const all = ferryProcess(['-w', root, 'run'], env, 30_000);
    expect(await all.done, `${all.output.stdout}${all.output.stderr}`).toBe(1);
    expect(all.output.stdout).toMatch(/✓ Good Good\.yaml\n\s+GET http:\/\/127\.0\.0\.1:\d+\/ 200 OK/);
    // The folder's auth, headers and scripts are unknown: its request is not sent, as under a _folder.yaml that does not parse.
    expect(all.output.stdout).toContain(`✗ Inner Sub/Inner.yaml`);
    expect(all.output.stdout).toContain(`error: ${skipped('requests/Sub/_folder.yaml')} (the folder's auth, headers and scripts are unknown, so its requests are not sent; fix the file to run them)`);
    expect(all.output.stdout).toContain('2 requests, 1 failed');
    // Said in full for the files the run reads (the folder above Inner), the others counted.
    expect(all.output.stdout).toContain(`! ${skipped('requests/Sub/_folder.yaml')}\n! 6 other file problems: run \`ferry ls --problems\` to see them.`);

    const named = ferryProcess(['-w', root, 'run', 'Pipe.yaml'], env, 30_000);
    expect(await named.done).toBe(2);
    expect(named.output.stderr).toContain(`ferry: ${skipped('requests/Pipe.yaml')}`);

    const staging = ferryProcess(['-w', root, 'run', '-e', 'staging', 'Good.yaml'], env, 30_000);
    expect(await staging.done).toBe(2);
    expect(staging.output.stderr).toBe(`ferry: Environment "staging" cannot be used: ${skipped('environments/staging.yaml')}\n`);
  }, 90_000);

  it('a _folder.yaml that is a link or a pipe is said to a run of one request under it, which is not sent, as in a run of the whole tree', async () => {
    let received = 0;
    const peer = http.createServer((_req, res) => (received++, res.end('ok')));
    const listening = await listenLoopback(peer, 'http');
    closers.push(() => listening.close());
    const root = await workspaceWithPipes(`${listening.url}/`);
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'settings.yaml'), 'name: Linked\nheaders:\n  - key: X-Team\n    value: a\n');
    await fs.mkdir(path.join(root, 'requests', 'Linked'));
    await fs.writeFile(path.join(root, 'requests', 'Linked', 'One.yaml'), `name: One\nurl: ${listening.url}/\n`);
    await fs.symlink(path.join(outside, 'settings.yaml'), path.join(root, 'requests', 'Linked', '_folder.yaml'));
    process.env.FERRY_DATA_DIR = await tempDir();
    for (const [wanted, file] of [['Linked/One.yaml', 'requests/Linked/_folder.yaml'], ['Sub/Inner.yaml', 'requests/Sub/_folder.yaml']] as const) {
      const part = await openWorkspace(root, { requests: [wanted] });
      expect(part.part, wanted).toEqual([wanted]);
      expect(part.warnings.filter((w) => w.file.startsWith('requests/')).map((w) => w.file), wanted).toEqual([file]);
      // Sent before without the folder's headers when the link was in the folder of the one request run.
      const run = await ferry(['-w', root, 'run', wanted]);
      expect(run.code, run.stdout).toBe(1);
      expect(run.stdout).toContain(`(the folder's auth, headers and scripts are unknown, so its requests are not sent; fix the file to run them)`);
    }
    expect(received).toBe(0);
  });

  it("the app's API lists them (the workspace's warnings, the servers and load tests panels), a new server's port read past the pipe, and one made while it runs", async () => {
    const root = await workspaceWithPipes();
    process.env.FERRY_DATA_DIR = await tempDir();
    const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: await tempDir() });
    closers.push(() => app.close());
    const client = new ApiClient(app.port);
    await client.login(app.token);

    const info = await client.call('GET', '/api/workspace');
    expect(info.status).toBe(200);
    expect((info.body as { warnings: string[] }).warnings).toEqual(EXPECTED);
    const servers = (await client.call('GET', '/api/servers')).body as Array<{ id: string; error?: string }>;
    expect(servers.map((s) => [s.id, s.error])).toEqual([['real', undefined], ['mock', skipped('servers/mock.yaml')]]);
    const { loadTests } = (await client.call('GET', '/api/loadtests')).body as { loadTests: Array<{ id: string; error?: string }> };
    expect(loadTests.map((l) => [l.id, l.error])).toEqual([['smoke', undefined], ['users.csv', skipped('loadtests/users.csv')]]);
    // A new server's port is chosen past those of the files that do not read: the pipe is not opened.
    const created = await client.call('POST', '/api/server', { name: 'New', kind: 'http' });
    expect(created.status, created.text).toBe(200);
    expect((created.body as { id: string }).id).toBe('New');

    mkfifo(path.join(root, 'requests', 'Later.yaml'));
    const later = skipped('requests/Later.yaml');
    const warnings = await until('the new pipe in the workspace warnings', async () => {
      const listed = ((await client.call('GET', '/api/workspace')).body as { warnings: string[] }).warnings;
      return listed.includes(later) && listed;
    });
    expect(warnings.filter((w) => w === later)).toHaveLength(1);
  }, 60_000);
});
