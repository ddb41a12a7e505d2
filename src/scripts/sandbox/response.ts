/**
 * pm.response over the response data, and the `pm.response.to.have.status(200)` style
 * assertions, added to chai as Postman's chai-postman plugin does.
 */
import { PropertyList } from './property-list.js';
import { responseCookies } from './cookies.js';
import { json } from './intrinsics.js';
import { internalModule, requireModule, setUpModule } from './modules.js';
import { makeFastExpect, type ChaiInternals, type FastExpect } from './fast-expect.js';

export interface ResponseData {
  code: number;
  status: string;
  headers: [string, string][];
  body: string;
  responseTime: number;
  responseSize: number;
  /** Streaming kinds: the messages sent and received (the shared message model). */
  messages?: MessageData[];
}

export interface MessageData {
  direction: 'sent' | 'received';
  timeMs: number;
  text: string;
  [field: string]: unknown;
}

/** A message as scripts see it: its fields, and `json()` parsing its text. */
export type ScriptMessage = MessageData & { json(): unknown };

const reasons: Record<number, string> = {
  100: 'Continue', 101: 'Switching Protocols', 200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information',
  204: 'No Content', 205: 'Reset Content', 206: 'Partial Content', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other',
  304: 'Not Modified', 307: 'Temporary Redirect', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized',
  402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 406: 'Not Acceptable',
  408: 'Request Timeout', 409: 'Conflict', 410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed',
  413: 'Payload Too Large', 415: 'Unsupported Media Type', 418: "I'm a teapot", 422: 'Unprocessable Entity', 429: 'Too Many Requests',
  500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

export function reasonFor(code: number): string {
  return reasons[code] ?? '';
}

export class ScriptResponse {
  readonly code: number;
  readonly status: string;
  readonly responseTime: number;
  readonly responseSize: number;
  private readonly body: string;
  private parsed: { value?: unknown; error?: Error } | undefined;
  // Headers and messages are built on first use: many scripts read neither.
  private headerList: PropertyList | undefined;
  private cookieList: PropertyList | undefined;
  private messageList: ScriptMessage[] | undefined;

  constructor(private readonly data: ResponseData) {
    this.code = data.code;
    this.status = data.status || reasonFor(data.code);
    this.body = data.body;
    this.responseTime = data.responseTime;
    this.responseSize = data.responseSize;
  }

  get headers(): PropertyList {
    // Indexes, not `([key, value])`: QuickJS destructures arrays through the iterator protocol.
    this.headerList ??= new PropertyList(this.data.headers.map((header) => ({ key: header[0], value: header[1] })), true);
    return this.headerList;
  }
  /**
   * The cookies the response set (its Set-Cookie headers), as Postman's CookieList: `get(name)` is
   * the value, `has`, `count`, `toObject`, `all()` with each cookie's attributes. Names are case-sensitive.
   */
  get cookies(): PropertyList {
    this.cookieList ??= new PropertyList(responseCookies(this).map((cookie) => ({ ...cookie, key: cookie.name })), false);
    return this.cookieList;
  }
  /** Messages of a streaming request (WebSocket, Socket.IO, MQTT, SSE, TCP, UDP…); empty for others. */
  get messages(): ScriptMessage[] {
    this.messageList ??= (this.data.messages ?? []).map((message) => ({ ...message, json: () => json.parse(message.text) }));
    return this.messageList;
  }

  text(): string {
    return this.body;
  }
  /** The body parsed as JSON; throws a JSONError naming the problem when it is not JSON. */
  json(): unknown {
    if (!this.parsed) {
      try {
        // A leading byte order mark is skipped (checked first: a regular expression costs more than the parse of a small body).
        this.parsed = { value: json.parse(this.body.charCodeAt(0) === 0xfeff ? this.body.slice(1) : this.body) };
      } catch (error) {
        const e = new Error(`the response body is not valid JSON: ${(error as Error).message}`);
        e.name = 'JSONError';
        this.parsed = { error: e };
      }
    }
    if (this.parsed.error) throw this.parsed.error;
    return this.parsed.value;
  }
  reason(): string {
    return this.status;
  }
  size(): { body: number; header: number; total: number } {
    const header = this.headers.all().reduce((n, h) => n + h.key.length + String(h.value).length + 4, 0);
    return { body: this.responseSize, header, total: this.responseSize + header };
  }
  contentInfo(): { contentType?: string; mimeType?: string; charset?: string } {
    const contentType = this.headers.get('content-type') as string | undefined;
    if (!contentType) return {};
    const [mime, ...params] = contentType.split(';');
    const charset = params.map((p) => p.trim()).find((p) => p.toLowerCase().startsWith('charset='));
    return { contentType, mimeType: mime!.trim().toLowerCase(), charset: charset?.slice(8) };
  }
  /** chai assertions on the response, e.g. `pm.response.to.have.status(200)`. */
  get to(): unknown {
    return expectResponse(this).to;
  }
  get not(): unknown {
    return expectResponse(this).not;
  }
  toJSON(): Record<string, unknown> {
    return { code: this.code, status: this.status, header: this.headers.toJSON(), responseTime: this.responseTime, responseSize: this.responseSize, body: this.body };
  }
}

interface ChaiLike {
  use(plugin: (chai: ChaiStatic, utils: unknown) => void): void;
}
interface ChaiAssertion {
  _obj: unknown;
  assert(ok: boolean, message: string, negated: string, expected?: unknown, actual?: unknown): void;
}
interface ChaiStatic {
  Assertion: {
    addProperty(name: string, fn: (this: ChaiAssertion) => void): void;
    addMethod(name: string, fn: (this: ChaiAssertion, ...args: never[]) => void): void;
    overwriteProperty(name: string, fn: (original: (this: ChaiAssertion) => void) => (this: ChaiAssertion) => void): void;
  };
}

const isScriptResponse = (value: unknown): value is ScriptResponse => value instanceof ScriptResponse;
let fastExpect: FastExpect | undefined;

function fastExpectOnce(): FastExpect {
  fastExpect ??= makeFastExpect(() => requireModule('chai'), isScriptResponse);
  return fastExpect;
}

// chai, however it is first loaded (an assertion `pm.expect` cannot decide alone, or a script's
// `require('chai')`), gets Postman's response assertions, as in Postman, and `pm.expect` uses it.
setUpModule('chai', (chai) => {
  (chai as ChaiLike).use(responseAssertions);
  fastExpectOnce().link(chai as ChaiInternals);
});

/** `pm.expect`: chai's expect, with chai itself loaded only when an assertion needs it (fast-expect.ts). */
export function expect(): (value: unknown, message?: string) => unknown {
  return fastExpectOnce().expect as (value: unknown, message?: string) => unknown;
}

function expectResponse(response: ScriptResponse): { to: unknown; not: unknown } {
  return expect()(response) as { to: unknown; not: unknown };
}

const statusClasses: [string, (code: number) => boolean, string][] = [
  ['info', (c) => c >= 100 && c < 200, '1xx'],
  ['success', (c) => c >= 200 && c < 300, '2xx'],
  ['redirection', (c) => c >= 300 && c < 400, '3xx'],
  ['clientError', (c) => c >= 400 && c < 500, '4xx'],
  ['serverError', (c) => c >= 500 && c < 600, '5xx'],
  ['error', (c) => c >= 400 && c < 600, '4xx or 5xx'],
];
const exactStatuses: [string, number][] = [
  ['accepted', 202], ['withoutContent', 204], ['badRequest', 400], ['unauthorized', 401], ['forbidden', 403],
  ['notFound', 404], ['notAcceptable', 406], ['rateLimited', 429],
];

function responseAssertions(chaiStatic: ChaiStatic): void {
  const A = chaiStatic.Assertion;
  for (const [name, test, label] of statusClasses) {
    const check = function (this: ChaiAssertion) {
      const r = this._obj as ScriptResponse;
      this.assert(test(r.code), `expected response code to be ${label} but found ${r.code}`, `expected response code not to be ${label} but found ${r.code}`);
    };
    if (name === 'error') A.overwriteProperty('error', (original) => function (this: ChaiAssertion) {
      if (isScriptResponse(this._obj)) check.call(this);
      else original.call(this);
    });
    else A.addProperty(name, check);
  }
  // As Postman's: `ok` is status 200 (reason OK); `success` is any 2xx.
  A.overwriteProperty('ok', (original) => function (this: ChaiAssertion) {
    if (!isScriptResponse(this._obj)) return original.call(this);
    const r = this._obj;
    this.assert(r.code === 200, `expected response to have status reason 'OK' but got '${r.status}'`, "expected response not to have status reason 'OK'");
  });
  for (const [name, code] of exactStatuses) {
    A.addProperty(name, function (this: ChaiAssertion) {
      const r = this._obj as ScriptResponse;
      this.assert(r.code === code, `expected response code to be ${code} but found ${r.code}`, `expected response code not to be ${code}`);
    });
  }
  A.addMethod('status', function (this: ChaiAssertion, expected: number | string) {
    const r = this._obj as ScriptResponse;
    if (typeof expected === 'string') {
      this.assert(r.status === expected, `expected response to have status reason '${expected}' but got '${r.status}'`, `expected response not to have status reason '${expected}'`, expected, r.status);
    } else {
      this.assert(r.code === expected, `expected response to have status code ${expected} but got ${r.code}`, `expected response not to have status code ${expected}`, expected, r.code);
    }
  });
  A.addMethod('header', function (this: ChaiAssertion, name: string, value?: unknown) {
    const r = this._obj as ScriptResponse;
    const has = r.headers.has(name);
    if (value === undefined || !has) {
      this.assert(has, `expected response to have header with key '${name}'`, `expected response to not have header with key '${name}'`);
      if (value === undefined) return;
    }
    const actual = r.headers.get(name);
    this.assert(actual === value, `expected '${name}' response header to be '${String(value)}' but got '${String(actual)}'`, `expected '${name}' response header not to be '${String(value)}'`, value, actual);
  });
  A.addProperty('withBody', function (this: ChaiAssertion) {
    const r = this._obj as ScriptResponse;
    this.assert(r.text().length > 0, 'expected response to have content in body', 'expected response not to have content in body');
  });
  A.addMethod('body', function (this: ChaiAssertion, expected?: unknown) {
    const r = this._obj as ScriptResponse;
    const text = r.text();
    if (expected === undefined) {
      this.assert(text.length > 0, 'expected response to have content in body', 'expected response not to have content in body');
    } else if (expected instanceof RegExp) {
      this.assert(expected.test(text), `expected response body to match ${String(expected)}`, `expected response body not to match ${String(expected)}`);
    } else if (typeof expected === 'string') {
      this.assert(text === expected, 'expected response body to equal the given text', 'expected response body not to equal the given text', expected, text);
    } else {
      const actual = json.stringify(safeJson(r));
      this.assert(actual === json.stringify(expected), 'expected response body json to equal the given object', 'expected response body json not to equal the given object', expected, safeJson(r));
    }
  });
  A.addProperty('json', function (this: ChaiAssertion) {
    const r = this._obj as ScriptResponse;
    let ok = true;
    try {
      r.json();
    } catch {
      ok = false;
    }
    this.assert(ok, 'expected response body to be a valid json', 'expected response body not to be a valid json');
  });
  A.addMethod('jsonBody', function (this: ChaiAssertion, path?: unknown, value?: unknown) {
    const r = this._obj as ScriptResponse;
    const body = safeJson(r);
    if (path === undefined) {
      this.assert(body !== undefined, 'expected response body to be a valid json', 'expected response body not to be a valid json');
      return;
    }
    // jsonBody(object): the whole body equals it.
    if (typeof path !== 'string') {
      this.assert(body !== undefined && json.stringify(body) === json.stringify(path), 'expected response body json to equal the given object', 'expected response body json not to equal the given object', path, body);
      return;
    }
    const found = getPath(body, path);
    if (value === undefined) {
      this.assert(found.exists, `expected response body json to have path '${path}'`, `expected response body json not to have path '${path}'`);
    } else {
      this.assert(found.exists && json.stringify(found.value) === json.stringify(value), `expected response body json at '${path}' to equal ${json.stringify(value)}`, `expected response body json at '${path}' not to equal ${json.stringify(value)}`, value, found.value);
    }
  });
  // pm.response.to.have.jsonSchema(schema) and pm.expect(data).to.have.jsonSchema(schema): JSON Schema
  // drafts 4, 7, 2019-09 and 2020-12 (its `$schema`, else 2019-09's rules, which accept draft-07 schemas).
  A.addMethod('jsonSchema', function (this: ChaiAssertion, schema: unknown) {
    const data = isScriptResponse(this._obj) ? safeJson(this._obj) : this._obj;
    const errors = schemaErrors(schema, data);
    this.assert(errors.length === 0, `expected data to satisfy schema but found following errors: \n${errors.join(', ')}`, 'expected data to not satisfy schema', true, errors.length === 0);
  });
  A.addMethod('responseTime', function (this: ChaiAssertion, limit?: number) {
    const r = this._obj as ScriptResponse;
    if (typeof limit === 'number') this.assert(r.responseTime <= limit, `expected response time to be at most ${limit} ms but was ${r.responseTime}`, `expected response time to be over ${limit} ms`);
  });
}

interface SchemaValidator {
  Validator: new (schema: unknown, draft?: string, shortCircuit?: boolean) => { validate(data: unknown): { valid: boolean; errors: Array<{ keyword: string; instanceLocation: string; error: string }> } };
}

/** Why `data` does not satisfy `schema` (none when it does), each as `#/path: reason`. */
function schemaErrors(schema: unknown, data: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) throw new TypeError('jsonSchema needs a schema object');
  const { Validator } = internalModule('json-schema') as SchemaValidator;
  const declared = String((schema as { $schema?: unknown }).$schema ?? '');
  const draft = /draft-04/.test(declared) ? '4' : /draft-07|draft-06/.test(declared) ? '7' : /2020-12/.test(declared) ? '2020-12' : '2019-09';
  const result = new Validator(schema, draft, false).validate(data);
  if (result.valid) return [];
  // The reasons that say what is wrong; those of `properties`, `items`… only say that something below them is.
  const SUMMARIES = ['properties', 'items', 'prefixItems', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', '$ref', 'unevaluatedProperties', 'unevaluatedItems', 'contains', 'dependentSchemas', 'patternProperties', 'if', 'then', 'else', 'not'];
  const reasons = result.errors.filter((e) => !SUMMARIES.includes(e.keyword));
  return (reasons.length > 0 ? reasons : result.errors).map((e) => `${e.instanceLocation}: ${e.error}`).slice(0, 10);
}

function safeJson(r: ScriptResponse): unknown {
  try {
    return r.json();
  } catch {
    return undefined;
  }
}

function getPath(value: unknown, path: string): { exists: boolean; value?: unknown } {
  let current = value;
  for (const part of path.replace(/\[(\w+)\]/g, '.$1').split('.').filter(Boolean)) {
    if (current === null || typeof current !== 'object' || !Object.prototype.hasOwnProperty.call(current, part)) return { exists: false };
    current = (current as Record<string, unknown>)[part];
  }
  return { exists: true, value: current };
}
