/** The "Examples:" section of a command's `--help`: each line a command and what it does. */
export function examples(lines: ReadonlyArray<readonly [command: string, what: string]>): string {
  const width = Math.max(...lines.map(([command]) => command.length));
  return `\nExamples:\n${lines.map(([command, what]) => `  $ ${command.padEnd(width)}  # ${what}`).join('\n')}`;
}
