/** File system helpers with Ferry's safety rules: atomic writes, no symbolic links, size limits. */
import { promises as fs } from 'node:fs';
import { sizeOverLimit } from '../support/human-units.js';

export const MAX_YAML_BYTES = 50 * 1024 * 1024;

export { writeFileAtomic } from '../support/atomic-write.js';
export { checkNoSymlinks, isInside } from '../support/paths-inside.js';

/** Reads a text file that must not be a link and must not exceed `maxBytes`. */
export async function readTextFile(file: string, maxBytes = MAX_YAML_BYTES): Promise<string> {
  const stat = await fs.lstat(file);
  if (stat.isSymbolicLink()) throw new Error(`${file} is a symbolic link; Ferry never follows links.`);
  if (stat.size > maxBytes) {
    throw new Error(`${file} is ${sizeOverLimit(stat.size, maxBytes)}, over the ${maxBytes / 1048576} MB limit; it was not read.`);
  }
  return fs.readFile(file, 'utf8');
}
