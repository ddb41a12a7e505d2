/** Where commands print: injectable so tests and the app can capture output. Colour only on a terminal. */
import pc from 'picocolors';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal that wants colour. */
  color: boolean;
  /** The file descriptor behind `out` when it is the process's standard output (for non-blocking writers). */
  fd?: number;
}

export function processOutput(): Output {
  const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
  return {
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    color,
    fd: 1,
  };
}

export function paint(output: Output) {
  return pc.createColors(output.color);
}
