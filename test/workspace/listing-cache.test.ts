/**
 * The listing cache (`ferry ls`, issue 21): a listing taken from it must be the listing read from
 * the files — the same tree, broken files and warnings, byte for byte — after any change to the
 * workspace; and a cache that is damaged, foreign or of another Ferry is ignored and written again.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { initWorkspace, openWorkspace, type ListingCacheOptions } from '../../src/workspace/index.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

/** Request files, good and broken in every way the reader reports (a few of listing-parity's). */
const FILES: Record<string, string> = {
  'Plain.yaml': 'name: Plain\nseq: 2\nmethod: post\nurl: "{{base}}/x"\n',
  'Nulls.yaml': 'name: Nulls\nkind:\nmethod:\n',
  'Removed.yaml': 'name: Removed\nopenapi:\n  operation: getX\n  removed: true\n',
  'Unicode.yaml': 'name: "Ünïcødé 名前 🚀"\nmethod: GET\n',
  'Syntax.yaml': 'name: [unclosed\n',
  'Wrong types.yaml': 'name: Wrong types\nheaders: 5\nseq: "first"\nkind: carrier-pigeon\n',
  'Long name.yaml': `name: ${'n'.repeat(260)}\n`,
  'Bad auth.yaml': 'name: Bad auth\nauth:\n  type: kerberos\n',
};

async function workspace(): Promise<string> {
  const root = await initWorkspace(path.join(await tempDir(), 'ws'), 'Cached');
  for (const folder of ['Area', 'Area/Inner']) {
    const dir = path.join(root, 'requests', folder);
    await fs.mkdir(dir, { recursive: true });
    for (const [name, text] of Object.entries(FILES)) await fs.writeFile(path.join(dir, name), text);
  }
  await fs.writeFile(path.join(root, 'requests', 'Area', '_folder.yaml'), 'name: The area\nseq: 1\nheaders: nope\n');
  await fs.writeFile(path.join(root, 'requests', 'Area', 'Inner', '_folder.yaml'), `name: ${'f'.repeat(210)}\nseq: 3\n`);
  return root;
}

/** Files changed less than 3 s before a listing are read but not kept (the racy interval): let them age. */
async function letFilesAge(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 3_200));
}

async function ls(root: string, args: string[] = []): Promise<string> {
  let out = '';
  const code = await main(['-w', root, 'ls', ...args], { output: { out: (t) => void (out += `${t}\n`), err: (t) => void (out += `err: ${t}\n`), color: false } });
  return `exit ${code}\n${out}`;
}

/** What `ferry ls` shows, every way, and the listing itself as JSON (key order included). */
async function everything(root: string): Promise<string[]> {
  const listing = await openWorkspace(root, { listing: true });
  return [JSON.stringify(listing.tree), JSON.stringify(listing.warnings), await ls(root), await ls(root, ['--json']), await ls(root, ['--problems']), await ls(root, ['Area/Inner']), await ls(root, ['--kind', 'http'])];
}

/** The same, with the cache left out: its folder removed before each command. */
async function withoutCache(root: string, cacheDir: string): Promise<string[]> {
  const listing = await openWorkspace(root, { listing: true });
  const outputs = [JSON.stringify(listing.tree), JSON.stringify(listing.warnings)];
  for (const args of [[], ['--json'], ['--problems'], ['Area/Inner'], ['--kind', 'http']]) {
    await fs.rm(cacheDir, { recursive: true, force: true });
    outputs.push(await ls(root, args));
  }
  return outputs;
}

async function cacheFile(cacheDir: string): Promise<string> {
  const names = (await fs.readdir(cacheDir)).filter((n) => n.endsWith('.cache'));
  expect(names).toHaveLength(1);
  return path.join(cacheDir, names[0]!);
}

/** The cached listing of `root` through `openWorkspace`, as `ferry ls` opens it. */
async function cachedListing(root: string, cache: ListingCacheOptions) {
  const listing = await openWorkspace(root, { listing: true, listingCache: cache });
  return [JSON.stringify(listing.tree), JSON.stringify(listing.warnings)];
}

/** A workspace whose files have aged past the racy interval, listed once: its cache file written. */
async function listedOnce() {
  const cache = { dir: path.join(await isolatedDataDir(), 'listing-cache'), version: 'test' };
  const root = await workspace();
  await letFilesAge();
  const expected = await cachedListing(root, cache);
  return { cache, root, expected, file: await cacheFile(cache.dir) };
}

