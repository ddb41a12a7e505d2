/**
 * What the CLI shows (issue 21): examples in every help, completion scripts run by real shells,
 * `config path`, `export` without --lang, `run --folder`, `-e FILE.postman_environment.json`,
 * `init`'s next steps, linked ferry.yaml and requests/, `update NOPE --from x`.
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';
import { ferry } from '../support/cli.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const run = promisify(execFile);
const BIN = path.resolve(import.meta.dirname, '..', '..', 'bin', 'ferry.js');

async function workspace(): Promise<string> {
  const root = path.join(await tempDir(), 'ws');
  expect((await ferry(['init', root, '--name', 'Shows'])).code).toBe(0);
  await fs.mkdir(path.join(root, 'requests', 'Users'), { recursive: true });
  await fs.writeFile(path.join(root, 'requests', 'Users', 'Get user.yaml'), 'name: Get user\nurl: http://127.0.0.1:9/users/1\n');
  await fs.writeFile(path.join(root, 'requests', 'Ping.yaml'), 'name: Ping\nurl: http://127.0.0.1:9/ping\n');
  await fs.writeFile(path.join(root, 'environments', 'staging.yaml'), 'name: staging\n');
  await fs.writeFile(path.join(root, 'environments', 'Swagger Petstore.yaml'), 'name: Swagger Petstore\n');
  await fs.mkdir(path.join(root, 'servers'));
  await fs.writeFile(path.join(root, 'servers', 'mock api.yaml'), 'name: Mock API\n');
  await fs.mkdir(path.join(root, 'loadtests'));
  await fs.writeFile(path.join(root, 'loadtests', 'smoke.yaml'), 'name: smoke\ntargets:\n  - request: Ping\nstages:\n  - durationSecs: 1\n    target: 1\n');
  return root;
}

function allCommands(command: Command, prefix: string[] = []): string[][] {
  return command.commands
    .filter((c) => !(c as unknown as { _hidden?: boolean })._hidden)
    .flatMap((c) => [[...prefix, c.name()], ...allCommands(c, [...prefix, c.name()])]);
}

describe('help', () => {
  it("every registered command's --help has an Examples: section with ferry command lines", async () => {
    const program = await buildProgram({ output: { out: () => {}, err: () => {}, color: false }, cwd: process.cwd(), exitCode: 0 }, [], { all: true });
    const commands = allCommands(program);
    expect(commands.length).toBeGreaterThan(20);
    for (const names of commands) {
      const help = await ferry([...names, '--help']);
      expect(help.code, names.join(' ')).toBe(0);
      expect(help.stdout, names.join(' ')).toMatch(/\nExamples:\n {2}(\$ )?\S/);
      expect(help.stdout, names.join(' ')).toMatch(/ferry /);
    }
  });
});

describe('completion', () => {
  let shim: string;
  beforeAll(async () => {
    // `ferry` on the PATH as an installed one is: the built bin/ferry.js.
    shim = await tempDir();
    await fs.writeFile(path.join(shim, 'ferry'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  });

  /**
   * Each case as bash completes it for real: the script sourced once, `_ferry` called with
   * COMP_WORDS/COMP_CWORD, COMPREPLY printed. One bash for all cases (each Tab starts `ferry`).
   */
  async function bashComplete(cases: ReadonlyArray<{ cwd: string; words: string[] }>): Promise<string[][]> {
    const quote = (w: string) => `'${w.replace(/'/g, "'\\''")}'`;
    const script = [
      'source <(ferry completion bash)',
      ...cases.flatMap(({ cwd, words }) => [
        `cd ${quote(cwd)}`,
        `COMP_WORDS=(${words.map(quote).join(' ')})`,
        'COMP_CWORD=$((${#COMP_WORDS[@]} - 1))',
        'COMPREPLY=()',
        '_ferry',
        'printf "%s\\n" "${COMPREPLY[@]}"',
        'echo "--end--"',
      ]),
    ].join('\n');
    const { stdout } = await run('bash', ['-c', script], { env: { ...process.env, PATH: `${shim}:${process.env.PATH}` }, timeout: 240_000 });
    return stdout.split('--end--\n').slice(0, cases.length).map((block) => block.split('\n').filter(Boolean));
  }

  it('bash completes commands, subcommands, options, request paths (quoted) and environments', async () => {
    const root = await workspace();
    const outside = path.dirname(root);
    const cases = [
      { cwd: root, words: ['ferry', 'ru'], want: ['run'] },
      { cwd: root, words: ['ferry', 'config', ''], want: ['list', 'get', 'set', 'path', '--help'] },
      { cwd: root, words: ['ferry', 'run', '--ba'], want: ['--bail'] },
      { cwd: root, words: ['ferry', 'run', ''], want: ['Users/', 'Users/Get\\ user ', 'Ping '] },
      { cwd: root, words: ['ferry', 'run', 'Users/Get\\ u'], want: ['Users/Get\\ user '] },
      { cwd: root, words: ['ferry', 'export', 'p'], want: ['Ping '] },
      { cwd: root, words: ['ferry', 'run', '-e', 'st'], want: ['staging'] },
      // An id with a space is one word, quoted.
      { cwd: root, words: ['ferry', 'run', '-e', 'Sw'], want: ['Swagger\\ Petstore'] },
      { cwd: root, words: ['ferry', 'run', '--folder', 'U'], want: ['Users/', 'Users/Get\\ user'] },
      { cwd: root, words: ['ferry', 'completion', 'f'], want: ['fish'] },
      // Server and load test ids, setting names.
      { cwd: root, words: ['ferry', 'serve', ''], want: ['mock\\ api'] },
      { cwd: root, words: ['ferry', 'load', ''], want: ['merge', '--help', 'smoke'] },
      { cwd: root, words: ['ferry', 'config', 'set', 'time'], want: ['timeoutMs'] },
      { cwd: root, words: ['ferry', 'config', 'set', 'timeoutMs', ''], want: [] },
      // -w DIR elsewhere: the paths of that workspace.
      { cwd: outside, words: ['ferry', '-w', 'ws', 'run', 'P'], want: ['Ping '] },
      // Outside a workspace: no candidates, and no error text in the command line.
      { cwd: outside, words: ['ferry', 'run', ''], want: [] },
    ];
    const got = await bashComplete(cases);
    cases.forEach((c, i) => expect(got[i], c.words.join(' ')).toEqual(c.want));
  }, 300_000);

  it('zsh and fish scripts; an unknown shell is bad usage', async () => {
    const zsh = await ferry(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/^autoload -U \+X bashcompinit && bashcompinit\n/);
    const fish = await ferry(['completion', 'fish']);
    expect(fish.stdout).toMatch(/complete -c ferry -n '__fish_use_subcommand' -a run/);
    expect(fish.stdout).toMatch(/__complete paths \(commandline -ct\)/);
    const bad = await ferry(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown shell "tcsh". Completion scripts: bash, zsh, fish.');
    // zsh runs the bash script through bashcompinit for real when zsh is here.
    const hasZsh = await run('zsh', ['-c', 'true']).then(() => true, () => false);
    if (hasZsh) {
      const { stdout } = await run('zsh', ['-c', `autoload -U compinit && compinit -u; source <(${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} completion zsh); complete -p ferry`]);
      expect(stdout).toMatch(/complete -F _ferry ferry/);
    }
  }, 60_000);
});

