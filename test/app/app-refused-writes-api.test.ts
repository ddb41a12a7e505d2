/**
 * The app's creates and deletes that the file system refuses, over the real API on 127.0.0.1 with
 * real files: a workspace folder that is a named pipe or a file where a new request, folder,
 * environment, server or load test goes says what it is, where, and what to do (not mkdir's
 * EEXIST), and writes nothing; a folder delete that something inside refuses (an immutable
 * subfolder, an append-only file: chattr, which stops root too) removes nothing and says what;
 * one stopped part-way whose rest cannot be put back says where the rest is, and the app's file
 * warnings then list that hidden folder.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fs, mkdirSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startAppServer, type AppServer } from '../../src/app/server/index.js';
import { openWorkspace, type Warning } from '../../src/workspace/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { mkfifo } from '../support/special-files.js';
import { ApiClient } from './api-client.js';

let ws: TempWorkspace | undefined;
let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  await ws?.cleanup();
  app = undefined;
  ws = undefined;
});

async function openApp(files: Record<string, unknown>): Promise<{ client: ApiClient; root: string }> {
  ws = await makeWorkspace(files);
  process.env.FERRY_DATA_DIR = ws.dataDir;
  app = await startAppServer({ workspace: await openWorkspace(ws.root) });
  const client = new ApiClient(app.port);
  await client.login(new URL(app.url).searchParams.get('token')!);
  return { client, root: ws.root };
}

describe('creating in the app where a workspace folder is a pipe or a file', () => {
  it('servers/, loadtests/ a named pipe, environments/ a file: each create says so, in the workspace\'s words, and writes nothing', async () => {
    const { client, root } = await openApp({ 'requests/Plain.yaml': { name: 'Plain', url: 'http://127.0.0.1:9/' } });
    mkfifo(path.join(root, 'servers'));
    mkfifo(path.join(root, 'loadtests'));
    await fs.rm(path.join(root, 'environments'), { recursive: true, force: true });
    await fs.writeFile(path.join(root, 'environments'), 'not a folder\n');

    const server = await client.call('POST', '/api/server', { name: 'API', kind: 'http' });
    expect(server).toMatchObject({ status: 400, body: { error: 'Cannot create server "API": servers/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then try again.' } });
    const loadTest = await client.call('POST', '/api/loadtest', { name: 'Smoke' });
    expect(loadTest).toMatchObject({ status: 400, body: { error: 'Cannot create load test "Smoke": loadtests/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then try again.' } });
    const environment = await client.call('POST', '/api/environments', { name: 'Stage' });
    expect(environment).toMatchObject({ status: 400, body: { error: 'Cannot create environment "Stage": environments/ cannot be written to (it is a file, not a folder); nothing was written. Make it a folder, then try again.' } });

    // Nothing written: the pipes are still pipes, the file still holds what it held.
    expect((await fs.lstat(path.join(root, 'servers'))).isFIFO()).toBe(true);
    expect((await fs.lstat(path.join(root, 'loadtests'))).isFIFO()).toBe(true);
    expect(await fs.readFile(path.join(root, 'environments'), 'utf8')).toBe('not a folder\n');
  });

  it('requests/ a named pipe, a folder on the way a file: a new request or folder says which and what to do', async () => {
    const { client, root } = await openApp({ 'requests/Users': 'a file where a folder would be\n' });
    const inUsers = await client.call('POST', '/api/request', { folder: 'Users', name: 'Health' });
    expect(inUsers).toMatchObject({ status: 400, body: { error: 'Cannot create request "Health": requests/Users/ cannot be written to (it is a file, not a folder); nothing was written. Make it a folder, then try again.' } });
    const folderInUsers = await client.call('POST', '/api/folder', { parent: 'Users', name: 'Admin' });
    expect(folderInUsers).toMatchObject({ status: 400, body: { error: 'Cannot create folder "Admin": requests/Users/ cannot be written to (it is a file, not a folder); nothing was written. Make it a folder, then try again.' } });
    expect(await fs.readFile(path.join(root, 'requests/Users'), 'utf8')).toBe('a file where a folder would be\n');

    await fs.rm(path.join(root, 'requests'), { recursive: true });
    mkfifo(path.join(root, 'requests'));
    const request = await client.call('POST', '/api/request', { name: 'Health' });
    expect(request).toMatchObject({ status: 400, body: { error: 'Cannot create request "Health": requests/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then try again.' } });
    const folder = await client.call('POST', '/api/folder', { name: 'Admin' });
    expect(folder).toMatchObject({ status: 400, body: { error: 'Cannot create folder "Admin": requests/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then try again.' } });
    expect((await fs.lstat(path.join(root, 'requests'))).isFIFO()).toBe(true);
  });
});

/** Every path under `dir`, relative, sorted. */
async function listing(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.map((e) => e.split(path.sep).join('/')).sort();
}

