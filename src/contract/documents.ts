/**
 * Reading kept documents for one run: each is parsed once and reused while its file is
 * unchanged (keyed by absolute path, modification time and size).
 */
import { detectDialect, MAX_DOCUMENT_BYTES, OpenApiDocument, parseDocumentText as readDocumentText } from '../openapi-document/index.js';
import { closeSync, constants, openSync, readFileSync } from 'node:fs';
import { locateDocument } from './document-path.js';
import { SchemaChecker } from './schema-check.js';
import { FileTooLargeError, readFileNoFollow } from '../support/read-no-follow.js';

/** A document ready for checks, with its checker (which caches schema views across responses). */
export interface LoadedDocument {
  document: OpenApiDocument;
  checker: SchemaChecker;
}

export type DocumentLoad = { ok: true; loaded: LoadedDocument } | { ok: false; reason: string };

/** Parses document text: JSON when it looks like JSON, else YAML 1.2. Throws with the parser's message. */
export function parseDocumentText(text: string): unknown {
  return readDocumentText(text).data;
}

/** Builds a checkable document from parsed text, or says why it is not one. */
export function documentFromValue(value: unknown, label: string): DocumentLoad {
  const dialect = detectDialect(value);
  if (dialect === undefined) return { ok: false, reason: `${label} is not an OpenAPI 3.0/3.1 or Swagger 2.0 document` };
  const document = new OpenApiDocument(value as Record<string, unknown>, dialect);
  return { ok: true, loaded: { document, checker: new SchemaChecker(document) } };
}

/**
 * Reads a kept document at once (a mock server compiles its settings synchronously), with the
 * same path rules as the check: inside the workspace folder, no symbolic link, at most 50 MB.
 */
export function loadDocumentSync(workspaceRoot: string, relativePath: string): DocumentLoad {
  const located = locateDocument(workspaceRoot, relativePath);
  if (!located.ok) return located;
  if (located.size > MAX_DOCUMENT_BYTES) return { ok: false, reason: `the document ${relativePath} is larger than 50 MB` };
  let text: string;
  try {
    // Non-blocking: a named pipe swapped in since the check above must not block the open until a writer comes.
    const fd = openSync(located.absolutePath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
    try {
      text = readFileSync(fd, 'utf8');
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    return { ok: false, reason: `the document ${relativePath} cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` };
  }
  return documentFromText(text, relativePath);
}

/** A document's text parsed and checked, or why not (the same words for the sync and async loads). */
function documentFromText(text: string, relativePath: string): DocumentLoad {
  let value: unknown;
  try {
    value = parseDocumentText(text);
  } catch (error) {
    return { ok: false, reason: `the document ${relativePath} does not parse: ${(error as Error).message}` };
  }
  return documentFromValue(value, `the document ${relativePath}`);
}

export class ContractDocuments {
  private readonly cache = new Map<string, Promise<DocumentLoad>>();
  /** How many times a file was actually read and parsed (for tests and diagnostics). */
  parses = 0;

  /** @param workspaceRoot the workspace folder; document paths are relative to it. */
  constructor(readonly workspaceRoot: string) {}

  /** The document at `relativePath` (e.g. `specs/petstore.yaml`), parsed at most once per version of the file. */
  async load(relativePath: string): Promise<DocumentLoad> {
    const located = locateDocument(this.workspaceRoot, relativePath);
    if (!located.ok) return located;
    if (located.size > MAX_DOCUMENT_BYTES) {
      return { ok: false, reason: `the document ${relativePath} is larger than 50 MB` };
    }
    const key = `${located.absolutePath}\0${located.mtimeMs}\0${located.size}`;
    let pending = this.cache.get(key);
    if (pending === undefined) {
      pending = this.read(located.absolutePath, relativePath);
      this.cache.set(key, pending);
    }
    return pending;
  }

  private async read(absolutePath: string, relativePath: string): Promise<DocumentLoad> {
    this.parses++;
    let text: string;
    try {
      text = await readFileNoFollow(absolutePath, 'utf8', MAX_DOCUMENT_BYTES);
    } catch (error) {
      if (error instanceof FileTooLargeError) return { ok: false, reason: `the document ${relativePath} is larger than 50 MB` };
      return { ok: false, reason: `the document ${relativePath} cannot be read (${(error as Error).message})` };
    }
    return documentFromText(text, relativePath);
  }
}
