/**
 * The keys a list of variables may not be saved with, in one place for every writer of variables
 * (the app's variable editor, an environment copied by the app or `ferry env new --copy-of`):
 * a key no placeholder can name, and two enabled rows of one key. Reading a hand-edited file only
 * warns (workspace/read-resource.ts): refusing it would hide its other variables.
 */
import { unusableKeyProblem } from '../support/placeholder-syntax.js';

export interface VariableKeyProblem {
  /** The row's index in the list. */
  index: number;
  /** What is wrong and what to do, without the row's place (`variables[i].key`) or a final period. */
  message: string;
}

/** The first row whose key cannot be saved, or undefined. Rows without a key are blank rows, not variables. */
export function variableKeyProblem(rows: ReadonlyArray<{ key: string; enabled?: boolean }>): VariableKeyProblem | undefined {
  const firstEnabled = new Map<string, number>();
  for (const [index, { key, enabled }] of rows.entries()) {
    if (key === '') continue;
    // Defined but never usable: refused, not saved with a warning.
    const unusable = unusableKeyProblem(key);
    if (unusable) return { index, message: `${unusable}; rename the variable` };
    // Two enabled rows of one key: only the first is used (run-variables.ts), the other's value is
    // silently never seen. One enabled beside disabled ones (values to switch between) is fine.
    if (enabled === false) continue;
    const first = firstEnabled.get(key);
    if (first !== undefined) {
      return { index, message: `${JSON.stringify(key)} is also the key of variables[${first}], and both are enabled: only the first would be used. Remove one, or untick Enabled on one of them (enabled: false in the file)` };
    }
    firstEnabled.set(key, index);
  }
  return undefined;
}
