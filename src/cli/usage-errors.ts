/**
 * Commander's own refusals, said as Ferry says the rest: what is missing or unknown, for which
 * command, an example and where to look. Commander said "missing required argument 'id'" and
 * "unknown command 'lss'" and left the user to guess which command and what to give.
 */
import type { EventEmitter } from 'node:events';
import type { Command } from 'commander';

/** Where the value of a required argument is found, by `command path <argument>`. */
const WHERE_TO_FIND: Readonly<Record<string, string>> = {
  'load <id>': '`ferry ls` lists the load tests of the workspace (loadtests/ID.yaml)',
  'load merge <files>': 'they are written by `ferry load ID --segment i/n --out-json FILE`',
  'update <folder>': '`ferry ls` shows the folders under requests/ and the servers',
  'mv <old>': '`ferry ls` lists the requests and folders',
  'mv <new>': '`ferry ls` lists the folders',
  'env rename <env>': '`ferry env ls` lists the environments',
  'env rm <env>': '`ferry env ls` lists the environments',
  'secret set <name>': '`ferry secret ls` lists the secret variables',
  'secret unset <name>': '`ferry secret ls` lists the secret variables',
  'config get <key>': '`ferry config list` lists the settings',
  'config set <key>': '`ferry config list` lists the settings',
  'programs allow <command>': 'it is the command line of an MCP request over stdio, as the request has it',
};

/** `ferry env rename`: the command's words after `ferry`. */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The command's own `--help` examples (examples.ts), read from its help text so there is one copy. */
function examplesOf(command: Command): string[] {
  let text = '';
  const context = { error: false, command, write: (s: string) => (text += s) };
  // Commander's Command is an EventEmitter; its typings do not say so.
  for (const listener of (command as unknown as EventEmitter).listeners('afterHelp')) (listener as (c: typeof context) => void)(context);
  const section = text.split('\nExamples:\n')[1]?.split('\n\n')[0] ?? '';
  return [...section.matchAll(/^ {2}\$ (.*?)\s+# /gm)].map((m) => m[1]!);
}

/**
 * Commander's error text (after "ferry: ") reworded for `command`, the command it was refusing;
 * any other text as it is.
 */
export function reworded(text: string, command: Command | undefined): string {
  const missing = /^ferry: missing required argument '([^']+)'/.exec(text);
  if (missing && command) return `ferry: ${missingArgument(command, missing[1]!)}\n`;
  const unknown = /^ferry: unknown command '([^']+)'/.exec(text);
  // Of a group (`ferry env lss`): the group is named, as `ferry load`'s own refusal does.
  if (unknown && command?.parent) {
    // Without a near spelling (`ferry env add`: the command is `new`), the group's commands are named.
    const known = command.commands.map((c) => c.name()).filter((name) => name !== 'help');
    const named = /Did you mean/.test(text) || known.length === 0 ? '' : ` (its commands: ${known.join(', ')})`;
    return text.replace(unknown[0], `${unknown[0]} of ferry ${pathOf(command)}${named}`);
  }
  return text;
}

function missingArgument(command: Command, name: string): string {
  const path = pathOf(command);
  const argument = command.registeredArguments.find((a) => a.name() === name);
  const term = argument ? (argument.variadic ? `<${name}...>` : `<${name}>`) : `<${name}>`;
  const what = argument?.description ? `, ${argument.description}` : '';
  // An example that gives this argument: one with a word after `ferry PATH` for each argument up to it.
  const position = Math.max(0, command.registeredArguments.findIndex((a) => a.name() === name));
  const example = examplesOf(command).find((line) => {
    const after = line.slice(line.indexOf(`ferry ${path} `) + `ferry ${path} `.length);
    return line.includes(`ferry ${path} `) && after.split(/\s+/).filter((w) => w && !w.startsWith('-')).length > position;
  });
  const where = WHERE_TO_FIND[`${path} <${name}>`];
  return [
    `\`ferry ${path}\` needs ${term}${what}.`,
    example ? `For example: \`${example}\`.` : `Usage: ferry ${path} ${command.usage()}.`,
    where ? `${where[0]!.toUpperCase()}${where.slice(1)}.` : undefined,
  ].filter(Boolean).join(' ');
}
