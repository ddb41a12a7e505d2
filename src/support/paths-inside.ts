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
  const link = await firstSymlink(root, absolute);
  return link === undefined ? undefined : `${path.relative(root, link)} is a symbolic link, and Ferry never follows links`;
}

/**
 * The first part of `target` (absolute, inside `root`) below `root` that is a symbolic link, as an
 * absolute path; undefined when there is none. `root` itself may be a link. Parts that are
 * missing end the look: whoever reads or makes them reports or makes them.
 */
export async function firstSymlink(root: string, target: string): Promise<string | undefined> {
  let current = root;
  for (const part of path.relative(root, target).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    try {
      if ((await fs.lstat(current)).isSymbolicLink()) return current;
    } catch {
      return undefined;
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
