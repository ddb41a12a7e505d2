/**
 * The `{{request.*}}` values of spec 8.2, read from the client's HTTP request. Each is computed
 * only when a template asks for it: a mock answer that never mentions the body never decodes it.
 */
import { bytesToText } from './message.js';
import { decodePathPart, decodeQueryPart } from './percent-decode.js';

export interface HttpRequestInput {
  method: string;
  /** The request target as sent: path and query, not decoded (Node's `req.url`). */
  url: string;
  /** Headers as sent, in Node's flat `rawHeaders` form: name, value, name, value… */
  rawHeaders?: readonly string[];
  /** The body bytes (or text). Event streams have none. */
  body?: Uint8Array | string;
  /**
   * Path parameters of the matched route as they appear in the path (not decoded), by name;
   * what a trailing `*` matched goes under `'*'`. Decoded here.
   */
  pathParams?: Readonly<Record<string, string>>;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export class RequestValues {
  readonly method: string;
  readonly url: string;
  readonly #rawHeaders: readonly string[];
  readonly #rawBody: Uint8Array | string;
  readonly #rawParams: Readonly<Record<string, string>>;
  #path: string | undefined;
  #body: string | undefined;
  #headers: Map<string, string> | undefined;
  #query: Map<string, string> | undefined;

  /** Positional, so a server builds one object per request (see `requestValuesFromHttp` for the fields). */
  constructor(
    method: string,
    url: string,
    rawHeaders: readonly string[] = [],
    body: Uint8Array | string = '',
    pathParams: Readonly<Record<string, string>> = NO_PARAMS,
  ) {
    this.method = method;
    this.url = url;
    this.#rawHeaders = rawHeaders;
    this.#rawBody = body;
    this.#rawParams = pathParams;
  }

  /** The path, without the query; not decoded. */
  get path(): string {
    if (this.#path === undefined) {
      const queryAt = this.url.indexOf('?');
      this.#path = queryAt < 0 ? this.url : this.url.slice(0, queryAt);
    }
    return this.#path;
  }

  /** The body as text; non-UTF-8 bytes become U+FFFD. */
  get body(): string {
    if (this.#body === undefined) {
      this.#body = typeof this.#rawBody === 'string' ? this.#rawBody : bytesToText(this.#rawBody);
    }
    return this.#body;
  }

  /** A path parameter (`'*'` for the trailing wildcard), decoded; empty when the route has none. */
  param(name: string): string {
    if (!Object.hasOwn(this.#rawParams, name)) return '';
    return decodePathPart(this.#rawParams[name] ?? '');
  }

  /** A query parameter by its decoded, case-sensitive name; the first when repeated; empty when absent. */
  query(name: string): string {
    this.#query ??= parseQuery(this.url);
    return this.#query.get(name) ?? '';
  }

  /** A header, name in any case; the first when repeated; empty when absent. */
  header(name: string): string {
    if (this.#headers === undefined) {
      this.#headers = new Map();
      const raw = this.#rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const key = raw[i]!.toLowerCase();
        if (!this.#headers.has(key)) this.#headers.set(key, raw[i + 1]!);
      }
    }
    const lower = name.toLowerCase();
    // HTTP/2 sends the host as the `:authority` pseudo-header.
    return this.#headers.get(lower) ?? (lower === 'host' ? this.#headers.get(':authority') : undefined) ?? '';
  }
}

/** Builds the request values of one HTTP request (mock route, or the GET that opened an event stream). */
export function requestValuesFromHttp(input: HttpRequestInput): RequestValues {
  return new RequestValues(input.method, input.url, input.rawHeaders, input.body, input.pathParams);
}

function parseQuery(url: string): Map<string, string> {
  const found = new Map<string, string>();
  const queryAt = url.indexOf('?');
  if (queryAt < 0) return found;
  const hashAt = url.indexOf('#', queryAt);
  const query = url.slice(queryAt + 1, hashAt < 0 ? url.length : hashAt);
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeQueryPart(eq < 0 ? pair : pair.slice(0, eq));
    if (found.has(name)) continue;
    found.set(name, eq < 0 ? '' : decodeQueryPart(pair.slice(eq + 1)));
  }
  return found;
}
