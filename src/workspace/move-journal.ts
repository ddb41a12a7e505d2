/**
 * Moves and renames of requests and folders, all or nothing across a kill or a crash.
 *
 * A move is a few steps: the file or folder renamed, its display name saved (`_folder.yaml`, the
 * request's `name`), and every load test that sends a moved request pointed at its new path
 * (2.12). A process killed between two of them would leave load tests pointing at paths that no
 * longer exist, or a folder whose name and directory disagree. So the steps are planned first and
 * recorded in a journal (a file of this computer's data folder that the caller names: spec 2.1.3,
 * the workspace gets no files of Ferry's own) before any is taken; once all are done the journal
 * goes. Each step does only what is not done yet, so the steps of a journal left behind are simply
 * taken again by the next writer (`finishInterruptedMove`, at the next `ferry` command or app
 * start): the workspace is as before the move, or as after it, never between.
 *
 * The caller holds the workspace's write lock (appdata/workspace-lock.ts): no other move runs, so
 * a journal found under the lock is one whose writer died or failed part-way.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { FolderFile, RequestFile } from '../model/index.js';
import { journalHead, type JournalHead, readJournalFile, writeJournalFile } from '../support/journal-file.js';
import { checkNoSymlinks, readTextFile } from './files.js';
import { formatWarning } from './warning-text.js';
import { LOADTESTS_DIR } from './open.js';
import { readResource } from './read-resource.js';
import { saveResource } from './save.js';
import { REQUESTS_DIR, isYamlFile, loadTargetPath, stripYaml } from './tree.js';

/** One step of a move; paths are tree paths (relative to requests/, `/` between folders). */
export type MoveStep =
  /** The file or folder `from` renamed to `to` (the folder above `to` made when missing). */
  | { op: 'rename'; from: string; to: string }
  /** A request file, or a folder's `_folder.yaml` (`path` = the folder), saved with this value. */
  | { op: 'save'; kind: 'request'; path: string; value: RequestFile }
  | { op: 'save'; kind: 'folder'; path: string; value: FolderFile }
  /** Load test targets naming request `from` (or, `folder`, anything under folder `from`) now name `to`. */
  | { op: 'retarget'; folder: boolean; from: string; to: string };

interface JournalData extends JournalHead {
  steps: MoveStep[];
}

export type MoveRecovery = { state: 'none' } | { state: 'finished'; from: string; to: string };

/**
 * Takes `steps` in order, recorded first in `journal` (an absolute file in the data folder) when
 * one is given, which is removed once they are all done. A journal an earlier move left behind is
 * finished first. A step that fails leaves the journal, so the next writer finishes the move.
 */
export async function runMoveSteps(root: string, steps: readonly MoveStep[], journal: string | undefined, onNotice?: (message: string) => void): Promise<void> {
  if (steps.length === 0) return;
  const kill = journal === undefined ? undefined : testKillPoint();
  if (journal !== undefined) {
    await finishInterruptedMove(root, journal);
    if (kill === 0) process.kill(process.pid, 'SIGKILL');
    const data: JournalData = { ...journalHead(root), steps: [...steps] };
    await writeJournalFile(journal, data);
  }
  for (const [i, step] of steps.entries()) {
    const taken = await takeStep(root, step, onNotice);
    if (taken && i + 1 === kill) process.kill(process.pid, 'SIGKILL');
    if (taken) continue;
    // Changed under the move (the lock keeps other Ferry writers out, not an editor or git).
    if (journal !== undefined) await fs.rm(journal, { force: true });
    throw new Error(`${REQUESTS_DIR}/${step.op === 'save' ? step.path : step.from} changed on disk while it was being moved; nothing more was done. Look at it, then try again.`);
  }
  if (journal !== undefined) await fs.rm(journal, { force: true });
}

/**
 * Finishes a move a kill, a crash or a failed step interrupted in the workspace `root`, from its
 * journal (see `runMoveSteps`); says what was moved where. A journal that is damaged, or was
 * written for another folder or computer (a copied data folder), is removed without acting on it.
 * The caller holds the workspace's write lock.
 */
export async function finishInterruptedMove(root: string, journal: string): Promise<MoveRecovery> {
  const data = await readJournalFile<JournalData>(journal, root, (d) => Array.isArray(d.steps) && d.steps.every(validStep));
  if (!data) return { state: 'none' };
  let finished = true;
  for (const step of data.steps) {
    if (!(await takeStep(root, step))) {
      finished = false;
      break;
    }
  }
  await fs.rm(journal, { force: true });
  if (!finished) return { state: 'none' };
  const moved = data.steps.find((s) => s.op === 'rename');
  const saved = data.steps.find((s) => s.op === 'save');
  const from = moved?.from ?? saved?.path ?? '';
  return { state: 'finished', from, to: moved?.to ?? from };
}

/**
 * Takes one step, unless done already. False when the workspace is no longer as the move left it
 * (`from` and `to` both there, or neither: someone changed the folder since the kill): the
 * remaining steps would write into what is not the moved item, so none is taken.
 */
