/**
 * Path safety rules shared by every layer that reads a file a user named: the workspace folder,
 * request bodies, server certificates and environments. Symbolic links are never followed, and a
 * path must stay inside its root. Lives below the layers so `request/` and `servers/` need not
 * import `workspace/` for it.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

/**
 * True when `child` is `parent` or lies below it (both absolute). `..` alone or before a separator
 * climbs out; so does `..\` on any system (a Windows path in a workspace read elsewhere), but
 * `..data.bin` is a file's name.
 */
export function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  const climbs = rel === '..' || rel.startsWith(`..${path.sep}`) || rel.startsWith('..\\');
  return rel === '' || (!climbs && !path.isAbsolute(rel));
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

/**
 * Where a file that a workspace file names lies (a body file, a load test's data file, a .proto):
 * its absolute path, whether it is inside the workspace, and when it is, the link on the way to it
 * if there is one. Files outside are read only when this computer allows it (the setting
 * filesOutsideWorkspace); each caller says so in its own words.
 */
export async function namedFile(root: string, written: string): Promise<{ absolute: string; inside: boolean; linked?: string }> {
  const absolute = path.resolve(root, written);
  if (!isInside(root, absolute)) return { absolute, inside: false };
  const linked = await checkNoSymlinks(root, absolute);
  return { absolute, inside: true, ...(linked ? { linked } : {}) };
}
