/**
 * The workspace's cookie jar on this computer (tough-cookie, serialized in the data folder).
 * Loaded once per run, saved once at its end, and only when a cookie changed.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CookieJar } from 'tough-cookie';
import { writeFileAtomic } from '../support/atomic-write.js';
import { readFileNoFollow } from '../support/read-no-follow.js';

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

  /** Stores the response's Set-Cookie values; invalid ones are ignored, as browsers do. */
  store(url: string, setCookies: readonly string[]): void {
    for (const value of setCookies) {
      try {
        if (this.jar.setCookieSync(value, url, { ignoreError: true })) this.changed = true;
      } catch {
        // ignored, like a browser would
      }
    }
  }

  async save(): Promise<void> {
    if (!this.file || !this.changed) return;
    await fs.mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
    await writeFileAtomic(this.file, JSON.stringify(this.jar.serializeSync()), 0o600);
    this.changed = false;
  }
}
