/**
 * Reading a file without following a symbolic link at its last component (O_NOFOLLOW): a link
 * fails with ELOOP instead of reading its target, and the file cannot be swapped for a link
 * between a check and the read. Shared by the data folder's stores, servers and the contract
 * check. (The workspace tree has its own synchronous reader, for speed.)
 *
 * Opened non-blocking: opening a named pipe for reading waits for a writer, on Node's main thread or
 * a pool thread, where neither Ctrl-C nor SIGTERM's handler can run; a `ferry.yaml` that was a
 * pipe hung `ferry -w DIR` for good. Only regular files are read (NotRegularFileError).
 */
import { constants, promises as fs } from 'node:fs';

/** The path is a named pipe, a device or a socket: Ferry reads regular files only (a folder fails as EISDIR). `code` as BSD's errno for it. */
export class NotRegularFileError extends Error {
  override name = 'NotRegularFileError';
  readonly code = 'EFTYPE';
  constructor(readonly file: string) {
    super(`${file} is not a regular file (a named pipe, a device or a socket)`);
  }
}

/** The file is larger than the caller's limit: measured before reading, and again after. */
export class FileTooLargeError extends Error {
  override name = 'FileTooLargeError';
  constructor(readonly file: string, readonly maxBytes: number) {
    super(`${file} is larger than ${maxBytes} bytes`);
  }
}

export async function readFileNoFollow(file: string, encoding?: undefined, maxBytes?: number): Promise<Buffer>;
export async function readFileNoFollow(file: string, encoding: 'utf8', maxBytes?: number): Promise<string>;
export async function readFileNoFollow(file: string, encoding?: 'utf8', maxBytes = Infinity): Promise<Buffer | string> {
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    // A folder reads as before, failing at once with EISDIR, which callers word ('it is a folder').
    if (!stat.isFile() && !stat.isDirectory()) throw new NotRegularFileError(file);
    if (stat.size > maxBytes) throw new FileTooLargeError(file, maxBytes);
    const bytes = await handle.readFile();
    // The file may have grown since it was measured.
    if (bytes.length > maxBytes) throw new FileTooLargeError(file, maxBytes);
    return encoding ? bytes.toString(encoding) : bytes;
  } finally {
    await handle.close();
  }
}

/** True for the error a link gives (Linux and macOS say ELOOP; some BSDs EMLINK). */
export function isLinkError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException)?.code;
  return code === 'ELOOP' || code === 'EMLINK';
}
