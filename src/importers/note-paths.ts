/**
 * An importer's notes name items by their display path (`Shop/Upload`); the writer may file the
 * top folder under another name (`Shop 2` when `Shop` is taken, `A-B` for `A/B`). The notes are
 * moved onto the folder the files really went to, so they point at what the user can open.
 */

/** `renamed`: each top folder's display name and the folder name it was written as. */
export function notesAtWrittenPaths(notes: readonly string[], renamed: ReadonlyArray<{ display: string; written: string }>): string[] {
  const moves = renamed.filter((r) => r.display !== r.written);
  if (moves.length === 0) return [...notes];
  // A path starts a note or follows a space, quote or bracket; a longer display name is tried first (`A/B` before `A`).
  const byLength = [...moves].sort((a, b) => b.display.length - a.display.length);
  const pattern = new RegExp(`(^|[\\s"'(\\[])(${byLength.map((m) => escapeRegExp(`${m.display}/`)).join('|')})`, 'g');
  const written = new Map(moves.map((m) => [`${m.display}/`, `${m.written}/`]));
  return notes.map((note) => note.replace(pattern, (_all, before: string, path: string) => `${before}${written.get(path)}`));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