describe('the listing cache', () => {
  it('gives the listing the files give, after edits, renames, deletions, new broken files and links', async () => {
    const dataDir = await isolatedDataDir();
    const cacheDir = path.join(dataDir, 'listing-cache');
    const root = await workspace();
    await letFilesAge();
    const expected = await withoutCache(root, cacheDir);
    // Written by the first listing, then read by the next ones.
    expect(await everything(root)).toEqual(expected);
    const file = await cacheFile(cacheDir);
    const text = await fs.readFile(file, 'utf8');
    expect(text).toContain('requests/Area/Inner/Plain.yaml');
    expect(text).toContain('Syntax.yaml');
    expect(await everything(root)).toEqual(expected);

    const area = path.join(root, 'requests', 'Area');
    // Same size, other text: the change time differs.
    await fs.writeFile(path.join(area, 'Plain.yaml'), FILES['Plain.yaml']!.replace('Plain', 'Plaim'));
    await fs.rename(path.join(area, 'Nulls.yaml'), path.join(area, 'Renamed.yaml'));
    await fs.rm(path.join(area, 'Inner', 'Removed.yaml'));
    await fs.writeFile(path.join(area, 'Inner', 'New broken.yaml'), 'name: [still unclosed\n');
    await fs.writeFile(path.join(area, 'Syntax.yaml'), 'name: Fixed\n');
    await fs.rm(path.join(area, 'Unicode.yaml'));
    await fs.symlink(path.join(area, 'Inner', 'Plain.yaml'), path.join(area, 'Unicode.yaml'));
    await fs.writeFile(path.join(area, '_folder.yaml'), 'name: Renamed area\nseq: 1\n');
    const changed = await withoutCache(root, cacheDir);
    expect(changed).not.toEqual(expected);
    expect(changed[2]).toContain('Plaim');
    expect(changed[2]).toMatch(/^exit 0\n/);
    await ls(root);
    expect(await everything(root)).toEqual(changed);
    expect(await everything(root)).toEqual(changed);

    // A file turned into a folder and a folder into a link.
    await fs.rm(path.join(area, 'Bad auth.yaml'));
    await fs.mkdir(path.join(area, 'Bad auth.yaml'));
    await fs.writeFile(path.join(area, 'Bad auth.yaml', 'Inside.yaml'), 'name: Inside\n');
    await fs.rename(path.join(area, 'Inner'), path.join(root, 'Inner elsewhere'));
    await fs.symlink(path.join(root, 'Inner elsewhere'), path.join(area, 'Inner'));
    const moved = await withoutCache(root, cacheDir);
    await ls(root);
    expect(await everything(root)).toEqual(moved);
  }, 60_000);

  it('is read: an unchanged file comes from it, a changed one from the file', async () => {
    const { cache, root, expected, file } = await listedOnce();
    // Changing the cache's own copy of a name (with a checksum to match) shows that name: the
    // listing comes from the cache. (A hand-made change; Ferry never writes one.)
    const original = await fs.readFile(file, 'latin1');
    const newline = original.indexOf('\n');
    const body = original.slice(newline + 1).replace('"name":"Plain"', '"name":"Cache"');
    const { crc32 } = await import('node:zlib');
    const header = { ...JSON.parse(original.slice(0, newline)), crc32: crc32(Buffer.from(body, 'latin1')) };
    await fs.writeFile(file, `${JSON.stringify(header)}\n${body}`, 'latin1');
    expect((await cachedListing(root, cache))[0]).toContain('"name":"Cache"');
    // The file edited: read again, whatever the cache says.
    await fs.appendFile(path.join(root, 'requests', 'Area', 'Plain.yaml'), '# edited\n');
    await fs.appendFile(path.join(root, 'requests', 'Area', 'Inner', 'Plain.yaml'), '# edited\n');
    expect(await cachedListing(root, cache)).toEqual(expected);
  }, 60_000);

  it('ignores a damaged, foreign or other version\'s cache, and writes it again', async () => {
    const { cache, root, expected, file } = await listedOnce();
    const good = await fs.readFile(file);
    const damaged: Array<[string, Buffer | string]> = [
      ['truncated', good.subarray(0, Math.floor(good.length / 2))],
      ['header only', good.subarray(0, good.indexOf(0x0a) + 1)],
      ['a flipped byte', Buffer.from(good.toString('latin1').replace('"name":"Plain"', '"name":"Plein"'), 'latin1')],
      ['not JSON', 'garbage\n\u0000\u0001{['],
      ['empty', ''],
      ['another folder\'s', good.toString('latin1').replace(JSON.stringify(root), JSON.stringify(`${root}-other`))],
    ];
    for (const [what, content] of damaged) {
      await fs.writeFile(file, content);
      expect(await cachedListing(root, cache), what).toEqual(expected);
      // Written again, whole.
      expect((await fs.readFile(file)).equals(good), what).toBe(true);
    }
    // Another version of Ferry: not read, and replaced by this version's.
    const other = { ...cache, version: 'other' };
    expect(await cachedListing(root, other)).toEqual(expected);
    expect(await fs.readFile(file, 'utf8')).toContain('ferry other;');
    // A link in its place is not followed (and is replaced by a file).
    await fs.rm(file);
    await fs.symlink(path.join(root, 'ferry.yaml'), file);
    expect(await cachedListing(root, cache)).toEqual(expected);
    expect((await fs.lstat(file)).isFile()).toBe(true);
  }, 60_000);

  it('sees a file edited in place with the same size, twice in one second, or with its old modification time put back', async () => {
    const dataDir = await isolatedDataDir();
    const cache = { dir: path.join(dataDir, 'listing-cache'), version: 'test' };
    const root = await workspace();
    const plain = path.join(root, 'requests', 'Area', 'Plain.yaml');
    const listed = (name: string) => `"path":"Area/Plain.yaml","request":{"name":"${name}"`;
    await letFilesAge();
    expect((await cachedListing(root, cache))[0]).toContain(listed('Plain'));
    const before = await fs.stat(plain);
    // Same size each time, one right after the other (within the same second).
    for (const name of ['Plaia', 'Plaib', 'Plaic']) {
      await fs.writeFile(plain, FILES['Plain.yaml']!.replace('Plain', name));
      expect((await fs.stat(plain)).size).toBe(before.size);
      expect((await cachedListing(root, cache))[0]).toContain(listed(name));
    }
    // The kept modification time put back after an edit (as `touch -d` or `rsync -t` can): only
    // the change time differs, and that is enough. (A whole second, so that it is put back exactly.)
    const second = Math.floor(Date.now() / 1000) - 60;
    await fs.utimes(plain, second, second);
    await letFilesAge();
    expect((await cachedListing(root, cache))[0]).toContain(listed('Plaic'));
    await fs.writeFile(plain, FILES['Plain.yaml']!.replace('Plain', 'Plaid'));
    await fs.utimes(plain, second, second);
    expect((await fs.stat(plain)).mtimeMs).toBe(second * 1000);
    expect((await cachedListing(root, cache))[0]).toContain(listed('Plaid'));
    // Added and removed files, as the files say.
    await fs.writeFile(path.join(root, 'requests', 'Area', 'Added.yaml'), 'name: Added\n');
    await fs.rm(path.join(root, 'requests', 'Area', 'Inner', 'Plain.yaml'));
    const [tree] = await cachedListing(root, cache);
    expect(tree).toContain('"name":"Added"');
    expect(tree).not.toContain('"path":"Area/Inner/Plain.yaml"');
    expect(await cachedListing(root, cache)).toEqual(await cachedListing(root, { ...cache, dir: path.join(dataDir, 'another cache') }));
  }, 60_000);

  it('keeps nothing of a file changed in the racy interval', async () => {
    const dataDir = await isolatedDataDir();
    const cache = { dir: path.join(dataDir, 'listing-cache'), version: 'test' };
    const root = await workspace();
    // Just written: read and listed, but not kept (a second change in the same tick could go unseen).
    const expected = await cachedListing(root, cache);
    for (const name of await fs.readdir(cache.dir).catch(() => [])) {
      expect(await fs.readFile(path.join(cache.dir, name), 'utf8')).not.toContain('Plain.yaml');
    }
    expect(await cachedListing(root, cache)).toEqual(expected);
  }, 60_000);

  it('a listing-cache/ folder that is a link (pointing outside the data folder) is not used: the listing reads the files and says so in one line', async () => {
    const data = await isolatedDataDir();
    const outside = await tempDir();
    await fs.symlink(outside, path.join(data, 'listing-cache'));
    const root = await workspace();
    await letFilesAge();
    const first = await ls(root);
    expect(first).toMatch(/^exit 0\n/);
    expect(first).toContain(`err: ferry: ${path.join(data, 'listing-cache')} is a symbolic link inside the data folder, and Ferry never follows links there, so this listing read every file without its cache. Remove the link (Ferry makes the folder again at the next listing).`);
    expect(first).toContain('Inner/');
    expect(await fs.readdir(outside)).toEqual([]);
  }, 30_000);
});
