/**
 * Mock-route matching (spec 2.11, 8.2), compiled once per route when the server starts or its file
 * changes: method, path pattern (`:name` or `{name}` = one segment, a parameter with literal text
 * around it inside one segment such as `{Sid}.json`, a trailing `*` = the rest), `matchQuery`,
 * `matchHeaders` (empty value = any value) and `matchBody` (contains). Match values are templates
 * of the `mock.match` place: variables and dynamic values, never request values.
 */
import { segmentParts, type KeyValue, type MockRoute, type SegmentPart } from '../../../model/index.js';
import { compile, decodeQueryPart, type Template, type VariableScope } from '../../../template/index.js';

export interface PathPattern {
  /** Matches a request path (without query, not decoded); returns the raw parameters or null. */
  match(path: string): Record<string, string> | null;
  /** True for a pattern with no parameter and no `*`. */
  readonly literal: boolean;
}

/** Compiles a route path. A trailing slash on the request is ignored (`/users/` matches `/users`). */
export function compilePath(pattern: string): PathPattern {
  let rest: 'none' | 'segment' | 'glued' = 'none';
  let body = pattern;
  if (body.endsWith('/*')) {
    rest = 'segment';
    body = body.slice(0, -2);
  } else if (body.endsWith('*')) {
    rest = 'glued';
    body = body.slice(0, -1);
  }
  const names: string[] = [];
  const source = body
    .split('/')
    .map((segment) => {
      const parts = segmentParts(segment);
      if (parts === undefined) return escapeRegExp(segment);
      // A whole-segment parameter takes the segment; one with text around it, the least it can.
      const group = parts.length === 1 ? '([^/]+)' : '([^/]+?)';
      return parts.map((part) => (typeof part === 'string' ? escapeRegExp(part) : (names.push(part.param), group))).join('');
    })
    .join('/');
  if (rest === 'none' && names.length === 0) {
    const exact = trimSlash(body);
    return { literal: true, match: (path) => (trimSlash(path) === exact ? {} : null) };
  }
  if (rest === 'none') return segmentPattern(body.split('/'));
  let regexSource: string;
  if (rest === 'segment') {
    regexSource = `^${source}(?:/(.*))?$`;
    names.push('*');
  } else if (rest === 'glued') {
    regexSource = `^${source}(.*)$`;
    names.push('*');
  } else {
    regexSource = source === '' ? '^/$' : `^${source}/?$`;
  }
  const regex = new RegExp(regexSource, 's');
  // A name used twice takes its first segment: the later groups are skipped (decided once, here).
  const groups = names.map((name, i) => (names.indexOf(name) === i ? i + 1 : 0));
  return {
    literal: false,
    match(path) {
      const found = regex.exec(path);
      if (found === null) return null;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) {
        const group = groups[i]!;
        if (group !== 0) params[names[i]!] = found[group] ?? '';
      }
      return params;
    },
  };
}

/**
 * A pattern of segments, some of them parameters, matched by walking the path segment by segment:
 * what the regular expression `^/a/([^/]+)/?$` would match, without its result array. A literal
 * segment never holds `/` and a parameter takes one non-empty segment, so there is one way to
 * match. Only a segment with literal text around its parameters (`{Sid}.json`) uses a regular
 * expression, on that segment alone.
 */
function segmentPattern(segments: string[]): PathPattern {
  const parts = segments.map(segmentParts);
  const names = parts.map((found) => (found?.length === 1 ? (found[0] as { param: string }).param : undefined));
  const inner = parts.map((found) => (found !== undefined && found.length > 1 ? innerPattern(found) : undefined));
  // A name used twice takes its first segment: per segment, whether each of its parts is a first.
  const seen = new Set<string>();
  const first = parts.map((found) =>
    (found ?? []).map((part) => {
      if (typeof part === 'string' || seen.has(part.param)) return false;
      seen.add(part.param);
      return true;
    }),
  );
  const keep = first.map((flags) => flags[0] === true);
  return {
    literal: false,
    match(path) {
      let params: Record<string, string> | null = null;
      let at = 0;
      for (let i = 0; i < segments.length; i++) {
        if (i > 0) {
          if (path.charCodeAt(at) !== SLASH) return null;
          at++;
        }
        const name = names[i];
        if (name === undefined) {
          const around = inner[i];
          if (around !== undefined) {
            let end = path.indexOf('/', at);
            if (end < 0) end = path.length;
            const found = around.regex.exec(path.slice(at, end));
            if (found === null) return null;
            params ??= {};
            for (let g = 0; g < around.names.length; g++) if (first[i]![around.at[g]!]) params[around.names[g]!] = found[g + 1]!;
            at = end;
            continue;
          }
          const literal = segments[i]!;
          if (!path.startsWith(literal, at)) return null;
          at += literal.length;
          continue;
        }
        let end = path.indexOf('/', at);
        if (end < 0) end = path.length;
        if (end === at) return null;
        params ??= {};
        if (keep[i]) params[name] = path.slice(at, end);
        at = end;
      }
      // One trailing slash is allowed (`/users/1/` matches `/users/:id`).
      if (at !== path.length && !(at === path.length - 1 && path.charCodeAt(at) === SLASH)) return null;
      return params ?? {};
    },
  };
}

