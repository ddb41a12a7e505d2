/** A secret variable's value belongs in this computer's secret store; one written in a file is ignored, with a warning (spec 2.10). */
import type { Variable } from '../model/index.js';
import type { Warning } from './types.js';

/** The keys of the secret variables that have a value in the file. */
export function secretValueKeys(variables: readonly Variable[]): string[] {
  return variables.filter((variable) => variable.secret && variable.value !== '').map((variable) => variable.key);
}

/** One warning per key (`secretValueKeys`) of the file `fileLabel`. */
export function warnSecretValues(fileLabel: string, keys: readonly string[], warnings: Warning[]): void {
  for (const key of keys) {
    warnings.push({
      file: fileLabel,
      message: `${fileLabel}: the secret variable "${key}" has a value in the file. Ferry ignores it (secret values come from this computer's secret store); remove it from the file, and from your git history if it is real.`,
      namesFile: true,
    });
  }
}
