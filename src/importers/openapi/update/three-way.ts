/**
 * The three-way rule of spec 4.5: a field takes the new document's value only where the saved
 * value still equals what the old document gave; otherwise the user's edit stays.
 */
import { deepEqual, parseResource, type FolderFile, type RequestFile } from '../../../model/index.js';
import type { ImportedFolderData, ImportedRequestData } from '../../types.js';

/** Fields an update may change (spec 4.5 "Updatable fields"). Names, scripts, settings never. */
export const UPDATABLE_FIELDS = ['method', 'url', 'headers', 'body', 'pathParams', 'disabledParams', 'paramDescriptions', 'auth', 'docs'] as const;
export type UpdatableField = (typeof UPDATABLE_FIELDS)[number];
/** Without the old document these stay as they are (spec 4.5 last row). */
const KEPT_WITHOUT_OLD: ReadonlySet<string> = new Set(['auth', 'docs']);

export interface FieldDecision<F extends string> {
  /** Fields to set to the new value. */
  update: F[];
  /** Fields the new document changed but the user's edit keeps. */
  kept: F[];
}

/**
 * Decides field by field. `old` is undefined when the old document is missing: then the
 * fields outside `KEPT_WITHOUT_OLD` take the new value. `earlier`: the old document as earlier
 * Ferry versions imported it (values they left empty); a saved value equal to it is no edit either.
 */
export function decide<F extends string>(
  fields: readonly F[],
  saved: Record<F, unknown>,
  next: Record<F, unknown>,
  old: Record<F, unknown> | undefined,
  earlier?: () => Record<F, unknown> | undefined,
): FieldDecision<F> {
  const update: F[] = [];
  const kept: F[] = [];
  for (const field of fields) {
    if (deepEqual(saved[field], next[field])) continue;
    if (old === undefined) {
      if (KEPT_WITHOUT_OLD.has(field)) kept.push(field);
      else update.push(field);
    } else if (deepEqual(saved[field], old[field]) || (earlier !== undefined && isEarlierImport(saved[field], earlier()?.[field]))) {
      update.push(field);
    } else if (!deepEqual(old[field], next[field])) {
      kept.push(field);
    }
  }
  return { update, kept };
}

function isEarlierImport(saved: unknown, earlier: unknown): boolean {
  return earlier !== undefined && deepEqual(saved, earlier);
}

/** A generated request with the model's defaults filled, comparable with a saved one. */
export function normalizeRequest(data: ImportedRequestData): RequestFile {
  const outcome = parseResource('request', data);
  if (!outcome.ok) throw new Error(`The generated request "${String(data.name)}" does not fit the format: ${outcome.problems[0]?.message}`);
  return outcome.value;
}

export function normalizeFolder(data: ImportedFolderData): FolderFile {
  const outcome = parseResource('folder', data);
  if (!outcome.ok) throw new Error(`The generated folder settings do not fit the format: ${outcome.problems[0]?.message}`);
  return outcome.value;
}
