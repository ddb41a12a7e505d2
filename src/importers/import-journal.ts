/**
 * The import journal: what an import has put in the workspace so far, so that one killed part-way
 * (`kill -9`, a crash, a power cut) is undone by the next `ferry` command instead of leaving its
 * dot-named staging folders (thousands of files a `git add -A` would commit) for good.
 *
 * It lives in this computer's data folder for the workspace (spec 2.1.3: the workspace gets no
 * files of Ferry's own), written atomically before each step it records: the staging folders and
 * the folders the import creates are named before they are made; once the import starts moving
 * files into place (`moving`), the moved entries and the workspace file's old text are recorded
 * too. Undoing removes the staging folders and moved entries, puts the workspace file back and
 * removes created folders that are empty again. Every path is checked for links before anything
 * is removed, and only paths under requests/, specs/, environments/ and servers/ are accepted.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
// Modules, not their folders' index: every `ferry` command that opens a workspace loads this.
import { workspaceDataDir } from '../appdata/paths.js';
import { checkNoSymlinks, writeFileAtomic } from '../workspace/files.js';
import { WORKSPACE_FILE } from '../model/constants.js';
import { isProcessAlive } from '../support/process-alive.js';
import type { JournalHead } from '../support/journal-file.js';

const JOURNAL_FILE = 'import-journal.json';
const AREAS = ['requests', 'specs', 'environments', 'servers'];

interface JournalData extends JournalHead {
  state: 'staging' | 'moving';
  /** Workspace-relative `/` paths of the staging folders. */
  stagings: string[];
  /** Folders the import made (`specs/`), outermost first. */
  created: string[];
  /** Entries moved (or about to be moved) into place: they did not exist before the import. */
  moved: string[];
  /** The workspace file's text before the import changed it. */
  workspaceBefore?: string;
}

export type ImportRecovery = 'none' | 'undone' | 'running';

/** One import's journal; `record` before each step, `end` when the import finished or was undone. */
export class ImportJournal {
  private readonly data: Omit<JournalData, keyof JournalHead>;
  private readonly file: string;

  constructor(id: string, private readonly root: string) {
    this.file = path.join(workspaceDataDir(id, root), JOURNAL_FILE);
    this.data = { state: 'staging', stagings: [], created: [], moved: [] };
  }

  /** Records a staging folder (absolute) before it is made. */
  async staging(dir: string): Promise<void> {
    this.data.stagings.push(this.rel(dir));
    await this.write();
  }

  /** Records a folder (absolute) the import is about to create. */
  async creating(dir: string): Promise<void> {
    this.data.created.push(this.rel(dir));
    await this.write();
  }

  /** Records that the import starts to change what the user sees: these entries (absolute), and the workspace file. */
  async moving(targets: string[], workspaceBefore: string | undefined): Promise<void> {
    this.data.state = 'moving';
    this.data.moved = targets.map((t) => this.rel(t));
    if (workspaceBefore !== undefined) this.data.workspaceBefore = workspaceBefore;
    await this.write();
  }

  async end(): Promise<void> {
    await fs.rm(this.file, { force: true });
  }

  private rel(file: string): string {
    return path.relative(this.root, file).split(path.sep).join('/');
  }

  private async write(): Promise<void> {
    const [{ journalHead, writeJournalFile }, { refuseLinkedFolder }] = await Promise.all([import('../support/journal-file.js'), import('../appdata/json-store.js')]);
    await refuseLinkedFolder(this.file);
    await writeJournalFile(this.file, { ...journalHead(this.root), ...this.data });
  }
}

/** Whether an import of this workspace left a journal (running now, or killed). */
export async function hasImportJournal(id: string, workspaceRoot: string): Promise<boolean> {
  return fs.lstat(path.join(workspaceDataDir(id, path.resolve(workspaceRoot)), JOURNAL_FILE)).then(() => true, () => false);
}

/**
 * Undoes an import a kill or crash interrupted in the workspace `root` (id `id`). Returns
 * `running` and leaves everything alone while the import's process is still alive. The caller
 * holds the workspace lock.
 */
export async function recoverInterruptedImport(id: string, workspaceRoot: string): Promise<ImportRecovery> {
  const root = path.resolve(workspaceRoot);
  const file = path.join(workspaceDataDir(id, root), JOURNAL_FILE);
  // None, or not ours to act on (damaged, or left by a copy of the data folder: only the record goes).
  // Loaded only here: every command that opens a workspace loads this module, and asks this only
  // when there is a journal (`ferry run` loads no more than it needs: test/cli/command-table.test.ts).
  const [{ readJournalFile }, { refuseLinkedFolder }] = await Promise.all([import('../support/journal-file.js'), import('../appdata/json-store.js')]);
  await refuseLinkedFolder(file);
  const journal = await readJournalFile<JournalData>(file, root, validJournal);
  if (!journal) return 'none';
  if (journal.pid !== process.pid && isProcessAlive(journal.pid)) return 'running';
  const remove = async (relative: string, recursive: boolean) => {
    if (await checkNoSymlinks(root, relative)) return;
    const full = path.join(root, ...relative.split('/'));
    if (recursive) await fs.rm(full, { recursive: true, force: true });
    else await fs.rmdir(full).catch(() => {});
  };
  if (journal.state === 'moving') {
    for (const moved of journal.moved) await remove(moved, true);
    if (journal.workspaceBefore !== undefined) await writeFileAtomic(path.join(root, WORKSPACE_FILE), journal.workspaceBefore);
  }
  for (const staging of journal.stagings) await remove(staging, true);
  // Only when empty again: a folder someone put something in since stays.
  for (const dir of [...journal.created].reverse()) await remove(dir, false);
  await fs.rm(file, { force: true });
  return 'undone';
}

/** Past the head every journal has (support/journal-file.ts). */
function validJournal(data: Partial<JournalData>): boolean {
  if (data.state !== 'staging' && data.state !== 'moving') return false;
  const lists = [data.stagings, data.created, data.moved];
  if (!lists.every((list) => Array.isArray(list) && list.every(safePath))) return false;
  return data.workspaceBefore === undefined || typeof data.workspaceBefore === 'string';
}

function safePath(p: unknown): boolean {
  if (typeof p !== 'string' || p === '' || p.includes('\\') || p.includes('\0') || path.posix.isAbsolute(p)) return false;
  const parts = p.split('/');
  return AREAS.includes(parts[0]!) && parts.every((part) => part !== '' && part !== '.' && part !== '..');
}
