/**
 * The request URL as sent (spec 2.3): variables filled, `:name` path segments replaced from
 * `pathParams`, a scheme added when none was typed, checked as an absolute http(s) URL.
 */
import type { KeyValue } from '../model/index.js';
import { PrepareError } from './errors.js';

// `https:\\host` counts as a scheme too: the URL parser reads backslashes as slashes there.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:[/\\]{2}/;

/** Who shows a message: the command line (`ferry …`), the app's page, or an AI agent (`ferry mcp`). */
export type Face = 'cli' | 'app' | 'agent';

/** How each face chooses an environment, for messages that tell the user to choose one. */
const CHOOSE_ENVIRONMENT: Record<Face, string> = {
  cli: 'choose an environment with -e',
  app: 'choose an environment in the Environment selector of the top bar',
  agent: 'give an environment (the environment argument; list_environments shows them)',
};

/** Splits a URL as typed into `scheme://authority`, path, and `?query#fragment`. */
function splitUrl(url: string): { origin: string; path: string; rest: string } {
  const scheme = SCHEME.exec(url);
  let originEnd = 0;
  if (scheme) {
    const after = url.slice(scheme[0].length);
    const stop = after.search(/[/?#]/);
    originEnd = scheme[0].length + (stop < 0 ? after.length : stop);
  } else {
    const stop = url.search(/[/?#]/);
    originEnd = stop < 0 ? url.length : stop;
  }
  const tail = url.slice(originEnd);
  const restAt = tail.search(/[?#]/);
  return {
    origin: url.slice(0, originEnd),
    path: restAt < 0 ? tail : tail.slice(0, restAt),
    rest: restAt < 0 ? '' : tail.slice(restAt),
  };
}

/**
 * Replaces `:name` segments of the path (never the port) with the values of enabled
 * `pathParams`, percent-encoded. Unknown names stay as written. `fill` fills variables in values.
 */
export function applyPathParams(url: string, params: readonly KeyValue[], fill: (text: string) => string): string {
  const values = new Map<string, string>();
  for (const p of params) if (p.enabled !== false && p.key !== '' && !values.has(p.key)) values.set(p.key, fill(p.value));
  if (values.size === 0) return url;
  const { origin, path, rest } = splitUrl(url);
  const replaced = path.replace(/(^|\/):([A-Za-z0-9_.~-]+)(?=\/|$)/g, (whole, slash: string, name: string) => {
    const value = values.get(name);
    return value === undefined ? whole : `${slash}${encodeURIComponent(value)}`;
  });
  return origin + replaced + rest;
}

/**
 * Adds the kind's first scheme (`http://`) to a URL typed without one, as other clients do, and
 * checks it. `what` names the request in the message for another scheme (`an SSE request`);
 * `face` says how the user chooses an environment (`-e`, or the app's selector).
 */
export function finalUrl(url: string, where: string, what = 'an HTTP request', schemes: readonly string[] = ['http', 'https'], face: Face = 'cli'): URL {
  const trimmed = url.trim();
  if (trimmed === '') throw new PrepareError(`${where}: the URL is empty; give the address to send to.`);
  // `ht!tp://x` has a scheme that is not one (a scheme is a letter, then letters, digits, + - .):
  // adding `http://` in front would send it to a host named `ht!tp`.
  const badScheme = /^([^/?#:]*):[/\\]{2}/.exec(trimmed);
  if (badScheme && !SCHEME.test(trimmed) && !/\{\{/.test(badScheme[1]!)) {
    throw new PrepareError(`${where}: url "${trimmed}" is not a valid URL: ${badScheme[1] === '' ? 'it has nothing before ://' : `"${badScheme[1]}" is not a scheme`}; begin it with ${schemeList(schemes).replace(/^an? /, '')}.`);
  }
  // The URL parser drops tabs and line breaks anywhere in a URL (a value from a data file with a
  // quoted line break would lose it); Postman and Newman send them encoded, and so does Ferry.
  const kept = trimmed.replace(/[\t\n\r]/g, (c) => `%0${c.charCodeAt(0).toString(16).toUpperCase()}`);
  const withScheme = SCHEME.test(kept) ? kept : `${schemes[0]}://${kept}`;
  // `http:////name/x` (a `{{baseUrl}}` of `/` before `/name`) or `http:///name`: the URL parser
  // skips the extra slashes and would take `name` as the host; Postman and curl refuse it.
  if (NO_HOST.test(withScheme)) throw noHost(where, trimmed, withScheme);
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    const port = /^[^/?#]*\/\/[^/?#]*:(\d+)(?=[/?#]|$)/.exec(withScheme)?.[1];
    if (port !== undefined && Number(port) > 65535) throw new PrepareError(`${where}: port ${port} in "${trimmed}" is out of range; give a port from 1 to 65535.`);
    const hint = /\{\{[^}]*\}\}/.test(trimmed) ? ' It still holds a {{placeholder}}: is the variable defined in the environment you chose?' : '';
    throw new PrepareError(`${where}: "${trimmed}" is not a valid URL.${hint}`);
  }
  if (!schemes.includes(parsed.protocol.slice(0, -1))) {
    throw new PrepareError(`${where}: ${what} needs ${schemeList(schemes)} URL, not ${parsed.protocol}//.`);
  }
  // `grpc://` and `mqtt://` parse with an empty host (their schemes are not the web's): grpc-js
  // threw on it and crashed the run, and MQTT said it was "refused by :".
  if (parsed.hostname === '') throw noHost(where, trimmed, withScheme);
  // No server listens on port 0 (a listener asks for it to get any free port): refused as out of range.
  if (parsed.port === '0') throw new PrepareError(`${where}: port 0 in "${trimmed}" is out of range; give a port from 1 to 65535.`);
  if (/\{\{|\}\}/.test(decodeURIComponent(parsed.hostname))) {
    // Name the placeholder as typed: the parsed host is lower-cased (`{{baseurl}}` for `{{baseUrl}}`).
    const typed = /\{\{[^{}]*\}\}/.exec(trimmed)?.[0] ?? parsed.hostname;
    throw new PrepareError(`${where}: the URL still holds ${typed} where the host should be; define the variable or ${CHOOSE_ENVIRONMENT[face]}.`);
  }
  return parsed;
}

/** `scheme://` with nothing, or only a path, after it. */
const NO_HOST = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?=[/?#]|$)/;

function noHost(where: string, typed: string, withScheme: string): PrepareError {
  const scheme = withScheme.slice(0, withScheme.indexOf(':'));
  return new PrepareError(`${where}: "${typed}" has no host; give the server's address (${scheme}://host:port).`);
}

/** `an http:// or https://`, `a ws:// or wss://`: the article as the first letter is spoken. */
export function schemeList(schemes: readonly string[]): string {
  const article = /^[aefhilmnorsx]/i.test(schemes[0] ?? '') ? 'an' : 'a';
  const names = schemes.map((s) => `${s}://`);
  return `${article} ${names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]}`;
}

/** Adds a query parameter (apiKey auth in the query) keeping the URL's own encoding. */
export function addQueryParam(url: URL, key: string, value: string): void {
  const pair = `${encodeURIComponent(key)}=${encodeURIComponent(value)}`;
  url.search = url.search && url.search !== '?' ? `${url.search}&${pair}` : `?${pair}`;
}

/**
 * Sets a query parameter an auth signs in (a JWT's token): an earlier value of that name (one saved
 * with the request, or sent on by a redirect's Location) is taken off first, so one is sent.
 */
export function setQueryParam(url: URL, key: string, value: string): void {
  url.search = withoutQueryParams(url.search.slice(1), (name) => name === key);
  addQueryParam(url, key, value);
}

/** `a=1&b=2` without the pairs whose decoded name `drop` picks, the others kept as written. */
export function withoutQueryParams(pairs: string, drop: (name: string) => boolean): string {
  return pairs.split('&').filter((pair) => pair !== '' && !drop(decodeQueryName(pair.split('=')[0]!))).join('&');
}

function decodeQueryName(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * For code export with substitution off (spec 4.7 rule 2): a URL that keeps its `{{name}}`
 * placeholders. Each placeholder stands in as a plain token while the URL is parsed and
 * checked (so query and auth handling work as usual), and `restore` puts them back.
 */
export function urlKeepingPlaceholders(url: string, where: string): { url: URL; restore: (href: string) => string } {
  const originals: string[] = [];
  let swapped = url.trim().replace(/\{\{[^{}\n]*\}\}/g, (placeholder) => `ferryph${originals.push(placeholder) - 1}z`);
  // A placeholder standing for the scheme or the port cannot be parsed as one: it stands in as
  // `http` or as a high port number while parsing, and comes back as written.
  let schemeToken: string | undefined;
  const scheme = /^(ferryph\d+z):\/\//i.exec(swapped);
  if (scheme) {
    schemeToken = originals[Number(/\d+/.exec(scheme[1]!)![0])];
    swapped = `http://${swapped.slice(scheme[0].length)}`;
  }
  const ports = new Map<string, string>();
  swapped = swapped.replace(/^([^/?#]*\/\/[^/?#]*?):ferryph(\d+)z(?=[/?#]|$)/i, (_whole, authority: string, i: string) => {
    const port = String(59_000 + Number(i));
    ports.set(port, originals[Number(i)]!);
    return `${authority}:${port}`;
  });
  const schemeAdded = !SCHEME.test(swapped);
  const putBack = (text: string) => text.replace(/ferryph(\d+)z/gi, (whole, i: string) => originals[Number(i)] ?? whole);
  let parsed: URL;
  try {
    parsed = finalUrl(swapped, where);
  } catch (error) {
    // Say it with the placeholders the user wrote, not the stand-ins.
    if (error instanceof PrepareError) {
      let message = putBack(error.message);
      for (const [port, placeholder] of ports) message = message.replace(`:${port}`, `:${placeholder}`);
      if (schemeToken) message = message.replace('"http://', `"${schemeToken}://`);
      throw new PrepareError(message);
    }
    throw error;
  }
  const restore = (href: string) => {
    let out = putBack(href);
    for (const [port, placeholder] of ports) out = out.replace(new RegExp(`^([^/?#]*//[^/?#]*?):${port}(?=[/?#]|$)`), `$1:${placeholder}`);
    if (schemeToken) out = out.replace(/^http:\/\//, `${schemeToken}://`);
    // Placeholders that reached the URL percent-encoded (path parameter values, an API key in
    // the query) come back as written too.
    out = out.replace(/%7B%7B((?:(?!%7[BD])[^{}\n])*?)%7D%7D/gi, (whole, inner: string) => {
      try {
        return `{{${decodeURIComponent(inner)}}}`;
      } catch {
        return whole;
      }
    });
    // `{{baseUrl}}/path`: the scheme belongs to the variable's value, not to the snippet.
    if (schemeAdded && url.trim().startsWith('{{')) out = out.replace(/^http:\/\//, '');
    return out;
  };
  return { url: parsed, restore };
}
