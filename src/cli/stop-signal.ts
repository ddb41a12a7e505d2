import { performance } from 'node:perf_hooks';

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
 * One Ctrl-C can arrive twice: `timeout -s INT` signals the process and then its process group,
 * and a wrapper may pass the terminal's SIGINT on to a child that got it too. A SIGINT this soon
 * after the first is that copy, not a second press (which quits before the summary is printed).
 */
const SAME_CTRL_C_MS = 500;

/**
 * Ctrl-C during work that ends cleanly when asked (`run`, `load`): `stop` on the first SIGINT; a
 * second one exits at once (130). Returns what removes the handler.
 */
export function onCtrlC(stop: () => void): () => void {
  let first: number | undefined;
  const onInterrupt = () => {
    if (first === undefined) {
      first = performance.now();
      stop();
    } else if (performance.now() - first >= SAME_CTRL_C_MS) process.exit(130);
  };
  process.on('SIGINT', onInterrupt);
  return () => process.off('SIGINT', onInterrupt);
}
