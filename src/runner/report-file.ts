/**
 * Report files (`--out-json`, `--out-junit`, `--out-html`): checked before the run starts, so a
 * path that cannot be written fails at once instead of after a long run, and written in pieces
 * to a temporary file beside the target, renamed over it once whole, so a half-written report
 * never replaces a good one.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs, rmSync } from 'node:fs';
import path from 'node:path';
import { FileWriteError, writeFileAtomic } from '../support/atomic-write.js';
import { checkNoSymlinks, isInside } from '../support/paths-inside.js';

export class ReportFileError extends Error {
  override name = 'ReportFileError';
}

/**
 * Checks a report file of a run in `workspaceRoot` (an absolute path): inside the workspace (a
 * cloned repository), a folder on the way may be a planted link, so none may be; then as
 * `prepareReportFile`.
 */
export async function prepareWorkspaceReportFile(file: string, option: string, display: string, workspaceRoot: string): Promise<string[]> {
  const folder = path.dirname(file);
  const linked = isInside(workspaceRoot, folder) ? await checkNoSymlinks(workspaceRoot, path.relative(workspaceRoot, folder)) : undefined;
  if (linked) throw new ReportFileError(`${option} ${display}: ${linked}; give another path.`);
  return prepareReportFile(file, option);
}

/**
 * Checks that `file` can be written: not a folder, and its folder exists or can be made (made
 * now, one level at a time) and takes a new file. `option` names the flag in messages, e.g. `--out-json`.
 * Returns the folders it made, outermost first: a run refused after this check removes them
 * again with `removeEmptyFolders` (`reports/` left empty by `ferry run -e typo --out-junit reports/x.xml`).
 */
