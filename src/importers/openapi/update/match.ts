/**
 * Which saved request belongs to which operation of the new document. By `openapi.operation`
 * text first; a request whose text is gone from the document then matches an operation that
 * differs only in parameter names (`/pets/{id}` → `/pets/{petId}`). Each request matches one
 * operation at most, so a document with two such look-alike paths updates each request once.
 */
import type { RequestFile } from '../../../model/index.js';
import { operationKey } from '../names.js';

export interface SavedRequest {
  /** Request path relative to `requests/`. */
  path: string;
  request: RequestFile;
}

export function matchOperations<Op extends { operation: string }>(saved: SavedRequest[], ops: Op[]): { matches: Map<Op, SavedRequest[]>; unmatched: SavedRequest[] } {
  const byText = group(saved, (s) => s.request.openapi?.operation);
  const texts = new Set(ops.map((op) => op.operation));
  const byKey = group(
    saved.filter((s) => !texts.has(String(s.request.openapi?.operation))),
    (s) => operationKey(String(s.request.openapi?.operation)),
  );
  const matches = new Map<Op, SavedRequest[]>();
  const claimed = new Set<SavedRequest>();
  for (const op of ops) {
    const exact = byText.get(op.operation);
    if (exact) {
      matches.set(op, exact);
      exact.forEach((s) => claimed.add(s));
    }
  }
  for (const op of ops) {
    if (matches.has(op)) continue;
    const similar = (byKey.get(operationKey(op.operation)) ?? []).filter((s) => !claimed.has(s));
    if (similar.length === 0) continue;
    matches.set(op, similar);
    similar.forEach((s) => claimed.add(s));
  }
  return { matches, unmatched: saved.filter((s) => !claimed.has(s)) };
}

/** The old document's operation a saved request was made from: same text, else same shape. */
export function oldOperationFinder<Op extends { operation: string }>(oldOps: Op[]): (savedText: string, nextText: string) => Op | undefined {
  const byText = new Map(oldOps.map((op) => [op.operation, op]));
  const byKey = new Map<string, Op>();
  for (const op of oldOps) if (!byKey.has(operationKey(op.operation))) byKey.set(operationKey(op.operation), op);
  return (savedText, nextText) => byText.get(savedText) ?? byText.get(nextText) ?? byKey.get(operationKey(savedText));
}

function group<T>(items: T[], keyOf: (item: T) => string | undefined): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    if (key === undefined) continue;
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}
