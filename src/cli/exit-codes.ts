/** Exit codes of `ferry`, in one place (documented in the README and in `ferry --help`). */

export const EXIT = {
  /** Everything ran and passed. */
  ok: 0,
  /** Something failed: a request, a test, a threshold, a file problem `ferry ls --strict` found; or Ctrl-C stopped a run, load, import or update (`serve`, `app` and `mcp` end with 0). */
  failed: 1,
  /** Bad usage or bad input: unknown option, missing file, unreadable workspace. */
  usage: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  success (also \`ferry serve\`, \`ferry app\` and \`ferry mcp\` stopped with Ctrl-C)
  1  something failed (a request, a test, a threshold; \`ferry ls --strict\` found
     a file problem), or Ctrl-C stopped a run, a load test, an import or an
     update (SIGTERM too)
  2  bad usage or bad input
  130  a second Ctrl-C quit at once`;

/** An error whose message is for the user as it is, with the exit code to end with. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = EXIT.usage) {
    super(message);
    this.name = 'CliError';
  }
}

// Ctrl-C here, beside the exit code it ends with (130): `run` and `load` load this module anyway,
// so no file of its own is read at their start.
/**
 * One Ctrl-C can arrive twice: `timeout -s INT` signals the process and then its process group,
 * and a wrapper may pass the terminal's SIGINT on to a child that got it too. A SIGINT this soon
 * after the first is that copy, not a second press (which quits before the summary is printed).
 */
const SAME_CTRL_C_MS = 1000;

/**
 * Ctrl-C during work that ends cleanly when asked (`run`, `load`, `import`, `update`): `stop` on the
 * first SIGINT (and on the other `signals` given: SIGTERM), told which signal it was; a second one,
 * a second or more later, exits at once (130). Returns what gives the signals back to Node.
 */
export function onCtrlC(stop: (signal: NodeJS.Signals) => void, signals: readonly NodeJS.Signals[] = ['SIGINT']): () => void {
  let first: number | undefined;
  const onInterrupt = (signal: NodeJS.Signals) => {
    if (first === undefined) {
      first = performance.now();
      stop(signal);
    } else if (performance.now() - first >= SAME_CTRL_C_MS) process.exit(130);
  };
  // One listener per signal, which knows its name (`process.emit('SIGINT')` passes none).
  const listeners = signals.map((signal) => [signal, () => onInterrupt(signal)] as const);
  for (const [signal, listener] of listeners) process.on(signal, listener);
  // A Ctrl-C pressed while Ferry loaded is taken now, as if pressed at this moment.
  for (const signal of takeHeldSignals()) {
    if (signals.includes(signal)) onInterrupt(signal);
    else process.kill(process.pid, signal);
  }
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}

/** Signals that came while Ferry's modules loaded, kept by bin/ferry.js until a command can take them. */
export interface HeldSignals {
  /** In the order they came. */
  signals: NodeJS.Signals[];
  /** Removes the listeners that kept them (Node's own handling is back). */
  release(): void;
}

let held: HeldSignals | undefined;

/**
 * `main` hands over what bin/ferry.js held (a Ctrl-C in the process's first tenth of a second):
 * the first `onCtrlC` installed takes it (`ferry run` stops with its summary and reports, as for
 * a later Ctrl-C); `endHeldSignals` gives it to Node's own handling when no command took it.
 */
export function holdSignals(signals: HeldSignals): void {
  held = signals;
}

/** The held signals, now this process's to handle (none when nothing held them or they were taken). */
function takeHeldSignals(): NodeJS.Signals[] {
  const taken = held;
  held = undefined;
  taken?.release();
  return taken ? [...new Set(taken.signals)] : [];
}

/** A command that installs no `onCtrlC` ends as Node ends on that signal, as it would have without the holding. */
export function endHeldSignals(): void {
  for (const signal of takeHeldSignals()) process.kill(process.pid, signal);
}
