/**
 * `ferry completion bash|zsh|fish`: prints a completion script. Commands, subcommands and options
 * come from the registered commands, so the script follows them; request paths, folders and
 * environments, server and load test ids come at Tab time from the hidden `ferry __complete`;
 * setting names (`config get|set`) are written into the script.
 */
import type { Command, Option } from 'commander';
import { walkRequests, type FolderNode } from '../workspace/index.js';
import { openWorkspaceFor, type CliContext } from './context.js';
import { CliError } from './exit-codes.js';
import { examples } from './examples.js';
import { APP_SETTING_KEYS } from '../model/app-settings.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** Commands whose arguments are request or folder paths. */
const PATH_COMMANDS = ['run', 'export', 'ls'];

export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish): commands, options, request paths, environments')
    .argument('<shell>', SHELLS.join(', '))
    .addHelpText('after', examples([
      ['source <(ferry completion bash)', 'bash, this shell (add it to ~/.bashrc to keep it)'],
      ['source <(ferry completion zsh)', 'zsh (add it to ~/.zshrc)'],
      ['ferry completion fish > ~/.config/fish/completions/ferry.fish', 'fish'],
    ]))
    .action((shell: string, _options: unknown, command: Command) => {
      const root = command.parent!;
      if (shell === 'bash') ctx.output.out(bashScript(root));
      else if (shell === 'zsh') ctx.output.out(`autoload -U +X bashcompinit && bashcompinit\n${bashScript(root)}`);
      else if (shell === 'fish') ctx.output.out(fishScript(root));
      else throw new CliError(`Unknown shell "${shell}". Completion scripts: ${SHELLS.join(', ')}.`);
    });
}

/** The hidden `ferry __complete paths|envs|servers|loadtests PREFIX` the scripts call at Tab time. */
export function registerCompleteHelper(program: Command, ctx: CliContext): void {
  program
    .command('__complete', { hidden: true })
    .argument('<what>', 'paths, envs, servers or loadtests')
    .argument('[prefix]', 'what is typed so far')
    .action(async (what: string, prefix: string | undefined, _options: unknown, command: Command) => {
      // Tab must never print an error into the command line: nothing is printed on failure.
      try {
        const ws = await openWorkspaceFor(command, ctx, { showsWarnings: true });
        const words = what === 'envs' ? ws.environments.map((e) => e.id)
          : what === 'servers' ? ws.servers.map((e) => e.id)
            : what === 'loadtests' ? ws.loadtests.map((e) => e.id)
              : what === 'paths' ? treePaths(ws.tree) : [];
        const lower = (prefix ?? '').toLowerCase();
        const matching = words.filter((w) => w.toLowerCase().startsWith(lower));
        if (matching.length) ctx.output.out(matching.join('\n'));
      } catch {
        // not in a workspace: no candidates
      }
    });
}

/** Folders (with a trailing `/`) and requests (without `.yaml`), as `ferry run` takes them. */
function treePaths(tree: FolderNode): string[] {
  const out: string[] = [];
  const folders = (folder: FolderNode) => {
    for (const child of folder.children) {
      if (child.type === 'folder') {
        out.push(`${child.path}/`);
        folders(child);
      }
    }
  };
  folders(tree);
  for (const { node } of walkRequests(tree)) out.push(node.path.replace(/\.yaml$/i, ''));
  return out;
}

function visible(command: Command): Command[] {
  return command.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden);
}

function optionWords(command: Command): string[] {
  const words = (command.options as readonly Option[]).filter((o) => !o.hidden).flatMap((o) => [o.short, o.long].filter((w): w is string => Boolean(w)));
  return [...words, '--help'];
}

/** Options that take a value, for the shell to complete the value rather than the next word. */
function valueOptions(command: Command): string[] {
  return (command.options as readonly Option[]).filter((o) => o.required || o.optional).flatMap((o) => [o.short, o.long].filter((w): w is string => Boolean(w)));
}

