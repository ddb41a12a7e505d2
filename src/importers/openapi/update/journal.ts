/**
 * The update journal: makes `applyUpdate` all-or-nothing across a crash or a killed process.
 *
 * `.ferry-update.json` in the workspace root records every file the update stages. While it says
 * `staging` nothing the user sees has changed; a crash then is undone (staged files and created
 * folders removed: the workspace is as before). Once every staged file is on disk and flushed, the
 * journal is switched to `commit` in one atomic rename, and from then on the update is finished
 * (staged files renamed into place, old files deleted) by whoever comes next: the rest of this
 * run, or `recoverInterruptedUpdate` at the start of the next `ferry` command. Both steps only
 * do what has not been done yet, so recovery may itself be interrupted and run again.
 *
 * A journal may come from anywhere (a workspace is a shared folder), so recovery only accepts
 * paths under requests/, specs/ and environments/, staged files named by this module beside their
 * targets, and never follows a symbolic link.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkNoSymlinks } from '../../../workspace/files.js';
import { isProcessAlive } from '../../../support/process-alive.js';

export const JOURNAL_FILE = '.ferry-update.json';
const AREAS = ['requests', 'specs', 'environments'];
const STALE_AFTER_MS = 10 * 60 * 1000;

/** The update could not be written; the message says what happened to the workspace. */
export class UpdateWriteError extends Error {
  override name = 'UpdateWriteError';
}

export interface Journal {
  version: 1;
  /** The process applying the update: a live one is not interrupted. */
  pid: number;
  /** Where it ran: a journal that arrives with a copied or cloned workspace is not acted on. */
  host: string;
  root: string;
  token: string;
  state: 'staging' | 'commit';
  /** Workspace-relative `/` paths: targets and the staged file that replaces each. */
  writes: Array<{ file: string; temp: string }>;
  deletes: string[];
  /** Folders the update creates, outermost first. */
  dirs: string[];
}

export function stagedName(file: string, token: string): string {
  return path.posix.join(path.posix.dirname(file), `.${path.posix.basename(file)}.ferry-update-${token}.tmp`);
}

/** What a journal records about where it was written. */
export async function journalOrigin(root: string): Promise<{ host: string; root: string }> {
  return { host: os.hostname(), root: await fs.realpath(root).catch(() => path.resolve(root)) };
}

export function newToken(): string {
  return randomBytes(6).toString('hex');
}

