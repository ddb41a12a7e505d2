/**
 * Writes a planned update, all or nothing, also across a crash or a killed process (journal.ts):
 * every new text is staged beside its target as a dot-named file (the workspace reader ignores
 * those) under a `staging` journal; once all are flushed the journal turns `commit` and the
 * staged files are renamed into place. Interrupted before that, the workspace is as it was;
 * after, the next `ferry` command finishes the update (`recoverInterruptedUpdate`). An aborted
 * `signal` (Ctrl-C) stops it the same way: before the commit point it is undone and the signal's
 * reason thrown; after, it is finished.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { withWorkspaceLock, type WorkspaceLocker } from '../../../appdata/index.js';
import { checkNoSymlinks } from '../../../workspace/index.js';
import { finishCommit, journalOrigin, newToken, recoverInterruptedUpdate, removeLeftovers, rollBack, stagedName, syncDir, UpdateWriteError, writeJournal, type Journal } from './journal.js';
import type { UpdatePlan } from './types.js';

export { UpdateWriteError };

/**
 * Writes the plan holding the workspace's write lock (one writer at a time: an import, the app),
 * taken by `lock` (the app's says the wait in its page).
 */
export async function applyUpdate(workspaceRoot: string, plan: UpdatePlan, signal?: AbortSignal, lock: WorkspaceLocker = withWorkspaceLock): Promise<void> {
  const root = path.resolve(workspaceRoot);
  await lock(root, 'an update from API spec', () => applyLocked(root, plan, signal));
}

async function applyLocked(root: string, plan: UpdatePlan, signal: AbortSignal | undefined): Promise<void> {
  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  // A replaced file keeps its permission bits; one nobody may write is not replaced or removed
  // behind its back (a rename ignores them), as a single save refuses it (support/atomic-write.ts).
  const modes = new Map<string, number>();
  for (const target of [...plan.writes.map((w) => w.file), ...plan.deletes]) {
    const problem = await checkNoSymlinks(root, rel(target));
    if (problem) throw new UpdateWriteError(`The update was not written: ${problem}. Put the real folder or file in its place (remove the link, then move or copy what it points to here), then update again.`);
    const existing = await fs.lstat(target).catch(() => undefined);
    if (!existing?.isFile()) continue;
    const mode = existing.mode & 0o7777;
    if ((mode & 0o222) === 0) {
      throw new UpdateWriteError(`The update was not written: ${rel(target)} is read-only (mode ${mode.toString(8).padStart(4, '0')}). Make it writable (chmod u+w), then update again.`);
    }
    modes.set(target, mode);
  }
  if ((await recoverInterruptedUpdate(root)) === 'running') {
    throw new UpdateWriteError('Another update of this workspace is in progress. Wait for it to finish, then update again.');
  }
  const token = newToken();
  const journal: Journal = {
    version: 1,
    pid: process.pid,
    ...(await journalOrigin(root)),
    token,
    state: 'staging',
    writes: plan.writes.map((w) => ({ file: rel(w.file), temp: stagedName(rel(w.file), token) })),
    deletes: plan.deletes.map(rel),
    dirs: await missingDirs(root, plan.writes.map((w) => path.dirname(w.file))),
  };
  const kill = testKillPoint();
  signal?.throwIfAborted();
  await writeJournal(root, journal, true);
  await removeLeftovers(root, [...plan.writes.map((w) => path.dirname(w.file)), ...plan.deletes.map((d) => path.dirname(d))], token);
  try {
    for (const dir of journal.dirs) await fs.mkdir(path.join(root, dir));
    let step = 0;
    for (const [i, write] of plan.writes.entries()) {
      const mode = modes.get(write.file);
      const handle = await fs.open(path.join(root, journal.writes[i]!.temp), 'wx', mode ?? 0o666);
      try {
        await handle.writeFile(write.text);
        if (mode !== undefined) await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (kill?.phase === 'staging' && ++step === kill.step) process.kill(process.pid, kill.signal);
      signal?.throwIfAborted();
    }
    for (const dir of new Set(plan.writes.map((w) => path.dirname(w.file)))) await syncDir(dir);
    // The commit point: from here on the update is finished, now or by the next ferry command.
    signal?.throwIfAborted();
    await writeJournal(root, { ...journal, state: 'commit' }, false);
  } catch (error) {
    // Should undoing fail too, the journal stays `staging` and the next ferry command undoes it.
    await rollBack(root, journal).catch(() => {});
    throw error;
  }
  try {
    await finishCommit(root, { ...journal, state: 'commit' }, (step) => {
      if (kill?.phase === 'commit' && step === kill.step) process.kill(process.pid, kill.signal);
    });
  } catch (error) {
    throw new UpdateWriteError(`The update could not put every file in place (${(error as Error).message}). Nothing is lost: fix the cause (permissions, disk space), then run any ferry command in this workspace and it finishes the update.`);
  }
}

/** Folders under the workspace that do not exist yet, outermost first. */
async function missingDirs(root: string, dirs: string[]): Promise<string[]> {
  const missing = new Set<string>();
  for (const dir of new Set(dirs)) {
    let current = dir;
    while (current !== root && current.startsWith(root + path.sep)) {
      const exists = await fs.lstat(current).then(() => true, () => false);
      if (exists) break;
      missing.add(path.relative(root, current).split(path.sep).join('/'));
      current = path.dirname(current);
    }
  }
  return [...missing].sort((a, b) => a.split('/').length - b.split('/').length);
}

/**
 * Fault injection for the crash tests: `FERRY_TEST_KILL_UPDATE=staging:N` or `commit:N` makes
 * this process kill itself (SIGKILL, no clean-up) after the Nth staged file or rename;
 * `staging:N:SIGINT` or `commit:N:SIGINT` sends it a Ctrl-C there instead.
 */
function testKillPoint(): { phase: 'staging' | 'commit'; step: number; signal: 'SIGKILL' | 'SIGINT' } | undefined {
  const match = /^(staging|commit):(\d+)(:SIGINT)?$/.exec(process.env.FERRY_TEST_KILL_UPDATE ?? '');
  return match ? { phase: match[1] as 'staging' | 'commit', step: Number(match[2]), signal: match[3] ? 'SIGINT' : 'SIGKILL' } : undefined;
}
