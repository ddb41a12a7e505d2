/**
 * The body of a curl command: `-d` and friends, `--json`, `-F`, `-T`, turned into one of the
 * format's body types (spec 2.5, 4.6).
 */
import type { ImportedRequestData } from '../types.js';

type BodyData = NonNullable<ImportedRequestData['body']>;

/** One data argument as given: its kind decides how `@` and encoding are read. */
export interface DataArg {
  kind: 'data' | 'ascii' | 'binary' | 'raw' | 'urlencode' | 'json';
  value: string;
}

/** A piece of the joined data: literal text, or a file curl would read. */
export type DataPiece = { text: string } | { file: string; kind: DataArg['kind']; name?: string };

/** curl's --data-urlencode encoding: unreserved characters stay, space becomes `+`, the rest %XX. */
export function curlUrlEncode(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(c)) out += c;
    else if (c === ' ') out += '+';
    else out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

/** Splits one data argument into pieces, reading `@file` the way curl does for its kind. */
export function dataPieces(arg: DataArg): DataPiece[] {
  const { kind, value } = arg;
  if (kind === 'raw') return [{ text: value }];
  if (kind === 'urlencode') {
    const eq = value.indexOf('=');
    const at = value.indexOf('@');
    if (at >= 0 && (eq < 0 || at < eq)) {
      const name = value.slice(0, at);
      return [{ file: value.slice(at + 1), kind, ...(name ? { name } : {}) }];
    }
    if (eq < 0) return [{ text: curlUrlEncode(value) }];
    const name = value.slice(0, eq);
    return [{ text: (name ? name + '=' : '') + curlUrlEncode(value.slice(eq + 1)) }];
  }
  if (value.startsWith('@')) return [{ file: value.slice(1), kind }];
  // `-d` (not --data-binary) strips line ends when reading files only; inline text is sent as typed.
  return [{ text: value }];
}

/** Joins data arguments as curl does: `&` between them, except `--json` parts which are concatenated. */
export function joinData(args: DataArg[]): DataPiece[] {
  const pieces: DataPiece[] = [];
  args.forEach((arg, index) => {
    if (index > 0 && !(arg.kind === 'json' && args[index - 1]!.kind === 'json')) pieces.push({ text: '&' });
    pieces.push(...dataPieces(arg));
  });
  return pieces;
}

export function piecesToText(pieces: DataPiece[]): string {
  return pieces.map((p) => ('text' in p ? p.text : (p.name ? `${p.name}=` : '') + '@' + p.file)).join('');
}

/** Rows of a clean `application/x-www-form-urlencoded` text, or undefined when it is not one. */
export function parseFormText(text: string): { key: string; value: string }[] | undefined {
  if (text === '') return [];
  const rows: { key: string; value: string }[] = [];
  for (const pair of text.split('&')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) return undefined;
    try {
      rows.push({ key: formDecode(pair.slice(0, eq)), value: formDecode(pair.slice(eq + 1)) });
    } catch {
      return undefined;
    }
  }
  return rows;
}