function shellWords(words: readonly string[]): string {
  return words.join(' ').replace(/'/g, '');
}

function bashScript(program: Command): string {
  const commands = visible(program);
  const cases: string[] = [];
  for (const command of commands) {
    const subs = visible(command);
    if (subs.length) {
      cases.push(`    ${command.name()}) subs='${shellWords(subs.map((s) => s.name()))}'; opts='--help' ;;`);
      for (const sub of subs) cases.push(`    '${command.name()} ${sub.name()}') opts='${shellWords(optionWords(sub))}'; takes='${shellWords(valueOptions(sub))}' ;;`);
    } else {
      cases.push(`    ${command.name()}) opts='${shellWords(optionWords(command))}'; takes='${shellWords(valueOptions(command))}' ;;`);
    }
  }
  return `# ferry completion for bash (and zsh through bashcompinit): source <(ferry completion bash)
# Ids of the workspace (envs, paths, servers, loadtests) added to COMPREPLY, each quoted (a file name may hold spaces).
_ferry_ids() {
  local p
  while read -r p; do [ -n "$p" ] && COMPREPLY+=("$(printf '%q' "$p")"); done < <(ferry "\${wsopt[@]}" __complete "$1" "\${cur//\\\\/}" 2>/dev/null)
}
_ferry() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  local cmd="" sub="" ws="" i=1 word
  while [ "$i" -lt "$COMP_CWORD" ]; do
    word="\${COMP_WORDS[i]}"
    case "$word" in
      -w|--workspace) ws="\${COMP_WORDS[i+1]}"; i=$((i + 2)); continue ;;
      -*) ;;
      *) if [ -z "$cmd" ]; then cmd="$word"; elif [ -z "$sub" ]; then sub="$word"; fi ;;
    esac
    i=$((i + 1))
  done
  local -a wsopt=()
  [ -n "$ws" ] && wsopt=(-w "$ws")
  local IFS=$'\\n'
  if [ "$prev" = "-w" ] || [ "$prev" = "--workspace" ]; then
    COMPREPLY=($(compgen -d -- "$cur")); return
  fi
  if [ -z "$cmd" ]; then
    COMPREPLY=($(IFS=' '; compgen -W '${shellWords(commands.map((c) => c.name()))} -w --workspace --help --version' -- "$cur")); return
  fi
  local subs="" opts="" takes=""
  case "$cmd" in
${cases.filter((c) => !c.startsWith("    '")).join('\n')}
  esac
  if [ -n "$subs" ]; then
    if [ -z "$sub" ]; then
      COMPREPLY=($(IFS=' '; compgen -W "$subs --help" -- "$cur"))
      # ferry load ID: the workspace's load tests beside \`merge\`.
      [ "$cmd" = load ] && _ferry_ids loadtests
      return
    fi
    case "$cmd $sub" in
${cases.filter((c) => c.startsWith("    '")).join('\n')}
    esac
  fi
  case " $takes " in
    *" $prev "*)
      case "$prev" in
        # Ids and folder paths may hold spaces: one candidate a line, each quoted for the command line.
        -e|--env|--folder)
          local what=envs; [ "$prev" = --folder ] && what=paths
          COMPREPLY=()
          _ferry_ids "$what" ;;
        *) COMPREPLY=($(compgen -f -- "$cur")) ;;
      esac
      return ;;
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(IFS=' '; compgen -W "$opts" -- "$cur")); return; fi
  case "$cmd" in
    ${PATH_COMMANDS.join('|')})
      # Paths hold spaces: each candidate is quoted for the command line; a folder does not end the word.
      compopt -o nospace 2>/dev/null
      # What is typed, unquoted without eval: backslashes and an opening quote dropped.
      local p typed="\${cur//\\\\/}"
      case "$typed" in \\"*|\\'*) typed="\${typed:1}" ;; esac
      COMPREPLY=()
      while read -r p; do
        [ -n "$p" ] || continue
        if [[ "$p" == */ ]]; then COMPREPLY+=("$(printf '%q' "$p")"); else COMPREPLY+=("$(printf '%q' "$p") "); fi
      done < <(ferry "\${wsopt[@]}" __complete paths "$typed" 2>/dev/null) ;;
    completion) COMPREPLY=($(IFS=' '; compgen -W '${SHELLS.join(' ')}' -- "$cur")) ;;
    serve) _ferry_ids servers ;;
    config) if [ "$prev" = "$sub" ] && { [ "$sub" = get ] || [ "$sub" = set ]; }; then COMPREPLY=($(IFS=' '; compgen -W '${APP_SETTING_KEYS.join(' ')}' -- "$cur")); fi ;;
    *) COMPREPLY=($(compgen -f -- "$cur")) ;;
  esac
}
complete -F _ferry ferry`;
}

function fishScript(program: Command): string {
  const lines = ['# ferry completion for fish: ferry completion fish > ~/.config/fish/completions/ferry.fish', 'complete -c ferry -f'];
  const quote = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const optionLines = (condition: string, command: Command) => {
    for (const option of (command.options as readonly Option[]).filter((o) => !o.hidden)) {
      const parts = [`complete -c ferry -n ${quote(condition)}`];
      if (option.short) parts.push(`-s ${option.short.slice(1)}`);
      if (option.long) parts.push(`-l ${option.long.slice(2)}`);
      if (option.required || option.optional) parts.push(option.long === '--env' ? "-x -a '(ferry __complete envs (commandline -ct) 2>/dev/null)'" : '-r -F');
      parts.push(`-d ${quote(option.description)}`);
      lines.push(parts.join(' '));
    }
  };
  lines.push(`complete -c ferry -n '__fish_use_subcommand' -s w -l workspace -r -a '(__fish_complete_directories)' -d 'the workspace folder'`);
  for (const command of visible(program)) {
    lines.push(`complete -c ferry -n '__fish_use_subcommand' -a ${command.name()} -d ${quote(command.description())}`);
    const subs = visible(command);
    for (const sub of subs) {
      lines.push(`complete -c ferry -n ${quote(`__fish_seen_subcommand_from ${command.name()}; and not __fish_seen_subcommand_from ${subs.map((s) => s.name()).join(' ')}`)} -a ${sub.name()} -d ${quote(sub.description())}`);
      optionLines(`__fish_seen_subcommand_from ${command.name()}; and __fish_seen_subcommand_from ${sub.name()}`, sub);
    }
    optionLines(`__fish_seen_subcommand_from ${command.name()}`, command);
    if (PATH_COMMANDS.includes(command.name())) {
      lines.push(`complete -c ferry -n ${quote(`__fish_seen_subcommand_from ${command.name()}`)} -a '(ferry __complete paths (commandline -ct) 2>/dev/null)'`);
    }
  }
  return lines.join('\n');
}
