/**
 * What is this file? Reads an import's input (file, standard input or download) within the
 * 50 MB limit, decodes its text, and recognizes the format: a collection export v2/v2.1 (also
 * wrapped as `{"collection": …}`), a v1 collection (refused), an environment or globals export,
 * an OpenAPI/Swagger document (JSON or YAML), or a saved cURL command.
 */
import { constants as fsConstants, promises as fs, type Stats } from 'node:fs';
import { isYamlSyntaxError, MAX_YAML_ALIASES, parseDocumentText } from '../openapi-document/index.js';
import { ImportError, type ImportSource } from './types.js';
import { sizeOverLimit } from '../support/human-units.js';
import { notUtf8Name } from '../support/system-error.js';
import { jsonErrorOffset } from '../support/json-error-offset.js';
import { notRegularFile, specialFileWords } from '../workspace/tree.js';

/** Spec 8.1: import file or download size. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;

/**
 * The most a face reads of a message carrying an import's text as a JSON string (the app's calls,
 * ferry mcp's messages): a character may take up to 6 there (a quote 2, a control character 6:
 * \u0001), so a 50 MB text may arrive as 300 MB; a megabyte more for the rest of the message.
 * Past that, the text is over 50 MB whatever it holds.
 */
export const MAX_IMPORT_JSON_BYTES = 6 * MAX_IMPORT_BYTES + 1024 * 1024;

export const SUPPORTED_FORMATS =
  'Supported: collection export v2/v2.1, environment export, OpenAPI 3.x / Swagger 2.0 (JSON or YAML), cURL command.';

export type Detected =
  | { kind: 'postman'; collection: Record<string, unknown>; version: '2.0' | '2.1'; wrapped: boolean }
  | { kind: 'environment' | 'globals'; document: unknown }
  | { kind: 'openapi'; document: Record<string, unknown>; format: 'json' | 'yaml'; version: string }
  | { kind: 'curl'; text: string };

/**
 * What refused input was read for: an import, or an update of an imported folder from a new
 * version of its document. The refusals below are the one wording of both, in the action's words.
 */
export type InputAction = 'import' | 'update';

/** The label of text pasted in the app (no file name): the page sends no name for it. */
export const PASTED = 'pasted';

/** What a refusal calls an input: `The pasted text`, else `prefix` and its label (a file, a URL). */
export function inputNamed(label: string, prefix = ''): string {
  return label === PASTED ? 'The pasted text' : `${prefix}${label}`;
}

/** The end of a refusal's sentence: what did not happen. */
export function refusalOutcome(action: InputAction): string {
  return action === 'import' ? 'it was not imported' : 'nothing was updated';
}

/** `bytes`: the input's size, or undefined when it is only known to be over the limit. */
export function tooLarge(what: string, bytes: number | undefined, action: InputAction = 'import'): ImportError {
  const size = bytes === undefined ? 'over 50 MB' : sizeOverLimit(bytes, MAX_IMPORT_BYTES);
  return new ImportError(action === 'import'
    ? `${what} is ${size}; imports are limited to 50 MB. Split it, or import a smaller export.`
    : `${what} is ${size}; Ferry reads API documents up to 50 MB, so nothing was updated. Update from a smaller document (without large embedded examples, or one API per document).`);
}

export function yamlBomb(what: string, action: InputAction): ImportError {
  return new ImportError(`${what} expands YAML aliases more than ${MAX_YAML_ALIASES} times, which is how a small file becomes gigabytes (a "YAML bomb"); ${refusalOutcome(action)}.`);
}

/** The YAML reader overflowed its stack (it reports that as a syntax error where it gave up). */
export function tooDeepForReader(what: string, action: InputAction): ImportError {
  return new ImportError(`${what} nests lists and objects too deeply for the YAML reader, which no API document does; ${refusalOutcome(action)}.`);
}

/** Refuses text over the import limit, however it came (a file or a paste in the app, a tool call). */
export function checkImportSize(text: string, what: string, action: InputAction = 'import'): void {
  // UTF-8 is at most 3 bytes per UTF-16 unit: most texts need no count.
  if (text.length * 3 <= MAX_IMPORT_BYTES) return;
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_IMPORT_BYTES) throw tooLarge(what, bytes, action);
}

