/**
 * Node's file-system errors ("ENOTDIR: not a directory, lstat '/x/ferry.yaml'") as one line for
 * people: what could not be done, where, and why. Shared by the CLI (whole commands) and the
 * runner (one request whose file cannot be read fails, the run goes on).
 */

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

/** "Could not read /x/y: it is a folder, not a file (EISDIR)." — or undefined for other errors. */
export function describeSystemError(error: unknown): { message: string; code: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, syscall, path } = error as NodeJS.ErrnoException;
  if (typeof code !== 'string' || typeof syscall !== 'string') return undefined;
  // A folder not made although the one above it exists (`/proc/x`): "it does not exist" would be no reason.
  const what = code === 'ENOENT' && syscall === 'mkdir' && path ? `${parentOf(path)} does not allow new folders` : DESCRIPTIONS[code] ?? error.message.replace(/^[A-Z]+: /, '').replace(/, \w+ '.*'$/, '');
  const where = path ? ` ${path}` : '';
  return { message: `Could not ${ACTIONS[syscall] ?? syscall}${where}: ${what} (${code}).`, code };
}

/** The folder above `file` (node:path is not loaded for this: every command's error path comes here). */
function parentOf(file: string): string {
  const cut = file.replace(/[\\/]+$/, '').search(/[\\/][^\\/]*$/);
  return cut <= 0 ? file.slice(0, 1) : file.slice(0, cut);
}

/**
 * Why a file or folder could not be used, in a few words for a message that names it already
 * (`requests/ cannot be read (permission denied)`): the common codes in words, else Node's message.
 */
export function fileProblemReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'it does not exist';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EROFS') return 'read-only file system';
  if (code === 'ENOTDIR') return 'it is a file, not a folder';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EFTYPE') return 'it is not a regular file but a named pipe, a device or a socket; Ferry reads regular files only';
  return (error as Error).message;
}

/**
 * Said of a file or folder that "does not exist" when opened although it was listed or named:
 * Node reads file names and the command line as UTF-8, and bytes that are not (a Latin-1 name from
 * an old archive) become U+FFFD, a name that opens nothing. Undefined for a name without U+FFFD.
 */
export function notUtf8Name(label: string): string | undefined {
  return label.includes('\ufffd') ? `${label} has a name that is not valid UTF-8 (shown here with \ufffd), so Ferry cannot open it: rename it to a UTF-8 name.` : undefined;
}
