/** Exit codes of `ferry`, in one place (documented in the README and in `ferry --help`). */
export const EXIT = {
  /** Everything ran and passed. */
  ok: 0,
  /** Something failed: a request, a test, a threshold. */
  failed: 1,
  /** Bad usage or bad input: unknown option, missing file, unreadable workspace. */
  usage: 2,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const EXIT_CODES_HELP = `Exit codes:
  0  success
  1  something failed (a request, a test, a threshold)
  2  bad usage or bad input`;

/** An error whose message is for the user as it is, with the exit code to end with. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: ExitCode = EXIT.usage) {
    super(message);
    this.name = 'CliError';
  }
}
