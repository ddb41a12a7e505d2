/** Reads one YAML file of the workspace into a validated resource, or a warning saying what is wrong and where. */
import { promises as fs } from 'node:fs';
import { parse } from 'yaml';
import { formatFieldPath, parseResource, type ResourceKind, type ResourceValue } from '../model/index.js';
import { MAX_YAML_BYTES } from './files.js';
import { MAX_ALIAS_COUNT, parseYaml, positionOf } from './yaml-file.js';
import type { Warning } from './types.js';

export type ReadOutcome<K extends ResourceKind> = { ok: true; value: ResourceValue<K> } | { ok: false; warning: Warning };

/**
 * `absolute` is the file; `relative` names it in messages. The fast path uses `yaml.parse`;
 * only a file with a problem is parsed again with positions, to say on which line.
 */
export async function readResource<K extends ResourceKind>(kind: K, absolute: string, relative: string): Promise<ReadOutcome<K>> {
  let text: string;
  try {
    const stat = await fs.lstat(absolute);
    if (stat.isSymbolicLink()) return fail(relative, 'is a symbolic link; Ferry never follows links, so it was skipped.');
    if (stat.size > MAX_YAML_BYTES) {
      return fail(relative, `is ${(stat.size / 1048576).toFixed(1)} MB; YAML files over 50 MB are not read.`);
    }
    text = await fs.readFile(absolute, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return fail(relative, 'disappeared while the workspace was being read; reopen it to see the current state.');
    if (code === 'EACCES' || code === 'EPERM') return fail(relative, 'cannot be read (permission denied); check the file permissions.');
    return fail(relative, `cannot be read: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = parse(text, { version: '1.2', maxAliasCount: MAX_ALIAS_COUNT, uniqueKeys: true });
  } catch {
    const parsed = parseYaml(text);
    const error = parsed.ok ? { message: 'does not parse', line: 1, column: 1 } : parsed.error;
    return { ok: false, warning: { file: relative, line: error.line, column: error.column, message: `YAML syntax error: ${error.message}` } };
  }
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, warning: { file: relative, line: 1, column: 1, message: 'expected a mapping of fields (key: value) at the top of the file' } };
  }
  const result = parseResource(kind, data);
  if (result.ok) return result;
  const first = result.problems[0]!;
  const parsed = parseYaml(text);
  const position = parsed.ok ? positionOf(parsed.parsed, first.path) : { line: 1, column: 1 };
  const field = first.path.length > 0 ? `${formatFieldPath(first.path)}: ` : '';
  const more = result.problems.length > 1 ? ` (and ${result.problems.length - 1} more problem${result.problems.length > 2 ? 's' : ''})` : '';
  return { ok: false, warning: { file: relative, ...position, message: `${field}${first.message}${more}` } };
}

function fail(file: string, message: string): { ok: false; warning: Warning } {
  return { ok: false, warning: { file, message: `${file} ${message}` } };
}

/** `file:line:column: message`, the shape editors and terminals link. */
export function formatWarning(warning: Warning): string {
  const where = warning.line ? `${warning.file}:${warning.line}:${warning.column ?? 1}` : warning.file;
  return warning.message.startsWith(warning.file) ? warning.message : `${where}: ${warning.message}`;
}