/** Reads a file to import: its size is checked before it is read, and it must be a regular file. */
export async function readImportFile(file: string, action: InputAction = 'import'): Promise<Buffer> {
  let stat;
  try {
    stat = await fs.lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ImportError(code === 'ENOENT' ? (withStdinHint(notUtf8Name(file)) ?? `The file ${file} does not exist.`) : `Cannot read ${file}: ${(error as Error).message}`);
  }
  const linkRefused = () => new ImportError(`${file} is a symbolic link; links are never followed. Import the file it points to.`);
  // A pipe is never opened (that waits for a writer): said as what it is, as the workspace says one.
  const notAFile = (what: Stats) => new ImportError(what.isDirectory() ? `${file} is a folder, not a file; give the file to import.` : `${notRegularFile(file, specialFileWords(what))}; give a regular file to import.`);
  if (stat.isSymbolicLink()) throw linkRefused();
  if (!stat.isFile()) throw notAFile(stat);
  if (stat.size > MAX_IMPORT_BYTES) throw tooLarge(`The file ${file}`, stat.size, action);
  // The same checks on what was opened: a link or pipe put in the file's place since lstat is
  // neither followed nor waited on (O_NOFOLLOW, O_NONBLOCK).
  const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'ELOOP' ? linkRefused() : new ImportError(`Cannot read ${file}: ${error.message}`);
  });
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw notAFile(opened);
    // Read at most one byte past the limit, in case the file grew since stat.
    const buffer = Buffer.alloc(Math.min(stat.size, MAX_IMPORT_BYTES) + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length >= buffer.length) throw tooLarge(`The file ${file}`, length, action);
    }
    return buffer.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** Reads a stream (standard input, a download body), refusing once it passes the limit. */
export async function readLimited(stream: AsyncIterable<Uint8Array | string>, what: string, action: InputAction = 'import'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    total += buf.length;
    if (total > MAX_IMPORT_BYTES) throw tooLarge(what, total, action);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

/** Text from bytes: UTF-8 (BOM dropped) or UTF-16 with a byte order mark. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return swapped.toString('utf16le');
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function refuseUnknown(subject: string | undefined, detail?: string): ImportError {
  return new ImportError(`${subject ?? 'This file'} is not a format Ferry can import${detail ? ` (${detail})` : ''}. ${SUPPORTED_FORMATS}`);
}

/**
 * What an import's refusals call its input: the file as typed, the download, standard input or
 * the pasted text, so a log of several imports says which one was refused.
 */
export function inputSubject(source: ImportSource): string {
  if (source.label === PASTED) return 'The pasted text';
  if (source.path !== undefined) return `The file ${source.label}`;
  if (source.url !== undefined) return `The download from ${source.label}`;
  return source.label === 'standard input' ? 'Standard input' : source.label;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Recognizes the format of an import's text. Throws an ImportError with the supported formats when
 * it is none; `subject` names the input in it (inputSubject), else "This file" / "The file".
 */
export function detect(text: string, subject?: string): Detected {
  const what = subject ?? 'The file';
  // Binary files (images, archives, executables) have NUL bytes or many control characters.
  const sample = text.slice(0, 4096);
  const controls = sample.match(/[\u0000-\u0008\u000e-\u001f]/g)?.length ?? 0;
  if (sample.includes('\u0000') || controls > sample.length / 20 || sample.includes('\ufffd\ufffd')) throw refuseUnknown(subject, 'it looks like binary data');
  const trimmed = text.trimStart();
  if (trimmed === '') throw new ImportError(`There is nothing to import: the input is empty. ${SUPPORTED_FORMATS}`);

  if (startsLikeJson(trimmed)) {
    let document: unknown;
    try {
      document = JSON.parse(trimmed);
    } catch (error) {
      throw new ImportError(`${what} looks like JSON but does not parse: ${describeJsonError(trimmed, error as Error)}. Is it cut short? Export it again.`);
    }
    return detectDocument(document, 'json', undefined, subject);
  }
  if (looksLikeCurl(trimmed)) return { kind: 'curl', text };
  let document: unknown;
  let depth: number | undefined;
  try {
    // As the OpenAPI reader parses: YAML 1.2, repeated keys allowed (real documents have them);
    // plain YAML through the js-yaml fast path (GitHub's 2.7 MB document: 49 against 529 ms).
    ({ data: document, depth } = parseDocumentText(text, { prettyErrors: true }));
  } catch (error) {
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw yamlBomb(what, 'import');
    }
    if (/Maximum call stack/i.test((error as Error).message)) throw tooDeepForReader(what, 'import');
    // A document that says it is OpenAPI/Swagger but does not parse: say where, not "unknown format".
    if (isYamlSyntaxError(error) && /^(openapi|swagger)\s*:/m.test(text)) {
      const pos = error.linePos?.[0];
      const where = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
      throw new ImportError(`${what} looks like an OpenAPI/Swagger YAML document but does not parse${where}: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}. Fix the YAML and import again.`);
    }
    throw refuseUnknown(subject);
  }
  if (isObject(document) && (isVersionField(document.openapi) || isVersionField(document.swagger))) {
    return detectDocument(document, 'yaml', depth, subject);
  }
  throw refuseUnknown(subject);
}

/**
 * Text that starts like JSON (`{` or `[` after spaces and a BOM) is JSON to its author: read by
 * JSON's rules only, never by the YAML reader, which would take a trailing comma. Import and update decide by this.
 */
export function startsLikeJson(text: string): boolean {
  const trimmed = text.trimStart();
  return trimmed.startsWith('{') || trimmed.startsWith('[');
}

function looksLikeCurl(text: string): boolean {
  // Line by line up to the first that says something: splitting a 3 MB document into lines
  // only to read its first one cost tens of milliseconds.
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    start = end < 0 ? text.length + 1 : end + 1;
    if (line === '' || line.startsWith('#') || line.startsWith('REM ') || line.startsWith('::')) continue;
    return /^(?:\$\s+|PS [^>]*>\s*|>\s+)?(?:sudo\s+)?curl(?:\.exe)?(?:\s|$)/i.test(line);
  }
  return false;
}

