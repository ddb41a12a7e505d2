/**
 * Where a field of a load test file is, for the problems found when the test starts (stages,
 * thresholds): `file:line:column`, as formatWarning places the format's own problems, so editors
 * and terminals link it.
 */
import path from 'node:path';
import { parseYaml, positionOf, readTextFile } from '../workspace/index.js';

export type FieldPlace = (field: Array<string | number>) => string;

/**
 * Reads `file` (relative to `root`; never through a link) once; its placer gives the field at a
 * path, or its nearest parent present. The file alone when it cannot be read or parsed again.
 */
export async function fieldPlacer(root: string, file: string): Promise<FieldPlace> {
  const text = await readTextFile(path.join(root, file)).catch(() => undefined);
  const parsed = text === undefined ? undefined : parseYaml(text);
  if (!parsed?.ok) return () => file;
  return (field) => {
    const { line, column } = positionOf(parsed.parsed, field);
    return `${file}:${line}:${column}`;
  };
}
