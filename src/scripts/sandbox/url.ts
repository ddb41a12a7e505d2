/**
 * pm.request.url: Postman's Url over a URL as written, `{{placeholders}}` and all. An untouched
 * URL prints back exactly as given; structured changes (query, host, path) re-assemble it.
 */
import { PropertyList, type ChangeFlag, type Property } from './property-list.js';
import { rowJSON } from './postman-json.js';

interface Parts {
  protocol: string | undefined;
  auth: string | undefined;
  host: string;
  port: string | undefined;
  path: string;
  /** undefined: no `?`; [] : a bare `?`. */
  query: Property[] | undefined;
  hash: string | undefined;
}

/** Splits text at the first of `chars` outside `{{ }}`. */
function splitAt(text: string, chars: string): [string, string | undefined, string] {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('{{', i)) {
      depth++;
      i++;
    } else if (text.startsWith('}}', i) && depth > 0) {
      depth--;
      i++;
    } else if (depth === 0 && chars.includes(text[i]!)) {
      return [text.slice(0, i), text[i], text.slice(i + 1)];
    }
  }
  return [text, undefined, ''];
}

function parseQuery(text: string): Property[] {
  if (text === '') return [];
  return text.split('&').map((pair) => {
    const eq = pair.indexOf('=');
    return eq < 0 ? { key: pair, value: null } : { key: pair.slice(0, eq), value: pair.slice(eq + 1) };
  });
}

function parse(raw: string): Parts {
  let rest = raw.trim();
  let hash: string | undefined;
  const hashAt = splitAt(rest, '#');
  if (hashAt[1] !== undefined) {
    rest = hashAt[0];
    hash = hashAt[2];
  }
  let query: Property[] | undefined;
  const queryAt = splitAt(rest, '?');
  if (queryAt[1] !== undefined) {
    rest = queryAt[0];
    query = parseQuery(queryAt[2]);
  }
  let protocol: string | undefined;
  const protocolMatch = /^([A-Za-z][A-Za-z0-9+.-]*|\{\{[^{}]*\}\}):\/\//.exec(rest);
  if (protocolMatch) {
    protocol = protocolMatch[1];
    rest = rest.slice(protocolMatch[0].length);
  }
  const pathAt = splitAt(rest, '/');
  let authority = pathAt[0];
  const path = pathAt[1] === undefined ? '' : `/${pathAt[2]}`;
  let auth: string | undefined;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    auth = authority.slice(0, at);
    authority = authority.slice(at + 1);
  }
  let port: string | undefined;
  const portMatch = /:(\d*|\{\{[^{}]*\}\})$/.exec(authority);
  if (portMatch) {
    port = portMatch[1];
    authority = authority.slice(0, portMatch.index);
  }
  return { protocol, auth, host: authority, port, path, query, hash };
}

export class Url {
  private raw: string;
  private parts: Parts | undefined;
  private queryList: PropertyList | undefined;
  /** Set by any change (of the Url or its query list): an untouched Url prints what it was given. */
  private readonly edits: ChangeFlag = { changed: false };

  /** The path parameters' values (`:id` in the path), as Postman's `url.variables`; an empty list when the request has none. */
  readonly variables: PropertyList;

  constructor(raw: string, variables?: PropertyList) {
    this.raw = String(raw);
    this.variables = variables ?? new PropertyList([], false);
  }

  private get p(): Parts {
    if (!this.parts) this.parts = parse(this.raw);
    return this.parts;
  }
  private touch(): void {
    this.edits.changed = true;
  }

  get protocol(): string | undefined {
    return this.p.protocol;
  }
  set protocol(value: string | undefined) {
    this.p.protocol = value ? String(value).replace(/:\/\/$|:$/, '') : undefined;
    this.touch();
  }
  /** The host split at dots, as Postman has it. */
  get host(): string[] {
    return this.p.host === '' ? [] : splitOutside(this.p.host, '.');
  }
  set host(value: string | string[]) {
    this.p.host = Array.isArray(value) ? value.join('.') : String(value);
    this.touch();
  }
  get port(): string | undefined {
    return this.p.port;
  }
  set port(value: string | number | undefined) {
    this.p.port = value === undefined || value === '' ? undefined : String(value);
    this.touch();
  }
  get path(): string[] {
    return this.p.path === '' ? [] : splitOutside(this.p.path.slice(1), '/');
  }
  set path(value: string | string[]) {
    const text = Array.isArray(value) ? value.join('/') : String(value);
    this.p.path = text === '' ? '' : text.startsWith('/') ? text : `/${text}`;
    this.touch();
  }
  get hash(): string | undefined {
    return this.p.hash;
  }
  set hash(value: string | undefined) {
    this.p.hash = value === undefined ? undefined : String(value);
    this.touch();
  }
  get auth(): { user: string; password: string } | undefined {
    if (this.p.auth === undefined) return undefined;
    const colon = this.p.auth.indexOf(':');
    return colon < 0 ? { user: this.p.auth, password: '' } : { user: this.p.auth.slice(0, colon), password: this.p.auth.slice(colon + 1) };
  }
  get query(): PropertyList {
    if (!this.queryList) {
      if (!this.p.query) this.p.query = [];
      this.queryList = new PropertyList(this.p.query, false, this.edits);
    }
    return this.queryList;
  }

