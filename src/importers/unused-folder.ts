/**
 * A folder nobody has put anything in: empty, or holding only the staged files of an update whose
 * journal is gone (`.NAME.ferry-update-ID.tmp`). Such a folder is what an update killed after it
 * made a tag folder leaves when its journal was then deleted by hand; it is no one's work, so
 * the next import or update takes it as if it were not there (its name is free, and a tag folder
 * there gets its `_folder.yaml`). A folder with any other entry (a request, `.gitkeep`, a note)
 * is the user's. A link is never a folder here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isStagedLeftover } from './openapi/update/journal.js';

export async function isUnusedFolder(dir: string): Promise<boolean> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat?.isDirectory()) return false;
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => undefined);
  return entries !== undefined && entries.every((entry) => entry.isFile() && isStagedLeftover(entry.name));
}

/** Makes an unused folder (`isUnusedFolder`) free for a rename onto its path: its leftovers and the folder go. */
export async function clearUnusedFolder(dir: string): Promise<void> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.isFile() && isStagedLeftover(entry.name)) await fs.rm(path.join(dir, entry.name), { force: true });
  }
  // Fails (and the import is undone) if anything else came in since: that is someone's.
  await fs.rmdir(dir);
}
