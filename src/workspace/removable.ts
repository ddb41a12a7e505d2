/**
 * Whether a folder can be removed whole, found before anything is removed: a recursive removal
 * that the system stops part-way (a read-only or immutable subfolder, a file that may not go)
 * leaves some of the folder gone and the rest there, and nothing can put the gone part back.
 *
 * Each question is the one the removal would ask, answered without changing anything but change
 * times: a folder whose entries go must allow it (write and search permission: `access`); a folder
 * or file must not be immutable or append-only (chattr +i / +a, which stop root too and which Node
 * 20 cannot read, neither the ioctl nor statx's attribute bits: setting its own mode again is
 * refused for exactly those, EPERM, and changes nothing but the change time; opening for writing,
 * refused for them too, leaves that alone but works for files only and needs write permission).
 * Nothing is followed (a link is an entry removed as it is) and nothing is opened.
 *
 * What this cannot see (a sticky folder's files of another user, a change made between the check
 * and the removal) is still refused by the removal itself, and its caller says so.
 */
import { constants, promises as fs, type Stats } from 'node:fs';
import path from 'node:path';

export interface RemovalRefusal {
  /** What refused (absolute): a folder whose entries may not be removed, or a file that may not go. */
  path: string;
  folder: boolean;
  error: NodeJS.ErrnoException;
}

/**
 * Why what folder `dir` (absolute, not a link) holds could not all be removed, with the folder
 * itself, or undefined when nothing found refuses it. Whether the folder above lets it go is asked
 * by the caller's rename of it (requests.ts): asked here, its change of mode would be a change the
 * app's watcher reads the workspace again for.
 */
export async function removalRefusal(dir: string): Promise<RemovalRefusal | undefined> {
  return walk(dir, await fs.lstat(dir));
}

async function walk(dir: string, stat: Stats): Promise<RemovalRefusal | undefined> {
  const own = await refusedByFolder(dir, stat);
  if (own) return own;
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    return { path: dir, folder: true, error: error as NodeJS.ErrnoException };
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) continue; // removed as a link; its own flags do not stop that
    const entryStat = await fs.lstat(file).catch(() => undefined);
    if (!entryStat) continue; // gone meanwhile: nothing to refuse
    const refused = entryStat.isDirectory() ? await walk(file, entryStat) : await unchangeable(file, entryStat);
    if (refused) return refused;
  }
  return undefined;
}

/** A folder that does not allow removing what it holds: permission bits, a read-only file system, or its flags. */
async function refusedByFolder(dir: string, stat: Stats): Promise<RemovalRefusal | undefined> {
  try {
    await fs.access(dir, constants.W_OK | constants.X_OK);
  } catch (error) {
    return { path: dir, folder: true, error: error as NodeJS.ErrnoException };
  }
  return unchangeable(dir, stat);
}

/**
 * An immutable or append-only file or folder (EPERM), asked by setting its own mode again, which
 * the system refuses for those alone. Asked only where this process may set the mode (its own
 * files, or root), and not where that would drop a setgid bit (a group this process is not in).
 */
async function unchangeable(file: string, stat: Stats): Promise<RemovalRefusal | undefined> {
  const uid = process.getuid?.();
  if (uid === undefined || (uid !== 0 && stat.uid !== uid)) return undefined;
  const setgid = (stat.mode & 0o2000) !== 0;
  if (setgid && uid !== 0 && stat.gid !== process.getgid?.() && !process.getgroups?.().includes(stat.gid)) return undefined;
  try {
    await fs.chmod(file, stat.mode & 0o7777);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === 'EPERM' || code === 'EROFS' ? { path: file, folder: stat.isDirectory(), error: error as NodeJS.ErrnoException } : undefined;
  }
}