  getHost(): string {
    return this.p.host;
  }
  getRemote(forcePort = false): string {
    const port = this.p.port ?? (forcePort ? (this.p.protocol === 'https' ? '443' : '80') : undefined);
    return port === undefined ? this.p.host : `${this.p.host}:${port}`;
  }
  getPath(unresolved?: boolean): string {
    void unresolved;
    return this.p.path === '' ? '/' : this.p.path;
  }
  getQueryString(): string {
    return this.queryItems()
      .filter((q) => !q.disabled)
      .map((q) => (q.value === null || q.value === undefined ? q.key : `${q.key}=${String(q.value)}`))
      .join('&');
  }
  getPathWithQuery(): string {
    const query = this.getQueryString();
    return query === '' ? this.getPath() : `${this.getPath()}?${query}`;
  }
  addQueryParams(params: string | Property[] | Property): void {
    const items = typeof params === 'string' ? parseQuery(params.replace(/^\?/, '')) : Array.isArray(params) ? params : [params];
    for (const item of items) this.query.add(item);
  }
  removeQueryParams(params: string | string[] | Property[]): void {
    const keys = (Array.isArray(params) ? params : [params]).map((p) => (typeof p === 'string' ? p : p.key));
    this.query.remove((item) => keys.includes(item.key));
  }
  /** Replaces the whole URL. */
  update(raw: string): void {
    this.raw = String(raw);
    this.parts = undefined;
    this.queryList = undefined;
    this.edits.changed = false;
  }

  private queryItems(): Property[] {
    return this.queryList ? this.queryList.all() : (this.p.query ?? []);
  }

  toString(): string {
    if (!this.edits.changed) return this.raw;
    const p = this.p;
    let out = p.protocol !== undefined ? `${p.protocol}://` : '';
    if (p.auth !== undefined) out += `${p.auth}@`;
    out += p.host;
    if (p.port !== undefined) out += `:${p.port}`;
    out += p.path;
    const query = this.queryItems();
    if (p.query !== undefined && (query.length > 0 || this.queryList === undefined)) out += `?${this.getQueryString()}`;
    if (p.hash !== undefined) out += `#${p.hash}`;
    return out;
  }
  /**
   * Postman's Url.toJSON (postman-collection), so a script that logs or signs
   * `JSON.stringify(pm.request.url)` gets Newman's structure: its keys in Postman's order, a part
   * the URL lacks left out, `query` and `variable` always there (the path's `:name` parameters,
   * with the value Ferry has for each).
   */
  toJSON(): Record<string, unknown> {
    const p = this.p;
    const out: Record<string, unknown> = {};
    if (p.auth !== undefined) {
      const colon = p.auth.indexOf(':');
      out.auth = colon < 0 ? { user: p.auth } : { user: p.auth.slice(0, colon), password: p.auth.slice(colon + 1) };
    }
    if (p.protocol !== undefined) out.protocol = p.protocol;
    if (p.port !== undefined) out.port = p.port;
    if (p.path !== '') out.path = this.path;
    if (p.hash !== undefined) out.hash = p.hash;
    if (p.host !== '') out.host = this.host;
    out.query = this.queryItems().map((q) => rowJSON(q));
    out.variable = this.variableJSON();
    return out;
  }

  /** The path parameters Ferry has values for, then any other `:name` of the path, as Postman lists them. */
  private variableJSON(): Record<string, unknown>[] {
    const listed = this.variables.all().map((v) => ({ type: 'any', value: v.value, key: v.key }));
    const seen = new Set(listed.map((v) => v.key));
    for (const segment of this.path) {
      // Postman's parsePathVariable: `:name`, up to a `.` (`:file.json` names `file`).
      const name = segment.startsWith(':') ? segment.slice(1).split('.')[0] : '';
      if (name && !seen.has(name)) {
        seen.add(name);
        listed.push({ type: 'any', key: name } as (typeof listed)[number]);
      }
    }
    return listed;
  }
}

/** `text` split at `separator` outside `{{ }}`, as Postman keeps `{{a.b}}` one host label. */
function splitOutside(text: string, separator: string): string[] {
  const out: string[] = [];
  let rest = text;
  for (;;) {
    const [before, found, after] = splitAt(rest, separator);
    out.push(before);
    if (found === undefined) return out;
    rest = after;
  }
}
