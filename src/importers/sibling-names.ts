/**
 * File names for one folder's new children: exactly what `uniqueFileName` (spec 2.1.4: `Name`,
 * `Name 2`, `Name 3`…, compared by `fileNameKey`) gives when called with every earlier sibling,
 * but in constant time per name. `uniqueFileName` rebuilds its set of taken names and probes from
 * `2` on every call, so a folder of 10,000 requests all named "New Request" cost minutes.
 * test/importers/sibling-names.test.ts checks the two agree.
 */
import { baseFileName, fileNameKey, withSuffix } from '../workspace/index.js';

export class SiblingNames {
  private readonly taken = new Set<string>();
  /** Per base name (its fileNameKey): the first suffix not yet tried. Names are never given back, so lower ones stay taken. */
  private readonly nextSuffix = new Map<string, number>();

  constructor(existing: Iterable<string> = []) {
    for (const name of existing) this.taken.add(fileNameKey(name));
  }

  /** `fallback`: as for `baseFileName`, when the display name gives no file name. */
  take(displayName: string, fallback?: string): string {
    const base = baseFileName(displayName, fallback);
    const key = fileNameKey(base);
    let name = base;
    if (this.taken.has(key)) {
      for (let n = this.nextSuffix.get(key) ?? 2; ; n++) {
        const candidate = withSuffix(base, n);
        if (!this.taken.has(fileNameKey(candidate))) {
          name = candidate;
          this.nextSuffix.set(key, n + 1);
          break;
        }
      }
    }
    this.taken.add(fileNameKey(name));
    return name;
  }
}

/**
 * Words as a file name: lower case, runs of other characters as one `-` (`GET /users/{id}` →
 * `get-users-id`). The fallback for a request whose name makes no file name (`..`, `_folder`).
 */
export function wordsFileName(text: string): string {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join('-');
}

/** A request's method and URL path as a file name, for an importer that gives none (Postman, cURL). */
export function requestFileName(request: { method?: unknown; url?: unknown }): string {
  // The scheme and host (or a `{{baseUrl}}` in their place) say nothing the folder does not.
  const url = String(request.url ?? '').replace(/^[a-z][\w+.-]*:\/\/[^/?#]*/i, '').replace(/^\{\{[^}]*\}\}/, '');
  return wordsFileName(`${String(request.method ?? 'GET')} ${url.split(/[?#]/)[0]}`);
}
