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

describe('misspelt fields in ferry run', () => {
  let typos: TempWorkspace;
  beforeAll(async () => {
    typos = await makeWorkspace({
      'ferry.yaml': 'version: 1\nname: Typos\nvaraibles: []\n',
      'requests/Shop/_folder.yaml': { name: 'Shop', hedaers: [{ key: 'x-a', value: '1' }] },
      'requests/Shop/get.yaml': { name: 'get', url: `${peer.url}/echo`, hedaers: [{ key: 'x-b', value: '2' }], settings: { timeoutMs: 5000, folowRedirects: false }, colour: 'red' },
      'requests/Other/fine.yaml': { name: 'fine', url: `${peer.url}/echo`, hedaers: [] },
      'environments/dev.yaml': { name: 'dev', varaibles: [{ key: 'a', value: '1' }] },
    });
  });
  afterAll(async () => {
    await typos.cleanup();
  });

  it('warns once per file the run reads (request, its folders, the environment, ferry.yaml), and the run goes on', async () => {
    const result = await ferry(['-w', typos.root, 'run', 'Shop', '-e', 'dev']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('! requests/Shop/get.yaml: fields that requests do not have are ignored: settings.folowRedirects (did you mean followRedirects?), hedaers (did you mean headers?), colour.');
    expect(result.stdout).toContain('! requests/Shop/_folder.yaml: fields that folder settings do not have are ignored: hedaers (did you mean headers?).');
    expect(result.stdout).toContain('! environments/dev.yaml: fields that environments do not have are ignored: varaibles (did you mean variables?).');
    expect(result.stdout).toContain('! ferry.yaml: fields that ferry.yaml does not have are ignored: varaibles (did you mean variables?).');
    expect(result.stdout.match(/requests\/Shop\/get\.yaml: fields/g)).toHaveLength(1);
    // Only the files the run reads: Other/ is not run, so not named.
    expect(result.stdout).not.toContain('Other/fine.yaml');
    expect(result.stdout).toContain('PASSED');
  });

  it('ferry.yaml: every command that reads it says so once on stderr; ls --problems lists it; tab completion stays silent', async () => {
    const line = 'ferry: ferry.yaml: fields that ferry.yaml does not have are ignored: varaibles (did you mean variables?).';
    const env = await ferry(['-w', typos.root, 'env', 'ls', '--json']);
    expect(env.code).toBe(0);
    expect(JSON.parse(env.stdout)).toHaveLength(1);
    expect(env.stderr.split('\n').filter((l) => l.includes('ferry.yaml'))).toEqual([line]);
    const problems = await ferry(['-w', typos.root, 'ls', '--problems']);
    expect(problems.stdout).toContain('ferry.yaml: fields that ferry.yaml does not have are ignored: varaibles (did you mean variables?).');
    expect(problems.stderr).not.toContain('ferry.yaml');
    const complete = await ferry(['-w', typos.root, '__complete', 'envs']);
    expect(complete.stdout).toContain('dev');
    expect(complete.stderr).toBe('');
  });

  it('-r json: the warnings are in the report and on stderr (a CI log shows them too)', async () => {
    const result = await ferry(['-w', typos.root, 'run', 'Shop', '-r', 'json']);
    expect(result.code).toBe(0);
    // The report is whole JSON on stdout, of the one request run, its warnings those of the files it read (c786b676).
    expect(JSON.parse(result.stdout)).toMatchObject({
      version: 1,
      summary: { requests: 1, failedRequests: 0 },
      results: [{ path: 'Shop/get.yaml', status: 200 }],
      warnings: [
        'ferry.yaml: fields that ferry.yaml does not have are ignored: varaibles (did you mean variables?).',
        'requests/Shop/_folder.yaml: fields that folder settings do not have are ignored: hedaers (did you mean headers?).',
        'requests/Shop/get.yaml: fields that requests do not have are ignored: settings.folowRedirects (did you mean followRedirects?), hedaers (did you mean headers?), colour.',
      ],
    });
    expect(result.stderr).toContain('ferry: warning: requests/Shop/get.yaml: fields that requests do not have are ignored: settings.folowRedirects (did you mean followRedirects?), hedaers (did you mean headers?), colour.');
    // No environment chosen: the environment's fields are not read, so not warned about.
    expect(result.stderr).not.toContain('environments/dev.yaml');
  });
});
