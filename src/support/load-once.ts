/**
 * A module imported the first time it is needed and kept. `import()` of a module already loaded
 * still resolves its specifier on every call (~5 µs as shipped, far more under a loader such as
 * tsx), and a request kind's client is asked for on every send.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
