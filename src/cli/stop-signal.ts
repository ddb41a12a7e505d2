/** Resolves on the first Ctrl-C (SIGINT) or SIGTERM: how long-running commands (`serve`, `app`) wait to stop. */
export function stopSignal(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** A signal this soon after the first is the same Ctrl-C, delivered twice (`timeout`, `npm run` and a terminal each send one to the process group). */
const REPEAT_MS = 1000;

/**
 * Ctrl-C (SIGINT) or SIGTERM while a command changes the workspace (`import`, `update`), taken as
 * `ferry run` takes Ctrl-C: the first aborts `signal` (the change stops at its next safe point and
 * is undone, or finished past its point of no return) and tells `onFirst`; a second, a second or
 * more later, quits at once (exit code 130; the next ferry command undoes or finishes the change
 * from its journal). `dispose` gives the signals back to Node.
 */
export function interruptSignal(onFirst: () => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let first = 0;
  const stop = () => {
    if (controller.signal.aborted) {
      if (performance.now() - first >= REPEAT_MS) process.exit(130);
      return;
    }
    first = performance.now();
    controller.abort();
    onFirst();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return {
    signal: controller.signal,
    dispose: () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
    },
  };
}
