/**
 * Reading a file without following a symbolic link at its last component (O_NOFOLLOW): a link
 * fails with ELOOP instead of reading its target. Shared by the data folder's stores.
 */
import { constants, promises as fs } from 'node:fs';

export async function readFileNoFollow(file: string): Promise<Buffer>;
export async function readFileNoFollow(file: string, encoding: 'utf8'): Promise<string>;
export async function readFileNoFollow(file: string, encoding?: 'utf8'): Promise<Buffer | string> {
  const handle = await fs.open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  try {
    const bytes = await handle.readFile();
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
