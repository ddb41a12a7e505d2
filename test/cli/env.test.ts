/** `ferry env ls|use|new|rename|rm`: the environments, and the active one kept on this computer, used by run without -e. */
import { promises as fs } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';
import { WorkspaceData } from '../../src/appdata/index.js';
import { openWorkspace } from '../../src/workspace/index.js';
import { renameEnvironment } from '../../src/variables/manage-environments.js';

let ws: string;
beforeEach(async () => {
  await isolatedDataDir();
  ws = await tempDir();
  await fs.writeFile(path.join(ws, 'ferry.yaml'), 'version: 1\nid: env-cli\nname: Envs\n');
  await fs.mkdir(path.join(ws, 'environments'));
  await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), 'name: Staging Env\nvariables:\n  - key: a\n    value: "1"\n');
  await fs.writeFile(path.join(ws, 'environments', 'prod.yaml'), 'name: prod\n');
});

describe('ferry env', () => {
  it('ls of a workspace without environments says how to add one, with ferry env new too', async () => {
    const empty = await tempDir();
    await fs.writeFile(path.join(empty, 'ferry.yaml'), 'version: 1\nid: env-none\nname: None\n');
    const listed = await ferry(['-w', empty, 'env', 'ls']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.trim()).toBe('No environments. Add one with `ferry env new NAME` (or as environments/NAME.yaml).');
  });

  it('ls says which environment files cannot be read, with the parse error (spec 2.1.9), rather than leaving them out unsaid', async () => {
    await fs.writeFile(path.join(ws, 'environments', 'broken.yaml'), 'name: [bad\n');
    await fs.writeFile(path.join(ws, 'environments', 'wrong.yaml'), 'name: Wrong\nvariables: 5\n');
    const listed = await ferry(['-w', ws, 'env', 'ls']);
    expect(listed.code).toBe(0);
    // prod's name is its id: the row is the id alone, without the padding of trailing spaces.
    expect(listed.stdout).toBe('  prod\n  staging  Staging Env\n');
    expect(listed.stderr.split('\n')).toEqual([
      expect.stringMatching(/^ferry: environments\/broken\.yaml:2:1: YAML syntax error: .+ \(not listed: fix the file to use it\)$/),
      'ferry: environments/wrong.yaml:2:12: variables: expected a list, got number 5 (not listed: fix the file to use it)',
      '',
    ]);
    const json = await ferry(['-w', ws, 'env', 'ls', '--json']);
    expect((JSON.parse(json.stdout) as Array<{ id: string }>).map((r) => r.id)).toEqual(['prod', 'staging']);
    expect(json.stderr).toBe(listed.stderr);

    // Only broken files: not "No environments", which would read as if there were none at all.
    for (const id of ['prod', 'staging']) await fs.rm(path.join(ws, 'environments', `${id}.yaml`));
    const only = await ferry(['-w', ws, 'env', 'ls']);
    expect(only.stdout).toBe('No environment can be used: every file in environments/ has a problem (below).\n');
    expect(only.stderr).toContain('environments/wrong.yaml:2:12');
    // An unknown name names them too, rather than saying the workspace has no environments.
    const unknown = await ferry(['-w', ws, 'run', '-e', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('ferry: No environment "nope". No environment here can be used. Files that cannot be read: broken, wrong (ferry ls says why).\n');
  });

  it('use by name or id, ls marks it (text and JSON), --none clears it', async () => {
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).toContain('"active": false');
    const used = await ferry(['-w', ws, 'env', 'use', 'Staging Env']);
    expect(used.code).toBe(0);
    expect(used.stderr).toContain('staging is the active environment on this computer');
    // The message names every command that takes the active environment without -e: export too.
    expect(used.stderr).toContain('run, serve, load and export use it without -e');
    await fs.mkdir(path.join(ws, 'requests'), { recursive: true });
    await fs.writeFile(path.join(ws, 'requests', 'A.yaml'), 'name: A\nurl: http://127.0.0.1:9/a/{{a}}\n');
    expect((await ferry(['-w', ws, 'export', 'A'])).stdout).toContain('http://127.0.0.1:9/a/1');
    const rows = JSON.parse((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout) as Array<{ id: string; active: boolean; variables: number }>;
    expect(rows.find((r) => r.id === 'staging')).toMatchObject({ active: true, variables: 1 });
    expect(rows.find((r) => r.id === 'prod')!.active).toBe(false);
    expect((await ferry(['-w', ws, 'env', 'ls'])).stdout).toMatch(/\* staging\s+Staging Env\s+\(active\)/);
    expect((await ferry(['-w', ws, 'env', 'use', '--none'])).code).toBe(0);
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).not.toContain('"active": true');
  });

  it('refuses an unknown environment, naming the ones there are, and keeps the active one', async () => {
    await ferry(['-w', ws, 'env', 'use', 'prod']);
    const refused = await ferry(['-w', ws, 'env', 'use', 'nope']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('No environment "nope". Environments here: ');
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).toMatch(/"id": "prod",\s+"name": "prod",\s+"active": true/);
    // Named as its id and active: the mark follows the padded id, and no row ends in spaces.
    expect((await ferry(['-w', ws, 'env', 'ls'])).stdout).toBe('* prod     (active)\n  staging  Staging Env\n');
    expect((await ferry(['-w', ws, 'env', 'use'])).stderr).toContain('Name one environment, or give --none');
  });

  it('new (empty, or a copy with its secret values), rename (file, secrets, script values and active mark follow), rm', async () => {
    await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), '# our staging\nname: Staging Env\nvariables:\n  - key: a\n    value: "1"\n  - key: token\n    secret: true\n');
    expect((await ferry(['-w', ws, 'secret', 'set', 'token', '-e', 'staging'], undefined, 's3cret')).code).toBe(0);
    await ferry(['-w', ws, 'env', 'use', 'staging']);

    const added = await ferry(['-w', ws, 'env', 'new', 'QA', '--copy-of', 'Staging Env']);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('added environments/QA.yaml (a copy of Staging Env)');
    expect(await fs.readFile(path.join(ws, 'environments', 'QA.yaml'), 'utf8')).toBe('name: QA\nvariables:\n  - key: a\n    value: "1"\n  - key: token\n    secret: true\n');
    expect((await ferry(['-w', ws, 'env', 'new', 'Empty'])).code).toBe(0);
    expect(await fs.readFile(path.join(ws, 'environments', 'Empty.yaml'), 'utf8')).toBe('name: Empty\n');

    const renamed = await ferry(['-w', ws, 'env', 'rename', 'staging', 'Staging EU']);
    expect(renamed.code, renamed.stderr).toBe(0);
    const files = (await fs.readdir(path.join(ws, 'environments'))).sort();
    expect(files).toEqual(['Empty.yaml', 'QA.yaml', 'Staging EU.yaml', 'prod.yaml']);
    // Renamed in place: the comment stays.
    expect(await fs.readFile(path.join(ws, 'environments', 'Staging EU.yaml'), 'utf8')).toMatch(/^# our staging\nname: Staging EU\n/);
    const secrets = (await ferry(['-w', ws, 'secret', 'ls'])).stdout;
    expect(secrets).toMatch(/Staging EU\s+token\s+set/);
    expect(secrets).toMatch(/QA\s+token\s+set/);
    expect((await ferry(['-w', ws, 'env', 'ls'])).stdout).toMatch(/\* Staging EU\s+\(active\)/);

    expect((await ferry(['-w', ws, 'env', 'rm', 'QA'])).stderr).toContain('deleted environments/QA.yaml');
    // A new QA does not inherit the deleted one's secret value.
    await ferry(['-w', ws, 'env', 'new', 'QA', '--copy-of', 'prod']);
    await fs.writeFile(path.join(ws, 'environments', 'QA.yaml'), 'name: QA\nvariables:\n  - key: token\n    secret: true\n');
    expect((await ferry(['-w', ws, 'secret', 'ls'])).stdout).toMatch(/QA\s+token\s+not set/);
    await ferry(['-w', ws, 'env', 'rm', 'Staging EU']);
    expect((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout).not.toContain('"active": true');
  });

  it('rm of an environment that is not there succeeds with a notice and deletes nothing, as the other remove commands (running.md, exit codes)', async () => {
    const before = (await fs.readdir(path.join(ws, 'environments'))).sort();
    const result = await ferry(['-w', ws, 'env', 'rm', 'nope']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^ferry: No environment "nope"; nothing deleted\. Environments here: .*prod.*\.\n$/);
    expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(before);
  });

  it('refuses bad names and unknown environments with exit 2, writing nothing', async () => {
    const before = (await fs.readdir(path.join(ws, 'environments'))).sort();
    for (const args of [['new', ''], ['new', 'x'.repeat(201)], ['rename', 'prod', ' '], ['rename', 'nope', 'X'], ['new', 'Y', '--copy-of', 'nope'], ['new', 'staging env'], ['rename', 'prod', 'STAGING ENV']]) {
      const result = await ferry(['-w', ws, 'env', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/A name cannot be empty|at most 200 characters|No environment "nope"|An environment named "Staging Env" exists already \(environments\/staging\.yaml\); give another name\./);
    }
    // Its own name in another case is a rename of itself.
    expect((await ferry(['-w', ws, 'env', 'rename', 'prod', 'Prod'])).code).toBe(0);
    before.splice(before.indexOf('prod.yaml'), 1, 'Prod.yaml');
    before.sort();
    expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(before);
  });

  it('new --copy-of refuses a source whose keys a save would refuse (no placeholder can name one; two enabled rows of one key): exit 2, the app\'s words, the file and row, nothing written', async () => {
    const file = path.join(ws, 'environments', 'staging.yaml');
    const cases: Array<[variables: string, row: string]> = [
      ['  - key: a\n    value: "1"\n  - key: "b}"\n    value: "2"\n', 'variables[1].key: "b}" can never be used: {{b}}} does not name it, since a key cannot hold a line break, "{{" or "}}", nor start or end with a space, tab, "{" or "}"; rename the variable'],
      ['  - key: a\n    value: "1"\n  - key: a\n    value: "2"\n', 'variables[1].key: "a" is also the key of variables[0], and both are enabled: only the first would be used. Remove one, or untick Enabled on one of them (enabled: false in the file)'],
    ];
    for (const [variables, row] of cases) {
      await fs.writeFile(file, `name: Staging Env\nvariables:\n${variables}`);
      const before = (await fs.readdir(path.join(ws, 'environments'))).sort();
      const refused = await ferry(['-w', ws, 'env', 'new', 'QA', '--copy-of', 'staging']);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`ferry: Not copied: environments/staging.yaml, ${row} in environments/staging.yaml, then copy it again.\n`);
      expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(before);
    }
    // One enabled beside a disabled one (values to switch between) is copied, as a save keeps it.
    await fs.writeFile(file, 'name: Staging Env\nvariables:\n  - key: a\n    value: "1"\n  - key: a\n    value: "2"\n    enabled: false\n');
    const copied = await ferry(['-w', ws, 'env', 'new', 'QA', '--copy-of', 'staging']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await fs.readFile(path.join(ws, 'environments', 'QA.yaml'), 'utf8')).toBe('name: QA\nvariables:\n  - key: a\n    value: "1"\n  - key: a\n    value: "2"\n    enabled: false\n');
  });

  it('new --copy-of never writes a secret variable\'s value into the new file (spec 2.10), even one a hand edit left in the source', async () => {
    await fs.writeFile(path.join(ws, 'environments', 'staging.yaml'), 'name: Staging Env\nvariables:\n  - key: token\n    value: leaked\n    secret: true\n  - key: a\n    value: "1"\n');
    const copied = await ferry(['-w', ws, 'env', 'new', 'QA', '--copy-of', 'staging']);
    expect(copied.code, copied.stderr).toBe(0);
    expect(await fs.readFile(path.join(ws, 'environments', 'QA.yaml'), 'utf8')).toBe('name: QA\nvariables:\n  - key: token\n    secret: true\n  - key: a\n    value: "1"\n');
  });

  it('refuses a name with a control character or a bidi override (exit 2, one line showing it escaped); one read from a hand-edited file is listed', async () => {
    const before = (await fs.readdir(path.join(ws, 'environments'))).sort();
    for (const args of [['new', 'Bad\x1b[31mred'], ['rename', 'prod', 'prod\u202egnp'], ['new', 'two\nlines']]) {
      const result = await ferry(['-w', ws, 'env', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^ferry: A name cannot hold control characters or bidirectional overrides \(they act on the terminal or page that shows it\): "[^"\x00-\x1f\u202e]+" has U\+(001B|202E|000A) at character \d+\. Remove it, or type a space in its place\.\n$/);
    }
    expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(before);
    // Written by hand: read as it is (shown escaped on a terminal, processOutput).
    await fs.writeFile(path.join(ws, 'environments', 'hand.yaml'), 'name: "Hand\\e[31m"\n');
    expect(JSON.parse((await ferry(['-w', ws, 'env', 'ls', '--json'])).stdout)).toContainEqual(expect.objectContaining({ id: 'hand', name: 'Hand\x1b[31m' }));
  });

  it('a read-only environment file is neither renamed nor rewritten: one line saying which file and what to do', async () => {
    const file = path.join(ws, 'environments', 'staging.yaml');
    await fs.chmod(file, 0o444);
    const refused = await ferry(['-w', ws, 'env', 'rename', 'staging', 'Stage Two']);
    expect(refused).toMatchObject({ code: 2, stdout: '', stderr: `ferry: ${file} is read-only (mode 0444), so it was not changed. Make it writable (chmod u+w), then try again.\n` });
    expect((await fs.readdir(path.join(ws, 'environments'))).sort()).toEqual(['prod.yaml', 'staging.yaml']);
    expect(await fs.readFile(file, 'utf8')).toBe('name: Staging Env\nvariables:\n  - key: a\n    value: "1"\n');
  });

  it('new where environments/ is a named pipe or a file: exit 2, one line saying what it is and what to do, nothing written', async () => {
    const dir = path.join(ws, 'environments');
    await fs.rm(dir, { recursive: true });
    execFileSync('mkfifo', [dir]);
    const pipe = await ferry(['-w', ws, 'env', 'new', 'dev']);
    expect(pipe).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'ferry: Cannot create environment "dev": environments/ cannot be written to (it is a named pipe, not a folder); nothing was written. Replace it with a folder, then try again.\n',
    });
    await fs.rm(dir);
    await fs.writeFile(dir, 'not a folder\n');
    const file = await ferry(['-w', ws, 'env', 'new', 'dev']);
    expect(file.code).toBe(2);
    expect(file.stderr).toMatch(/^ferry: Cannot create environment "dev": environments\/ cannot be written to \(it is a file, not a folder\); nothing was written\. .+\n$/);
    expect(await fs.readFile(dir, 'utf8')).toBe('not a folder\n');
  });

  it('a rename carries the values scripts set in that environment (pm.environment.set) to the new id', async () => {
    const opened = await openWorkspace(ws);
    const data = new WorkspaceData(opened.id, opened.root);
    await data.updateScriptValues('environment:staging', { session: 'abc' });
    await data.updateScriptValues('environment:prod', { session: 'other' });
    expect(await renameEnvironment(opened, data, 'staging', 'Staging 2', { writer: 'a test' })).toBe('Staging 2');
    expect(await data.scriptValues('environment:Staging 2')).toEqual({ session: 'abc' });
    expect(await data.scriptValues('environment:staging')).toEqual({});
    expect(await data.scriptValues('environment:prod')).toEqual({ session: 'other' });
  });
});
