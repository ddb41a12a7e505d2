/**
 * Where the API runs (spec 4.4 "Base URL prompt"): the first server of an OpenAPI 3 document
 * with its variables at their defaults, or Swagger 2.0's `schemes`/`host`/`basePath`.
 */
import { ImportError } from '../types.js';
import { isObject, type JsonObject, type SpecVersion } from '../../openapi-document/index.js';

/** Spec 7's words for a document that does not say where the API runs. */
export const NO_HOST_MESSAGE = 'The document does not say where the API runs; give its base URL and import again.';

/**
 * That refusal. Each face says in brackets how its user gives the URL (`withWay`): the command
 * line's option, the app's field and the agent's argument are different places.
 */
export class NoBaseUrlError extends ImportError {
  constructor() {
    super(NO_HOST_MESSAGE);
  }

  withWay(way: string): ImportError {
    return new ImportError(`${NO_HOST_MESSAGE.slice(0, -1)} (${way}).`);
  }
}

export type ServerInfo =
  | { kind: 'absolute'; url: string }
  /** A server path such as `/v1` (or none): the host must come from elsewhere. */
  | { kind: 'relative'; path: string };

/** A server URL with `{variables}` at their defaults (or first enum value). */
export function expandServerUrl(server: JsonObject): string {
  const url = typeof server.url === 'string' ? server.url : '';
  const variables = isObject(server.variables) ? server.variables : {};
  return url.replace(/\{([^{}]+)\}/g, (whole, name: string) => {
    const variable = variables[name];
    if (!isObject(variable)) return whole;
    if (variable.default !== undefined) return String(variable.default);
    if (Array.isArray(variable.enum) && variable.enum.length > 0) return String(variable.enum[0]);
    return whole;
  });
}

/** An absolute URL from a server entry, or the relative path it gives. `//host` counts as absolute (https). */
export function classifyServerUrl(url: string): ServerInfo {
  const trimmed = url.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)) return { kind: 'absolute', url: stripSlash(trimmed) };
  if (trimmed.startsWith('//')) return { kind: 'absolute', url: stripSlash(`https:${trimmed}`) };
  // `./v1`, `v1` and `.` are relative to the document's folder; Ferry only has a host to put them after.
  const relative = trimmed.replace(/^(\.\/)+/, '').replace(/^\.$/, '');
  return { kind: 'relative', path: stripSlash(relative === '' ? '' : relative.startsWith('/') ? relative : `/${relative}`) };
}

/** The document-wide server. */
export function documentServer(root: JsonObject, version: SpecVersion): ServerInfo {
  if (version === 'swagger2') {
    const basePath = typeof root.basePath === 'string' ? stripSlash(root.basePath.startsWith('/') ? root.basePath : `/${root.basePath}`) : '';
    if (typeof root.host !== 'string' || root.host.trim() === '') return { kind: 'relative', path: basePath };
    const schemes = Array.isArray(root.schemes) ? root.schemes.filter((s): s is string => typeof s === 'string') : [];
    const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
    return { kind: 'absolute', url: stripSlash(`${scheme}://${root.host.trim()}${basePath}`) };
  }
  return firstServer(root.servers) ?? { kind: 'relative', path: '' };
}

/** The first server of a `servers` list (document, path item or operation), if any. */
export function firstServer(servers: unknown): ServerInfo | undefined {
  if (!Array.isArray(servers)) return undefined;
  const first = servers.find(isObject);
  return first ? classifyServerUrl(expandServerUrl(first)) : undefined;
}

/**
 * The `baseUrl` value. `given` is `--base-url` (wins when set); `downloadedFrom` is the URL the
 * document came from, whose scheme and host serve when the document names none.
 */
export function resolveBaseUrl(server: ServerInfo, given: string | undefined, downloadedFrom: string | undefined): string {
  if (given !== undefined) {
    const url = parseHttpUrl(given, '--base-url');
    if (server.kind === 'relative' && (url.pathname === '' || url.pathname === '/')) return `${url.origin}${server.path}`;
    return stripSlash(given.trim());
  }
  if (server.kind === 'absolute') return server.url;
  if (downloadedFrom !== undefined) {
    const url = parseHttpUrl(downloadedFrom, 'the download URL');
    return `${url.origin}${server.path}`;
  }
  throw new NoBaseUrlError();
}

function parseHttpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ImportError(`${what} "${text}" is not a URL; give one like https://api.example.com.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ImportError(`${what} "${text}" must start with http:// or https://.`);
  }
  return url;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
