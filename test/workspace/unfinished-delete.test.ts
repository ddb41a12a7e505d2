/**
 * What a folder delete that did not finish leaves (docs/workspace.md, "Warning codes";
 * docs/app.md): the delete moves the folder aside to `.NAME.deleting-PID-MS` and removes it there.
 * A Ferry killed part-way leaves that hidden folder, which the reader now says (`unfinished-delete`)
 * while passing over every other dot-name, a link or a file of that pattern; a removal under way
 * (this process's, or another live one's just begun) is not said. A removal stopped part-way whose
 * rest cannot be put back (its name taken meanwhile) names the hidden folder where the rest is.
 *
 * Real files in temporary workspaces, and a real process killed (kill -9) during its removal.
 * What happens between the delete's rename and its removal
 * (a file made append-only, the name taken again) is done on the watcher's report of that rename
 * (inotify, on the same thread): it runs before the removal's first of many steps has come back.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, promises as fs, readdirSync, watch, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deleteFolder, openWorkspace, readRequestTree, walkRequests, type Warning } from '../../src/workspace/index.js';
import { WHOLE_READER } from '../../src/workspace/tree-readers.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const good = 'name: Good\nurl: http://127.0.0.1:9/\n';

const cleanups: Array<() => void | Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function workspace(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: unfinished-ws\nname: Unfinished\n');
  await fs.mkdir(path.join(root, 'requests'), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await fs.writeFile(path.join(root, file), text);
  }
  return root;
}

const leftovers = (warnings: readonly Warning[]) => warnings.filter((w) => w.code === 'unfinished-delete');

/** 2025-03-14 09:26 UTC, as Date.now() gave it when a delete began. */
const BEGAN = Date.UTC(2025, 2, 14, 9, 26, 53);

