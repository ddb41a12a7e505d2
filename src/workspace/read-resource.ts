/** Reads one YAML file of the workspace into a validated resource, or a warning saying what is wrong and where. */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { formatFieldPath, parseFolderSummary, parseRequestSummary, parseResource, type FieldProblem, type FolderSummary, type RequestSummary, type ResourceKind, type ResourceValue } from '../model/index.js';
import { MAX_YAML_BYTES } from './files.js';
import { MAX_ALIAS_COUNT, parseYaml, positionOf, type YamlSyntaxError } from './yaml-file.js';
import { checkDisplayName, MAX_NAME_LENGTH } from './names.js';
import { notUtf8Name } from '../support/system-error.js';
import type { Warning } from './types.js';
import type { WarningCode } from './warning-code.js';
import { yamlLibrary as yaml } from '../support/yaml-library.js';
import { loadPlainYaml } from '../support/plain-yaml.js';
import { sizeOverLimit } from '../support/human-units.js';
import { unusableKeyProblem } from '../support/placeholder-syntax.js';
import { numberAsTextWarning, quoteHint } from './number-text-warning.js';

/** Read, possibly with a warning about something kept as written (a request or folder name out of 2.1.4's bounds). */
export type ReadOutcome<K extends ResourceKind> = { ok: true; value: ResourceValue<K>; warning?: Warning } | { ok: false; warning: Warning };

/**
 * `absolute` is the file; `relative` names it in messages. Only a file with a problem is parsed
 * again with positions, to say on which line.
 */
export async function readResource<K extends ResourceKind>(kind: K, absolute: string, relative: string): Promise<ReadOutcome<K>> {
  return readResourceSync(kind, absolute, relative);
}

/**
 * The synchronous form, for opening a workspace: thousands of small files read with a few
 * syscalls each are several times faster than the promise API's thread-pool round trips.
 */
export function readResourceSync<K extends ResourceKind>(kind: K, absolute: string, relative: string): ReadOutcome<K> {
  return readParsedSync(kind, absolute, relative, (data) => parseResource(kind, data)) as ReadOutcome<K>;
}

/** A request file read as `readResourceSync` reads it (same warnings), keeping only its summary (`ferry ls`). */
export function readRequestSummarySync(absolute: string, relative: string): ReadOutcomeOf<RequestSummary> {
  return readParsedSync('request', absolute, relative, parseRequestSummary);
}

/** A `_folder.yaml` read as `readResourceSync` reads it (same warnings), keeping only its name and `seq` (`ferry ls`). */
export function readFolderSummarySync(absolute: string, relative: string): ReadOutcomeOf<FolderSummary> {
  return readParsedSync('folder', absolute, relative, parseFolderSummary);
}

export type ReadOutcomeOf<T> = { ok: true; value: T; warning?: Warning } | { ok: false; warning: Warning };
export type Parse<T> = (data: unknown) => { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

function readParsedSync<T>(kind: ResourceKind, absolute: string, relative: string, parse: Parse<T>): ReadOutcomeOf<T> {
  const read = readSmallFile(absolute, relative);
  return read.ok ? outcomeOfText(kind, read.text, relative, parse) : read;
}

/** What a file's text gives: its value, or the warning saying what is wrong and where. Depends on nothing but its arguments. */
export function outcomeOfText<T>(kind: ResourceKind, text: string, relative: string, parse: Parse<T>): ReadOutcomeOf<T> {
  const fast = parseYamlData(text);
  if (!fast.ok) {
    const { error } = fast;
    return { ok: false, warning: { file: relative, line: error.line, column: error.column, message: `YAML syntax error: ${error.message}${blockScalarHint(error.message, text, error.line)}` } };
  }
  let data = fast.data;
  if (data === null || data === undefined) data = {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, warning: { file: relative, line: 1, column: 1, message: 'expected a mapping of fields (key: value) at the top of the file' } };
  }
  const result = parse(data);
  if (result.ok) {
    // The keys from the data, not the value: a listing's value is a summary without the variables.
    const warning = nameWarning(kind, data as object, result.value, text, relative) ?? variableKeyWarning(data, text, relative) ?? numberAsTextWarning(kind, text, data, relative);
    return warning ? { ...result, warning } : result;
  }
  const first = result.problems[0]!;
  const parsed = parseYaml(text);
  const position = parsed.ok ? positionOf(parsed.parsed, first.path) : { line: 1, column: 1 };
  // A text field holding `.inf` (a number to YAML) says how to keep it as typed.
  const said = (p: FieldProblem) => `${p.path.length > 0 ? `${formatFieldPath(p.path)}: ` : ''}${p.message}${parsed.ok ? quoteHint(parsed.parsed, p.path, p.message) : ''}`;
  const others = result.problems.length - 1;
  if (others === 0) return { ok: false, warning: { file: relative, ...position, message: said(first) } };
  // The message names the first; the warning keeps every one, and says where they are listed.
  const more = ` (and ${others} more problem${others > 1 ? 's' : ''}: \`ferry ls --problems\` lists every one)`;
  return { ok: false, warning: { file: relative, ...position, message: `${said(first)}${more}`, problems: result.problems.map(said) } };
}

/**
 * A hand-edited name that is empty or over 200 characters (spec 2.1.5) is read as written, with a
 * warning like any other file problem: refusing the file would hide the request (or environment,
 * server…), and the app and `ferry mv` refuse such names when they write. A missing one is read as
 * empty (2.1.1: missing fields take their defaults), and the warning says it is missing.
 */
