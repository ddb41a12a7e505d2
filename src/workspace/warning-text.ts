/** How a file problem reads on a terminal. Needs no schema: a warm `ferry ls` prints warnings without loading the model. */
import type { Warning } from './types.js';

/**
 * `file:line:column: message`, the shape editors and terminals link; a message that names its file
 * itself (`namesFile`) as it is. The app's page prints the warnings it is sent with this too.
 */
export function formatWarning(warning: Warning): string {
  if (warning.namesFile) return warning.message;
  const where = warning.line ? `${warning.file}:${warning.line}:${warning.column ?? 1}` : warning.file;
  return `${where}: ${warning.message}`;
}

/** Whether `warning` names fields the format does not have (kept, never read: `unknownFieldsWarning`), not a problem that stops a file. */
export function isUnknownFieldsWarning(warning: Warning): boolean {
  return warning.code === 'unknown-fields';
}
