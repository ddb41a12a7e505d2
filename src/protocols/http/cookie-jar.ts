/**
 * The cookie jar of a run or session (tough-cookie) with the limits browsers keep. It lives in
 * memory: the data folder's copy is read and written by appdata/ (`cookie-jar-file.ts`); the
 * runner loads it once per run and, when `changed`, saves it at the end (`mergedWith`: only what
 * this jar changed goes into the file, which other processes save their jars to as well).
 */
import type { Cookie, CookieJar } from 'tough-cookie';
import { lazyRequire } from '../../support/lazy-require.js';

// tough-cookie (and the public-suffix list under it) loads when a jar holds or receives a cookie.
const toughCookie = lazyRequire<typeof import('tough-cookie')>(import.meta.url, 'tough-cookie');

/** A cookie's name and value may hold this many bytes; a longer one is ignored, as browsers do. */
export const MAX_COOKIE_BYTES = 4096;
export const MAX_COOKIES_PER_DOMAIN = 50;
export const MAX_COOKIES = 3000;

/** One cookie as faces show it. */
export interface CookieInfo {
  domain: string;
  path: string;
  name: string;
  value: string;
  /** ISO time, or null for a session cookie. */
  expires: string | null;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: string;
}

/**
 * A cookie is "of" a domain when its own domain is that domain or under it (`api.example.com` is
 * of `example.com`); case and a leading dot are ignored. What `ferry cookies ls|clear DOMAIN` pick.
 */
export function cookieOfDomain(cookie: Pick<CookieInfo, 'domain'>, domain: string): boolean {
  const want = domain.trim().replace(/^\./, '').toLowerCase();
  const own = cookie.domain.replace(/^\./, '').toLowerCase();
  return want !== '' && (own === want || own.endsWith(`.${want}`));
}

export class CookieStore {
  /** A cookie was stored since the jar was made or last marked saved. */
  changed = false;

  private built?: CookieJar;
  /** The jar file's content when this jar was loaded or last saved: what its own changes are told from. */
  private base: unknown;
  /** Counts this jar's changes, so that `saved` knows whether it changed while it was being saved. */
  private revision = 0;
  /** What `mergedWith` gave, for `saved`. */
  private merging?: { revision: number; mine: unknown; merged: unknown };

  private constructor(private readonly serialized: unknown) {
    this.base = serialized;
  }

  /** A jar from its serialized form (as `serialize()` gives it); nothing, or a damaged one, starts empty. */
  static fromSerialized(data: unknown): CookieStore {
    return new CookieStore(data);
  }

  /** The jar, made from the serialized form at first use. */
  get jar(): CookieJar {
    if (this.built) return this.built;
    const { CookieJar } = toughCookie();
    if (this.serialized !== undefined) {
      try {
        return (this.built = CookieJar.deserializeSync(this.serialized as never));
      } catch {
        // damaged: start with an empty jar
      }
    }
    return (this.built = new CookieJar());
  }

  /** No cookie yet, known without loading tough-cookie: nothing was kept, or a kept jar with no cookies. */
  private get surelyEmpty(): boolean {
    if (this.built) return false;
    const data = this.serialized as { cookies?: unknown } | undefined;
    return data === undefined || (typeof data === 'object' && data !== null && Array.isArray(data.cookies) && data.cookies.length === 0);
  }

  serialize(): unknown {
    return this.jar.serializeSync();
  }

  /**
   * The jar file's `current` content with this jar's own changes applied: another process may
   * have saved its jar since this one was loaded (two `ferry run`s at once, the app open while a
   * run ends), and its cookies must not be lost. Each cookie this jar stored or changed replaces
   * the file's; each it removed is removed, unless the file holds another value of it by now;
   * every other cookie of the file is kept, and past the limits the oldest go. Once written,
   * `saved()`.
   */
  mergedWith(current: unknown): unknown {
    const { CookieJar, Cookie } = toughCookie();
    const mine = this.serialize();
    let merged: CookieJar;
    try {
      merged = current === undefined ? new CookieJar() : CookieJar.deserializeSync(current as never);
    } catch {
      merged = new CookieJar(); // damaged: what this jar holds is all there is
    }
    const before = cookiesById(this.base);
    const now = cookiesById(mine);
    const there = cookiesById(current);
    for (const [id, cookie] of now) {
      if (before.get(id)?.print === cookie.print) continue; // not changed here
      const made = Cookie.fromJSON(cookie.json);
      if (made) merged.store.putCookie(made, () => {});
    }
    for (const [id, cookie] of before) {
      if (now.has(id) || (there.has(id) && there.get(id)!.print !== cookie.print)) continue;
      merged.store.removeCookie(String(cookie.json.domain), String(cookie.json.path), String(cookie.json.key), () => {});
    }
    trim(merged);
    const serialized = merged.serializeSync();
    this.merging = { revision: this.revision, mine, merged: serialized };
    return serialized;
  }

  /**
   * What `mergedWith` gave is in the file now: this jar takes it (the other processes' cookies
   * too) and counts its changes from it. A jar that changed meanwhile (a send of the app ended
   * while it was being saved) keeps its cookies, and counts its changes from what it had.
   */
  saved(): void {
    const merging = this.merging;
    this.merging = undefined;
    if (!merging) return;
    if (merging.revision !== this.revision) {
      this.base = merging.mine;
      return;
    }
    try {
      this.built = toughCookie().CookieJar.deserializeSync(merging.merged as never);
    } catch {
      // kept as it is
    }
    this.base = merging.merged;
    this.changed = false;
  }

