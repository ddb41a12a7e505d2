/**
 * Node's file-system errors turned into one line for people (src/support/system-error.ts), with
 * the exit code: so no command prints a stack trace for a path the user typed wrong.
 */
import { describeSystemError } from '../support/system-error.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/** Codes that come from what the user gave (a wrong path, a file where a folder should be): exit 2. */
const USAGE_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EACCES', 'EPERM', 'ENAMETOOLONG', 'ELOOP']);

export function systemErrorMessage(error: unknown): { message: string; exitCode: ExitCode } | undefined {
  const described = describeSystemError(error);
  if (!described) return undefined;
  return { message: described.message, exitCode: USAGE_CODES.has(described.code) ? EXIT.usage : EXIT.failed };
}
