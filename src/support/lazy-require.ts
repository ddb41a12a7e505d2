/**
 * A library loaded the first time it is used, not when the module that uses it is imported:
 * `ferry` commands import much code that a given run never calls (XML examples, CSV data files,
 * AWS signing, zstd), and loading a library costs milliseconds of start-up whether used or not.
 * Only for packages with a CommonJS build (require() of them is synchronous on Node 20).
 */
import { createRequire } from 'node:module';

export function lazyRequire<T>(from: string, id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(from)(id) as T);
}
