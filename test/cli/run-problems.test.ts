/**
 * File problems in `ferry run` (issue 21): a run prints the problems of the files it reads (the
 * workspace file, its requests and the folders above them), counts the others and says where they
 * are listed; a file with several problems says where every one is listed, and `ferry ls
 * --problems` lists them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';

let peer: Peer;
let temp: TempWorkspace;
beforeAll(async () => {
  peer = await startHttp1();
  temp = await makeWorkspace({
    'requests/Good/ok.yaml': { name: 'ok', url: `${peer.url}/echo` },
    'requests/Good/_folder.yaml': { name: 'Good', headers: 'not a list' },
    // Two problems in one file: the message names the first.
    'requests/Bad/two.yaml': { name: 'two', url: ['x'], method: { no: 1 } },
    'requests/Bad/syntax.yaml': 'name: [unclosed\n',
    'environments/broken.yaml': { name: ['x'] },
    'servers/broken.yaml': 'kind: [\n',
  });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await peer.close();
  await temp.cleanup();
});

describe('file problems in ferry run', () => {
  it('a run of one folder prints the problems of its own files and counts the others', async () => {
    const result = await ferry(['-w', temp.root, 'run', 'Good']);
    expect(result.stdout).toMatch(/! requests\/Good\/_folder\.yaml:\d+:\d+: headers: /);
    expect(result.stdout).not.toMatch(/two\.yaml|syntax\.yaml|environments\/|servers\//);
    // Only the run's own requests are read (Bad/ is not), so the other problems counted are environments/ and servers/.
    expect(result.stdout).toContain('! 2 other file problems: run `ferry ls --problems` to see them.');
  });

  it('a run of the whole workspace prints every request file problem; a file with several points to where all are listed', async () => {
    const result = await ferry(['-w', temp.root, 'run']);
    expect(result.stdout).toMatch(/! requests\/Bad\/two\.yaml:\d+:\d+: [^\n]*\(and 1 more problem: `ferry ls --problems` lists every one\)/);
    expect(result.stdout).toMatch(/! requests\/Bad\/syntax\.yaml:\d+:\d+: YAML syntax error/);
    expect(result.stdout).toContain('! 2 other file problems: run `ferry ls --problems` to see them.');
  });

  it('ferry ls --problems lists every problem of every file; --json too', async () => {
    const result = await ferry(['-w', temp.root, 'ls', '--problems']);
    expect(result.code).toBe(0);
    const block = /requests\/Bad\/two\.yaml:\d+:\d+: 2 problems\n((?: {2}.*\n){2})/.exec(result.stdout);
    expect(block?.[1]).toMatch(/^ {2}method: .*\n {2}url: .*\n$/);
    for (const file of ['requests/Bad/syntax.yaml', 'requests/Good/_folder.yaml', 'environments/broken.yaml', 'servers/broken.yaml']) expect(result.stdout).toContain(file);
    expect(result.stdout).toContain('5 files with problems.');
    const json = JSON.parse((await ferry(['-w', temp.root, 'ls', '--problems', '--json'])).stdout);
    expect(json).toHaveLength(5);
    expect(json.find((w: { file: string }) => w.file === 'requests/Bad/two.yaml').problems).toHaveLength(2);
  });

  it('a workspace without problems says so', async () => {
    const clean = await makeWorkspace({ 'requests/a.yaml': { name: 'a', url: `${peer.url}/echo` } });
    try {
      expect((await ferry(['-w', clean.root, 'ls', '--problems'])).stdout).toBe('No file problems.\n');
      expect((await ferry(['-w', clean.root, 'run'])).stdout).not.toMatch(/file problem/);
    } finally {
      await clean.cleanup();
    }
  });
});
