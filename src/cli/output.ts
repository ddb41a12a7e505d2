/** Where commands print: injectable so tests and the app can capture output. Colour only on a terminal. */
import pc from 'picocolors';
import { terminalOutput, terminalText } from '../support/terminal-text.js';

export interface Output {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal that wants colour. */
  color: boolean;
  /** The same for stderr (`ferry serve 2>serve.log` on a terminal: colour on stdout only); absent: as `color`. */
  errColor?: boolean;
  /** The file descriptor behind `out` when it is the process's standard output (for non-blocking writers). */
  fd?: number;
  /** Where a status line is drawn (progress of long work): only when stderr is a terminal. */
  status?: { write(text: string): void };
}

/** Set when the reader of a stream went away (`ferry ls | head`): later writes are dropped, not a crash. */
const closed = { out: false, err: false };
let watchingPipes = false;

/**
 * Without a listener, EPIPE on stdout is an unhandled 'error' event: a stack trace on the
 * terminal. The command then finishes as usual and exits with its own code.
 */
function watchPipes(): void {
  if (watchingPipes) return;
  watchingPipes = true;
  const onError = (which: 'out' | 'err') => (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') closed[which] = true;
    else throw error;
  };
  process.stdout.on('error', onError('out'));
  process.stderr.on('error', onError('err'));
}

/**
 * Colour on stdout (or stderr): on a terminal (not `TERM=dumb`); `FORCE_COLOR` (any value but `0` or `false`)
 * asks for it into a pipe or a file too (CI logs show it), `FORCE_COLOR=0` never; `NO_COLOR` wins.
 */
function wantsColor(env: NodeJS.ProcessEnv, terminal: boolean): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  return terminal && env.TERM !== 'dumb';
}

/** Erases the current terminal line and returns to its start (as the status line draws). */
const CLEAR = '\r\u001b[2K';
/** What the status line on stderr shows now: a message printed meanwhile takes it away and draws it again below. */
let statusShown = '';

/** Writes `text` to the terminal without gluing it to the status line: erased first, drawn again after. */
function aroundStatus(write: () => void): void {
  const shown = statusShown;
  if (shown) process.stderr.write(CLEAR);
  write();
  if (shown) process.stderr.write(shown);
}

export function processOutput(): Output {
  const color = wantsColor(process.env, Boolean(process.stdout.isTTY));
  watchPipes();
  // On a terminal, control characters from names, files and servers are shown escaped rather than
  // acted on (a title change, a cleared screen); into a file or a pipe the bytes go as they are.
  const forOut = process.stdout.isTTY ? terminalOutput : (text: string) => text;
  const forErr = process.stderr.isTTY ? terminalOutput : (text: string) => text;
  return {
    out: (text) => {
      if (closed.out) return;
      const write = () => void process.stdout.write(forOut(text.endsWith('\n') ? text : `${text}\n`));
      if (process.stdout.isTTY) aroundStatus(write);
      else write();
    },
    err: (text) => {
      if (!closed.err) aroundStatus(() => void process.stderr.write(forErr(text.endsWith('\n') ? text : `${text}\n`)));
    },
    color,
    errColor: wantsColor(process.env, Boolean(process.stderr.isTTY)),
    fd: 1,
    ...(process.stderr.isTTY && process.env.TERM !== 'dumb'
      ? {
          status: {
            write: (text: string) => {
              statusShown = text.startsWith(CLEAR) ? text.slice(CLEAR.length) : statusShown + text;
              process.stderr.write(text);
            },
          },
        }
      : {}),
  };
}

/**
 * `output` with control characters and bidi overrides escaped (`\x1b`, `\u202e`) wherever it goes,
 * not only on a terminal: a log (`ferry serve > serve.log`, `| tee`, `journalctl`, `docker logs`)
 * is read on a terminal later, where a server name's raw ESC would act. Line feeds and tabs stay;
 * Ferry's own colour sequences stay when colour is on (as `terminalOutput` keeps them).
 */
export function escapedOutput(output: Output): Output {
  const out = output.color ? terminalOutput : terminalText;
  const err = (output.errColor ?? output.color) ? terminalOutput : terminalText;
  return { ...output, out: (text) => output.out(out(text)), err: (text) => output.err(err(text)) };
}

export function paint(output: Output) {
  return pc.createColors(output.color);
}

/** Colours for what goes to stderr. */
export function paintErr(output: Output) {
  return pc.createColors(output.errColor ?? output.color);
}