describe('a folder delete that did not finish', () => {
  it('the hidden folder it left is said with its own code, what it was and what to do; other dot-names, links and files of the pattern are not', async () => {
    const root = await workspace({
      'requests/Good.yaml': good,
      // Left by a Ferry killed part-way (process 1 runs, but began long ago: no removal takes that long).
      [`requests/.Users.deleting-1-${BEGAN}/Admin/Roles.yaml`]: good,
      [`requests/Shop/.Cart v2.deleting-4194303-${BEGAN}/Pay.yaml`]: good,
      // Its name taken again since.
      [`requests/.Orders.deleting-4194303-${BEGAN}/List.yaml`]: good,
      'requests/Orders/New.yaml': good,
      // Not Ferry's: another dot-name, a file of the pattern, a name near it.
      'requests/.git/config': '[core]\n',
      [`requests/.Notes.deleting-7-${BEGAN}`]: 'a file, not a folder\n',
      'requests/.Old.deleting-soon/Kept.yaml': good,
    });
    // A link of the pattern to a folder elsewhere: never followed, not Ferry's (it renames folders).
    const elsewhere = await tempDir();
    await fs.symlink(elsewhere, path.join(root, `requests/.Linked.deleting-7-${BEGAN}`));

    const ws = await openWorkspace(root);
    expect(leftovers(ws.warnings)).toEqual([
      {
        file: `requests/.Orders.deleting-4194303-${BEGAN}`,
        message: `requests/.Orders.deleting-4194303-${BEGAN} is what is left of folder requests/Orders/, which Ferry began deleting on 2025-03-14 09:26 UTC and did not finish (it was stopped part-way, or the rest could not be put back); the requests in it are not read. Delete it to finish the removal, or rename it to a name not taken (requests/Orders/ is there again) to keep them.`,
        code: 'unfinished-delete',
        namesFile: true,
      },
      {
        file: `requests/.Users.deleting-1-${BEGAN}`,
        message: `requests/.Users.deleting-1-${BEGAN} is what is left of folder requests/Users/, which Ferry began deleting on 2025-03-14 09:26 UTC and did not finish (it was stopped part-way, or the rest could not be put back); the requests in it are not read. Delete it to finish the removal, or rename it back to requests/Users/ to keep them.`,
        code: 'unfinished-delete',
        namesFile: true,
      },
      {
        file: `requests/Shop/.Cart v2.deleting-4194303-${BEGAN}`,
        message: expect.stringContaining('is what is left of folder requests/Shop/Cart v2/'),
        code: 'unfinished-delete',
        namesFile: true,
      },
    ]);
    // Nothing else is said of the dot-names (2.1.7), nor read from them; nothing is touched.
    expect(ws.warnings.filter((w) => w.code !== 'unfinished-delete')).toEqual([]);
    expect([...walkRequests(ws.tree)].map((r) => r.node.path).sort()).toEqual(['Good.yaml', 'Orders/New.yaml']);
    expect(await fs.readFile(path.join(root, `requests/.Users.deleting-1-${BEGAN}/Admin/Roles.yaml`), 'utf8')).toBe(good);
    expect((await fs.lstat(path.join(root, `requests/.Linked.deleting-7-${BEGAN}`))).isSymbolicLink()).toBe(true);

    // The listing says the same, and ferry ls --json gives the code; --strict fails on it (a
    // folder git would commit).
    expect(leftovers((await openWorkspace(root, { listing: true })).warnings)).toEqual(leftovers(ws.warnings));
    await isolatedDataDir();
    const listed = await ferry(['-w', root, 'ls', '--json']);
    expect(listed.code).toBe(0);
    const json = JSON.parse(listed.stdout) as { warnings: Array<{ file: string; code?: string }> };
    expect(json.warnings.filter((w) => w.code === 'unfinished-delete').map((w) => w.file)).toEqual(leftovers(ws.warnings).map((w) => w.file));
    const strict = await ferry(['-w', root, 'ls', '--strict']);
    expect(strict.code).toBe(1);
    // The line is the sentence itself (it names the folder), not `file: sentence`.
    expect(strict.stdout).toMatch(new RegExp(`^requests/\\.Users\\.deleting-1-${BEGAN} is what is left of folder requests/Users/`, 'm'));
  });

  it('a Ferry killed during the removal: what it left is said, and the listing reads on', async () => {
    const files: Record<string, string> = { 'requests/Good.yaml': good };
    for (let i = 0; i < 50; i++) files[`requests/Users/Group ${i}/Get ${i}.yaml`] = good;
    const root = await workspace(files);
    // The deleting process kills itself (kill -9: no finally runs) on its watcher's report of the
    // rename aside, before the removal gets far.
    const script = path.join(await tempDir(), 'delete-killed.mts');
    await fs.writeFile(script, `
      import { watch } from 'node:fs';
      import { deleteFolder } from ${JSON.stringify(path.resolve('src/workspace/index.ts'))};
      const root = process.argv[2];
      watch(root + '/requests', (event, file) => {
        if (String(file).startsWith('.Users.deleting-')) process.kill(process.pid, 'SIGKILL');
      });
      await deleteFolder(root, 'Users');
    `);
    const child = spawn(process.execPath, ['--import', 'tsx', script, root], { stdio: 'ignore' });
    const [code, signal] = await new Promise<[number | null, string | null]>((resolve) => child.once('exit', (c, s) => resolve([c, s])));
    expect([code, signal]).toEqual([null, 'SIGKILL']);
    const left = (await fs.readdir(path.join(root, 'requests'))).filter((name) => name.startsWith('.'));
    expect(left).toEqual([expect.stringMatching(new RegExp(`^\\.Users\\.deleting-${child.pid}-\\d+$`))]);
    expect((await fs.readdir(path.join(root, 'requests', left[0]!))).length).toBeGreaterThan(0);
    const ws = await openWorkspace(root);
    expect(ws.warnings).toEqual([{ file: `requests/${left[0]}`, message: expect.stringMatching(/ is what is left of folder requests\/Users\/, .* Delete it to finish the removal, or rename it back to requests\/Users\/ to keep them\.$/), code: 'unfinished-delete', namesFile: true }]);
    expect([...walkRequests(ws.tree)].map((r) => r.node.path)).toEqual(['Good.yaml']);
  });

  it('a folder whose name leaves no room for the aside\'s ending is deleted; a leftover of one says its name was cut short', async () => {
    // 239 bytes: with `.` and `.deleting-PID-TIME` over the 255 a file name may have.
    const long = `Ünïcode ${'L'.repeat(229)}`;
    const root = await workspace({ [`requests/${long}/A.yaml`]: good, [`requests/${long}/Sub/B.yaml`]: good });
    await deleteFolder(root, long);
    expect(await fs.readdir(path.join(root, 'requests'))).toEqual([]);

    // What such a delete leaves: the name cut to fit 255 bytes, ending in `…` (3 bytes).
    const ending = `.deleting-1-${BEGAN}`;
    const cut = `${'L'.repeat(255 - 1 - ending.length - 3)}…`;
    await fs.mkdir(path.join(root, 'requests', `.${cut}${ending}`));
    const [warning] = leftovers((await openWorkspace(root)).warnings);
    expect(warning?.message).toMatch(new RegExp(` is what is left of folder requests/${cut}/, .*, or rename it back to the folder's whole name \\(cut short in requests/${cut}/\\) to keep them\\.$`));
  });

  it('another process\'s removal just begun is under way while that process runs: said once it is gone', async () => {
    const root = await workspace({ 'requests/Good.yaml': good });
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    cleanups.push(() => void other.kill('SIGKILL'));
    await new Promise((resolve) => other.once('spawn', resolve));
    const aside = `requests/.Users.deleting-${other.pid}-${Date.now()}`;
    await fs.mkdir(path.join(root, aside, 'Admin'), { recursive: true });
    await fs.writeFile(path.join(root, aside, 'Admin/Roles.yaml'), good);
    expect(leftovers((await openWorkspace(root)).warnings)).toEqual([]);
    other.kill('SIGKILL');
    await new Promise((resolve) => other.once('exit', resolve));
    expect(leftovers((await openWorkspace(root)).warnings).map((w) => w.file)).toEqual([aside]);
  });
});

/**
 * Calls `act(aside)` on the watcher's report of folder `name` of `parent` moved aside by a delete:
 * after its rename, before its removal gets anywhere.
 */
