/**
 * Spec 2.1.5: a name is at most 200 characters. A longer one in an export (a collection's,
 * folder's, request's or environment's) is cut to 200, and a note says so, so the cut is seen.
 */
import { MAX_NAME_LENGTH } from '../workspace/index.js';

export function withinNameLimit(name: string, notes: string[]): string {
  const chars = [...name];
  if (chars.length <= MAX_NAME_LENGTH) return name;
  notes.push(`The name "${chars.slice(0, 40).join('')}…" was longer than ${MAX_NAME_LENGTH} characters and was cut.`);
  return chars.slice(0, MAX_NAME_LENGTH).join('');
}