async function takeStep(root: string, step: MoveStep, onNotice?: (message: string) => void): Promise<boolean> {
  if (step.op === 'retarget') {
    const unread = await updateLoadTestTargets(root, step.folder ? movedUnder(step.from, step.to) : sameRequest(step.from, step.to), step.from);
    for (const { file, problem } of unread) {
      const [from, to] = step.folder ? [`${step.from}/`, `${step.to}/`] : [step.from, step.to];
      onNotice?.(`${file} was not updated: it does not parse (${problem}). Once it is fixed, change "${from}" in its targets to "${to}" by hand.`);
    }
    return true;
  }
  if (step.op === 'save') {
    const file = treeFile(root, step.kind === 'folder' ? `${step.path}/_folder.yaml` : step.path);
    if (!(await exists(step.kind === 'folder' ? path.dirname(file) : file))) return false;
    if (step.kind === 'folder') await saveResource(file, 'folder', step.value);
    else await saveResource(file, 'request', step.value);
    return true;
  }
  const from = treeFile(root, step.from);
  const to = treeFile(root, step.to);
  const [fromThere, toThere] = [await fs.lstat(from).catch(() => undefined), await fs.lstat(to).catch(() => undefined)];
  // Done already: the steps are being taken again.
  if (!fromThere && toThere) return true;
  // Both there as one entry: a change of case only, on a disk that ignores case (macOS, Windows).
  const caseOnly = fromThere && toThere && fromThere.ino === toThere.ino && fromThere.dev === toThere.dev;
  if ((!fromThere || toThere) && !caseOnly) return false;
  const linked = (await checkNoSymlinks(root, path.relative(root, from))) ?? (await checkNoSymlinks(root, path.relative(root, path.dirname(to))));
  if (linked) throw new Error(`Cannot move ${REQUESTS_DIR}/${step.from}: ${linked}.`);
  await fs.mkdir(path.dirname(to), { recursive: true });
  await fs.rename(from, to);
  return true;
}

function treeFile(root: string, treePath: string): string {
  return path.join(root, REQUESTS_DIR, ...treePath.split('/').filter(Boolean));
}

async function exists(file: string): Promise<boolean> {
  return fs.lstat(file).then(() => true, () => false);
}

function sameRequest(from: string, to: string): (target: string) => string | undefined {
  const lower = from.toLowerCase();
  return (target) => (target.toLowerCase() === lower ? to : undefined);
}

/** A load test target's new path when folder `from` became `to` (names compared without case), else undefined. */
function movedUnder(from: string, to: string): (target: string) => string | undefined {
  const prefix = `${from}/`;
  const lower = prefix.toLowerCase();
  return (target) => (target.toLowerCase().startsWith(lower) ? `${to}/${target.slice(prefix.length)}` : undefined);
}

/**
 * Rewrites `targets[].request` and `thresholds[].target` of every load test whose request path
 * `rename` gives a new one for, editing files in place; a target written without `.yaml` stays so.
 * Taken again, it changes nothing more: a new path never falls under the old one.
 */
async function updateLoadTestTargets(root: string, renamePath: (requestPath: string) => string | undefined, from: string): Promise<Array<{ file: string; problem: string }>> {
  const unread: Array<{ file: string; problem: string }> = [];
  const rename = (target: string): string => {
    const renamed = renamePath(loadTargetPath(target));
    if (renamed === undefined) return target;
    return /\.ya?ml$/i.test(target) ? renamed : stripYaml(renamed);
  };
  // A linked loadtests/ is skipped when the workspace is read; its target is never written either.
  if (await checkNoSymlinks(root, LOADTESTS_DIR)) return unread;
  const dir = path.join(root, LOADTESTS_DIR);
  let names: string[];
  try {
    names = (await fs.readdir(dir)).filter((n) => isYamlFile(n) && !n.startsWith('.'));
  } catch {
    return unread;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    const outcome = await readResource('loadtest', file, `${LOADTESTS_DIR}/${name}`);
    if (!outcome.ok) {
      // Said only when its text names the moved path: a broken load test of other requests is no news.
      const text = await readTextFile(file).catch(() => '');
      if (text.toLowerCase().includes(from.toLowerCase())) unread.push({ file: `${LOADTESTS_DIR}/${name}`, problem: formatWarning(outcome.warning) });
      continue;
    }
    let changed = false;
    const targets = outcome.value.targets.map((t) => {
      const renamed = rename(t.request);
      if (renamed === t.request) return t;
      changed = true;
      return { ...t, request: renamed };
    });
    // A threshold's `target` names a request path too (2.12): it follows the request.
    const thresholds = outcome.value.thresholds.map((t) => {
      const renamed = t.target === undefined ? undefined : rename(t.target);
      if (renamed === t.target) return t;
      changed = true;
      return { ...t, target: renamed };
    });
    if (changed) await saveResource(file, 'loadtest', { ...outcome.value, targets, thresholds });
  }
  return unread;
}

/**
 * `FERRY_TEST_KILL_MOVE=N`: the crash tests kill the process (SIGKILL) after the N-th step of a
 * journaled move, or with 0 just before its journal is written (all that comes before the move done).
 */
function testKillPoint(): number | undefined {
  const match = /^\d+$/.exec(process.env.FERRY_TEST_KILL_MOVE ?? '');
  return match ? Number(match[0]) : undefined;
}

function validStep(step: unknown): boolean {
  if (!step || typeof step !== 'object') return false;
  const s = step as Record<string, unknown>;
  if (s.op === 'rename' || s.op === 'retarget') return treePath(s.from) && treePath(s.to);
  if (s.op === 'save') return (s.kind === 'request' || s.kind === 'folder') && treePath(s.path) && typeof s.value === 'object' && s.value !== null;
  return false;
}

/** A path under requests/ that cannot leave it: a journal is a file anyone could have edited. */
function treePath(p: unknown): boolean {
  if (typeof p !== 'string' || p === '' || p.includes('\\') || p.includes('\0') || path.posix.isAbsolute(p)) return false;
  return p.split('/').every((part) => part !== '' && !part.startsWith('.'));
}
