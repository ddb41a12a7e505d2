/**
 * `ferry ls --strict`, the lint for CI (docs/workspace.md, Listing): every file read whole, the
 * fields the format does not have listed with every other file problem, in the words a run uses,
 * and exit code 1 when there is any; `ferry ls --problems` and the listing stay as they were (no
 * unknown field of a request, exit 0), and the listing cache is neither read nor written.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { startHttp1, type Peer } from '../support/servers/index.js';
import { makeWorkspace, type TempWorkspace } from '../runner/workspace.js';
import { tempDir } from '../support/temp.js';

let peer: Peer;
let temp: TempWorkspace;
beforeAll(async () => {
  peer = await startHttp1();
  temp = await makeWorkspace({
    'requests/Shop/get.yaml': { name: 'get', url: `${peer.url}/echo`, hedaers: [], settings: { folowRedirects: true } },
    'requests/Shop/_folder.yaml': { name: 'Shop', auht: { type: 'none' } },
    'requests/Clean.yaml': { name: 'Clean', url: `${peer.url}/echo` },
    'requests/Broken.yaml': 'name: [unclosed\n',
    // A problem of its own (a secret's value written in the file) and a misspelt field: two lines, one file.
    'environments/local.yaml': { name: 'Local', variables: [{ key: 'token', value: 'abc', secret: true }], variabels: [] },
    'environments/clean.yaml': { name: 'Clean' },
    'servers/mock.yaml': { name: 'Mock', port: 0, http: { rotues: [] } },
    'loadtests/smoke.yaml': { name: 'Smoke', targets: [{ request: 'Shop/get.yaml', weigth: 2 }], 'x-note': 'a field of the user\'s own, never warned about' },
  }, { varaibles: [] });
  process.env.FERRY_DATA_DIR = temp.dataDir;
});
afterAll(async () => {
  await peer.close();
  await temp.cleanup();
});

const UNKNOWN = {
  environment: 'environments/local.yaml: fields that environments do not have are ignored: variabels (did you mean variables?).',
  workspace: 'ferry.yaml: fields that ferry.yaml does not have are ignored: varaibles (did you mean variables?).',
  loadtest: 'loadtests/smoke.yaml: fields that load tests do not have are ignored: targets[0].weigth (did you mean weight?).',
  folder: 'requests/Shop/_folder.yaml: fields that folder settings do not have are ignored: auht (did you mean auth?).',
  request: 'requests/Shop/get.yaml: fields that requests do not have are ignored: settings.folowRedirects (did you mean followRedirects?), hedaers (did you mean headers?).',
  server: 'servers/mock.yaml: fields that servers do not have are ignored: http.rotues (did you mean routes?).',
};

describe('ferry ls --strict', () => {
  it('lists every file problem and every file\'s unknown fields, by file, and exits 1; --problems lists only ferry.yaml\'s and exits 0', async () => {
    const problems = await ferry(['-w', temp.root, 'ls', '--problems']);
    expect(problems.code).toBe(0);
    for (const line of [UNKNOWN.environment, UNKNOWN.loadtest, UNKNOWN.folder, UNKNOWN.request, UNKNOWN.server]) expect(problems.stdout).not.toContain(line);
    expect(problems.stdout).toContain(UNKNOWN.workspace);

    const strict = await ferry(['-w', temp.root, 'ls', '--strict']);
    expect(strict.code, strict.stderr).toBe(1);
    expect(strict.stderr).toBe('');
    const lines = strict.stdout.trimEnd().split('\n');
    expect(lines).toEqual([
      'environments/local.yaml: the secret variable "token" has a value in the file. Ferry ignores it (secret values come from this computer\'s secret store); remove it from the file, and from your git history if it is real.',
      UNKNOWN.environment,
      UNKNOWN.workspace,
      UNKNOWN.loadtest,
      expect.stringMatching(/^requests\/Broken\.yaml:\d+:\d+: YAML syntax error: /),
      UNKNOWN.folder,
      UNKNOWN.request,
      UNKNOWN.server,
      '',
      // Files, not lines: environments/local.yaml has two.
      '7 files with problems.',
    ]);
    // --problems with it says the same; so does --json, with the same exit code.
    expect(await ferry(['-w', temp.root, 'ls', '--problems', '--strict'])).toEqual(strict);
    const json = await ferry(['-w', temp.root, 'ls', '--strict', '--json']);
    expect(json.code).toBe(1);
    const listed = JSON.parse(json.stdout) as Array<{ file: string; message: string; problems: string[] }>;
    expect(listed.map((w) => w.file)).toEqual(['environments/local.yaml', 'environments/local.yaml', 'ferry.yaml', 'loadtests/smoke.yaml', 'requests/Broken.yaml', 'requests/Shop/_folder.yaml', 'requests/Shop/get.yaml', 'servers/mock.yaml']);
    expect(listed[6]).toEqual({ file: 'requests/Shop/get.yaml', message: UNKNOWN.request.slice('requests/Shop/get.yaml: '.length), problems: [UNKNOWN.request.slice('requests/Shop/get.yaml: '.length)], code: 'unknown-fields' });
  });

  it('says a field as a run of the file says it', async () => {
    const run = await ferry(['-w', temp.root, 'run', 'Shop', '-e', 'clean']);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toContain(`! ${UNKNOWN.folder}\n`);
    expect(run.stdout).toContain(`! ${UNKNOWN.request}\n`);
  });

  it('a workspace without problems: No file problems, exit 0; the listing cache is not written', async () => {
    const clean = await makeWorkspace({ 'requests/Clean.yaml': { name: 'Clean', url: `${peer.url}/echo` }, 'environments/clean.yaml': { name: 'Clean' } });
    const data = await tempDir('ferry-data-');
    // Past the cache's racy interval (files changed in the 3 s before a listing are not kept), so a listing would keep them.
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const saved = process.env.FERRY_DATA_DIR;
    process.env.FERRY_DATA_DIR = data;
    try {
      const strict = await ferry(['-w', clean.root, 'ls', '--strict']);
      expect(strict).toEqual({ code: 0, stdout: 'No file problems.\n', stderr: '' });
      expect(await fs.readdir(data).catch(() => [])).not.toContain('listing-cache');
      // A listing of the same files writes it.
      expect((await ferry(['-w', clean.root, 'ls'])).code).toBe(0);
      expect(await fs.readdir(path.join(data, 'listing-cache'))).toHaveLength(1);
    } finally {
      process.env.FERRY_DATA_DIR = saved;
      await clean.cleanup();
    }
  });

  it('--help names the option and its exit code', async () => {
    const help = await ferry(['ls', '--help']);
    expect(help.stdout).toMatch(/--strict\s+with --problems \(implied\): also the fields a run, serve or load\s+would say are unknown/);
    expect(help.stdout).toContain('ferry ls --strict');
    expect(help.stdout).toMatch(/1 {2}something failed \(a request, a test, a threshold; `ferry ls --strict` found\n {5}a file problem\)/);
  });
});
