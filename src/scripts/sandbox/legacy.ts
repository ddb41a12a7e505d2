/**
 * The globals old collections still use (`postman.*`, `tests[...]`, `responseBody`, ...), mapped
 * onto the same scopes and objects as `pm`, like postman-sandbox's legacy interface.
 */
import type { VariableScope } from './variable-scopes.js';
import type { ScriptRequest } from './request.js';
import type { ScriptResponse } from './response.js';
import { internalModule, requireModule } from './modules.js';
import { unavailableFunction } from './unavailable.js';
import { responseCookies } from './cookies.js';

/** Postman's legacy xml2Json: xml2js with single children as values, not arrays. */
export function xml2Json(text: unknown): unknown {
  const xml2js = requireModule('xml2js') as {
    parseString(text: string, options: object, callback: (error: unknown, result: unknown) => void): void;
  };
  let out: unknown = {};
  let failure: unknown;
  xml2js.parseString(String(text), { explicitArray: false, async: false, trim: true, mergeAttrs: false }, (error, result) => {
    failure = error;
    out = result;
  });
  if (failure) throw failure;
  return out;
}

/** Postman stores legacy values as text unless they are falsy (so 0 stays the number 0). */
function legacyValue(value: unknown): unknown {
  if ((value === false || value) && typeof (value as { toString?: unknown }).toString === 'function') return String(value);
  return value;
}

/**
 * Postman's legacy `responseCode`: the reason the server gave, its table's description of the code
 * and standard name (none for a code it does not list), in Postman's order, so a script logging
 * it writes the same line. The table loads only when `detail` or `standardName` is read.
 */
function responseCode(response: ScriptResponse): Record<string, unknown> {
  const known = () => (internalModule('http-reasons') as Record<string, { name?: string; detail?: string } | undefined>)[String(response.code)];
  return {
    name: response.status,
    get detail() {
      return known()?.detail;
    },
    code: response.code,
    get standardName() {
      return known()?.name;
    },
  };
}

/**
 * Postman's legacy `responseCookies`: the cookie jar's cookies for the response's URL (those set
 * before included), each as Postman writes a cookie (Max-Age 0 when there is none), in its order;
 * without a jar, those the response's Set-Cookie headers give.
 */
function legacyCookies(response: ScriptResponse | undefined): Record<string, unknown>[] {
  const jar = response?.jarCookies;
  if (!jar) return responseCookies(response);
  return jar.map((c) => ({ name: c.name, expires: c.expires, maxAge: c.maxAge ?? 0, domain: c.domain, path: c.path, secure: c.secure, httpOnly: c.httpOnly, hostOnly: c.hostOnly, value: c.value }));
}

export interface LegacyParts {
  environment: VariableScope;
  globals: VariableScope;
  request: ScriptRequest;
  response: ScriptResponse | undefined;
  /** The script names `responseBody`: only then is the body read (and asked of the host) for it. */
  withBody?: boolean;
  setNextRequest(name: unknown): void;
  iterationData: Record<string, unknown>;
  iteration: number;
}

export function makeLegacy(parts: LegacyParts): Record<string, unknown> {
  const { environment, globals, request, response } = parts;
  const environmentObject = environment.toObject();
  const globalsObject = globals.toObject();
  const cookies = legacyCookies(response);

  const postman = {
    setEnvironmentVariable(key: string, value: unknown) {
      const stored = legacyValue(value);
      environmentObject[key] = stored;
      environment.set(key, stored);
    },
    getEnvironmentVariable: (key: string) => environment.get(key),
    clearEnvironmentVariable(key: string) {
      delete environmentObject[key];
      environment.unset(key);
    },
    clearEnvironmentVariables() {
      for (const key of Object.keys(environmentObject)) delete environmentObject[key];
      environment.clear();
    },
    setGlobalVariable(key: string, value: unknown) {
      const stored = legacyValue(value);
      globalsObject[key] = stored;
      globals.set(key, stored);
    },
    getGlobalVariable: (key: string) => globals.get(key),
    clearGlobalVariable(key: string) {
      delete globalsObject[key];
      globals.unset(key);
    },
    clearGlobalVariables() {
      for (const key of Object.keys(globalsObject)) delete globalsObject[key];
      globals.clear();
    },
    setNextRequest: (name: unknown) => parts.setNextRequest(name),
    getResponseHeader: (name: string) => response?.headers.get(name),
    getResponseCookie: (name: string) => cookies.find((c) => c.name === name),
    sendRequest: unavailableFunction('postman.sendRequest'),
  };

  const headersObject: Record<string, string> = {};
  // Keyed in lower case, as Postman's legacy `request.headers` is (`request.headers['content-type']`).
  for (const h of request.headers.all()) if (!h.disabled) headersObject[h.key.toLowerCase()] = String(h.value);
  // As Postman's legacy `request.data`: a form's fields (a key given twice as a list of its
  // values), a raw body's text, and `{}` for no body.
  let bodyData: unknown = {};
  if (request.body.mode === 'urlencoded' || request.body.mode === 'formdata') {
    const fields: Record<string, unknown> = {};
    for (const p of (request.body[request.body.mode]?.all() ?? []).filter((f) => !f.disabled)) {
      const had = fields[p.key];
      fields[p.key] = had === undefined ? p.value : Array.isArray(had) ? [...had, p.value] : [had, p.value];
    }
    bodyData = fields;
  } else if (request.body.toString() !== '') bodyData = request.body.toString();

  const legacy: Record<string, unknown> = {
    postman,
    // In Postman's order, so a script logging it (JSON.stringify(request)) writes the same line.
    // `id` is `pm.request.id` (Postman's legacy id is the item's, as `pm.info.requestId`);
    // `description` the notes' text, undefined without notes, as Postman gives it for a request
    // without a description (the key is there either way, as in Postman).
    request: { id: request.id, name: request.name, description: request.description?.toString(), headers: headersObject, method: request.method, url: request.url.toString(), data: bodyData },
    environment: environmentObject,
    globals: globalsObject,
    data: { ...parts.iterationData },
    iteration: parts.iteration,
    xml2Json,
  };
  if (response) {
    const responseHeaders: Record<string, string> = {};
    for (const h of response.headers.all()) responseHeaders[h.key] = String(h.value);
    Object.assign(legacy, {
      responseBody: parts.withBody ? response.text() : '',
      responseCode: responseCode(response),
      responseHeaders,
      responseTime: response.responseTime,
      responseCookies: cookies,
    });
  }
  return legacy;
}
