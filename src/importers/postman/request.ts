/** One collection item (a request) to a request file (spec 4.2). */
import { findPlaceholders } from '../../support/placeholder-syntax.js';
import type { ImportedRequestData } from '../types.js';
import { mapAuth } from './auth.js';
import { addGrouped, collectScripts, type ScriptContext, type GroupedNotes } from './scripts.js';

type Obj = Record<string, unknown>;
type Row = { key: string; value: string; enabled?: boolean; description?: string };
type Body = NonNullable<ImportedRequestData['body']>;

/** Saved response bodies above this are dropped (spec 8.1). */
export const MAX_EXAMPLE_BODY_BYTES = 1024 * 1024;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));

export function description(v: unknown): string {
  if (isObj(v)) return text(v.content);
  return text(v);
}

function rows(list: unknown): Row[] {
  if (!Array.isArray(list)) return [];
  const out: Row[] = [];
  for (const entry of list) {
    if (!isObj(entry)) continue;
    const row: Row = { key: text(entry.key), value: text(entry.value) };
    if (entry.disabled === true || entry.enabled === false) row.enabled = false;
    const d = description(entry.description);
    if (d) row.description = d;
    out.push(row);
  }
  return out;
}

/** v2.0 also allows headers as one text block of `Name: value` lines. */
function headerRows(header: unknown): Row[] {
  if (typeof header === 'string') {
    return header.split(/\r?\n/).filter((l) => l.includes(':')).map((l) => {
      const i = l.indexOf(':');
      return { key: l.slice(0, i).trim(), value: l.slice(i + 1).trim() };
    });
  }
  return rows(header);
}

/**
 * A query key or value as Postman writes it into the URL (postman-collection's QueryParam):
 * `&` and `#`, and `=` in a key, percent-encoded outside `{{variables}}` so they stay inside
 * their parameter (`b#a&r` is one key, not a key and a fragment). Tabs and line breaks are
 * encoded too: Postman sends them so, while a URL parser would drop them.
 */
