/** Writing resources: new files whole, existing files edited in place so only changed lines change. */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deepEqual, formatFieldPath, isPlainObject, parseResource, serializeResource, type ResourceKind, type ResourceValue } from '../model/index.js';
import { FORMAT_VERSION, newerFormatProblem } from '../model/constants.js';
import { sizeOverLimit } from '../support/human-units.js';
import { MAX_YAML_BYTES, readTextFile, writeFileAtomic } from './files.js';
import { editYaml } from './yaml-edit.js';
import { parseYaml, renderYaml } from './yaml-file.js';

/** The text a resource file should hold: `previous` edited when there is one, else a fresh file. */
export function resourceText<K extends ResourceKind>(kind: K, value: ResourceValue<K>, previous?: string): string {
  const data = serializeResource(kind, value);
  // Nothing left to write (a folder whose settings were all cleared): no `{}`, only the file's opening comments.
  if (isPlainObject(data) && Object.keys(data).length === 0) return previous === undefined ? '' : openingComments(previous);
  if (previous === undefined) return renderYaml(data);
  const parsed = parseYaml(previous);
  const written = parsed.ok ? keepExplicitDefaults(parsed.parsed.data, data, value) : data;
  return editYaml(previous, written);
}

/** The comment lines a YAML text opens with (blank lines between them kept, trailing ones not), with its line ends. */
function openingComments(text: string): string {
  const lines = text.split(/(?<=\n)/);
  let end = 0;
  for (let i = 0; i < lines.length && /^\s*(#.*)?\r?\n?$/.test(lines[i]!); i++) if (lines[i]!.trim() !== '') end = i + 1;
  const kept = lines.slice(0, end).join('');
  return kept === '' || kept.endsWith('\n') ? kept : `${kept}\n`;
}

/**
 * A field the user wrote out at its default (`enabled: true`), or left empty (`url:`), is omitted
 * by the writer; when its value did not change, keep it, so saving does not delete lines nobody edited.
 */
function keepExplicitDefaults(original: unknown, written: unknown, full: unknown): unknown {
  if (Array.isArray(original) && Array.isArray(written) && Array.isArray(full) && original.length === written.length) {
    return written.map((item, i) => keepExplicitDefaults(original[i], item, full[i]));
  }
  if (!isPlainObject(original) || !isPlainObject(written) || !isPlainObject(full)) return written;
  // Written order decides where new keys are inserted; kept keys already stand in the file.
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(written)) out[key] = keepExplicitDefaults(original[key], written[key], full[key]);
  for (const key of Object.keys(original)) {
    if (key in written) continue;
    // `url:` left empty (null) reads as the default; while the value is still the default, keep the line.
    if ((full[key] !== undefined && deepEqual(original[key], full[key])) || original[key] === null) out[key] = original[key];
  }
  return out;
}

export interface SaveOptions {
  /**
   * A last change to the text about to be written (the server editor puts its section back as
   * typed, comments and all); kept only when the file then reads as the value saved, exactly.
   */
  retouch?: (text: string) => string | undefined;
}

/** Refuses a value that would not read back as a `kind` (named `fileName` in the message), before anything is written. */
export function checkResourceValue(fileName: string, kind: ResourceKind, value: unknown): void {
  const check = parseResource(kind, value);
  if (!check.ok) {
    const problem = check.problems[0]!;
    const field = problem.path.length > 0 ? `${formatFieldPath(problem.path)}: ` : '';
    throw new Error(`Not saved: ${fileName} would not be valid (${field}${problem.message}).`);
  }
}

/**
 * Saves a resource to `file` (absolute). An existing file keeps its comments, key order,
 * quoting and unknown fields; nothing is written when nothing changed.
 */
export async function saveResource<K extends ResourceKind>(file: string, kind: K, value: ResourceValue<K>, options: SaveOptions = {}): Promise<void> {
  // Never write a file that would not read back: a caller's bad value is refused, the old file kept.
  checkResourceValue(path.basename(file), kind, value);
  let previous: string | undefined;
  try {
    previous = await readTextFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // A ferry.yaml a newer Ferry wrote since it was read (a git pull under the running app) is never
  // written over: this Ferry's fields would downgrade it and drop what it doesn't know.
  if (kind === 'workspace' && previous !== undefined) {
    const current = parseYaml(previous);
    const newer = current.ok ? newerFormatProblem(current.parsed.data) : undefined;
    if (newer !== undefined) throw new Error(`Not saved: ${newer}`);
  }
  // A ferry.yaml read without its version (read as this format's, open.ts) gets the line at its first write.
  if (kind === 'workspace' && (value as ResourceValue<'workspace'>).version === undefined) value = { ...value, version: FORMAT_VERSION };
  let text = resourceText(kind, value, previous);
  const retouched = options.retouch?.(text);
  if (retouched !== undefined && readsAs(kind, retouched, value)) text = retouched;
  if (text === previous) return;
  // Nor one too big to read back (spec 8.1): it would vanish from the workspace, the old file kept.
  const tooLarge = yamlTooLarge(path.basename(file), text);
  if (tooLarge) throw new Error(`Not saved: ${tooLarge}`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, text);
}

/**
 * Why `text` cannot be written as the YAML file `name` (spec 8.1: files over 50 MB are not read,
 * so it would vanish from the workspace), or undefined when it can. Saves and imports refuse it.
 */
export function yamlTooLarge(name: string, text: string): string | undefined {
  const bytes = Buffer.byteLength(text);
  if (bytes <= MAX_YAML_BYTES) return undefined;
  return `${name} would be ${sizeOverLimit(bytes, MAX_YAML_BYTES)}, and YAML files over 50 MB are not read. Keep large bodies in a file beside it (a binary body) instead.`;
}

/** Whether `text` reads back as `value` (what the writer would write for both is the same). */
function readsAs<K extends ResourceKind>(kind: K, text: string, value: ResourceValue<K>): boolean {
  const parsed = parseYaml(text);
  if (!parsed.ok) return false;
  const read = parseResource(kind, parsed.parsed.data);
  return read.ok && deepEqual(serializeResource(kind, read.value as ResourceValue<K>), serializeResource(kind, value));
}