export async function prepareReportFile(file: string, option: string): Promise<string[]> {
  const target = await fs.lstat(file).catch(() => undefined);
  if (target?.isDirectory()) throw new ReportFileError(`${option} ${file} is a folder; give the path of a file to write the report to.`);
  // Replaced whole at the end (a rename), a link would be replaced, not followed: neither is what was meant.
  if (target?.isSymbolicLink()) throw new ReportFileError(`${option} ${file} is a symbolic link, and Ferry never follows links nor replaces one; give the path of the file itself, or remove the link.`);
  if (target && !target.isFile()) throw new ReportFileError(`${option} ${file} is not a regular file; give the path of a file to write the report to.`);
  // An old report that cannot be replaced (read-only, immutable: chattr +i) would be found only
  // after the run, its report lost: opened for writing (nothing written), it says so now.
  if (target) {
    await fs.open(file, 'r+').then((handle) => handle.close(), (error: NodeJS.ErrnoException) => {
      throw new ReportFileError(`${option} ${file} exists and cannot be replaced (${error.code ?? error.message}); make it writable, or give another path.`);
    });
  }
  const missing: string[] = [];
  let dir = path.dirname(file);
  for (;;) {
    const stat = await fs.stat(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)));
    if (stat) {
      if (!stat.isDirectory()) throw new ReportFileError(`${option} ${file}: ${dir} is a file, not a folder; give another path.`);
      break;
    }
    missing.unshift(dir);
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  const made: string[] = [];
  try {
    for (const folder of missing) {
      await fs.mkdir(folder);
      made.push(folder);
    }
    // A file made and removed, as the report's temporary file will be: access(W_OK) says yes to
    // root everywhere, and to folders that refuse new files (/proc, some network or FUSE mounts).
    const probe = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.probe`);
    await (await fs.open(probe, 'wx', 0o600)).close();
    await fs.rm(probe, { force: true });
    return made;
  } catch (error) {
    await removeEmptyFolders(made);
    throw new ReportFileError(`${option} ${file} cannot be written (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a path in a folder you can write to.`);
  }
}

/**
 * Removes the folders `prepareReportFile` made (outermost first) that are still empty, innermost
 * first: what a refused or failed run made for its reports goes, a folder a report went into stays.
 */
export async function removeEmptyFolders(folders: readonly string[]): Promise<void> {
  for (const folder of [...folders].reverse()) {
    // rmdir removes only an empty folder: one with a report (or anything else) in it stays, and so do those above it.
    if (!(await fs.rmdir(folder).then(() => true, () => false))) return;
  }
}

/** Writes the report, replacing the file whole; `folder`: its folder as checked at the start, checked again first. */
export async function writeReportFile(file: string, text: string, option: string, folder?: ReportFolder): Promise<void> {
  await folder?.check(option);
  try {
    await writeFileAtomic(file, text);
  } catch (error) {
    if (error instanceof FileWriteError) throw new ReportFileError(`${option}: ${error.message}`);
    throw new ReportFileError(`${option}: the report could not be written to ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

/**
 * The temporary files of reports being written now. A second Ctrl-C quits at once
 * (`process.exit`), maybe while a report is written: its half-written file goes with the process
 * rather than staying beside the old report, which stays as it was.
 */
const writing = new Set<string>();
let removeOnExit = false;
function track(temp: string): void {
  writing.add(temp);
  if (removeOnExit) return;
  removeOnExit = true;
  process.once('exit', () => {
    for (const file of writing) rmSync(file, { force: true });
  });
}

/**
 * The first folder on the way to `dir` that is a symbolic link now but was not at the start, when
 * `dir` resolved to `real`: the folder itself, or one above it. Undefined when there is none.
 */
async function firstLinkOnTheWay(dir: string, real: string): Promise<string | undefined> {
  const ways: string[] = [];
  for (let at = dir; ; at = path.dirname(at)) {
    ways.unshift(at);
    if (path.dirname(at) === at) break;
  }
  for (const at of ways) {
    const stat = await fs.lstat(at).catch(() => undefined);
    // A link that was there at the start resolves into the same real path: not the one swapped in.
    if (stat?.isSymbolicLink() && !isInside(await fs.realpath(at).catch(() => at), real)) return at;
  }
  return undefined;
}

/** Which folder a path names: its real path (links on the way resolved) and the folder itself. */
interface FolderIdentity {
  real: string;
  dev: number;
  ino: number;
}

async function folderIdentity(dir: string): Promise<FolderIdentity | undefined> {
  try {
    const real = await fs.realpath(dir);
    const stat = await fs.stat(real);
    return stat.isDirectory() ? { real, dev: stat.dev, ino: stat.ino } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The folder of a report file as it is when this is made (before the run or load test, after
 * `prepareReportFile`), checked again right before the report is put in place: one replaced by a
 * symbolic link meanwhile (or a folder above it) would have the report land through the link.
 * Links on the way that were there at the start (outside the workspace) are taken as they were.
 */
export class ReportFolder {
  private readonly was: Promise<FolderIdentity | undefined>;

  constructor(private readonly file: string) {
    this.was = folderIdentity(path.dirname(file));
  }

  /** Throws a ReportFileError when the folder is no longer the one it was, saying what became of it. */
  async check(option: string): Promise<void> {
    const was = await this.was;
    if (!was) return;
    const dir = path.dirname(this.file);
    const now = await folderIdentity(dir);
    if (now && now.real === was.real && now.dev === was.dev && now.ino === was.ino) return;
    const linked = await firstLinkOnTheWay(dir, was.real);
    const what = linked ? `${linked} was replaced by a symbolic link, and Ferry never follows links` : now ? `${dir} was replaced by another folder` : `${dir} was moved or removed`;
    throw new ReportFileError(`${option} ${this.file}: during the run ${what}: the report was not written. Keep the report's folder in place during the run (or give another path), then run again.`);
  }
}

/**
 * A report written in pieces (`write` appends, `end` puts it in place): a temporary file beside
 * the target, flushed and renamed over it at the end; on a failure the temporary file goes and the
 * old report stays. The report's folder is checked (ReportFolder) when the temporary file is made
 * and again right before the rename.
 */
export class ReportFileWriter {
  private handle: Promise<fs.FileHandle> | undefined;
  private readonly temp: string;
  /** The folder as it was at the start: taken now, before the run sends anything. */
  private readonly folder: ReportFolder;

  constructor(
    private readonly file: string,
    private readonly option: string,
  ) {
    this.temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    this.folder = new ReportFolder(file);
  }

  async write(text: string): Promise<void> {
    try {
      this.handle ??= this.open();
      await (await this.handle).write(text);
    } catch (error) {
      throw await this.failed(error);
    }
  }

  async end(): Promise<void> {
    try {
      this.handle ??= this.open();
      const handle = await this.handle;
      await handle.sync();
      // Right before the rename (the open checked it too): a folder swapped since is refused.
      await this.folder.check(this.option);
      await handle.close();
      this.handle = undefined;
    } catch (error) {
      throw await this.failed(error);
    }
    try {
      await fs.rename(this.temp, this.file);
      writing.delete(this.temp);
    } catch (error) {
      writing.delete(this.temp); // whole: kept (below), also when the process quits
      // The report is whole beside its place (the old one there made unreplaceable during the run):
      // kept, and said where, rather than lost with the run's results.
      throw new ReportFileError(`${this.option}: the report could not be put in place of ${this.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); it was kept as ${this.temp}: move it where you want it.`);
    }
  }

  private async open(): Promise<fs.FileHandle> {
    await this.folder.check(this.option);
    track(this.temp);
    return fs.open(this.temp, 'wx', 0o666);
  }

  private async failed(error: unknown): Promise<ReportFileError> {
    const handle = await this.handle?.catch(() => undefined);
    this.handle = undefined;
    // Emptied first: in a folder moved away meanwhile, the path below no longer reaches it.
    await handle?.truncate(0).catch(() => {});
    await handle?.close().catch(() => {});
    await fs.rm(this.temp, { force: true }).catch(() => {});
    writing.delete(this.temp);
    if (error instanceof ReportFileError) return error;
    return new ReportFileError(`${this.option}: the report could not be written to ${this.file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); the run's results are in its summary above. Free some space or make the folder writable (or give another path), then run again.`);
  }
}