function queryPart(part: string, isKey: boolean): string {
  const reserved = isKey ? /[&#=\t\n\r]/g : /[&#\t\n\r]/g;
  const encode = (s: string) => s.replace(reserved, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  let out = '';
  let at = 0;
  for (const p of findPlaceholders(part)) {
    out += encode(part.slice(at, p.start)) + part.slice(p.start, p.end);
    at = p.end;
  }
  return out + encode(part.slice(at));
}

interface UrlParts {
  url: string;
  disabledParams: Row[];
  paramDescriptions: Row[];
  pathParams: Row[];
}

function mapUrl(url: unknown): UrlParts {
  const parts: UrlParts = { url: '', disabledParams: [], paramDescriptions: [], pathParams: [] };
  if (typeof url === 'string') {
    parts.url = url;
    return parts;
  }
  if (!isObj(url)) return parts;
  // Postman itself sends the structured parts (host, path, query...) and ignores `raw` when they
  // are there: a `raw` left stale by an edit, or still holding a parameter switched off in
  // `query`, must not decide what is sent. `raw` is used only when there are no parts.
  const structured = url.host !== undefined || url.path !== undefined;
  let raw = structured ? '' : text(url.raw);
  if (!raw) {
    const host = Array.isArray(url.host) ? url.host.map(text).join('.') : text(url.host);
    const path = Array.isArray(url.path) ? url.path.map((s) => (isObj(s) ? text(s.value) : text(s))).join('/') : text(url.path).replace(/^\//, '');
    // `auth: {user, password}` is the user information before the host (`user:password@`).
    const auth = isObj(url.auth) && url.auth.user !== undefined ? `${text(url.auth.user)}${url.auth.password !== undefined ? `:${text(url.auth.password)}` : ''}@` : '';
    raw = (url.protocol ? `${text(url.protocol).replace(/:(\/\/)?$/, '')}://` : '') + auth + host + (url.port ? `:${text(url.port)}` : '') + (path ? `/${path}` : '');
    // Only the enabled parameters; `?a` (no value) and `?a=` (empty value) differ, as in Postman.
    const query = (Array.isArray(url.query) ? url.query : [])
      .filter((q): q is Obj => isObj(q) && q.disabled !== true && q.enabled !== false)
      .map((q) => (q.value === undefined || q.value === null ? queryPart(text(q.key), true) : `${queryPart(text(q.key), true)}=${queryPart(text(q.value), false)}`));
    if (query.length > 0) raw += `?${query.join('&')}`;
    if (url.hash) raw += `#${text(url.hash)}`;
  }
  // `raw` holds the URL as typed with the enabled parameters only; disabled ones live apart.
  for (const q of rows(url.query)) {
    const { enabled, ...row } = q;
    if (enabled === false) parts.disabledParams.push(row);
    else if (q.description) parts.paramDescriptions.push({ key: q.key, value: '', description: q.description });
  }
  parts.url = raw;
  parts.pathParams = rows(url.variable).map(({ enabled: _e, ...r }) => r);
  return parts;
}

const RAW_LANGUAGES: Record<string, { type: 'json' | 'xml' | 'text'; contentType?: string }> = {
  json: { type: 'json' }, xml: { type: 'xml' }, html: { type: 'text', contentType: 'text/html' },
  javascript: { type: 'text', contentType: 'application/javascript' }, text: { type: 'text' },
};

function mapBody(body: unknown, headers: Row[], where: string, notes: string[], files: string[]): Body | undefined {
  const mapped = mapBodyMode(body, headers, where, notes, files);
  // A body switched off in Postman (`disabled: true`) is not sent: its data is kept, its type is none.
  return mapped && isObj(body) && body.disabled === true ? { ...mapped, type: 'none' } : mapped;
}

function mapBodyMode(body: unknown, headers: Row[], where: string, notes: string[], files: string[]): Body | undefined {
  if (!isObj(body) || !body.mode) return undefined;
  const mode = String(body.mode);
  switch (mode) {
    case 'raw': {
      const raw = text(body.raw);
      const options = isObj(body.options) && isObj(body.options.raw) ? body.options.raw : {};
      let lang = RAW_LANGUAGES[text(options.language)];
      if (!lang) {
        const ct = headers.find((h) => h.key.toLowerCase() === 'content-type' && h.enabled !== false)?.value.toLowerCase() ?? '';
        lang = /json/.test(ct) ? { type: 'json' } : /xml/.test(ct) ? { type: 'xml' } : ct ? { type: 'text', contentType: ct } : { type: 'text' };
      }
      return { type: lang.type, text: raw, ...(lang.contentType ? { contentType: lang.contentType } : {}) };
    }
    case 'urlencoded':
      return { type: 'formUrlencoded', form: rows(body.urlencoded) };
    case 'formdata': {
      const parts = [];
      for (const entry of Array.isArray(body.formdata) ? body.formdata : []) {
        if (!isObj(entry)) continue;
        const isFile = entry.type === 'file';
        let value = isFile ? entry.src : entry.value;
        // A file field with several files (Postman's multiple select) is sent as one part per file,
        // all under the field's name, as postman-runtime sends it: one row each, nothing dropped.
        const values: unknown[] = isFile && Array.isArray(value) && value.length > 1 ? value : [Array.isArray(value) ? value[0] : value];
        if (!isFile && Array.isArray(value) && value.length > 1) notes.push(`${where}: form field "${text(entry.key)}" had ${value.length} values; only the first was kept.`);
        for (value of values) {
          if (isFile) files.push(`${where} (form field "${text(entry.key)}"${value ? `: ${text(value)}` : ''})`);
          parts.push({
            key: text(entry.key),
            value: text(value),
            ...(isFile ? { file: true } : {}),
            ...(entry.contentType ? { contentType: text(entry.contentType) } : {}),
            ...(entry.disabled === true ? { enabled: false } : {}),
          });
        }
      }
      return { type: 'multipart', multipart: parts };
    }
    case 'file': {
      const src = isObj(body.file) ? text(body.file.src) : '';
      files.push(`${where} (binary body${src ? `: ${src}` : ''})`);
      return { type: 'binary', ...(src ? { file: src } : {}) };
    }
    case 'graphql': {
      const g = isObj(body.graphql) ? body.graphql : {};
      const variables = typeof g.variables === 'string' ? g.variables : g.variables ? JSON.stringify(g.variables, null, 2) : '';
      return { type: 'graphql', graphql: { query: text(g.query), variables, ...(g.operationName ? { operationName: text(g.operationName) } : {}) } };
    }
    default:
      notes.push(`${where}: body mode "${mode}" is not supported; the body was left empty.`);
      return undefined;
  }
}

/** Methods postman-runtime sends without their body unless `disableBodyPruning` is on. */
const PRUNED_METHODS = new Set(['GET', 'HEAD', 'COPY', 'PURGE', 'UNLOCK']);

/**
 * A body Postman would not send gets type none, its data kept (spec 2.5: only the type decides
 * what is sent). postman-runtime sends no body when it is empty (no text, no form row switched
 * on) and none with GET, HEAD, COPY, PURGE or UNLOCK unless `disableBodyPruning` is on for the
 * request, a folder above it or the collection. Ferry sends whatever body a request's type
 * names, so a GET would otherwise carry a body, and its Content-Type, the collection never sent.
 */
function bodyAsPostmanSends(body: Body | undefined, method: string, keepBodies: boolean, where: string, grouped: GroupedNotes): Body | undefined {
  if (!body || body.type === 'none') return body;
  const on = (rows: { enabled?: boolean }[] | undefined) => (rows ?? []).some((r) => r.enabled !== false);
  const empty = body.type === 'formUrlencoded' ? !on(body.form) : body.type === 'multipart' ? !on(body.multipart) : body.type === 'json' || body.type === 'xml' || body.type === 'text' ? !body.text : false;
  if (empty) return { ...body, type: 'none' };
  if (PRUNED_METHODS.has(method) && !keepBodies) {
    addGrouped(grouped, 'Postman sends no body with GET, HEAD, COPY, PURGE or UNLOCK unless the request setting disableBodyPruning is on, so these bodies were kept but not sent (type none; choose a body type to send one)', where);
    return { ...body, type: 'none' };
  }
  return body;
}

/** `disableBodyPruning` of a request, folder or collection, else what the level above said. */
export function keepsBodies(behavior: unknown, inherited: boolean): boolean {
  return isObj(behavior) && typeof behavior.disableBodyPruning === 'boolean' ? behavior.disableBodyPruning : inherited;
}

const PROFILE_SETTINGS: Record<string, 'followRedirects' | 'maxRedirects' | 'verifyTls'> = {
  followRedirects: 'followRedirects', maxRedirects: 'maxRedirects', strictSSL: 'verifyTls',
};

export type ImportedSettings = NonNullable<ImportedRequestData['settings']>;

/**
 * `protocolProfileBehavior` of a request, folder or collection to request settings. Keys Ferry
 * has no setting for are collected by key (one note each for the whole import, not one per
 * request: real exports put `disableBodyPruning` on every GET).
 */
export function mapSettings(behavior: unknown, where: string, skipped: GroupedNotes): ImportedSettings | undefined {
  if (!isObj(behavior)) return undefined;
  const settings: Record<string, unknown> = {};
  const skip = (head: string, place: string) => addGrouped(skipped, head, place);
  for (const [key, value] of Object.entries(behavior)) {
    // Not a setting: it decides whether GET and the like keep their body (bodyAsPostmanSends).
    if (key === 'disableBodyPruning' && (typeof value === 'boolean' || value === null || value === undefined)) continue;
    const field = PROFILE_SETTINGS[key];
    if (key === 'disableBodyPruning') { skip(`The request setting ${key} is not imported where it is not true or false`, `${where} (${JSON.stringify(value)})`); continue; }
    if (!field) { skip(`The request setting ${key} is not imported (Ferry has no such setting)`, where); continue; }
    if (value === null || value === undefined) continue; // unset: the application setting applies
    if (field === 'maxRedirects') {
      // A count: a number, or digits in a string. `true`, `-1`, `3.5`, `1e+31` are not counts.
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
      if (Number.isInteger(n) && n >= 0 && n <= 1000) settings.maxRedirects = n;
      else skip(`The request setting ${key} is not imported where it is not a count from 0 to 1000`, `${where} (${JSON.stringify(value)})`);
    } else if (typeof value === 'boolean') settings[field] = value;
    else skip(`The request setting ${key} is not imported where it is not true or false`, `${where} (${JSON.stringify(value)})`);
  }
  return Object.keys(settings).length > 0 ? settings : undefined;
}

function mapExamples(responses: unknown, where: string, notes: string[]): NonNullable<ImportedRequestData['examples']> {
  if (!Array.isArray(responses)) return [];
  return responses.filter(isObj).map((r) => {
    const body = text(r.body);
    const tooBig = Buffer.byteLength(body, 'utf8') > MAX_EXAMPLE_BODY_BYTES;
    if (tooBig) notes.push(`${where}: the body of saved response "${text(r.name)}" is over 1 MB and was left out.`);
    const code = Number(r.code);
    return {
      name: text(r.name) || 'Example',
      ...(Number.isInteger(code) && code >= 0 && code <= 999 ? { status: code } : {}),
      headers: headerRows(r.header).map(({ enabled: _e, ...h }) => h),
      ...(body && !tooBig ? { body } : {}),
    };
  });
}

/**
 * `inherited`: settings of the folders and collection above, which the request's own override;
 * `keepBodies`: their `disableBodyPruning`.
 */
export function mapRequest(item: Obj, name: string, where: string, ctx: ScriptContext, inherited?: ImportedSettings, keepBodies = false): ImportedRequestData {
  const { notes } = ctx;
  const req = isObj(item.request) ? item.request : typeof item.request === 'string' ? { url: item.request } : {};
  const method = text(req.method).toUpperCase() || 'GET';
  const url = mapUrl(req.url);
  const headers = headerRows(req.header);
  const body = bodyAsPostmanSends(mapBody(req.body, headers, where, notes, ctx.files), method, keepsBodies(item.protocolProfileBehavior, keepBodies), where, ctx.grouped);
  const auth = mapAuth(req.auth, where, ctx);
  const scripts = collectScripts(item.event, where, ctx);
  const own = mapSettings(item.protocolProfileBehavior, where, ctx.grouped);
  const settings = inherited || own ? { ...inherited, ...own } : undefined;
  // The schema allows a description on the item as well as on the request: keep both.
  const docs = [...new Set([description(item.description), description(req.description)].filter(Boolean))].join('\n\n');
  const examples = mapExamples(item.response, where, notes);
  return {
    name,
    method,
    url: url.url,
    ...(url.disabledParams.length ? { disabledParams: url.disabledParams } : {}),
    ...(url.pathParams.length ? { pathParams: url.pathParams } : {}),
    ...(url.paramDescriptions.length ? { paramDescriptions: url.paramDescriptions } : {}),
    ...(headers.length ? { headers } : {}),
    ...(body ? { body } : {}),
    ...(auth ? { auth: auth as ImportedRequestData['auth'] } : {}),
    ...(settings ? { settings } : {}),
    ...(scripts ? { scripts } : {}),
    ...(docs ? { docs } : {}),
    ...(examples.length ? { examples } : {}),
  };
}
