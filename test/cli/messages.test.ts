/** What the user reads when they get something wrong: one `ferry:` line, the right exit code, no stack trace. */
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

async function workspace(): Promise<string> {
  const dir = path.join(await tempDir(), 'ws');
  expect((await ferry(['init', dir])).code).toBe(0);
  return dir;
}

function expectNoStack(stderr: string): void {
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('ferry messages', () => {
  it('commander errors start with "ferry:" like every other message, and exit 2', async () => {
    const option = await ferry(['run', '--no-such-option']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^ferry: unknown option '--no-such-option'\n/);
    const missing = await ferry(['update']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ferry: `ferry update` needs <folder>, /);
  });

  it('a request path starting with - read as short options (ferry run -dir = -d ir): the refusal says to write it after --', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const run = await ferry(['-w', ws, 'run', '-dir']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ferry: Data file \S*ir does not exist\. "-dir" was read as the options -d ir: a request or folder whose name starts with - goes after --: ferry run -- -dir\n$/);
    expect(JSON.parse((await ferry(['-w', ws, 'run', '-dir', '-r', 'json'])).stdout).error.message).toMatch(/ferry run -- -dir$/);
    const reporter = await ferry(['-w', ws, 'run', '-kvrf']);
    expect(reporter.code).toBe(2);
    expect(reporter.stderr).toMatch(/^ferry: Unknown reporter "f"\. .*"-kvrf" was read as the options -k -v -r f: .* goes after --: ferry run -- -kvrf\n$/);
    // commander refuses an unknown one itself: the hint follows its line.
    const ls = await ferry(['-w', ws, 'ls', '-dir']);
    expect(ls.code).toBe(2);
    expect(ls.stderr).toMatch(/^ferry: unknown option '-dir'\n[\s\S]*ferry: "-dir" was read as options: a request or folder whose name starts with - goes after --: ferry ls -- -dir\n$/);
    expectNoStack(ls.stderr);
    // No hint where no short option was read: a long option, or a command that takes no path.
    expect((await ferry(['-w', ws, 'run', '--dir'])).stderr).not.toMatch(/goes after --/);
    expect((await ferry(['-w', ws, 'app', '-xyz'])).stderr).not.toMatch(/goes after --/);
  });

  it('a path that names a symbolic link (a request file or a folder) says it is one, not "No request or folder": run, ls, export', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const outside = await tempDir();
    await fs.writeFile(path.join(outside, 'real.yaml'), 'name: real\nurl: http://127.0.0.1:9/\n');
    await fs.symlink(path.join(outside, 'real.yaml'), path.join(ws, 'requests', 'Linked.yaml'));
    await fs.symlink(outside, path.join(ws, 'requests', 'Shared'));
    const cases: Array<[string[], string]> = [
      [['run', 'Linked'], 'requests/Linked.yaml'],
      [['run', 'requests/linked.yaml'], 'requests/Linked.yaml'],
      [['run', 'Shared'], 'requests/Shared'],
      [['run', 'Shared/real.yaml'], 'requests/Shared'],
      [['ls', 'Linked'], 'requests/Linked.yaml'],
      [['export', 'Linked'], 'requests/Linked.yaml'],
    ];
    for (const [args, file] of cases) {
      const result = await ferry(['-w', ws, ...args]);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      expect(result.stderr, label).toContain(`ferry: ${file} is a symbolic link; Ferry never follows links`);
      expect(result.stderr, label).not.toContain('No request or folder');
    }
    // A path that names nothing at all is still said so.
    expect((await ferry(['-w', ws, 'run', 'Nope'])).stderr).toContain('No request or folder "Nope"');
  });

  it('an unknown option that begins a known one (--rep, --out, --rep=json) suggests it, or the ones it may begin, not --help', async () => {
    const cases: Array<[string[], string]> = [
      [['run', '--rep', 'json'], '(Did you mean one of --reporter, --report-bodies?)'],
      [['run', '--reporte=json'], '(Did you mean --reporter?)'],
      [['run', '--out', 'r.json'], '(Did you mean one of --out-json, --out-junit, --out-html?)'],
      [['load', 'x', '--seg', '1/2'], '(Did you mean --segment?)'],
      [['env', 'ls', '--js'], '(Did you mean --json?)'],
      [['--work', '.', 'ls'], '(Did you mean --workspace?)'],
    ];
    for (const [args, suggestion] of cases) {
      const result = await ferry(args);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      expect(result.stderr, label).toMatch(/^ferry: unknown option '--[a-z]+(=json)?'\n/);
      expect(result.stderr.split('\n')[1], label).toBe(suggestion);
    }
    // Commander's own suggestion of a near spelling stays.
    expect((await ferry(['run', '--insecur'])).stderr).toContain('(Did you mean --insecure?)');
  });

  it('a file named on the command line whose name is not valid UTF-8 (import, run -d): said so, not "does not exist"', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const dir = await tempDir();
    // Latin-1 bytes: Node reads the command line as UTF-8, so the name it gets opens nothing.
    const latin1 = (name: string) => Buffer.concat([Buffer.from(dir + path.sep), Buffer.from(name, 'latin1')]);
    await fs.writeFile(latin1('caf\xe9.json'), JSON.stringify({ info: { name: 'C', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [] }));
    await fs.writeFile(latin1('r\xe9.csv'), 'a\n1\n');
    const given = (name: string) => path.join(dir, name.replace(/[\x80-\xff]/g, '\ufffd'));
    const cases: Array<[string[], string]> = [
      [['import', given('caf\xe9.json')], given('caf\xe9.json')],
      [['run', '-d', given('r\xe9.csv')], given('r\xe9.csv')],
    ];
    for (const [args, file] of cases) {
      const result = await ferry(['-w', ws, ...args]);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      expect(result.stderr, label).toContain(`${file} has a name that is not valid UTF-8 (shown here with \ufffd), so Ferry cannot open it: rename it to a UTF-8 name.`);
      expect(result.stderr, label).not.toContain('does not exist');
    }
    expect((await ferry(['-w', ws, 'import', given('caf\xe9.json')])).stderr).toMatch(/Or give it on standard input: ferry import - < FILE\.\n$/);
    // A missing file with a plain name is still "does not exist".
    expect((await ferry(['-w', ws, 'import', path.join(dir, 'none.json')])).stderr).toContain('does not exist');
  });

  it('-w names a missing folder or a file: said plainly, exit 2', async () => {
    const dir = await tempDir();
    const missing = await ferry(['-w', path.join(dir, 'nowhere'), 'ls']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`ferry: -w ${path.join(dir, 'nowhere')}: there is no such folder.`);
    await fs.writeFile(path.join(dir, 'file.txt'), 'x');
    const file = await ferry(['-w', path.join(dir, 'file.txt'), 'ls']);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('this is a file, not a folder');
    expectNoStack(file.stderr);
  });

  it('-w relative to the folder the command runs in', async () => {
    const ws = await workspace();
    const ls = await ferry(['-w', 'ws', 'ls'], path.dirname(ws));
    expect(ls.code).toBe(0);
    expect(ls.stdout.trim()).toBe('ws');
  });

  it('init on a file, or under one: a message and exit 2, not a stack trace', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'file.txt');
    await fs.writeFile(file, 'x');
    const onFile = await ferry(['init', file]);
    expect(onFile.code).toBe(2);
    expect(onFile.stderr).toBe(`ferry: ${file} is a file, not a folder. Give a new or existing folder for the workspace.\n`);
    const under = await ferry(['init', path.join(file, 'ws')]);
    expect(under.code).toBe(2);
    expect(under.stderr).toMatch(/^ferry: Cannot create the workspace folder .*file\.txt\/ws: a part of the path is a file, not a folder \(ENOTDIR\)\. Choose a folder you can write to\.\n$/);
    expect(await fs.readFile(file, 'utf8')).toBe('x');
  });

  it('export reports an unknown --lang or --lib before it looks at the request', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    await fs.writeFile(path.join(ws, 'requests', 'Get.yaml'), 'name: Get\nurl: "{{baseUrl}}/x"\n');
    const lang = await ferry(['export', 'Get', '--lang', 'cobol'], ws);
    expect(lang.code).toBe(2);
    expect(lang.stderr).toMatch(/^ferry: Unknown language "cobol"\. Choose one of: curl, /);
    const lib = await ferry(['export', 'Get', '--lang', 'python', '--lib', 'axios'], ws);
    expect(lib.code).toBe(2);
    expect(lib.stderr).toBe('ferry: Unknown library "axios" for Python. Choose one of: requests, httpx.\n');
  });

  it('update of a folder that was not imported from OpenAPI says so, with or without --from', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    await fs.mkdir(path.join(ws, 'requests', 'Plain'));
    await fs.writeFile(path.join(ws, 'requests', 'Plain', '_folder.yaml'), 'name: Plain\n');
    const result = await ferry(['update', 'Plain'], ws);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ferry: The folder "Plain" was not imported from an OpenAPI document/);
  });

  it('serve with only unknown server names is bad usage (exit 2), like run with an unknown path', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const result = await ferry(['serve', 'nope'], ws);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No server "nope": there is no servers/nope.yaml.');
  });

  it('serve of an unknown server refuses first: no "using environment" line before the refusal', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    expect((await ferry(['env', 'new', 'Local'], ws)).code).toBe(0);
    expect((await ferry(['env', 'use', 'Local'], ws)).code).toBe(0);
    const result = await ferry(['serve', 'nope'], ws);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).not.toContain('using environment');
    expect(result.stderr).toMatch(/^ferry: No server "nope"/);
  });

  it('a URL with an invalid scheme (ht!tp://) is not a valid URL, not an unknown host', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    await fs.writeFile(path.join(ws, 'requests', 'Bad.yaml'), 'name: Bad\nurl: "ht!tp://x/y"\n');
    const result = await ferry(['run', 'Bad'], ws);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('unknown host');
    expect(result.stdout).toContain('requests/Bad.yaml: url "ht!tp://x/y" is not a valid URL: "ht!tp" is not a scheme; begin it with http:// or https://.');
  });

  it('run of a broken request file: its error, and no line of blanks where the method and URL go', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    await fs.writeFile(path.join(ws, 'requests', 'Broken.yaml'), 'name: [\n');
    const result = await ferry(['run', 'Broken'], ws);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ Broken Broken\.yaml\n {4}error: requests\/Broken\.yaml:2:1: YAML syntax error/);
    expect(result.stdout).not.toMatch(/^ +$/m);
  });
});