function whenMovedAside(parent: string, name: string, act: (aside: string) => void): void {
  let acted = false;
  const watcher = watch(parent, (event, file) => {
    if (acted || event !== 'rename' || typeof file !== 'string' || !file.startsWith(`.${name}.deleting-`)) return;
    acted = true;
    act(path.join(parent, file));
  });
  cleanups.push(() => watcher.close());
}

/**
 * Makes `inAside` (a file in a folder moved aside) one the removal cannot take, as the look before
 * it could not see: append-only (chattr, which stops root too), or for another user its folder
 * read-only; undone at the end wherever it is then (`putBack`: the same file back at the folder's
 * name). False when neither can be done.
 */
function stopRemovalAt(inAside: string, putBack: string): boolean {
  if (process.getuid?.() !== 0) {
    chmodSync(path.dirname(inAside), 0o555);
    cleanups.push(() => {
      for (const file of [inAside, putBack]) if (existsSync(file)) chmodSync(path.dirname(file), 0o755);
    });
    return true;
  }
  if (spawnSync('chattr', ['+a', inAside]).status !== 0) return false;
  cleanups.push(() => {
    for (const file of [inAside, putBack]) if (existsSync(file)) spawnSync('chattr', ['-a', file]);
  });
  return true;
}

describe('a folder delete stopped part-way', () => {
  it('the rest put back at its name says so; nothing is left aside, and a read during the removal says no leftover', async (ctx) => {
    const root = await workspace({ 'requests/Shelf/A.yaml': good, 'requests/Shelf/Deep/Er/Kept.yaml': good });
    const requests = path.join(root, 'requests');
    let during: Warning[] | undefined;
    let asideThere = false;
    let stopped = true;
    whenMovedAside(requests, 'Shelf', (aside) => {
      stopped = stopRemovalAt(path.join(aside, 'Deep/Er/Kept.yaml'), path.join(requests, 'Shelf/Deep/Er/Kept.yaml'));
      // This process's removal under way: its aside is there, and not said.
      asideThere = existsSync(aside);
      during = [];
      void readRequestTree(root, during, WHOLE_READER);
    });
    const failed = deleteFolder(root, 'Shelf').then(() => undefined, (error: Error) => error.message);
    const message = await failed;
    if (!stopped) ctx.skip();
    expect(asideThere).toBe(true);
    expect(during).toEqual([]);
    expect(message).toMatch(/^Could not delete requests\/Shelf\/ \(part of it may be gone already; the rest is still there\): (operation not permitted|permission denied): the folder requests\/Shelf\/Deep\/Er\/ /);
    expect(readdirSync(requests)).toEqual(['Shelf']);
    expect(await fs.readFile(path.join(requests, 'Shelf/Deep/Er/Kept.yaml'), 'utf8')).toBe(good);
    expect(leftovers((await openWorkspace(root)).warnings)).toEqual([]);
  });

  it('the rest not put back (its name taken meanwhile) names the hidden folder it is in and what to do; the reader then says it', async (ctx) => {
    const root = await workspace({ 'requests/Shelf/A.yaml': good, 'requests/Shelf/Deep/Er/Kept.yaml': good });
    const requests = path.join(root, 'requests');
    let asideName = '';
    let stopped = true;
    whenMovedAside(requests, 'Shelf', (aside) => {
      asideName = path.basename(aside);
      stopped = stopRemovalAt(path.join(aside, 'Deep/Er/Kept.yaml'), path.join(requests, 'Shelf/Deep/Er/Kept.yaml'));
      // Another program makes a folder of that name meanwhile (a checkout, a second Ferry).
      mkdirSync(path.join(requests, 'Shelf'));
      writeFileSync(path.join(requests, 'Shelf', 'New.yaml'), good);
    });
    const message = await deleteFolder(root, 'Shelf').then(() => '', (error: Error) => error.message);
    if (!stopped) ctx.skip();
    const kept = `requests/${asideName}/`;
    expect(message).toMatch(new RegExp(`^Could not delete requests/Shelf/ \\(part of it may be gone already; the rest could not be put back and is in ${kept.replace(/\./g, '\\.')}\\): (operation not permitted|permission denied): the folder ${kept.replace(/\./g, '\\.')}Deep/Er/ `));
    expect(message).toMatch(new RegExp(`It was not put back: requests/Shelf/ is there again \\(made while it was being deleted\\)\\. Ferry does not read a folder whose name starts with a dot: to keep what is left, rename ${kept.replace(/\./g, '\\.')} to a name not taken; else delete it\\.$`));
    // The requests left are where it says; the new folder is untouched.
    expect(await fs.readFile(path.join(root, kept, 'Deep/Er/Kept.yaml'), 'utf8')).toBe(good);
    expect(readdirSync(path.join(requests, 'Shelf'))).toEqual(['New.yaml']);
    // Over, so the next read says it, at once (no waiting for this process to end).
    const said = leftovers((await openWorkspace(root)).warnings);
    expect(said.map((w) => [w.file, w.code])).toEqual([[`requests/${asideName}`, 'unfinished-delete']]);
    expect(said[0]!.message).toContain('rename it to a name not taken (requests/Shelf/ is there again) to keep them.');
  });
});
