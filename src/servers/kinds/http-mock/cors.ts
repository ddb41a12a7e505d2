/**
 * `cors: true` on a mock API (spec 2.11): preflights are answered, and every answer gets the
 * `Access-Control-Allow-*` headers a browser on another origin needs. The request's own Origin is
 * echoed (with credentials allowed), so cookies and Authorization work from a web page too.
 */
import type { AnyRequest, HeaderValues } from '../../http-types.js';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
const USUAL_METHODS = new Set(ALLOWED_METHODS.split(', '));

/** A CORS preflight: OPTIONS with Access-Control-Request-Method. */
export function isPreflight(req: AnyRequest): boolean {
  return req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
}

/** Headers of the preflight answer (status 204). */
export function preflightHeaders(req: AnyRequest): HeaderValues {
  const headers = corsHeaders(req);
  const method = req.headers['access-control-request-method'];
  const asking = typeof method === 'string' ? method.trim() : '';
  // The usual methods, plus the one asked for when it is another (methods are case-sensitive).
  headers['Access-Control-Allow-Methods'] = asking === '' || USUAL_METHODS.has(asking) ? ALLOWED_METHODS : `${asking}, ${ALLOWED_METHODS}`;
  const asked = req.headers['access-control-request-headers'];
  headers['Access-Control-Allow-Headers'] = typeof asked === 'string' && asked !== '' ? asked : '*';
  headers['Access-Control-Max-Age'] = '86400';
  return headers; // a 204: no Content-Length (RFC 9110 8.6)
}

/** Headers added to every answer; a route's own header of the same name wins. */
export function corsHeaders(req: AnyRequest): HeaderValues {
  const origin = req.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    return {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Credentials': 'true',
      'Access-Control-Expose-Headers': '*',
      Vary: 'Origin',
    };
  }
  return { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': '*' };
}

/** Adds the CORS headers that the answer doesn't set itself (in any case: a route spells its names its way). */
export function addCors(req: AnyRequest, headers: HeaderValues): void {
  const present = new Set<string>();
  for (const name in headers) present.add(name.toLowerCase());
  const cors = corsHeaders(req);
  for (const name in cors) {
    if (!present.has(name.toLowerCase())) headers[name] = cors[name]!;
  }
}