function formDecode(s: string): string {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

function looksLikeJson(text: string): boolean {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

const GRAPHQL_KEYS = new Set(['query', 'variables', 'operationName', 'extensions']);

/** A JSON body that is exactly a GraphQL request, sent to `/graphql` or starting like a GraphQL document. */
export function graphqlBody(text: string, url: string): BodyData | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const obj = parsed as Record<string, unknown>;
  if (typeof obj.query !== 'string' || !Object.keys(obj).every((k) => GRAPHQL_KEYS.has(k))) return undefined;
  if (obj.operationName !== undefined && obj.operationName !== null && typeof obj.operationName !== 'string') return undefined;
  const path = url.split(/[?#]/)[0]!.replace(/\/+$/, '');
  const startsLikeGraphql = /^\s*(query|mutation|subscription|fragment)\b|^\s*\{/.test(obj.query);
  if (!/\/graphql$/i.test(path) && !startsLikeGraphql) return undefined;
  const variables = obj.variables === undefined || obj.variables === null ? '' : JSON.stringify(obj.variables, null, 2);
  return {
    type: 'graphql',
    graphql: { query: obj.query, variables, operationName: typeof obj.operationName === 'string' ? obj.operationName : '' },
  };
}

/**
 * The body for joined data text, chosen by the Content-Type header (spec 4.6): JSON, XML or form
 * data; JSON-looking data without Content-Type becomes JSON (with a note); other types stay text.
 */
export function dataBody(text: string, contentType: string | undefined, isJsonOption: boolean, url: string, notes: string[]): BodyData {
  const ct = contentType?.toLowerCase().trim();
  let type: 'json' | 'xml' | 'form' | 'text';
  if (ct === undefined || ct === '') {
    if (isJsonOption) type = 'json';
    else if (looksLikeJson(text)) {
      type = 'json';
      const what = graphqlBody(text, url) ? 'a GraphQL body (sent as JSON)' : 'a JSON body';
      notes.push(`The data looks like JSON but the command sets no Content-Type (curl would send it as form data); it was imported as ${what}.`);
    } else type = 'form';
  } else if (/[/+]json\b|\bjson$/.test(ct)) type = 'json';
  else if (/[/+]xml\b/.test(ct)) type = 'xml';
  else if (ct.startsWith('application/x-www-form-urlencoded')) type = 'form';
  else type = 'text';

  if (type === 'json') return graphqlBody(text, url) ?? { type: 'json', text };
  if (type === 'xml') return { type: 'xml', text };
  if (type === 'form') {
    const rows = parseFormText(text);
    if (rows) return { type: 'formUrlencoded', form: rows };
    return { type: 'text', text, contentType: 'application/x-www-form-urlencoded' };
  }
  return { type: 'text', text, contentType: contentType!.trim() };
}

export interface FormPart {
  key: string;
  value: string;
  file: boolean;
  contentType?: string;
}

/**
 * One `-F` argument: `name=value`, `name=@file`, `name=<file`, with `;type=`, `;filename=`,
 * `;headers=` after it, and values in double quotes. `--form-string` takes the value literally.
 */
export function parseFormArg(arg: string, literal: boolean, notes: string[]): FormPart | undefined {
  const eq = arg.indexOf('=');
  if (eq < 0) {
    notes.push(`The form field "${arg}" has no "=" and was skipped.`);
    return undefined;
  }
  const key = arg.slice(0, eq);
  let rest = arg.slice(eq + 1);
  if (literal) return { key, value: rest, file: false };
  let mode: 'text' | 'file' | 'content' = 'text';
  if (rest.startsWith('@')) { mode = 'file'; rest = rest.slice(1); }
  else if (rest.startsWith('<')) { mode = 'content'; rest = rest.slice(1); }
  let value: string;
  let params = '';
  if (rest.startsWith('"')) {
    let i = 1;
    value = '';
    while (i < rest.length && rest[i] !== '"') {
      if (rest[i] === '\\' && (rest[i + 1] === '"' || rest[i + 1] === '\\')) i++;
      value += rest[i];
      i++;
    }
    params = rest.slice(i + 1);
  } else {
    const m = /;\s*(type|filename|headers|encoder)=/i.exec(rest);
    value = m ? rest.slice(0, m.index) : rest;
    params = m ? rest.slice(m.index) : '';
  }
  let contentType: string | undefined;
  // A `;` starts the next setting only before a setting name: `type=text/plain; charset=utf-8`
  // is one type, as curl reads it.
  for (const param of params.split(/;(?=\s*(?:type|filename|headers|encoder)=)/i).map((p) => p.trim().replace(/^;\s*/, '')).filter(Boolean)) {
    const [name, ...v] = param.split('=');
    const paramValue = v.join('=').replace(/^"(.*)"$/, '$1');
    if (name!.toLowerCase() === 'type') contentType = paramValue;
    else if (name!.toLowerCase() === 'filename') notes.push(`The file name "${paramValue}" given for form field "${key}" is not kept; the file's own name is sent.`);
    else notes.push(`The form field "${key}" sets ${name}=, which is not imported.`);
  }
  if (mode === 'content') {
    notes.push(`Form field "${key}" took its value from the file ${value}; it was imported as a file field.`);
  }
  return { key, value, file: mode !== 'text', ...(contentType ? { contentType } : {}) };
}
