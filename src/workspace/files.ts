/** File system helpers with Ferry's safety rules: atomic writes, no symbolic links, size limits. */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export const MAX_YAML_BYTES = 50 * 1024 * 1024;

export { writeFileAtomic } from '../support/atomic-write.js';

/** True when `child` is `parent` or lies below it (both absolute). */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Checks that no part of `target` below `root` is a symbolic link, and that it stays inside `root`.
 * Returns an explanation when it is not safe to read, else undefined.
 */
export async function checkNoSymlinks(root: string, target: string): Promise<string | undefined> {
  const absolute = path.resolve(root, target);
  if (!isInside(root, absolute)) return `${target} lies outside the workspace folder`;
  let current = root;
  for (const part of path.relative(root, absolute).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    try {
      const stat = await fs.lstat(current);
      if (stat.isSymbolicLink()) return `${path.relative(root, current)} is a symbolic link, and Ferry never follows links`;
    } catch {
      return undefined; // missing parts are reported by whoever reads the file
    }
  }
  return undefined;
}

/** Reads a text file that must not be a link and must not exceed `maxBytes`. */
export async function readTextFile(file: string, maxBytes = MAX_YAML_BYTES): Promise<string> {
  const stat = await fs.lstat(file);
  if (stat.isSymbolicLink()) throw new Error(`${file} is a symbolic link; Ferry never follows links.`);
  if (stat.size > maxBytes) {
    throw new Error(`${file} is ${(stat.size / 1048576).toFixed(1)} MB, over the ${maxBytes / 1048576} MB limit; it was not read.`);
  }
  return fs.readFile(file, 'utf8');
}
