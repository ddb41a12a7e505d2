/** Exit codes of `ferry`, in one place (documented in the README and in `ferry --help`). */

export const EXIT = {
  /** Everything ran and passed. */
  ok: 0,
  /** Something failed: a request, a test, a threshold; or Ctrl-C stopped a run, load, import or update (`serve`, `app` and `mcp` end with 0). */
  failed: 1,
  /** Bad usage or bad input: unknown option, missing file, unreadable workspace. */
  usage: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  success (also \`ferry serve\`, \`ferry app\` and \`ferry mcp\` stopped with Ctrl-C)
  1  something failed (a request, a test, a threshold), or Ctrl-C stopped a run,
     a load test, an import or an update (SIGTERM too)
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
  return () => {
    for (const [signal, listener] of listeners) process.off(signal, listener);
  };
}
