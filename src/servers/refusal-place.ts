/**
 * The line and column of a kind's refusal. The format checks say where in the file
 * (`servers/x.yaml:7:17: http.routes[1].status: …`); a kind refuses later, when it compiles the
 * settings, and names only the field (`servers/x.yaml: http.routes[1].status: …`). Here that field
 * path is looked up in the file, so both read alike and an editor can jump to either.
 */
import path from 'node:path';
import { parseYaml, positionOf, readSmallFile } from '../workspace/index.js';
import { ServerError } from './errors.js';

/**
 * `http.routes[1].status: …`, `dns.records[1] (b.test A): value …`, `tls.keyPath is missing`: a
 * field path, perhaps what the entry is called in parentheses, perhaps a colon and the field of
 * that entry the refusal is about.
 */
const FIELD = /^([A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\])*)(?: \([^)]*\))?(?:(:)(?: ([A-Za-z_]\w*)(?=[\s:]|$))?)?/;

/**
 * `message` with `file:line:col:` in place of `file:` when it starts with the file and a field path
 * the file holds; otherwise as it is (a refusal naming no field, a file gone or no longer parsing).
 */
export function placeRefusal(message: string, file: string, root: string): string {
  const prefix = `${file}: `;
  if (!message.startsWith(prefix)) return message;
  const rest = message.slice(prefix.length);
  const match = FIELD.exec(rest);
  if (!match) return message;
  const [, pathText, colon, child] = match;
  // One word without a colon starts a sentence (`port 4010 on 127.0.0.1 is already in use`), not a field.
  if (colon === undefined && !/[.[]/.test(pathText!)) return message;
  const fieldPath = parsePath(pathText!);
  const read = readSmallFile(path.join(root, file), file);
  if (!read.ok) return message;
  const parsed = parseYaml(read.text);
  if (!parsed.ok || !parsed.parsed.doc.hasIn(fieldPath.slice(0, 1))) return message;
  // `dns.records[1] (…): value "x" is not …`: that entry's own field, when the file has it.
  const at = child !== undefined && parsed.parsed.doc.hasIn([...fieldPath, child]) ? [...fieldPath, child] : fieldPath;
  const { line, column } = positionOf(parsed.parsed, at);
  return `${file}:${line}:${column}: ${rest}`;
}

/** `http.routes[1].status` → `['http', 'routes', 1, 'status']`, the reverse of `formatFieldPath`. */
function parsePath(text: string): (string | number)[] {
  return [...text.matchAll(/([A-Za-z_]\w*)|\[(\d+)\]/g)].map((m) => (m[2] !== undefined ? Number(m[2]) : m[1]!));
}

/** `error` with its message placed, when it is a kind's refusal; a port's (`code` set) names no field. */
export function placeServerError(error: unknown, file: string, root: string): unknown {
  if (error instanceof ServerError && error.code === undefined) error.message = placeRefusal(error.message, file, root);
  return error;
}
