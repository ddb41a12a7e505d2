import { onCtrlC } from './exit-codes.js';

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

/**
 * Ctrl-C (SIGINT) or SIGTERM while a command changes the workspace (`import`, `update`), taken as
 * `ferry run` takes Ctrl-C (onCtrlC): the first aborts `signal` (the change stops at its next safe
 * point and is undone, or finished past its point of no return) and tells `onFirst`; a second, a
 * second or more later, quits at once (exit code 130; the next ferry command undoes or finishes the
 * change from its journal). `dispose` gives the signals back to Node.
 */
export function interruptSignal(onFirst: () => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const dispose = onCtrlC(() => {
    controller.abort();
    onFirst();
  }, ['SIGINT', 'SIGTERM']);
  return { signal: controller.signal, dispose };
}
