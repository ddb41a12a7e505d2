/**
 * pm.response over the response data, and the `pm.response.to.have.status(200)` style
 * assertions, added to chai as Postman's chai-postman plugin does.
 */
import { PropertyList } from './property-list.js';
import { responseCookies } from './cookies.js';
import { json } from './intrinsics.js';
import { host } from './host-functions.js';
import { internalModule, requireModule, setUpModule } from './modules.js';
import { makeFastExpect, type ChaiInternals, type FastExpect } from './fast-expect.js';

export interface ResponseData {
  code: number;
  status: string;
  headers: [string, string][];
  /** gRPC's trailers (`pm.response.trailers`); absent for kinds without. */
  trailers?: [string, string][];
  /** gRPC's status message (`pm.response.statusMessage`); absent for kinds without one. */
  statusMessage?: string;
  responseTime: number;
  responseSize: number;
  /** Streaming kinds: the messages sent and received (the shared message model). */
  messages?: MessageData[];
  /** The cookie jar's cookies for the response's URL (the legacy `responseCookies`), when the host has a jar. */
  jarCookies?: JarCookie[];
}

export interface JarCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  expires: string | null;
  maxAge: number | null;
  secure: boolean;
  httpOnly: boolean;
  hostOnly: boolean;
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
  /** The body text: sent with the phase when small, else asked of the host on first read (most scripts never read it) and kept for the phase. */
  private bodyText: string | undefined;
  private parsed: { value?: unknown; error?: Error } | undefined;
  // Headers and messages are built on first use: many scripts read neither.
  private headerList: PropertyList | undefined;
  private trailerList: PropertyList | undefined;
  private cookieList: PropertyList | undefined;
  private messageList: ScriptMessage[] | undefined;

  /** The cookie jar's cookies for this response's URL, when the host sent them. */
  get jarCookies(): JarCookie[] | undefined {
    return this.data.jarCookies;
  }

  constructor(private readonly data: ResponseData, bodyText?: string) {
    this.bodyText = bodyText;
    this.code = data.code;
    this.status = data.status || reasonFor(data.code);
    this.responseTime = data.responseTime;
    this.responseSize = data.responseSize;
  }

  get headers(): PropertyList {
    // Indexes, not `([key, value])`: QuickJS destructures arrays through the iterator protocol.
    this.headerList ??= new PropertyList(this.data.headers.map((header) => ({ key: header[0], value: header[1] })), true);
    return this.headerList;
  }
  /** The headers by the name Postman's gRPC scripts use: the response metadata. */
  get metadata(): PropertyList {
    return this.headers;
  }
  /** Trailers (gRPC's trailing metadata), as Postman's gRPC `pm.response.trailers`; empty for kinds without. */
  get trailers(): PropertyList {
    this.trailerList ??= new PropertyList((this.data.trailers ?? []).map((trailer) => ({ key: trailer[0], value: trailer[1] })), true);
    return this.trailerList;
  }
  /** The code by the name Postman's gRPC scripts use (`pm.response.statusCode`): the same as `code`. */
  get statusCode(): number {
    return this.code;
  }
  /** The server's status message (gRPC's, `no such user`); undefined for kinds without one (HTTP's reason is `status`). */
  get statusMessage(): string | undefined {
    return this.data.statusMessage;
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

  private get body(): string {
    this.bodyText ??= host.responseBody();
    return this.bodyText;
  }

  text(): string {
    return this.body;
  }
  /** The body parsed as JSON; throws a JSONError naming the problem when it is not JSON. */
  json(): unknown {
    if (!this.parsed) {
      // Read outside the try: a body too big for the sandbox is that error, not "not valid JSON".
      const body = this.body;
      try {
        // A leading byte order mark is skipped (checked first: a regular expression costs more than the parse of a small body).
        this.parsed = { value: json.parse(body.charCodeAt(0) === 0xfeff ? body.slice(1) : body) };
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
  use(plugin: (chai: ChaiStatic, utils: ChaiUtils) => void): void;
}
interface ChaiAssertion {
  _obj: unknown;
  assert(ok: unknown, message: string, negated: string, expected?: unknown, actual?: unknown): void;
}
interface ChaiUtils {
  flag(assertion: ChaiAssertion, name: string, value?: unknown): unknown;
}
interface ChaiStatic {
  Assertion: {
    addProperty(name: string, fn: (this: ChaiAssertion) => void): void;
    addMethod(name: string, fn: (this: ChaiAssertion, ...args: never[]) => void): void;
    addChainableMethod(name: string, fn: (this: ChaiAssertion, ...args: never[]) => void, chain: (this: ChaiAssertion) => void): void;
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

/** `to.be.success` and the like: the status code's class (its first digit), as chai-postman's `statusCodeClass`. */
const statusClasses: [string, number][] = [['info', 1], ['success', 2], ['redirection', 3], ['clientError', 4], ['serverError', 5]];
/** `to.be.notFound` and the like: one status, named by its reason in the messages (as Postman's, upper case). */
const exactStatuses: [string, number, string][] = [
  ['accepted', 202, 'Accepted'], ['withoutContent', 204, 'No Content'], ['badRequest', 400, 'Bad Request'], ['unauthorised', 401, 'Unauthorised'],
  ['unauthorized', 401, 'Unauthorized'], ['forbidden', 403, 'Forbidden'], ['notFound', 404, 'Not Found'], ['notAcceptable', 406, 'Not Acceptable'],
  ['rateLimited', 429, 'Too Many Requests'],
];

/** What an assertion's object is, for the header assertion's messages: Postman's works on requests too. */
function messageKind(value: unknown): 'response' | 'request' | undefined {
  if (isScriptResponse(value)) return 'response';
  const headers = (value as { headers?: { has?: unknown; one?: unknown } } | null)?.headers;
  return typeof headers?.has === 'function' && typeof headers.one === 'function' ? 'request' : undefined;
}

/**
 * Postman's response (and request) assertions, as chai-postman defines them: the same names, what
 * passes, and the same failure messages (chai fills `#{exp}` and `#{act}` as Postman's chai does).
 */
function responseAssertions(chaiStatic: ChaiStatic, utils: ChaiUtils): void {
  const A = chaiStatic.Assertion;
  const codeClass = function (this: ChaiAssertion, digit: number) {
    const r = this._obj as ScriptResponse;
    this.assert(Math.floor(r.code / 100) === digit, 'expected response code to be #{exp}XX but found #{act}', 'expected response code to not be #{exp}XX', digit, r.code);
  };
  A.addMethod('statusCodeClass', codeClass);
  for (const [name, digit] of statusClasses) A.addProperty(name, function (this: ChaiAssertion) {
    codeClass.call(this, digit);
  });
  A.overwriteProperty('error', (original) => function (this: ChaiAssertion) {
    if (!isScriptResponse(this._obj)) return original.call(this);
    const c = Math.floor(this._obj.code / 100);
    this.assert(c === 4 || c === 5, 'expected response code to be 4XX or 5XX but found #{act}', 'expected response code to not be 4XX or 5XX', null, this._obj.code);
  });
  const statusCode = function (this: ChaiAssertion, expected: unknown) {
    const r = this._obj as ScriptResponse;
    this.assert(r.code === Number(expected), 'expected response to have status code #{exp} but got #{act}', 'expected response to not have status code #{act}', Number(expected), r.code);
  };
  const statusReason = function (this: ChaiAssertion, expected: unknown) {
    const r = this._obj as ScriptResponse;
    this.assert(r.status === expected, 'expected response to have status reason #{exp} but got #{act}', 'expected response to not have status reason #{act}', expected, r.status);
  };
  A.addMethod('statusCode', statusCode);
  A.addMethod('statusReason', function (this: ChaiAssertion, expected: unknown) {
    statusReason.call(this, String(expected));
  });
  A.addMethod('status', function (this: ChaiAssertion, expected: unknown) {
    if (typeof expected === 'number') statusCode.call(this, expected);
    else statusReason.call(this, expected);
  });
  // As Postman's: `ok` is status 200 (reason OK); `success` is any 2xx. Passing goes by the code
  // (a server's own reason text does not matter); the messages name the reason, in upper case, as Postman's.
  const reasonCheck = (assertion: ChaiAssertion, code: number, reason: string) => {
    const r = assertion._obj as ScriptResponse;
    const actual = (r.status || reasonFor(r.code)).toUpperCase();
    assertion.assert(r.code === code, 'expected response to have status reason #{exp} but got #{act}', 'expected response to not have status reason #{act}', reason.toUpperCase(), actual);
  };
  A.overwriteProperty('ok', (original) => function (this: ChaiAssertion) {
    if (!isScriptResponse(this._obj)) return original.call(this);
    reasonCheck(this, 200, 'OK');
  });
  for (const [name, code, reason] of exactStatuses) A.addProperty(name, function (this: ChaiAssertion) {
    reasonCheck(this, code, reason);
  });
  // `to.have.header(name[, value])`; for gRPC, as Postman's gRPC scripts, `to.have.metadata(…)` (the headers) and `to.have.trailer(…)`.
  const entryCheck = (assertion: ChaiAssertion, what: 'header' | 'metadata' | 'trailer', list: PropertyList, kind: string, name: string, value: unknown[]) => {
    const has = list.has(name);
    assertion.assert(has, `expected ${kind} to have ${what} with key '${String(name)}'`, `expected ${kind} to not have ${what} with key '${String(name)}'`, true, has);
    if (value.length === 0) return;
    const actual = list.one(name)?.value;
    assertion.assert(actual === value[0], `expected '${String(name)}' ${kind} ${what} to be #{exp} but got #{act}`, `expected '${String(name)}' ${kind} ${what} to not be #{act}`, value[0], actual);
  };
  A.addMethod('header', function (this: ChaiAssertion, name: string, ...value: unknown[]) {
    const kind = messageKind(this._obj);
    if (!kind) throw new TypeError('to.have.header works on pm.response and pm.request');
    entryCheck(this, 'header', (this._obj as { headers: PropertyList }).headers, kind, name, value);
  });
  A.addMethod('metadata', function (this: ChaiAssertion, name: string, ...value: unknown[]) {
    if (!isScriptResponse(this._obj)) throw new TypeError('to.have.metadata works on pm.response');
    entryCheck(this, 'metadata', this._obj.headers, 'response', name, value);
  });
  A.addMethod('trailer', function (this: ChaiAssertion, name: string, ...value: unknown[]) {
    if (!isScriptResponse(this._obj)) throw new TypeError('to.have.trailer works on pm.response');
    entryCheck(this, 'trailer', this._obj.trailers, 'response', name, value);
  });
  const hasBody = (assertion: ChaiAssertion) => {
    const text = (assertion._obj as ScriptResponse).text();
    assertion.assert(text.length > 0, 'expected response to have content in body', 'expected response to not have content in body');
  };
  A.addProperty('withBody', function (this: ChaiAssertion) {
    hasBody(this);
  });
  A.addMethod('body', function (this: ChaiAssertion, ...args: unknown[]) {
    const r = this._obj as ScriptResponse;
    const expected = args[0];
    const text = r.text();
    if (args.length === 0) {
      hasBody(this);
    } else if (expected instanceof RegExp) {
      this.assert(expected.test(text), 'expected response body text to match #{exp} but got #{act}', 'expected response body text #{act} to not match #{exp}', expected, text);
    } else if (expected !== null && typeof expected === 'object') {
      const body = safeJson(r);
      this.assert(body !== undefined && json.stringify(body) === json.stringify(expected), 'expected response body json to equal #{exp} but got #{act}', 'expected response body json to not equal #{exp} but got #{act}', expected, body);
    } else {
      this.assert(text === expected, 'expected response body to equal #{exp} but got #{act}', 'expected response body to not equal #{exp}', expected, text);
    }
  });
  const validJson = (assertion: ChaiAssertion) => {
    const why = jsonProblem(assertion._obj as ScriptResponse);
    assertion.assert(why === undefined, `expected response body to be a valid json but got error ${why ?? ''}`, 'expected response body not to be a valid json');
  };
  A.addProperty('json', function (this: ChaiAssertion) {
    validJson(this);
  });
  A.addMethod('jsonBody', function (this: ChaiAssertion, ...args: unknown[]) {
    const r = this._obj as ScriptResponse;
    if (args.length === 0) return validJson(this);
    const [path, value] = args;
    const body = safeJson(r);
    // jsonBody(object): the whole body equals it.
    if (typeof path !== 'string') {
      this.assert(body !== undefined && json.stringify(body) === json.stringify(path), 'expected response body json to equal #{exp} but got #{act}', 'expected response body json to not equal #{exp} but got #{act}', path, body);
      return;
    }
    const found = getPath(body, path);
    if (args.length < 2) {
      this.assert(found.exists, 'expected #{act} in response to contain property #{exp}', 'expected #{act} in response to not contain property #{exp}', path, body);
    } else {
      this.assert(found.exists && json.stringify(found.value) === json.stringify(value), `expected response body json at "${path}" to contain #{exp} but got #{act}`, `expected response body json at "${path}" to not contain #{exp} but got #{act}`, value, found.value);
    }
  });
  // pm.response.to.have.jsonSchema(schema) and pm.expect(data).to.have.jsonSchema(schema): JSON Schema
  // drafts 4, 7, 2019-09 and 2020-12 (its `$schema`, else 2019-09's rules, which accept draft-07 schemas).
  A.addMethod('jsonSchema', function (this: ChaiAssertion, schema: unknown) {
    const data = isScriptResponse(this._obj) ? safeJson(this._obj) : this._obj;
    const errors = schemaErrors(schema, data);
    this.assert(errors.length === 0, `expected data to satisfy schema but found following errors: \n${errors.join(', ')}`, 'expected data to not satisfy schema', true, errors.length === 0);
  });
  // `to.have.responseTime.below(500)` (the chain goes on with the time) or `responseTime(ms)` (equal), as Postman's.
  const measure = (what: 'time' | 'size', value: (r: ScriptResponse) => number) => [
    function (this: ChaiAssertion, ...args: unknown[]) {
      const n = utils.flag(this, 'number');
      this.assert(typeof n === 'number', `expected response to have a valid response ${what} but got #{act}`, `expected response to not have a valid response ${what} but got #{act}`, null, n);
      if (args.length > 0) this.assert(n === args[0], `expected response ${what} to equal #{exp} but got #{act}`, `expected response ${what} to not equal #{exp}`, args[0], n);
    },
    function (this: ChaiAssertion) {
      const n = value(this._obj as ScriptResponse);
      utils.flag(this, 'number', n);
      this._obj = n;
    },
  ] as const;
  A.addChainableMethod('responseTime', ...measure('time', (r) => r.responseTime));
  A.addChainableMethod('responseSize', ...measure('size', (r) => r.size().total));
}

/** Why the body is not JSON (the parser's reason), or undefined when it is. */
function jsonProblem(r: ScriptResponse): string | undefined {
  // Outside the try: a body too big for the sandbox fails the script, not the assertion.
  r.text();
  try {
    r.json();
    return undefined;
  } catch (error) {
    return (error as Error).message.replace(/^the response body is not valid JSON: /, '');
  }
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
