/**
 * A file of the data folder that could not be read (cut off by a crash, edited by hand) is set
 * aside, never fatal and never written over (json-store.ts, cookie-jar-file.ts). The user is told
 * once, when it is moved: which file, why, where it is now and what is lost. A face that shows it
 * its own way (the app: a notice in the page) listens; with no listener, the line goes to stderr,
 * as every `ferry` command says what happened to its data.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface SetAsideNotice {
  /** The file that could not be read (absolute). */
  file: string;
  /** Where it is now (absolute). */
  movedTo: string;
  /** Why it could not be read (the parser's words). */
  reason: string;
  /** What the user loses, and what to do: 'the secret values must be set again (…)'. */
  lost: string;
  /** The whole notice in one line. */
  message: string;
}

type Listener = (notice: SetAsideNotice) => void;
const listeners = new Set<Listener>();

/** Tells `listener` of each file set aside from now on (instead of stderr); returns the way to stop. */
export function onSetAside(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Moves `file` aside (`FILE.damaged-<time>`) and says so (`reportSetAside`); a file another
 * process moved or replaced meanwhile is left alone, and nothing is said.
 */
export async function setAside(file: string, reason: string, lost: string): Promise<void> {
  const movedTo = `${file}.damaged-${Date.now()}`;
  if (await fs.rename(file, movedTo).then(() => true, () => false)) reportSetAside(file, movedTo, reason, lost);
}

/** Says that `file` was moved to `movedTo`: to the listeners, or on stderr when none listens. */
function reportSetAside(file: string, movedTo: string, reason: string, lost: string): void {
  const message = `${path.basename(file)} in the data folder could not be read (${reason}); it was moved to ${movedTo}, and ${lost}.`;
  const notice = { file, movedTo, reason, lost, message };
  if (listeners.size === 0) {
    process.stderr.write(`ferry: ${message}\n`);
    return;
  }
  for (const listener of listeners) listener(notice);
}
