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