  /** The Cookie header value for a URL ('' when none). */
  cookieHeader(url: string): string {
    if (this.surelyEmpty) return '';
    try {
      return this.jar.getCookieStringSync(url);
    } catch {
      return '';
    }
  }

  /**
   * Stores the response's Set-Cookie values; invalid ones are ignored, as browsers do, and so is
   * one whose name and value pass 4,096 bytes. A server cannot grow the jar (kept across runs, and
   * sent back with every request) without bound: past 50 cookies for a domain, or 3,000 in all,
   * the oldest go (RFC 6265 6.1 asks for at least these).
   */
  store(url: string, setCookies: readonly string[]): void {
    if (setCookies.length === 0) return;
    let stored = false;
    for (const value of setCookies) {
      if (Buffer.byteLength(value.split(';', 1)[0]!) > MAX_COOKIE_BYTES) continue;
      try {
        if (this.jar.setCookieSync(value, url, { ignoreError: true })) stored = true;
      } catch {
        // ignored, like a browser would
      }
    }
    if (!stored) return;
    this.changed = true;
    this.revision++;
    trim(this.jar);
  }

  /**
   * The cookies the jar would send to a URL (after a response, those it set among them), with
   * whether each is host-only and its Max-Age (null without one): what Postman's legacy
   * `responseCookies` lists. None for a URL the jar cannot read.
   */
  cookiesFor(url: string): (CookieInfo & { hostOnly: boolean; maxAge: number | null })[] {
    if (this.surelyEmpty) return [];
    try {
      return this.jar.getCookiesSync(url).map((c) => {
        const expiry = c.expiryTime();
        return {
          domain: c.domain ?? '', path: c.path ?? '/', name: c.key, value: c.value,
          expires: expiry !== undefined && Number.isFinite(expiry) ? new Date(expiry).toISOString() : null,
          secure: c.secure, httpOnly: c.httpOnly, hostOnly: c.hostOnly === true,
          maxAge: typeof c.maxAge === 'number' && Number.isFinite(c.maxAge) ? c.maxAge : null,
        };
      });
    } catch {
      return [];
    }
  }

  /** Every cookie in the jar, oldest first, as a face lists them (the app's cookies tab). */
  list(): CookieInfo[] {
    return this.all().map((c) => {
      // Max-Age or Expires, whichever the cookie has; Infinity for a session cookie.
      const expiry = c.expiryTime();
      return {
        domain: c.domain ?? '', path: c.path ?? '/', name: c.key, value: c.value,
        expires: expiry !== undefined && Number.isFinite(expiry) ? new Date(expiry).toISOString() : null,
        secure: c.secure, httpOnly: c.httpOnly, ...(c.sameSite && c.sameSite !== 'none' ? { sameSite: c.sameSite } : {}),
      };
    });
  }

  /** Removes the cookie with this domain, path and name; false when there is none. Without a name, every cookie of the jar. */
  remove(which?: { domain: string; path: string; name: string }): boolean {
    const store = this.jar.store;
    const before = this.all().length;
    if (!which) store.removeAllCookies(() => {});
    else store.removeCookie(which.domain, which.path, which.name, () => {});
    const removed = this.all().length < before;
    if (removed) {
      this.changed = true;
      this.revision++;
    }
    return removed;
  }

  private all(): Cookie[] {
    let all: Cookie[] = [];
    this.jar.store.getAllCookies((error, cookies) => {
      if (!error && cookies) all = cookies;
    });
    return all;
  }
}

/** Drops the oldest cookies of `jar` past the limits. The memory store answers its callbacks at once. */
function trim(jar: CookieJar): void {
  const store = jar.store;
  let all: Cookie[] = [];
  store.getAllCookies((error, cookies) => {
    if (!error && cookies) all = cookies; // oldest first (creation order, kept across save and load)
  });
  const byDomain = new Map<string, Cookie[]>();
  for (const cookie of all) {
    const list = byDomain.get(cookie.domain ?? '') ?? [];
    list.push(cookie);
    byDomain.set(cookie.domain ?? '', list);
  }
  const drop = new Set<Cookie>();
  for (const list of byDomain.values()) for (const cookie of list.slice(0, Math.max(0, list.length - MAX_COOKIES_PER_DOMAIN))) drop.add(cookie);
  const left = all.filter((cookie) => !drop.has(cookie));
  for (const cookie of left.slice(0, Math.max(0, left.length - MAX_COOKIES))) drop.add(cookie);
  for (const cookie of drop) store.removeCookie(cookie.domain, cookie.path, cookie.key, () => {});
}

/**
 * The cookies of a serialized jar by domain, path and name, each with a print of what it is (all
 * but when it was last sent: sending a cookie does not change it). Nothing for a damaged one.
 */
function cookiesById(serialized: unknown): Map<string, { json: Record<string, unknown>; print: string }> {
  const byId = new Map<string, { json: Record<string, unknown>; print: string }>();
  const list = (serialized as { cookies?: unknown } | null | undefined)?.cookies;
  if (!Array.isArray(list)) return byId;
  for (const json of list as unknown[]) {
    if (typeof json !== 'object' || json === null) continue;
    const { lastAccessed: _sent, ...what } = json as Record<string, unknown>;
    byId.set(JSON.stringify([what.domain, what.path, what.key]), { json: json as Record<string, unknown>, print: JSON.stringify(what) });
  }
  return byId;
}
