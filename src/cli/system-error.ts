/**
 * Node's file-system errors ("ENOTDIR: not a directory, lstat '/x/ferry.yaml'") turned into one
 * line for people, so no command prints a stack trace for a path the user typed wrong.
 */
import { EXIT, type ExitCode } from './exit-codes.js';

const DESCRIPTIONS: Record<string, string> = {
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'something with that name exists already',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'the disk is full',
  EROFS: 'the file system is read-only',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many symbolic links',
};

const ACTIONS: Record<string, string> = {
  mkdir: 'create the folder', open: 'open', lstat: 'read', stat: 'read', read: 'read', readdir: 'list the folder',
  write: 'write', rename: 'write', unlink: 'remove', rmdir: 'remove', scandir: 'list the folder', copyfile: 'copy',
};

/** Codes that come from what the user gave (a wrong path, a file where a folder should be): exit 2. */
const USAGE_CODES = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'EACCES', 'EPERM', 'ENAMETOOLONG', 'ELOOP']);

export function systemErrorMessage(error: unknown): { message: string; exitCode: ExitCode } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  const what = DESCRIPTIONS[code] ?? error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  const where = path ? ` ${path}` : '';
  return {
    message: `Could not ${ACTIONS[syscall] ?? syscall}${where}: ${what} (${code}).`,
    exitCode: USAGE_CODES.has(code) ? EXIT.usage : EXIT.failed,
  };
}