function nameWarning(kind: ResourceKind, data: object, value: unknown, text: string, relative: string): Warning | undefined {
  const name = (value as { name?: unknown }).name;
  if (kind === 'folder' && name === undefined) return undefined; // the folder's own file name is its name
  if (!('name' in data)) return { file: relative, line: 1, column: 1, message: `name: the field is missing; give a name of 1 to ${MAX_NAME_LENGTH} characters (name: …). The file is read as it is.` };
  const problem = checkDisplayName(name);
  if (!problem) return undefined;
  const parsed = parseYaml(text);
  const position = parsed.ok ? positionOf(parsed.parsed, ['name']) : { line: 1, column: 1 };
  return { file: relative, ...position, message: `name: ${problem} The file is read as it is.` }; // the problem says what to give
}

/**
 * A hand-edited variable key no placeholder can name (a line break, `{{` or `}}` in it) is read as
 * written, with a warning saying which and what to do: refusing the file would hide its other
 * variables; the app refuses such keys when it saves.
 */
function variableKeyWarning(value: unknown, text: string, relative: string): Warning | undefined {
  const variables = (value as { variables?: unknown }).variables;
  if (!Array.isArray(variables)) return undefined;
  for (const [i, v] of variables.entries()) {
    const key = String((v as { key?: unknown } | null)?.key ?? '');
    // An empty key is a blank row (the app drops those on save), not a misnamed variable.
    const problem = key === '' ? undefined : unusableKeyProblem(key);
    if (!problem) continue;
    const parsed = parseYaml(text);
    const position = parsed.ok ? positionOf(parsed.parsed, ['variables', i, 'key']) : { line: 1, column: 1 };
    return { file: relative, ...position, message: `variables[${i}].key: ${problem}. The variable is read as it is; rename it (the app's variable editor refuses such keys).` };
  }
  return undefined;
}

/**
 * Text to data. Opening a workspace parses thousands of small files: plain ones go through
 * js-yaml (support/plain-yaml.ts), anything fancier through `yaml` with its alias-expansion bound;
 * a syntax error is reported with `yaml`'s message and position. Every edit uses `yaml`'s CST.
 */
export function parseYamlData(text: string): { ok: true; data: unknown } | { ok: false; error: YamlSyntaxError } {
  const plain = loadPlainYaml(text, { uniqueKeys: true });
  if (plain) return { ok: true, data: plain.data };
  try {
    // logLevel: a tag yaml cannot resolve (`!!float 1`) leaves the text as written; said by Node on stderr it is noise in a run's output.
    return { ok: true, data: yaml().parse(text, { version: '1.2', maxAliasCount: MAX_ALIAS_COUNT, uniqueKeys: true, logLevel: 'error' }) };
  } catch {
    const parsed = parseYaml(text);
    return { ok: false, error: parsed.ok ? { message: 'does not parse', line: 1, column: 1 } : parsed.error };
  }
}

/** Reads a file without following a link (O_NOFOLLOW) and without reading one over the size limit. */
export function readSmallFile(absolute: string, relative: string): { ok: true; text: string } | { ok: false; warning: Warning } {
  let fd: number;
  try {
    // Non-blocking: a named pipe swapped in after the tree listed a file would block the open until a writer came.
    fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return fail(relative, 'is a symbolic link; Ferry never follows links, so it was skipped.', 'symlink');
    const notUtf8 = code === 'ENOENT' ? notUtf8Name(relative) : undefined;
    if (notUtf8) return { ok: false, warning: { file: relative, message: notUtf8, code: 'unreadable', namesFile: true } };
    if (code === 'ENOENT') return fail(relative, 'disappeared while the workspace was being read; reopen it to see the current state.', 'unreadable');
    if (code === 'EACCES' || code === 'EPERM') return fail(relative, 'cannot be read (permission denied); check the file permissions.', 'unreadable');
    return fail(relative, `cannot be read: ${(error as Error).message}`, 'unreadable');
  }
  try {
    // Most files fit the shared buffer: one read, no fstat, no buffer of their own. A read that
    // comes back short has reached the end (a regular file; the tree reads nothing else).
    const first = readSync(fd, READ_BUFFER, 0, READ_BUFFER.length, 0);
    if (first < READ_BUFFER.length) return { ok: true, text: READ_BUFFER.toString('utf8', 0, first) };
    const size = fstatSync(fd).size;
    if (size > MAX_YAML_BYTES) return fail(relative, `is ${sizeOverLimit(size, MAX_YAML_BYTES)}; YAML files over 50 MB are not read.`, 'too-large');
    const buffer = Buffer.allocUnsafe(size);
    let offset = 0;
    while (offset < size) {
      const n = readSync(fd, buffer, offset, size - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    return { ok: true, text: buffer.toString('utf8', 0, offset) };
  } catch (error) {
    return fail(relative, `cannot be read: ${(error as Error).message}`, 'unreadable');
  } finally {
    closeSync(fd);
  }
}

/** Reused by every synchronous read (one at a time: nothing yields between the read and the decoding). */
const READ_BUFFER = Buffer.allocUnsafe(64 * 1024);

function fail(file: string, message: string, code: WarningCode): { ok: false; warning: Warning } {
  return { ok: false, warning: { file, message: `${file} ${message}`, code, namesFile: true } };
}

/**
 * What to do when a plain value starts with `>` or `|` (a load test's `op: >=`): YAML reads it as
 * the header of a block of text, and its own message says nothing of quoting.
 */
function blockScalarHint(message: string, text: string, line: number): string {
  if (!/block scalar/i.test(message)) return '';
  const source = text.split('\n')[line - 1] ?? '';
  const field = /([A-Za-z_$][\w$-]*)\s*:\s*([>|][^\s,}\]#]*)/.exec(source);
  const example = field ? ` (${field[1]}: "${field[2]}")` : '';
  return `; in YAML a value that starts with > or | begins a block of text; quote it${example}`;
}