/**
 * Deeper than any real export or API document; deep enough below the stack limit that the
 * importers' own walks (and JSON.stringify of a value) never overflow.
 */
export const MAX_DOCUMENT_DEPTH = 1000;

/**
 * Whether a parsed document nests lists and objects more than `limit` levels (walked without
 * recursion; two parallel stacks, not a pair per node: a 2.7 MB document has ~100,000 objects).
 */
function nestsDeeperThan(document: unknown, limit: number): boolean {
  const values: unknown[] = [document];
  const depths: number[] = [1];
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    if (Array.isArray(value)) {
      for (const child of value) {
        if (typeof child === 'object' && child !== null) { values.push(child); depths.push(depth + 1); }
      }
      continue;
    }
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) { values.push(child); depths.push(depth + 1); }
    }
  }
  return false;
}

/**
 * Refuses a document nested deeper than MAX_DOCUMENT_DEPTH (an import's and an update's one check).
 * `depth`: how deeply the parser saw its nodes nest, when it counted (then no walk is needed to
 * know); `what` names it.
 */
export function checkDocumentDepth(document: unknown, depth: number | undefined, what = 'The file', action: InputAction = 'import'): void {
  if ((depth === undefined || depth > MAX_DOCUMENT_DEPTH) && nestsDeeperThan(document, MAX_DOCUMENT_DEPTH)) {
    throw new ImportError(`${what} nests lists and objects more than ${MAX_DOCUMENT_DEPTH.toLocaleString('en')} levels deep, which no export or API document does; ${refusalOutcome(action)}.`);
  }
}

