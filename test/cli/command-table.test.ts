/** The command table of `ferry` (src/cli/commands.ts) and what `ferry --help` loads. */
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Command, Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, commandNameOf } from '../../src/cli/commands.js';
import { buildProgram } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import { ferry } from '../support/cli.js';
import { modulesLoadedBy } from '../support/loaded-modules.js';
import { isolatedDataDir, tempDir } from '../support/temp.js';

const ctx = (): CliContext => ({ output: { out: () => {}, err: () => {}, color: false }, cwd: process.cwd(), exitCode: 0 });

/** Libraries that only some commands need; `--help` must load none of them. */
const HEAVY = ['undici', 'zod', 'yaml', 'js-yaml', 'selfsigned', 'tough-cookie', 'fast-xml-parser', 'quickjs-emscripten', 'ws', '@grpc/grpc-js', 'graphql', 'mqtt', 'socket.io', 'hdr-histogram-js', 'csv-parse', 'aws4', 'oauth4webapi'];

describe('the command table', () => {
  it("each row's term and description are what its module registers", async () => {
    for (const entry of COMMANDS) {
      const program = new Command('ferry');
      (await entry.load())(program, ctx());
      expect(program.commands.map((c) => c.name()), entry.name).toEqual([entry.name]);
      const command = program.commands[0]!;
      expect(new Help().subcommandTerm(command), entry.name).toBe(entry.term);
      expect(command.description(), entry.name).toBe(entry.description);
    }
  }, 60_000);

  it('every `ferry NAME` a help text mentions is a command ferry has', async () => {
    // The cookies row said the jar was filled "by run, send and the app": there is no `ferry send`.
    const program = await buildProgram(ctx(), [], { all: true });
    const texts = [program.helpInformation(), ...program.commands.flatMap((c) => [c.helpInformation(), ...c.commands.map((sub) => sub.helpInformation())])];
    const names = new Set(COMMANDS.map((entry) => entry.name));
    for (const text of texts) for (const [, name] of text.matchAll(/\bferry ([a-z][a-z-]*)/g)) expect(names, `ferry ${name}`).toContain(name);
    expect(COMMANDS.find((entry) => entry.name === 'cookies')!.description).toContain('filled by ferry run, the app and ferry mcp');
  }, 60_000);

  it('the root help lists every command, loaded or not, the same way', async () => {
    const rows = (await buildProgram(ctx())).helpInformation();
    const loaded = (await buildProgram(ctx(), [], { all: true })).helpInformation();
    expect(rows).toBe(loaded);
    for (const entry of COMMANDS) if (!entry.hidden) expect(rows).toContain(entry.term);
  }, 60_000);

  it('finds the command argv runs, past root options and `help`', () => {
    expect(commandNameOf([])).toBeUndefined();
    expect(commandNameOf(['--help'])).toBeUndefined();
    expect(commandNameOf(['-V'])).toBeUndefined();
    expect(commandNameOf(['run', 'a.yaml'])).toBe('run');
    expect(commandNameOf(['-w', 'serve', 'run'])).toBe('run');
    expect(commandNameOf(['--workspace', 'ls', 'env', 'ls'])).toBe('env');
    expect(commandNameOf(['--workspace=ls', 'import', 'x'])).toBe('import');
    expect(commandNameOf(['help', 'run'])).toBe('run');
    expect(commandNameOf(['help'])).toBeUndefined();
    expect(commandNameOf(['nonsense', 'run'])).toBe('nonsense');
    expect(commandNameOf(['--', 'run'])).toBeUndefined();
  });

  it('`ferry help CMD` and `ferry CMD --help` show the command\'s own options; unknown commands are refused', async () => {
    const viaHelp = await ferry(['help', 'run']);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toContain('Usage: ferry run [options] [paths...]');
    expect(viaHelp.stdout).toContain('--reporter');
    const viaOption = await ferry(['serve', '--help']);
    expect(viaOption.stdout).toContain('Usage: ferry serve [options] [server...]');
    const unknown = await ferry(['rnu']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("ferry: unknown command 'rnu'");
    expect(unknown.stderr).toContain('Did you mean run?');
    // With --help too (it printed the whole help and exited 0), before or after root options.
    for (const args of [['rnu', '--help'], ['-w', '.', 'rnu', '-h'], ['help', 'rnu']]) {
      const asked = await ferry(args);
      expect(asked.code, args.join(' ')).toBe(2);
      expect(asked.stdout).toBe('');
      expect(asked.stderr).toContain("ferry: unknown command 'rnu'\n(Did you mean run?)");
    }
  }, 60_000);

  it("a group's unknown subcommand is refused with --help too; its known ones and `ferry load ID --help` still show help", async () => {
    // `ferry env lss --help` printed env's help and exited 0, as `ferry send --help` printed the whole help.
    for (const args of [['env', 'lss', '--help'], ['help', 'env', 'lss'], ['env', 'help', 'lss'], ['-w', '.', 'env', 'lss', '-h'], ['cookies', 'clr', '--help']]) {
      const asked = await ferry(args);
      expect(asked.code, args.join(' ')).toBe(2);
      expect(asked.stdout, args.join(' ')).toBe('');
    }
    expect((await ferry(['help', 'env', 'lss'])).stderr).toContain("ferry: unknown command 'lss' of ferry env\n(Did you mean ls?)");
    expect((await ferry(['config', 'lst', '-h'])).stderr).toContain("ferry: unknown command 'lst' of ferry config\n(Did you mean one of list, ls?)");
    // No near spelling: the group's commands are named (`add` for `new`, as the group's own help words it).
    expect((await ferry(['env', 'add', 'Staging'])).stderr).toContain("ferry: unknown command 'add' of ferry env (its commands: ls, use, new, rename, rm, reset)");
    for (const [args, usage] of [[['env', 'use', '--help'], 'Usage: ferry env use'], [['env', 'help', 'use'], 'Usage: ferry env use'], [['config', 'ls', '-h'], 'Usage: ferry config list|ls'], [['help', 'env'], 'Usage: ferry env [options] [command]'], [['load', 'smoke', '--help'], 'Usage: ferry load [options] [command] <id>']] as const) {
      const shown = await ferry([...args]);
      expect(shown.code, args.join(' ')).toBe(0);
      expect(shown.stdout + shown.stderr, args.join(' ')).toContain(usage);
    }
  }, 60_000);
});

// These spawn bin/ferry.js, which loads the bundle in dist/bundle/ (rebuilt by test/support/built-is-current.ts when stale).
describe('what a command loads (bin/ferry.js)', () => {
  it('`ferry --help` loads the command table, commander and little else', async () => {
    const { code, stdout, chunks, modules, ours, packages } = await modulesLoadedBy(['--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('Commands:');
    for (const name of HEAVY) expect(packages.has(name), name).toBe(false);
    // main, commands, output, exit codes, system errors and three support modules today.
    expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(12);
    expect(modules.length, modules.join('\n')).toBeLessThanOrEqual(25);
    expect(ours.some((m) => m.endsWith(`cli${path.sep}run.ts`))).toBe(false);
    // ferry.js and the one file of what every command loads (8 files before they were joined).
    expect(chunks.length, chunks.join('\n')).toBeLessThanOrEqual(2);
  }, 30_000);

  it('`ferry run` of one request without scripts loads no library that request does not use', async () => {
    const ws = path.join(await tempDir(), 'ws');
    expect((await ferry(['init', ws])).code).toBe(0);
    const server = http.createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      await fs.writeFile(path.join(ws, 'requests', 'One.yaml'), `name: One\nurl: http://127.0.0.1:${port}/\n`);
      const { code, stdout, chunks, modules, ours, packages } = await modulesLoadedBy(['-w', ws, 'run', 'One'], { env: { FERRY_DATA_DIR: await isolatedDataDir() } });
      expect(code, stdout).toBe(0);
      for (const name of ['quickjs-emscripten', 'yaml', 'selfsigned', 'fast-xml-parser', 'csv-parse', 'aws4', 'oauth4webapi', 'fzstd', 'eventsource-parser', 'ws', 'graphql', 'mqtt', '@grpc/grpc-js', 'tough-cookie']) {
        expect(packages.has(name), name).toBe(false);
      }
      // The HTTP client's part of undici (its Agent), not undici's index with fetch, WebSocket and caches.
      const undici = modules.filter((m) => m.replaceAll('\\', '/').includes('/node_modules/undici/'));
      expect(undici.length, undici.join('\n')).toBeLessThanOrEqual(30);
      expect(undici.some((m) => m.endsWith(`undici${path.sep}index.js`))).toBe(false);
      // No contract check (the request links no API document), no script host (no script).
      const unix = ours.map((m) => m.replaceAll('\\', '/'));
      for (const folder of ['/src/contract/check.ts', '/src/openapi-document/', '/src/scripts/host/engine.ts', '/src/scripts/host/runtime.ts']) {
        expect(unix.some((m) => m.includes(folder)), folder).toBe(false);
      }
      // 425 modules (172 of ours) before issue 24's second round; 315 (149) after it; 250 (149) in
      // 48 files of the bundle, which holds zod without its ~45 translations of error messages;
      // 161 since the composer's Base64 rule became its own module (support/base64-text.ts), which
      // the joined chunk of the runner holds with the other live-message helpers; 162 since the
      // dynamic values' table is one module shared with the script sandbox (support/dynamic-value-table.ts);
      // 163 since the headers added at send time are decided in one module load tests share
      // (protocols/http/default-headers.ts); 164 since a response header's value is read by one
      // rule that load-test captures share (protocols/http/header-text.ts); 165 since a run takes
      // its mark in the record of environment renames and deletes that other processes make
      // (appdata/environment-changes.ts); 166 since a threshold's metric names are declared once,
      // in a module the app's page bundles too (model/threshold-names.ts); 167 since the run takes
      // that mark as it reads the workspace, in the session layer (session/environment-mark.ts); 168
      // since maxResponseMb is turned into bytes in one module every kind shares (protocols/response-limit.ts);
      // 169 since a body with a Content-Length is held once, by protocols/http/body-buffer.ts; 170
      // since commander's refusals are reworded, synchronously as it writes them, by cli/usage-errors.ts;
      // 171 since the HTML report shows names as the app does (support/shown-name.ts, one regex);
      // 172 since reading a file warns of a text field YAML reads as a reshaped number (workspace/number-text-warning.ts);
      // 173 since a subfolder of environments/ holding .yaml files is said, not passed over (workspace/unread-entries.ts);
      // 174 since a misspelt request path and a declared field share one edit distance (support/edit-distance.ts);
      // 175 since the headers a send reports as sent are read from the head undici wrote (protocols/http/sent-head.ts);
      // 176 since a warning's code (why a file was not read) is declared once (workspace/warning-code.ts).
      // 177 since a value a script stored is filled into {{name}} as Postman's String() gives it (template/value-text.ts).
      expect(ours.length, ours.join('\n')).toBeLessThanOrEqual(177);
      expect(modules.length, modules.join('\n')).toBeLessThanOrEqual(270);
      // Ferry's code comes from the bundle, not from tsc's output beside it.
      const built = path.join(import.meta.dirname, '..', '..', 'dist') + path.sep;
      expect(modules.filter((m) => m.startsWith(built))).toEqual([]);
      // Each file costs Node's ES module loader a resolve, a read and a compile: 48 files of
      // esbuild's chunks, 24 once the chunks the same commands load are joined (scripts/bundle-cli.mjs);
      // 28 since model/constants.ts and support/placeholder-syntax.ts are also loaded by commands
      // that load none of their old chunk-mates (same modules as before, two more files).
      expect(chunks.length, chunks.join('\n')).toBeLessThanOrEqual(28);
    } finally {
      server.close();
    }
  }, 30_000);

  it('`ferry help run` loads run and no other command', async () => {
    const { code, ours } = await modulesLoadedBy(['help', 'run']);
    expect(code).toBe(0);
    expect(ours.some((m) => m.endsWith(`cli${path.sep}run.ts`))).toBe(true);
    for (const other of ['serve', 'import', 'load', 'app', 'update']) {
      expect(ours.some((m) => m.endsWith(`cli${path.sep}${other}.ts`)), other).toBe(false);
    }
  }, 30_000);
});
