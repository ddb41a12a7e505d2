/**
 * Named pipes, sockets and devices in the workspace's folders (docs/workspace.md, Reading): never
 * opened (opening a pipe for reading waits for a writer), and each said once, as a link is, by
 * every reader: the workspace read whole and as a listing (with its cache), `ferry ls`, `ferry
 * run` and the app's API. Real FIFOs (the `mkfifo` program) and a real Unix socket.
 */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer } from '../../src/app/server/index.js';
import type { WorkspaceInfo } from '../../src/app/shared/api.js';
import { formatWarning, openWorkspace } from '../../src/workspace/index.js';
import { ApiClient, until } from '../app/api-client.js';
import { ferry, ferryProcess } from '../support/cli.js';
import { listenLoopback } from '../support/servers/listen.js';
import { tempDir } from '../support/temp.js';
import { mkfifo, socketFile } from '../support/special-files.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

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

  it('requests/, environments/, servers/ and loadtests/ that are themselves a pipe or a socket say what they are, never listed; a run, a named path, -e and ferry serve say it', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: pipe-folders\nname: Pipe folders\n');
    for (const folder of ['requests', 'environments', 'loadtests']) mkfifo(path.join(root, folder));
    await socketFile(path.join(root, 'servers'));
    const notFolder = (folder: string, what: string) => `${folder}/ cannot be read (it is ${what}, not a folder)`;
    const expected = [
      `${notFolder('environments', 'a named pipe')}. Replace it with a folder.`,
      `${notFolder('loadtests', 'a named pipe')}. Replace it with a folder.`,
      `${notFolder('requests', 'a named pipe')}; its requests were not read. Replace it with a folder.`,
      `${notFolder('servers', 'a socket')}. Replace it with a folder.`,
    ];
    const whole = await openWorkspace(root);
    // Before, each said "it is a file, not a folder".
    expect(whole.warnings.map(formatWarning)).toEqual(expected);
    expect(whole.warnings.map((w) => w.file)).toEqual(['environments', 'loadtests', 'requests', 'servers']);
    const listing = await openWorkspace(root, { listing: true, listingCache: { dir: await tempDir(), version: 'test' } });
    expect(listing.warnings).toEqual(whole.warnings);
    // A run of one path reads the whole tree then, which says why there is none.
    const part = await openWorkspace(root, { requests: ['Get.yaml'] });
    expect(part.part).toBeUndefined();
    expect(part.warnings).toEqual(whole.warnings);

    const env = { FERRY_DATA_DIR: await tempDir() };
    const all = ferryProcess(['-w', root, 'run'], env, 20_000);
    expect(await all.done).toBe(2);
    expect(all.output.stderr).toBe(`ferry: ${expected[2]} Nothing was run.\n`);
    // Before: `No request or folder "Get.yaml" under requests/.`
    const named = ferryProcess(['-w', root, 'run', 'Get.yaml'], env, 20_000);
    expect(await named.done).toBe(2);
    expect(named.output.stderr).toBe(`ferry: ${expected[2]}\n`);
    // Before: `This workspace has no environments (environments/*.yaml).`
    const staging = ferryProcess(['-w', root, 'run', '-e', 'staging'], env, 20_000);
    expect(await staging.done).toBe(2);
    expect(staging.output.stderr).toBe(`ferry: No environment "staging". ${expected[0]}\n`);
    // Before: `This workspace has no servers to start (add one under servers/).`
    const serve = ferryProcess(['-w', root, 'serve'], env, 20_000);
    expect(await serve.done).toBe(1);
    expect(serve.output.stderr).toBe(`ferry: No server to start: ${expected[3]}\n`);
  }, 60_000);

  it('ferry import with specs/ or requests/ a pipe refuses, saying what it is, and writes nothing; with a folder there it imports', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: pipe-import\nname: Pipe import\n');
    await fs.mkdir(path.join(root, 'requests'));
    mkfifo(path.join(root, 'specs'));
    const document = path.join(await tempDir(), 'pets.json');
    await fs.writeFile(document, JSON.stringify({ openapi: '3.0.3', info: { title: 'Pets', version: '1' }, servers: [{ url: 'http://127.0.0.1:9' }], paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } } }));
    const env = { FERRY_DATA_DIR: await tempDir() };
    const refused = ferryProcess(['-w', root, 'import', document], env, 30_000);
    expect(await refused.done).toBe(2);
    // Before: "Could not create the folder …/specs/.ferry-import-…: a part of the path is a file, not a folder (ENOTDIR)."
    expect(refused.output.stderr).toBe('ferry: Cannot import: specs/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then import again.\n');
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual([]);

    await fs.rm(path.join(root, 'specs'));
    await fs.rm(path.join(root, 'requests'), { recursive: true });
    mkfifo(path.join(root, 'requests'));
    const intoPipe = ferryProcess(['-w', root, 'import', document], env, 30_000);
    expect(await intoPipe.done).toBe(2);
    expect(intoPipe.output.stderr).toBe('ferry: Cannot import: requests/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then import again.\n');
    expect(await fs.readdir(root)).toEqual(expect.not.arrayContaining(['specs']));

    await fs.rm(path.join(root, 'requests'));
    await fs.mkdir(path.join(root, 'requests'));
    const imported = ferryProcess(['-w', root, 'import', document], env, 30_000);
    expect(await imported.done, imported.output.stderr).toBe(0);
    expect(await fs.readdir(path.join(root, 'specs'))).toEqual(['Pets.json']);

    // The file to import a pipe: never opened (before: "… is not a file.").
    const pipe = path.join(await tempDir(), 'collection.json');
    mkfifo(pipe);
    const fromPipe = ferryProcess(['-w', root, 'import', pipe], env, 30_000);
    expect(await fromPipe.done).toBe(2);
    expect(fromPipe.output.stderr).toBe(`ferry: ${pipe} is a named pipe, not a regular file; Ferry reads regular files only; give a regular file to import.\n`);
  }, 90_000);

  it('a subfolder of environments/, servers/ or loadtests/ holding only a pipe or socket named as an item is said, as one holding the file would be', async () => {
    const root = await tempDir();
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: pipe-subfolders\nname: Pipe subfolders\n');
    for (const folder of ['environments/prod', 'servers/sub', 'loadtests/deep/er', 'loadtests/data']) await fs.mkdir(path.join(root, folder), { recursive: true });
    mkfifo(path.join(root, 'environments/prod/x.yaml'));
    await socketFile(path.join(root, 'servers/sub/api.yml'));
    mkfifo(path.join(root, 'loadtests/deep/er/x.YAML'));
    // Data, as a regular users.csv there would be: no warning.
    mkfifo(path.join(root, 'loadtests/data/users.csv'));
    const subfolder = (dir: string, name: string, items: string, holds: string) =>
      `${dir}/${name}/ is not read: Ferry reads ${items} from the .yaml files directly in ${dir}/ (the file name is the id), not from its subfolders, and this one holds ${holds}. Move the files up into ${dir}/, or start the folder's name with a dot if it is not meant for Ferry.`;
    const ws = await openWorkspace(root);
    // Before, none of the three was said: the look counted regular files only.
    expect(ws.warnings.map(formatWarning)).toEqual([
      subfolder('environments', 'prod', 'environments', 'prod/x.yaml (a named pipe)'),
      subfolder('loadtests', 'deep', 'load tests', 'deep/er/x.YAML (a named pipe)'),
      subfolder('servers', 'sub', 'servers', 'sub/api.yml (a socket)'),
    ]);
    const listing = await openWorkspace(root, { listing: true });
    expect(listing.warnings).toEqual(ws.warnings);
  });

  it('ferry serve ID naming a pipe says to put a regular file in its place; ferry load ID naming one says it cannot be used, as -e does (above)', async () => {
    const root = await workspaceWithPipes();
    mkfifo(path.join(root, 'loadtests', 'soak.yaml'));
    const env = { FERRY_DATA_DIR: await tempDir() };
    const serve = ferryProcess(['-w', root, 'serve', 'mock'], env, 20_000);
    expect(await serve.done).toBe(1);
    // Before: "… Put a regular file in its place, or remove it. — fix the file to start this server."
    expect(serve.output.stderr).toBe('ferry: server mock did not start: servers/mock.yaml is a named pipe, not a regular file; Ferry reads regular files only. Put a regular file in its place to start this server.\nferry: No server could start.\n');
    const load = ferryProcess(['-w', root, 'load', 'soak'], env, 20_000);
    expect(await load.done).toBe(2);
    expect(load.output.stderr).toBe(`ferry: Load test "soak" cannot be used: ${skipped('loadtests/soak.yaml')}\n`);
  }, 60_000);

  it("the app's API lists them (the workspace's warnings, the servers and load tests panels), a new server's port read past the pipe, and one made while it runs", async () => {
    const root = await workspaceWithPipes();
    process.env.FERRY_DATA_DIR = await tempDir();
    const app = await startAppServer({ workspace: await openWorkspace(root), webRoot: await tempDir() });
    closers.push(() => app.close());
    const client = new ApiClient(app.port);
    await client.login(app.token);

    const info = await client.call('GET', '/api/workspace');
    expect(info.status).toBe(200);
    // As ferry ls --json gives them (codes included), and printed by the page in the terminal's words.
    expect((info.body as WorkspaceInfo).warnings.map(formatWarning)).toEqual(EXPECTED);
    expect((info.body as WorkspaceInfo).warnings.every((w) => w.code !== undefined)).toBe(true);
    const servers = (await client.call('GET', '/api/servers')).body as Array<{ id: string; error?: string; errorCode?: string }>;
    expect(servers.map((s) => [s.id, s.error, s.errorCode])).toEqual([['real', undefined, undefined], ['mock', skipped('servers/mock.yaml'), 'fifo']]);
    const { loadTests } = (await client.call('GET', '/api/loadtests')).body as { loadTests: Array<{ id: string; error?: string; errorCode?: string }> };
    expect(loadTests.map((l) => [l.id, l.error, l.errorCode])).toEqual([['smoke', undefined, undefined], ['users.csv', skipped('loadtests/users.csv'), 'fifo']]);
    // A new server's port is chosen past those of the files that do not read: the pipe is not opened.
    const created = await client.call('POST', '/api/server', { name: 'New', kind: 'http' });
    expect(created.status, created.text).toBe(200);
    expect((created.body as { id: string }).id).toBe('New');

    mkfifo(path.join(root, 'requests', 'Later.yaml'));
    const later = skipped('requests/Later.yaml');
    const warnings = await until('the new pipe in the workspace warnings', async () => {
      const listed = ((await client.call('GET', '/api/workspace')).body as WorkspaceInfo).warnings.map(formatWarning);
      return listed.includes(later) && listed;
    });
    expect(warnings.filter((w) => w === later)).toHaveLength(1);
  }, 60_000);
});
