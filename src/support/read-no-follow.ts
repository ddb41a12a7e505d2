/**
 * Reading a file without following a symbolic link at its last component (O_NOFOLLOW): a link
 * fails with ELOOP instead of reading its target, and the file cannot be swapped for a link
 * between a check and the read. Shared by the data folder's stores, servers and the contract
 * check. (The workspace tree has its own synchronous reader, for speed.)
 */
import { constants, promises as fs } from 'node:fs';

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
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    if ((await handle.stat()).size > maxBytes) throw new FileTooLargeError(file, maxBytes);
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