describe('deleting a folder in the app that something inside refuses', () => {
  it('an immutable subfolder deep inside: the delete is refused before anything is removed, naming it; once it is changeable, the whole folder goes', async (ctx) => {
    const request = (name: string) => ({ name, url: 'http://127.0.0.1:9/' });
    const { client, root } = await openApp({
      'requests/Users/_folder.yaml': { name: 'Users', seq: 1 },
      'requests/Users/A first.yaml': request('A first'),
      'requests/Users/Admin/Roles.yaml': request('Roles'),
      'requests/Users/Admin/Locked/Kept.yaml': request('Kept'),
      'requests/Users/Z last.yaml': request('Z last'),
    });
    const locked = path.join(root, 'requests/Users/Admin/Locked');
    if (spawnSync('chattr', ['+i', locked]).status !== 0) ctx.skip();
    const before = await listing(path.join(root, 'requests'));
    try {
      const refused = await client.call('DELETE', '/api/folder?path=Users', undefined, '');
      expect(refused).toMatchObject({
        status: 400,
        body: { error: 'Could not delete requests/Users/ (nothing was removed): operation not permitted: the folder requests/Users/Admin/Locked/ (or what is in it) cannot be changed. Make it writable (chmod u+w; chattr -i for an immutable one), then try again.' },
      });
      // Whole: every file and folder still there (rm would have taken "A first.yaml" and Admin/Roles.yaml first).
      expect(await listing(path.join(root, 'requests'))).toEqual(before);
      const tree = (await client.call('GET', '/api/workspace')).text;
      expect(tree).toContain('Users/Admin/Roles.yaml');
      expect(tree).toContain('Users/A first.yaml');
    } finally {
      spawnSync('chattr', ['-i', locked]);
    }
    const deleted = await client.call('DELETE', '/api/folder?path=Users', undefined, '');
    expect(deleted.status).toBe(200);
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual([]);
  });

  it('stopped part-way with its name taken meanwhile: the refusal says which hidden folder holds the rest, and the file warnings list it', async (ctx) => {
    if (process.getuid?.() !== 0) ctx.skip(); // chattr +a takes root
    const request = (name: string) => ({ name, url: 'http://127.0.0.1:9/' });
    const { client, root } = await openApp({ 'requests/Users/A first.yaml': request('A first'), 'requests/Users/Admin/Roles.yaml': request('Roles') });
    const requests = path.join(root, 'requests');
    // Between the delete's rename aside and its removal (the watcher's report of that rename runs
    // before the removal's first of many steps is back): a file made append-only, which the look
    // before could not see, and a new folder at the name, as another program could make.
    let aside = '';
    let locked = false;
    const watcher = watch(requests, (event, file) => {
      if (aside || event !== 'rename' || typeof file !== 'string' || !file.startsWith('.Users.deleting-')) return;
      aside = file;
      locked = spawnSync('chattr', ['+a', path.join(requests, file, 'Admin/Roles.yaml')]).status === 0;
      mkdirSync(path.join(requests, 'Users'));
      writeFileSync(path.join(requests, 'Users', 'New.yaml'), 'name: New\nurl: http://127.0.0.1:9/\n');
    });
    try {
      const refused = await client.call('DELETE', '/api/folder?path=Users', undefined, '');
      if (!locked) ctx.skip();
      expect(refused.status).toBe(400);
      const kept = `requests/${aside}/`;
      expect((refused.body as { error: string }).error).toBe(
        `Could not delete requests/Users/ (part of it may be gone already; the rest could not be put back and is in ${kept}): operation not permitted: the folder ${kept}Admin/ (or what is in it) cannot be changed. Make it writable (chmod u+w; chattr -i for an immutable one), then try again. ` +
          `It was not put back: requests/Users/ is there again (made while it was being deleted). Ferry does not read a folder whose name starts with a dot: to keep what is left, rename ${kept} to a name not taken; else delete it.`,
      );
      expect(await fs.readdir(path.join(requests, aside, 'Admin'))).toEqual(['Roles.yaml']);
      // The app reads the folder again (the watcher saw Users go and come): its file warnings say the hidden folder.
      await expect
        .poll(async () => ((await client.call('GET', '/api/workspace')).body as { warnings: Warning[] }).warnings, { timeout: 10_000 })
        .toEqual([
          expect.objectContaining({ file: `requests/${aside}`, code: 'unfinished-delete', message: expect.stringContaining(`requests/${aside} is what is left of folder requests/Users/, which Ferry began deleting on `) }),
        ]);
      const [warning] = ((await client.call('GET', '/api/workspace')).body as { warnings: Warning[] }).warnings;
      expect(warning!.message).toMatch(/ Delete it to finish the removal, or rename it to a name not taken \(requests\/Users\/ is there again\) to keep them\.$/);
    } finally {
      watcher.close();
      for (const at of [aside && path.join(requests, aside, 'Admin/Roles.yaml'), path.join(requests, 'Users/Admin/Roles.yaml')]) if (at && existsSync(at)) spawnSync('chattr', ['-a', at]);
    }
  });
});
