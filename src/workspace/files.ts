/** File system helpers with Ferry's safety rules: atomic writes, no symbolic links, size limits. */
import { promises as fs } from 'node:fs';
import { sizeOverLimit } from '../support/human-units.js';
import { FileTooLargeError, isLinkError, readFileNoFollow } from '../support/read-no-follow.js';

export const MAX_YAML_BYTES = 50 * 1024 * 1024;

export { writeFileAtomic } from '../support/atomic-write.js';
export { checkNoSymlinks, isInside } from '../support/paths-inside.js';

/**
 * Reads a text file that must not be a link and must not exceed `maxBytes`. Opened without
 * following a link at its last component (O_NOFOLLOW), so a link swapped in after the check is
 * refused too; links in the folders above are the caller's to check (checkNoSymlinks).
 */
export async function readTextFile(file: string, maxBytes = MAX_YAML_BYTES): Promise<string> {
  const linked = () => new Error(`${file} is a symbolic link; Ferry never follows links.`);
  const tooLarge = (size: number) => new Error(`${file} is ${sizeOverLimit(size, maxBytes)}, over the ${maxBytes / 1048576} MB limit; it was not read.`);
  const stat = await fs.lstat(file);
  if (stat.isSymbolicLink()) throw linked();
  if (stat.size > maxBytes) throw tooLarge(stat.size);
  try {
    return await readFileNoFollow(file, 'utf8', maxBytes);
  } catch (error) {
    if (isLinkError(error)) throw linked();
    if (error instanceof FileTooLargeError) throw tooLarge((await fs.lstat(file).catch(() => undefined))?.size ?? maxBytes + 1);
    throw error;
  }
}
