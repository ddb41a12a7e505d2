/**
 * The one guard in front of the app's API and live channel (DESIGN "App"). The app listens on
 * 127.0.0.1 only, but any web page the user visits can still make the browser talk to
 * 127.0.0.1: so a request is served only when its `Host` names this server (no DNS rebinding),
 * its `Origin`, when sent, is this server (no cross-site calls), and it carries the session
 * cookie that only the printed URL's token could have set. No CORS headers are ever sent.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * The session cookie's name for the app on `port`. Browsers keep and send cookies by host, never
 * by port (RFC 6265, 8.5): with one name for all, a second `ferry app` (another workspace) would
 * overwrite the first one's cookie, and the first tab would be refused from then on.
 */
export function cookieName(port: number): string {
  return `ferry_session_${port}`;
}

/** A fresh random session token: 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The `Host` values this server answers to: the loopback address or `localhost`, with its port. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Why the request is refused (for the 403 body), or undefined when `Host` and `Origin` are this server's. */
export function checkHostAndOrigin(req: IncomingMessage, port: number): string | undefined {
  const hosts = allowedHosts(port);
  const host = (req.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) return 'this server answers only to http://127.0.0.1 or http://localhost on its own port';
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string | undefined;
    try {
      const url = new URL(origin);
      originHost = url.protocol === 'http:' ? url.host.toLowerCase() : undefined;
    } catch {
      originHost = undefined;
    }
    if (!originHost || !hosts.has(originHost)) return 'requests from other web pages are refused';
  }
  return undefined;
}

/** True when the request carries this server's session cookie with this token. */
export function hasSessionCookie(req: IncomingMessage, token: string, port: number): boolean {
  const value = readCookie(req.headers.cookie ?? '', cookieName(port));
  return value !== undefined && sameText(value, token);
}

/** True when `given` (the `?token=` of the printed URL) is this session's token. */
export function isToken(given: string | null, token: string): boolean {
  return given !== null && sameText(given, token);
}

/** The cookie set in exchange for the token: not readable by scripts, never sent by other sites. */
export function sessionCookie(token: string, port: number): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Compares in constant time, so the token cannot be guessed byte by byte from timings. */
function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