/** Writes the journal: exclusive when it is new (a second update cannot start), atomic always. */
export async function writeJournal(root: string, journal: Journal, exclusive: boolean): Promise<void> {
  const target = path.join(root, JOURNAL_FILE);
  const temp = `${target}.${journal.token}.${journal.state}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(JSON.stringify(journal, null, 2));
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (exclusive) {
      await fs.link(temp, target);
      await fs.rm(temp);
    } else {
      await fs.rename(temp, target);
    }
  } catch (error) {
    await fs.rm(temp, { force: true });
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new UpdateWriteError(`Another update of this workspace is in progress (${JOURNAL_FILE} exists). Wait for it to finish, then update again.`);
    }
    throw error;
  }
  await syncDir(root);
}

export async function removeJournal(root: string): Promise<void> {
  await fs.rm(path.join(root, JOURNAL_FILE), { force: true });
  await syncDir(root);
}

/** Flushes a folder's entries (renames, new files) to disk; folders that cannot be opened are skipped. */
export async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Best effort: some file systems refuse fsync on folders.
  } finally {
    await handle?.close();
  }
}

/** Renames every staged file into place and deletes what the update deletes. Idempotent. */
export async function finishCommit(root: string, journal: Journal, afterStep?: (step: number) => void): Promise<void> {
  let step = 0;
  const touched = new Set<string>();
  for (const { file, temp } of journal.writes) {
    try {
      await fs.rename(path.join(root, temp), path.join(root, file));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      // Already renamed by an earlier, interrupted run.
    }
    touched.add(path.dirname(path.join(root, file)));
    afterStep?.(++step);
  }
  for (const file of journal.deletes) {
    await removeIfThere(path.join(root, file));
    touched.add(path.dirname(path.join(root, file)));
  }
  for (const dir of touched) await syncDir(dir);
  await removeJournal(root);
}

/** Undoes a journal still `staging`: staged files and created folders go; the targets were never touched. */
export async function rollBack(root: string, journal: Journal): Promise<void> {
  for (const { temp } of journal.writes) await removeIfThere(path.join(root, temp));
  for (const dir of [...journal.dirs].reverse()) {
    // Only if empty: a folder the user has put something in since stays.
    await fs.rmdir(path.join(root, dir)).catch(() => {});
  }
  await removeJournal(root);
}

/** Removes a file; one that is not there (or whose folder is not a folder) is fine. */
async function removeIfThere(file: string): Promise<void> {
  try {
    await fs.rm(file, { force: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOTDIR') throw error;
  }
}

const STAGED = /^\..+\.ferry-update-([0-9a-f]{12})\.tmp$/;

/** Whether a file name is one `stagedName` gives (left behind or not). */
export function isStagedLeftover(name: string): boolean {
  return STAGED.test(name);
}
const JOURNAL_TEMP = /^\.ferry-update\.json\.([0-9a-f]{12})\.(staging|commit)\.tmp$/;

/**
 * Removes what an earlier update left in `dirs` (absolute) and beside the journal when nothing
 * undid it: its journal was deleted by hand (as a refused one is), or it was killed while writing
 * the journal. Called holding the journal (`token`'s), so no other update is staging. Only
 * regular files named as this module names them; best effort (the reader ignores them anyway).
 */
export async function removeLeftovers(root: string, dirs: string[], token: string): Promise<void> {
  for (const [dir, pattern] of [[root, JOURNAL_TEMP] as const, ...[...new Set(dirs)].map((d) => [d, STAGED] as const)]) {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const match = pattern.exec(entry.name);
      if (entry.isFile() && match && match[1] !== token) await fs.rm(path.join(dir, entry.name), { force: true }).catch(() => {});
    }
  }
}

export type Recovery = 'none' | 'finished' | 'undone' | 'running';

/**
 * Completes (`commit`) or undoes (`staging`) an update a crash or a kill interrupted. Returns
 * `running` and leaves everything alone when the journal's process is still alive.
 */
export async function recoverInterruptedUpdate(workspaceRoot: string): Promise<Recovery> {
  const root = path.resolve(workspaceRoot);
  const file = path.join(root, JOURNAL_FILE);
  let text: string;
  let age: number;
  try {
    const stat = await fs.lstat(file);
    if (!stat.isFile()) throw new Error(`${JOURNAL_FILE} in ${root} is not a file; remove it.`);
    age = Date.now() - stat.mtimeMs;
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  const journal = readJournal(text);
  if (!journal) {
    throw new Error(`${file} is not an update journal Ferry can read, so an interrupted update cannot be finished. Check the imported folder (git diff helps), then delete ${JOURNAL_FILE}.`);
  }
  const here = await journalOrigin(root);
  if (journal.host !== here.host || journal.root !== here.root) {
    throw new Error(`${file} was left by an update of this workspace at ${journal.host}:${journal.root}, not here; Ferry does not act on it. Check the imported folder (git diff helps), then delete ${JOURNAL_FILE}.`);
  }
  // An update takes seconds; an old journal whose process id is alive again (after a restart) is stale.
  if (journal.pid !== process.pid && age < STALE_AFTER_MS && isProcessAlive(journal.pid)) return 'running';
  for (const p of [...journal.writes.flatMap((w) => [w.file, w.temp]), ...journal.deletes, ...journal.dirs]) {
    const problem = await checkNoSymlinks(root, p);
    if (problem) throw new Error(`The interrupted update in ${file} cannot be finished: ${problem}. Check the imported folder, then delete ${JOURNAL_FILE}.`);
  }
  if (journal.state === 'commit') {
    await finishCommit(root, journal);
    return 'finished';
  }
  await rollBack(root, journal);
  return 'undone';
}

/** Parses and checks a journal; undefined when it is not one this module wrote. */
export function readJournal(text: string): Journal | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  const j = data as Partial<Journal>;
  if (!j || typeof j !== 'object' || j.version !== 1 || typeof j.pid !== 'number' || typeof j.token !== 'string' || !/^[0-9a-f]{12}$/.test(j.token)) return undefined;
  if (j.state !== 'staging' && j.state !== 'commit') return undefined;
  if (typeof j.host !== 'string' || typeof j.root !== 'string') return undefined;
  if (!Array.isArray(j.writes) || !Array.isArray(j.deletes) || !Array.isArray(j.dirs)) return undefined;
  for (const w of j.writes) {
    if (!w || !safeTarget(w.file) || w.temp !== stagedName(w.file, j.token)) return undefined;
  }
  // An update only ever deletes a kept document it replaces.
  if (!j.deletes.every((d) => safeTarget(d) && d.startsWith('specs/')) || !j.dirs.every((d) => safePath(d))) return undefined;
  return j as Journal;
}

function safePath(p: unknown): p is string {
  if (typeof p !== 'string' || p === '' || p.includes('\\') || p.includes('\0') || path.posix.isAbsolute(p)) return false;
  const parts = p.split('/');
  return AREAS.includes(parts[0]!) && parts.every((part) => part !== '' && part !== '.' && part !== '..');
}

function safeTarget(p: unknown): p is string {
  return safePath(p) && p.split('/').length > 1 && /\.(ya?ml|json)$/i.test(p);
}
