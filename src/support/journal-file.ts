/**
 * The journals a process killed part-way leaves in this computer's data folder for the next
 * `ferry` to act on (importers/import-journal.ts undoes an import, workspace/move-journal.ts
 * finishes a move). Each is written whole (atomically, readable by the user only) before the step
 * it records, and starts with the same head: its format version, the writer's pid and computer,
 * and the workspace folder it is for. One is acted on only when it is whole and was written on
 * this computer for this folder: a damaged journal, or one a copied data folder brought along, is
 * removed without acting on it.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { makeDirs } from './make-dirs.js';
import { isLinkError, readFileNoFollow } from './read-no-follow.js';

export interface JournalHead {
  version: 1;
  pid: number;
  host: string;
  /** The workspace folder, resolved. */
  root: string;
}

/** The head of a journal written now, by this process, for workspace `root`. */
export function journalHead(root: string): JournalHead {
  return { version: 1, pid: process.pid, host: os.hostname(), root: path.resolve(root) };
}

/** Writes `data` as the journal `file` (its folder made, for the user only). */
export async function writeJournalFile(file: string, data: JournalHead): Promise<void> {
  await makeDirs(path.dirname(file), 0o700);
  await writeFileAtomic(file, JSON.stringify(data), 0o600);
}

/**
 * The journal `file` left for workspace `root`, when there is one this computer may act on:
 * its head checked here, the rest by `valid` (a journal is a file anyone could have edited).
 * Undefined when there is none; a damaged one, or one of another folder or computer, is removed.
 */
export async function readJournalFile<T extends JournalHead>(file: string, root: string, valid: (data: Partial<T>) => boolean): Promise<T | undefined> {
  let text: string;
  try {
    // Never through a link: a journal says what to rename and remove in the workspace.
    text = await readFileNoFollow(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (isLinkError(error)) throw new Error(`${file} is a symbolic link; Ferry never follows links in its data folder, so it was not acted on. Remove the link`);
    throw error;
  }
  let data: Partial<T> | undefined;
  try {
    data = JSON.parse(text) as Partial<T>;
  } catch {
    data = undefined;
  }
  const ours = !!data && typeof data === 'object' && data.version === 1 && typeof data.pid === 'number' && data.host === os.hostname() && data.root === path.resolve(root);
  if (ours && valid(data!)) return data as T;
  await fs.rm(file, { force: true });
  return undefined;
}
