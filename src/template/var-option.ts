/** The command line's `--var key=value` (spec 1.8, 8.2): a value that wins over every other definition. */
import { unusableKeyProblem } from '../support/placeholder-syntax.js';

export class VarOptionError extends Error {
  override name = 'VarOptionError';
}

/** Reads one `--var` value: the key is everything before the first `=`, the value everything after. */
export function parseVarOption(text: string): { key: string; value: string } {
  const eq = text.indexOf('=');
  const example = 'for example --var baseUrl=http://localhost:3000';
  if (eq < 0) {
    throw new VarOptionError(`--var expects key=value, ${example}; got "${shorten(text)}" (no "=").`);
  }
  const key = text.slice(0, eq);
  const value = text.slice(eq + 1);
  if (key === '') {
    throw new VarOptionError(`--var expects key=value, ${example}; got "${shorten(text)}" (the key before "=" is empty).`);
  }
  // The rule of every variable key (support/placeholder-syntax.ts), in the same words as a save's.
  const unusable = unusableKeyProblem(key);
  if (unusable) throw new VarOptionError(`--var "${shorten(text)}": the key ${unusable}; write the bare name, ${example}.`);
  return { key, value };
}

/** Reads repeated `--var` values; when a key is given twice, the last one counts. */
export function parseVarOptions(texts: readonly string[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const text of texts) {
    const { key, value } = parseVarOption(text);
    values.set(key, value);
  }
  return values;
}

function shorten(text: string): string {
  const oneLine = text.replace(/[\r\n]+/g, ' ');
  return oneLine.length > 60 ? `${oneLine.slice(0, 60)}…` : oneLine;
}
