/**
 * The name a folder has while it is deleted (requests.ts deleteFolder): `.NAME.deleting-PID-MS`
 * beside it, a dot-name the reader and the app's watcher pass over (2.1.7), declared here once;
 * and what is left at such a name when the removal did not finish (Ferry killed part-way, or the
 * rest could not be put back), which the request tree's reader says rather than hides for ever.
 */
import path from 'node:path';
import { isProcessAlive } from '../support/process-alive.js';
import type { Warning } from './types.js';

/** `.NAME.deleting-PID-MS`: the folder's name, the deleting process, when it began (Date.now()). */
const ASIDE_NAME = /^\.(.+)\.deleting-(\d+)-(\d+)$/;

/** The asides of this process's removals under way (absolute): not left over, whatever a read meanwhile finds. */
const underWay = new Set<string>();

/**
 * Another process's removal is taken as under way while it runs and began less than this long ago:
 * a removal takes seconds, and a process number still in use after that is most likely another
 * program's (numbers are used again after a crash or a restart).
 */
const OTHER_REMOVAL_MS = 60_000;

/** The longest file name file systems take (bytes). */
const MAX_NAME_BYTES = 255;

/** What ends a folder's name cut short to fit in its aside's. */
const CUT = '…';

/**
 * Where folder `dir` (absolute) is moved for its removal, marked under way until `removalOver`.
 * A name too long to take the aside's dot and ending is cut short, ending in `…`, so that a folder
 * of any name can be deleted (the rename would be refused as too long).
 */
export function removalAside(dir: string): string {
  const ending = `.deleting-${process.pid}-${Date.now()}`;
  const room = MAX_NAME_BYTES - 1 - Buffer.byteLength(ending);
  let name = path.basename(dir);
  if (Buffer.byteLength(name) > room) name = `${cutToBytes(name, room - Buffer.byteLength(CUT))}${CUT}`;
  const aside = path.join(path.dirname(dir), `.${name}${ending}`);
  underWay.add(aside);
  return aside;
}

/** `text`'s longest start of at most `bytes` UTF-8 bytes, whole characters only. */
function cutToBytes(text: string, bytes: number): string {
  let cut = '';
  for (const char of text) {
    if (Buffer.byteLength(cut + char) > bytes) break;
    cut += char;
  }
  return cut;
}

/** Whether aside name `name` holds its folder's name cut short (`removalAside`): as long as an aside's name gets, ending in `…`. */
function isCutShort(name: string, original: string): boolean {
  return original.endsWith(CUT) && Buffer.byteLength(name) > MAX_NAME_BYTES - 4;
}

/** The removal at `aside` is over: removed, put back, or left there (then said by the reader). */
export function removalOver(aside: string): void {
  underWay.delete(aside);
}

/**
 * The warning for entry `name` of folder `dir` (absolute; `label` its path in the workspace,
 * `requests/Users`) when it is a folder of Ferry's aside pattern left by a removal that did not
 * finish; undefined for any other entry, and for a removal under way. `isFolder`: the entry as
 * listed (a link is not one, and is never followed). `taken`: whether a sibling has the folder's
 * own name now (case aside), which a rename back must then avoid. Nothing is touched.
 */
export function leftoverWarning(dir: string, label: string, name: string, isFolder: boolean, taken: (name: string) => boolean): Warning | undefined {
  const match = isFolder ? ASIDE_NAME.exec(name) : null;
  if (!match) return undefined;
  const [, original, pid, began] = match as unknown as [string, string, string, string];
  if (underWayNow(path.join(dir, name), Number(pid), Number(began))) return undefined;
  const file = `${label}/${name}`;
  const was = `${label}/${original}/`;
  const when = new Date(Number(began));
  const at = Number.isNaN(when.getTime()) ? '' : ` on ${when.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const back = isCutShort(name, original)
    ? `rename it back to the folder's whole name (cut short in ${was})`
    : taken(original) ? `rename it to a name not taken (${was} is there again)` : `rename it back to ${was}`;
  return {
    file,
    message: `${file} is what is left of folder ${was}, which Ferry began deleting${at} and did not finish (it was stopped part-way, or the rest could not be put back); the requests in it are not read. Delete it to finish the removal, or ${back} to keep them.`,
    code: 'unfinished-delete',
    namesFile: true,
  };
}

function underWayNow(aside: string, pid: number, began: number): boolean {
  if (pid === process.pid) return underWay.has(aside);
  return Date.now() - began < OTHER_REMOVAL_MS && isProcessAlive(pid);
}
