/**
 * A request path that starts with `-` (`ferry run -dir`) is read by commander as short options
 * (`-d ir`: a data file "ir"). When such a command line is refused, the refusal says how the
 * word was read and what to write instead (`ferry run -- -dir`); a line that worked is left alone.
 */
import type { Command } from 'commander';

/** The hint for the first word of `argv` (before `--`) that commander read as glued short options, if any. */
export function dashArgumentHint(command: Command, argv: readonly string[]): string | undefined {
  // Only commands that take a request path, folder or name: elsewhere there is nothing to put after --.
  if (command.registeredArguments.length === 0) return undefined;
  const end = argv.indexOf('--');
  const words = end === -1 ? argv : argv.slice(0, end);
  // `-dir`, `-rf`: one dash and more than one letter; not a negative number, not `-d=x`.
  const word = words.find((w) => /^-[^-\d]/.test(w) && w.length > 2 && !w.includes('='));
  if (!word) return undefined;
  const reading = readingOf(command, word);
  const read = reading ? `the options ${reading}` : 'options';
  return `"${word}" was read as ${read}: a request or folder whose name starts with - goes after --: ${commandPath(command)} -- ${word}`;
}

/** How commander splits `-dir` among the command's short options (`-d ir`), or undefined where a letter is none of them. */
function readingOf(command: Command, word: string): string | undefined {
  const parts: string[] = [];
  for (let i = 1; i < word.length; i++) {
    const option = command.options.find((o) => o.short === `-${word[i]}`);
    if (!option) return undefined;
    if (option.required || option.optional) {
      parts.push(`-${word[i]} ${word.slice(i + 1)}`);
      return parts.join(' ');
    }
    parts.push(`-${word[i]}`);
  }
  return parts.join(' ');
}

function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}
