/**
 * The table of `ferry` commands. `main` registers only the command being run (its module is
 * imported then); the others appear in `ferry --help` from their row alone, so a command's
 * libraries load only when it runs. The order is the order of `ferry --help`, as the README's
 * table: workspace, run, serve, import, export, settings.
 *
 * `term` and `description` are what the root help lists; test/cli/command-table.test.ts checks
 * that each module registers a command with exactly these.
 */
import type { Command } from 'commander';
import type { CliContext } from './context.js';

export type RegisterCommand = (program: Command, ctx: CliContext) => void;

export interface CommandEntry {
  name: string;
  /** As the root help shows it: the name, `[options]` when it has any, and its arguments. */
  term: string;
  description: string;
  /** Not listed in `ferry --help` (a helper other commands call). */
  hidden?: boolean;
  /** Needs every command registered when it runs (completion scripts list all of them). */
  everyCommand?: boolean;
  /** Imports the command's module and returns its register function. */
  load: () => Promise<RegisterCommand>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'init',
    term: 'init [options] [dir]',
    description: 'create a workspace: ferry.yaml, requests/ and environments/',
    load: async () => (await import('./init.js')).registerInit,
  },
  {
    name: 'ls',
    term: 'ls [options] [path]',
    description: 'list the requests (with kind and method), environments, servers, load tests and file problems',
    load: async () => (await import('./ls.js')).registerLs,
  },
  {
    name: 'mv',
    term: 'mv <old> <new>',
    description: 'rename or move a request or folder (files renamed, seq kept, load tests updated)',
    load: async () => (await import('./mv.js')).registerMv,
  },
  {
    name: 'env',
    term: 'env',
    description: 'list, add, rename and delete environments, choose the active one (kept on this computer, used when -e is absent), and forget the values scripts set',
    load: async () => (await import('./env.js')).registerEnv,
  },
  {
    name: 'run',
    term: 'run [options] [paths...]',
    description: 'run requests: request paths (Folder/Name.yaml, extension optional), folders, or the whole workspace',
    load: async () => (await import('./run.js')).registerRun,
  },
  {
    name: 'serve',
    term: 'serve [options] [server...]',
    description: 'run local servers (mock APIs, event streams, WebSocket, Socket.IO, MCP, TCP, UDP, DNS, TCP relays) until Ctrl-C; one line per request or message',
    load: async () => (await import('./serve.js')).registerServe,
  },
  {
    name: 'load',
    term: 'load [options] <id>',
    description: 'run a load test (loadtests/ID.yaml); `ferry load merge FILE...` combines segment results',
    load: async () => (await import('./load.js')).registerLoad,
  },
  {
    name: 'import',
    term: 'import [options] [source]',
    description: 'import a collection or environment export, an OpenAPI/Swagger document or a cURL command',
    load: async () => (await import('./import.js')).registerImport,
  },
  {
    name: 'update',
    term: 'update [options] <folder>',
    description: 'update a folder imported from an OpenAPI document to a new version of the document',
    load: async () => (await import('./update.js')).registerUpdate,
  },
  {
    name: 'export',
    term: 'export [options] [request]',
    description: 'print an HTTP request as cURL or code in one of 16 languages',
    load: async () => (await import('./export.js')).registerExport,
  },
  {
    name: 'cookies',
    term: 'cookies',
    description: "list or clear the workspace's cookie jar on this computer (filled by ferry run, the app and ferry mcp)",
    load: async () => (await import('./cookies.js')).registerCookies,
  },
  {
    name: 'config',
    term: 'config',
    description: "show and change this computer's application settings",
    load: async () => (await import('./config.js')).registerConfig,
  },
  {
    name: 'secret',
    term: 'secret',
    description: 'the values of secret variables, kept on this computer only (encrypted), never in the workspace',
    load: async () => (await import('./secret.js')).registerSecret,
  },
  {
    name: 'programs',
    term: 'programs',
    description: 'programs this workspace may start on this computer (MCP servers over stdio)',
    load: async () => (await import('./programs.js')).registerPrograms,
  },
  {
    name: 'app',
    term: 'app [options]',
    description: 'open the app: a local web UI for the workspace, served on 127.0.0.1 until Ctrl-C',
    load: async () => (await import('./app.js')).registerApp,
  },
  {
    name: 'mcp',
    term: 'mcp',
    description: 'serve the workspace to AI coding agents (Claude Code, Cursor, VS Code) as MCP tools over stdio',
    load: async () => (await import('./mcp.js')).registerMcp,
  },
  {
    name: 'completion',
    term: 'completion <shell>',
    description: 'print a shell completion script (bash, zsh or fish): commands, options, request paths, environments',
    everyCommand: true,
    load: async () => (await import('./completion.js')).registerCompletion,
  },
  {
    name: '__complete',
    term: '__complete <what> [prefix]',
    description: '',
    hidden: true,
    load: async () => (await import('./completion.js')).registerCompleteHelper,
  },
];

/** The root command's options that take a value: the word after them is not the command's name. */
const ROOT_OPTIONS_WITH_VALUE = new Set(['-w', '--workspace']);

/**
 * The name of the command that `argv` runs (or asks help for: `ferry help run`), as typed; undefined
 * for `ferry`, `ferry --help` and `ferry --version`.
 */
export function commandNameOf(argv: readonly string[]): string | undefined {
  const at = commandIndexOf(argv);
  return at === undefined ? undefined : argv[at];
}

/** Where in `argv` the name of the command it runs is (commandNameOf); undefined where there is none. */
export function commandIndexOf(argv: readonly string[]): number | undefined {
  let helpAsked = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (ROOT_OPTIONS_WITH_VALUE.has(word)) {
      i++;
      continue;
    }
    if (word === '--') return undefined;
    if (word.startsWith('-')) continue;
    if (word === 'help' && !helpAsked) {
      helpAsked = true;
      continue;
    }
    return i;
  }
  return undefined;
}
