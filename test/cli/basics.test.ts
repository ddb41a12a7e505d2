import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ferry } from '../support/cli.js';
import { copyFixture, tempDir } from '../support/temp.js';

describe('ferry basics', () => {
  it('--help lists the commands and the exit codes; --version prints the version', async () => {
    const help = await ferry(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: ferry/);
    expect(help.stdout).toMatch(/Exit codes:\n  0  success.*\n  1  something failed/);
    const version = await ferry(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("the exit codes --help and the README give say what Ctrl-C ends with: 1 for a run, 0 for serve, app and mcp", async () => {
    // `ferry serve`, `ferry app` and `ferry mcp` end with 0 on Ctrl-C (test/servers/serve-cli.test.ts,
    // test/app/app-cli.test.ts, docs/agents.md); the shared table said Ctrl-C gives 1, so
    // `ferry serve --help` said both.
    const readme = await fs.readFile(path.join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const readmeTable = readme.split('### Exit codes')[1]!.split('\n### ')[0]!;
    for (const command of ['serve', 'app', 'mcp']) {
      const help = (await ferry([command, '--help'])).stdout;
      const codes = help.split('Exit codes:')[1]!;
      expect(codes, command).toMatch(/^ {2}0 .*`ferry serve`.*`ferry app`.*`ferry mcp`.*Ctrl-C/m);
      expect(codes.match(/^ {2}1 .*$/m)![0], command).not.toMatch(/Ctrl-C stopped it$/);
    }
    expect(readmeTable).toMatch(/\| 0 \|[^\n]*`ferry serve`[^\n]*`ferry app`[^\n]*`ferry mcp`[^\n]*Ctrl-C/);
  });

  it('every command has --help', async () => {
    const help = await ferry(['--help']);
    const commands = [...help.stdout.matchAll(/^  ([a-z]+) /gm)].map((m) => m[1]!).filter((c) => c !== 'help');
    expect(commands.length).toBeGreaterThanOrEqual(2);
    for (const command of commands) {
      const sub = await ferry([command, '--help']);
      expect(sub.code, command).toBe(0);
      expect(sub.stdout, command).toMatch(new RegExp(`Usage: ferry ${command}`));
      // The exit codes once (a command adding them too printed them twice).
      expect(sub.stdout.split('Exit codes:').length - 1, command).toBe(1);
      // Examples in one form: `$ command  # what it does` (ferry secret's were bare lines).
      const exampleLines = (sub.stdout.split('\nExamples:\n')[1] ?? '').split('\n\n')[0]!.split('\n').filter(Boolean);
      for (const line of exampleLines) expect(line, command).toMatch(/^ {2}\$ ferry .*# \S|^ {2}\$ .*\| ferry .*# \S|^ {2}\$ source <\(ferry|^ {2}\$ (claude|npx) /);
      // Commands with their own subcommands (config, secret): each of those too.
      const subcommands = [...(sub.stdout.split('Commands:')[1] ?? '').split('\n\n')[0]!.matchAll(/^  ([a-z]+)/gm)].map((m) => m[1]!).filter((c) => c !== 'help');
      for (const name of subcommands) {
        const inner = await ferry([command, name, '--help']);
        expect(inner.code, `${command} ${name}`).toBe(0);
        expect(inner.stdout, `${command} ${name}`).toMatch(new RegExp(`Usage: ferry ${command} ${name}`));
        expect(inner.stdout.split('Exit codes:').length - 1, `${command} ${name}`).toBe(1);
      }
    }
  });

  it('`ferry help NAME` of no command says so (exit 2), with the nearest spelling as `ferry NAME` gives it; of a command, its help', async () => {
    const unknown = await ferry(['help', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ferry: unknown command 'nope'\n/);
    expect(unknown.stdout).toBe('');
    const misspelt = await ferry(['help', 'rnu']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain("ferry: unknown command 'rnu'\n(Did you mean run?)");
    expect(misspelt.stdout).toBe('');
    const known = await ferry(['help', 'run']);
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: ferry run/);
  });

  it('`ferry help NAME SUB` is the help of the subcommand (`ferry NAME SUB --help`), not of NAME', async () => {
    for (const [name, sub] of [['env', 'use'], ['load', 'merge'], ['secret', 'set']] as const) {
      const help = await ferry(['help', name, sub]);
      expect(help.code, `${name} ${sub}`).toBe(0);
      expect(help.stdout, `${name} ${sub}`).toMatch(new RegExp(`^Usage: ferry ${name} ${sub} `));
    }
  });

  it('a missing argument names the command, what it takes, an example and where to find it (exit 2)', async () => {
    // Commander said only "missing required argument 'id'".
    const load = await ferry(['load']);
    expect(load.code).toBe(2);
    expect(load.stderr).toMatch(/^ferry: `ferry load` needs <id>, the load test: its file name under loadtests\/ without \.yaml\. For example: `ferry load smoke`\. `ferry ls` lists the load tests/);
    const update = await ferry(['update']);
    expect(update.code).toBe(2);
    expect(update.stderr).toMatch(/^ferry: `ferry update` needs <folder>, the imported folder .* For example: `ferry update Petstore`\. `ferry ls` shows the folders/);
    // The example gives the argument that is missing: the second of `ferry mv`, the first of a subcommand.
    const mv = await ferry(['mv', 'Users']);
    expect(mv.stderr).toMatch(/^ferry: `ferry mv` needs <new>, .* For example: `ferry mv "Users\/Get user" "Users\/Fetch user"`/);
    const rename = await ferry(['env', 'rename']);
    expect(rename.code).toBe(2);
    expect(rename.stderr).toMatch(/^ferry: `ferry env rename` needs <env>, .* For example: `ferry env rename staging 'Staging EU'`\. `ferry env ls` lists the environments/);
  });

  it('an unknown subcommand names its group, with the nearest spelling (exit 2)', async () => {
    const env = await ferry(['env', 'lss']);
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/^ferry: unknown command 'lss' of ferry env\n\(Did you mean ls\?\)/);
    const config = await ferry(['config', 'lst']);
    expect(config.stderr).toMatch(/^ferry: unknown command 'lst' of ferry config\n/);
    // Of no command at all: no group to name.
    expect((await ferry(['nope'])).stderr).toMatch(/^ferry: unknown command 'nope'\n/);
  });

  it('bad usage exits 2 with a message', async () => {
    const result = await ferry(['no-such-command']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown command 'no-such-command'/);
  });

  it('init creates a workspace that ls lists; init twice is refused', async () => {
    const dir = path.join(await tempDir(), 'api');
    const init = await ferry(['init', dir, '--name', 'My API']);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/Created a Ferry workspace/);
    expect(await fs.readFile(path.join(dir, 'ferry.yaml'), 'utf8')).toMatch(/^version: 1\nid: [\w-]+\nname: My API\n$/);
    const again = await ferry(['init', dir]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists/);
    const ls = await ferry(['ls'], dir);
    expect(ls.code).toBe(0);
    expect(ls.stdout.trim()).toBe('My API');
  });

  it('ls finds the workspace by walking up, and prints tree, environments, servers, load tests and warnings', async () => {
    const root = await copyFixture('full');
    await fs.writeFile(path.join(root, 'requests', 'Broken.yaml'), 'name: [\n');
    await fs.writeFile(path.join(root, 'requests', 'Admin', 'Lookup.yaml'), 'name: Lookup\nkind: dns\nmethod: mx\nurl: example.test\n');
    const ls = await ferry(['ls'], path.join(root, 'requests', 'Admin', 'Deep'));
    expect(ls.code).toBe(0);
    // A folder whose name differs from its folder on disk shows that path too, in the path column.
    expect(ls.stdout).toMatch(/Admin: tools\/ +Admin\//);
    expect(ls.stdout).toMatch(/POST\s+Create thing \(not in spec\) {2}Admin\/Create thing\.yaml/); // openapi.removed in the fixture
    expect(ls.stdout).toMatch(/tcp\s+Sockets/);
    expect(ls.stdout).toMatch(/ {2}dns MX\s+Lookup +Admin\/Lookup\.yaml/);
    expect(ls.stdout).toMatch(/Environments\n {2}staging {2}Staging/);
    expect(ls.stdout).toMatch(/Servers\n {2}mock +http +Mock API/);
    expect(ls.stdout).toMatch(/Load tests\n {2}smoke {2}Smoke/);
    expect(ls.stdout).toMatch(/Warnings\n {2}ferry\.yaml: fields that ferry\.yaml does not have are ignored: futureField\.\n {2}requests\/Broken\.yaml:\d+:\d+: YAML syntax error/);
    const json = JSON.parse((await ferry(['-w', root, 'ls', '--json'])).stdout);
    expect(json.requests.map((r: { path: string }) => r.path)).toContain('Admin/Deep/Sockets.yaml');
  });

  it('ls lines up the servers\' kind and name columns as it does the requests\'', async () => {
    const root = await copyFixture('full');
    await fs.writeFile(path.join(root, 'servers', 'feed.yaml'), 'name: Price feed\nkind: websocket\n');
    const ls = await ferry(['-w', root, 'ls']);
    expect(ls.code, ls.stderr).toBe(0);
    const rows = ls.stdout.split('Servers\n')[1]!.split('\n\n')[0]!.split('\n');
    expect(rows).toEqual(expect.arrayContaining([expect.stringMatching(/^ {2}feed +websocket +Price feed$/), expect.stringMatching(/^ {2}mock +http +Mock API$/)]));
    // Kinds and names each start in one column whatever the width of what is before them.
    const starts = rows.map((row) => /^( {2}\S+ +)(\S+ +)/.exec(row)!);
    expect(new Set(starts.map((m) => m[1]!.length)).size, rows.join('\n')).toBe(1);
    expect(new Set(starts.map((m) => m[0].length)).size, rows.join('\n')).toBe(1);
  });

  it('init takes its folder from -w too; two different folders are refused', async () => {
    const parent = await tempDir();
    const viaOption = await ferry(['-w', 'ws', 'init'], parent);
    expect(viaOption.code).toBe(0);
    expect(await fs.readdir(path.join(parent, 'ws'))).toContain('ferry.yaml');
    const both = await ferry(['-w', 'a', 'init', 'b'], parent);
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('ferry: init got two folders: b and -w a. Give the folder once.\n');
    expect((await ferry(['-w', 'c', 'init', './c'], parent)).code).toBe(0);
    expect((await fs.readdir(parent)).sort()).toEqual(['c', 'ws']);
  });

  // Node 20's recursive mkdir loops forever at full CPU on /proc/foo; the built CLI runs in a
  // process of its own so that a regression ends in a timeout, not a hung test run.
  it.skipIf(process.platform !== 'linux')('init in a folder that cannot be created (/proc/foo) fails at once with exit 2', async () => {
    const bin = path.resolve(import.meta.dirname, '..', '..', 'bin', 'ferry.js');
    for (const target of ['/proc/foo', '/proc/foo/bar']) {
      const result = spawnSync(process.execPath, [bin, 'init', target], { encoding: 'utf8', timeout: 20_000, env: { ...process.env, NO_COLOR: '1' } });
      expect(result.signal, 'ferry init did not end within 20 s').toBeNull();
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`ferry: Cannot create the workspace folder ${target}: /proc does not allow new folders (ENOENT). Choose a folder you can write to.\n`);
    }
  }, 60_000);

  it("init inside another workspace's requests/, environments/, servers/ or loadtests/ is refused (its files would be read as the outer one's); elsewhere under it, fine", async () => {
    const outer = path.join(await tempDir(), 'outer');
    expect((await ferry(['init', outer])).code).toBe(0);
    for (const folder of ['requests', 'environments', 'servers', 'loadtests']) {
      const inner = path.join(outer, folder, 'Team', 'inner');
      const result = await ferry(['init', inner]);
      expect(result.code, folder).toBe(2);
      expect(result.stderr, folder).toBe(`ferry: ${inner} is inside the ${folder}/ folder of the workspace ${outer}, whose files there would be read as its own (ferry.yaml as a request or environment). Choose a folder outside ${outer}/${folder}/.\n`);
      await expect(fs.stat(inner), folder).rejects.toThrow();
    }
    expect((await ferry(['-w', outer, 'ls', '--problems'])).stdout).toBe('No file problems.\n');
    // A workspace in a subfolder of a repository that is one (a monorepo's packages/api): fine.
    expect((await ferry(['init', path.join(outer, 'packages', 'api')])).code).toBe(0);
  });

  it('every listing subcommand answers to ls: config ls is config list, as env, secret, cookies and programs ls are', async () => {
    const list = await ferry(['config', 'list', '--json']);
    const ls = await ferry(['config', 'ls', '--json']);
    expect(ls.code, ls.stderr).toBe(0);
    expect(ls.stdout).toBe(list.stdout);
  });

  it('init under a file fails with exit 2 and says so', async () => {
    const parent = await tempDir();
    await fs.writeFile(path.join(parent, 'file'), 'x');
    const result = await ferry(['init', path.join(parent, 'file', 'ws')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`ferry: Cannot create the workspace folder ${path.join(parent, 'file', 'ws')}: a part of the path is a file, not a folder (ENOTDIR). Choose a folder you can write to.\n`);
  });

  it('init refuses an empty or 201-character name and creates nothing', async () => {
    const parent = await tempDir();
    const empty = await ferry(['init', path.join(parent, 'a'), '--name', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('ferry: The workspace name is not allowed: A name cannot be empty; give a name of 1 to 200 characters.\n');
    const long = await ferry(['init', path.join(parent, 'b'), '--name', 'n'.repeat(201)]);
    expect(long.code).toBe(2);
    expect(long.stderr).toMatch(/at most 200 characters; this one has 201/);
    expect(await fs.readdir(parent)).toEqual([]);
  });

  it('outside a workspace: a clear message and exit 2', async () => {
    const dir = await tempDir();
    const ls = await ferry(['ls'], dir);
    expect(ls.code).toBe(2);
    expect(ls.stderr).toMatch(/No Ferry workspace here.*Use -w DIR, or create one with `ferry init`/);
  });
});
