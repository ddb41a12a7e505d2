/** Writing resources: new files whole, existing files edited in place so only changed lines change. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { serializeResource, type ResourceKind, type ResourceValue } from '../model/index.js';
import { readTextFile, writeFileAtomic } from './files.js';
import { editYaml } from './yaml-edit.js';
import { renderYaml } from './yaml-file.js';

/** The text a resource file should hold: `previous` edited when there is one, else a fresh file. */
export function resourceText<K extends ResourceKind>(kind: K, value: ResourceValue<K>, previous?: string): string {
  const data = serializeResource(kind, value);
  return previous === undefined ? renderYaml(data) : editYaml(previous, data);
}

/**
 * Saves a resource to `file` (absolute). An existing file keeps its comments, key order,
 * quoting and unknown fields; nothing is written when nothing changed.
 */
export async function saveResource<K extends ResourceKind>(file: string, kind: K, value: ResourceValue<K>): Promise<void> {
  let previous: string | undefined;
  try {
    previous = await readTextFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const text = resourceText(kind, value, previous);
  if (text === previous) return;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}
