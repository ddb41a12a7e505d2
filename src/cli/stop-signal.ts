import { EXIT, onCtrlC } from './exit-codes.js';

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

/**
 * `interruptSignal` for a command that reads first and writes late (`import`, `update`): a Ctrl-C
 * before `startWriting()` quits at once (`status` cleared, `nothingDone` said, exit code 1), since
 * nothing is written yet; after it, the command's own safe points stop and undo the writing.
 */
export function interruptUntilWriting(status: { clear(): void } | undefined, nothingDone: string, output: { err(text: string): void }): { signal: AbortSignal; dispose(): void; startWriting(): void } {
  let writing = false;
  const interrupt = interruptSignal(() => {
    if (writing) return;
    status?.clear();
    output.err(`ferry: Interrupted: ${nothingDone}`);
    process.exit(EXIT.failed);
  });
  return { ...interrupt, startWriting: () => void (writing = true) };
}