describe('small things users look for', () => {
  let server: http.Server;
  let base: string;
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('config path prints the data folder (FERRY_DATA_DIR)', async () => {
    const dir = await isolatedDataDir();
    const result = await ferry(['config', 'path']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(path.resolve(dir));
  });

  it('run --folder is a path argument (Newman): it runs that folder', async () => {
    const root = await workspace();
    await fs.writeFile(path.join(root, 'requests', 'Users', 'Get user.yaml'), `name: Get user\nurl: ${base}/users/1\n`);
    seen.length = 0;
    const result = await ferry(['-w', root, 'run', '--folder', 'Users', '-r', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).results.map((r: { path: string }) => r.path)).toEqual(['Users/Get user.yaml']);
    expect(seen).toEqual(['/users/1']);
    const missing = await ferry(['-w', root, 'run', '--folder', 'Nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No request or folder "Nope"/);
  });

  it('-e FILE.postman_environment.json says to import it', async () => {
    const root = await workspace();
    // Every command with -e (serve and load said only 'No environment "dev.postman_environment.json"').
    const commands = [['run'], ['export', 'Ping'], ['serve'], ['load', 'smoke'], ['secret', 'set', 'token']];
    for (const args of commands.map((command) => [...command, '-e', 'dev.postman_environment.json'])) {
      const result = await ferry(['-w', root, ...args], root);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr, args.join(' ')).toContain('-e dev.postman_environment.json: this looks like a Postman environment file');
      expect(result.stderr).toContain('`ferry import dev.postman_environment.json`');
    }
    // Any existing .json file too; a plain environment name is not touched.
    await fs.writeFile(path.join(root, 'env.json'), '{}');
    expect((await ferry(['-w', root, 'run', '-e', 'env.json'], root)).stderr).toContain('ferry import env.json');
    expect((await ferry(['-w', root, 'export', 'Ping', '-e', 'staging'], root)).code).toBe(0);
  });

  it('init prints next steps', async () => {
    const dir = await tempDir();
    const result = await ferry(['init', 'my api'], dir);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Next steps:\n {2}cd "my api" +go to the workspace\n {2}ferry import FILE/);
    expect(result.stdout).toMatch(/ferry run +run every request/);
  });

  it('a linked ferry.yaml or requests/ is refused or reported with what to do', async () => {
    const root = await workspace();
    const other = path.join(path.dirname(root), 'other');
    await fs.mkdir(other);
    await fs.symlink(path.join(root, 'ferry.yaml'), path.join(other, 'ferry.yaml'));
    for (const [args, cwd] of [[['-w', other, 'ls'], root], [['ls'], other]] as const) {
      const result = await ferry([...args], cwd);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`${path.join(other, 'ferry.yaml')} is a symbolic link; Ferry never follows links, so ${other} is not opened as a workspace. Put the real file in its place`);
    }
    const linked = path.join(path.dirname(root), 'linked');
    await fs.mkdir(linked);
    await fs.writeFile(path.join(linked, 'ferry.yaml'), 'version: 1\nid: linked\nname: Linked\n');
    await fs.symlink(path.join(root, 'requests'), path.join(linked, 'requests'));
    const ls = await ferry(['-w', linked, 'ls']);
    expect(ls.stdout).toContain('requests is a symbolic link; Ferry never follows links, so no request was read. Put the real folder in its place');
    const runLinked = await ferry(['-w', linked, 'run', 'Ping']);
    expect(runLinked.code).toBe(2);
    expect(runLinked.stderr).toMatch(/^ferry: requests is a symbolic link; .*no request was read/m);
  });

  it('update NOPE --from x names the unknown folder before the missing file', async () => {
    const root = await workspace();
    const result = await ferry(['-w', root, 'update', 'NOPE', '--from', 'x.yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no folder "NOPE" under requests/);
    expect(result.stderr).not.toMatch(/x\.yaml/);
  });
});

describe('ferry ls', () => {
  async function mixed(): Promise<string> {
    const root = await workspace();
    await fs.mkdir(path.join(root, 'requests', '日本語'), { recursive: true });
    await fs.writeFile(path.join(root, 'requests', '日本語', 'ユーザー一覧.yaml'), 'name: ユーザー一覧\nurl: http://127.0.0.1:9/u\n');
    await fs.writeFile(path.join(root, 'requests', '日本語', 'Cafe.yaml'), 'name: "Cafe\u0301 ☕"\nkind: websocket\nurl: ws://127.0.0.1:9/\n');
    await fs.writeFile(path.join(root, 'requests', 'Users', 'Broken.yaml'), 'name: [unclosed\n');
    for (let i = 0; i < 25; i++) await fs.writeFile(path.join(root, 'requests', `Bad ${i}.yaml`), 'url: 3\nname: [\n');
    return root;
  }

  it('lines up the path column by display width, with wide and combining characters', async () => {
    const root = await mixed();
    const { stdout } = await ferry(['-w', root, 'ls']);
    const { default: stringWidth } = await import('string-width');
    const rows = stdout.split('\n').filter((l) => /\.yaml$/.test(l) && !l.includes('!'));
    expect(rows.length).toBeGreaterThanOrEqual(4);
    const columns = rows.map((l) => stringWidth(l.slice(0, l.lastIndexOf('  ') + 2)));
    expect(new Set(columns).size, stdout).toBe(1);
    expect(stdout).toContain('ユーザー一覧');
  });

  it('a name past 60 columns does not widen the column for every row: its own row goes on past it, whole', async () => {
    const root = await tempDir();
    await fs.mkdir(path.join(root, 'requests'));
    await fs.writeFile(path.join(root, 'ferry.yaml'), 'version: 1\nid: long-names\nname: Long\n');
    const long = 'Get the list of every pet that belongs to the owner named in the path, paged and sorted';
    for (const name of ['Short', 'Other one', long]) await fs.writeFile(path.join(root, 'requests', `${name}.yaml`), `name: ${name}\nurl: http://127.0.0.1:9/\n`);
    const { stdout } = await ferry(['-w', root, 'ls']);
    const rows = stdout.split('\n').filter((l) => l.endsWith('.yaml'));
    expect(rows).toContain('GET     Other one  Other one.yaml');
    expect(rows).toContain('GET     Short      Short.yaml');
    expect(rows).toContain(`GET     ${long}  ${long}.yaml`);
    // --json is the data, untouched.
    const json = JSON.parse((await ferry(['-w', root, 'ls', '--json'])).stdout) as { requests: { name: string }[] };
    expect(json.requests.map((r) => r.name)).toContain(long);
  });

  it('filters by folder path and by kind; a typo is a clear error', async () => {
    const root = await mixed();
    const users = await ferry(['-w', root, 'ls', 'Users']);
    expect(users.stdout).toMatch(/Users\/Get user\.yaml/);
    expect(users.stdout).not.toMatch(/Ping|日本語/);
    expect(users.stdout).not.toMatch(/Environments/);
    const ws = await ferry(['-w', root, 'ls', '--kind', 'websocket', '--json']);
    expect(JSON.parse(ws.stdout).requests.filter((r: { broken?: boolean }) => !r.broken).map((r: { path: string }) => r.path)).toEqual(['日本語/Cafe.yaml']);
    const both = await ferry(['-w', root, 'ls', '日本語', '--kind', 'http']);
    expect(both.stdout).toContain('ユーザー一覧');
    expect(both.stdout).not.toContain('Cafe');
    const badKind = await ferry(['-w', root, 'ls', '--kind', 'soap']);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toContain('Unknown request kind "soap". Kinds: http, websocket');
    const badPath = await ferry(['-w', root, 'ls', 'Usres']);
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toMatch(/No request or folder "Usres"/);
  });

  it('--problems lists every file problem as path:line:column: message; the listing shows 20 and points to it', async () => {
    const root = await mixed();
    const problems = await ferry(['-w', root, 'ls', '--problems']);
    expect(problems.code).toBe(0);
    const [listed, summary] = problems.stdout.trim().split('\n\n');
    const lines = listed!.split('\n');
    expect(lines).toHaveLength(26);
    expect(summary).toBe('26 files with problems.');
    expect(lines.every((l) => /^requests\/.+\.yaml:\d+:\d+: /.test(l))).toBe(true);
    const listing = await ferry(['-w', root, 'ls']);
    expect(listing.stdout).toContain('(and 6 more: ferry ls --problems lists every one)');
    expect(JSON.parse((await ferry(['-w', root, 'ls', '--problems', '--json'])).stdout)).toHaveLength(26);
    const clean = await workspace();
    expect((await ferry(['-w', clean, 'ls', '--problems'])).stdout).toBe('No file problems.\n');
  });
});
