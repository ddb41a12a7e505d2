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