function detectDocument(document: unknown, format: 'json' | 'yaml', depth?: number, subject?: string): Detected {
  checkDocumentDepth(document, depth, subject);
  if (Array.isArray(document)) {
    // Old globals exports are a bare list of {key, value}.
    if (document.length === 0) throw refuseUnknown(subject, 'an empty JSON list');
    if (document.every((v) => isObject(v) && 'key' in v)) return { kind: 'globals', document };
    throw refuseUnknown(subject, 'a JSON list that is not a globals export');
  }
  if (!isObject(document)) throw refuseUnknown(subject);
  if (isVersionField(document.openapi) || document.swagger !== undefined) {
    // YAML reads an unquoted `3.0` or `2.0` as a number.
    const raw = document.openapi ?? document.swagger;
    const version = typeof raw === 'number' ? raw.toFixed(1) : String(raw);
    if (!/^(2\.0|3\.\d+)/.test(version)) throw new ImportError(`This API document has version ${version}; Ferry imports OpenAPI 3.x and Swagger 2.0.`);
    return { kind: 'openapi', document, format, version };
  }
  const wrapped = isObject(document.collection) && isObject(document.collection.info);
  const collection = wrapped ? (document.collection as Record<string, unknown>) : document;
  if (isObject(collection.info)) {
    const info = collection.info;
    const schema = String(info.schema ?? info._postman_schema ?? '');
    const m = /collection\/v(\d+)\.(\d+)|#(\d+)\.(\d+)/.exec(schema);
    const major = m?.[1] ?? m?.[3];
    const minor = m?.[2] ?? m?.[4];
    if (major === '2') {
      // Without its list the import would be an empty folder, the requests silently missing.
      if (!Array.isArray(collection.item)) throw notAList(collection.item);
      return { kind: 'postman', collection, version: minor === '0' ? '2.0' : '2.1', wrapped };
    }
    if (major === '1') throw v1Refusal();
    if (major !== undefined) {
      throw new ImportError(`This collection names schema version ${major}.${minor}, which does not exist or is not supported. Export the collection as v2.1 and import again.`);
    }
    if (Array.isArray(collection.item)) return { kind: 'postman', collection, version: '2.1', wrapped };
  }
  if (Array.isArray(document.requests) && (Array.isArray(document.order) || typeof document.name === 'string')) throw v1Refusal();
  if (Array.isArray(document.item) && !Array.isArray(document.values)) {
    throw new ImportError(`This looks like a Postman collection (it has an \`item\` list) but has no \`info\` naming its schema version. ${EXPORT_AGAIN}`);
  }
  if (Array.isArray(document.values)) {
    return { kind: document._postman_variable_scope === 'globals' ? 'globals' : 'environment', document };
  }
  throw refuseUnknown(subject);
}

const isVersionField = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number';

const EXPORT_AGAIN = 'Export the collection again from Postman (Export, Collection v2.1) and import that file.';

function notAList(item: unknown): ImportError {
  const what = item === undefined ? 'missing' : item === null ? 'null' : `${typeof item === 'object' ? 'an object' : `a ${typeof item}`}, not a list`;
  return new ImportError(`This collection export has no list of requests and folders (\`item\` is ${what}), so it holds nothing to import. ${EXPORT_AGAIN}`);
}

function v1Refusal(): ImportError {
  return new ImportError('This is a collection in the old v1 format, which Ferry does not import. Export the collection again as v2.1 and import that file.');
}

function describeJsonError(text: string, error: Error): string {
  const found = jsonSyntaxError(text, error);
  return found.line === undefined ? found.what : `${found.what} at line ${found.line}, column ${found.column}`;
}

/**
 * JSON.parse's complaint about `text` in its own words, without its position, and where it is
 * (line and column from 1) when JSON.parse gives the place or it can be found.
 */
export function jsonSyntaxError(text: string, error: Error): { what: string; line?: number; column?: number } {
  const m = /position (\d+)/.exec(error.message);
  // "Unexpected end of JSON input" has no position: the problem is at the very end. A stray token
  // ("Unexpected token '}', "…" is not valid JSON") has none either: find it, the snippet finds nothing.
  const pos = m ? Number(m[1]) : /end of JSON input/i.test(error.message) ? text.length : jsonErrorOffset(text);
  if (pos === undefined) return { what: error.message.replace(/^JSON\.parse: /, '') };
  const before = text.slice(0, pos);
  const what = error.message.replace(/ in JSON at position \d+.*$/s, '').replace(/ at position \d+.*$/s, '').replace(/, .* is not valid JSON$/s, '');
  return { what, line: before.split('\n').length, column: pos - before.lastIndexOf('\n') };
}

/** The shell opens any name: the document can come in on standard input as it is. */
function withStdinHint(message: string | undefined): string | undefined {
  return message && `${message} Or give it on standard input: ferry import - < FILE.`;
}