describe('a failure when JSON was asked for on stdout', () => {
  const errorObject = (stdout: string) => JSON.parse(stdout) as { error: { message: string; exitCode: number } };

  it('stdout holds {"error": {message, exitCode}} (the line stays on stderr): -r json, --json, --out-json -, also for a refused option', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const outside = await tempDir();
    const cases: Array<[string[], string, RegExp]> = [
      [['-w', ws, 'run', '-r', 'json', 'Nope'], ws, /^No request or folder "Nope" under requests\//],
      [['-w', ws, 'run', '--reporter=json', '-e', 'nope'], ws, /^No environment "nope"/],
      [['-w', ws, 'run', '--out-json', '-', 'Nope'], ws, /^No request or folder "Nope"/],
      [['run', '-r', 'json', '--no-such-option'], ws, /^unknown option '--no-such-option'/],
      [['ls', '--json'], outside, /^No Ferry workspace here/],
      [['-w', ws, 'ls', '--json', 'Nope'], ws, /^No request or folder "Nope"/],
      [['-w', ws, 'env', 'ls', '--json', '--bogus'], ws, /^unknown option '--bogus'/],
      [['-w', ws, 'load', 'nope', '-r', 'json'], ws, /^No load test "nope"/],
      [['load', 'merge', path.join(outside, 'none.json'), '--out-json', '-'], ws, /none\.json cannot be read/],
      [['-w', ws, 'import', path.join(outside, 'none.json'), '--json'], ws, /does not exist/],
      [['-w', ws, 'serve', 'nope', '--json'], ws, /^No server "nope"/],
    ];
    for (const [args, cwd, message] of cases) {
      const result = await ferry(args, cwd);
      const label = args.join(' ');
      expect(result.code, label).toBe(2);
      expect(errorObject(result.stdout), label).toEqual({ error: { message: expect.stringMatching(message), exitCode: 2 } });
      expect(result.stderr, label).toMatch(/^ferry: /);
      expectNoStack(result.stderr);
    }
  });

  it('serve --json of a workspace with no servers: the error object on stdout too (exit 1), not nothing', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    const result = await ferry(['-w', ws, 'serve', '--json']);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('ferry: This workspace has no servers to start (add one under servers/).\n');
    expect(errorObject(result.stdout)).toEqual({ error: { message: 'This workspace has no servers to start (add one under servers/).', exitCode: 1 } });
    // Without --json, stdout stays empty.
    expect((await ferry(['-w', ws, 'serve'])).stdout).toBe('');
  });

  it('nothing on stdout when it was to hold no JSON: the terminal report, or the JSON report going to a file', async () => {
    await isolatedDataDir();
    const ws = await workspace();
    for (const args of [['run', 'Nope'], ['run', '-r', 'json', '--out-json', path.join(ws, 'r.json'), 'Nope'], ['run', '-r', 'junit', 'Nope'], ['ls', 'Nope']]) {
      const result = await ferry(['-w', ws, ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
    }
  });

  it('bin/ferry.js run -r json > report.json outside a workspace: the file is that JSON object', async () => {
    const dir = await tempDir();
    const bin = path.join(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
    const result = spawnSync(process.execPath, [bin, 'run', '-r', 'json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, FERRY_DATA_DIR: await isolatedDataDir() }, timeout: 20_000 });
    expect(result.status).toBe(2);
    expect(JSON.parse(result.stdout)).toEqual({ error: { message: expect.stringMatching(/^No Ferry workspace here/), exitCode: 2 } });
    expect(result.stderr).toMatch(/^ferry: No Ferry workspace here/);
  });
});
