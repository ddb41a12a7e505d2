/** The load hook of hold.mjs: runs on the loader's thread, so the process's main thread goes on meanwhile. */
import { readFileSync } from 'node:fs';

let fifo;
export function initialize(data) {
  fifo = data.fifo;
}
export async function load(url, context, next) {
  // Opening the named pipe waits for the test to open its end (the test's sign that Ferry is
  // loading); reading it waits for the test to close it.
  if (url.endsWith('/dist/bundle/ferry.js')) readFileSync(fifo);
  return next(url, context);
}
