/**
 * The three-way rule of spec 4.5: a field takes the new document's value only where the saved
 * value still equals what the old document gave; otherwise the user's edit stays.
 */
import { deepEqual, parseResource, type FolderFile, type RequestFile } from '../../../model/index.js';
import { isGeneratedPlaceholder } from '../../../openapi-document/index.js';
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
 * fields outside `KEPT_WITHOUT_OLD` take the new value. `imported`: whether a saved value that
 * differs from `old` is still what an import wrote (an earlier Ferry version's), so no edit either.
 */
export function decide<F extends string>(
  fields: readonly F[],
  saved: Record<F, unknown>,
  next: Record<F, unknown>,
  old: Record<F, unknown> | undefined,
  imported?: (field: F, saved: unknown) => boolean,
): FieldDecision<F> {
  const update: F[] = [];
  const kept: F[] = [];
  for (const field of fields) {
    if (deepEqual(saved[field], next[field])) continue;
    if (old === undefined) {
      if (KEPT_WITHOUT_OLD.has(field)) kept.push(field);
      else update.push(field);
    } else if (deepEqual(saved[field], old[field]) || imported?.(field, saved[field]) === true) {
      update.push(field);
    } else if (!deepEqual(old[field], next[field])) {
      kept.push(field);
    }
  }
  return { update, kept };
}

/**
 * Whether a saved JSON body is the generated `old` body as an earlier Ferry generated it: the same
 * fields and list lengths throughout, and where a value differs the saved one is a placeholder the
 * generator makes up (`"string"`, `0`, `true`…, see `isGeneratedPlaceholder`). A value of your own,
 * a field added or removed, or a body that is not JSON is an edit.
 */
export function sameGeneratedBody(saved: unknown, old: unknown): boolean {
  const savedBody = saved as { type?: unknown; text?: unknown } | undefined;
  const oldBody = old as { type?: unknown; text?: unknown } | undefined;
  if (savedBody?.type !== 'json' || oldBody?.type !== 'json') return false;
  return deepEqual({ ...savedBody, text: '' }, { ...oldBody, text: '' }) && sameGeneratedJson(savedBody.text, oldBody.text);
}

/** `sameGeneratedBody` for JSON texts (a mock route's body). */
export function sameGeneratedJson(saved: unknown, old: unknown): boolean {
  if (typeof saved !== 'string' || typeof old !== 'string') return false;
  let savedValue: unknown;
  let oldValue: unknown;
  try {
    savedValue = JSON.parse(saved);
    oldValue = JSON.parse(old);
  } catch {
    return false;
  }
  const budget = { left: 100_000 };
  return sameUpToPlaceholders(savedValue, oldValue, budget);
}

function sameUpToPlaceholders(saved: unknown, old: unknown, budget: { left: number }): boolean {
  if (--budget.left < 0) return false;
  if (deepEqual(saved, old)) return true;
  const savedIsValue = saved === null || typeof saved !== 'object';
  const oldIsValue = old === null || typeof old !== 'object';
  if (savedIsValue || oldIsValue) return savedIsValue && oldIsValue && isGeneratedPlaceholder(saved);
  if (Array.isArray(saved) !== Array.isArray(old)) return false;
  if (Array.isArray(saved)) {
    const others = old as unknown[];
    return saved.length === others.length && saved.every((item, index) => sameUpToPlaceholders(item, others[index], budget));
  }
  const savedObject = saved as Record<string, unknown>;
  const oldObject = old as Record<string, unknown>;
  const keys = Object.keys(savedObject);
  if (keys.length !== Object.keys(oldObject).length) return false;
  return keys.every((key) => Object.hasOwn(oldObject, key) && sameUpToPlaceholders(savedObject[key], oldObject[key], budget));
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
