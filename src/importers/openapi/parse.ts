/**
 * The importer's refusals over the shared document reader (openapi-document/): the size limit,
 * text that does not parse, and data that is not a Swagger 2.0, OpenAPI 3.0 or 3.1 document,
 * each an `ImportError` that says where.
 */
import {
  isObject, isYamlSyntaxError, MAX_DOCUMENT_BYTES, parseDocumentText, specVersionOf, type DocumentData, type JsonObject, type SpecVersionInfo,
} from '../../openapi-document/index.js';
import { checkDocumentDepth, detect, inputNamed, jsonSyntaxError, PASTED, startsLikeJson, tooDeepForReader, tooLarge, yamlBomb, type InputAction } from '../detect.js';
import { ImportError } from '../types.js';

export { specVersionOf };

/**
 * Parses document text. `label` names the input in messages (a file, a URL, `-`); `action` words
 * a refusal as an import's or an update's (`nothing was updated`).
 */
export function parseSpecText(text: string, label: string, action: InputAction = 'import'): DocumentData {
  // Text that came without a read limit (a paste in the app); files and downloads were stopped at 50 MB already.
  if (text.length * 3 > MAX_DOCUMENT_BYTES) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > MAX_DOCUMENT_BYTES) throw tooLarge(inputNamed(label), bytes, action);
  }
  let parsed: DocumentData;
  try {
    parsed = parseDocumentText(text, { prettyErrors: true });
  } catch (error) {
    // The YAML reader reports its own stack overflow as a syntax error at the place it gave up.
    if (/Maximum call stack/i.test((error as Error).message)) {
      throw tooDeepForReader(inputNamed(label), action);
    }
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw yamlBomb(inputNamed(label), action);
    }
    // Text that starts like JSON is JSON to its author: JSON's complaint, not the YAML reader's
    // (`Flow map in block collection …`), as an import of the same file says it.
    const json = jsonComplaint(text);
    if (json) throw jsonRefusal(label, json, action);
    if (isYamlSyntaxError(error)) {
      const pos = error.linePos?.[0];
      const where = pos ? `${label}:${pos.line}:${pos.col}` : label;
      throw new ImportError(`${where}: the document does not parse as JSON or YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}.${updated(action)}`);
    }
    throw new ImportError(`${label}: the document does not parse as JSON or YAML: ${(error as Error).message}.${updated(action)}`);
  }
  // The new version of an update is read as an import reads it: JSON-looking text by JSON's rules
  // (the YAML reader took a trailing comma that an import refuses). Kept old documents as before.
  if (action === 'update' && parsed.format !== 'json') {
    const json = jsonComplaint(text);
    if (json) throw jsonRefusal(label, json, action);
  }
  checkDocumentDepth(parsed.data, parsed.depth, label, action);
  return parsed;
}

function jsonRefusal(label: string, json: ReturnType<typeof jsonSyntaxError>, action: InputAction): ImportError {
  const where = json.line === undefined ? label : `${label}:${json.line}:${json.column}`;
  return new ImportError(`${where}: the document does not parse as JSON: ${json.what}.${updated(action)}`);
}

/** JSON.parse's complaint about text that starts like JSON (`{` or `[`), or undefined for other text. */
function jsonComplaint(text: string): ReturnType<typeof jsonSyntaxError> | undefined {
  if (!startsLikeJson(text)) return undefined;
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  try {
    JSON.parse(body);
    return undefined;
  } catch (error) {
    return jsonSyntaxError(body, error as Error);
  }
}

/** An update's refusals end saying so; an import's keep their words. */
const updated = (action: InputAction) => (action === 'update' ? ' Nothing was updated.' : '');

/**
 * The document's version, or an `ImportError` explaining what the data is instead. For an update
 * (`text`: the new version as given), a file another importer reads is named as what it is, with
 * the command that takes it: updating from a collection is a common slip.
 */
export function requireSpec(data: unknown, label: string, update?: { text: string }): { root: JsonObject; info: SpecVersionInfo } {
  const info = specVersionOf(data);
  if (!info) {
    if (isObject(data) && (data.openapi !== undefined || data.swagger !== undefined)) {
      const given = String(data.openapi ?? data.swagger);
      throw new ImportError(`${label} says it is version ${given}; Ferry imports Swagger 2.0 and OpenAPI 3.0 and 3.1 documents.${updated(update ? 'update' : 'import')}`);
    }
    if (update) throw notAnApiDocument(update.text, label);
    throw new ImportError(
      `${label} is not an OpenAPI or Swagger document: it has no \`openapi: 3.x\` or \`swagger: "2.0"\` field at the top.`,
    );
  }
  const root = data as JsonObject;
  if (root.paths !== undefined && root.paths !== null && !isObject(root.paths)) {
    throw new ImportError(`${label}: \`paths\` must be a mapping of paths to operations.`);
  }
  return { root, info };
}

const UPDATED_FROM = 'An imported folder is updated from a new version of its OpenAPI or Swagger document (JSON or YAML)';
const KINDS = { postman: 'a Postman collection', environment: 'a Postman environment export', globals: 'a Postman globals export', curl: 'a cURL command' } as const;

/** Why an update's new version is refused when it is no API document: what it is (by the importers' own detection), and what to do. */
function notAnApiDocument(text: string, label: string): ImportError {
  if (text.trim() === '') return new ImportError(`${label} is empty, so nothing was updated. ${UPDATED_FROM}: give that file, URL or text.`);
  let kind: keyof typeof KINDS | undefined;
  try {
    const detected = detect(text).kind;
    if (detected !== 'openapi') kind = detected;
  } catch {
    // Not a format any importer reads either.
  }
  if (kind) {
    const command = label === PASTED || label === 'standard input' ? 'ferry import, or Import in the app' : `ferry import ${label}`;
    return new ImportError(`${label} is ${KINDS[kind]}, not an OpenAPI or Swagger document, so nothing was updated. ${UPDATED_FROM}; to add what this file holds to the workspace, import it instead: ${command}`);
  }
  return new ImportError(
    `${label} is not an OpenAPI or Swagger document: it has no \`openapi: 3.x\` or \`swagger: "2.0"\` field at the top, so nothing was updated. ${UPDATED_FROM}: check that this is the right file.`,
  );
}