/** A segment with literal text around its parameters, as a regular expression on that segment; each parameter takes the least it can. */
function innerPattern(parts: SegmentPart[]): { regex: RegExp; names: string[]; at: number[] } {
  const names: string[] = [];
  const at: number[] = [];
  const source = parts.map((part, index) => (typeof part === 'string' ? escapeRegExp(part) : (names.push(part.param), at.push(index), '(.+?)'))).join('');
  return { regex: new RegExp(`^${source}$`, 's'), names, at };
}

const SLASH = 0x2f;

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A `matchQuery` / `matchHeaders` row: the name, and the value to equal (undefined = any value). */
interface Condition {
  name: string;
  value: Template | undefined;
}

/** What one incoming request offers to the conditions; each part is read once, only when asked. */
export class RequestFacts {
  #query: Map<string, string[]> | undefined;
  #body: string | undefined;

  constructor(
    readonly url: string,
    readonly rawHeaders: readonly string[],
    private readonly bodyBytes: Buffer | undefined,
  ) {}

  queryValues(name: string): string[] | undefined {
    this.#query ??= parseAllQuery(this.url);
    return this.#query.get(name);
  }

  headerValues(lowerName: string): string[] {
    const out: string[] = [];
    const raw = this.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (raw[i]!.toLowerCase() === lowerName) out.push(raw[i + 1]!);
    }
    // HTTP/2 sends the host as the `:authority` pseudo-header.
    if (out.length === 0 && lowerName === 'host') return this.headerValues(':authority');
    return out;
  }

  get body(): string {
    this.#body ??= this.bodyBytes === undefined ? '' : this.bodyBytes.toString('utf8');
    return this.#body;
  }
}

export interface RouteConditions {
  /** Upper-case method, or undefined for `*`. */
  method: string | undefined;
  path: PathPattern;
  /** True when checking needs the request body. */
  needsBody: boolean;
  /** True when the route has query, header or body conditions besides its method and path. */
  hasExtra: boolean;
  /** Returns the raw path parameters when the method and path match, else null. */
  matchTarget(method: string, path: string): Record<string, string> | null;
  /** The query, header and body conditions; only asked when `hasExtra`. */
  holds(facts: RequestFacts, scope: VariableScope): boolean;
}

export function compileConditions(route: MockRoute): RouteConditions {
  const method = route.method.trim() === '' || route.method.trim() === '*' ? undefined : route.method.trim().toUpperCase();
  const path = compilePath(route.path);
  const query = conditions(route.matchQuery, false);
  const headers = conditions(route.matchHeaders, true);
  const body = route.matchBody === '' ? undefined : compile(route.matchBody, 'mock.match');
  return {
    method,
    path,
    needsBody: body !== undefined,
    hasExtra: query.length > 0 || headers.length > 0 || body !== undefined,
    matchTarget(requestMethod, requestPath) {
      // A HEAD request is a GET without the body (Node leaves the body out), so GET routes take it.
      if (method !== undefined && requestMethod !== method && !(requestMethod === 'HEAD' && method === 'GET')) return null;
      return path.match(requestPath);
    },
    holds(facts, scope) {
      for (const condition of query) {
        if (!holds(facts.queryValues(condition.name), condition.value, scope)) return false;
      }
      for (const condition of headers) {
        if (!holds(facts.headerValues(condition.name), condition.value, scope)) return false;
      }
      return body === undefined || facts.body.includes(body.render({ variables: scope }));
    },
  };
}

function conditions(rows: readonly KeyValue[], lowerCase: boolean): Condition[] {
  return rows
    .filter((row) => row.enabled !== false && row.key !== '')
    .map((row) => ({
      name: lowerCase ? row.key.toLowerCase() : row.key,
      value: row.value === '' ? undefined : compile(row.value, 'mock.match'),
    }));
}

function holds(found: string[] | undefined, wanted: Template | undefined, scope: VariableScope): boolean {
  if (found === undefined || found.length === 0) return false;
  if (wanted === undefined) return true;
  const text = wanted.render({ variables: scope });
  return found.some((value) => value === text || value.trim() === text);
}

/** Every query parameter, decoded, each with all its values in order. */
function parseAllQuery(url: string): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const at = url.indexOf('?');
  if (at < 0) return found;
  const hash = url.indexOf('#', at);
  for (const pair of url.slice(at + 1, hash < 0 ? url.length : hash).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? pair : pair.slice(0, eq));
    const value = eq < 0 ? '' : decodeQueryPart(pair.slice(eq + 1));
    const list = found.get(name);
    if (list) list.push(value);
    else found.set(name, [value]);
  }
  return found;
}
