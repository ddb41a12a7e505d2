import { escapedChar } from './terminal-text.js';

/**
 * Control characters and bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069):
 * refused in names Ferry saves (workspace/names.ts), but a hand-edited file can still hold them.
 * On the page an override reorders what follows (`\u202Elmay.exe` shows as `exe.yaml`), so a name
 * could pass for another; a line feed or tab in a one-line label hides where the name ends.
 */
const HIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A display name as the page shows it: each such character visibly escaped (`\u202e`, `\n`). */
export function shownName(name: string): string {
  return name.replace(HIDDEN_IN_NAMES, escapedChar);
}
