/**
 * The workspace's cookie jar on this computer (tough-cookie, serialized in the data folder).
 * Loaded once per run, saved once at its end, and only when a cookie changed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { type Cookie, CookieJar } from 'tough-cookie';
import { writeFileAtomic } from '../../support/atomic-write.js';
import { readFileNoFollow } from '../../support/read-no-follow.js';

/** A cookie's name and value may hold this many bytes; a longer one is ignored, as browsers do. */
export const MAX_COOKIE_BYTES = 4096;
export const MAX_COOKIES_PER_DOMAIN = 50;
export const MAX_COOKIES = 3000;

export class CookieStore {
  private changed = false;

  private constructor(
    readonly jar: CookieJar,
    private readonly file: string | undefined,
  ) {}

  /** Reads the jar from `file`; a missing or damaged file starts empty. Without a file the jar lives in memory. */
  static async open(file: string | undefined): Promise<CookieStore> {
    if (file) {
      try {
        const text = await readFileNoFollow(file, 'utf8'); // a link is not followed: the jar starts empty
        return new CookieStore(CookieJar.deserializeSync(JSON.parse(text)), file);
      } catch {
        // missing or damaged: start with an empty jar
      }
    }
    return new CookieStore(new CookieJar(), file);
  }

  /** The Cookie header value for a URL ('' when none). */
  cookieHeader(url: string): string {
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
    this.trim();
  }

  /** Drops the oldest cookies past the limits. The memory store answers its callbacks at once. */
  private trim(): void {
    const store = this.jar.store;
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

  async save(): Promise<void> {
    if (!this.file || !this.changed) return;
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, JSON.stringify(this.jar.serializeSync()), 0o600);
    this.changed = false;
  }
}
